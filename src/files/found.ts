// What is at a path, read without following a symbolic link and without blocking on a FIFO, and whether it is still the same file.

import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, type Stats } from "node:fs";
import { readOpened } from "./limits.js";

/** What was at a path, read without following a symbolic link. */
export type FoundFile =
  | { kind: "missing" }
  | { kind: "link"; stats: Stats; target: string }
  /** A directory, a FIFO, a socket or a device: `what` names it. */
  | { kind: "other"; stats: Stats; what: string }
  /** A regular file: its bytes, or only the first `limit + 1` of them when it is larger (`complete: false`). */
  | { kind: "file"; stats: Stats; bytes: Buffer; complete: boolean };

/**
 * Reads what is at `file` without following a symbolic link and without blocking on a FIFO: nothing, a
 * link (and where it points), something that is not a regular file, or a regular file's bytes, at most
 * `limit + 1` of them.
 *
 * @throws The underlying file-system error (EACCES, EIO, ...).
 */
export function readFound(file: string, limit: number): FoundFile {
  const lstats = lstatSync(file, { throwIfNoEntry: false });
  if (!lstats) return { kind: "missing" };
  if (lstats.isSymbolicLink()) return { kind: "link", stats: lstats, target: readLinkTarget(file) };
  if (!lstats.isFile()) return { kind: "other", stats: lstats, what: describeNonFile(lstats) };
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Replaced between the lstat and the open: read again what is there now.
    if (code === "ENOENT" || code === "ELOOP") return readFound(file, limit);
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { kind: "other", stats, what: describeNonFile(stats) };
    const { bytes, over } = readOpened(fd, stats.size, limit);
    return { kind: "file", stats, bytes: over ? bytes.subarray(0, limit) : bytes, complete: !over };
  } finally {
    closeSync(fd);
  }
}

/** Whether two stats describe the same file, unchanged: same device, inode, size and modification time. */
export function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/** Why an archive that was not a regular file when it was opened (a FIFO swapped in after the scan) is refused. */
export function notRegularProblem(what: string): string {
  return `it is ${what}, not a regular file, so it is not an archive`;
}

// --- helpers ---

function readLinkTarget(file: string): string {
  try {
    return readlinkSync(file);
  } catch {
    return "?";
  }
}

/** "a directory", "a FIFO", ...: what a path that is not a regular file is. */
export function describeNonFile(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "not a regular file";
}
