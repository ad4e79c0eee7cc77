// Bundles the CLI into one CommonJS file, dist/dropkit-cli.cjs, run by the bin dist/dropkit.cjs with a V8 code cache
// made here: start-up is most of a config resolver's run time, one file loaded by Node's CommonJS loader starts much
// faster than a graph of ES modules, and the code cache saves compiling that file on every run.

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
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

// Loaded lazily, only when a .ts/.js config, a deep detect glob or `init`'s prompts need them: kept out of the start-up path.
const external = ["jiti", "tinyglobby", "@clack/prompts"];

const result = await build({
  entryPoints: ["src/cli.ts"],
  outfile: "dist/dropkit-cli.cjs",
  write: false,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  external,
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

// The bin compiles the bundle as a function body, where src/cli.ts's hashbang would be a syntax error.
const bundle = routeImports(result.outputFiles[0].text.replace(/^#!.*\n/, ""));
// V8 checks a code cache only against the source's length, so the cache's name carries a hash of the source:
// a cache left from another build is never used.
const hash = createHash("sha256").update(bundle).digest("hex").slice(0, 16);
const dist = path.resolve("dist");
for (const file of readdirSync(dist)) if (/^dropkit-cli\.[0-9a-f]+\.cache$/.test(file)) rmSync(path.join(dist, file));
writeFileSync(path.join(dist, "dropkit-cli.cjs"), bundle);
writeFileSync(path.join(dist, "dropkit.cjs"), binSource(`dropkit-cli.${hash}.cache`));
chmodSync(path.join(dist, "dropkit.cjs"), 0o755);
makeCodeCache(path.join(dist, "dropkit.cjs"), path.join(dist, `dropkit-cli.${hash}.cache`));

// --- helpers ---

/** The bin: compiles the bundle with its code cache (when V8 accepts it) and runs it as Node would a CommonJS module. */
function binSource(cacheName) {
  return `#!/usr/bin/env node
// dropkit's bin, written by scripts/build-cli.mjs: runs the bundle dropkit-cli.cjs, compiled with the V8 code cache
// the build made for it, which saves parsing and compiling it on every start-up. Without the cache, or when V8
// rejects it (another Node version), the bundle is compiled as usual.
"use strict";
const { readFileSync } = require("node:fs");
const { Script } = require("node:vm");
const file = __dirname + "/dropkit-cli.cjs";
let cachedData;
try {
  cachedData = readFileSync(__dirname + "/${cacheName}");
} catch {
  // No cache: compile without one.
}
const script = new Script("(function (exports, require, module, __filename, __dirname, __dropkitImport) {" + readFileSync(file, "utf8") + "\\n})", {
  filename: file,
  cachedData,
});
// For the build, which makes the cache after a run.
exports.script = script;
const bundle = { exports: {} };
// The bundle's import() calls, made here: see routeImports in scripts/build-cli.mjs.
script.runInThisContext()(bundle.exports, require, bundle, file, __dirname, (specifier) => import(specifier));
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
  // Anything else that looks like import() (a computed specifier, or the text in a string) needs a look.
  if (/(?<![\w$.])import\(/.test(routed)) throw new Error("the bundle has an import() that build-cli.mjs cannot route; update routeImports");
  const strange = specifiers.filter((specifier) => !specifier.startsWith("node:") && !external.includes(specifier));
  if (strange.length > 0) throw new Error(`the bundle imports ${strange.join(", ")}, which is neither external nor node:`);
  return routed;
}

/**
 * Runs \`dropkit config\` once on a small repository through the bin and saves V8's code cache of the bundle at
 * exit, so that it holds every function start-up compiles; then checks that a fresh process accepts it.
 */
function makeCodeCache(bin, cacheFile) {
  const repo = mkdtempSync(path.join(os.tmpdir(), "dropkit-code-cache-"));
  try {
    mkdirSync(path.join(repo, ".git"));
    writeFileSync(path.join(repo, "dropkit.config.json"), JSON.stringify({ theme: "ocean", exclude: ["legacy-*"] }));
    const run = (argv, code) => spawnSync(process.execPath, ["-e", `process.argv = [process.argv[0], ${JSON.stringify(bin)}, ...${JSON.stringify(argv)}];\n${code}`], {
      cwd: repo,
      // A plain run: no DROPKIT_* settings, and no NODE_OPTIONS, whose V8 flags would make V8 reject the cache in other runs.
      env: { ...withoutDropkitSettings(process.env), GIT_CEILING_DIRECTORIES: repo },
      encoding: "utf8",
    });
    const made = run(["config"], `const { script } = require(${JSON.stringify(bin)});
process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(cacheFile)}, script.createCachedData()));`);
    // Not fatal: the cache then covers less of start-up, and the tests say what is wrong with the CLI.
    if (made.status !== 0) console.warn(`build-cli: dropkit config failed (exit ${made.status}) while making the code cache: ${made.stderr.trim()}`);
    const used = run(["--version"], `console.log("rejected: " + require(${JSON.stringify(bin)}).script.cachedDataRejected);`);
    if (!/^rejected: false$/m.test(used.stdout)) {
      rmSync(cacheFile, { force: true });
      console.warn(`build-cli: the code cache was not accepted, so the bin compiles the bundle on every run: ${used.stdout}${used.stderr}`);
    }
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}

function withoutDropkitSettings(env) {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith("DROPKIT_") && name !== "NODE_OPTIONS"));
}
