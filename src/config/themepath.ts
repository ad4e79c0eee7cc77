// A theme given as a `.zip` path outside the drop's archives: the host checks it (the core cannot see files), naming where it was set.

import { readdirSync, statSync, type Stats } from "node:fs";
import path from "node:path";
import type { Origin, Plan } from "../core/protocol.js";
import { fail } from "../errors.js";
import { listSome } from "../output/logtext.js";

/** How many archives of the path's folder a message lists when none is close to the name given. */
const maxListed = 5;

/**
 * Throws ThemeNotFound (66) when the plan's theme is a path that is not a readable file: at the flag, variable or
 * `file:line:column` that set it (`origin`), with the closest `.zip` of the folder the path names when nothing is
 * there; something that is there but is not a regular file (a FIFO, a device, a socket, a directory) is named for
 * what it is, and nothing is suggested (the closest name would be the very one given).
 */
export async function requireThemePath(plan: Plan, origin: Origin | undefined): Promise<void> {
  const { path: file, file: inDrop } = plan.theme;
  if (file === null || inDrop !== null) return;
  let why = "not found";
  let there = false;
  try {
    // stat, not open: a FIFO is named without being opened, so nothing waits for a writer.
    const stats = statSync(file, { throwIfNoEntry: false });
    if (stats?.isFile()) return;
    if (stats) {
      why = `is ${kindOf(stats)}, not a regular file`;
      there = true;
    }
  } catch (error) {
    // ENAMETOOLONG, ELOOP, EACCES...: as missing, with the reason, never an internal error.
    why = `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  const where = /^(.*):(\d+):(\d+)$/.exec(origin?.source ?? "");
  const setBy = !origin
    ? ""
    : where
      ? ` (the theme set at ${origin.source})`
      : origin.layer === "preset"
        ? ` (the theme of preset ${origin.source})`
        : ` (the theme set by ${origin.source})`;
  const frame = where ? { file: where[1], line: Number(where[2]), column: Number(where[3]) } : {};
  const hint = there ? "" : await nearby(file);
  fail("ThemeNotFound", `Theme archive ${file} ${why}${setBy}.${hint} Check the theme path, or use a theme name or "auto".`, {
    path: "theme",
    source: origin?.source ?? file,
    ...frame,
  });
}

// --- helpers ---

/** What a path that is not a regular file is, for the message. */
function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  return "something other than a file";
}

/**
 * " Did you mean <closest>?", or the archives the folder holds when none is close, or "" when it holds none; never
 * the name given itself (a name that cannot be read, or that changed kind since it was looked at, would be its own guess).
 */
async function nearby(file: string): Promise<string> {
  const dir = path.dirname(file);
  const given = path.basename(file);
  let zips: string[];
  try {
    zips = readdirSync(dir)
      .filter((name) => name !== given && name.toLowerCase().endsWith(".zip"))
      .sort();
  } catch {
    return "";
  }
  // The core's did-you-mean, loaded only now: a theme path that exists never needs it.
  const { loadCore } = await import("../core/node.js");
  const guess = loadCore().suggest(path.basename(file), zips);
  if (guess) return ` Did you mean ${path.join(dir, guess)}?`;
  return zips.length > 0 ? ` Archives in ${dir}: ${listSome(zips, maxListed)}.` : "";
}
