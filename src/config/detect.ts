// Auto-detect for the core's detect stage: top-level globs (`*.zip`) answered with a listing of the drop that the core matches, deeper ones by tinyglobby.

import { readdirSync } from "node:fs";
import path from "node:path";
import type { ResolveNeedsDetect } from "../core/protocol.js";
import { isFile } from "../files/fsutil.js";
import type { FolderListing } from "../files/listing.js";

/** Directories a detect glob never looks into: they are not part of the drop and can be huge. */
const detectIgnore = ["**/node_modules/**", "**/.git/**"];

/**
 * Answers auto-detect for globs that reach below the top level: for each candidate preset, the first of
 * its globs that matches a file in `cwd` (tinyglobby, loaded only now), or `null`.
 */
export async function detectPresets(
  cwd: string,
  candidates: ResolveNeedsDetect["needs"]["detect"],
): Promise<Record<string, string | null>> {
  const { glob } = await import("tinyglobby");
  const matches = new Map<string, boolean>();
  const detected: Record<string, string | null> = {};
  for (const { id, globs } of candidates) {
    let hit: string | null = null;
    for (const pattern of globs) {
      let matched = matches.get(pattern);
      if (matched === undefined) {
        const files = await glob([pattern], { cwd, onlyFiles: true, dot: false, expandDirectories: false, ignore: detectIgnore });
        matches.set(pattern, (matched = files.length > 0));
      }
      if (matched) {
        hit = pattern;
        break;
      }
    }
    detected[id] = hit;
  }
  return detected;
}

/**
 * Whether a detect glob looks only at the top level of the working directory and means the same to
 * tinyglobby and to the core's matcher: one path segment, no braces, extglobs, negation or escapes,
 * and no leading dot (neither side then matches dotfiles).
 */
export function isTopLevelGlob(glob: string): boolean {
  return /^[^./\\{}()!@+][^/\\{}()!@+]*$/.test(glob);
}

/**
 * The non-hidden files directly in `cwd` (symbolic links to files included), for the core to match
 * against top-level detect globs: a directory listing is far cheaper than loading a glob library, and
 * it is the same matching the playground uses. `null` when the directory cannot be listed.
 */
export function listTopLevelFiles(cwd: string, listing?: FolderListing): string[] | null {
  let entries;
  try {
    entries = listing?.covers(cwd) ? listing.read() : readdirSync(cwd, { withFileTypes: true });
  } catch {
    return null;
  }
  const files: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    if (entry.isFile() || (entry.isSymbolicLink() && isFile(path.join(cwd, entry.name)))) files.push(entry.name);
  }
  // The default sort compares UTF-16 code units: the same order on every platform and locale.
  return files.sort();
}
