// A phase's hooks directory held open and judged (src/files/trust.ts): what runs is what was judged, and `config`'s verdict is `create`'s.

import { accessSync, closeSync, constants, fstatSync, openSync, readdirSync, statSync, type Stats } from "node:fs";
import path from "node:path";
import { DropkitError, fail } from "../errors.js";
import { statOrNull } from "../files/fsutil.js";
import { realPathOf, requireTrustedOpened, type TrustScope } from "../files/trust.js";

/** Which hooks run: before (`init`) or after (`post`) the drop is created. */
export type HookPhase = "init" | "post";

/**
 * Refuses a hooks directory that is not trusted, or one with a hook that is not (src/files/trust.ts), both phases, before
 * anything runs or is written: `create` checks up front (and `runHooks` again before it runs one), and `config`
 * gives the same verdict.
 *
 * @param dirs - The resolved `hooks` settings; relative directories resolve against `cwd`. A missing one passes (no
 *   hooks), and so does one that cannot be listed: `runHooks` reports that (IOError) when its phase comes.
 * @throws DropkitError `UntrustedFile` (77).
 */
export function checkHooksTrust(dirs: { initScriptsDir: string; postScriptsDir: string }, cwd: string, trust: TrustScope): void {
  for (const [phase, dir] of [
    ["init", dirs.initScriptsDir],
    ["post", dirs.postScriptsDir],
  ] as const) {
    let held: HeldHooks | null = null;
    try {
      held = openHooks(path.resolve(cwd, dir), phase, trust);
    } catch (error) {
      if (!(error instanceof DropkitError && error.name === "IOError")) throw error;
    }
    if (held) closeHooks(held);
  }
}

/** An entry of a hooks directory: a hook, held open as it was judged, or, with why, an entry that is not one. */
export interface HookEntry {
  /** The path as named: the hooks directory as given, then the entry's name (the `file` of its records). */
  file: string;
  /** Why it is not run (a file without the execute bit, a directory, a link to nothing, a socket). */
  notRun?: string;
  /** The hook opened for reading, and `fstat` of that descriptor: what was judged, and what runs. */
  fd?: number;
  stats?: Stats;
  /** Why a hook could not be opened (an errno code): reported at its turn as a hook that could not be started. */
  openError?: string;
}

/**
 * A hooks directory held open for the phase, with its entries: `fd` is the directory's descriptor, judged on its
 * `fstat` (`stats`) and its real path. `via`: how the hooks are reached and run. `proc` (Linux): listed and opened
 * through `/proc/self/fd/<fd>`, so through the held directory whatever its path has become, and run from their own
 * descriptors. `recheck` (other POSIX systems, or Linux without /proc): listed and opened by `real`, which is checked
 * to still be the held directory, and each hook's path checked against its descriptor right before it is spawned.
 * `path` (no POSIX owners: Windows): by path, as nothing is judged there.
 */
export interface HeldHooks {
  dir: string;
  fd: number | null;
  stats: Stats | null;
  real: string;
  via: "proc" | "recheck" | "path";
  entries: HookEntry[];
  /** Entries whose names are not valid UTF-8 (listed with U+FFFD in place of the bad bytes, so no path reaches them). */
  misnamed: string[];
}

/**
 * Opens the hooks directory `dir` once, judges it on that descriptor (src/files/trust.ts: its `fstat`, the directories
 * above it as written and as resolved), lists it through the descriptor, and opens and judges each hook in it the same
 * way (regular file, executable, owner and mode of the open file, the directories of its real path). What it returns
 * is what runs: the directory and the hooks stay open until `closeHooks`, and a hook is spawned from its descriptor.
 * Hidden entries are left out. `null` if there is no `dir`.
 *
 * @throws DropkitError `IOError` (74) when `dir` exists but cannot be opened or listed; `UntrustedFile` (77).
 */
export function openHooks(dir: string, phase: HookPhase, trust: TrustScope): HeldHooks | null {
  // Windows has no owners to judge, and opens no directory as a file: by path there.
  const fd = process.platform === "win32" ? null : openDirectory(dir);
  if (fd === undefined) return null;
  const held: HeldHooks = { dir, fd, stats: null, real: dir, via: "path", entries: [], misnamed: [] };
  try {
    let names: string[] | null;
    if (fd === null) {
      names = listByPath(dir);
      if (names === null) return null;
    } else {
      held.stats = fstatSync(fd);
      held.real = realPathOf(fd, dir);
      requireTrustedOpened(dir, held.real, held.stats, `${phase} hooks directory`, trust);
      names = listHeld(held);
    }
    const scope: TrustScope = { policy: trust.policy, fence: dir };
    for (const name of names.sort()) {
      // Hidden files are editor swap files, .DS_Store, .gitkeep: never hooks.
      if (name.startsWith(".")) continue;
      const entry = openEntry(held, name);
      if (entry === "misnamed") {
        held.misnamed.push(path.join(dir, name));
        continue;
      }
      held.entries.push(entry);
      if (entry.fd === undefined) continue;
      requireTrustedOpened(entry.file, realPathOf(entry.fd, entryPath(held, name)), entry.stats!, `${phase} hook`, scope);
    }
    // Elsewhere than through /proc, the listing and the opens went by the directory's path: it must still be the one held.
    if (held.via === "recheck") requireSameDirectory(held);
    return held;
  } catch (error) {
    closeHooks(held);
    throw error;
  }
}

/** Closes what `openHooks` held. */
export function closeHooks(held: HeldHooks): void {
  for (const entry of held.entries) if (entry.fd !== undefined) closeQuietly(entry.fd);
  if (held.fd !== null) closeQuietly(held.fd);
  held.entries = [];
  held.fd = null;
}

/**
 * How to start a hook: on Linux `/proc/self/fd/3`, the hook's own descriptor passed to the child as its fd 3, so that
 * the kernel runs the very inode that was judged (an interpreter opens `/proc/self/fd/3`, the same file); elsewhere
 * its path, once the path and the directory are checked to still be the judged files. A string is why not to start it.
 */
export function launchOf(entry: HookEntry, held: HeldHooks): { command: string; extra: number[] } | string {
  if (held.via === "path") return { command: entry.file, extra: [] };
  if (entry.openError !== undefined) return `${entry.openError}: dropkit opens a hook to run the file it checked, so it must be readable`;
  if (held.via === "proc") return { command: "/proc/self/fd/3", extra: [entry.fd!] };
  const named = entryPath(held, path.basename(entry.file));
  const now = statOrNull(named);
  const dir = statOrNull(held.real);
  if (!now || !sameFile(now, entry.stats!) || !dir || !sameFile(dir, held.stats!))
    return "replaced after it was checked: not run, as it is not the file that was checked";
  return { command: named, extra: [] };
}

// --- helpers ---

/** The descriptor of the directory `dir`, or `undefined` when there is none (no hooks). */
function openDirectory(dir: string): number | undefined {
  try {
    // O_NONBLOCK: whatever the name has become since, opening it never waits (a FIFO).
    return openSync(dir, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    cannotList(dir, code === "ENOTDIR" ? "it is a file, not a directory" : (code ?? String(error)));
  }
}

/** The names in the held directory: through /proc on Linux, else by its real path (checked afterwards). */
function listHeld(held: HeldHooks): string[] {
  if (process.platform === "linux") {
    try {
      const names = readdirSync(`/proc/self/fd/${held.fd}`);
      held.via = "proc";
      return names;
    } catch {
      // No /proc (a container without it): by the real path, as elsewhere.
    }
  }
  held.via = "recheck";
  try {
    return readdirSync(held.real);
  } catch (error) {
    cannotList(held.dir, (error as NodeJS.ErrnoException).code ?? String(error));
  }
}

/** Windows: the names in `dir` by its path (`null` if there is none). */
function listByPath(dir: string): string[] | null {
  try {
    return readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    cannotList(dir, code === "ENOTDIR" ? "it is a file, not a directory" : (code ?? String(error)));
  }
}

function cannotList(dir: string, reason: string): never {
  fail("IOError", `Cannot list the hooks directory ${dir} (${reason}). Fix it, or point hooks.*ScriptsDir elsewhere.`, {
    file: dir,
    source: dir,
  });
}

/** The path that reaches `name` in the held directory: through its descriptor on Linux, else by its real path. */
function entryPath(held: HeldHooks, name: string): string {
  if (held.via === "proc") return `/proc/self/fd/${held.fd}/${name}`;
  return path.join(held.via === "recheck" ? held.real : held.dir, name);
}

/**
 * One entry of the held directory: a hook, opened and checked on its descriptor (regular file, executable), or why
 * it is not one, or `misnamed` (a name that is not valid UTF-8 reaches nothing). A link is followed (a link to an
 * executable file is a hook); only what looks like a regular file is opened, so that a device or a FIFO in the
 * directory is never opened.
 */
function openEntry(held: HeldHooks, name: string): HookEntry | "misnamed" {
  const file = path.join(held.dir, name);
  const reach = entryPath(held, name);
  let stats: Stats | undefined;
  try {
    stats = statSync(reach, { throwIfNoEntry: false });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return { file, notRun: code === "ELOOP" ? "is a loop of symbolic links (fix or remove it)" : `cannot be looked at (${code})` };
  }
  if (!stats && name.includes("\uFFFD")) return "misnamed";
  if (!stats) return { file, notRun: "is a symbolic link to nothing (fix or remove the link)" };
  if (stats.isDirectory()) return { file, notRun: "is a directory: hooks are the files of the hooks directory, not of its subdirectories" };
  if (!stats.isFile()) return { file, notRun: "is not a regular file" };
  if (!isExecutable(reach)) return { file, notRun: notExecutable };
  if (held.via === "path") return { file };
  let fd: number;
  try {
    // O_NONBLOCK and O_NOCTTY: what was a regular file a moment ago may be a FIFO or a terminal now.
    fd = openSync(reach, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  } catch (error) {
    return { file, openError: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
  // From here on the verdict is on the open file, whatever the name now points to.
  const opened = fstatSync(fd);
  const why = !opened.isFile()
    ? "is not a regular file"
    : !isExecutable(held.via === "proc" ? `/proc/self/fd/${fd}` : reach)
      ? notExecutable
      : undefined;
  if (why !== undefined) {
    closeQuietly(fd);
    return { file, notRun: why };
  }
  return { file, fd, stats: opened };
}

const notExecutable = "is not executable (chmod +x to run it)";

/** Elsewhere than through /proc: the directory's real path must still name the directory held, or nothing runs. */
function requireSameDirectory(held: HeldHooks): void {
  const now = statOrNull(held.real);
  if (now && sameFile(now, held.stats!)) return;
  fail(
    "IOError",
    `The hooks directory ${held.dir} changed while its hooks were checked (${held.real} is no longer the directory that was opened); ` +
      "nothing was run. Run again.",
    { file: held.dir, source: held.dir },
  );
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed: nothing is held.
  }
}
