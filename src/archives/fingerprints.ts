// The archive fingerprint cache: each archive's identity, sha256 and zip verdict; and its file: what is at `cache.file`, its layout, its replacement.

import { lstatSync, realpathSync, renameSync, statSync, type Stats } from "node:fs";
import path from "node:path";
import type { DigestOptions, SizedJob } from "./digest-pool.js";
import { fail } from "../errors.js";
import { notRegularProblem, readFound, sameFile } from "../files/found.js";
import { errorReason, syncDirectory } from "../files/fsutil.js";
import { isRecord, parseJsonWithin, type JsonLimits } from "../files/jsonfile.js";
import { stageFile, type StagedFile } from "../files/staging.js";
import { isoTime } from "../isotime.js";
import { markOneOffWork } from "../oneoffwork.js";
import type { ZipVerdict } from "./zip.js";

/**
 * What is known about one archive, and the exact file it was learnt from: a verdict is reused only when the file
 * now at the archive's real path has the same device, inode, size, mtime and ctime (as git's index checks), so
 * that another file of the same name, size and mtime (another drop's, or a `cp -p` over it) is read again.
 */
export interface Fingerprint {
  /** Device of the file read (`fstat`'s `st_dev`). */
  dev: number;
  /** Inode of the file read. */
  ino: number;
  /** Size in bytes. */
  size: number;
  /** Modification time in milliseconds since the epoch, with the file system's precision. */
  mtimeMs: number;
  /** Status change time in milliseconds: a copy made with `cp -p`, or a rename over the archive, changes it whatever mtime says. */
  ctimeMs: number;
  /**
   * When the run that read the file started (epoch ms): an entry modified shortly before it is not trusted, since a
   * same-size change within one timestamp tick leaves mtime unchanged. Each entry keeps its own, since a file shared by
   * several drops holds entries of many runs.
   */
  checkedAtMs: number;
  /** SHA-256 of the content, lowercase hex. */
  sha256: string;
  /** The zip check's verdict on this content; an entry without a readable one is checked again (caches written before the check). */
  zip?: ZipVerdict;
}

/** What to write: the result of `fingerprintArchives`. */
export interface CacheData {
  /** Fingerprints by the archive's real path (absolute, after links): this drop's and those of other drops sharing the file. */
  archives: Record<string, Fingerprint>;
  /** When fingerprinting started (epoch ms), from `fingerprintArchives`. */
  checkedAtMs: number;
}

/** The cache as read from disk. */
export interface FingerprintCache {
  /**
   * Fingerprints by the archive's real path, with any further fields of each entry kept; empty for a file of an
   * older layout (version 1 or 2, keyed by bare names), whose entries cannot say which file they judged.
   */
  entries: Record<string, Fingerprint>;
  /**
   * When the run that wrote the cache started looking at archives (epoch ms); each entry has its own (`Fingerprint`).
   * @default 0 (no cache was read: missing, unreadable, corrupt)
   */
  checkedAtMs: number;
  /** What is at the path, and so whether it may be replaced. */
  found: CacheFound;
  /** Set when the file exists but cannot be used; the cache then starts empty and is rebuilt. */
  warning?: string;
}

/**
 * What is at `cache.file`. Only `missing` and dropkit's own caches (`cache`, `corrupt`, `other-version`)
 * may be replaced, plus a symbolic link (replaced itself, its target untouched) and a file that cannot be
 * read (moved aside whole first); anything else is `foreign` and never touched.
 */
export type CacheFound =
  | { kind: "missing" }
  | { kind: "cache"; version: 1 | 2 | 3; stats: Stats }
  /** A dropkit cache that cannot be used (torn, wrong entries, beyond `cacheFileLimits`): moved aside, then rebuilt. */
  | { kind: "corrupt"; reason: string; stats: Stats; aside: string }
  /** A cache with dropkit's marker and another version (a newer dropkit): rebuilt, no copy kept. */
  | { kind: "other-version"; version: unknown; stats: Stats }
  /** A file this user cannot read, so cannot tell: moved aside whole (bytes, mode and owner kept), then rebuilt. */
  | { kind: "unreadable"; reason: string; stats: Stats; aside: string }
  | { kind: "link"; target: string; stats: Stats }
  /** Not a dropkit cache: `what` says what it is ("is a zip archive"). */
  | { kind: "foreign"; what: string; stats?: Stats };

/** The first key of every cache file since layout version 2: the file says what it is. */
export const cacheKind = "dropkit-cache";

/**
 * Version of the cache file layout written: 3 keys entries by real path with the file's identity. Versions 1
 * (`{version, checkedAtMs, archives}`) and 2 are still recognised as dropkit's, their entries count as misses, and
 * they are rewritten as version 3.
 */
export const cacheVersion = 3;

/**
 * A cache file larger or deeper than this is treated as corrupt (moved aside, rebuilt), never parsed:
 * about 300 bytes an archive (its absolute path included), so room for some 200,000 archives.
 */
export const cacheFileLimits: JsonLimits = { bytes: 64 * 1024 * 1024, depth: 128 };

/**
 * The most entries a cache file keeps when it is shared by several drops (about 30 MiB, within `cacheFileLimits`):
 * past it, entries of other folders whose archive is gone are dropped, and if that is not enough, every entry of
 * other folders. The running drop's own entries are always kept.
 */
export const cacheEntriesMax = 100_000;

/** The result of fingerprinting a set of archives. */
export interface FingerprintResult extends CacheData {
  /** This run's fingerprints by archive name, as given (what the plan is judged with). */
  fingerprints: Record<string, Fingerprint>;
  /** Names whose content was hashed in this run, in the order given. */
  hashed: string[];
  /** Names whose fingerprint came from the cache, in the order given. */
  reused: string[];
  /** Names whose zip records were read in this run (every hashed one, and cached ones without a verdict). */
  checked: string[];
  /** Verdicts on names that were not regular files when they were opened (replaced after the scan): no fingerprint, not cached. */
  refused: Record<string, ZipVerdict>;
  /** Whether the cache's entries would change: something was read, an archive came or went, entries were pruned. */
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
 * Fingerprints archives, hashing only those that are new, whose identity (device, inode, size, mtime, ctime) changed
 * since the cache was written, or that were modified too close to the run that read them to be trusted; each hashed
 * archive's zip records are checked in the same read, and a cached one without a verdict is checked without hashing. A re-run
 * with nothing changed costs one `lstat` per archive (and a `stat` and a `realpath` for a link) plus one `realpath` of
 * the folder; the reading, when there is any, is spread over every CPU.
 *
 * Entries are keyed by the archive's real path, so a cache file shared by several drops keeps each drop's entries:
 * the result's `archives` are the cache's entries of other folders as they were, and this folder's entries as this run
 * found them (an archive no longer listed leaves).
 *
 * @param cwd - The directory the names are relative to.
 * @param names - Archive names, as `scanArchives` returns them.
 * @param cache - The cache from `loadCache` (pass an empty one to hash everything).
 * @throws DropkitError `IOError` (74) when an archive cannot be read.
 */
export async function fingerprintArchives(
  cwd: string,
  names: string[],
  cache: Pick<FingerprintCache, "entries" | "checkedAtMs">,
  options: FingerprintOptions = {},
): Promise<FingerprintResult> {
  const checkedAtMs = Date.now();
  // A prototype-free object takes any archive name as a key (`__proto__` too) and stays a plain hash table.
  const fingerprints = Object.create(null) as Record<string, Fingerprint>;
  const jobs: Array<SizedJob & { name: string }> = [];
  // Names are file names in cwd: joined by hand, since path.resolve's normalising is a fair share of 10,000 stats.
  const dir = path.resolve(cwd);
  const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
  // The real path of an archive that is not a link is the folder's real path and its name: one realpath a run.
  const realDir = realPathOf(dir);
  const realPrefix = realDir.endsWith(path.sep) ? realDir : realDir + path.sep;
  const keys: string[] = [];
  for (const name of names) {
    const file = path.isAbsolute(name) ? name : prefix + name;
    let stats = statArchive(file, lstatSync);
    let key: string;
    if (stats.isSymbolicLink()) {
      stats = statArchive(file, statSync);
      key = realPathOf(file);
    } else {
      key = path.isAbsolute(name) ? realPathOf(file) : realPrefix + name;
    }
    keys.push(key);
    const known = Object.hasOwn(cache.entries, key) ? cache.entries[key] : undefined;
    if (known && sameIdentity(known, stats) && known.mtimeMs < known.checkedAtMs - racyWindowMs) {
      fingerprints[name] = known;
      if (!isZipVerdict(known.zip)) jobs.push({ name, file, size: stats.size, hash: false, check: true });
    } else {
      jobs.push({ name, file, size: stats.size, hash: true, check: true });
    }
  }
  const hashedNames = new Set<string>();
  // Names whose fingerprint describes another file than the one read (replaced between the stat and the open): used, not cached.
  const unsure = new Set<string>();
  const refused = Object.create(null) as Record<string, ZipVerdict>;
  if (jobs.length > 0) {
    // Reading archives is what the next runs, answered by this cache, will not do: no code cache is saved for it.
    markOneOffWork();
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
      if (job.hash) {
        hashedNames.add(job.name);
        // The identity is the open file's, so the entry names the very bytes hashed and checked.
        const { dev, ino, size, mtimeMs, ctimeMs, sha256, zip } = digest;
        fingerprints[job.name] = { dev, ino, size, mtimeMs, ctimeMs, checkedAtMs, sha256: sha256!, zip };
      } else {
        // A reused entry keeps any further fields it carries (see cacheText); only its verdict is new.
        const known = fingerprints[job.name]!;
        if (!sameIdentity(known, digest)) unsure.add(job.name);
        fingerprints[job.name] = { ...known, zip: digest.zip };
      }
    }
  }
  const written = mergeEntries(cache.entries, names, keys, fingerprints, { realPrefix, unsure });
  // In the order given (jobs are made in that order), whatever order the reading finished in.
  const hashed = names.filter((name) => hashedNames.has(name));
  const reused = hashedNames.size === 0 ? names.slice() : names.filter((name) => !hashedNames.has(name));
  // Nothing read, nothing pruned, and a cache that was read: its entries stay as they are.
  // A checkedAtMs of 0 means no cache was read (missing, unreadable, corrupt).
  const changed = jobs.length > 0 || cache.checkedAtMs === 0 || written.pruned;
  return {
    fingerprints,
    archives: written.archives,
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

/**
 * Reads the cache file, never following a symbolic link, and says what it is (`found`). A missing file is
 * an empty cache. A dropkit cache that cannot be used, or a link, is an empty cache plus a warning, and is
 * rebuilt by the next save. A file that is not a dropkit cache is an empty cache with `found.kind` `foreign`:
 * the caller must refuse to write it.
 *
 * A file is a dropkit cache when it parses (within `cacheFileLimits`) to an object with `"kind":
 * "dropkit-cache"`, or to a version-1 cache (`version` 1 with `checkedAtMs` and `archives`); or, when it
 * does not parse, when its text begins as only dropkit writes a cache (`{"kind": "dropkit-cache"` or
 * `{"version": 1, "checkedAtMs":`, any whitespace) or is such a beginning cut short; an empty (or
 * whitespace-only) file counts as one too. At dropkit's own name (`.dropkit-cache.json`, SPEC section 12), any
 * other regular file, one this user cannot read included, is a corrupt cache: moved aside whole, rebuilt. At
 * any other name, anything else is someone else's, a file that cannot be read included. Something that is not
 * a regular file is never a cache, at any name.
 *
 * @param file - Absolute path of the cache file.
 */
export function loadCache(file: string, now: Date = new Date()): FingerprintCache {
  const empty = { entries: {}, checkedAtMs: 0 };
  const reserved = reservedName(file);
  // A file at dropkit's own name is dropkit's: whatever it holds that is not a usable cache is corrupt. At a name the
  // user chose, it may be the user's: only what shows itself to be a cache is touched.
  const ownName = path.basename(file) === defaultCacheName;
  let found;
  try {
    found = readFound(file, cacheFileLimits.bytes);
  } catch (error) {
    const stats = lstatQuietly(file);
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    if (reserved !== undefined) return { ...empty, found: { kind: "foreign", what: reserved, stats } };
    if (code === "ENOTDIR") return { ...empty, found: { kind: "missing" } };
    if (!stats) return { ...empty, found: { kind: "foreign", what: `cannot be looked at (${code})` } };
    // Only a regular file is ever moved aside (/proc/self/mem is not one to rename), and only at dropkit's own name:
    // a file the user named that cannot be read cannot be shown to be a cache.
    if (!stats.isFile()) return { ...empty, found: { kind: "foreign", what: `cannot be read (${code})`, stats } };
    if (!ownName)
      return { ...empty, found: { kind: "foreign", what: `cannot be read (${code}), so it cannot be shown to be a dropkit cache`, stats } };
    const aside = asideName(file, now);
    return {
      ...empty,
      found: { kind: "unreadable", reason: code, stats, aside },
      warning:
        `Cannot read the cache ${file} (${code}), so dropkit cannot tell whether it is a cache: every archive is ` +
        `hashed, and the file is moved aside whole (bytes, mode and owner kept) to ${aside} before a new cache is ` +
        `written.`,
    };
  }
  if (found.kind === "missing") return { ...empty, found: reserved === undefined ? found : { kind: "foreign", what: reserved } };
  if (reserved !== undefined) return { ...empty, found: { kind: "foreign", what: reserved, stats: found.stats } };
  if (found.kind === "other") return { ...empty, found: { kind: "foreign", what: `is ${found.what}`, stats: found.stats } };
  if (found.kind === "link") {
    return {
      ...empty,
      found: { kind: "link", target: found.target, stats: found.stats },
      warning:
        `The cache ${file} is a symbolic link to ${found.target}; dropkit does not follow it: every archive is hashed, ` +
        `and the link is replaced by a regular file (as git does), leaving ${found.target} as it is.`,
    };
  }
  const text = found.bytes.toString("utf8");
  const corrupt = (reason: string): FingerprintCache => {
    const aside = asideName(file, now);
    return {
      ...empty,
      found: { kind: "corrupt", reason, stats: found.stats, aside },
      warning: `The cache ${file} is corrupt (${reason}); it is moved aside to ${aside} and rebuilt.`,
    };
  };
  // Whitespace alone (what trim() removes, without copying the text to find out).
  if (found.complete && !/\S/.test(text)) return corrupt("it is empty");
  const parsed = parseJsonWithin(text, found.complete, found.stats.size, cacheFileLimits);
  if (!parsed.ok) {
    if (beginsLikeCache(text)) return corrupt(parsed.reason);
    return ownName
      ? corrupt(parsed.reason)
      : { ...empty, found: { kind: "foreign", what: describeForeign(found.bytes, false), stats: found.stats } };
  }
  const data = parsed.value;
  const ours = isRecord(data) && (data.kind === cacheKind || (data.version === 1 && "checkedAtMs" in data && "archives" in data));
  if (!ours) {
    if (beginsLikeCache(text)) return corrupt("it is not an object of the cache layout");
    return ownName
      ? corrupt("it holds JSON that is not a dropkit cache")
      : { ...empty, found: { kind: "foreign", what: describeForeign(found.bytes, true), stats: found.stats } };
  }
  const version = data.kind === cacheKind ? data.version : 1;
  if (version !== 1 && version !== 2 && version !== cacheVersion) {
    return {
      ...empty,
      found: { kind: "other-version", version, stats: found.stats },
      warning: `The cache ${file} has layout version ${JSON.stringify(version)}, written by another dropkit; it is rebuilt.`,
    };
  }
  const read = readEntries(data, version === cacheVersion);
  if (typeof read === "string") return corrupt(read);
  return { ...read, found: { kind: "cache", version, stats: found.stats } };
}

/**
 * The text of a cache file (layout version 3): the `kind` marker first, so that the file says what it is,
 * then the entries by real path, one line each. Each entry's identity (`dev`, `ino`, `size`, `mtimeMs`, `ctimeMs`),
 * `checkedAtMs` and `sha256` come first, then any further fields it carries, in their order.
 */
export function cacheText(data: CacheData): string {
  const lines: string[] = [];
  for (const key of Object.keys(data.archives).sort()) {
    const { dev, ino, size, mtimeMs, ctimeMs, checkedAtMs, sha256, ...rest } = data.archives[key]!;
    lines.push(`    ${JSON.stringify(key)}: ${JSON.stringify({ dev, ino, size, mtimeMs, ctimeMs, checkedAtMs, sha256, ...rest })}`);
  }
  // One line an entry: far smaller than the indented form for a large drop, and still a diff a person can read.
  const head = `{\n  "kind": ${JSON.stringify(cacheKind)},\n  "version": ${cacheVersion},\n  "checkedAtMs": ${JSON.stringify(data.checkedAtMs)},\n`;
  return `${head}  "archives": ${lines.length === 0 ? "{}" : `{\n${lines.join(",\n")}\n  }`}\n}\n`;
}

/**
 * Writes the cache atomically (temporary file + rename), so that a crash or a concurrent run never
 * leaves a torn file, under the same rules as `create`: only a missing file or a dropkit cache is
 * replaced, a corrupt one is moved aside first.
 *
 * @param file - Absolute path of the cache file.
 * @param data - The fingerprints and the time the run started, from `fingerprintArchives`.
 * @returns Warnings (the file moved aside, a directory that could not be flushed).
 * @throws DropkitError `IOError` (74) with the path and the reason when it cannot or may not be written.
 */
export async function saveCache(file: string, data: CacheData, now = new Date()): Promise<string[]> {
  const loaded = loadCache(file);
  if (loaded.found.kind === "foreign")
    fail("IOError", foreignCacheMessage(file, loaded.found.what), { path: "cache.file", file, source: file });
  const staged = await stageCache(file, data);
  try {
    const committed = await commitCache(staged, loaded, now);
    return committed.warnings;
  } catch (error) {
    await staged.discard();
    throw error;
  }
}

/**
 * Stages the cache: the new file written and flushed under a temporary name next to `file`.
 *
 * @throws DropkitError `IOError` (74) naming the file and the ways out.
 */
export async function stageCache(file: string, data: CacheData): Promise<StagedFile> {
  try {
    return await stageFile(file, cacheText(data));
  } catch (error) {
    fail(
      "IOError",
      `Cannot write the cache ${file} (${errorReason(error)}). Check that its directory exists and is writable, set ` +
        `cache.file to another path, or disable the cache with cache.enabled: false.`,
      { path: "cache.file", file, source: file },
    );
  }
}

/**
 * Replaces the cache by the staged file. What is at the path is looked at again first (another drop
 * sharing the cache, or another program, may have written it since `loaded` was read): a foreign file is
 * never replaced; a corrupt or unreadable one is moved aside to `<file>.corrupt-<timestamp>`.
 *
 * @returns Where the old file was moved, or `null`, and warnings.
 * @throws DropkitError `IOError` (74); the staged file is then left for the caller to discard.
 */
export async function commitCache(
  staged: StagedFile,
  loaded: FingerprintCache,
  now: Date,
): Promise<{ movedAside: string | null; warnings: string[] }> {
  const file = staged.target;
  let found = loaded.found;
  const stats = lstatQuietly(file);
  const unchanged =
    stats === undefined ? found.kind === "missing" : "stats" in found && found.stats !== undefined && sameFile(stats, found.stats);
  if (!unchanged) found = loadCache(file, now).found;
  if (found.kind === "foreign") fail("IOError", foreignCacheMessage(file, found.what), { path: "cache.file", file, source: file });
  let movedAside: string | null = null;
  // The name the load's warning gave the copy: kept unless it was taken meanwhile.
  const announced = loaded.found.kind === "corrupt" || loaded.found.kind === "unreadable" ? loaded.found.aside : undefined;
  try {
    if (found.kind === "corrupt" || found.kind === "unreadable") movedAside = moveAside(file, announced ?? found.aside, now);
    await staged.commit();
  } catch (error) {
    fail(
      "IOError",
      `Cannot ${movedAside === null && (found.kind === "corrupt" || found.kind === "unreadable") ? "move the unusable cache aside" : "write the cache"} ` +
        `${file} (${errorReason(error)}). Check that its directory is writable, set cache.file to another path, or ` +
        `disable the cache with cache.enabled: false.`,
      { path: "cache.file", file, source: file },
    );
  }
  const warnings: string[] = [];
  // A move no warning named (the cache went bad during the run, or the announced name was taken) gets its own.
  if (movedAside !== null && movedAside !== announced && "reason" in found) {
    const instead = announced ? `, not ${announced} (that name was taken meanwhile)` : "";
    warnings.push(`The cache ${file} is unusable (${found.reason}); it was moved aside to ${movedAside}${instead} and rebuilt.`);
  }
  const warning = syncDirectory(path.dirname(file), file);
  if (warning) warnings.push(warning);
  return { movedAside, warnings };
}

/**
 * The message for a `cache.file` that dropkit may not replace.
 *
 * @param what - What the file is, from `CacheFound` (`is a zip archive`).
 */
export function foreignCacheMessage(file: string, what: string): string {
  return (
    `cache.file is ${file}, which ${what}; dropkit replaces only a missing file or a cache it wrote, so nothing ` +
    `was written. Set cache.file to another path (the default is ${defaultCacheName}), move that file away, or ` +
    `disable the cache with cache.enabled: false.`
  );
}

// --- helpers ---

/**
 * A stat per archive and nothing more on the cached path: synchronous, since nothing else runs meanwhile and a promise
 * each would cost more (docs/performance.md#a-cached-create).
 */
function statArchive(file: string, stat: (file: string) => Stats): Stats {
  try {
    return stat(file);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    fail("IOError", `Cannot read the archive ${file} (${reason}); was it moved or deleted during the run?`, { file, source: file });
  }
}

/** The real path of the folder or of an archive reached through a link, or an IOError as for an archive that cannot be read. */
function realPathOf(file: string): string {
  try {
    return realpathSync.native(file);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    fail("IOError", `Cannot read the archive ${file} (${reason}); was it moved or deleted during the run?`, { file, source: file });
  }
}

/** Whether a cached fingerprint names the file described by `stats`: the same file (device, inode), unchanged (size, mtime, ctime). */
function sameIdentity(known: Fingerprint, stats: Pick<Fingerprint, "dev" | "ino" | "size" | "mtimeMs" | "ctimeMs">): boolean {
  return (
    known.ino === stats.ino &&
    known.dev === stats.dev &&
    known.size === stats.size &&
    known.mtimeMs === stats.mtimeMs &&
    known.ctimeMs === stats.ctimeMs
  );
}

/**
 * The entries to write: the loaded ones of other folders, kept as they are (a run in one drop never drops another's);
 * this run's, each under its archive's real path; none of this folder's that this run did not list (the listing
 * shows them gone, with no system call); none describing another file than the one read. Past `cacheEntriesMax`,
 * see there.
 */
function mergeEntries(
  loaded: Record<string, Fingerprint>,
  names: string[],
  keys: string[],
  fingerprints: Record<string, Fingerprint>,
  run: { realPrefix: string; unsure: Set<string> },
): { archives: Record<string, Fingerprint>; pruned: boolean } {
  const own = new Set(keys);
  // Prototype-free, as in fingerprintArchives.
  let archives = Object.create(null) as Record<string, Fingerprint>;
  let pruned = false;
  let others = 0;
  const inFolder = (key: string): boolean => key.startsWith(run.realPrefix) && !key.includes(path.sep, run.realPrefix.length);
  for (const key of Object.keys(loaded)) {
    if (own.has(key)) continue;
    if (inFolder(key)) pruned = true;
    else {
      archives[key] = loaded[key]!;
      others++;
    }
  }
  const mine = Object.create(null) as Record<string, Fingerprint>;
  for (const [i, name] of names.entries()) {
    const fingerprint = Object.hasOwn(fingerprints, name) ? fingerprints[name] : undefined;
    if (fingerprint === undefined || run.unsure.has(name)) continue;
    mine[keys[i]!] = fingerprint;
  }
  const count = others + Object.keys(mine).length;
  if (count > cacheEntriesMax && others > 0) {
    pruned = true;
    // Only past the bound: an lstat of each other folder's archive, the cost of the bound, not of every run.
    const kept = Object.create(null) as Record<string, Fingerprint>;
    let left = 0;
    for (const key of Object.keys(archives)) {
      if (!exists(key)) continue;
      kept[key] = archives[key]!;
      left++;
    }
    archives = left + count - others > cacheEntriesMax ? (Object.create(null) as Record<string, Fingerprint>) : kept;
  }
  for (const key of Object.keys(mine)) archives[key] = mine[key]!;
  return { archives, pruned };
}

function failToRead(file: string, code: string): never {
  fail("IOError", `Cannot read the archive ${file} (${code}); check that it is readable.`, { file, source: file });
}

/** The default `cache.file`, for messages. */
const defaultCacheName = ".dropkit-cache.json";

/** Names `cache.file` may never have: files dropkit (or its users' tools) read as something else. */
function reservedName(file: string): string | undefined {
  const name = path.basename(file);
  const lower = name.toLowerCase();
  if (name === ".dropkit.json" || name.startsWith(".dropkit.json.")) return "is named like dropkit's state file or one of its copies";
  if (/^dropkit\.config\.(ts|js|json)$/.test(name)) return "is named like a dropkit config file";
  if (name === "package.json") return "is named like a package.json";
  if (lower.endsWith(".zip")) return "is named like a zip archive, which create would read as a module";
  return undefined;
}

/** Whether something is at `file`: a path that cannot even be looked at counts as gone. */
function exists(file: string): boolean {
  return lstatQuietly(file) !== undefined;
}

/** `lstat` that never throws: a path the system cannot even look at (ENAMETOOLONG, ELOOP, EACCES) gives `undefined`. */
function lstatQuietly(file: string): Stats | undefined {
  try {
    return lstatSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/**
 * Whether a text that does not parse still begins as only dropkit writes a cache (the `kind` marker as the
 * first key, or a version-1 file's `version` and `checkedAtMs`), or is a beginning of one cut short:
 * a torn dropkit cache rather than someone else's file.
 */
function beginsLikeCache(text: string): boolean {
  const head = text.replace(/^\ufeff/, "").slice(0, 256);
  if (/^\s*\{\s*"kind"\s*:\s*"dropkit-cache"/.test(head) || /^\s*\{\s*"version"\s*:\s*1\s*,\s*"checkedAtMs"\s*:/.test(head)) return true;
  const compact = head.replace(/\s+/g, "");
  return compact.length > 0 && ['{"kind":"dropkit-cache"', '{"version":1,"checkedAtMs":'].some((start) => start.startsWith(compact));
}

/** What a file that is not a dropkit cache is, for the message. */
function describeForeign(bytes: Buffer, parsed: boolean): string {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return "is a zip archive";
  if (parsed) return "is JSON that is not a dropkit cache";
  return "is not a dropkit cache (it does not begin like one)";
}

/**
 * The first free `<file>.corrupt-<timestamp>[-n]`: the name an unusable cache is moved to, which the warning of its
 * load gives before the move.
 */
function asideName(file: string, now: Date): string {
  const base = `${file}.corrupt-${isoTime(now).replace(/[:.]/g, "-")}`;
  for (let n = 1; n < 100; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    if (!lstatSync(name, { throwIfNoEntry: false })) return name;
  }
  // Every name taken (by someone who made them): the move finds so and fails as an IOError.
  return `${base}-100`;
}

/** Renames an unusable cache to `wanted` (the name its warning gave) when that is still free, else to the first free name; keeps it whole. */
function moveAside(file: string, wanted: string, now: Date): string {
  const name = lstatSync(wanted, { throwIfNoEntry: false }) ? asideName(file, now) : wanted;
  if (lstatSync(name, { throwIfNoEntry: false })) throw new Error(`too many copies named ${path.basename(wanted)}`);
  renameSync(file, name);
  return name;
}

/**
 * The entries and time of a cache object, or why they cannot be used. Each entry keeps every field it has. The
 * entries of an older layout (`current` false) are not looked at: keyed by bare names, without identity, they can
 * only be misses, so a flaw in them is no reason to move the file aside.
 */
function readEntries(data: Record<string, unknown>, current: boolean): Pick<FingerprintCache, "entries" | "checkedAtMs"> | string {
  const checkedAtMs = data.checkedAtMs;
  if (typeof checkedAtMs !== "number" || !Number.isFinite(checkedAtMs)) return "checkedAtMs is not a number";
  if (!isRecord(data.archives)) return "archives is not an object";
  // Prototype-free: any path is a plain key (`__proto__` too), and filling it stays linear for 10,000 archives.
  const entries = Object.create(null) as Record<string, Fingerprint>;
  if (!current) return { entries, checkedAtMs };
  for (const name of Object.keys(data.archives)) {
    const entry = data.archives[name];
    if (!isFingerprint(entry)) return `the entry for ${JSON.stringify(name)} is not a fingerprint`;
    entries[name] = entry;
  }
  return { entries, checkedAtMs };
}

function isFingerprint(value: unknown): value is Fingerprint {
  const count = (n: unknown): boolean => typeof n === "number" && Number.isInteger(n) && n >= 0;
  const time = (n: unknown): boolean => typeof n === "number" && Number.isFinite(n);
  return (
    isRecord(value) &&
    count(value.dev) &&
    count(value.ino) &&
    count(value.size) &&
    time(value.mtimeMs) &&
    time(value.ctimeMs) &&
    time(value.checkedAtMs) &&
    typeof value.sha256 === "string" &&
    /^[0-9a-f]{64}$/.test(value.sha256)
  );
}
