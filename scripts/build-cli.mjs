// Bundles the CLI into one CommonJS file, dist/dropkit-cli.cjs, run by the bin dist/dropkit.cjs with a V8 code cache
// that the first run on each Node version saves: start-up is most of a config resolver's run time, one file loaded by
// Node's CommonJS loader starts much faster than a graph of ES modules, and the code cache saves compiling that file.

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { build, transform } from "esbuild";

const { version } = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8"));
// V8 checks a code cache only against the source's length, so a cache's name carries a hash of its source: a cache
// left from another build is never used. The answer cache (src/files/answercache.ts) is keyed by the core's.
const hashOf = (text) => createHash("sha256").update(text).digest("hex").slice(0, 16);
// The core the bundles run, by its content: the answer cache never reads another core's answers.
const coreHash = hashOf(await readFile("dist/dropkit.wasm"));

/** clipanion's CliBuilder.compile, which builds the machine of every registered command and merges them. */
const compileBody = [
  "        const machines = [];",
  "        const contexts = [];",
  "        for (const builder of this.builders) {",
  "            const { machine, context } = builder.compile();",
  "            machines.push(machine);",
  "            contexts.push(context);",
  "        }",
  "        const machine = makeAnyOfMachine(machines);",
  "        simplifyMachine(machine);",
];

/**
 * Text replacements in clipanion, each of which must match exactly `count` times (a clipanion update that
 * changes the text fails the build instead of silently losing the patch). They make its parser allocate less and
 * parse with the machine shipped in the bundle (below), and its default context lazy: as published it creates
 * `process.stdin`, `process.stdout` and `process.stderr` (streams, and for a terminal node:tty with node:net) and
 * loads node:tty for the colour depth when the module loads, about a seventh of `dropkit config`'s start-up profile.
 * Only `init` reads stdin, dropkit passes its own stdout and stderr (src/output/stdio.ts) and always `enableColors`,
 * so most runs need none of them.
 */
const clipanionPatches = {
  "lib/platform/node.js": [
    // node:tty only when the colour depth is asked for.
    { from: "var tty = require('tty');", to: "", count: 1 },
    {
      from: "var tty__default = /*#__PURE__*/_interopDefaultLegacy(tty);",
      to: "var tty__default = { get default() { return require('tty'); } };",
      count: 1,
    },
  ],
  // The parser's loops over a node's dynamic transitions, without array destructuring: each \`[test, transition]\`
  // destructured made an iterator and its results, and simplifyMachine compares every pair of a node's transitions, so
  // building the \`config\` command's parser allocated about 500 KB, half the young generation, and every run paid a
  // scavenge (about 0.75 ms) for it. Indexing the same pairs allocates nothing; the machine built is the same.
  "lib/core.js": [
    {
      from: "        for (const [, { to }] of nodeDef.dynamics)\n            process(to);",
      to: "        for (const dynamic of nodeDef.dynamics)\n            process(dynamic[1].to);",
      count: 1,
    },
    {
      from: "            for (const [test, transition] of toDef.dynamics)\n                if (!nodeDef.dynamics.some(([otherTest, { to }]) => test === otherTest && transition.to === to))\n                    nodeDef.dynamics.push([test, transition]);",
      to: "            for (const dynamic of toDef.dynamics) {\n                const test = dynamic[0], transition = dynamic[1];\n                if (!nodeDef.dynamics.some((other) => test === other[0] && transition.to === other[1].to))\n                    nodeDef.dynamics.push([test, transition]);\n            }",
      count: 1,
    },
    {
      from: "                for (const [test, { to, reducer }] of nodeDef.dynamics) {",
      to: "                for (const dynamic of nodeDef.dynamics) {\n                    const test = dynamic[0], { to, reducer } = dynamic[1];",
      count: 1,
    },
    {
      from: "    for (const [test, transition] of input.dynamics)\n        output.dynamics.push([test, cloneTransition(transition, offset)]);",
      to: "    for (const dynamic of input.dynamics)\n        output.dynamics.push([dynamic[0], cloneTransition(dynamic[1], offset)]);",
      count: 1,
    },
    // A test or a reducer with arguments, called without destructuring it: `[name, ...args]` made an iterator and
    // a rest array for each of the dozens a parse runs. The same function is called with the same arguments.
    {
      from: "        const [name, ...args] = callback;\n        return store[name](state, segment, ...args);",
      to: [
        "        switch (callback.length) {",
        "            case 1: return store[callback[0]](state, segment);",
        "            case 2: return store[callback[0]](state, segment, callback[1]);",
        "            case 3: return store[callback[0]](state, segment, callback[1], callback[2]);",
        "        }",
        "        const [name, ...args] = callback;",
        "        return store[name](state, segment, ...args);",
      ].join("\n"),
      count: 1,
    },
    // What a parse does at every node for each word, made cheaper for the words most runs have; every test answers as
    // before (argv is strings). A regular expression is compiled the first time it runs, about 25 µs each: the batch
    // (`-abc`) and bound (`--name=value`) tests first ask whether the word could match at all.
    {
      from: "return !state.ignoreOptions && constants.BATCH_REGEX.test(segment) &&",
      to: "return !state.ignoreOptions && segment.startsWith(`-`) && constants.BATCH_REGEX.test(segment) &&",
      count: 1,
    },
    {
      from: "const optionParsing = segment.match(constants.BINDING_REGEX);",
      to: "const optionParsing = segment.includes(`=`) ? segment.match(constants.BINDING_REGEX) : null;",
      count: 1,
    },
    // Node's console.assert costs about 20 µs the first time, even when the assertion holds: called only when it fails.
    {
      from: "            console.assert(nodeDef.shortcuts.length === 0, `Shortcuts should have been eliminated by now`);",
      to: "            if (nodeDef.shortcuts.length !== 0)\n                console.assert(false, `Shortcuts should have been eliminated by now`);",
      count: 1,
    },
    // The debug messages (printed only with DEBUG_CLI=1) are not built either, JSON.stringify and all, unless printed.
    { from: /^(\s*)debug\(`/gm, to: "$1constants.DEBUG && debug(`", count: 14 },
    // The CLI's parser as computed when the bundle was built (src/cli/machines.ts), when its commands are exactly the
    // ones it was computed from: compiling it took about 0.5 ms of a `config` run on Node 20, 1.3-3 ms on Bun.
    // Anything else is compiled as before, by compileMachine.
    {
      from: "var errors = require('./errors.js');",
      to: "var errors = require('./errors.js');\nvar dropkitMachines = require('dropkit:machines');",
      count: 1,
    },
    {
      from: ["    compile() {", ...compileBody, "        return {", "            machine,", "            contexts,", ""].join("\n"),
      to: [
        "    compileMachine() {",
        ...compileBody,
        "        return { machine, contexts };",
        "    }",
        "    compile() {",
        "        const shipped = dropkitMachines.shippedMachine(this.builders);",
        "        const { machine, contexts } = shipped !== undefined",
        "            ? { machine: shipped, contexts: this.builders.map(builder => builder.context) }",
        "            : this.compileMachine();",
        "        return {",
        "            machine,",
        "            contexts,",
        "",
      ].join("\n"),
      count: 1,
    },
  ],
  "lib/advanced/Cli.js": [
    { from: "    stdin: process.stdin,", to: "    get stdin() { return process.stdin; },", count: 1 },
    // dropkit passes its own stdout and stderr (src/output/stdio.ts): Node's streams are made only when a run needs them.
    { from: "    stdout: process.stdout,", to: "    get stdout() { return process.stdout; },", count: 1 },
    { from: "    stderr: process.stderr,", to: "    get stderr() { return process.stderr; },", count: 1 },
    {
      from: "    colorDepth: platform.getDefaultColorDepth(),",
      to: "    get colorDepth() { return platform.getDefaultColorDepth(); },",
      count: 1,
    },
    // Object spread would call the getters; copying the property descriptors keeps them lazy.
    {
      from: /\{\s*\.\.\.Cli\.defaultContext,\s*\.\.\.userContext,\s*\}/g,
      to: "Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(Cli.defaultContext), ...Object.getOwnPropertyDescriptors(userContext ?? {}) })",
      count: 2,
    },
  ],
  // A command's `static schema` is checked with three of typanion's validators, required (CommonJS) from the whole of
  // typanion: they come from typanionEsm's module of those three instead, so that the bundle holds only what it uses.
  "lib/advanced/Command.js": [
    {
      from: "_interopNamespace(require('typanion'))",
      to: "_interopNamespace(require('dropkit:typanion-schema'))",
      count: 1,
    },
  ],
};

/**
 * The same for @assemblyscript/loader, through which src/core/host.ts instantiates the core: the loader makes a UTF-16
 * TextDecoder when its module is initialised (about 0.15 ms on Node 20, for the first TextDecoder of a process), for
 * reading strings out of a module's memory, which dropkit never asks it to do; a run answered by the answer cache
 * never instantiates the core at all. The decoder is made on its first use.
 */
const loaderPatches = {
  "index.js": [
    {
      from: 'const utf16 = new TextDecoder("utf-16le", { fatal: true }); // != wtf16',
      to: 'let utf16Decoder; const utf16 = { decode: (view) => (utf16Decoder ??= new TextDecoder("utf-16le", { fatal: true })).decode(view) }; // != wtf16',
      count: 1,
    },
  ],
};

/**
 * typanion from its ES module build, so that esbuild keeps only the validators used (src/cli/commands/clipanion.ts,
 * and clipanion's schema check through \`dropkit:typanion-schema\`): its CommonJS build, which is typanion's main
 * entry, went into each bundle whole (29 KB of the config bundle's 216) for the one validator dropkit's options use.
 */
const typanionEsm = {
  name: "typanion-esm",
  setup(b) {
    const esm = createRequire(import.meta.url).resolve("typanion/lib/index.mjs");
    b.onResolve({ filter: /^typanion$/ }, () => ({ path: esm }));
    b.onResolve({ filter: /^dropkit:typanion-schema$/ }, () => ({ path: "typanion-schema", namespace: "dropkit" }));
    b.onLoad({ filter: /^typanion-schema$/, namespace: "dropkit" }, () => ({
      contents: 'export { applyCascade, isDict, isUnknown } from "typanion";',
      loader: "js",
      resolveDir: path.dirname(esm),
    }));
  },
};

/** The packages patched, each file's patches by its path in the package. */
const packagePatches = { clipanion: clipanionPatches, "@assemblyscript/loader": loaderPatches };

/** Applies `packagePatches` to the files of those packages as esbuild loads them. */
const patchedPackages = {
  name: "patched-packages",
  setup(b) {
    // The packages' names (letters, "@" and "/") with either separator, as esbuild's paths have them.
    const names = Object.keys(packagePatches).map((n) => n.replace("/", "[\\\\/]"));
    b.onLoad({ filter: new RegExp(`[\\\\/]node_modules[\\\\/](${names.join("|")})[\\\\/].*\\.js$`) }, async (args) => {
      const where = args.path.replace(/\\/g, "/");
      const name = Object.keys(packagePatches).find((n) => where.includes(`/node_modules/${n}/`));
      const file = where.slice(where.lastIndexOf(`/node_modules/${name}/`) + `/node_modules/${name}/`.length);
      const patches = packagePatches[name][file];
      if (!patches) return undefined;
      let text = await readFile(args.path, "utf8");
      for (const { from, to, count } of patches) {
        const found = typeof from === "string" ? text.split(from).length - 1 : (text.match(from) ?? []).length;
        if (found !== count) throw new Error(`${name} ${file}: expected ${count} of ${from}, found ${found}; update scripts/build-cli.mjs`);
        text = text.replaceAll(from, to);
      }
      return { contents: text, loader: "js" };
    });
  },
};

// Loaded lazily, only when a .ts/.js config, a deep detect glob or `init`'s prompts need them: kept out of the start-up path.
const external = ["jiti", "tinyglobby", "@clack/prompts"];

/**
 * Resolves the clipanion patch's `dropkit:machines` to src/cli/machines.ts and, given `table` (the source
 * machinesTable made), puts it in place of src/cli/machines-table.ts, whose own text is an empty table.
 */
const shippedMachines = (table) => ({
  name: "shipped-machines",
  setup(b) {
    b.onResolve({ filter: /^dropkit:machines$/ }, () => ({ path: path.resolve("src/cli/machines.ts") }));
    if (table === undefined) return;
    b.onLoad({ filter: /[\\/]src[\\/]cli[\\/]machines-table\.ts$/ }, () => ({ contents: table, loader: "js" }));
  },
});

/** The CLI bundle's options; `plugins` adds to them. */
const cliOptions = (outfile, plugins = []) => ({
  entryPoints: ["src/cli/main.ts"],
  outfile,
  write: false,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  external,
  define: {
    // The sources locate package.json and the wasm relative to import.meta.url; in the bundle that is the bundle's own
    // URL, made only when asked for (pathToFileURL is about 0.2 ms of a start-up that never needs it for a JSON config).
    // The bundle's own file and folder are at hand: src/installed.ts finds the built files by them.
    "import.meta.url": "__dropkitBundle.url",
    "import.meta.filename": "__filename",
    "import.meta.dirname": "__dirname",
    // The version, so that start-up does not read and parse package.json; src/cli/main.ts reads it when run unbundled.
    __DROPKIT_VERSION__: JSON.stringify(version),
    __DROPKIT_CORE_HASH__: JSON.stringify(coreHash),
  },
  banner: {
    js: 'const __dropkitBundle = { get url() { return require("node:url").pathToFileURL(__filename).href; } }; const __dropkitCommonJs = (m) => ({ __proto__: m, default: m });',
  },
  plugins: [patchedPackages, typanionEsm, lazyBuiltins(["node:os", "node:url", "node:util"]), ...plugins],
  legalComments: "none",
  minifyWhitespace: true,
  logLevel: "warning",
});

/**
 * `dropkit config` runs a bundle of its own, dist/dropkit-config.cjs, holding the config command alone
 * (src/cli/commands/config-only.ts in place of the command list): 195 KB instead of 356, which a run reads, and whose
 * top level it compiles and runs, and about 170 fewer pages of memory touched (a page fault costs about 2 µs here).
 * An argv that command cannot parse alone (its help, a flag it does not know) is handed to the full CLI.
 */
const configOnly = {
  name: "config-only",
  setup(b) {
    b.onResolve({ filter: /^\.\/commands\/index\.js$/ }, (args) =>
      args.importer.endsWith(path.join("src", "cli", "clis.ts")) ? { path: path.resolve("src/cli/commands/config-only.ts") } : undefined,
    );
  },
};

const [table, configTable] = await Promise.all([machinesTable([]), machinesTable([configOnly])]);
const [result, configResult] = await Promise.all([
  build(cliOptions("dist/dropkit-cli.cjs", [shippedMachines(table)])),
  build(cliOptions("dist/dropkit-config.cjs", [configOnly, shippedMachines(configTable)])),
]);

// The digest pool's worker threads run their own small bundle (the hashing and the zip check), loaded only when
// archives must be read: see src/archives/digest-pool.ts.
await build({
  entryPoints: ["src/archives/digest-worker.ts"],
  outfile: "dist/digest-worker.cjs",
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  legalComments: "none",
  logLevel: "warning",
});

/**
 * The parameters of the function a bundle is compiled as: CommonJS's, then the bin's `__dropkitImport` (see
 * routeImports) and `__dropkitFullCli` (see src/cli/main.ts).
 */
const wrapper = "(function (exports, require, module, __filename, __dirname, __dropkitImport, __dropkitFullCli) {";
/**
 * A bundle as the bin compiles it: a function, written so in the file (src/cli/main.ts's hashbang, a syntax error
 * there, removed). Wrapping it at start-up made a second string of the whole bundle, which V8 then copied into one
 * (about 80 pages of memory touched, and a copy of 340 KB, on every run).
 */
const asFunction = (output) => wrapper + commonJsImports(routeImports(output.outputFiles[0].text.replace(/^#!.*\n/, ""))) + "\n})";
// The bundles keep their names: shortening them (esbuild's minifyIdentifiers, after the text patches) made the config
// bundle 216 KB to 153 and Bun's first run 0.965 as long, and cost the stack of an internal error its names.
const bundle = asFunction(result);
const configBundle = asFunction(configResult);
const dist = path.resolve("dist");
// Caches made by earlier builds, when they were kept in dist/: none is made there any more (see binSource).
for (const file of readdirSync(dist)) if (/^(dropkit-cli|jiti)\.[0-9a-f]+\.cache$/.test(file)) rmSync(path.join(dist, file));
writeFileSync(path.join(dist, "dropkit-cli.cjs"), bundle);
writeFileSync(path.join(dist, "dropkit-config.cjs"), configBundle);
// The bin is the one file Node compiles without a code cache, on every run: written without its comments and
// indentation (15 KB to 9), it compiles about 0.15 ms sooner. Its commented source is binSource below.
const binText = binSource({ cli: hashOf(bundle), config: hashOf(configBundle) }, await cacheDirSource());
const binCode = (await transform(binText.replace(/^#!.*\n/, ""), { minifyWhitespace: true, legalComments: "none", format: "cjs" })).code;
writeFileSync(path.join(dist, "dropkit.cjs"), `#!/usr/bin/env node\n${binCode}`);
chmodSync(path.join(dist, "dropkit.cjs"), 0o755);
checkCodeCaches(path.join(dist, "dropkit.cjs"));

// --- helpers ---

/**
 * The source of src/cli/machines-table.ts for the bundle built with `plugins`: the parser of every CLI that bundle
 * builds (src/cli/clis.ts), compiled by the bundle's own clipanion, patched the same way. The two modules are
 * bundled with the same options and run here, with an empty table.
 */
async function machinesTable(plugins) {
  const generator = await build({
    ...cliOptions("dist/machines.cjs", [...plugins, shippedMachines(undefined)]),
    entryPoints: undefined,
    stdin: {
      contents: 'export { everyCli } from "./src/cli/clis.ts";\nexport { machinesTableSource } from "./src/cli/machines-encode.ts";\n',
      resolveDir: process.cwd(),
      sourcefile: "machines-generator.ts",
      loader: "ts",
    },
  });
  const module = { exports: {} };
  const run = new Function("exports", "require", "module", "__filename", "__dirname", generator.outputFiles[0].text);
  run(module.exports, createRequire(import.meta.url), module, path.resolve("dist/machines.cjs"), path.resolve("dist"));
  const { everyCli, machinesTableSource } = module.exports;
  return machinesTableSource(everyCli());
}

/**
 * An esbuild plugin that makes Node built-ins load on first use. src/files/codecache.ts (in the bin, and in the bundles
 * for the answer cache) asks node:os only when there is no HOME, and loading it anyway costs about 0.3 ms of every
 * start-up; the lock asks it only when another run holds the lock. node:url and node:util are asked only off the common
 * path (a config's URL on Bun and Deno, a value no JSON can hold): Node has them loaded already, but Bun loads each as
 * a module of its own, about 0.9 and 1.2 ms of every `dropkit config` there.
 */
function lazyBuiltins(specifiers) {
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
 * src/files/codecache.ts as a script defining `dropkitCacheDir`, for the bin: its code caches are code, so they live only
 * where jiti's compiled configs may, under exactly the same checks.
 */
async function cacheDirSource() {
  const built = await build({
    entryPoints: ["src/files/codecache.ts"],
    write: false,
    bundle: true,
    platform: "node",
    format: "iife",
    globalName: "dropkitCacheDir",
    target: "node20",
    // Its bounded read comes from src/files/limits.ts, whose error messages (src/errors.ts) the bin never needs: marked
    // free of side effects, that module is left out (5 KB the bin compiled on every run).
    plugins: [lazyBuiltins(["node:os"]), { name: "no-errors", setup: (b) => b.onResolve({ filter: /\/errors\.js$/ }, noSideEffects) }],
    legalComments: "none",
    logLevel: "warning",
  });
  return built.outputFiles[0].text;
}

/** An esbuild resolution that lets the bundle leave a module out when nothing of it is used. */
function noSideEffects(args) {
  return { path: path.resolve(args.resolveDir, args.path.replace(/\.js$/, ".ts")), sideEffects: false };
}

/**
 * The bin: compiles the bundle, and jiti when a .ts/.js config needs it, with V8 code caches, and runs the bundle as
 * Node would a CommonJS module. A code cache fits one Node version (and V8 flags), so none ships in the package: the
 * first run on a Node version compiles as usual and saves the caches at exit in a directory private to the user
 * (\`$XDG_CACHE_HOME/dropkit/v8\` or \`~/.cache/dropkit/v8\`, checked by src/files/codecache.ts as jiti's cache is, or not
 * used at all: a code cache is code, and dropkit never loads code it did not choose); later runs on that version
 * load them.
 */
function binSource(bundleHashes, cacheDir) {
  return `#!/usr/bin/env node
// dropkit's bin, written by scripts/build-cli.mjs: runs the bundle dropkit-cli.cjs compiled with a V8 code cache of
// this Node version, which saves parsing and compiling it on every start-up; jiti (190 KB, loaded for .ts and .js
// configs) gets the same. The caches live in a directory private to the user; without one, code compiles as usual.
"use strict";
const { readFileSync } = require("node:fs");
// Node's CommonJS module class is this module's own constructor: require("node:module") would load the module
// facade, about 0.2 ms of every start-up on Node 20. Bun's modules are made otherwise: there, the facade.
const Module = typeof module.constructor.createRequire === "function" ? module.constructor : require("node:module");
const path = require("node:path");

${cacheDir}
/** The private cache directory (src/files/codecache.ts), or null: then no caches, as on Bun and Deno, whose process.version names the Node they emulate rather than their own engine. */
function cacheDirectory() {
  if (process.versions.bun || process.versions.deno) return null;
  try {
    return dropkitCacheDir.privateCacheDir(process.env, process.platform, "v8").dir;
  } catch {
    return null;
  }
}

const cacheDir = cacheDirectory();
/** The function jiti's file is compiled as (the bundles are written so, by scripts/build-cli.mjs). */
const wrapper = ${JSON.stringify(wrapper)};
/** Scripts whose cache is missing or was rejected: their caches are written at exit, with every function the run compiled. */
const unsaved = [];
/**
 * The bundle's cache is kept per command: a cache holds what the run that wrote it compiled, so one made by \`config\`
 * leaves \`create\` compiling its own code on every run (4 ms of a 70 ms run), and one made by \`create\` gives \`config\`
 * more to load than it runs (1.5 ms).
 */
const command = commandWord(process.argv);

/** The command's word: the first argument, after any \`-C <dir>\` before it (src/cli/directory.ts takes those out). */
function commandWord(argv) {
  let at = 2;
  for (let word = argv[at]; word !== undefined && (word.startsWith("-C") || word.startsWith("--directory")); word = argv[at])
    at += word === "-C" || word === "--directory" ? 2 : 1;
  return ["create", "config", "init", "completion", "help"].includes(argv[at]) ? argv[at] : "other";
}

/** \`source\`, a function (a bundle, or jiti's file in \`wrapper\`), compiled with its code cache \`name\` when there is one. */
function compile(source, filename, name) {
  // Bun keeps no code cache (cacheDirectory) and loads node:vm as a module of its own, about 0.4 ms: it compiles by
  // indirect eval, the code named by its sourceURL as a Script's is by its filename (which a line break would end).
  if (process.versions.bun && !/[\\n\\r\\u2028\\u2029]/.test(filename)) {
    return { script: { runInThisContext: () => (0, eval)(source + "\\n//# sourceURL=" + filename) }, cacheFile: null };
  }
  const { Script } = require("node:vm");
  const cacheFile = cacheDir && path.join(cacheDir, name + "-" + process.version + "-" + process.arch + ".cache");
  // Opened once, judged on its descriptor and read with a bound, kept fresh when in use (src/files/codecache.ts): none
  // yet, or anything but this user's own regular file (a FIFO, a link to /dev/zero), compiles without a cache and
  // saves one at exit. 64 MiB is many times any code cache a run saves.
  const cachedData = (cacheFile && dropkitCacheDir.readCacheFile(cacheFile, 64 * 1024 * 1024, true)) || undefined;
  const script = new Script(source, { filename, cachedData });
  const compiled = { script, cacheFile };
  if (cacheFile && (cachedData === undefined || script.cachedDataRejected)) unsaved.push(compiled);
  return compiled;
}

// Saved only by a run that succeeded: one that stopped early (a usage error, an invalid config) compiled too little of
// its command to be worth keeping, and the next run saves it instead. Nor by a run that read archives into the
// archive cache (src/files/codecache.ts, markOneOffWork): its cache would hold the reading's code, which the next runs
// skip but would load on every start (30 KB for a cached create).
process.once("exit", (code) => {
  if (code !== 0 || dropkitCacheDir.didOneOffWork()) return;
  for (const { script, cacheFile } of unsaved) dropkitCacheDir.writeCacheFile(cacheFile, script.createCachedData());
  // Each upgrade of dropkit, jiti or Node leaves caches that nothing reads again, about 300 KB per command.
  if (unsaved.length > 0) dropkitCacheDir.pruneCacheDir(cacheDir, ".cache");
});

// jiti's file is known only once the bundle requires it; its cache is named by a hash of its text, and crypto costs
// nothing extra here since jiti loads it anyway.
const jitiFile = path.join(path.sep, "jiti", "dist", "jiti.cjs");
const compileModule = Module.prototype._compile;
Module.prototype._compile = function (content, filename, ...rest) {
  if (!filename.endsWith(jitiFile)) return compileModule.call(this, content, filename, ...rest);
  Module.prototype._compile = compileModule;
  const hash = require("node:crypto").createHash("sha256").update(content).digest("hex").slice(0, 16);
  // Exported for tests, which check that a second run uses the caches.
  exports.jiti = compile(wrapper + content + "\\n})", filename, "jiti-" + hash);
  const run = exports.jiti.script.runInThisContext();
  return run.call(this.exports, this.exports, Module.createRequire(filename), this, filename, path.dirname(filename));
};

// The bundle's import() calls, made here: see routeImports in scripts/build-cli.mjs. A Node built-in (loaded lazily,
// as node:child_process for hooks) is required: its namespace is its exports, and import() would load Node's ES module
// loader for it, about 1.5 ms of every run that needs one.
const importBuiltin = (specifier) => {
  const exported = require(specifier);
  return { ...exported, default: exported };
};
const importFor = (specifier) => (specifier.startsWith("node:") ? Promise.resolve(specifier).then(importBuiltin) : import(specifier));

/**
 * Compiles and runs one bundle; \`fullCli\` is given to a bundle that holds only some commands, which calls it to
 * hand the run to the full CLI. Returns what was compiled.
 */
function runBundle(name, hash, fullCli) {
  exports.bundles.push(name);
  const file = path.join(__dirname, name);
  const compiled = compile(readFileSync(file, "utf8"), file, "dropkit-cli-" + hash + "-" + command);
  const bundle = { exports: {} };
  compiled.script.runInThisContext()(bundle.exports, require, bundle, file, __dirname, importFor, fullCli);
  exports.bundleExports[name] = bundle.exports;
  return compiled;
}

/** The bundles this run compiled, in order, and what each exports: for tests. */
exports.bundles = [];
exports.bundleExports = {};
const runFullCli = () => runBundle("dropkit-cli.cjs", "${bundleHashes.cli}");
// \`dropkit config\` runs dropkit-config.cjs, the config command alone (see scripts/build-cli.mjs); everything else the full CLI.
exports.bundle = command === "config" ? runBundle("dropkit-config.cjs", "${bundleHashes.config}", runFullCli) : runFullCli();
`;
}

/**
 * Makes the bundle's import() calls (of ES-module-only dependencies, and a few node: modules) call the bin's
 * \`__dropkitImport\` instead: in Node 20, import() in a script compiled from a code cache fails ("A dynamic import
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
  if (/(?<![\w$.])import\(/.test(named)) throw new Error("the bundle has an import() that build-cli.mjs cannot route; update routeImports");
  const strange = specifiers.filter((specifier) => !specifier.startsWith("node:") && !external.includes(specifier));
  if (strange.length > 0) throw new Error(`the bundle imports ${strange.join(", ")}, which is neither external nor node:`);
  return named;
}

/**
 * An ES import of a CommonJS module (a Node built-in: \`import path from "node:path"\`, in every module that joins
 * paths; clipanion, src/cli/commands/clipanion.ts) is, as esbuild writes it, \`__toESM(require(...), 1)\`: a new
 * object with a getter for each of the module's exports, made for each importing module as it is initialised (27
 * modules import node:path so; typanion, then CommonJS too, had 55 exports): about 0.4 ms and 80 KB of a cached
 * \`create\`, which with the rest of a run's allocation made V8 collect its young generation once.
 * \`__dropkitCommonJs\` (the banner) gives the same answers (\`default\` is \`module.exports\`, each export is read
 * from it) from an object inheriting from \`module.exports\`.
 */
function commonJsImports(text) {
  const imports = /__toESM\((require\("[\w:/]+"\)|require_\w+\(\)),1\)/g;
  const routed = text.replace(imports, (_, module) => `__dropkitCommonJs(${module})`);
  if (/__toESM\((?!mod,)/.test(routed))
    throw new Error("the bundle has an import of a CommonJS module that commonJsImports does not know; update it");
  return routed;
}

/**
 * Runs \`dropkit config\` through the bin three times with a cache directory of its own (a JSON config, a .ts config,
 * the .ts config again) and checks that the last run compiled the bundle and jiti from the caches the earlier runs
 * saved. Not fatal: without caches start-up is slower, and the tests say what is wrong with the CLI.
 */
function checkCodeCaches(bin) {
  const repo = mkdtempSync(path.join(os.tmpdir(), "dropkit-code-cache-"));
  try {
    const drops = { json: path.join(repo, "json"), ts: path.join(repo, "ts") };
    for (const dir of Object.values(drops)) mkdirSync(path.join(dir, ".git"), { recursive: true });
    writeFileSync(path.join(drops.json, "dropkit.config.json"), JSON.stringify({ theme: "ocean", exclude: ["legacy-*"] }));
    writeFileSync(path.join(drops.ts, "dropkit.config.ts"), 'const theme: string = "ocean";\nexport default { theme };\n');
    const cacheHome = path.join(repo, "cache");
    mkdirSync(cacheHome, { mode: 0o700 });
    /** Runs \`dropkit config\` in \`drop\` with \`onExit\` (a function of the bin's exports, as text) called at exit. */
    const run = (drop, onExit) =>
      spawnSync(
        process.execPath,
        [
          "-e",
          `process.argv = [process.argv[0], ${JSON.stringify(bin)}, "config"];
const bin = require(${JSON.stringify(bin)});
process.on("exit", () => (${onExit})(bin));`,
        ],
        {
          cwd: drop,
          // A plain run: no DROPKIT_* settings, and no NODE_OPTIONS, whose V8 flags would make V8 reject the cache in other runs.
          env: { ...withoutDropkitSettings(process.env), GIT_CEILING_DIRECTORIES: repo, XDG_CACHE_HOME: cacheHome },
          encoding: "utf8",
        },
      );
    const runs = [run(drops.json, "() => {}"), run(drops.ts, "() => {}")];
    const failed = runs.find((r) => r.status !== 0);
    if (failed)
      console.warn(`build-cli: dropkit config failed (exit ${failed.status}) while checking the code caches: ${failed.stderr.trim()}`);
    const check = run(
      drops.ts,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is code the check runs, a template literal in it.
      "(bin) => console.log(`rejected: ${bin.bundle.script.cachedDataRejected} ${bin.jiti.script.cachedDataRejected}`)",
    );
    if (!/^rejected: false false$/m.test(check.stdout)) {
      console.warn(
        `build-cli: V8 did not accept the code caches a first run saved, so start-up compiles the bundle and jiti every time: ${check.stdout}${check.stderr}`,
      );
    }
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}

function withoutDropkitSettings(env) {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith("DROPKIT_") && name !== "NODE_OPTIONS"));
}
