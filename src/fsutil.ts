// Small file-system helpers shared by the modules that write files (cache, state).

import { randomBytes } from "node:crypto";
import { realpathSync, statSync } from "node:fs";
import { open, rename, unlink } from "node:fs/promises";
import path from "node:path";

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
  const target = resolveLink(path.resolve(file));
  const dir = path.dirname(target);
  const temp = path.join(dir, `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  // Keep the permissions of the file being replaced (a private cache stays private).
  const mode = statSync(target, { throwIfNoEntry: false })?.mode;
  try {
    // "wx": fail rather than write into a file that someone else created with the same name.
    const handle = await open(temp, "wx");
    try {
      if (mode !== undefined) await handle.chmod(mode & 0o7777);
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dir);
}

// --- helpers ---

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
