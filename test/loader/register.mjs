// The TypeScript loader of the unit and core tiers, for `node --import`: registers hooks.mjs, and maps stack traces back to the .ts text.

import { register } from "node:module";

process.setSourceMapsEnabled(true);
register("./hooks.mjs", import.meta.url);
