// Loads the core in Node: reads the release module that ships beside the compiled host.

import { readFileSync } from "node:fs";
import path from "node:path";
import { Core } from "./core.js";

let shared: Core | null = null;

/** The process-wide core, compiled on first use. */
export function loadCore(): Core {
  return (shared ??= new Core(readFileSync(wasmFile())));
}

/**
 * The release module's path, by `import.meta.dirname` where there is one (Node 20.11+, and the CLI's bundle, where it
 * is the bundle's folder): a path costs nothing to make, where the URL costs the bundle a `pathToFileURL` at start-up.
 */
function wasmFile(): string | URL {
  const dir = import.meta.dirname as string | undefined;
  if (dir === undefined) return wasmUrl();
  return path.join(dir, import.meta.filename.endsWith(".ts") ? "../dist/dropkit.wasm" : "dropkit.wasm");
}

/** Where the release module is: beside dist/*.js, or in dist/ when running from src/ (tests). */
export function wasmUrl(): URL {
  const fromSource = import.meta.url.endsWith(".ts");
  return new URL(fromSource ? "../dist/dropkit.wasm" : "./dropkit.wasm", import.meta.url);
}
