// The folder's lock (`.dropkit.json.lock`): one `create` at a time, taken with O_EXCL.
// A dead run's lock is taken over as git does with gc.pid (once the hook it started has ended too).

import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  futimesSync,
  lstatSync,
  openSync,
  readlinkSync,
  readFileSync,
  statSync,
  type Stats,
  unlinkSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import { fail } from "../errors.js";
import { describeNonFile, readFound, sameFile } from "../files/found.js";
import { errorReason, unlinkQuietly } from "../files/fsutil.js";
import { sessionRunning } from "../hooks/group.js";
import { processAlive } from "../files/tempfile.js";
import { userName } from "../files/trust.js";
import { isoTime } from "../isotime.js";

/** The lock file is the state file's name plus this suffix. */
export const lockSuffix = ".lock";

/** How long `create` waits for another run's lock before it refuses. @default 5000 */
export const lockWaitMs = 5_000;

/** How often the holder refreshes its lock's modification time. */
export const lockRefreshMs = 30_000;

/**
 * A lock whose holder cannot be checked from here (another host, another container, an unreadable
 * lock) is stale once it has gone this long without a refresh.
 */
export const lockStaleMs = 10 * 60_000;

/** A lock file naming no holder is stale after this long: its writer fills it microseconds after creating it. */
const unnamedStaleMs = 5_000;

/** A takeover's guard file is stale after this long: a takeover takes milliseconds. */
const guardStaleMs = 10_000;

/** Who holds a lock: the content of the lock file, one JSON line. */
export interface LockHolder {
  pid: number;
  hostname: string;
  /** ISO time the lock was taken. */
  startedAt: string;
  /** Linux's boot id: tells a lock from before a restart. */
  bootId?: string;
  /** Linux's pid namespace (`pid:[4026531836]`): a process id means something only inside its namespace (containers). */
  pidNamespace?: string;
  /**
   * While a hook runs: its process group (and session) id. The run is not over while a process of it runs, even
   * when the holder itself is gone (SIGKILLed): its hook may still be working in the folder.
   */
  hookGroup?: number;
}

/** A lock this process holds. */
export interface Lock {
  readonly file: string;
  readonly holder: LockHolder;
  /**
   * Records in the lock the process group of the hook that runs now, or `null` once its group is empty; never throws
   * (a lock that cannot be written keeps what it said).
   */
  recordHookGroup(pgid: number | null): void;
  /** Removes the lock file if it is still this lock's; never throws, may be called more than once. */
  release(): void;
}

/** Options of `acquireLock`. */
export interface AcquireLockOptions {
  /** How long to wait for a held lock. @default lockWaitMs */
  waitMs?: number;
  /** How often to refresh the lock while it is held. @default lockRefreshMs */
  refreshMs?: number;
  /** Called once, when another run holds the lock and this one starts to wait. */
  onWait?: (holder: LockHolder | null) => void;
  /** Called when a stale lock was removed, with a sentence saying whose and why. */
  onStale?: (message: string) => void;
  /** Aborting it ends the wait at once: the promise rejects with its reason (see `trapSignals`). */
  signal?: AbortSignal;
}

/**
 * Takes the lock `file`, created with O_EXCL and filled with this process's `LockHolder`. When another
 * run holds it, waits up to `waitMs`, polling. A stale lock is removed and taken: on the same host (same
 * pid namespace), when its process is gone and no process of the hook group it names runs, or the machine
 * restarted since; anywhere, when it has gone `lockStaleMs` without a refresh (the holder refreshes it every
 * `lockRefreshMs`). The `waitMs` bound holds for a stale lock too: a takeover that stays blocked (its guard
 * file kept fresh) ends like a held lock.
 *
 * @throws DropkitError `StateConflict` (75) when the lock is still held (or its takeover blocked) after `waitMs`,
 *   naming the holder (or the guard) and how to remove a lock that is left over; `IOError` (74) when the lock file
 *   cannot be created (a read-only folder), a stale lock or its takeover guard cannot be removed (another user's
 *   file in a sticky folder, a folder this user may not write, a read-only file system), or something that is not a
 *   lock (or a guard) is in its place.
 * @throws The reason of `options.signal` as soon as it is aborted.
 */
export async function acquireLock(file: string, options: AcquireLockOptions = {}): Promise<Lock> {
  const waitMs = options.waitMs ?? lockWaitMs;
  const deadline = Date.now() + waitMs;
  const me = await currentHolder();
  let waiting = false;
  for (;;) {
    options.signal?.throwIfAborted();
    const fd = tryCreate(file, me);
    if (fd !== null) return hold(file, fd, me, options.refreshMs ?? lockRefreshMs);
    const seen = readLock(file);
    if (seen === null) continue;
    // node:os only here, where another run's lock is looked at: an uncontended run never loads it
    // (docs/performance.md#a-cached-create).
    const { uptime } = await import("node:os");
    const stale = staleReason(seen, me, Date.now() - uptime() * 1000);
    let blocked: Guard | null = null;
    if (stale !== null) {
      const took = takeOver(file, seen.stats, stale);
      if (took === "taken")
        options.onStale?.(`Removed the stale lock ${file}${seen.holder ? ` of ${describeHolder(seen.holder)}` : ""}: ${stale}.`);
      if (took === "taken" || took === "changed") continue;
      blocked = took;
    }
    const left = deadline - Date.now();
    if (left <= 0) refuse(file, seen.holder, me, waitMs, blocked && { guard: blocked, stale: stale! });
    if (!waiting) options.onWait?.(seen.holder);
    waiting = true;
    // A takeover in progress takes milliseconds: poll its guard more often than a holder that runs hooks.
    await sleep(Math.min(left, blocked ? 20 + Math.random() * 30 : 50 + Math.random() * 100), options.signal);
  }
}

// --- helpers ---

/** Creates the lock; `null` when something is already there. */
function tryCreate(file: string, me: LockHolder): number | null {
  let fd: number;
  try {
    // O_EXCL never follows a link planted at the name.
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return null;
    const state = file.slice(0, -lockSuffix.length);
    fail(
      "IOError",
      `Cannot write the state file ${state} (${errorReason(error)}): its lock ${file} cannot be created. Nothing was ` +
        `changed; check that the directory is writable.`,
      { file: state, source: state },
    );
  }
  try {
    // Readable by every user who may run create here, whatever the umask: a waiter needs the holder.
    fchmodSync(fd, 0o644);
    writeSync(fd, JSON.stringify(me) + "\n");
    return fd;
  } catch (error) {
    closeSync(fd);
    unlinkQuietly(file);
    fail(
      "IOError",
      `Cannot write the lock ${file} (${errorReason(error)}). Nothing was changed; check the free space and the directory's permissions.`,
      { file, source: file },
    );
  }
}

/** Holds the lock: refreshes it, and removes it on release if it is still this one. */
function hold(file: string, fd: number, me: LockHolder, refreshMs: number): Lock {
  const mine = fstatSync(fd);
  let length = mine.size;
  // The refresh starts when the event loop first turns: until then the run is synchronous work and promptly resolved
  // promises, which no timer could interrupt, and a cached create, which never waits for anything, makes no timer at
  // all (docs/performance.md#a-cached-create). Neither keeps the process alive.
  let timer: NodeJS.Timeout | undefined;
  const start = setImmediate(() => {
    timer = setInterval(() => {
      try {
        const now = new Date();
        futimesSync(fd, now, now);
      } catch {
        // A refresh that fails only makes the lock look older to another host.
      }
    }, refreshMs);
    timer.unref();
  });
  start.unref();
  let released = false;
  return {
    file,
    holder: me,
    recordHookGroup(pgid) {
      const text = Buffer.from(JSON.stringify(pgid === null ? me : { ...me, hookGroup: pgid }));
      // Written in place and never shorter than before (JSON allows trailing spaces): a reader sees the old
      // holder or the new one, never the tail of a longer one after a shorter one.
      const bytes = Buffer.concat([text, Buffer.alloc(Math.max(0, length - text.length - 1), " "), Buffer.from("\n")]);
      try {
        writeSync(fd, bytes, 0, bytes.length, 0);
        length = bytes.length;
      } catch {
        // The lock keeps what it said; it is released at the end of the run as usual.
      }
    },
    release() {
      if (released) return;
      released = true;
      clearImmediate(start);
      clearInterval(timer);
      try {
        const now = lstatSync(file, { throwIfNoEntry: false });
        if (now && now.dev === mine.dev && now.ino === mine.ino) unlinkSync(file);
      } catch {
        // Left behind, it is stale at once for the next run on this host (this process is gone by then).
      }
      try {
        closeSync(fd);
      } catch {
        // Already closed.
      }
    },
  };
}

/** What is at the lock's path: its stats and holder (`null` for a lock naming none), or `null` when nothing is. */
function readLock(file: string): { stats: Stats; holder: LockHolder | null; unreadable: boolean } | null {
  let found;
  try {
    found = readFound(file, 4096);
  } catch (error) {
    // Another user's lock that this one may not read: held, as far as anyone can tell.
    const stats = lstatSync(file, { throwIfNoEntry: false });
    if (!stats) return null;
    if ((error as NodeJS.ErrnoException).code === "EACCES") return { stats, holder: null, unreadable: true };
    fail("IOError", `Cannot read the lock ${file} (${errorReason(error)}). Nothing was changed; check the file and its directory.`, {
      file,
      source: file,
    });
  }
  if (found.kind === "missing") return null;
  if (found.kind === "other") {
    fail("IOError", `${file} is ${found.what}, not dropkit's lock file. Remove it; dropkit creates the lock there for each create run.`, {
      file,
      source: file,
    });
  }
  if (found.kind === "link") return { stats: found.stats, holder: null, unreadable: false };
  return { stats: found.stats, holder: parseHolder(found.bytes.toString("utf8")), unreadable: false };
}

/** Why a lock is stale, or `null` when it may still be held; `bootMs` is when this machine started (epoch ms). */
function staleReason(
  seen: { stats: Stats; holder: LockHolder | null; unreadable: boolean },
  me: LockHolder,
  bootMs: number,
): string | null {
  const age = Date.now() - seen.stats.mtimeMs;
  const holder = seen.holder;
  if (holder === null) {
    if (seen.unreadable) return age > lockStaleMs ? `it cannot be read and has not been refreshed for ${formatAge(age)}` : null;
    return age > unnamedStaleMs ? `it names no holder and is ${formatAge(age)} old` : null;
  }
  if (holder.hostname === me.hostname) {
    // Another boot id: this machine restarted since (if the lock is older than the restart), or it is another machine of the same name.
    if (holder.bootId && me.bootId && holder.bootId !== me.bootId && seen.stats.mtimeMs < bootMs)
      return "this machine has restarted since it was taken";
    if (sameProcessSpace(holder, me) && !processAlive(holder.pid)) {
      // Its hook still runs (dropkit was SIGKILLed): the run is not over, whatever the lock's age.
      if (holder.hookGroup !== undefined && sessionRunning(holder.hookGroup)) return null;
      return `process ${holder.pid} is no longer running`;
    }
  }
  return age > lockStaleMs
    ? `it has not been refreshed for ${formatAge(age)} (a running create refreshes it every ${lockRefreshMs / 1000} s)`
    : null;
}

/** A takeover guard in the way: its path and how long ago it last changed. */
interface Guard {
  file: string;
  ageMs: number;
}

/**
 * Removes the stale lock seen as `seen` (stale for `reason`), unless it changed meanwhile (`changed`: look again). A
 * guard file taken with O_EXCL makes the check and the removal one step, so that two waiters never remove a lock a
 * third has just taken. Returns the guard when another takeover holds it (or something keeps it fresh).
 *
 * @throws DropkitError `IOError` when the lock or a guard left over cannot be removed, or the guard's name holds
 *   something that is not a file: waiting would not help.
 */
function takeOver(file: string, seen: Stats, reason: string): "taken" | "changed" | Guard {
  const guard = `${file}.takeover`;
  let fd: number;
  try {
    fd = openSync(guard, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") cannotRemove(file, reason, error);
    return guardInTheWay(file, guard, reason);
  }
  try {
    const now = lstatSync(file, { throwIfNoEntry: false });
    if (!now || !sameFile(now, seen)) return "changed";
    try {
      unlinkSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return "changed";
      cannotRemove(file, reason, error, now);
    }
    return "taken";
  } finally {
    closeSync(fd);
    unlinkQuietly(guard);
  }
}

/** What to do about the guard another takeover holds: remove it once it is left over, wait while it is fresh. */
function guardInTheWay(file: string, guard: string, reason: string): "changed" | Guard {
  const stats = lstatSync(guard, { throwIfNoEntry: false });
  if (!stats) return "changed";
  const cannot = `Cannot take over the stale lock ${file} (${reason})`;
  if (!stats.isFile() && !stats.isSymbolicLink()) {
    fail(
      "IOError",
      `${cannot}: its takeover guard ${guard} is ${describeNonFile(stats)}, not a file dropkit made. Nothing was ` +
        `changed; remove it (rm -r '${guard}') and run again.`,
      { file: guard, source: guard },
    );
  }
  const ageMs = Date.now() - stats.mtimeMs;
  if (ageMs <= guardStaleMs) return { file: guard, ageMs };
  try {
    unlinkSync(guard);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "changed";
    fail(
      "IOError",
      `${cannot}: its takeover guard ${guard}, left over ${formatAge(ageMs)} ago, cannot be removed ` +
        `(${errorReason(error)}). Nothing was changed; ${howToRemove(guard, stats, `rm '${guard}' '${file}'`)}`,
      { file: guard, source: guard },
    );
  }
  return "changed";
}

/** A stale lock that this user cannot remove: an IOError naming it, as when the lock cannot be created. */
function cannotRemove(file: string, reason: string, error: unknown, stats?: Stats): never {
  const state = file.slice(0, -lockSuffix.length);
  fail(
    "IOError",
    `Cannot write the state file ${state}: its lock ${file} is stale (${reason}) but cannot be removed ` +
      `(${errorReason(error)}). Nothing was changed; ` +
      `${howToRemove(file, stats ?? lstatSync(file, { throwIfNoEntry: false }), `rm '${file}'`)}`,
    { file, source: file },
  );
}

/** How a file this user cannot remove gets removed: by its owner in a sticky folder, else by making the folder writable. */
function howToRemove(file: string, stats: Stats | undefined, command: string): string {
  const dir = path.dirname(file);
  let sticky = false;
  try {
    sticky = (statSync(dir).mode & 0o1000) !== 0;
  } catch {
    // An unreadable folder: the general advice below.
  }
  if (sticky && stats && stats.uid !== process.getuid?.()) {
    return (
      `it belongs to ${ownerName(stats.uid)} and ${dir} has the sticky bit, so only its owner or root may remove it: ` +
      `ask them to (${command}), then run again.`
    );
  }
  return (
    `check that the directory ${dir} is writable (and not on a read-only file system), or remove the file where it ` +
    `is writable (${command}), then run again.`
  );
}

function refuse(
  file: string,
  holder: LockHolder | null,
  me: LockHolder,
  waitMs: number,
  blocked: { guard: Guard; stale: string } | null,
): never {
  const dir = path.dirname(file);
  if (blocked) {
    const { guard, stale } = blocked;
    fail(
      "StateConflict",
      `Cannot take the lock ${file} in ${waitMs / 1000} s: it is stale (${stale}), but its takeover guard ` +
        `${guard.file} changed ${formatAge(guard.ageMs)} ago: another dropkit create is taking the lock over, or ` +
        `something keeps that file fresh. Run dropkit create again in a moment. If no dropkit create is running in ` +
        `${dir}, remove both (rm '${guard.file}' '${file}') and run again.`,
      { file: guard.file, source: guard.file },
    );
  }
  const same = holder !== null && holder.hostname === me.hostname && sameProcessSpace(holder, me);
  if (same && holder.hookGroup !== undefined && !processAlive(holder.pid)) {
    const group = holder.hookGroup;
    fail(
      "StateConflict",
      `A dropkit create in ${dir} is not over: the lock ${file} was taken by ${describeHolder(holder)}, which is ` +
        `gone, but the hook it started still runs (process group ${group}) and may still change the folder (waited ` +
        `${waitMs / 1000} s). Run dropkit create again once that hook has finished, or stop it (kill -TERM -- ` +
        `-${group}); the lock is then taken over.`,
      { file, source: file },
    );
  }
  const who = holder ? describeHolder(holder) : "a process that cannot be identified (the lock names none, or cannot be read)";
  const remote =
    holder && !same
      ? ` dropkit cannot check a process on another host or in another container; such a lock counts as stale once it ` +
        `has gone ${lockStaleMs / 60_000} minutes without a refresh.`
      : "";
  fail(
    "StateConflict",
    `Another dropkit create is running in ${dir}: the lock ${file} is held by ${who} (waited ${waitMs / 1000} ` +
      `s).${remote} Run dropkit create again once it has finished. If no dropkit create is running there, the lock ` +
      `is left over: remove it (rm '${file}') and run again.`,
    { file, source: file },
  );
}

function describeHolder(h: LockHolder): string {
  return `process ${h.pid} on host "${h.hostname}" since ${h.startedAt}`;
}

function parseHolder(text: string): LockHolder | null {
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    if (typeof v !== "object" || v === null || !Number.isSafeInteger(v.pid) || (v.pid as number) <= 0) return null;
    if (typeof v.hostname !== "string" || typeof v.startedAt !== "string") return null;
    const holder: LockHolder = { pid: v.pid as number, hostname: v.hostname, startedAt: v.startedAt };
    if (typeof v.bootId === "string") holder.bootId = v.bootId;
    if (typeof v.pidNamespace === "string") holder.pidNamespace = v.pidNamespace;
    if (Number.isSafeInteger(v.hookGroup) && (v.hookGroup as number) > 0) holder.hookGroup = v.hookGroup as number;
    return holder;
  } catch {
    return null;
  }
}

/** This process as a lock holder; the Linux-only fields are left out elsewhere. */
async function currentHolder(): Promise<LockHolder> {
  const holder: LockHolder = { pid: process.pid, hostname: await hostName(), startedAt: isoTime(new Date()) };
  try {
    holder.bootId = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    holder.pidNamespace = readlinkSync("/proc/self/ns/pid");
  } catch {
    // Not Linux, or /proc is not mounted: the host name and process id alone identify the holder.
  }
  return holder;
}

/**
 * `os.hostname()`: on Linux read from /proc (the same `gethostname` answer, for this UTS namespace), so that an
 * uncontended run does not load node:os for it.
 */
async function hostName(): Promise<string> {
  try {
    const name = readFileSync("/proc/sys/kernel/hostname", "utf8").replace(/\n$/, "");
    if (name !== "") return name;
  } catch {
    // Not Linux, or /proc is not mounted.
  }
  return (await import("node:os")).hostname();
}

/** Whether process ids of `holder` mean the same processes here: same boot and same pid namespace, as far as known. */
function sameProcessSpace(holder: LockHolder, me: LockHolder): boolean {
  const sameBoot = !holder.bootId || !me.bootId || holder.bootId === me.bootId;
  const sameNamespace = !holder.pidNamespace || !me.pidNamespace || holder.pidNamespace === me.pidNamespace;
  return sameBoot && sameNamespace;
}

/** A file's owner for messages: `user alice (uid 1001)`, or `uid 1001` when the id has no name. */
function ownerName(uid: number): string {
  const name = userName(uid);
  return name ? `user ${name} (uid ${uid})` : `uid ${uid}`;
}

function formatAge(ms: number): string {
  return ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} minutes`;
}

/** Waits `ms`; rejects with the signal's reason (an `Interrupted`) as soon as it is aborted. */
async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    // Loaded only when a run waits: an uncontended run never needs node:timers/promises.
    const { setTimeout: delay } = await import("node:timers/promises");
    await delay(ms, undefined, signal ? { signal } : {});
  } catch (error) {
    // The timer's own AbortError says nothing of which signal came: the reason does.
    signal?.throwIfAborted();
    throw error;
  }
}
