// The archive fingerprint cache (`.dropkit-cache.json`): size, mtime and sha256 of each archive.

import { readFileSync, statSync, type Stats } from "node:fs";
import path from "node:path";
import type { DigestOptions, SizedJob } from "./digest-pool.js";
import { fail } from "./errors.js";
import { writeFileAtomic } from "./fsutil.js";
import type { ZipVerdict } from "./zip.js";

/** What is known about one archive. */
export interface Fingerprint {
  /** Size in bytes. */
  size: number;
  /** Modification time in milliseconds since the epoch, with the file system's precision. */
  mtimeMs: number;
  /** SHA-256 of the content, lowercase hex. */
  sha256: string;
  /** The zip check's verdict on this content; an entry without one is checked again (caches written before the check). */
  zip?: ZipVerdict;
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
  /** Names whose zip records were read in this run (every hashed one, and cached ones without a verdict). */
  checked: string[];
  /** Whether the cache file would change: something was read, or an archive came or went. An unchanged cache is not rewritten. */
  changed: boolean;
}

/** Options of `fingerprintArchives`. */
export interface FingerprintOptions extends Pick<DigestOptions, "signal"> {
  /** Told how much is to be read before reading starts, then how far it is. */
  progress?: { start(total: number, totalBytes: number): void; update(done: number, bytes: number): void };
}

/** Version of the cache file layout; a file with another version is rebuilt. */
export const cacheVersion = 1;

/**
 * A file modified this close (in ms) before a fingerprinting run started is hashed again next time:
 * covers file systems whose timestamps are as coarse as 2 s (FAT).
 */
const racyWindowMs = 2000;

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
 * Fingerprints archives, hashing only those that are new, whose size or mtime changed since the cache was
 * written, or that were modified too close to the cached run to be trusted; each hashed archive's zip records
 * are checked in the same read, and a cached one without a verdict is checked without hashing. A re-run with
 * nothing changed costs one `stat` per archive; the reading, when there is any, is spread over every core.
 *
 * @param cwd - The directory the names are relative to.
 * @param names - Archive names, as `scanArchives` returns them.
 * @param cache - The cache from `loadCache` (pass an empty one to hash everything).
 * @throws DropkitError `IOError` (74) when an archive cannot be read.
 */
export async function fingerprintArchives(cwd: string, names: string[], cache: Pick<Cache, "entries" | "checkedAtMs">, options: FingerprintOptions = {}): Promise<FingerprintResult> {
  const checkedAtMs = Date.now();
  // A prototype-free object takes any archive name as a key (`__proto__` too) and stays a plain hash table.
  const fingerprints = Object.create(null) as Record<string, Fingerprint>;
  const jobs: Array<SizedJob & { name: string }> = [];
  // Names are file names in cwd: joined by hand, since path.resolve's normalising is a fair share of 10,000 stats.
  const dir = path.resolve(cwd);
  const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
  for (const name of names) {
    const file = path.isAbsolute(name) ? name : prefix + name;
    const stats = statArchive(file);
    const known = Object.hasOwn(cache.entries, name) ? cache.entries[name] : undefined;
    if (known && known.size === stats.size && known.mtimeMs === stats.mtimeMs && known.mtimeMs < cache.checkedAtMs - racyWindowMs) {
      fingerprints[name] = known;
      if (!known.zip) jobs.push({ name, file, size: stats.size, hash: false, check: true });
    } else {
      jobs.push({ name, file, size: stats.size, hash: true, check: true });
    }
  }
  const hashedNames = new Set<string>();
  if (jobs.length > 0) {
    const { digestArchives } = await import("./digest-pool.js");
    options.progress?.start(jobs.length, jobs.reduce((sum, j) => sum + (j.hash ? j.size : 0), 0));
    const digests = await digestArchives(jobs, { signal: options.signal, onProgress: options.progress && ((done, bytes) => options.progress!.update(done, bytes)) });
    for (const [i, job] of jobs.entries()) {
      const digest = digests[i]!;
      if (!digest.ok) failToRead(job.file, digest.code);
      if (job.hash) hashedNames.add(job.name);
      fingerprints[job.name] = job.hash ? { size: digest.size, mtimeMs: digest.mtimeMs, sha256: digest.sha256!, zip: digest.zip } : { ...fingerprints[job.name]!, zip: digest.zip };
    }
  }
  // In the order given (jobs are made in that order), whatever order the reading finished in.
  const hashed = names.filter((name) => hashedNames.has(name));
  const reused = hashedNames.size === 0 ? names.slice() : names.filter((name) => !hashedNames.has(name));
  // Nothing read and the same archives as a cache that was read: its checkedAtMs still covers every entry (none was racy).
  // A checkedAtMs of 0 means no cache was read (missing, unreadable, corrupt): the file is written.
  const changed = jobs.length > 0 || cache.checkedAtMs === 0 || Object.keys(cache.entries).length !== names.length;
  return { fingerprints, checkedAtMs, hashed, reused, checked: jobs.map((j) => j.name), changed };
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
  const archives = Object.create(null) as Record<string, Fingerprint>;
  for (const name of Object.keys(data.fingerprints).sort()) {
    const { size, mtimeMs, sha256, zip } = data.fingerprints[name]!;
    archives[name] = zip ? { size, mtimeMs, sha256, zip } : { size, mtimeMs, sha256 };
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
  const entries = Object.create(null) as Record<string, Fingerprint>;
  for (const name in data.archives) {
    const entry = data.archives[name];
    if (!isFingerprint(entry)) return `the entry for ${JSON.stringify(name)} is not a fingerprint`;
    const { size, mtimeMs, sha256, zip } = entry;
    // A verdict this version cannot read only means the archive is checked again.
    entries[name] = isZipVerdict(zip) ? { size, mtimeMs, sha256, zip } : { size, mtimeMs, sha256 };
  }
  return { entries, checkedAtMs };
}

function isFingerprint(value: unknown): value is Fingerprint {
  return isRecord(value)
    && typeof value.size === "number" && Number.isInteger(value.size) && value.size >= 0
    && typeof value.mtimeMs === "number" && Number.isFinite(value.mtimeMs)
    && typeof value.sha256 === "string" && /^[0-9a-f]{64}$/.test(value.sha256);
}

function isZipVerdict(value: unknown): value is ZipVerdict {
  if (!isRecord(value)) return false;
  return value.ok === true ? Number.isInteger(value.entries) : value.ok === false && typeof value.problem === "string";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A stat per archive and nothing more on the cached path: synchronous, since nothing else runs meanwhile and it is several times cheaper than a promise each. */
function statArchive(file: string): Stats {
  try {
    return statSync(file);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    fail("IOError", `Cannot read the archive ${file} (${reason}); was it moved or deleted during the run?`, { file, source: file });
  }
}

function failToRead(file: string, code: string): never {
  fail("IOError", `Cannot read the archive ${file} (${code}); check that it is readable.`, { file, source: file });
}
