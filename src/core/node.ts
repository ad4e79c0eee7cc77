// Loads the core in Node: reads the release module that ships in dist/ (the one module of src/core/ that needs Node).

import { readFileSync } from "node:fs";
import { builtFile } from "../installed.js";
import { Core, type AnswerStore } from "./host.js";

let shared: Core | null = null;
let answers: AnswerStore | undefined;

/**
 * The process-wide core, compiled from dist/dropkit.wasm (also when running from src/, in tests) when a request first
 * needs it: with the CLI's answer cache (`useAnswers`), a run the cache answers whole never compiles it.
 */
export function loadCore(): Core {
  return (shared ??= new Core(() => readFileSync(builtFile("dropkit.wasm")), { answers }));
}

/**
 * Makes `loadCore`'s core consult `store` before the module (the CLI's answer cache, src/files/answercache.ts): called
 * before the first request. A program using dropkit's library keeps no files of its own, so only the CLI calls it.
 */
export function useAnswers(store: AnswerStore): void {
  answers = store;
}
