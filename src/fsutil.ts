// Small file-system helpers shared by the modules that write files (state, cache, lock, init): atomic replacement, copies that keep mode and owner, and reads that never follow a link.
// Synchronous calls throughout: a run has nothing else to do meanwhile, and neither node:fs/promises nor libuv's thread pool is loaded for them.

import { closeSync, constants, copyFileSync, fchmodSync, fchownSync, fstatSync, fsyncSync, linkSync, lstatSync, openSync, readdirSync, readlinkSync, readSync, renameSync, type Stats, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { FolderListing } from "./listing.js";

/** A file written to a temporary name next to its target, waiting to replace it. */
export interface StagedFile {
  /** The temporary file, fully written and flushed. */
  readonly temp: string;
  /** The path it will replace: the path itself, never a symbolic link's target. */
  readonly target: string;
  /** Renames the temporary file over the target (the directory is not flushed: see `syncDirectory`). */
  commit(): Promise<void>;
  /** Removes the temporary file; never throws. */
  discard(): Promise<void>;
}

/** What was at a path, read without following a symbolic link. */
export type FoundFile =
  | { kind: "missing" }
  | { kind: "link"; stats: Stats; target: string }
  /** A directory, a FIFO, a socket or a device: `what` names it. */
  | { kind: "other"; stats: Stats; what: string }
  /** A regular file: its bytes, or only the first `limit + 1` of them when it is larger (`complete: false`). */
  | { kind: "file"; stats: Stats; bytes: Buffer; complete: boolean };

/**
 * Writes `data` to `file` atomically: into a uniquely named temporary file in the same directory,
 * flushed to disk, then renamed over `file`, then the directory flushed. Readers see the old content
 * or the new, never a torn file. A symbolic link at `file` is replaced by the new file (as git does);
 * its target is never written. See `stageFile` for the mode and owner the new file gets.
 *
 * @returns A warning when the directory could not be flushed (the new file is in place).
 * @throws The underlying file-system error (callers turn it into an `IOError` with context).
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<string | undefined> {
  const staged = await stageFile(file, data);
  try {
    await staged.commit();
  } catch (error) {
    await staged.discard();
    throw error;
  }
  return syncDirectory(path.dirname(staged.target), staged.target);
}

/**
 * The first half of `writeFileAtomic`: writes and flushes the temporary file, and returns what is
 * needed to finish (or abandon) the write. The new file keeps the permission bits of the regular file it
 * replaces, plus read and write for its owner (a file dropkit can no longer read or write would never
 * recover); set-id and sticky bits are dropped. Run as root, it also keeps that file's owner and group.
 * Anything else (nothing there, a symbolic link) gives a new file with the umask's mode, plus owner
 * read and write.
 *
 * @throws The underlying file-system error; the temporary file is already removed.
 */
export async function stageFile(file: string, data: string | Uint8Array): Promise<StagedFile> {
  const target = path.resolve(file);
  const temp = tempName(target);
  const existing = lstatSync(target, { throwIfNoEntry: false });
  const like = existing?.isFile() ? existing : undefined;
  try {
    writeNewFile(temp, data, like);
  } catch (error) {
    unlinkQuietly(temp);
    throw error;
  }
  return {
    temp,
    target,
    async commit() {
      renameSync(temp, target);
    },
    async discard() {
      unlinkQuietly(temp);
    },
  };
}

/**
 * Creates `file` unless something already exists at that name, atomically: the content is written and
 * flushed under a temporary name, given `like`'s permission bits (and, as root, its owner and group), then
 * hard-linked to `file`, which fails rather than replaces. So `file` is either absent or complete, an
 * existing file is never overwritten, and the new file is independent of the original.
 *
 * @param file - The file to create.
 * @param data - The content, or `{ copyOf }` to copy another file's bytes (streamed, for large files).
 * @param like - The file whose mode and owner the new one takes.
 * @returns `true` when the file was created, `false` when something was already there.
 * @throws The underlying file-system error; no temporary file is left behind.
 */
export async function createFileExclusive(file: string, data: string | Uint8Array | { copyOf: string }, like: Stats): Promise<boolean> {
  const target = path.resolve(file);
  const temp = tempName(target);
  try {
    if (typeof data === "object" && "copyOf" in data) {
      copyFileSync(data.copyOf, temp, constants.COPYFILE_EXCL);
      const fd = openSync(temp, "r+");
      try {
        fchmodSync(fd, like.mode & 0o777);
        if (isRoot() && (like.uid !== 0 || like.gid !== 0)) fchownSync(fd, like.uid, like.gid);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } else {
      writeNewFile(temp, data, like, like.mode & 0o777);
    }
    try {
      linkSync(temp, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") return false;
      // No hard links here (FAT, some network mounts): check, then rename. Only a concurrent writer of the
      // very same name can slip in between, and it would write the same kind of copy.
      if (!noHardLinks(code)) throw error;
      if (lstatSync(target, { throwIfNoEntry: false }) !== undefined) return false;
      renameSync(temp, target);
    }
    return true;
  } finally {
    unlinkQuietly(temp);
  }
}

/**
 * Gives `source` a second name `name` that nothing else is at: a hard link (the very file, mode and owner
 * included), or where there are none, a copy with its mode (and owner, as root). A symbolic link is linked
 * itself, never followed.
 *
 * @throws The underlying file-system error (EEXIST when the name is taken).
 */
export async function linkOrCopy(source: string, name: string): Promise<void> {
  try {
    linkSync(source, name);
    return;
  } catch (error) {
    if (!noHardLinks((error as NodeJS.ErrnoException).code)) throw error;
  }
  const stats = lstatSync(source);
  if (!stats.isFile()) throw new Error(`cannot copy ${source}: it is not a regular file and cannot be hard-linked here`);
  if (!(await createFileExclusive(name, { copyOf: source }, stats))) throw Object.assign(new Error(`${name} exists`), { code: "EEXIST" });
}

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
    const wanted = Math.min(stats.size, limit) + 1;
    const buffer = Buffer.alloc(wanted);
    let length = 0;
    while (length < wanted) {
      const n = readSync(fd, buffer, length, wanted - length, null);
      if (n === 0) break;
      length += n;
    }
    const complete = length <= limit;
    return { kind: "file", stats, bytes: buffer.subarray(0, complete ? length : limit), complete };
  } finally {
    closeSync(fd);
  }
}

/** Whether two stats describe the same file, unchanged: same device, inode, size and modification time. */
export function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

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

/**
 * A unique temporary name next to `target`: `.<name>.<pid>.<12 hex digits>.tmp`. The process id lets
 * `removeStaleTempFiles` tell debris from a live write; the digits are a counter (unique within this process)
 * and 40 random bits (`Math.random`, which V8 seeds from the system's entropy in every process), for processes
 * of the same id in other pid namespaces or on other hosts sharing the directory. The name need not be secret:
 * every temporary file is created with O_EXCL (or by `link`), so a name that is taken fails cleanly and never
 * follows anything planted there. (`node:crypto` is not loaded for it: it costs a run about 2 ms.)
 */
export function tempName(target: string): string {
  tempCounter = (tempCounter + 1) & 0xff;
  const digits = tempCounter.toString(16).padStart(2, "0") + Math.floor(Math.random() * 2 ** 40).toString(16).padStart(10, "0");
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${digits}.tmp`);
}

/** The counter of `tempName`. */
let tempCounter = 0;

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

// --- helpers ---

/** fsync errors that mean "not supported here", not "failed". */
const unsupportedSync = new Set(["EINVAL", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EISDIR", "EPERM", "EBADF"]);

/**
 * Creates `file` (failing if anything exists there, a link included), writes `data`, sets the mode (`mode`,
 * or `like`'s plus owner read and write, or the umask's plus owner read and write) and, as root, `like`'s
 * owner, and flushes it.
 */
function writeNewFile(file: string, data: string | Uint8Array, like: Stats | undefined, mode?: number): void {
  // "wx": O_EXCL, which also refuses to follow a symbolic link planted at the name.
  const fd = openSync(file, "wx");
  try {
    fchmodSync(fd, mode ?? ((like ? like.mode : fstatSync(fd).mode) & 0o777) | 0o600);
    if (like && isRoot() && (like.uid !== 0 || like.gid !== 0)) fchownSync(fd, like.uid, like.gid);
    writeFileSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function readLinkTarget(file: string): string {
  try {
    return readlinkSync(file);
  } catch {
    return "?";
  }
}

/** "a directory", "a FIFO", ...: what a path that is not a regular file is. */
function describeNonFile(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "not a regular file";
}
