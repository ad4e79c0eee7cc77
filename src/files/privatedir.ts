// The private directory where dropkit keeps what later runs reuse (jiti's compiled configs, stripped .ts configs, the
// bin's V8 code caches, the core's answers): one only this user can write, or none (SPEC section 12); and the one way a
// file in it is read, written and pruned.

import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  futimesSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { readOpened } from "./limits.js";

/**
 * Where a private directory is, and why there is none when it is refused. `dir` is the path to use: on Linux
 * `/proc/self/fd/<n>`, a directory this process holds open, so that no link met on the way to it is followed again;
 * `real` is where it is, for messages.
 */
export type PrivateDir = { dir: string; real: string } | { dir: null; why: string };

/**
 * A private directory for what later runs reuse (`jiti`: compiled configs; `ts`: `.ts` configs with their types stripped by
 * Node, src/config/native.ts; `v8`: the bin's code caches, which the bin gets
 * from this module through the build; `answers`: the core's answers, src/files/answercache.ts, which name the hooks
 * dropkit runs), created (mode 0700) when missing, so that no other user can plant code that dropkit would run:
 * `$XDG_CACHE_HOME/dropkit/<name>` when `XDG_CACHE_HOME` is an absolute path, else `~/Library/Caches/dropkit/<name>` on
 * macOS, `%LOCALAPPDATA%\dropkit\<name>` on Windows and `~/.cache/dropkit/<name>` elsewhere. Never a shared temp folder.
 *
 * The base directory (`$XDG_CACHE_HOME`, `~/.cache`, ...) is opened once a process, following links, and judged on
 * that descriptor: a directory owned by the user or root, not writable by group or others. `dropkit` and `jiti` (or
 * `ts`, `v8`, `answers`) are opened below it without following a link, and must be directories owned by the user, not
 * writable by group or others. Each stays open for the process and is used through its descriptor (`dir`), and judged
 * again (`fstat`) at each call: a link on the way (`~/.cache` in a home another user owns, as root with that user's
 * `HOME` meets it) that changes later cannot send a read or a write elsewhere. Where `/proc/self/fd` is missing (macOS),
 * the real path of what was judged is used instead. A missing base is made only when the nearest directory above it
 * that exists is owned by the user: never a `~/.cache` in another user's home. When any check fails, or a directory
 * cannot be made, the answer says why and nothing is cached. On Windows, where modes and owners are not POSIX, only
 * the kind of each directory is checked: `%LOCALAPPDATA%` is private to its user by default.
 *
 * @param env - Read for `XDG_CACHE_HOME`, `LOCALAPPDATA` and `HOME`.
 * @param name - The directory below `dropkit`.
 * @default env process.env
 * @default name "jiti"
 */
export function privateDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  name: "jiti" | "ts" | "v8" | "answers" = "jiti",
): PrivateDir {
  const base = cacheBase(env, platform);
  if (!base) return { dir: null, why: "no home directory" };
  if (platform === "win32" || typeof process.geteuid !== "function" || constants.O_DIRECTORY === undefined) return byKind(base, name);
  const uid = process.geteuid();
  let parent: Held | string = holdBase(base, uid);
  let shown = base;
  for (const part of ["dropkit", name]) {
    if (typeof parent === "string") return { dir: null, why: parent };
    shown = path.join(shown, part);
    parent = holdChild(parent, part, shown, uid);
  }
  if (typeof parent === "string") return { dir: null, why: parent };
  return { dir: parent.dir, real: parent.real };
}

/**
 * A name for a file in a private directory, made from `text`: a 64-bit FNV-1a hash of its UTF-16 code units, as 16 hex digits (two
 * 32-bit halves, each its own basis). Not a security measure: each cache compares the text a file was made from in
 * full before using it. Not node:crypto: start-up loads none for a name (docs/performance.md#loaded-on-first-use).
 */
export function privateFileName(text: string): string {
  let a = 0x811c9dc5;
  let b = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c ^ (a >>> 16), 0x01000193);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}

/** A file here that no run has used for this long is taken to belong to a dropkit, a Node or a folder no longer used. */
const staleMs = 30 * 24 * 60 * 60 * 1000;
/** How often a file in use has its time brought forward, so that pruning never takes it. */
const refreshMs = 7 * 24 * 60 * 60 * 1000;

/** Opens a file to read: never a wait (a FIFO), never a link followed (to `/dev/zero`, or to another user's file). */
const entryFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);
/** Makes a temporary file: never one that is there already, and never through a link. */
const temporaryFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/**
 * A private file's bytes, or null (a miss) for anything but a regular file owned by this user, not writable by group or
 * others, of at most `max` bytes. Opened once (never following a link, never waiting), judged on that descriptor and
 * read from it, at most `max + 1` bytes whatever its size says. With `keepFresh`, a file older than a week has its time
 * brought forward (one write a week), so that `prunePrivateDir` never takes a cache in use. For the bin's code caches,
 * the stripped `.ts` configs and the answer cache, in a directory from `privateDir`.
 */
export function readPrivateFile(file: string, max: number, keepFresh = false): Buffer | null {
  let fd: number;
  try {
    fd = openSync(file, entryFlags);
  } catch {
    return null;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > max) return null;
    if (typeof process.geteuid === "function" && (stats.uid !== process.geteuid() || (stats.mode & 0o022) !== 0)) return null;
    const { bytes, over } = readOpened(fd, stats.size, max);
    if (over) return null;
    if (keepFresh && Date.now() - stats.mtimeMs > refreshMs) futimesSync(fd, new Date(), new Date());
    return bytes;
  } catch {
    // Unreadable, or vanished: a miss, compiled or asked anew.
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes a private file whole or not at all: to a temporary file made for this write alone (`<file>.<pid>.tmp`, or a
 * random name when that is taken; `O_EXCL`, mode 0600: whatever is at the name, a link included, is left as it is),
 * then renamed over `file`, so that a run never reads one cut short. A cache is an optimisation: when it cannot be
 * written (a full disk, a vanished directory) the temporary file is removed and nothing else happens. For the bin's
 * code caches, the stripped `.ts` configs and the answer cache.
 */
export function writePrivateFile(file: string, data: string | Uint8Array): void {
  for (const temporary of [`${file}.${process.pid}.tmp`, `${file}.${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`]) {
    let fd: number;
    try {
      fd = openSync(temporary, temporaryFlags, 0o600);
    } catch (error) {
      // Taken (left by a killed run of the same pid, or planted): another name; anything else ends the attempt.
      if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
      return;
    }
    try {
      try {
        writeFileSync(fd, data);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, file);
    } catch {
      try {
        unlinkSync(temporary);
      } catch {
        // Already gone: prunePrivateDir takes any left an hour later.
      }
    }
    return;
  }
}

/**
 * Removes from a private directory the files named `*<suffix>` that no run has used for 30 days, the least recently used
 * beyond `maxFiles`, and temporary files (`*.tmp`) an hour old, left by runs killed while saving. For the bin's code
 * caches and the answer cache, called only when a cache was saved, so that start-up never lists the directory.
 */
export function prunePrivateDir(dir: string, suffix: string, maxFiles = Number.POSITIVE_INFINITY): void {
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

/** A directory held open for the process: the path that uses it, and where it is (for messages). */
interface Held {
  key: string;
  fd: number;
  dir: string;
  real: string;
}

/**
 * The directories held so far, by the path that named them: shared by the bin's copy of this module and the bundle's
 * (through the global), so that `~/.cache` is looked up once a process, whoever asks first.
 */
const held = ((globalThis as Record<symbol, unknown>)[Symbol.for("dropkit.privateDirs")] ??= new Map()) as Map<string, Held>;

/** Opens a directory without reading it (`O_DIRECTORY`: anything else fails with ENOTDIR). */
const dirFlags = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0);

/** The base directory (a link to it is followed), held and judged: owned by the user or root, not writable by others. */
function holdBase(base: string, uid: number): Held | string {
  const judge = (stats: Stats) => unsafeMode(stats, uid, true);
  const again = heldAgain(base, base, judge);
  if (again !== undefined) return again;
  let fd = openDir(base, base, dirFlags);
  let made = false;
  if (fd === "ENOENT") {
    // Root with another user's HOME (sudo without -H, CI images) must not make that user's ~/.cache: a root-owned
    // ~/.cache would lock the user's own tools out of it. A missing base is made only inside a directory this user owns.
    const foreign = foreignAncestor(base, uid);
    if (foreign) return `${base} does not exist and ${foreign}: dropkit makes no directory in a home it does not own`;
    // XDG: a missing base directory is created, mode 0700; then it is dropkit's own and checked as such.
    const result = makeDir(base, true);
    if (typeof result === "string") return result;
    fd = openDir(base, base, dirFlags);
    made = result;
  }
  if (typeof fd === "string") return fd === "ENOENT" ? `${base} cannot be used (ENOENT)` : fd;
  return hold(base, fd, base, made, judge, null);
}

/** `part` in `parent`, made when missing: held and judged as dropkit's own (a real directory, the user's, 0700 or less open). */
function holdChild(parent: Held, part: string, shown: string, uid: number): Held | string {
  const key = `${parent.key}\0${part}`;
  const judge = (stats: Stats) => unsafeMode(stats, uid, false);
  const again = heldAgain(key, shown, judge);
  if (again !== undefined) return again;
  const file = path.join(parent.dir, part);
  // Never through a link: dropkit's own directories are real ones.
  const flags = dirFlags | (constants.O_NOFOLLOW ?? 0);
  let fd = openDir(file, shown, flags);
  let made = false;
  if (fd === "ENOENT") {
    const result = makeDir(file, false);
    if (typeof result === "string") return result.replace(file, shown);
    fd = openDir(file, shown, flags);
    made = result;
  }
  if (typeof fd === "string") return fd === "ENOENT" ? `${shown} cannot be used (ENOENT)` : fd;
  return hold(key, fd, shown, made, judge, parent);
}

/** A held directory judged again on its descriptor (a mode changed since); undefined when none is held, or it was removed. */
function heldAgain(key: string, shown: string, judge: (stats: Stats) => string): Held | string | undefined {
  const known = held.get(key);
  if (!known) return undefined;
  let stats: Stats | undefined;
  try {
    stats = fstatSync(known.fd);
  } catch {
    stats = undefined;
  }
  // Removed since (a directory's link count is 0 then): looked up again. The descriptor stays open: a path through
  // /proc/self/fd that a caller kept must never come to name another file that takes its number.
  if (!stats || stats.nlink === 0) {
    held.delete(key);
    return undefined;
  }
  const problem = judge(stats);
  return problem ? `${shown} ${problem}` : known;
}

/** An open directory or the text of why it is refused; "ENOENT" when it is missing. */
function openDir(file: string, shown: string, flags: number): number | string {
  try {
    return openSync(file, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return "ENOENT";
    // A link opened with O_NOFOLLOW | O_DIRECTORY fails with ENOTDIR on Linux, ELOOP elsewhere: told apart only now.
    if (code === "ELOOP" || (code === "ENOTDIR" && lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()))
      return `${shown} is a symbolic link`;
    if (code === "ENOTDIR") return `${shown} is not a directory`;
    return refuse(shown, error).why;
  }
}

/**
 * Judges an open directory on its descriptor and keeps it for the process, with the path that reaches it: on Linux
 * through /proc/self/fd (the kernel's own path of the descriptor, read once, names it in messages); elsewhere its real
 * path, checked to be the same directory. What is refused is closed.
 */
function hold(key: string, fd: number, shown: string, made: boolean, judge: (stats: Stats) => string, parent: Held | null): Held | string {
  let keep = false;
  try {
    // The umask may have taken bits away from a directory made here: 0700 exactly.
    if (made) fchmodSync(fd, 0o700);
    const stats = fstatSync(fd);
    const problem = judge(stats);
    if (problem) return `${shown} ${problem}`;
    let dir = `/proc/self/fd/${fd}`;
    let real: string;
    if (parent) {
      real = path.join(parent.real, path.basename(shown));
      if (!parent.dir.startsWith("/proc/")) dir = real;
    } else {
      try {
        real = readlinkSync(dir);
      } catch {
        // No /proc (macOS, or not mounted): the real path, if it is still the directory judged.
        real = realpathSync.native(key);
        const now = statSync(real);
        if (now.dev !== stats.dev || now.ino !== stats.ino) return `${shown} changed while it was checked`;
        dir = real;
      }
    }
    keep = true;
    const entry = { key, fd, dir, real };
    held.set(key, entry);
    return entry;
  } catch (error) {
    return refuse(shown, error).why;
  } finally {
    if (!keep) closeSync(fd);
  }
}

/** Windows: the directory, made when missing, with only the kind of each level checked. */
function byKind(base: string, name: string): PrivateDir {
  let dir = base;
  for (const part of ["", "dropkit", name]) {
    dir = path.join(dir, part);
    let stats = lstatSync(dir, { throwIfNoEntry: false });
    if (!stats) {
      const problem = makeDir(dir, part === "");
      if (typeof problem === "string") return { dir: null, why: problem };
      stats = lstatSync(dir);
    }
    // The base may be a link (a home on another disk); dropkit's own directories are real ones.
    if (part !== "" && stats.isSymbolicLink()) return { dir: null, why: `${dir} is a symbolic link` };
    if (!(part === "" ? statSync(dir) : stats).isDirectory()) return { dir: null, why: `${dir} is not a directory` };
  }
  return { dir, real: dir };
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

/**
 * Makes one directory (with those above it when `recursive`), mode 0700 (the caller sets it exactly once it holds
 * it): whether it made it (false: it was there), or what went wrong.
 */
function makeDir(dir: string, recursive: boolean): boolean | string {
  try {
    return mkdirSync(dir, { mode: 0o700, recursive }) !== undefined || !recursive;
  } catch (error) {
    // Another dropkit made it first: it is checked like any existing one.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    return refuse(dir, error).why;
  }
}

function refuse(dir: string, error: unknown): { dir: null; why: string } {
  return { dir: null, why: `${dir} cannot be used (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
}
