// The bin, dist/dropkit.cjs, from its source src/cli/bin.ts: the build's values (the bundles' wrapper and hashes) come in by
// esbuild's define, and what it uses of src/files/privatedir.ts is bundled in.

import { chmodSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { lazyBuiltins, wrapper } from "./bundles.mjs";

/**
 * src/files/privatedir.ts bounds its reads with src/files/limits.ts, whose error messages (src/errors.ts) the bin never
 * needs: marked free of side effects, that module is left out (code the bin would compile on every run).
 */
const noErrors = {
  name: "no-errors",
  setup(b) {
    b.onResolve({ filter: /\/errors\.js$/ }, (args) => ({
      path: path.resolve(args.resolveDir, args.path.replace(/\.js$/, ".ts")),
      sideEffects: false,
    }));
  },
};

/** Builds the bin for the bundles whose texts hash to `hashes` ({ cli, config }). */
export async function buildBin(hashes) {
  await build({
    entryPoints: ["src/cli/bin.ts"],
    outfile: "dist/dropkit.cjs",
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    define: {
      __DROPKIT_WRAPPER__: JSON.stringify(wrapper),
      __DROPKIT_CLI_HASH__: JSON.stringify(hashes.cli),
      __DROPKIT_CONFIG_HASH__: JSON.stringify(hashes.config),
    },
    plugins: [lazyBuiltins(["node:os"]), noErrors],
    legalComments: "none",
    logLevel: "warning",
  });
  chmodSync("dist/dropkit.cjs", 0o755);
}
