// Running the init and post hook scripts: each executable file of a directory, in name order.

import { spawn } from "node:child_process";
import { accessSync, constants, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fail } from "./errors.js";

/** Which hooks run: before (`init`) or after (`post`) the drop is created. */
export type HookPhase = "init" | "post";

/** How one hook ended, or why there was none to run. */
export type HookStatus = "ok" | "failed" | "timed-out" | "spawn-error" | "skipped" | "no-directory";

/** One entry of the decisions log (event `hook`). */
export interface HookRecord {
  event: "hook";
  phase: HookPhase;
  /** Absolute path of the hook; for `no-directory`, of the directory that is missing. */
  file: string;
  /** How it ended. `skipped`: a regular file without execute permission. */
  status: HookStatus;
  /** The exit code; `null` when killed by a signal, never started, or not run. */
  exitCode: number | null;
  /** The signal that ended it, when one did (e.g. `SIGTERM` after a timeout). */
  signal?: string;
  /** Wall-clock time from start to exit; 0 when not run. */
  durationMs: number;
  /** A human explanation for anything but `ok`. */
  message?: string;
}

/** Options for `runHooks`. */
export interface HookOptions {
  /** The working directory the hooks run in; a relative `dir` resolves against it too. */
  cwd: string;
  /** `continue`: a failing hook is a warning. `fail`: the run stops at the first failing hook. */
  onFailure: "continue" | "fail";
  phase: HookPhase;
  /** The environment the hooks get. */
  env: NodeJS.ProcessEnv;
  /** How long one hook may run before it is killed, in ms; see `hookTimeoutMs`. */
  timeoutMs: number;
  /** Receives one record per hook (and one when the directory is missing). */
  log: (record: HookRecord) => void;
}

/** What a phase's hooks did. */
export interface HookOutcome {
  /** Absolute path of the hooks directory. */
  dir: string;
  /** `false` when the directory does not exist, which means no hooks. */
  exists: boolean;
  /** One record per executable hook that was started, in run order. */
  ran: HookRecord[];
  /** Regular files that were not run because they are not executable. */
  skipped: string[];
  /** One message per failed hook (with `onFailure: continue`), for the caller to log as warnings. */
  warnings: string[];
}

/** @default 60 s per hook. */
export const defaultHookTimeoutMs = 60_000;

/** The largest timeout a Node timer can hold (about 24.8 days). */
const maxTimeoutMs = 2 ** 31 - 1;

/** After a timeout, how long a hook gets to exit on SIGTERM before it is sent SIGKILL. */
const killGraceMs = 2000;

/**
 * Runs every executable regular file of `dir`, in name order (code-unit order), directly — no shell,
 * no interpolation — with `opts.cwd` as working directory, stdin closed, and both stdout and stderr
 * forwarded to this process's stderr (stdout carries only requested data). Symbolic links to
 * executable files run; subdirectories and hidden files (`.name`) are ignored.
 *
 * A hook fails when it exits non-zero, is killed by a signal, cannot be started, or runs longer than
 * `opts.timeoutMs` (then it is killed: SIGTERM, SIGKILL after a grace period).
 *
 * @param dir - The hooks directory; a missing one means no hooks.
 * @throws DropkitError `HookFailed` (exit 1) on the first failing hook when `onFailure` is `fail`;
 *   `IOError` (74) when the directory exists but cannot be listed.
 */
export async function runHooks(dir: string, opts: HookOptions): Promise<HookOutcome> {
  const abs = path.resolve(opts.cwd, dir);
  const outcome: HookOutcome = { dir: abs, exists: true, ran: [], skipped: [], warnings: [] };
  const listed = listHooks(abs);
  if (listed === null) {
    outcome.exists = false;
    opts.log({ event: "hook", phase: opts.phase, file: abs, status: "no-directory", exitCode: null, durationMs: 0, message: `no ${opts.phase} hooks: ${abs} does not exist` });
    return outcome;
  }
  for (const file of listed.skipped) {
    outcome.skipped.push(file);
    opts.log({ event: "hook", phase: opts.phase, file, status: "skipped", exitCode: null, durationMs: 0, message: `not run: ${file} is not executable (chmod +x to run it)` });
  }
  for (const file of listed.hooks) {
    const record = await runOne(file, opts);
    outcome.ran.push(record);
    opts.log(record);
    if (record.status === "ok") continue;
    if (opts.onFailure === "fail") {
      fail("HookFailed", `The ${opts.phase} hook ${file} ${record.message}; the run stopped because hooks.onFailure is "fail". Fix the hook, or set hooks.onFailure to "continue".`, { file, source: file });
    }
    outcome.warnings.push(`The ${opts.phase} hook ${file} ${record.message}; continuing because hooks.onFailure is "continue".`);
  }
  return outcome;
}

/**
 * The per-hook timeout from `DROPKIT_HOOK_TIMEOUT` (seconds, decimals allowed), in ms. An unset or
 * empty variable gives the default.
 *
 * @default 60000 (60 s)
 * @throws DropkitError `SchemaValidationError` (65) naming the variable when it is not a positive
 *   number of seconds that a timer can hold.
 */
export function hookTimeoutMs(env: NodeJS.ProcessEnv): number {
  const raw = env.DROPKIT_HOOK_TIMEOUT;
  if (raw === undefined || raw.trim() === "") return defaultHookTimeoutMs;
  const seconds = /^\s*\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : NaN;
  const ms = Math.round(seconds * 1000);
  if (!(ms > 0) || ms > maxTimeoutMs) {
    fail("SchemaValidationError", `DROPKIT_HOOK_TIMEOUT must be a positive number of seconds up to ${Math.floor(maxTimeoutMs / 1000)}, e.g. 120; got ${JSON.stringify(raw)}.`, { source: "DROPKIT_HOOK_TIMEOUT" });
  }
  return ms;
}

// --- helpers ---

/** The executable regular files of `dir` in name order, and the non-executable ones; `null` if no `dir`. */
function listHooks(dir: string): { hooks: string[]; skipped: string[] } | null {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    const reason = code === "ENOTDIR" ? "it is a file, not a directory" : code ?? String(error);
    fail("IOError", `Cannot list the hooks directory ${dir} (${reason}). Fix it, or point hooks.*ScriptsDir elsewhere.`, { file: dir, source: dir });
  }
  const hooks: string[] = [];
  const skipped: string[] = [];
  for (const name of names.sort()) {
    // Hidden files are editor swap files, .DS_Store, .gitkeep: never hooks.
    if (name.startsWith(".")) continue;
    const file = path.join(dir, name);
    // statSync follows symbolic links: a link to an executable file is a hook.
    const stats = statSync(file, { throwIfNoEntry: false });
    if (!stats?.isFile()) continue;
    (isExecutable(file) ? hooks : skipped).push(file);
  }
  return { hooks, skipped };
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Runs one hook to its end and describes how it ended. */
function runOne(file: string, opts: HookOptions): Promise<HookRecord> {
  const started = performance.now();
  const base = { event: "hook" as const, phase: opts.phase, file };
  return new Promise((resolve) => {
    let timedOut = false;
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;
    const finish = (record: Omit<HookRecord, "event" | "phase" | "file" | "durationMs">): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(killTimer);
      resolve({ ...base, ...record, durationMs: Math.round(performance.now() - started) });
    };
    // stdout goes to our stderr too: our stdout is reserved for the data the user asked for.
    const child = spawn(file, [], { cwd: opts.cwd, env: opts.env, stdio: ["ignore", 2, 2], shell: false });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGTERM");
      killTimer = setTimeout(() => child.kill("SIGKILL"), killGraceMs);
      killTimer.unref();
    }, opts.timeoutMs);
    child.once("error", (error: NodeJS.ErrnoException) => {
      finish({ status: "spawn-error", exitCode: null, message: `could not be started (${error.code ?? error.message})` });
    });
    child.once("exit", (code, signal) => {
      if (timedOut) {
        finish({ status: "timed-out", exitCode: code, ...(signal ? { signal } : {}), message: `timed out after ${formatSeconds(opts.timeoutMs)} and was killed (raise DROPKIT_HOOK_TIMEOUT if it needs longer)` });
      } else if (signal) {
        finish({ status: "failed", exitCode: null, signal, message: `was killed by ${signal}` });
      } else if (code !== 0) {
        finish({ status: "failed", exitCode: code, message: `failed with exit code ${code}` });
      } else {
        finish({ status: "ok", exitCode: 0 });
      }
    });
  });
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}
