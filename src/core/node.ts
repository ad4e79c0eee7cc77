// Loads the core in Node (the one module of src/core/ that needs Node): the package's dist/dropkit.wasm, beside a bundle, or where the program says.

import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DropkitError } from "../errors.js";
import { builtFile, fromPackage, ownFile, resolveFromOwnFile } from "../installed.js";
import { Core, readInstalledModule, type AnswerStore, type ModuleFiles } from "./host.js";

let shared: Core | null = null;
let answers: AnswerStore | undefined;

/**
 * The process-wide core, compiled from the installed module (`installedModule`) when a request first needs it: with
 * the CLI's answer cache (`useAnswers`), a run the cache answers whole never reads it.
 */
export function loadCore(): Core {
  return (shared ??= new Core(installedModule, { answers }));
}

/**
 * Makes `loadCore`'s core consult `store` before the module (the CLI's answer cache, src/files/answercache.ts): called
 * before the first request. A program using dropkit's library keeps no files of its own, so only the CLI calls it.
 */
export function useAnswers(store: AnswerStore): void {
  answers = store;
}

/** A `file:` URL, as the `wasm` option takes one; the DOM's or Node's `URL`, whichever the program has. */
export type FileUrl = typeof globalThis extends { URL: { prototype: infer U } } ? U : { readonly href: string };

const cores = new Map<string, Core>();

/**
 * The core of the module at `wasm` (the library's `wasm` option: a path, resolved against the process's working
 * directory, or a `file:` URL), one per file for the process; read when a request first needs it.
 *
 * @throws DropkitError `IOError` (74) when a request needs the module and it cannot be read (at that request).
 */
export function coreAt(wasm: string | FileUrl): Core {
  const href = (wasm as { href?: unknown }).href;
  const file = path.resolve(typeof href === "string" ? fileURLToPath(href) : (wasm as string));
  let core = cores.get(file);
  if (core === undefined) {
    core = new Core(() => readGiven(file));
    cores.set(file, core);
  }
  return core;
}

// --- helpers ---

const files: ModuleFiles = {
  read: (file) => readFileSync(file),
  resolve: (_from, specifier) => resolveFromOwnFile(specifier),
};

/**
 * The installed module: dist/dropkit.wasm of the package dropkit runs from (also when it runs from src/, in tests); in a
 * program's bundle, dropkit.wasm beside the bundle, else the `dropkit` package's, as Node resolves it from there.
 */
function installedModule(): Uint8Array {
  const first = builtFile("dropkit.wasm");
  const place = fromPackage() ? { first } : { first, bundle: ownFile() ?? first };
  return readInstalledModule(files, place, "pass its path: loadConfig({ wasm })") as Uint8Array;
}

function readGiven(file: string): Uint8Array {
  try {
    return readFileSync(file);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const why = code === "ENOENT" || code === "ENOTDIR" ? "there is no file there" : `it cannot be read: ${code ?? String(error)}`;
    throw new DropkitError(
      {
        name: "IOError",
        message:
          `dropkit cannot read its core, dropkit.wasm, at ${file} (the wasm option): ${why}. ` +
          "Pass the path of node_modules/dropkit/dist/dropkit.wasm, or a copy of it.",
        file,
        source: file,
      },
      { cause: error },
    );
  }
}
