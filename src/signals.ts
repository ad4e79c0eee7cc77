// SIGINT, SIGTERM and SIGHUP as a stop the running command checks, or the kernel's while a config's code runs; the exit code a shell expects.

import { createHook, executionAsyncResource, type AsyncHook } from "node:async_hooks";

/** The signals that stop a run, and the exit code each ends it with: 128 + the signal's number, as shells report. */
export const signalExitCodes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/** A signal that stops a run. */
export type StopSignal = keyof typeof signalExitCodes;

/** After a second signal, how long the run gets to put things back before the process exits anyway. @default 1000 */
export const hurryExitMs = 1000;

/** What people call each signal, for messages. */
const described: Record<StopSignal, string> = {
  SIGINT: "SIGINT (Ctrl-C)",
  SIGTERM: "SIGTERM",
  SIGHUP: "SIGHUP",
};

/**
 * The reason of an interrupted run's `AbortSignal`: which signal arrived and the exit code to end with.
 * `signal.throwIfAborted()` throws it, so a command stops at its next check like at any other failure.
 * Not a `DropkitError`: an interrupted run is not a problem with the input, and never a bug.
 */
export class Interrupted extends Error {
  override readonly name = "Interrupted";
  /** The signal that stopped the run (the first one, when several arrived). */
  readonly signal: StopSignal;
  /** 130, 143 or 129. */
  readonly exitCode: number;
  /** Aborted at a second signal: whatever is being stopped is stopped now, without a grace period. */
  readonly hurry: AbortSignal;
  /** The config or preset file whose code was loading when the signal came (`withDefaultSignals`): nothing was written yet. */
  readonly loading: string | undefined;
  private readonly hurried = new AbortController();

  constructor(signal: StopSignal, loading?: string) {
    super(`Interrupted by ${described[signal]}`);
    this.signal = signal;
    this.exitCode = signalExitCodes[signal];
    this.hurry = this.hurried.signal;
    this.loading = loading;
  }

  /** The text of the note a run that waits for the file to load writes at the first Ctrl-C (`TrapOptions.onWaiting`). */
  waitingNote(): string {
    const waiting = "waiting for it to finish, then the run stops with nothing written";
    return `${this.message} while ${this.loading} is loading: ${waiting}. Press Ctrl-C again to quit now.`;
  }

  /** Aborts `hurry`. */
  hurryUp(): void {
    this.hurried.abort();
  }

  /**
   * The text of the `Interrupted` error record.
   * @param exiting - The run did not unwind in time after a second signal: the process exits now.
   */
  describe(exiting = false): string {
    if (this.loading !== undefined) {
      const when = `${this.message} while ${this.loading} was loading`;
      if (exiting) return `${when}: dropkit stopped at once, without waiting for it; nothing was written.`;
      return `${when}: the run stopped once it had loaded, and nothing was written. Run the command again to finish.`;
    }
    if (exiting) {
      const what = "dropkit exited at once, before it finished putting things back (the running hook's processes were killed)";
      return `${this.message}, then by another signal: ${what}.`;
    }
    if (this.hurry.aborted) {
      const what = "the running hook's processes were killed at once (SIGKILL), and the run stopped before finishing";
      return `${this.message}, then by a second signal: ${what}. Run the command again to finish.`;
    }
    return `${this.message}: the run stopped before finishing, and no process it started is left running. Run the command again to finish.`;
  }
}

/** What a command sees of the trap while it runs: whether a signal has stopped it, and an AbortSignal for what takes one. */
export interface StopCheck {
  /** The first signal's `Interrupted`, or null while none has come. */
  readonly interrupted: Interrupted | null;
  /** Throws `interrupted` once a signal has come, so that a command stops at its next check like at any other failure. */
  throwIfInterrupted(): void;
  /**
   * Aborted at the first signal, with its `Interrupted` as the `reason`: for what takes an AbortSignal (hooks, the digest
   * pool, the lock's wait, prompts). Made when first asked for, already aborted when a signal came before: a command
   * that only checks (`dropkit config`) never makes one, and Node loads its AbortController module only for one.
   */
  readonly signal: AbortSignal;
}

/** A trap installed by `trapSignals`. */
export interface SignalTrap extends StopCheck {
  /** Removes the listeners, so that the process gets Node's default behaviour (exit on the signal) back. */
  release(): void;
}

/** Options for `trapSignals`; the defaults are the real process. */
export interface TrapOptions {
  /** Called once just before the process exits on its own (see `trapSignals`): the place to log the interruption. */
  onExit?: (reason: Interrupted) => void;
  /** Where the signals arrive. @default process */
  target?: Pick<NodeJS.Process, "on" | "off">;
  /** How the process is ended when the run does not unwind in time. @default process.exit */
  exit?: (code: number) => void;
  /** @default hurryExitMs */
  hurryExitMs?: number;
  /**
   * A signal heard while a config's code loads (`withDefaultSignals`; nothing is written before a config is known):
   * "exit" ends the process at once (after `onExit`); "wait" calls `onWaiting` at a first SIGINT, lets the file finish
   * loading and the run stop then, and a second signal ends the process at once. SIGTERM and SIGHUP, which programs
   * send, always end it at once. @default "exit"
   */
  whileLoading?: "exit" | "wait";
  /** Called at a first SIGINT while a config's code loads, with `whileLoading: "wait"`: the place to say so. */
  onWaiting?: (reason: Interrupted) => void;
}

/**
 * Installs listeners for SIGINT, SIGTERM and SIGHUP for the length of one command.
 *
 * - The first signal stops the run (`interrupted`, and `signal` aborted): the command stops what it runs (a hook's whole process group gets
 *   SIGTERM, then SIGKILL after a grace period), unwinds so that nothing is half done (the state put back),
 *   and exits with the signal's code.
 * - A second signal means "now": `reason.hurry` is aborted, so a running hook's group is killed at once,
 *   and the run gets `hurryExitMs` to finish unwinding (milliseconds, unless a step that cannot be stopped
 *   is running); then `onExit` runs and the process exits with the first signal's code. Every `exit`
 *   listener runs then, which is where a running hook's group is killed.
 * - A third signal exits at once in the same way.
 *
 * Call `release` when the command ends; dropkit used as a library keeps Node's defaults. While a config's code runs
 * (`withDefaultSignals`), the listeners are away and the kernel's default action applies; while that code waits (the
 * main thread idle), they are back, and a signal is acted on at once as `whileLoading` says.
 */
export function trapSignals(options: TrapOptions = {}): SignalTrap {
  const target = options.target ?? process;
  // Taken now: while a config's code runs, the loader turns process.exit into a throw (a config must not end the run).
  const exit = options.exit ?? process.exit.bind(process);
  let stopped: Interrupted | null = null;
  let controller: AbortController | undefined;
  const listeners = new Map<StopSignal, () => void>();
  let timer: NodeJS.Timeout | undefined;
  const stop: SignalTrap = {
    get interrupted() {
      return stopped;
    },
    throwIfInterrupted() {
      if (stopped) throw stopped;
    },
    get signal() {
      if (controller === undefined) {
        controller = new AbortController();
        if (stopped) controller.abort(stopped);
      }
      return controller.signal;
    },
    release() {
      clearTimeout(timer);
      if (installed.delete(trap) && listening) trap.detach();
      listeners.clear();
    },
  };
  const trap: Installed = {
    check: stop,
    attach: () => {
      for (const [name, listener] of listeners) target.on(name, listener);
    },
    detach: () => {
      for (const [name, listener] of listeners) target.off(name, listener);
    },
  };
  const exitNow = (reason: Interrupted): void => {
    clearTimeout(timer);
    options.onExit?.(reason);
    exit(reason.exitCode);
  };
  for (const name of Object.keys(signalExitCodes) as StopSignal[]) {
    const listener = (): void => {
      if (stopped === null) {
        const reason = new Interrupted(name, loadingFiles.at(-1));
        stopped = reason;
        controller?.abort(reason);
        if (reason.loading === undefined) return;
        if (name === "SIGINT" && options.whileLoading === "wait") options.onWaiting?.(reason);
        else exitNow(reason);
        return;
      }
      const reason = stopped;
      // While a file loads there is nothing to put back, and nothing to hurry: now.
      if (reason.hurry.aborted || loadingFiles.length > 0) {
        exitNow(reason);
        return;
      }
      reason.hurryUp();
      timer = setTimeout(() => exitNow(reason), options.hurryExitMs ?? hurryExitMs);
      // Only a bound: a run that has unwound ends the process itself.
      timer.unref();
    };
    listeners.set(name, listener);
  }
  installed.add(trap);
  if (listening) trap.attach();
  return stop;
}

/** A trap's listeners, which `withDefaultSignals` takes away and puts back. */
interface Installed {
  readonly check: StopCheck;
  attach(): void;
  detach(): void;
}

/** The traps not yet released. */
const installed = new Set<Installed>();
/** Whether the traps' listeners are on: always, except while a config's code may run (`withDefaultSignals`). */
let listening = true;
/** The files whose code is loading (presets may be evaluated while a config is), the innermost last. */
const loadingFiles: string[] = [];

function listen(on: boolean): void {
  if (on === listening) return;
  listening = on;
  for (const trap of installed) {
    if (on) trap.attach();
    else trap.detach();
  }
}

/**
 * Runs `work` (the evaluation of `file`, a config's or a preset's code) with SIGINT, SIGTERM and SIGHUP left to the
 * kernel while that code runs: the first signal ends the process at once (a shell reports 130, 143 or 129), even while
 * the code blocks the main thread (`while (true) {}`, an `execSync` that hangs), where no listener could ever run:
 * Node hands a signal to a listener only from its event loop, and disables the default action while one is installed.
 * Nothing is written before a config is known, so there is nothing to put back. Only dropkit's own traps are removed: a
 * host program's listeners (the library) stay.
 *
 * While the code waits (a timer, I/O, a child process: the event loop idle, with none of it running), the traps listen
 * again (on Node; see `CodeWatch`), so that a signal then is heard at once, and the command can say so before it ends
 * (`TrapOptions.whileLoading`).
 *
 * @throws Interrupted when a signal arrived before `work` began (it is not started then).
 */
export async function withDefaultSignals<T>(file: string, work: () => Promise<T>): Promise<T> {
  if (installed.size > 0) {
    // A signal the kernel has delivered but Node has not yet handed to a listener would be lost with the listeners:
    // one turn of the event loop hands it over first.
    if (listening) await new Promise((resolve) => setImmediate(resolve));
    for (const trap of installed) trap.check.throwIfInterrupted();
  }
  const outermost = loadingFiles.length === 0;
  loadingFiles.push(file);
  let watch: CodeWatch | undefined;
  let pending: Promise<T>;
  try {
    listen(false);
    watch = outermost && installed.size > 0 ? CodeWatch.start() : undefined;
    // The code's first stretch runs in this call: the watch counts it as running.
    pending = work();
  } catch (error) {
    pending = Promise.reject(error);
  } finally {
    watch?.ran();
  }
  try {
    return await pending;
  } finally {
    loadingFiles.pop();
    if (outermost) {
      watch?.stop();
      listen(true);
    }
  }
}

/**
 * Tells when a config's code may be running from when it waits, so that dropkit's listeners are on only in between:
 * every callback the event loop makes (a timer, I/O, a promise's continuation; `async_hooks` `before` and `after`)
 * takes them away before it runs, and once the loop has made none for `quietMs`, a timer of its own puts them back.
 * A signal's own callback leaves them on (the listener must hear it). Only on Node: elsewhere `start` gives nothing,
 * and the kernel's default action holds while the code loads, as it does for a signal that comes while a callback runs.
 */
class CodeWatch {
  /** How long the loop must make no callback before the listeners are put back: toggling them after every callback would cost. */
  static readonly quietMs = 50;
  private readonly hook: AsyncHook;
  /** Callbacks running, this call of `withDefaultSignals` counting as one until `ran`. */
  private depth = 1;
  /** Callbacks made so far, and their count when the timer was set. */
  private calls = 0;
  private callsAtTimer = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  static start(): CodeWatch | undefined {
    if (process.versions.bun !== undefined || process.versions.deno !== undefined || typeof createHook !== "function") return undefined;
    return new CodeWatch();
  }

  private constructor() {
    this.hook = createHook({
      before: () => {
        this.depth++;
        const resource = executionAsyncResource();
        if (resource === this.timer) return;
        if (isSignalHandle(resource)) return;
        this.calls++;
        listen(false);
      },
      after: () => {
        if (this.depth > 0) this.depth--;
        if (this.depth === 0) this.wait();
      },
    });
    this.hook.enable();
  }

  /** The synchronous call into the code has returned. */
  ran(): void {
    if (--this.depth === 0) this.wait();
  }

  stop(): void {
    this.stopped = true;
    this.hook.disable();
    clearTimeout(this.timer);
  }

  /** The loop has no callback running: the listeners go back on once it has made none for `quietMs`. */
  private wait(): void {
    if (this.stopped || listening || this.timer !== undefined) return;
    this.callsAtTimer = this.calls;
    // Unref'd: it never keeps the process alive by itself (a config that can never settle is told by the loop emptying).
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.stopped) return;
      if (this.calls !== this.callsAtTimer) this.wait();
      else this.listen();
    }, CodeWatch.quietMs).unref();
  }

  private listen(): void {
    if (signalHandle !== undefined) {
      listen(true);
      return;
    }
    // Learnt once, outside the hooks' callbacks (Node runs no hook that is turned on inside one).
    const probe = createHook({
      init: (_id, type, _trigger, resource) => {
        if (type === "SIGNALWRAP") signalHandle ??= (resource as object).constructor as SignalHandle;
      },
    });
    probe.enable();
    try {
      listen(true);
    } finally {
      probe.disable();
    }
  }
}

/** The `Interrupted` that stopped a run, if `signal` was aborted by `trapSignals`. */
export function interruptionOf(signal: AbortSignal | undefined): Interrupted | null {
  return signal?.aborted && signal.reason instanceof Interrupted ? signal.reason : null;
}

/** A Node signal handle's class. */
type SignalHandle = abstract new (...args: never[]) => unknown;

/** The class of Node's signal handles (`SIGNALWRAP` resources), learnt when the listeners are first put back (`CodeWatch`). */
let signalHandle: SignalHandle | undefined;

/**
 * Whether an async resource is a signal handle: its callback is a signal, for the listeners to hear. Never throws
 * (inside a hook, a throw ends the process).
 */
function isSignalHandle(resource: unknown): boolean {
  try {
    return signalHandle !== undefined && resource instanceof signalHandle;
  } catch {
    // A resource a config made, whose prototype chain throws: not a signal.
    return false;
  }
}
