// Loads the core in Node: reads the release module that ships beside the compiled host.

import { readFileSync } from "node:fs";
import { Core } from "./core.js";

let shared: Core | null = null;

/** The process-wide core, compiled on first use. */
export function loadCore(): Core {
  return (shared ??= new Core(readFileSync(wasmUrl())));
}

/** Where the release module is: beside dist/*.js, or in dist/ when running from src/ (tests). */
export function wasmUrl(): URL {
  const fromSource = import.meta.url.endsWith(".ts");
  return new URL(fromSource ? "../dist/dropkit.wasm" : "./dropkit.wasm", import.meta.url);
}
