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
 * and loads node:tty for the colour depth when the module loads, about a seventh of `dropkit config`'s start-up
 * profile. Only `init` reads stdin, and dropkit always passes `enableColors`, so most runs never need either.
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

// The digest pool's worker threads run their own small bundle (the hashing and the zip check), loaded only when
// archives must be read: see src/digest-pool.ts.
await build({
  entryPoints: ["src/digest-worker.ts"],
  outfile: "dist/digest-worker.cjs",
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  legalComments: "none",
  logLevel: "warning",
});

// The bin compiles the bundle as a function body, where src/cli.ts's hashbang would be a syntax error.
const bundle = routeImports(result.outputFiles[0].text.replace(/^#!.*\n/, ""));
// V8 checks a code cache only against the source's length, so a cache's name carries a hash of its source: a cache
// left from another build (or made from another version of jiti) is never used.
const hash = createHash("sha256").update(bundle).digest("hex").slice(0, 16);
const dist = path.resolve("dist");
for (const file of readdirSync(dist)) if (/^(dropkit-cli|jiti)\.[0-9a-f]+\.cache$/.test(file)) rmSync(path.join(dist, file));
writeFileSync(path.join(dist, "dropkit-cli.cjs"), bundle);
writeFileSync(path.join(dist, "dropkit.cjs"), binSource(`dropkit-cli.${hash}.cache`));
chmodSync(path.join(dist, "dropkit.cjs"), 0o755);
makeCodeCaches(path.join(dist, "dropkit.cjs"));

// --- helpers ---

/**
 * The bin: compiles the bundle, and jiti when a .ts/.js config needs it, with their code caches (when V8 accepts
 * them), and runs the bundle as Node would a CommonJS module.
 */
function binSource(bundleCache) {
  return `#!/usr/bin/env node
// dropkit's bin, written by scripts/build-cli.mjs: runs the bundle dropkit-cli.cjs compiled with the V8 code cache
// the build made for it, which saves parsing and compiling it on every start-up; jiti (190 KB, loaded for .ts and
// .js configs) gets the same. Without a cache, or when V8 rejects one (another Node version), code compiles as usual.
"use strict";
const { readFileSync } = require("node:fs");
const Module = require("node:module");
const path = require("node:path");
const { Script } = require("node:vm");

/** CommonJS \`source\` compiled as Node does (with one more parameter), with the code cache in \`cacheFile\` if any. */
function compile(source, filename, cacheFile) {
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // No cache: compile without one.
  }
  const script = new Script("(function (exports, require, module, __filename, __dirname, __dropkitImport) {" + source + "\\n})", { filename, cachedData });
  return { script, cacheFile };
}

// jiti's file is known only once the bundle requires it; its cache is named by a hash of its text, and crypto costs
// nothing extra here since jiti loads it anyway.
const jitiFile = path.join(path.sep, "jiti", "dist", "jiti.cjs");
const compileModule = Module.prototype._compile;
Module.prototype._compile = function (content, filename, ...rest) {
  if (!filename.endsWith(jitiFile)) return compileModule.call(this, content, filename, ...rest);
  Module.prototype._compile = compileModule;
  const hash = require("node:crypto").createHash("sha256").update(content).digest("hex").slice(0, 16);
  // Exported for the build, which makes the caches after a run.
  exports.jiti = compile(content, filename, path.join(__dirname, "jiti." + hash + ".cache"));
  const run = exports.jiti.script.runInThisContext();
  return run.call(this.exports, this.exports, Module.createRequire(filename), this, filename, path.dirname(filename));
};

const file = path.join(__dirname, "dropkit-cli.cjs");
exports.bundle = compile(readFileSync(file, "utf8"), file, path.join(__dirname, "${bundleCache}"));
const bundle = { exports: {} };
// The bundle's import() calls, made here: see routeImports in scripts/build-cli.mjs.
exports.bundle.script.runInThisContext()(bundle.exports, require, bundle, file, __dirname, (specifier) => import(specifier));
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
 * Runs \`dropkit config\` through the bin and saves V8's code caches at exit, so that they hold every function
 * start-up compiles: the bundle's from a JSON config (the common case), jiti's from a .ts config whose transpiled
 * form jiti has cached (a second run). Then checks that a fresh process accepts both.
 */
function makeCodeCaches(bin) {
  const repo = mkdtempSync(path.join(os.tmpdir(), "dropkit-code-cache-"));
  try {
    const drops = { json: path.join(repo, "json"), ts: path.join(repo, "ts") };
    for (const dir of Object.values(drops)) mkdirSync(path.join(dir, ".git"), { recursive: true });
    writeFileSync(path.join(drops.json, "dropkit.config.json"), JSON.stringify({ theme: "ocean", exclude: ["legacy-*"] }));
    writeFileSync(path.join(drops.ts, "dropkit.config.ts"), "const theme: string = \"ocean\";\nexport default { theme };\n");
    /** Runs \`dropkit config\` in `drop` with `onExit` (a function of the bin's exports, as text) called at exit. */
    const run = (drop, onExit) => spawnSync(process.execPath, ["-e", `process.argv = [process.argv[0], ${JSON.stringify(bin)}, "config"];
const bin = require(${JSON.stringify(bin)});
process.on("exit", () => (${onExit})(bin));`], {
      cwd: drop,
      // A plain run: no DROPKIT_* settings, and no NODE_OPTIONS, whose V8 flags would make V8 reject the cache in other runs.
      env: { ...withoutDropkitSettings(process.env), GIT_CEILING_DIRECTORIES: repo },
      encoding: "utf8",
    });
    const save = (which) => `(bin) => require("node:fs").writeFileSync(bin.${which}.cacheFile, bin.${which}.script.createCachedData())`;
    const runs = [run(drops.json, save("bundle")), run(drops.ts, "() => {}"), run(drops.ts, save("jiti"))];
    // Not fatal: a cache then covers less of start-up, and the tests say what is wrong with the CLI.
    const failed = runs.find((r) => r.status !== 0);
    if (failed) console.warn(`build-cli: dropkit config failed (exit ${failed.status}) while making the code caches: ${failed.stderr.trim()}`);
    const check = run(drops.ts, "(bin) => console.log(`rejected: ${bin.bundle.script.cachedDataRejected} ${bin.jiti.script.cachedDataRejected}`)");
    if (!/^rejected: false false$/m.test(check.stdout)) {
      for (const file of readdirSync(dist)) if (file.endsWith(".cache")) rmSync(path.join(dist, file));
      console.warn(`build-cli: V8 did not accept the code caches, so start-up compiles the bundle and jiti: ${check.stdout}${check.stderr}`);
    }
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}

function withoutDropkitSettings(env) {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith("DROPKIT_") && name !== "NODE_OPTIONS"));
}
