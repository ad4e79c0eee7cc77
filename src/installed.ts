// Where dropkit's own files are once installed: the package root, the built files in dist/, and its own code's folder.
// This module sits at the top of src/ so that one file name serves every form dropkit runs in: src/ under tsx (tests),
// dist/ as tsc writes it, and the bin's bundle, dist/dropkit-cli.cjs, where import.meta.filename is the bundle's own.

import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * This module's own file: `import.meta.filename` (Node 20.11+, and the bin's bundle, where the build makes it the
 * bundle's own name), else from its URL. A path, never a URL, on the start-up path: in the bundle the URL is made by
 * `pathToFileURL`, about 0.2 ms that a JSON config run need not pay.
 */
function ownFile(): string {
  return (import.meta.filename as string | undefined) ?? fileURLToPath(import.meta.url);
}

/** The package's root folder, where package.json is. */
export function packageRoot(): string {
  return path.dirname(path.dirname(ownFile()));
}

/** A built file of dist/ (`dropkit.wasm`, `digest-worker.cjs`), also when this module runs from src/. */
export function builtFile(name: string): string {
  const file = ownFile();
  return path.join(path.dirname(file), file.endsWith(".ts") ? "../dist" : ".", name);
}

/** The folder of dropkit's own code (dist/, or src/ under tsx), with a trailing separator: its frames are never a config's. */
export function ownCodeDir(): string {
  return path.dirname(ownFile()) + path.sep;
}
