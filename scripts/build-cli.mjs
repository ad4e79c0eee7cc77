// Bundles the CLI into one CommonJS file, dist/dropkit.cjs: start-up is most of a config resolver's run time,
// and one file loaded by Node's CommonJS loader starts much faster than a graph of ES modules.

import { readFile } from "node:fs/promises";
import { build } from "esbuild";

const { version } = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8"));

/**
 * Text replacements in clipanion, each of which must match exactly `count` times (a clipanion update that
 * changes the text fails the build instead of silently losing the patch). They make clipanion's default
 * context lazy: as published it creates `process.stdin` (a stream, and for a terminal node:tty with node:net)
 * and loads node:tty for the colour depth when the module loads, which was about a fifth of `dropkit config`'s
 * start-up. Only `init` reads stdin, and dropkit always passes `enableColors`, so most runs never need either.
 */
const clipanionPatches = {
  "lib/platform/node.js": [
    // node:tty only when the colour depth is asked for.
    { from: "var tty = require('tty');", to: "", count: 1 },
    { from: "var tty__default = /*#__PURE__*/_interopDefaultLegacy(tty);", to: "var tty__default = { get default() { return require('tty'); } };", count: 1 },
  ],
  "lib/advanced/Cli.js": [
    { from: "    stdin: process.stdin,", to: "    get stdin() { return process.stdin; },", count: 1 },
    { from: "    colorDepth: platform.getDefaultColorDepth(),", to: "    get colorDepth() { return platform.getDefaultColorDepth(); },", count: 1 },
    // Object spread would call the getters; copying the property descriptors keeps them lazy.
    {
      from: /\{\s*\.\.\.Cli\.defaultContext,\s*\.\.\.userContext,\s*\}/g,
      to: "Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(Cli.defaultContext), ...Object.getOwnPropertyDescriptors(userContext ?? {}) })",
      count: 2,
    },
  ],
};

/** Applies `clipanionPatches` to the files of clipanion as esbuild loads them. */
const lazyClipanion = {
  name: "lazy-clipanion",
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]clipanion[\\/]lib[\\/].*\.js$/ }, async (args) => {
      const file = args.path.replace(/\\/g, "/").replace(/^.*\/node_modules\/clipanion\//, "");
      const patches = clipanionPatches[file];
      if (!patches) return undefined;
      let text = await readFile(args.path, "utf8");
      for (const { from, to, count } of patches) {
        const found = typeof from === "string" ? text.split(from).length - 1 : (text.match(from) ?? []).length;
        if (found !== count) throw new Error(`clipanion ${file}: expected ${count} of ${from}, found ${found}; update scripts/build-cli.mjs`);
        text = text.replaceAll(from, to);
      }
      return { contents: text, loader: "js" };
    });
  },
};

await build({
  entryPoints: ["src/cli.ts"],
  outfile: "dist/dropkit.cjs",
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  // Loaded lazily, only when a .ts/.js config, a deep detect glob or `init`'s prompts need them: kept out of the start-up path.
  external: ["jiti", "tinyglobby", "@clack/prompts"],
  define: {
    // The sources locate package.json and the wasm relative to import.meta.url; in the bundle that is the bundle's own URL.
    "import.meta.url": "__dropkitUrl",
    // The version, so that start-up does not read and parse package.json; src/cli.ts reads it when run unbundled.
    __DROPKIT_VERSION__: JSON.stringify(version),
  },
  banner: { js: "const __dropkitUrl = require(\"node:url\").pathToFileURL(__filename).href;" },
  plugins: [lazyClipanion],
  legalComments: "none",
  logLevel: "warning",
});
