// The one list of dropkit's commands: the CLI registers exactly these.

import { CompletionCommand } from "./completion.js";
import { ConfigCommand } from "./config.js";
import { CreateCommand } from "./create.js";
import { HelpCommand } from "./help.js";
import { InitCommand } from "./init.js";
import { LspCommand } from "./lsp.js";

/** Every command, in the order `dropkit --help` lists them. */
export const commands = [CreateCommand, ConfigCommand, InitCommand, HelpCommand, CompletionCommand, LspCommand];

/** The commands that describe the whole CLI (its help, its completion), so they need every command registered. */
export const describingCommands: ReadonlySet<unknown> = new Set([HelpCommand, CompletionCommand]);

/** Whether this list holds only some commands (no: see ./config-only.ts for the one that does). */
export const partial = false;

/** The parser of every CLI these commands build, computed ahead of time (scripts/build/machines.ts). */
export { shippedMachines } from "../machines-full.js";
