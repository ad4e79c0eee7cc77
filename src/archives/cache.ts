// The archive fingerprint cache: size, mtime, sha256 and zip verdict of each archive, reading only what changed. The file on disk is src/archives/cachefile.ts.

import { statSync, type Stats } from "node:fs";
import path from "node:path";
import type { Cache, CacheData, Fingerprint } from "./cachefile.js";
import type { DigestOptions, SizedJob } from "./digest-pool.js";
import { notRegularProblem } from "../files/found.js";
import { fail } from "../errors.js";
import type { ZipVerdict } from "./zip.js";

export {
  cacheFileLimits,
  cacheKind,
  cacheText,
  cacheVersion,
  commitCache,
  foreignCacheMessage,
  loadCache,
  saveCache,
  stageCache,
  type Cache,
  type CacheData,
  type CacheFound,
  type Fingerprint,
} from "./cachefile.js";

/** The result of fingerprinting a set of archives. */
export interface FingerprintResult extends CacheData {
  /** Names whose content was hashed in this run, in the order given. */
  hashed: string[];
  /** Names whose fingerprint came from the cache, in the order given. */
  reused: string[];
  /** Names whose zip records were read in this run (every hashed one, and cached ones without a verdict). */
  checked: string[];
  /** Verdicts on names that were not regular files when they were opened (replaced after the scan): no fingerprint, not cached. */
  refused: Record<string, ZipVerdict>;
  /** Whether the cache's entries would change: something was read, or an archive came or went. */
  changed: boolean;
}

/** Options of `fingerprintArchives`. */
export interface FingerprintOptions extends Pick<DigestOptions, "signal"> {
  /** Told how much is to be read before reading starts, then how far it is. */
  progress?: { start(total: number, totalBytes: number): void; update(done: number, bytes: number): void };
}

/**
 * A file modified this close (in ms) before a fingerprinting run started is hashed again next time:
 * covers file systems whose timestamps are as coarse as 2 s (FAT).
 */
const racyWindowMs = 2000;

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
export async function fingerprintArchives(
  cwd: string,
  names: string[],
  cache: Pick<Cache, "entries" | "checkedAtMs">,
  options: FingerprintOptions = {},
): Promise<FingerprintResult> {
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
      if (!isZipVerdict(known.zip)) jobs.push({ name, file, size: stats.size, hash: false, check: true });
    } else {
      jobs.push({ name, file, size: stats.size, hash: true, check: true });
    }
  }
  const hashedNames = new Set<string>();
  const refused = Object.create(null) as Record<string, ZipVerdict>;
  if (jobs.length > 0) {
    const { digestArchives } = await import("./digest-pool.js");
    options.progress?.start(
      jobs.length,
      jobs.reduce((sum, j) => sum + (j.hash ? j.size : 0), 0),
    );
    const digests = await digestArchives(jobs, {
      signal: options.signal,
      onProgress: options.progress && ((done, bytes) => options.progress!.update(done, bytes)),
    });
    for (const [i, job] of jobs.entries()) {
      const digest = digests[i]!;
      if (!digest.ok && digest.what !== undefined) {
        refused[job.name] = { ok: false, problem: notRegularProblem(digest.what) };
        delete fingerprints[job.name];
        continue;
      }
      if (!digest.ok) failToRead(job.file, digest.code);
      if (job.hash) hashedNames.add(job.name);
      // A reused entry keeps any further fields it carries (see cacheText); only its verdict is new.
      fingerprints[job.name] = job.hash
        ? { size: digest.size, mtimeMs: digest.mtimeMs, sha256: digest.sha256!, zip: digest.zip }
        : { ...fingerprints[job.name]!, zip: digest.zip };
    }
  }
  // In the order given (jobs are made in that order), whatever order the reading finished in.
  const hashed = names.filter((name) => hashedNames.has(name));
  const reused = hashedNames.size === 0 ? names.slice() : names.filter((name) => !hashedNames.has(name));
  // Nothing read and the same archives as a cache that was read: its checkedAtMs still covers every entry (none was racy).
  // A checkedAtMs of 0 means no cache was read (missing, unreadable, corrupt).
  const changed = jobs.length > 0 || cache.checkedAtMs === 0 || Object.keys(cache.entries).length !== names.length;
  return {
    fingerprints,
    checkedAtMs,
    hashed,
    reused: reused.filter((name) => !(name in refused)),
    checked: jobs.map((j) => j.name),
    refused,
    changed,
  };
}

/** Whether a cached `zip` field is a verdict this version reads; anything else means the archive is checked again. */
export function isZipVerdict(value: unknown): value is ZipVerdict {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  // A sound verdict without `verified` was made before entry data was checked (a cache of an older dropkit): the
  // archive is checked again, once, without hashing it again; the cache layout stays the same.
  return v.ok === true
    ? Number.isInteger(v.entries) && Number.isInteger(v.verified) && (v.note === undefined || typeof v.note === "string")
    : v.ok === false && typeof v.problem === "string";
}

// --- helpers ---

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
