// The archive fingerprint cache: size, mtime and sha256 of each archive, hashing only what changed. The file on disk is src/cachefile.ts.

import { createHash } from "node:crypto";
import { createReadStream, type Stats } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import type { Cache } from "./cachefile.js";
import { fail } from "./errors.js";

export { cacheFileLimits, cacheKind, cacheText, cacheVersion, commitCache, foreignCacheMessage, loadCache, saveCache, stageCache, type Cache, type CacheFound } from "./cachefile.js";

/** What is known about one archive. */
export interface Fingerprint {
  /** Size in bytes. */
  size: number;
  /** Modification time in milliseconds since the epoch, with the file system's precision. */
  mtimeMs: number;
  /** SHA-256 of the content, lowercase hex. */
  sha256: string;
}

/** What to write: the result of `fingerprintArchives`. */
export interface CacheData {
  /** Fingerprints by archive name. */
  fingerprints: Record<string, Fingerprint>;
  /** When fingerprinting started (epoch ms), from `fingerprintArchives`. */
  checkedAtMs: number;
}

/** The result of fingerprinting a set of archives. */
export interface FingerprintResult extends CacheData {
  /** Names whose content was hashed in this run, in the order given. */
  hashed: string[];
  /** Names whose fingerprint came from the cache, in the order given. */
  reused: string[];
}

/**
 * A file modified this close (in ms) before a fingerprinting run started is hashed again next time:
 * covers file systems whose timestamps are as coarse as 2 s (FAT).
 */
const racyWindowMs = 2000;

/** How many archives are hashed at once. */
const hashConcurrency = 4;

/**
 * Fingerprints archives, hashing only those that are new, whose size or mtime changed since the
 * cache was written, or that were modified too close to the cached run to be trusted.
 *
 * @param cwd - The directory the names are relative to.
 * @param names - Archive names, as `scanArchives` returns them.
 * @param cache - The cache from `loadCache` (pass an empty one to hash everything).
 * @throws DropkitError `IOError` (74) when an archive cannot be read.
 */
export async function fingerprintArchives(cwd: string, names: string[], cache: Pick<Cache, "entries" | "checkedAtMs">): Promise<FingerprintResult> {
  const checkedAtMs = Date.now();
  const results = await mapLimited(names, hashConcurrency, async (name) => {
    const file = path.resolve(cwd, name);
    const stats = await statArchive(file);
    const known = Object.hasOwn(cache.entries, name) ? cache.entries[name] : undefined;
    if (known && known.size === stats.size && known.mtimeMs === stats.mtimeMs && known.mtimeMs < cache.checkedAtMs - racyWindowMs) {
      return { name, fingerprint: known, hashed: false };
    }
    const sha256 = await hashFile(file);
    return { name, fingerprint: { size: stats.size, mtimeMs: stats.mtimeMs, sha256 }, hashed: true };
  });
  const fingerprints: Record<string, Fingerprint> = {};
  const hashed: string[] = [];
  const reused: string[] = [];
  for (const r of results) {
    setOwn(fingerprints, r.name, r.fingerprint);
    (r.hashed ? hashed : reused).push(r.name);
  }
  return { fingerprints, checkedAtMs, hashed, reused };
}

// --- helpers ---

/** Sets an own data property: plain assignment of a `__proto__` key would replace the prototype instead. */
function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

async function statArchive(file: string): Promise<Stats> {
  try {
    return await stat(file);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    fail("IOError", `Cannot read the archive ${file} (${reason}); was it moved or deleted during the run?`, { file, source: file });
  }
}

/** SHA-256 of a file, streamed so that large archives are never held in memory. */
async function hashFile(file: string): Promise<string> {
  const hash = createHash("sha256");
  try {
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    fail("IOError", `Cannot read the archive ${file} (${reason}); check that it is readable.`, { file, source: file });
  }
  return hash.digest("hex");
}

/** Maps with at most `limit` calls in flight; results keep the input order. */
async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
