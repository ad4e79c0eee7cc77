// What clipanion requires of typanion, for the bundles (scripts/build/bundles.mjs): the three validators that check a
// command's `static schema`, from typanion's ES module build, so that a bundle holds only what it uses.
export { applyCascade, isDict, isUnknown } from "typanion";
