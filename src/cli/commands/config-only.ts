// The command list of the bundle that runs `dropkit config` (scripts/build-cli.mjs puts it in place of ./index.ts): config alone.

import { ConfigCommand } from "./config.js";

/** The config command, alone: an argv it cannot parse by itself goes to the full CLI. */
export const commands = [ConfigCommand];

/** None: help and completion are the full CLI's. */
export const describingCommands: ReadonlySet<unknown> = new Set();

/** Only some of the commands: src/cli/main.ts hands what this list cannot take to the full CLI. */
export const partial = true;

/** The parser of the config command's CLI, computed ahead of time (scripts/build/machines.ts). */
export { shippedMachines } from "../machines-config.js";
