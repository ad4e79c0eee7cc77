// Clipanion and typanion, loaded with require: both are CommonJS packages, and an ESM import would run them through Node's export lexer, which roughly doubles their start-up cost.

import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The clipanion API (`Cli`, `Command`, `Option`, `Builtins`). */
export const clipanion = require("clipanion") as typeof import("clipanion");

/** The typanion validators used by option definitions. */
export const t = require("typanion") as typeof import("typanion");
