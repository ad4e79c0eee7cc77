// Small file-system helpers shared by the modules that write files (state, cache, lock, init), and the working directory every command starts from.
// The helpers: error reasons, flushing a directory, quiet removal.

import { closeSync, constants, fsyncSync, openSync, statSync, unlinkSync, type Stats } from "node:fs";
import { fail } from "../errors.js";

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
    return (
      `Could not flush the directory ${dir} to disk after writing ${changed} (${code ?? String(error)}): the file is ` +
      `in place, but a power loss now could undo the change.`
    );
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

/** What `stat` says of `file`, following symbolic links; `null` when it cannot be looked at (ENOENT, EACCES, ENOTDIR, ELOOP...). */
export function statOrNull(file: string): Stats | null {
  try {
    return statSync(file, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/**
 * A file's identity as a kept verdict names it: device, inode, size and times. Another file at the path, or the same
 * one written to (or its owner or mode changed: that moves its ctime), gives another stamp.
 */
export function fileStamp(stats: { dev: number; ino: number; size: number; mtimeMs: number; ctimeMs: number }): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

/** Whether `file` is a regular file, following symbolic links; `false` when it cannot be looked at (ENOENT, EACCES, ELOOP...). */
export function isFile(file: string): boolean {
  return statOrNull(file)?.isFile() ?? false;
}

/**
 * The working directory. One that was removed after the process entered it (a CI workspace cleaned by a parallel
 * job, a folder deleted in another terminal) has no path any more: `process.cwd()` fails with ENOENT, which is a
 * fact about the machine, not a bug in dropkit.
 *
 * @param env - Read for `PWD`, the path the shell last knew, named in the message.
 * @throws DropkitError `IOError` (74) naming the problem and the way out.
 */
export function workingDirectory(env: NodeJS.ProcessEnv = process.env): string {
  try {
    return process.cwd();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    // PWD may have been inherited from a parent that started dropkit elsewhere: named only when it is gone too.
    const pwd = env.PWD && code === "ENOENT" && statOrNull(env.PWD) === null ? env.PWD : undefined;
    const known = pwd ? ` (${pwd}, as the shell last knew it)` : "";
    const why =
      code === "ENOENT"
        ? "no longer exists: it was removed after this process entered it (by another job or terminal)"
        : `cannot be looked up (${code})`;
    fail(
      "IOError",
      `The working directory${known} ${why}, so dropkit has no folder to work in. Change to an existing folder (cd ` +
        `into the drop again, or recreate it) and run again.`,
      pwd ? { file: pwd, source: pwd } : {},
    );
  }
}

// --- helpers ---

/** fsync errors that mean "not supported here", not "failed". */
const unsupportedSync = new Set(["EINVAL", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EISDIR", "EPERM", "EBADF"]);
