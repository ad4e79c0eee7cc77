// Writing files safely: staged under a temporary name next to the target, flushed, then renamed or linked into place.
// The replaced file's mode and owner are kept.
// Synchronous calls throughout: a run has nothing else to do meanwhile, and neither node:fs/promises nor libuv's thread
// pool is loaded for them.

import {
  closeSync,
  constants,
  copyFileSync,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  openSync,
  renameSync,
  type Stats,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { isRoot, noHardLinks, syncDirectory, unlinkQuietly } from "./fsutil.js";
import { tempName } from "./tempfile.js";

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

// --- helpers ---

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
