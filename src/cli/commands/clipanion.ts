// Clipanion and typanion in one place, so that the commands share one import and the bin bundle (scripts/build-cli.mjs) inlines both.

import * as clipanionModule from "clipanion";
import * as typanionModule from "typanion";

/** The clipanion API (`Cli`, `Command`, `Option`, `Builtins`). */
export const clipanion = clipanionModule;

/** The typanion validators used by option definitions. */
export const t = typanionModule;
