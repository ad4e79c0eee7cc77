// SIGINT, SIGTERM and SIGHUP as an AbortSignal for the running command, or the kernel's while user code runs; the exit code a shell expects.

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
  private readonly hurried = new AbortController();

  constructor(signal: StopSignal) {
    super(`Interrupted by ${described[signal]}`);
    this.signal = signal;
    this.exitCode = signalExitCodes[signal];
    this.hurry = this.hurried.signal;
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
    if (exiting)
      return `${this.message}, then by another signal: dropkit exited at once, before it finished putting things back (the running hook's processes were killed).`;
    if (this.hurry.aborted)
      return `${this.message}, then by a second signal: the running hook's processes were killed at once (SIGKILL), and the run stopped before finishing. Run the command again to finish.`;
    return `${this.message}: the run stopped before finishing, and no process it started is left running. Run the command again to finish.`;
  }
}

/** A trap installed by `trapSignals`. */
export interface SignalTrap {
  /** Aborted at the first signal, with an `Interrupted` as its `reason`. */
  readonly signal: AbortSignal;
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
}

/**
 * Installs listeners for SIGINT, SIGTERM and SIGHUP for the length of one command.
 *
 * - The first signal aborts `signal`: the command stops what it runs (a hook's whole process group gets
 *   SIGTERM, then SIGKILL after a grace period), unwinds so that nothing is half done (the state put back),
 *   and exits with the signal's code.
 * - A second signal means "now": `reason.hurry` is aborted, so a running hook's group is killed at once,
 *   and the run gets `hurryExitMs` to finish unwinding (milliseconds, unless a step that cannot be stopped
 *   is running); then `onExit` runs and the process exits with the first signal's code. Every `exit`
 *   listener runs then, which is where a running hook's group is killed.
 * - A third signal exits at once in the same way.
 *
 * Call `release` when the command ends; dropkit used as a library keeps Node's defaults. While a config's code runs
 * (`withDefaultSignals`), the listeners are away and the kernel's default action applies.
 */
export function trapSignals(options: TrapOptions = {}): SignalTrap {
  const target = options.target ?? process;
  // Taken now: while a config's code runs, the loader turns process.exit into a throw (a config must not end the run).
  const exit = options.exit ?? process.exit.bind(process);
  const controller = new AbortController();
  const listeners = new Map<StopSignal, () => void>();
  const trap: Installed = {
    signal: controller.signal,
    attach: () => {
      for (const [name, listener] of listeners) target.on(name, listener);
    },
    detach: () => {
      for (const [name, listener] of listeners) target.off(name, listener);
    },
  };
  let timer: NodeJS.Timeout | undefined;
  const exitNow = (reason: Interrupted): void => {
    clearTimeout(timer);
    options.onExit?.(reason);
    exit(reason.exitCode);
  };
  for (const name of Object.keys(signalExitCodes) as StopSignal[]) {
    const listener = (): void => {
      if (!controller.signal.aborted) {
        controller.abort(new Interrupted(name));
        return;
      }
      const reason = controller.signal.reason as Interrupted;
      if (reason.hurry.aborted) {
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
  if (defaultDepth === 0) trap.attach();
  return {
    signal: controller.signal,
    release() {
      clearTimeout(timer);
      if (installed.delete(trap) && defaultDepth === 0) trap.detach();
      listeners.clear();
    },
  };
}

/** A trap's listeners, which `withDefaultSignals` takes away and puts back. */
interface Installed {
  readonly signal: AbortSignal;
  attach(): void;
  detach(): void;
}

/** The traps not yet released. */
const installed = new Set<Installed>();
/** How many `withDefaultSignals` calls are running (presets may be evaluated while a config is). */
let defaultDepth = 0;

/**
 * Runs `work` (the evaluation of a config's or a preset's code) with SIGINT, SIGTERM and SIGHUP left to the kernel:
 * every trap's listeners are removed until it settles, so that the first signal ends the process at once (a shell
 * reports 130, 143 or 129), even while that code blocks the main thread (`while (true) {}`, an `execSync` that
 * hangs), where no listener could ever run: Node hands the signal to a listener only from its event loop, and
 * disables the default action while one is installed. Nothing is written before a config is known, so there is
 * nothing to put back. Only dropkit's own traps are removed: a host program's listeners (the library) stay.
 *
 * @throws Interrupted when a signal arrived before `work` began (it is not started then).
 */
export async function withDefaultSignals<T>(work: () => Promise<T>): Promise<T> {
  if (defaultDepth === 0 && installed.size > 0) {
    // A signal the kernel has delivered but Node has not yet handed to a listener would be lost with the listeners:
    // one turn of the event loop hands it over first.
    await new Promise((resolve) => setImmediate(resolve));
    for (const trap of installed) trap.signal.throwIfAborted();
  }
  if (defaultDepth++ === 0) for (const trap of installed) trap.detach();
  try {
    return await work();
  } finally {
    if (--defaultDepth === 0) for (const trap of installed) trap.attach();
  }
}

/** The `Interrupted` that stopped a run, if `signal` was aborted by `trapSignals`. */
export function interruptionOf(signal: AbortSignal | undefined): Interrupted | null {
  return signal?.aborted && signal.reason instanceof Interrupted ? signal.reason : null;
}
