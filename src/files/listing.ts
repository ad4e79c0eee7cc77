// One listing of the drop folder per run, shared by the steps that read it.
// Those steps: discovery's look for near misses, preset detection, the archive scan and the cleanup of temporary files.

import { readdirSync } from "node:fs";
import path from "node:path";

/** One entry of a listing: a `Dirent`, as far as the steps that share a listing look at it (and no Node type in the package's declarations). */
export interface ListedEntry {
  readonly name: string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/**
 * The entries of one directory, read once, on first use, and kept until `forget`: `create` lists the drop twice
 * where it listed it four times (docs/performance.md#a-cached-create): once for discovery and preset
 * detection, and once more under the folder's lock for the archive scan and the cleanup, since another run may
 * have changed the folder before the lock was taken; a third time after an init hook ran. A listing is made per
 * run and never kept across runs.
 */
export class FolderListing {
  /** The directory, absolute. */
  readonly dir: string;
  private entries: ListedEntry[] | undefined;
  private error: unknown;

  constructor(dir: string) {
    this.dir = path.resolve(dir);
  }

  /**
   * The entries, with their types (as `readdirSync(dir, { withFileTypes: true })` gives them, in its order).
   *
   * @throws The file-system error of the listing (ENOENT, EACCES...), the same one on every call.
   */
  read(): ListedEntry[] {
    if (this.entries === undefined && this.error === undefined) {
      try {
        this.entries = readdirSync(this.dir, { withFileTypes: true });
      } catch (error) {
        this.error = error;
      }
    }
    if (this.entries === undefined) throw this.error;
    return this.entries;
  }

  /** The entries' names, or `null` when the directory cannot be listed. */
  names(): string[] | null {
    try {
      return this.read().map((entry) => entry.name);
    } catch {
      return null;
    }
  }

  /** Whether this is a listing of `dir`. */
  covers(dir: string): boolean {
    return path.resolve(dir) === this.dir;
  }

  /** Drops what was read: the next `read` lists the directory again. */
  forget(): void {
    this.entries = undefined;
    this.error = undefined;
  }
}
