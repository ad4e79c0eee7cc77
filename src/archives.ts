// Finding the zip archives of a drop: the `*.zip` files directly in the working directory.

import { statSync } from "node:fs";
import path from "node:path";
import { glob } from "tinyglobby";

/**
 * Lists the `*.zip` files directly in `cwd` (not in subdirectories, not hidden ones), matching the
 * extension in any case (`a.ZIP` counts), sorted by name in plain code-unit order so that every
 * platform sees the same order. Symbolic links to zip files count; directories named `*.zip` do not.
 * Nor does anything that is not a regular file once links are followed (a FIFO, a device such as a link
 * to `/dev/zero`, a broken link), or a name that is not valid UTF-8 (no path can reach it): each of those
 * is left out with a warning, since reading it could block or never end.
 *
 * @param cwd - The working directory.
 * @param warn - Told about each `*.zip` name that is left out, with the file as its source.
 * @returns File names relative to `cwd`, e.g. `["blog.zip", "ocean-theme.zip"]`.
 */
export async function scanArchives(cwd: string, warn: (message: string, source: string) => void = () => {}): Promise<string[]> {
  const names = await glob(["*.zip"], {
    cwd,
    caseSensitiveMatch: false,
    dot: false,
    // Everything named *.zip but directories: what is not a regular file is told about below, not dropped silently.
    onlyFiles: true,
    // `*.zip` must never turn into `*.zip/**` for a directory that happens to match.
    expandDirectories: false,
  });
  const archives: string[] = [];
  for (const name of names) {
    const file = path.join(cwd, name);
    const why = notRegular(file, name);
    if (why) warn(`${file} is left out: ${why}.`, file);
    else archives.push(name);
  }
  // Default sort compares UTF-16 code units, which is locale-independent.
  return archives.sort();
}

/** Why `file` cannot be read as an archive, or "" for a regular file (after links). */
function notRegular(file: string, name: string): string {
  try {
    const stats = statSync(file);
    if (stats.isFile()) return "";
    const kind = stats.isFIFO() ? "a FIFO" : stats.isCharacterDevice() || stats.isBlockDevice() ? "a device" : stats.isSocket() ? "a socket" : "a directory";
    return `it is ${kind}, not a regular file, so it is not an archive`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    // A name whose bytes are not UTF-8 comes back with U+FFFD in place of them: no string path reaches that file.
    if (name.includes("\uFFFD") && code === "ENOENT") return "its name is not valid UTF-8, so it cannot be opened by name; rename it";
    return `it cannot be read (${code})`;
  }
}
