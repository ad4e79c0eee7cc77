// Where dropkit's own files are: the package root, the built files in dist/, its own code, and in a program's bundle the package Node finds from it.
// This module sits at the top of src/ so that one file name serves every form dropkit runs in: src/ under tsx (tests),
// dist/ as tsc writes it, the bin's bundle, dist/dropkit-cli.cjs, where import.meta.filename is the bundle's own, and
// a bundle a program made of dropkit's library (docs/library.md, "Bundling for Node"), ES module or CommonJS.

import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DropkitError } from "./errors.js";

/** Inlined by the CLI's bundles (scripts/build-cli.mjs): they are the package's own files, in its dist/. */
declare const __DROPKIT_VERSION__: string | undefined;
/** CommonJS's own file name: the bundle's, in a CommonJS bundle a program made, where `import.meta` is empty. */
declare const __filename: string | undefined;

/**
 * The file this code runs from: `import.meta.filename` (Node 20.11+, and the bin's bundle, where the build makes it the
 * bundle's own name), else from its URL, else CommonJS's `__filename` (a CommonJS bundle, whose `import.meta` is
 * empty). A path, never a URL, on the start-up path: in the bin's bundle the URL is made by `pathToFileURL`, which a
 * JSON config run need not pay for (docs/performance.md#loaded-on-first-use). `undefined` only where none of the three
 * exists.
 */
export function ownFile(): string | undefined {
  const filename = import.meta.filename as string | undefined;
  if (filename !== undefined) return filename;
  const url = import.meta.url as string | undefined;
  if (url !== undefined) return fileURLToPath(url);
  return typeof __filename === "string" ? __filename : undefined;
}

/**
 * Whether this code runs from dropkit's own package (src/ under tsx, dist/, or the CLI's bundles in dist/), rather
 * than from a bundle a program made of it, where the package's other files are not beside the code.
 */
export function fromPackage(): boolean {
  return typeof __DROPKIT_VERSION__ === "string" || /[\\/]installed\.[jt]s$/.test(ownFile() ?? "");
}

/** The package's root folder, where package.json is, when dropkit runs from its package (see `runningPackage`). */
export function packageRoot(): string {
  return path.dirname(path.dirname(ownFile() ?? ""));
}

/**
 * A built file of dist/ (`dropkit.wasm`, `digest-worker.cjs`), also when this module runs from src/; in a program's
 * bundle, the file of that name beside the bundle.
 */
export function builtFile(name: string): string {
  const file = ownFile() ?? "";
  return path.join(path.dirname(file), file.endsWith(".ts") ? "../dist" : ".", name);
}

/**
 * What marks dropkit's own frames in a stack: the folder of its code (dist/, or src/ under tsx), with a trailing
 * separator, or in a bundle the bundle's own file, whose folder may hold the project's config.
 */
export function ownCodeDir(): string {
  const file = ownFile() ?? "";
  return fromPackage() ? path.dirname(file) + path.sep : file;
}

let running: { root: string | undefined } | undefined;

/**
 * The root of the running dropkit's package (for a config's `import "dropkit"`, and its own dependencies): the package
 * itself, or in a program's bundle the `dropkit` package Node resolves from the bundle's folder (the project's
 * node_modules when the bundle runs in it); `undefined` when there is none.
 */
export function runningPackage(): string | undefined {
  if (running === undefined) {
    const manifest = fromPackage() ? path.join(packageRoot(), "package.json") : resolveFromOwnFile("dropkit/package.json");
    running = { root: manifest === undefined ? undefined : path.dirname(manifest) };
  }
  return running.root;
}

/** `specifier` as Node resolves it from this code's file, or `undefined` when it finds nothing there (or the code has no file). */
export function resolveFromOwnFile(specifier: string): string | undefined {
  const file = ownFile();
  if (file === undefined) return undefined;
  try {
    return createRequire(file).resolve(specifier);
  } catch {
    return undefined;
  }
}

/**
 * Requires one of dropkit's dependencies (jiti) from this code's file, as Node would; in a program's bundle run away
 * from the project, from the running package's folder. Neither has it: an `IOError` naming it and the fix.
 *
 * @param why - What it is needed for, for the message: "to load /abs/dropkit.config.js (...)".
 */
export function requireDependency(id: string, why: string): unknown {
  const root = fromPackage() ? undefined : runningPackage();
  const bases = [ownFile(), root === undefined ? undefined : path.join(root, "package.json")];
  let missing: unknown;
  for (const base of bases) {
    if (base === undefined) continue;
    try {
      return createRequire(base)(id);
    } catch (error) {
      if ((error as { code?: string }).code !== "MODULE_NOT_FOUND") throw error;
      missing = error;
    }
  }
  const from = ownFile();
  const where =
    from === undefined ? "" : fromPackage() ? ` from ${from}` : ` from ${path.dirname(from)} (beside ${from}, the bundle running dropkit)`;
  throw new DropkitError(
    {
      name: "IOError",
      message:
        `dropkit needs ${id} ${why}, and cannot find it${where}. Install it where the program runs (npm install ${id}), ` +
        `or run the program inside the project whose node_modules has dropkit (docs/library.md, "Bundling for Node").`,
      source: from ?? id,
    },
    { cause: missing },
  );
}
