// Where dropkit's own files are once installed: the package root, the built files in dist/, and its own code's folder.
// This module sits at the top of src/ so that one URL serves every form dropkit runs in: src/ under tsx (tests),
// dist/ as tsc writes it, and the bin's bundle, dist/dropkit-cli.cjs, where import.meta.url is the bundle's own.

import path from "node:path";
import { fileURLToPath } from "node:url";

const here = import.meta.url;
const fromSource = here.endsWith(".ts");

/** The package's root folder, where package.json is. */
export function packageRoot(): string {
  return fileURLToPath(new URL("../", here));
}

/** A built file of dist/ (`dropkit.wasm`, `digest-worker.cjs`), also when this module runs from src/. */
export function builtFile(name: string): URL {
  return new URL(fromSource ? `../dist/${name}` : `./${name}`, here);
}

/** The folder of dropkit's own code (dist/, or src/ under tsx), with a trailing separator: its frames are never a config's. */
export function ownCodeDir(): string {
  return path.dirname(fileURLToPath(here)) + path.sep;
}
