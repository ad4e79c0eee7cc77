// Clipanion and typanion in one place, so that the commands share one import and the bin bundle (scripts/build-cli.mjs) inlines both.

import * as clipanionModule from "clipanion";
import { isEnum } from "typanion";

/** The clipanion API (`Cli`, `Command`, `Option`, `Builtins`). */
export const clipanion = clipanionModule;

/**
 * The typanion validators the options use, and no more: the bundles take typanion's ES module build, of which they
 * then hold only these (scripts/build-cli.mjs).
 */
export const t = { isEnum };
