// The host's limits on what it reads and walks (docs/reliability.md, "Limits"), and the bounded read that keeps them.

import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { fail } from "../errors.js";
import { limits, sizeText } from "./sizes.js";

// The limits and how a size is written live in sizes.ts, which uses no Node API, so that the playground reads the same.
export { limits, sizeText };

/** What `readBounded` found: the bytes (the first `max + 1` of a file that is larger), and its size. */
export interface BoundedRead {
  bytes: Buffer;
  /** Whether the file is larger than `max`: `bytes` are then only its start. */
  over: boolean;
  /** Its size: from the file system, or at least `max + 1` when it grew while being read. */
  size: number;
}

/**
 * Reads a regular file, at most `max + 1` bytes of it whatever its size says, so that a huge file, one that
 * grows meanwhile, or one whose size is not its length (`/proc`) cannot take more memory. Opened non-blocking:
 * a FIFO swapped in for the file cannot hang the read.
 *
 * @throws the `node:fs` error (ENOENT, EACCES, ELOOP...), or one with code `ENOTFILE` for anything but a regular file.
 */
export function readBounded(file: string, max: number): BoundedRead {
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw Object.assign(new Error(`${file} is not a regular file`), { code: "ENOTFILE" });
    const { bytes, over } = readOpened(fd, stats.size, max);
    return { bytes, over, size: Math.max(stats.size, bytes.length) };
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads an open file from its current position to its end, or to `max + 1` bytes, whichever comes first, whatever
 * `size` (its size from `fstat`) says: a file that grows meanwhile or a `/proc` file gets a larger buffer, still
 * bounded. `over` says that there was more than `max`.
 */
export function readOpened(fd: number, size: number, max: number): { bytes: Buffer; over: boolean } {
  let buffer = Buffer.allocUnsafe(Math.min(size, max) + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > max) break;
      // Longer than its size said (it grew, or it is a /proc file): a larger buffer, still at most max + 1 bytes.
      const larger = Buffer.allocUnsafe(Math.min(max + 1, buffer.length * 2));
      buffer.copy(larger, 0, 0, length);
      buffer = larger;
    }
    const n = readSync(fd, buffer, length, buffer.length - length, null);
    if (n === 0) break;
    length += n;
  }
  return { bytes: buffer.subarray(0, length), over: length > max };
}

/** The bytes one resolve has read so far, against `limits.totalBytes`; shared by its config and preset files. */
export interface ReadBudget {
  used: number;
}

/** Adds a file's bytes to the resolve's budget; refuses the file that takes it over `limits.totalBytes`. */
export function chargeBudget(budget: ReadBudget | undefined, file: string, bytes: number): void {
  if (!budget) return;
  budget.used += bytes;
  if (budget.used > limits.totalBytes) {
    fail(
      "ConfigLoadError",
      `The config and preset files of this run are ${sizeText(budget.used)} together with ${file}, over the limit of ` +
        `${sizeText(limits.totalBytes)}. Use fewer or smaller preset files (every preset file of the search path is ` +
        `read when presets are auto-detected).`,
      { file, source: file },
    );
  }
}
