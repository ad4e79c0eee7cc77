// Small file-system helpers shared by the modules that write files (cache, state).

import { randomBytes } from "node:crypto";
import { lstatSync, readdirSync, realpathSync, statSync, unlinkSync } from "node:fs";
import { link, open, rename, unlink } from "node:fs/promises";
import path from "node:path";

/** A file written to a temporary name next to its target, waiting to replace it. */
export interface StagedFile {
  /** The temporary file, fully written and flushed. */
  readonly temp: string;
  /** The file it will replace (a symbolic link's target, not the link). */
  readonly target: string;
  /** Renames the temporary file over the target and flushes the directory entry. */
  commit(): Promise<void>;
  /** Removes the temporary file; never throws. */
  discard(): Promise<void>;
}

/**
 * Writes `data` to `file` atomically: into a uniquely named temporary file in the same directory,
 * flushed to disk, then renamed over `file`. Readers see the old content or the new, never a torn
 * file, and concurrent writers never share a temporary file. The temporary file is removed when
 * anything fails. An existing file's permissions are kept; when `file` is a symbolic link, its target
 * is replaced, not the link.
 *
 * @param file - The file to write.
 * @param data - The content; strings are written as UTF-8.
 * @throws The underlying file-system error (callers turn it into an `IOError` with context).
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const staged = await stageFile(file, data);
  try {
    await staged.commit();
  } catch (error) {
    await staged.discard();
    throw error;
  }
}

/**
 * The first half of `writeFileAtomic`: writes and flushes the temporary file, and returns what is
 * needed to finish (or abandon) the write. Lets a caller prove that the directory is writable, and
 * have the new content safely on disk, before it changes anything else.
 *
 * @param file - The file to write.
 * @param data - The content; strings are written as UTF-8.
 * @throws The underlying file-system error; the temporary file is already removed.
 */
export async function stageFile(file: string, data: string | Uint8Array): Promise<StagedFile> {
  const target = resolveLink(path.resolve(file));
  const dir = path.dirname(target);
  const temp = tempName(target);
  // Keep the permissions of the file being replaced (a private cache stays private).
  const mode = statSync(target, { throwIfNoEntry: false })?.mode;
  try {
    await writeNewFile(temp, data, mode);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  return {
    temp,
    target,
    async commit() {
      await rename(temp, target);
      await syncDirectory(dir);
    },
    async discard() {
      await unlink(temp).catch(() => undefined);
    },
  };
}

/**
 * Creates `file` with `data` unless something already exists at that name, atomically: the content is
 * written and flushed under a temporary name, then hard-linked to `file`, which fails rather than
 * replaces. So `file` is either absent or complete, and an existing file is never overwritten.
 *
 * @param file - The file to create.
 * @param data - The content.
 * @returns `true` when the file was created, `false` when something was already there.
 * @throws The underlying file-system error; no temporary file is left behind.
 */
export async function createFileExclusive(file: string, data: string | Uint8Array): Promise<boolean> {
  const target = path.resolve(file);
  const temp = tempName(target);
  try {
    await writeNewFile(temp, data, undefined);
    try {
      await link(temp, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") return false;
      // Some file systems (FAT, some network mounts) have no hard links: check, then rename. Only a
      // concurrent writer of the very same name can slip in between, and it would write the same kind of copy.
      if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "ENOSYS") throw error;
      if (statSync(target, { throwIfNoEntry: false }) !== undefined) return false;
      await rename(temp, target);
    }
    await syncDirectory(path.dirname(target));
    return true;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/**
 * Removes temporary files that writes to `file` (and to names starting with its name) left behind
 * when their process was killed: those whose process is gone and that are older than `minAgeMs`.
 * The age guards against a writer on another machine sharing the directory, whose process id means
 * nothing here. Best effort: never throws.
 *
 * @param file - The file whose debris to look for.
 * @param minAgeMs - How old a temporary file must be. @default 60000
 * @returns The paths removed.
 */
export function removeStaleTempFiles(file: string, minAgeMs = 60_000): string[] {
  const target = resolveLink(path.resolve(file));
  const dir = path.dirname(target);
  const prefix = `.${path.basename(target)}`;
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const match = /\.(\d+)\.[0-9a-f]{12}\.tmp$/.exec(name);
    if (!match || processAlive(Number(match[1]))) continue;
    const full = path.join(dir, name);
    try {
      const stats = lstatSync(full);
      if (!stats.isFile() || Date.now() - stats.mtimeMs < minAgeMs) continue;
      unlinkSync(full);
      removed.push(full);
    } catch {
      // Gone already (another run cleaned it), or not ours to remove: leave it.
    }
  }
  return removed;
}

// --- helpers ---

/** A unique temporary name next to `target`; the process id lets `removeStaleTempFiles` tell debris from a live write. */
function tempName(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
}

/** Creates `file` (failing if it exists), writes `data`, sets `mode` when given, and flushes it to disk. */
async function writeNewFile(file: string, data: string | Uint8Array, mode: number | undefined): Promise<void> {
  // "wx": fail rather than write into a file that someone else created with the same name.
  const handle = await open(file, "wx");
  try {
    if (mode !== undefined) await handle.chmod(mode & 0o7777);
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Whether a process with this id exists (EPERM: it exists but belongs to someone else). */
function processAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The final target of a symbolic link, or the path itself when it is not one (or does not exist). */
function resolveLink(file: string): string {
  try {
    return realpathSync.native(file);
  } catch {
    return file;
  }
}

/** Flushes the directory entry of the rename; best effort, since not every platform allows it. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Windows and some file systems refuse fsync on a directory; the rename itself has happened.
  }
}
