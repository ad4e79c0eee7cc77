// The archive fingerprint cache (`.dropkit-cache.json`): size, mtime and sha256 of each archive.

import { createHash } from "node:crypto";
import { createReadStream, readFileSync, type Stats } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { fail } from "./errors.js";
import { writeFileAtomic } from "./fsutil.js";

/** What is known about one archive. */
export interface Fingerprint {
  /** Size in bytes. */
  size: number;
  /** Modification time in milliseconds since the epoch, with the file system's precision. */
  mtimeMs: number;
  /** SHA-256 of the content, lowercase hex. */
  sha256: string;
}

/** The cache as read from disk. */
export interface Cache {
  /** Fingerprints by archive name (relative to the working directory). */
  entries: Record<string, Fingerprint>;
  /**
   * When the run that wrote the cache started looking at archives (epoch ms); entries modified shortly
   * before it are not trusted, because a same-size change within one timestamp tick leaves mtime unchanged.
   * @default 0 (nothing is known, so nothing racy is trusted)
   */
  checkedAtMs: number;
  /** Set when the file existed but could not be used; the cache then starts empty and is rebuilt. */
  warning?: string;
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

/** Version of the cache file layout; a file with another version is rebuilt. */
export const cacheVersion = 1;

/**
 * A file modified this close (in ms) before a fingerprinting run started is hashed again next time:
 * covers file systems whose timestamps are as coarse as 2 s (FAT).
 */
const racyWindowMs = 2000;

/** How many archives are hashed at once. */
const hashConcurrency = 4;

/**
 * Reads the cache file. A missing file is an empty cache; an unreadable or corrupt one is an empty
 * cache plus a warning, and will be rebuilt by the next save.
 *
 * @param file - Absolute path of the cache file.
 */
export function loadCache(file: string): Cache {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { entries: {}, checkedAtMs: 0 };
    return { entries: {}, checkedAtMs: 0, warning: `Cannot read the cache ${file} (${code ?? String(error)}); every archive will be hashed.` };
  }
  const parsed = parseCache(text);
  if (typeof parsed === "string") {
    return { entries: {}, checkedAtMs: 0, warning: `The cache ${file} is corrupt (${parsed}); it will be rebuilt.` };
  }
  return parsed;
}

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

/**
 * Writes the cache atomically (temporary file + rename), so that a crash or a concurrent run never
 * leaves a torn file.
 *
 * @param file - Absolute path of the cache file.
 * @param data - The fingerprints and the time the run started, from `fingerprintArchives`.
 * @throws DropkitError `IOError` (74) with the path and the reason when it cannot be written.
 */
export async function saveCache(file: string, data: CacheData): Promise<void> {
  const archives: Record<string, Fingerprint> = {};
  for (const name of Object.keys(data.fingerprints).sort()) {
    const { size, mtimeMs, sha256 } = data.fingerprints[name]!;
    setOwn(archives, name, { size, mtimeMs, sha256 });
  }
  const text = JSON.stringify({ version: cacheVersion, checkedAtMs: data.checkedAtMs, archives }, null, 2) + "\n";
  try {
    await writeFileAtomic(file, text);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    fail("IOError", `Cannot write the cache ${file} (${reason}). Check that its directory exists and is writable, set cache.file to another path, or disable the cache with cache.enabled: false.`, { file, source: file });
  }
}

// --- helpers ---

/** Validates the cache file's content: the cache, or the reason it cannot be used. */
function parseCache(text: string): Omit<Cache, "warning"> | string {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return error instanceof Error ? error.message : "not JSON";
  }
  if (!isRecord(data)) return "not a JSON object";
  if (data.version !== cacheVersion) return `unknown version ${JSON.stringify(data.version)}`;
  const checkedAtMs = data.checkedAtMs;
  if (typeof checkedAtMs !== "number" || !Number.isFinite(checkedAtMs)) return "checkedAtMs is not a number";
  if (!isRecord(data.archives)) return "archives is not an object";
  const entries: Record<string, Fingerprint> = {};
  for (const [name, entry] of Object.entries(data.archives)) {
    if (!isFingerprint(entry)) return `the entry for ${JSON.stringify(name)} is not a fingerprint`;
    setOwn(entries, name, entry);
  }
  return { entries, checkedAtMs };
}

/** Sets an own data property: plain assignment of a `__proto__` key would replace the prototype instead. */
function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isFingerprint(value: unknown): value is Fingerprint {
  return isRecord(value)
    && typeof value.size === "number" && Number.isInteger(value.size) && value.size >= 0
    && typeof value.mtimeMs === "number" && Number.isFinite(value.mtimeMs)
    && typeof value.sha256 === "string" && /^[0-9a-f]{64}$/.test(value.sha256);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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
