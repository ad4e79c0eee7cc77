// The file transaction of one `create` run: the folder's lock, and the state and cache staged before either is committed.
// Also the check for a change made meanwhile, and the state put back when the run fails.

import { linkSync, lstatSync, unlinkSync, type Stats } from "node:fs";
import path from "node:path";
import { commitCache, stageCache, type FingerprintCache, type CacheData } from "../archives/fingerprints.js";
import { keepCopies, keepSecondName, putBack, removeRedundantCopies, type KeptCopies } from "./copies.js";
import { DropkitError, fail } from "../errors.js";
import { readFound, sameFile } from "../files/found.js";
import { errorReason, noHardLinks, syncDirectory, unlinkQuietly } from "../files/fsutil.js";
import type { FolderListing } from "../files/listing.js";
import { acquireLock, lockSuffix, type Lock, type LockHolder } from "./lock.js";
import {
  fitState,
  nextState,
  readState,
  setAsideWarning,
  stateFileLimits,
  type ReadStateResult,
  type StatePlan,
  type StateV1,
} from "./file.js";
import { stageFile, type StagedFile } from "../files/staging.js";
import { removeStaleTempFiles } from "../files/tempfile.js";
import { isoTime } from "../isotime.js";

/** Options of `beginTransaction`. */
export interface TransactionOptions {
  /** The time of the run. @default new Date() */
  now?: Date;
  /** Read for the test-only `__DROPKIT_TEST_*` variables. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Called when another run holds the lock and this one starts to wait. */
  onLockWait?: (holder: LockHolder | null, lockFile: string) => void;
  /** Called with a warning (a stale lock removed). */
  onWarning?: (message: string) => void;
  /** Aborting it ends the wait for the lock at once (see `acquireLock`). */
  signal?: AbortSignal;
}

/** What the commit did: the fields of the `state` records in the decisions log. */
export interface CommitResult {
  state: StateV1;
  /** `created` when there was no usable state file, `updated` otherwise. */
  action: "created" | "updated";
  /** What was at the state file's path: `missing`, `link`, `v1`, `legacy` or `corrupt`. */
  read: ReadStateResult["kind"];
  /** Whether a legacy file was lifted to v1. */
  lifted: boolean;
  /** Where the legacy file's bytes are kept (made now, or already there), or `null`. */
  legacyCopy: string | null;
  /** Where an unusable state file was moved, or `null`. */
  movedAside: string | null;
  /** Where an unusable cache was moved, or `null`; `undefined` when no cache was written. */
  cacheMovedAside?: string | null;
  /** Problems to log as warnings. */
  warnings: string[];
}

/** How a run ended for the state file: nothing to undo (`null`), or the state put back. */
export interface EndResult {
  /** `restored`: the previous file is back; `removed`: there was none, the new one is gone. */
  action: "restored" | "removed" | null;
  warnings: string[];
}

/** Transactions not yet ended: rolled back if the process exits first (`process.exit` from a signal handler, a crash). */
const open = new Set<StateTransaction>();
let exitWatched = false;

/**
 * Takes the folder's lock and starts the transaction of a `create` run. End it with `finish` after
 * success or `abort` on any failure; both release the lock, and the process's exit aborts one left open.
 *
 * @param stateFile - Absolute path of the state file; the lock is `<stateFile>.lock`.
 * @throws DropkitError `StateConflict` (75) when another run holds the lock; `IOError` (74) when the lock cannot be
 *   created, or a stale one removed; the reason of `options.signal` when it is aborted during the wait.
 */
export async function beginTransaction(stateFile: string, options: TransactionOptions = {}): Promise<StateTransaction> {
  const env = options.env ?? process.env;
  const lockFile = stateFile + lockSuffix;
  const waitMs = testLockWaitMs(env);
  await pauseForTest("locking", env);
  const lock = await acquireLock(lockFile, {
    ...(waitMs !== undefined ? { waitMs } : {}),
    onWait: (holder) => options.onLockWait?.(holder, lockFile),
    onStale: options.onWarning,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const transaction = new StateTransaction(stateFile, lock, options.now ?? new Date(), env);
  if (!exitWatched) process.on("exit", abortOpen);
  exitWatched = true;
  open.add(transaction);
  return transaction;
}

/**
 * Writes the state file alone, as `create` does (lock, stage, copies, commit), for callers without a cache.
 *
 * @throws DropkitError `IOError` (74), `StateConflict` (75); the state file is then unchanged.
 */
export async function writeState(
  file: string,
  plan: StatePlan,
  toolVersion: string,
  options: TransactionOptions = {},
): Promise<CommitResult> {
  const transaction = await beginTransaction(file, options);
  try {
    await transaction.stageState(plan, toolVersion);
    const result = await transaction.commit();
    result.warnings.push(...(await transaction.finish()).warnings);
    return result;
  } finally {
    transaction.abort();
  }
}

/** One run's changes to the state file and the cache; see `beginTransaction`. */
export class StateTransaction {
  private previous: ReadStateResult | undefined;
  private state: StateV1 | undefined;
  private staged: StagedFile | undefined;
  private readonly warnings: string[] = [];
  private cache: { staged: StagedFile; loaded: FingerprintCache } | undefined;
  /** A second name for the previous state file (a hard link, or a copy), made just before the commit. */
  private backup: string | null = null;
  /** Copies (`.legacy`, `.corrupt-*`) this run made. */
  private readonly made: string[] = [];
  /** The new state file, once it has replaced the old one. */
  private committed: Stats | null = null;
  private ended = false;

  constructor(
    readonly stateFile: string,
    private readonly lock: Lock,
    private readonly now: Date,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /**
   * Reads the state file and stages the new one: written and flushed under a temporary name. A v1 file
   * keeps its `createdAt`, `migratedFrom` and `extra`; a legacy file is lifted.
   *
   * @throws DropkitError `IOError` (74) when the file cannot be read, or the new one cannot be written.
   */
  async stageState(plan: StatePlan, toolVersion: string): Promise<void> {
    const file = this.stateFile;
    const at = isoTime(this.now);
    const previous = readState(file);
    const next = nextState(file, previous, plan, toolVersion, at);
    // What is written must pass the limits the next run reads it with.
    const { state, text, leftOut, warning } = fitState(file, next.state, previous.kind === "legacy");
    // An entry left out is not "kept under extra": only the warning that left it out names it.
    const setAside = previous.kind === "v1" || previous.kind === "legacy" ? previous.setAside : [];
    const left = new Set(leftOut);
    this.warn(
      left.size === 0
        ? next.warning
        : setAsideWarning(
            file,
            setAside.filter((s) => !left.has(s.key)),
          ),
    );
    this.warn(warning);
    if (previous.kind === "link") {
      this.warnings.push(
        `The state file ${file} is a symbolic link to ${previous.target}; dropkit does not follow it: the link is ` +
          `replaced by a regular file holding the new state (as git does), and ${previous.target} is neither read nor ` +
          `changed.`,
      );
    }
    try {
      this.staged = await stageFile(file, text);
    } catch (error) {
      fail(
        "IOError",
        `Cannot write the state file ${file} (${errorReason(error)}). Nothing was changed; check that the directory is writable.`,
        { file, source: file },
      );
    }
    this.previous = previous;
    this.state = state;
  }

  /**
   * Stages the cache next to the state: both are written and flushed before either is committed, so a
   * cache that cannot be written stops the run with the state file untouched.
   *
   * @throws DropkitError `IOError` (74).
   */
  async stageCache(file: string, data: CacheData, loaded: FingerprintCache): Promise<void> {
    this.cache = { staged: await stageCache(file, data), loaded };
  }

  /**
   * Commits: keeps a second name for the previous state file and checks it is still what was read; makes
   * the `.legacy` or `.corrupt-*` copy; commits the cache; checks once more that the state file is what
   * was read and replaces it. A state file changed meanwhile by another program is never replaced.
   *
   * @throws DropkitError `StateConflict` (75) for such a change, `IOError` (74); the state file is then unchanged.
   */
  async commit(): Promise<CommitResult> {
    const file = this.stateFile;
    const previous = this.previous!;
    const at = isoTime(this.now);
    await pauseForTest("staged", this.env);
    let copies: KeptCopies = { legacyCopy: null, movedAside: null, made: [], warnings: [] };
    if (previous.kind !== "missing") {
      this.backup = await secondNameOf(file, previous);
      try {
        copies = await keepCopies(file, previous, this.backup, at);
      } catch (error) {
        const step = previous.kind === "legacy" ? "keep a copy of the legacy state file" : "move the unusable state file aside";
        fail(
          "IOError",
          `Cannot ${step} ${file} (${errorReason(error)}). The state file was not changed; check that the directory is writable.`,
          { file, source: file },
        );
      }
      this.made.push(...copies.made);
      this.warnings.push(...copies.warnings);
      if (copies.made.length > 0) this.warn(syncDirectory(path.dirname(file), copies.made[0]!));
    }
    await pauseForTest("copied", this.env);
    let cacheMovedAside: string | null | undefined;
    if (this.cache) {
      const committed = await commitCache(this.cache.staged, this.cache.loaded, this.now);
      cacheMovedAside = committed.movedAside;
      this.warnings.push(...committed.warnings);
    }
    this.requireUnchanged(previous);
    await this.replace(previous);
    this.warn(syncDirectory(path.dirname(file), file));
    await pauseForTest("committed", this.env);
    const result: CommitResult = {
      state: this.state!,
      action: previous.kind === "v1" || previous.kind === "legacy" ? "updated" : "created",
      read: previous.kind,
      lifted: previous.kind === "legacy",
      legacyCopy: copies.legacyCopy,
      movedAside: copies.movedAside,
      warnings: this.warnings.splice(0),
    };
    if (cacheMovedAside !== undefined) result.cacheMovedAside = cacheMovedAside;
    return result;
  }

  /**
   * Ends a run that succeeded: drops the second name of the old state file, removes debris of killed runs, releases the lock.
   *
   * @param listing - A listing of the state file's folder made earlier in the run, to look for debris in.
   */
  async finish(listing?: FolderListing): Promise<EndResult> {
    if (this.ended) return { action: null, warnings: [] };
    this.end();
    try {
      if (this.backup) unlinkQuietly(this.backup);
      removeStaleTempFiles(this.stateFile, listing);
      if (this.cache) removeStaleTempFiles(this.cache.staged.target, listing);
    } finally {
      this.lock.release();
    }
    return { action: null, warnings: this.warnings.splice(0) };
  }

  /**
   * Ends a run that failed, synchronously (so that an exiting process can call it): discards what is
   * staged and, when the state was already committed, puts the previous state file back (or removes the
   * new one when there was none), unless another program replaced it since; removes the copies this run
   * made when the file they copy is back in place; releases the lock. Never throws.
   */
  abort(): EndResult {
    if (this.ended) return { action: null, warnings: [] };
    this.end();
    let action: EndResult["action"] = null;
    try {
      for (const staged of [this.staged, this.cache?.staged]) if (staged) unlinkQuietly(staged.temp);
      if (this.committed) action = this.restore();
      else if (this.backup) unlinkQuietly(this.backup);
      removeRedundantCopies(this.stateFile, this.previous, this.made);
    } catch (error) {
      this.warnings.push(`Could not put the state file ${this.stateFile} back as it was (${errorReason(error)}).`);
    } finally {
      this.lock.release();
    }
    return { action, warnings: this.warnings.splice(0) };
  }

  /** Records in the lock the process group of the hook that runs now (`null`: none), so that a run is over only when its hooks are. */
  recordHookGroup(pgid: number | null): void {
    this.lock.recordHookGroup(pgid);
  }

  // --- steps ---

  private end(): void {
    this.ended = true;
    open.delete(this);
  }

  private warn(warning: string | undefined): void {
    if (warning) this.warnings.push(warning);
  }

  /** Just before the rename: the state file must still be exactly what was read (or still be missing). */
  private requireUnchanged(previous: ReadStateResult): void {
    const change = changeSince(this.stateFile, previous);
    if (change !== null) this.conflict(change);
  }

  /** Puts the new state file in place: a hard link where nothing was (fails rather than replaces), a rename otherwise. */
  private async replace(previous: ReadStateResult): Promise<void> {
    const staged = this.staged!;
    const file = this.stateFile;
    try {
      if (previous.kind === "missing") {
        try {
          linkSync(staged.temp, file);
          unlinkSync(staged.temp);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === "EEXIST") this.conflict("a file appeared there");
          if (!noHardLinks(code)) throw error;
          await staged.commit();
        }
      } else {
        await staged.commit();
      }
    } catch (error) {
      if (error instanceof DropkitError) throw error;
      fail(
        "IOError",
        `Cannot write the state file ${file} (${errorReason(error)}). The state file was not changed; check that the directory is writable.`,
        { file, source: file },
      );
    }
    this.committed = lstatSync(file);
  }

  /** The rollback of a committed state: the previous file back, if the new one is still this run's. */
  private restore(): EndResult["action"] {
    const { action, warning } = putBack(this.stateFile, this.committed!, this.backup, isoTime(this.now));
    this.warn(warning);
    return action;
  }

  private conflict(what: string): never {
    refuseConflict(this.stateFile, what);
  }
}

// --- helpers ---

// The test-only switches of the transaction (`__DROPKIT_TEST_*`, docs/state-file.md), exported for their unit test.

/** The points of the transaction where a test can pause the process (see `pauseForTest`): before the lock, and in the commit. */
const testPausePoints = ["locking", "staged", "copied", "committed"] as const;

/**
 * Test-only: when `__DROPKIT_TEST_STATE_PAUSE` names this point, says so on stderr and waits up to 10 s
 * (or until SIGUSR2), so that a test can kill the process there or change files under it. The name is
 * outside the `DROPKIT_*` namespace on purpose: it is not configuration. Unset (always, outside tests), it
 * does nothing.
 */
export async function pauseForTest(point: (typeof testPausePoints)[number], env: NodeJS.ProcessEnv): Promise<void> {
  if (env.__DROPKIT_TEST_STATE_PAUSE !== point) return;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      process.removeListener("SIGUSR2", done);
      resolve();
    };
    const timer = setTimeout(done, 10_000);
    // Listening before saying so: a test may send the signal as soon as it reads the line.
    process.once("SIGUSR2", done);
    process.stderr.write(`__dropkit_test_state_pause ${point} ${process.pid}\n`);
  });
}

/**
 * Test-only: the lock wait in ms that `__DROPKIT_TEST_LOCK_WAIT_MS` asks for (tests of many concurrent runs on a
 * loaded machine let them all take their turn), or `undefined` for the usual wait. Outside the `DROPKIT_*`
 * namespace, like `__DROPKIT_TEST_STATE_PAUSE`.
 */
export function testLockWaitMs(env: NodeJS.ProcessEnv): number | undefined {
  const waitMs = Number(env.__DROPKIT_TEST_LOCK_WAIT_MS);
  return Number.isFinite(waitMs) && waitMs >= 0 ? waitMs : undefined;
}

// A change another program made to the state file between this run's read and its replacement: noticed, and
// refused (StateConflict, 75), never lost. `changeSince` and `secondNameOf` are exported for their unit test.

/**
 * What changed at the state file since this run read it as `previous`, or `null` when it is still exactly that:
 * the same file (device, inode, size, modification time) with the same bytes, the same link, or still nothing.
 *
 * @throws The file-system error of reading it again.
 */
export function changeSince(file: string, previous: ReadStateResult): string | null {
  const now = readFound(file, stateFileLimits.bytes);
  if (previous.kind === "missing") return now.kind === "missing" ? null : "a file appeared there";
  const same = now.kind !== "missing" && sameFile(now.stats, previous.stats);
  if (previous.kind === "link") return same && now.kind === "link" && now.target === previous.target ? null : "the link was changed";
  return same && now.kind === "file" && now.bytes.equals(previous.bytes) ? null : "its content or identity changed";
}

/**
 * Gives the state file a second name for the rollback (see `keepSecondName`: the very file, where there are hard
 * links) and checks that it is the file this run read as `previous`, with the same bytes: the first check for a change.
 *
 * @returns The second name.
 * @throws DropkitError `StateConflict` (75) when the file was removed or is another one (the second name is then
 *   removed); `IOError` (74) when the name cannot be made.
 */
export async function secondNameOf(file: string, previous: Exclude<ReadStateResult, { kind: "missing" }>): Promise<string> {
  let kept;
  try {
    kept = await keepSecondName(file, previous);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") refuseConflict(file, "it was removed");
    fail(
      "IOError",
      `Cannot write the state file ${file} (${errorReason(error)}). Nothing was changed; check that the directory is writable.`,
      { file, source: file },
    );
  }
  if (!kept.unchanged) {
    unlinkQuietly(kept.name);
    refuseConflict(file, "it is not the file this run read");
  }
  return kept.name;
}

/**
 * Stops the run: the state file was changed by another program (`what`), so it is not replaced.
 *
 * @throws DropkitError `StateConflict` (75) naming the file and what changed.
 */
function refuseConflict(file: string, what: string): never {
  fail(
    "StateConflict",
    `The state file ${file} was changed by another program while this run was going on (${what}); it was not ` +
      `replaced, and what the other program wrote is kept. Run dropkit create again.`,
    { file, source: file },
  );
}

/** Rolls back every transaction still open when the process exits. */
function abortOpen(): void {
  for (const transaction of [...open]) transaction.abort();
}
