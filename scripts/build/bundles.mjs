// The CLI's bundles: dist/dropkit-cli.cjs (every command), dist/dropkit-config.cjs (`dropkit config` alone), the digest
// pool's worker and the language server, each one CommonJS file: one file loaded by Node's CommonJS loader starts much
// faster than a graph of ES modules.

import { createRequire } from "node:module";
import path from "node:path";
import { build } from "esbuild";

/** Loaded lazily, only when a .ts/.js config, a deep detect glob or `init`'s prompts need them: kept out of the start-up path. */
export const external = ["jiti", "tinyglobby", "@clack/prompts"];

/** What every bundle is: one CommonJS file for the Node versions dropkit supports, without license comments. */
const nodeCommonJs = { bundle: true, platform: "node", format: "cjs", target: "node20", legalComments: "none", logLevel: "warning" };

/**
 * The parameters of the function a bundle is compiled as: CommonJS's, then what the bin (src/cli/bin.ts) gives it:
 * `__dropkitImport` (see routeImports), `__dropkitFullCli` (see src/cli/main.ts), `__dropkitBundle` (the bundle's URL,
 * made when asked for: `import.meta.url` below) and `__dropkitCommonJs` (see commonJsImports). The bin compiles jiti's
 * file in the same function.
 */
export const wrapper =
  "(function (exports, require, module, __filename, __dirname, __dropkitImport, __dropkitFullCli, __dropkitBundle, __dropkitCommonJs) {";

/**
 * typanion from its ES module build, so that esbuild keeps only the validators used (src/cli/commands/clipanion.ts): its
 * CommonJS build, typanion's main entry, went into each bundle whole (docs/performance.md#tricks-in-place) for the one
 * validator dropkit's options use. clipanion's own require of typanion (a command's `static schema`, checked with three
 * validators) gets ./typanion-schema.mjs, those three.
 */
const typanionEsm = {
  name: "typanion-esm",
  setup(b) {
    const esm = createRequire(import.meta.url).resolve("typanion/lib/index.mjs");
    b.onResolve({ filter: /^typanion$/ }, (args) =>
      /[\\/]clipanion[\\/]/.test(args.importer) ? { path: path.resolve("scripts/build/typanion-schema.mjs") } : { path: esm },
    );
  },
};

/**
 * Node built-ins loaded on first use. src/files/privatedir.ts (in the bin, and in the bundles for the answer cache) asks
 * node:os only when there is no HOME, so that a run with HOME never loads it; the lock asks it only
 * when another run holds the lock. node:url and node:util are asked only off the common path (a config's URL on Bun and
 * Deno, a value no JSON can hold): Node has them loaded already, but Bun loads each as a module of its own. node:module
 * (src/installed.ts resolving a package) is not loaded on Node at all until asked for: the bin avoids it too.
 */
export function lazyBuiltins(specifiers) {
  const filter = new RegExp(`^(?:${specifiers.join("|")})$`);
  return {
    name: "lazy-builtins",
    setup(b) {
      // The stand-in's own require is the built-in itself: resolved like the others, it was the stand-in again, and
      // every property read recursed until the stack overflowed (os.homedir() without HOME gave no cache directory).
      b.onResolve({ filter }, (args) =>
        args.namespace === "lazy-builtin" ? { path: args.path, external: true } : { path: args.path, namespace: "lazy-builtin" },
      );
      b.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, (args) => ({
        contents: `module.exports = new Proxy({}, { get: (_, name) => require(${JSON.stringify(args.path)})[name] });`,
        loader: "js",
      }));
    },
  };
}

/**
 * `dropkit config` runs a bundle of its own holding the config command alone (src/cli/commands/config-only.ts, with its
 * own parser table, in place of the command list): less for a run to read, compile and run, and fewer pages of memory
 * touched (docs/performance.md#one-bundle-and-one-for-config). An argv that command cannot parse alone (its help, a
 * flag it does not know) is handed to the full CLI.
 */
const configOnly = {
  name: "config-only",
  setup(b) {
    b.onResolve({ filter: /^\.\/commands\/index\.js$/ }, (args) =>
      args.importer.endsWith(path.join("src", "cli", "clis.ts")) ? { path: path.resolve("src/cli/commands/config-only.ts") } : undefined,
    );
  },
};

/** A bundle of the CLI (src/cli/main.ts), as text; `values` are the build's values for main.ts (its `declare const`s). */
async function cliBundle(plugins, values) {
  const result = await build({
    ...nodeCommonJs,
    entryPoints: ["src/cli/main.ts"],
    write: false,
    external,
    define: {
      // The sources locate package.json and the wasm relative to import.meta.url; in the bundle that is the bundle's own
      // URL, made by the bin only when asked for. The bundle's own file and folder are at hand: src/installed.ts finds the
      // built files by them.
      "import.meta.url": "__dropkitBundle.url",
      "import.meta.filename": "__filename",
      "import.meta.dirname": "__dirname",
      __DROPKIT_VERSION__: JSON.stringify(values.version),
      __DROPKIT_CORE_HASH__: JSON.stringify(values.coreHash),
    },
    plugins: [typanionEsm, lazyBuiltins(["node:os", "node:url", "node:util", "node:module"]), ...plugins],
    // The bundles keep their names: shortening them (minifyIdentifiers) made them smaller but cost the stack of an
    // internal error its names (docs/performance.md#tried-and-not-kept).
    minifyWhitespace: true,
  });
  return asFunction(result.outputFiles[0].text);
}

/** Builds the four bundles: writes the worker's and the language server's, and returns the text of the two the bin compiles. */
export async function buildBundles(values) {
  const [cli, config] = await Promise.all([cliBundle([], values), cliBundle([configOnly], values)]);
  // The digest pool's worker threads run their own small bundle (the hashing and the zip check), loaded only when
  // archives must be read: see src/archives/digest-pool.ts.
  await build({
    ...nodeCommonJs,
    entryPoints: ["src/archives/digest-worker.ts"],
    outfile: "dist/digest-worker.cjs",
  });
  await lspBundle(values);
  return { cli, config };
}

/**
 * The language server (`dropkit lsp`) is a bundle of its own, dist/dropkit-lsp.cjs, which src/cli/commands/lsp.ts
 * requires when that command runs: no other command reads or compiles its code (vscode-languageserver and the server).
 * Node requires it as it is (no code cache: a server starts once per editor session, not once per command).
 */
async function lspBundle(values) {
  await build({
    ...nodeCommonJs,
    entryPoints: ["src/lsp/server.ts"],
    outfile: "dist/dropkit-lsp.cjs",
    external,
    // The package's own file in dist/, as the CLI's bundles are (src/installed.ts), its URL made from its name.
    define: {
      "import.meta.url": "__dropkitLspUrl",
      "import.meta.filename": "__filename",
      "import.meta.dirname": "__dirname",
      __DROPKIT_VERSION__: JSON.stringify(values.version),
    },
    banner: { js: 'var __dropkitLspUrl = require("node:url").pathToFileURL(__filename).href;' },
    minifyWhitespace: true,
  });
}

/**
 * A bundle as the bin compiles it: a function, written so in the file (src/cli/main.ts's hashbang, a syntax error
 * there, removed). Wrapping it at start-up made a second string of the whole bundle, which V8 then copied into one
 * (a copy of the whole bundle, and the pages it touches, on every run: docs/performance.md#tricks-in-place).
 */
const asFunction = (text) => wrapper + commonJsImports(routeImports(text.replace(/^#!.*\n/, ""))) + "\n})";

/**
 * Makes the bundle's import() calls (of ES-module-only dependencies, and a few node: modules) call the bin's
 * `__dropkitImport` instead: in Node 20, import() in a script compiled from a code cache fails ("A dynamic import
 * callback was not specified"), because the cache does not keep the script's import callback.
 */
function routeImports(text) {
  const specifiers = [];
  const routed = text.replace(/(?<![\w$.])import\((["'])([^"']+)\1\)/g, (_, quote, specifier) => {
    specifiers.push(specifier);
    return `__dropkitImport(${quote}${specifier}${quote})`;
  });
  // src/config/native.ts imports a config by its URL, a variable: routed the same way.
  const named = routed.replace(/(?<![\w$.])import\((\w+)\)/g, (_, variable) => `__dropkitImport(${variable})`);
  // Anything else that looks like import() (a computed expression, or the text in a string) needs a look.
  if (/(?<![\w$.])import\(/.test(named)) throw new Error("the bundle has an import() that routeImports cannot route: update it");
  const strange = specifiers.filter((specifier) => !specifier.startsWith("node:") && !external.includes(specifier));
  if (strange.length > 0) throw new Error(`the bundle imports ${strange.join(", ")}, which is neither external nor node:`);
  return named;
}

/**
 * An ES import of a CommonJS module (a Node built-in: `import path from "node:path"`, in every module that joins
 * paths; clipanion, src/cli/commands/clipanion.ts) is, as esbuild writes it, `__toESM(require(...), 1)`: a new
 * object with a getter for each of the module's exports, made for each importing module as it is initialised (27
 * modules import node:path so): young allocation that, with the rest of a cached `create`'s, cost it a scavenge
 * (docs/performance.md#a-cached-create). The bin's `__dropkitCommonJs` gives the
 * same answers (`default` is `module.exports`, each export is read from it) from an object inheriting from
 * `module.exports`. It depends on the shape esbuild writes: a build that finds none of it, or one it does not know, fails.
 */
function commonJsImports(text) {
  let found = 0;
  const routed = text.replace(/__toESM\((require\("[\w:/]+"\)|require_\w+\(\)),1\)/g, (_, module) => {
    found++;
    return `__dropkitCommonJs(${module})`;
  });
  if (found === 0 || /__toESM\((?!mod,)/.test(routed))
    throw new Error(`commonJsImports replaced ${found} imports of CommonJS modules and left others: esbuild's output changed, update it`);
  return routed;
}
