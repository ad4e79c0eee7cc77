// Running the init and post hook scripts: each executable file of a directory, in name order, its output cut into lines for `hook-output` records.

import path from "node:path";
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { fail } from "../errors.js";
import { closeHooks, type HeldHooks, type HookEntry, type HookPhase, launchOf, openHooks } from "./held.js";
import { signalGroup, stopGroup } from "./group.js";
import { interruptionOf } from "../signals.js";
import { trustPolicy, type TrustScope } from "../files/trust.js";

/** How one hook ended, or why there was none to run. */
export type HookStatus = "ok" | "failed" | "timed-out" | "interrupted" | "spawn-error" | "skipped" | "no-directory";

/** One entry of the decisions log (event `hook`). */
export interface HookRecord {
  event: "hook";
  phase: HookPhase;
  /** Absolute path of the hook; for `no-directory`, of the directory that is missing. */
  file: string;
  /** How it ended. `skipped`: not run, an entry that is no hook (a file without execute permission, a directory). */
  status: HookStatus;
  /** The exit code; `null` when killed by a signal, never started, or not run. */
  exitCode: number | null;
  /** The signal that ended it, when one did (e.g. `SIGTERM` after a timeout or an interruption). */
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
  /**
   * For the HookFailed message: where `onFailure: "fail"` was set (", set by the preset \"standard\"...") and how to opt
   * out. @default nothing said of where; the fix is to set it to "continue"
   */
  onFailureOrigin?: { from: string; fix: string };
  phase: HookPhase;
  /** The environment the hooks get. */
  env: NodeJS.ProcessEnv;
  /** How long one hook may run before it is killed, in ms; see `hookTimeoutMs`. */
  timeoutMs: number;
  /** Receives one record per hook (and one when the directory is missing). */
  log: (record: HookRecord) => void;
  /**
   * When given, the hooks' stdout and stderr are captured through pipes and handed over line by line (the
   * JSON log: a hook can never write a record of its own). Otherwise both go straight to our stderr.
   */
  output?: (record: HookOutputRecord) => void;
  /** Aborting it stops the running hook's whole process group and the run (see `trapSignals`). */
  signal?: AbortSignal;
  /**
   * Told the process group of each hook as it starts, and `null` once that group is empty (the folder's lock
   * records it: a run whose process is gone is not over while its hook runs).
   */
  onGroup?: (pgid: number | null) => void;
  /**
   * Whose hooks may run (src/files/trust.ts): the directory, the directories above it and each hook are checked before any
   * runs. @default the policy of `env`, fenced at `cwd`
   */
  trust?: TrustScope;
}

/** One line of a hook's output, captured for the JSON log (event `hook-output`). */
export interface HookOutputRecord {
  event: "hook-output";
  phase: HookPhase;
  /** Absolute path of the hook. */
  file: string;
  stream: "stdout" | "stderr";
  /** One line without its newline; invalid UTF-8 replaced by U+FFFD; at most `maxLineLength` characters. */
  text: string;
  /** Present (`true`) when the line was longer than `maxLineLength` and goes on in the next record. */
  continues?: true;
}

/**
 * The most UTF-16 code units one `hook-output` record holds. A longer line is written as several records,
 * each but the last marked `continues: true`, so that nothing is lost and a hook that prints without
 * newlines cannot make dropkit buffer without bound.
 *
 * @default 8192
 */
export const maxLineLength = 8192;

/** What a phase's hooks did. */
export interface HookOutcome {
  /** Absolute path of the hooks directory. */
  dir: string;
  /** `false` when the directory does not exist, which means no hooks. */
  exists: boolean;
  /** One record per executable hook that was started, in run order. */
  ran: HookRecord[];
  /** Entries of the directory that were not run because they are no hooks (not executable, a directory...), in name order. */
  skipped: string[];
  /**
   * For the caller to log as warnings, each with its hook as the source: one per failed hook (with `onFailure:
   * continue`), and one per file whose name is not valid UTF-8 (it cannot be run by name, as such an archive cannot be read).
   */
  warnings: Array<{ message: string; source: string }>;
}

/**
 * @default 60 s per hook, when `DROPKIT_HOOK_TIMEOUT` is unset or empty. The variable's value rule (seconds, up to what
 * a timer holds) is the core's: a resolve answer carries the timeout it sets as `hookTimeoutMs` (docs/abi.md).
 */
export const defaultHookTimeoutMs = 60_000;

/** How long a hook's process group gets to exit on SIGTERM (after a timeout, an interruption, or the hook's own exit) before SIGKILL. */
const killGraceMs = 2000;

/**
 * Runs every executable regular file of `dir`, in name order (code-unit order), directly — no shell,
 * no interpolation — with `opts.cwd` as working directory, stdin closed, and both stdout and stderr
 * forwarded to this process's stderr (stdout carries only requested data), or captured line by line
 * when `opts.output` is given. Symbolic links to executable files run; hidden files (`.name`) are ignored; any other
 * entry (a file without the execute bit, a subdirectory) is logged as `skipped` at its turn in name order.
 *
 * Each hook leads its own process group. When it exits, whatever it left running in the group is stopped
 * (SIGTERM, then SIGKILL after a grace period), so that no process outlives the run; a process that leaves
 * the group on purpose (`setsid`) is out of reach (and is not counted by the folder's lock, see `opts.onGroup`). A hook
 * fails when it exits non-zero, is killed by a signal, cannot be started, or runs longer than `opts.timeoutMs` (then its
 * whole group is stopped).
 *
 * Before any hook runs, the directory (with the directories above it, up to `opts.trust.fence`, as written and as
 * resolved after links) and every hook in it must be trusted: owned by the user or root and writable by no one else
 * (src/files/trust.ts). A hook runs as the file that was judged: the directory and each hook are opened once when the
 * phase starts, judged on their descriptors, and each hook is executed from its own descriptor (on Linux it is the
 * hook's fd 3 and runs as `/proc/self/fd/3`, so a script's `$0` is that; its path in the hooks directory is in the
 * `dropkit_hook` variable). A hook renamed, replaced or removed after the phase started runs as it was then; a file
 * added later does not run.
 *
 * @param dir - The hooks directory; a missing one means no hooks.
 * @throws DropkitError `HookFailed` (exit 1) on the first failing hook when `onFailure` is `fail`;
 *   `IOError` (74) when the directory exists but cannot be listed; `UntrustedFile` (77) when it or a hook is not trusted.
 * @throws Interrupted (the reason of `opts.signal`) once the signal is aborted: the running hook's group
 *   is stopped and logged as `interrupted`, and no further hook starts.
 */
export async function runHooks(dir: string, opts: HookOptions): Promise<HookOutcome> {
  const abs = path.resolve(opts.cwd, dir);
  const outcome: HookOutcome = { dir: abs, exists: true, ran: [], skipped: [], warnings: [] };
  const held = openHooks(abs, opts.phase, opts.trust ?? { policy: trustPolicy(opts.env), fence: path.resolve(opts.cwd) });
  if (held === null) {
    outcome.exists = false;
    opts.log({
      event: "hook",
      phase: opts.phase,
      file: abs,
      status: "no-directory",
      exitCode: null,
      durationMs: 0,
      message: `no ${opts.phase} hooks: ${abs} does not exist`,
    });
    return outcome;
  }
  try {
    await runHeld(held, opts, outcome);
  } finally {
    closeHooks(held);
  }
  return outcome;
}

/** Runs the hooks of a held directory (see `openHooks`) in name order, each from the descriptor it was judged on. */
async function runHeld(held: HeldHooks, opts: HookOptions, outcome: HookOutcome): Promise<void> {
  for (const file of held.misnamed) {
    outcome.warnings.push({
      message: `The ${opts.phase} hook ${file} is not run: its name is not valid UTF-8, so it cannot be started by name; rename it.`,
      source: file,
    });
  }
  // In name order, each at its turn: an entry that is not run is logged after the hooks ahead of it, and not at all
  // when the run stops before it.
  for (const entry of held.entries) {
    const { file, notRun } = entry;
    if (notRun !== undefined) {
      outcome.skipped.push(file);
      opts.log({
        event: "hook",
        phase: opts.phase,
        file,
        status: "skipped",
        exitCode: null,
        durationMs: 0,
        message: `not run: ${file} ${notRun}`,
      });
      continue;
    }
    opts.signal?.throwIfAborted();
    const record = await runOne(entry, held, opts);
    outcome.ran.push(record);
    opts.log(record);
    opts.signal?.throwIfAborted();
    if (record.status === "ok") continue;
    if (opts.onFailure === "fail") {
      const origin = opts.onFailureOrigin ?? { from: "", fix: 'set hooks.onFailure to "continue"' };
      fail(
        "HookFailed",
        `The ${opts.phase} hook ${file} ${record.message}; the run stopped because hooks.onFailure is "fail"${origin.from}. ` +
          `Fix the hook, or ${origin.fix}.`,
        { file, source: file },
      );
    }
    outcome.warnings.push({
      message: `The ${opts.phase} hook ${file} ${record.message}; continuing because hooks.onFailure is "continue".`,
      source: file,
    });
  }
}

// --- helpers ---

/** Runs one hook to its end, and every process it left in its group, and describes how it ended. */
async function runOne(entry: HookEntry, held: HeldHooks, opts: HookOptions): Promise<HookRecord> {
  const { file } = entry;
  const started = performance.now();
  const base = { event: "hook" as const, phase: opts.phase, file };
  const done = (record: Omit<HookRecord, "event" | "phase" | "file" | "durationMs">): HookRecord => ({
    ...base,
    ...record,
    durationMs: Math.round(performance.now() - started),
  });
  const launch = launchOf(entry, held);
  if (typeof launch === "string") return done({ status: "spawn-error", exitCode: null, message: `could not be started (${launch})` });
  const capture = opts.output !== undefined;
  // detached: the hook leads a new process group (and session), so that everything it starts can be stopped
  // together, and a Ctrl-C at the terminal reaches dropkit alone, which then stops the group itself.
  // Without capture, stdout goes to our stderr too: our stdout is reserved for the data the user asked for.
  // Loaded here, when there is a hook to run: node:child_process (with node:net) is a fair share of a run's start-up.
  const { spawn } = await import("node:child_process");
  // argv0: a program sees the name it was given, not /proc/self/fd/3; a script's $0 is /proc/self/fd/3, so the path it
  // had in the hooks directory is in `dropkit_hook` (lower case: outside the DROPKIT_* settings a nested dropkit reads).
  const child = spawn(launch.command, [], {
    argv0: file,
    cwd: opts.cwd,
    env: { ...opts.env, dropkit_hook: file },
    detached: true,
    shell: false,
    stdio: ["ignore", capture ? "pipe" : 2, capture ? "pipe" : 2, ...launch.extra],
  });
  const streams = capture ? [readLines(child.stdout!, "stdout", file, opts), readLines(child.stderr!, "stderr", file, opts)] : [];
  const pid = child.pid;
  if (pid !== undefined) opts.onGroup?.(pid);
  let stopping: "timeout" | "interrupt" | "exited" | null = null;
  let stopped: Promise<unknown> = Promise.resolve();
  const stop = (why: "timeout" | "interrupt" | "exited"): void => {
    if (stopping !== null || pid === undefined) return;
    stopping = why;
    stopped = stopGroup(pid, killGraceMs);
  };
  // SIGKILL to the whole group, without a grace period: at a second signal, and when anything ends dropkit
  // (a last signal, an uncaught error), so that the group never outlives it.
  const killNow = (): void => void (pid !== undefined && signalGroup(pid, "SIGKILL"));
  const onAbort = (): void => {
    stop("interrupt");
    interruptionOf(opts.signal)?.hurry.addEventListener("abort", killNow, { once: true });
  };
  process.on("exit", killNow);
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => stop("timeout"), opts.timeoutMs);
  try {
    const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null } | { error: NodeJS.ErrnoException }>(
      (resolve) => {
        child.once("error", (error: NodeJS.ErrnoException) => resolve({ error }));
        child.once("exit", (code, signal) => resolve({ code, signal }));
      },
    );
    clearTimeout(timer);
    // The hook has exited: what it left running in its group (`sleep &`) is stopped too, so that nothing holds
    // our stderr or the capture pipes, and nothing outlives the run.
    stop("exited");
    await stopped;
    // The group is empty now, and its number free for the system to reuse: never signal it again.
    if (pid !== undefined) opts.onGroup?.(null);
    process.off("exit", killNow);
    interruptionOf(opts.signal)?.hurry.removeEventListener("abort", killNow);
    await Promise.all(streams.map((s) => s.drain()));
    if ("error" in ended)
      return done({ status: "spawn-error", exitCode: null, message: `could not be started (${ended.error.code ?? ended.error.message})` });
    const { code, signal } = ended;
    const how = signal ? { signal } : {};
    if (stopping === "interrupt") {
      const received = interruptionOf(opts.signal)?.signal ?? "a signal";
      return done({
        status: "interrupted",
        exitCode: code,
        ...how,
        message: `was stopped with every process it started, because dropkit received ${received}`,
      });
    }
    if (stopping === "timeout") {
      return done({
        status: "timed-out",
        exitCode: code,
        ...how,
        message: `timed out after ${formatSeconds(opts.timeoutMs)} and was killed (raise DROPKIT_HOOK_TIMEOUT if it needs longer)`,
      });
    }
    if (signal) return done({ status: "failed", exitCode: null, signal, message: `was killed by ${signal}` });
    if (code !== 0) return done({ status: "failed", exitCode: code, message: `failed with exit code ${code}` });
    return done({ status: "ok", exitCode: 0 });
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener("abort", onAbort);
    interruptionOf(opts.signal)?.hurry.removeEventListener("abort", killNow);
    process.off("exit", killNow);
  }
}

/**
 * Reads one of a hook's output pipes into `hook-output` records. `drain()` resolves at the end of the
 * stream, or `killGraceMs` later when a process that escaped the group (`setsid`) still holds the pipe: then
 * our end is closed. Either way the last line is flushed, even without a newline.
 */
function readLines(stream: Readable, name: "stdout" | "stderr", file: string, opts: HookOptions): { drain(): Promise<void> } {
  const splitter = new LineSplitter((line) =>
    opts.output!({
      event: "hook-output",
      phase: opts.phase,
      file,
      stream: name,
      text: line.text,
      ...(line.continues ? { continues: true } : {}),
    }),
  );
  stream.on("data", (chunk: Buffer) => splitter.push(chunk));
  const closed = new Promise<void>((resolve) => {
    stream.once("close", resolve);
    stream.once("error", () => resolve());
  });
  return {
    async drain() {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, killGraceMs)));
      await Promise.race([closed, late]);
      clearTimeout(timer);
      stream.destroy();
      splitter.end();
    },
  };
}

/** One line (or piece of a long line) of output. */
export interface OutputLine {
  text: string;
  /** The line goes on in the next piece: it was longer than `maxLineLength`. */
  continues: boolean;
}

/**
 * Cuts a byte stream into lines: "\n" ends a line (a "\r" before it is dropped, so CRLF output reads the
 * same), invalid UTF-8 becomes U+FFFD, a line longer than `maxLength` is cut into pieces, and `end()`
 * flushes a last line that has no newline.
 */
export class LineSplitter {
  private readonly decoder = new StringDecoder("utf8");
  private pending = "";

  /**
   * @param emit - Receives each line or piece, in order.
   * @param maxLength - The longest piece. @default maxLineLength
   */
  constructor(
    private readonly emit: (line: OutputLine) => void,
    private readonly maxLength = maxLineLength,
  ) {}

  /** Takes the next bytes; a UTF-8 sequence split between two chunks is joined. */
  push(chunk: Buffer): void {
    this.pending += this.decoder.write(chunk);
    let newline: number;
    while ((newline = this.pending.indexOf("\n")) !== -1) {
      const line = this.pending.slice(0, newline);
      this.pending = this.pending.slice(newline + 1);
      this.emitLine(line.endsWith("\r") ? line.slice(0, -1) : line);
    }
    while (this.pending.length > this.maxLength) this.pending = this.cut(this.pending);
  }

  /** Flushes what is left: an incomplete UTF-8 sequence (as U+FFFD) and a last line without a newline. */
  end(): void {
    this.pending += this.decoder.end();
    const rest = this.pending;
    this.pending = "";
    if (rest !== "") this.emitLine(rest);
  }

  private emitLine(line: string): void {
    let rest = line;
    while (rest.length > this.maxLength) rest = this.cut(rest);
    this.emit({ text: rest, continues: false });
  }

  /** Emits the first piece of `text` as a continued piece and returns the rest; a surrogate pair is never split. */
  private cut(text: string): string {
    let at = this.maxLength;
    const unit = text.charCodeAt(at - 1);
    if (unit >= 0xd800 && unit <= 0xdbff) at -= 1;
    this.emit({ text: text.slice(0, at), continues: true });
    return text.slice(at);
  }
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}
