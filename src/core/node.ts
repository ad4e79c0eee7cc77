// Loads the core in Node: reads the release module that ships in dist/ (the one module of src/core/ that needs Node).

import { readFileSync } from "node:fs";
import { builtFile } from "../installed.js";
import { Core } from "./host.js";

let shared: Core | null = null;

/** The process-wide core, compiled on first use from dist/dropkit.wasm (also when running from src/, in tests). */
export function loadCore(): Core {
  return (shared ??= new Core(readFileSync(builtFile("dropkit.wasm"))));
}
