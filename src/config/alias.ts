// The running dropkit as `dropkit` for a .ts/.js config whose project has none installed (run through npx or a global install).

import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { packageRoot } from "../installed.js";

/**
 * jiti aliases that make `import ... from "dropkit"` (and `dropkit/core`, `dropkit/abi`, ...) in `file` load the
 * dropkit that is running, or `undefined` when the project has a dropkit of its own, which then wins as Node would
 * resolve it. A config that imports `defineConfig` thus loads wherever dropkit runs from.
 *
 * @param file - The absolute path of the config or preset file.
 */
export function dropkitAliases(file: string): Record<string, string> | undefined {
  if (hasInstalledDropkit(path.dirname(file))) return undefined;
  return runningAliases();
}

// --- helpers ---

let aliases: Record<string, string> | undefined;

/**
 * The package's own exports as absolute paths, read from its package.json, so that every subpath a project could
 * import is covered and none drifts from the package. The package root is one level above this module (src/ or
 * dist/, and dist/ for the bundle).
 */
function runningAliases(): Record<string, string> {
  if (aliases) return aliases;
  const root = packageRoot();
  const { exports } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    exports: Record<string, string | { default: string }>;
  };
  aliases = {};
  for (const [subpath, target] of Object.entries(exports)) {
    const file = typeof target === "string" ? target : target.default;
    aliases[subpath === "." ? "dropkit" : `dropkit/${subpath.slice(2)}`] = path.join(root, file);
  }
  return aliases;
}

/** Whether Node's resolution from `dir` would find a `dropkit` package: `node_modules/dropkit` in `dir` or above. */
function hasInstalledDropkit(dir: string): boolean {
  for (let current = dir; ; current = path.dirname(current)) {
    if (existsSync(path.join(current, "node_modules", "dropkit", "package.json"))) return true;
    if (path.dirname(current) === current) return false;
  }
}
