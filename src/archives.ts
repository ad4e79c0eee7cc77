// Finding the zip archives of a drop: the `*.zip` files directly in the working directory.

import { glob } from "tinyglobby";

/**
 * Lists the `*.zip` files directly in `cwd` (not in subdirectories, not hidden ones), matching the
 * extension in any case (`a.ZIP` counts), sorted by name in plain code-unit order so that every
 * platform sees the same order. Symbolic links to zip files count; directories named `*.zip` do not.
 *
 * @param cwd - The working directory.
 * @returns File names relative to `cwd`, e.g. `["blog.zip", "ocean-theme.zip"]`.
 */
export async function scanArchives(cwd: string): Promise<string[]> {
  const names = await glob(["*.zip"], {
    cwd,
    caseSensitiveMatch: false,
    onlyFiles: true,
    dot: false,
    // `*.zip` must never turn into `*.zip/**` for a directory that happens to match.
    expandDirectories: false,
  });
  // Default sort compares UTF-16 code units, which is locale-independent.
  return names.sort();
}
