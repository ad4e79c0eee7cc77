#!/usr/bin/env node
// dropkit's bin, dist/dropkit.cjs (scripts/build/bin.mjs): runs a bundle compiled with a V8 code cache of this Node version,
// which saves parsing and compiling it on every start-up; jiti (loaded for .ts and .js configs) gets the same.

// A code cache fits one Node version (and V8 flags), so none ships in the package: the first run on a Node version compiles
// as usual and saves the caches at exit in a directory private to the user (`$XDG_CACHE_HOME/dropkit/v8` or
// `~/.cache/dropkit/v8`, checked by src/files/privatedir.ts as jiti's cache is, or not used at all: a code cache is code, and
// dropkit never loads code it did not choose); later runs on that version load them. The bin is the one file Node
// compiles without a code cache, on every run: it holds only this and what it imports of src/files/privatedir.ts and
// src/oneoffwork.ts.

import { readFileSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import type { Script } from "node:vm";
import { privateDir, prunePrivateDir, readPrivateFile, writePrivateFile } from "../files/privatedir.js";
import { didOneOffWork } from "../oneoffwork.js";

/** Set by the build (esbuild's define): the function a bundle is compiled as (scripts/build/bundles.mjs). */
declare const __DROPKIT_WRAPPER__: string;
/** Set by the build: a hash of each bundle's text, which names its code cache (V8 checks a cache only against the source's length). */
declare const __DROPKIT_CLI_HASH__: string;
declare const __DROPKIT_CONFIG_HASH__: string;

type ModuleClass = typeof import("node:module");
type Compile = (this: NodeJS.Module, content: string, filename: string, ...rest: unknown[]) => unknown;
/** A script compiled for this run, and the file its code cache is saved to (null: none is kept). */
export type Compiled = { script: Pick<Script, "runInThisContext"> & Partial<Pick<Script, "cachedDataRejected">>; cacheFile: string | null };

// Node's CommonJS module class is this module's own constructor: require("node:module") would load the module
// facade on every start-up (docs/performance.md#tricks-in-place). Bun's modules are made otherwise: there, the facade.
const moduleClass = module.constructor as unknown as ModuleClass;
const Module: ModuleClass = typeof moduleClass.createRequire === "function" ? moduleClass : require("node:module");

/**
 * The private cache directory (src/files/privatedir.ts), or null: then no caches, as on Bun and Deno, whose
 * process.version names the Node they emulate rather than their own engine.
 */
function cacheDirectory(): string | null {
  if (process.versions.bun || process.versions.deno) return null;
  try {
    return privateDir(process.env, process.platform, "v8").dir;
  } catch {
    return null;
  }
}

const cacheDir = cacheDirectory();
/** Scripts whose cache is missing or was rejected: their caches are written at exit, with every function the run compiled. */
const unsaved: Array<{ script: Script; cacheFile: string }> = [];

/** The command's word: the first argument, after any `-C <dir>` before it (src/cli/directory.ts takes those out). */
function commandWord(argv: string[]): string {
  let at = 2;
  for (let word = argv[at]; word !== undefined && (word.startsWith("-C") || word.startsWith("--directory")); word = argv[at])
    at += word === "-C" || word === "--directory" ? 2 : 1;
  const word = argv[at];
  return word !== undefined && ["create", "config", "init", "completion", "help"].includes(word) ? word : "other";
}

/**
 * The bundle's cache is kept per command: a cache holds what the run that wrote it compiled, so one made by `config`
 * leaves `create` compiling its own code on every run, and one made by `create` gives `config` more to load than it
 * runs (docs/performance.md#v8-code-caches).
 */
const command = commandWord(process.argv);

/** eval called by another name: in the global scope, as node:vm's runInThisContext. */
// biome-ignore lint/security/noGlobalEval: on Bun, the bundles (dropkit's own files) are compiled so.
const globalEval: (code: string) => unknown = eval;

/** `source`, a function (a bundle, or jiti's file in the wrapper), compiled with its code cache `name` when there is one. */
function compile(source: string, filename: string, name: string): Compiled {
  // Bun keeps no code cache (cacheDirectory) and loads node:vm as a module of its own (docs/performance.md#bun): it compiles by
  // indirect eval, the code named by its sourceURL as a Script's is by its filename (which a line break would end).
  if (process.versions.bun && !/[\n\r\u2028\u2029]/.test(filename)) {
    return { script: { runInThisContext: () => globalEval(source + "\n//# sourceURL=" + filename) }, cacheFile: null };
  }
  const { Script } = require("node:vm") as typeof import("node:vm");
  const cacheFile = cacheDir && join(cacheDir, name + "-" + process.version + "-" + process.arch + ".cache");
  // Opened once, judged on its descriptor and read with a bound, kept fresh when in use (src/files/privatedir.ts): none
  // yet, or anything but this user's own regular file (a FIFO, a link to /dev/zero), compiles without a cache and
  // saves one at exit. 64 MiB is many times any code cache a run saves.
  const cachedData = (cacheFile && readPrivateFile(cacheFile, 64 * 1024 * 1024, true)) || undefined;
  const script = new Script(source, { filename, cachedData });
  if (cacheFile && (cachedData === undefined || script.cachedDataRejected)) unsaved.push({ script, cacheFile });
  return { script, cacheFile };
}

// Saved only by a run that succeeded: one that stopped early (a usage error, an invalid config) compiled too little of
// its command to be worth keeping, and the next run saves it instead. Nor by a run that read archives into the
// fingerprint cache (src/oneoffwork.ts): its cache would hold the reading's code, which the next runs
// skip but would load on every start (docs/performance.md#v8-code-caches).
process.once("exit", (code) => {
  if (code !== 0 || didOneOffWork()) return;
  for (const { script, cacheFile } of unsaved) writePrivateFile(cacheFile, script.createCachedData());
  // Each upgrade of dropkit, jiti or Node leaves caches that nothing reads again, one per command.
  if (unsaved.length > 0 && cacheDir) prunePrivateDir(cacheDir, ".cache");
});

/** jiti's file, compiled with its cache: for tests, which check that a second run uses the caches. */
export let jiti: Compiled | undefined;

// jiti's file is known only once the bundle requires it; its cache is named by a hash of its text, and crypto costs
// nothing extra here since jiti loads it anyway.
const jitiFile = join(sep, "jiti", "dist", "jiti.cjs");
const prototype = Module.prototype as unknown as { _compile: Compile };
const compileModule = prototype._compile;
prototype._compile = function (content, filename, ...rest) {
  if (!filename.endsWith(jitiFile)) return compileModule.call(this, content, filename, ...rest);
  prototype._compile = compileModule;
  const hash = (require("node:crypto") as typeof import("node:crypto")).createHash("sha256").update(content).digest("hex").slice(0, 16);
  jiti = compile(__DROPKIT_WRAPPER__ + content + "\n})", filename, "jiti-" + hash);
  const run = jiti.script.runInThisContext();
  return run.call(this.exports, this.exports, Module.createRequire(filename), this, filename, dirname(filename));
};

// The bundle's import() calls, made here: see routeImports in scripts/build/bundles.mjs. A Node built-in (loaded lazily,
// as node:child_process for hooks) is required: its namespace is its exports, and import() would load Node's ES module
// loader for it, which a built-in does not need (docs/performance.md#loaded-on-first-use).
const importBuiltin = (specifier: string) => {
  const exported = require(specifier);
  return { ...exported, default: exported };
};
const importFor = (specifier: string) =>
  specifier.startsWith("node:") ? Promise.resolve(specifier).then(importBuiltin) : import(specifier);

/**
 * An ES import of a CommonJS module, as the bundles make it (commonJsImports in scripts/build/bundles.mjs): `default`
 * is `module.exports`, and each export is read from it.
 */
const commonJs = (exported: object) => ({ __proto__: exported, default: exported });

/** The bundles this run compiled, in order, and what each exports: for tests. */
export const bundles: string[] = [];
export const bundleExports: Record<string, unknown> = {};

/**
 * Compiles and runs one bundle; `fullCli` is given to a bundle that holds only some commands, which calls it to
 * hand the run to the full CLI. Returns what was compiled.
 */
function runBundle(name: string, hash: string, fullCli?: () => Compiled): Compiled {
  bundles.push(name);
  const file = join(__dirname, name);
  const compiled = compile(readFileSync(file, "utf8"), file, "dropkit-cli-" + hash + "-" + command);
  const bundle = { exports: {} };
  // The bundle's URL (its import.meta.url) is made only when asked for: a start-up for a JSON config never needs it
  // (docs/performance.md#loaded-on-first-use).
  const url = {
    get url() {
      return (require("node:url") as typeof import("node:url")).pathToFileURL(file).href;
    },
  };
  compiled.script.runInThisContext()(bundle.exports, require, bundle, file, __dirname, importFor, fullCli, url, commonJs);
  bundleExports[name] = bundle.exports;
  return compiled;
}

const runFullCli = () => runBundle("dropkit-cli.cjs", __DROPKIT_CLI_HASH__);
/** The bundle this run compiled first: `dropkit config` runs dropkit-config.cjs, the config command alone; everything else the full CLI. */
export const bundle = command === "config" ? runBundle("dropkit-config.cjs", __DROPKIT_CONFIG_HASH__, runFullCli) : runFullCli();
