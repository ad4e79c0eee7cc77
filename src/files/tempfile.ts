// Temporary files next to the files dropkit writes: their unique names, and the removal of those a killed run left behind.

import { lstatSync, readdirSync, unlinkSync } from "node:fs";
import path from "node:path";
import type { FolderListing } from "./listing.js";

/**
 * A unique temporary name next to `target`: `.<name>.<pid>.<12 hex digits>.tmp`. The process id lets
 * `removeStaleTempFiles` tell debris from a live write; the digits are a counter (unique within this process)
 * and 40 random bits (`Math.random`, which V8 seeds from the system's entropy in every process), for processes
 * of the same id in other pid namespaces or on other hosts sharing the directory. The name need not be secret:
 * every temporary file is created with O_EXCL (or by `link`), so a name that is taken fails cleanly and never
 * follows anything planted there. (`node:crypto` is not loaded for it: docs/performance.md#loaded-on-first-use.)
 */
export function tempName(target: string): string {
  tempCounter = (tempCounter + 1) & 0xff;
  const digits =
    tempCounter.toString(16).padStart(2, "0") +
    Math.floor(Math.random() * 2 ** 40)
      .toString(16)
      .padStart(10, "0");
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${digits}.tmp`);
}

/** The counter of `tempName`. */
let tempCounter = 0;

/**
 * Removes temporary files that writes to `file` (and to names starting with its name) left behind
 * when their process was killed: those whose process is gone and that are older than `minAgeMs`.
 * The age guards against a writer on another machine sharing the directory, whose process id means
 * nothing here. Best effort: never throws.
 *
 * @param file - The file whose debris to look for.
 * @param listing - A listing of the file's directory made earlier in the run (debris is at least `minAgeMs` old,
 *   so it was there then), to use instead of listing it again.
 * @param minAgeMs - How old a temporary file must be. @default 60000
 * @returns The paths removed.
 */
export function removeStaleTempFiles(file: string, listing?: FolderListing, minAgeMs = 60_000): string[] {
  const target = path.resolve(file);
  const dir = path.dirname(target);
  const prefix = `.${path.basename(target)}`;
  const removed: string[] = [];
  let names: string[] | null;
  try {
    names = listing?.covers(dir) ? listing.names() : readdirSync(dir);
  } catch {
    return removed;
  }
  if (names === null) return removed;
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const match = /\.(\d+)\.[0-9a-f]{12}\.tmp$/.exec(name);
    if (!match || processAlive(Number(match[1]))) continue;
    const full = path.join(dir, name);
    try {
      const stats = lstatSync(full);
      if (!(stats.isFile() || stats.isSymbolicLink()) || Date.now() - stats.mtimeMs < minAgeMs) continue;
      unlinkSync(full);
      removed.push(full);
    } catch {
      // Gone already (another run cleaned it), or not ours to remove: leave it.
    }
  }
  return removed;
}

/** Whether a process with this id exists on this host (EPERM: it exists but belongs to someone else). */
export function processAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
