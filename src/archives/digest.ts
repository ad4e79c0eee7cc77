// Reading one archive once: its size, mtime and SHA-256, and the zip check's verdict; shared by the worker threads and the main thread.

import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync } from "node:fs";
import { describeNonFile } from "../files/found.js";
import { checkZipFile, type ZipVerdict } from "./zip.js";

/** One archive to read. */
export interface DigestJob {
  /** Absolute path. */
  file: string;
  /** Whether to compute the SHA-256 (false when the cache already has it and only the zip check is missing). */
  hash: boolean;
  /** Whether to check the zip records. */
  check: boolean;
}

/** What reading one archive found, or why it could not be read. */
export type Digest =
  /** The identity fields (`dev` to `ctimeMs`) are the open file's `fstat`: they name the very bytes read. */
  | { ok: true; dev: number; ino: number; size: number; mtimeMs: number; ctimeMs: number; sha256?: string; zip?: ZipVerdict }
  /**
   * `code` is the system error code (`EACCES`, `ENOENT`, `EISDIR`), or the message when there is none; `what` says
   * what was opened when it is not a regular file ("a FIFO (named pipe)"), code `ENOTREG`.
   */
  | { ok: false; code: string; what?: string };

/**
 * How an archive is opened: never blocking (a FIFO or a device swapped in after the scan opens at once and is then
 * refused by its type) and never through a link (a link is resolved first and its target opened the same way).
 */
const openFlags = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/** The read size: large enough that the hash, not the system calls, is the cost. */
const chunkBytes = 1024 * 1024;

/**
 * Reads an archive: stats the open file (so that its identity, size and times describe the bytes hashed), streams it once
 * through SHA-256 in 1 MiB reads, then checks its zip records and verifies its entries' data (see checkZip) while they
 * are still in the page cache.
 *
 * @param job - The file and what to compute.
 * @param buffer - A reusable read buffer (one per thread). @default a new 1 MiB buffer
 * @param onBytes - Called with the number of bytes after each read, for the progress line.
 */
export function digestArchive(job: DigestJob, buffer: Buffer = Buffer.allocUnsafe(chunkBytes), onBytes?: (bytes: number) => void): Digest {
  let fd: number;
  try {
    fd = openArchive(job.file);
  } catch (error) {
    // A socket cannot be opened at all (ENXIO): say what it is, as for a FIFO.
    const stats = errorCode(error) === "ENXIO" ? statSync(job.file, { throwIfNoEntry: false }) : undefined;
    return stats && !stats.isFile() && !stats.isDirectory()
      ? { ok: false, code: "ENOTREG", what: describeNonFile(stats) }
      : { ok: false, code: errorCode(error) };
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile())
      return stats.isDirectory() ? { ok: false, code: "EISDIR" } : { ok: false, code: "ENOTREG", what: describeNonFile(stats) };
    const digest: Digest = { ok: true, dev: stats.dev, ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs };
    if (job.hash) {
      const hash = createHash("sha256");
      for (;;) {
        const n = readSync(fd, buffer, 0, buffer.length, null);
        if (n === 0) break;
        hash.update(n === buffer.length ? buffer : buffer.subarray(0, n));
        onBytes?.(n);
      }
      digest.sha256 = hash.digest("hex");
    }
    if (job.check) digest.zip = checkZipFile(fd, stats.size);
    return digest;
  } catch (error) {
    return { ok: false, code: errorCode(error) };
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens an archive with `openFlags`. Links to archives count (see scanArchives): a link is resolved to its final
 * target, which is opened without following; a target swapped for a link meanwhile is tried again, a few times.
 */
function openArchive(file: string): number {
  for (let attempt = 0; ; attempt++) {
    try {
      return openSync(attempt === 0 ? file : realpathSync(file), openFlags);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ELOOP" || attempt === 3) throw error;
    }
  }
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
}
