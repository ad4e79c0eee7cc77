// The parsers shipped in a bundle, by the key of the commands they were computed from: scripts/build-cli.mjs writes this module's text into each bundle (src/cli/machines-encode.ts); elsewhere it is empty, and clipanion compiles every parser.

import type { ShippedMachine } from "./machines.js";

/** Each shipped machine, by its builders' key (machineKey). */
export const shippedMachines: ReadonlyMap<string, ShippedMachine> = new Map();
