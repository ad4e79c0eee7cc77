// The directories where compiled code may be cached (jiti's compiled configs, stripped .ts configs, the bin's V8 code caches, the core's answers): private to the user, or none (SPEC section 12).

import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  type Stats,
} from "node:fs";
import os from "node:os";
import path from "node:path";

/** Where a private cache directory is, and why there is none when it is refused. */
export type CacheDir = { dir: string } | { dir: null; why: string };

/**
 * A directory for cached compiled code (`jiti`: compiled configs; `ts`: `.ts` configs with their types stripped by
 * Node, src/config/native.ts; `v8`: the bin's code caches, which the bin gets
 * from this module through the build; `answers`: the core's answers, src/files/answercache.ts, which name the hooks
 * dropkit runs), created (mode 0700) when missing and checked before every use, so that no
 * other user can plant code that dropkit would run: `$XDG_CACHE_HOME/dropkit/<name>` when `XDG_CACHE_HOME` is an
 * absolute path, else `~/Library/Caches/dropkit/<name>` on macOS, `%LOCALAPPDATA%\dropkit\<name>` on Windows and
 * `~/.cache/dropkit/<name>` elsewhere. Never a shared temp folder.
 *
 * The base directory (`$XDG_CACHE_HOME`, `~/.cache`, ...) must be a directory owned by the user or root and not
 * writable by group or others; `dropkit` and `jiti` (or `ts`, `v8`, `answers`) below it (dropkit's own) must be real directories, not
 * symbolic links, owned by the user and not writable by group or others. A missing base is made only when the
 * nearest directory above it that exists is owned by the user: never a `~/.cache` in another user's home (root run
 * with that user's `HOME`). When any check fails, or a directory
 * cannot be made, the answer says why and nothing is cached. On Windows, where modes and owners are not
 * POSIX, only the kind of each directory is checked: `%LOCALAPPDATA%` is private to its user by default.
 *
 * @param env - Read for `XDG_CACHE_HOME`, `LOCALAPPDATA` and `HOME`.
 * @param name - The directory below `dropkit`.
 * @default env process.env
 * @default name "jiti"
 */
export function privateCacheDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  name: "jiti" | "ts" | "v8" | "answers" = "jiti",
): CacheDir {
  const base = cacheBase(env, platform);
  if (!base) return { dir: null, why: "no home directory" };
  const posix = platform !== "win32" && typeof process.getuid === "function";
  const uid = posix ? process.getuid!() : -1;
  let stats: Stats;
  try {
    // The base may be a symbolic link (a home on another disk): it is followed, and what it points to is checked.
    stats = statSync(base);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") return refuse(base, error);
    // Root with another user's HOME (sudo without -H, CI images) must not make that user's ~/.cache: a root-owned
    // ~/.cache would lock the user's own tools out of it. A missing base is made only inside a directory this user owns.
    const foreign = posix ? foreignAncestor(base, uid) : "";
    if (foreign) return { dir: null, why: `${base} does not exist and ${foreign}: dropkit makes no directory in a home it does not own` };
    // XDG: a missing base directory is created, mode 0700; then it is dropkit's own and checked as such.
    const made = makeDir(base, true);
    if (made) return { dir: null, why: made };
    stats = lstatSync(base);
  }
  const problem = !stats.isDirectory() ? "is not a directory" : posix ? unsafeMode(stats, uid, true) : "";
  if (problem) return { dir: null, why: `${base} ${problem}` };
  let dir = base;
  for (const part of ["dropkit", name]) {
    dir = path.join(dir, part);
    const why = ownDir(dir, posix, uid);
    if (why) return { dir: null, why };
  }
  return { dir };
}

/**
 * A name for a cache entry made from `text`: a 64-bit FNV-1a hash of its UTF-16 code units, as 16 hex digits (two
 * 32-bit halves, each its own basis). Not a security measure: each cache compares the text an entry was made from in
 * full before using it. node:crypto would cost about 0.6 ms to load, for a name.
 */
export function cacheEntryName(text: string): string {
  let a = 0x811c9dc5;
  let b = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c ^ (a >>> 16), 0x01000193);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}

/** A cache file no run has used for this long is taken to belong to a dropkit, a Node or a folder no longer used. */
const staleMs = 30 * 24 * 60 * 60 * 1000;
/** How often a cache file in use has its time brought forward, so that pruning never takes it. */
const refreshMs = 7 * 24 * 60 * 60 * 1000;

/**
 * Brings a cache file's modification time forward when it is older than a week (one write a week), so that
 * `pruneCacheDir` never takes a cache in use. `mtimeMs` is the file's time when the caller has it, else it is looked at.
 */
export function keepCacheFresh(file: string, mtimeMs?: number): void {
  try {
    if (Date.now() - (mtimeMs ?? statSync(file).mtimeMs) > refreshMs) utimesSync(file, new Date(), new Date());
  } catch {
    // A cache that vanished or cannot be touched is only saved again, or pruned, later.
  }
}

/**
 * Writes a cache file whole or not at all: to `<file>.<pid>.tmp` (mode 0600), then renamed over `file`, so that a run
 * never reads one cut short. A cache is an optimisation: when it cannot be written (a full disk, a vanished directory)
 * the temporary file is removed and nothing else happens. For the bin's code caches, the stripped `.ts` configs and the
 * answer cache.
 */
export function writeCacheFile(file: string, data: string | Uint8Array): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, data, { mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    try {
      unlinkSync(temporary);
    } catch {
      // Never made, or already gone: pruneCacheDir takes any left an hour later.
    }
  }
}

/**
 * Removes from a cache directory the files named `*<suffix>` that no run has used for 30 days, the least recently used
 * beyond `maxFiles`, and temporary files (`*.tmp`) an hour old, left by runs killed while saving. For the bin's code
 * caches and the answer cache, called only when a cache was saved, so that start-up never lists the directory.
 */
export function pruneCacheDir(dir: string, suffix: string, maxFiles = Number.POSITIVE_INFINITY): void {
  try {
    const now = Date.now();
    const kept: Array<{ file: string; mtimeMs: number }> = [];
    for (const name of readdirSync(dir)) {
      const temporary = name.endsWith(".tmp");
      if (!temporary && !name.endsWith(suffix)) continue;
      const file = path.join(dir, name);
      const stats = lstatSync(file, { throwIfNoEntry: false });
      if (!stats?.isFile()) continue;
      if (now - stats.mtimeMs > (temporary ? 60 * 60 * 1000 : staleMs)) unlinkSync(file);
      else if (!temporary) kept.push({ file, mtimeMs: stats.mtimeMs });
    }
    if (kept.length <= maxFiles) return;
    kept.sort((a, b) => b.mtimeMs - a.mtimeMs);
    for (const { file } of kept.slice(maxFiles)) unlinkSync(file);
  } catch {
    // Housekeeping: a directory that cannot be listed or a file that vanished changes nothing.
  }
}

/** The mark of a run that did work the next runs skip: see `markOneOffWork`. */
const oneOffWork = Symbol.for("dropkit.oneOffWork");

/**
 * Marks this run as one that read archives into the archive cache: work the next runs in the drop skip. The bin saves
 * a missing code cache at exit holding every function the run compiled, so such a run saves none: the next run saves
 * the cache later runs load, without the archive reading's code (a cached `create` loaded 30 KB, 0.6 ms, more for a
 * cache made by the first `create` in a drop). Read by the bin through `didOneOffWork`.
 */
export function markOneOffWork(): void {
  (globalThis as Record<symbol, unknown>)[oneOffWork] = true;
}

/** Whether this run called `markOneOffWork`. */
export function didOneOffWork(): boolean {
  return (globalThis as Record<symbol, unknown>)[oneOffWork] === true;
}

// --- helpers ---

function cacheBase(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | null {
  // The XDG spec ignores a relative XDG_CACHE_HOME.
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && path.isAbsolute(xdg)) return xdg;
  if (platform === "win32") {
    const local = env.LOCALAPPDATA;
    return local && path.isAbsolute(local) ? local : null;
  }
  const home = env.HOME || safeHomedir();
  if (!home || !path.isAbsolute(home)) return null;
  return platform === "darwin" ? path.join(home, "Library", "Caches") : path.join(home, ".cache");
}

function safeHomedir(): string | null {
  try {
    return os.homedir();
  } catch {
    return null;
  }
}

/**
 * When the nearest existing directory above `dir` (which is missing) belongs to another user: says so; else "".
 * A directory that cannot be looked at is left to the mkdir that follows, which then says why it failed.
 */
function foreignAncestor(dir: string, uid: number): string {
  for (let above = path.dirname(dir); ; above = path.dirname(above)) {
    let stats: Stats | undefined;
    try {
      stats = statSync(above, { throwIfNoEntry: false });
    } catch {
      return "";
    }
    if (stats) return stats.uid === uid ? "" : `${above} is owned by user ${stats.uid}, not by this user (${uid})`;
    if (path.dirname(above) === above) return "";
  }
}

/** Checks (making it when missing) one directory that dropkit owns; returns what is wrong, or "". */
function ownDir(dir: string, posix: boolean, uid: number): string {
  let stats: Stats;
  try {
    stats = lstatSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") return refuse(dir, error).why;
    const made = makeDir(dir, false);
    if (made) return made;
    stats = lstatSync(dir);
  }
  if (stats.isSymbolicLink()) return `${dir} is a symbolic link`;
  if (!stats.isDirectory()) return `${dir} is not a directory`;
  const problem = posix ? unsafeMode(stats, uid, false) : "";
  return problem ? `${dir} ${problem}` : "";
}

/** A directory another user could write to (or own): what is wrong with it, or "". */
function unsafeMode(stats: Stats, uid: number, rootMayOwn: boolean): string {
  if (stats.uid !== uid && !(rootMayOwn && stats.uid === 0)) return `is owned by user ${stats.uid}, not by this user (${uid})`;
  if ((stats.mode & 0o022) !== 0) {
    const who = [stats.mode & 0o020 ? "its group" : "", stats.mode & 0o002 ? "others" : ""].filter(Boolean).join(" and ");
    return `is writable by ${who} (mode ${(stats.mode & 0o7777).toString(8)})`;
  }
  if ((stats.mode & 0o700) !== 0o700)
    return `is not readable, writable and searchable by its owner (mode ${(stats.mode & 0o7777).toString(8)})`;
  return "";
}

/** Makes one directory, mode 0700 whatever the umask; returns what went wrong, or "". */
function makeDir(dir: string, recursive: boolean): string {
  try {
    mkdirSync(dir, { mode: 0o700, recursive });
    // The umask may have taken bits away; 0700 exactly. The parent is checked, so the name is still ours.
    chmodSync(dir, 0o700);
    return "";
  } catch (error) {
    // Another dropkit made it first: it is checked like any existing one.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return "";
    return refuse(dir, error).why;
  }
}

function refuse(dir: string, error: unknown): { dir: null; why: string } {
  return { dir: null, why: `${dir} cannot be used (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
}
