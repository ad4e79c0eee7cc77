// The one list of dropkit's commands: the CLI registers exactly these.

import { ConfigCommand } from "./config.js";
import { CreateCommand } from "./create.js";
import { InitCommand } from "./init.js";

/** Every command, in the order `dropkit --help` lists them. */
export const commands = [CreateCommand, ConfigCommand, InitCommand];
