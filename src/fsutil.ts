// Small file-system helpers shared by the modules that write files (state, cache, lock, init): error reasons, flushing a directory, quiet removal.

import { closeSync, constants, fsyncSync, openSync, statSync, unlinkSync } from "node:fs";

/**
 * Flushes a directory's entries (a rename, a new link) to disk. Synchronous, so that the rollback of an
 * exiting process can use it too. Platforms and file systems that do not allow it are skipped silently;
 * any other failure is returned as a warning, since the change itself has happened but may not survive a
 * power loss.
 *
 * @param dir - The directory.
 * @param changed - The file whose entry changed, for the warning.
 */
export function syncDirectory(dir: string, changed: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  } catch {
    // A directory that can be written but not read (mode 0300) cannot be opened for fsync: nothing to do.
    return undefined;
  }
  try {
    fsyncSync(fd);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code && unsupportedSync.has(code)) return undefined;
    return `Could not flush the directory ${dir} to disk after writing ${changed} (${code ?? String(error)}): the file is in place, but a power loss now could undo the change.`;
  } finally {
    closeSync(fd);
  }
}

/** "ENOSPC: no space left on device", without the path that Node appends. */
export function errorReason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  const message = (error instanceof Error ? error.message : String(error)).replace(/, \w+ '[^']*'( -> '[^']*')?$/, "");
  return e.code && !message.startsWith(e.code) ? `${e.code}: ${message}` : message;
}

/** Error codes meaning "no hard links here" (or not for this file), so a copy must do. */
export function noHardLinks(code: string | undefined): boolean {
  return code === "EPERM" || code === "ENOTSUP" || code === "EOPNOTSUPP" || code === "ENOSYS" || code === "EXDEV" || code === "EMLINK";
}

/** Removes a file, if it is there; never throws. */
export function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Gone already, or not ours to remove.
  }
}

/** Whether this process runs as root (and so may, and must, give replaced files back to their owner). */
export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** Whether `file` is a regular file, following symbolic links; `false` when it cannot be looked at (ENOENT, EACCES, ELOOP...). */
export function isFile(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}

// --- helpers ---

/** fsync errors that mean "not supported here", not "failed". */
const unsupportedSync = new Set(["EINVAL", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EISDIR", "EPERM", "EBADF"]);
