// Bundles the CLI into one CommonJS file, dist/dropkit.cjs: start-up is most of a config resolver's run time,
// and one file loaded by Node's CommonJS loader starts much faster than a graph of ES modules.

import { build } from "esbuild";

await build({
  entryPoints: ["src/cli.ts"],
  outfile: "dist/dropkit.cjs",
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  // Loaded lazily, only when a .ts/.js config, a deep detect glob or `init`'s prompts need them: kept out of the start-up path.
  external: ["jiti", "tinyglobby", "@clack/prompts"],
  // The sources locate package.json and the wasm relative to import.meta.url; in the bundle that is the bundle's own URL.
  define: { "import.meta.url": "__dropkitUrl" },
  banner: { js: "const __dropkitUrl = require(\"node:url\").pathToFileURL(__filename).href;" },
  legalComments: "none",
  logLevel: "warning",
});
