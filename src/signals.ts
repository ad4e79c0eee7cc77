// Turning SIGINT, SIGTERM and SIGHUP into an AbortSignal for the running command, and the exit code a shell expects.

/** The signals that stop a run, and the exit code each ends it with: 128 + the signal's number, as shells report. */
export const signalExitCodes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/** A signal that stops a run. */
export type StopSignal = keyof typeof signalExitCodes;

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

  constructor(signal: StopSignal) {
    super(`Interrupted by ${described[signal]}`);
    this.signal = signal;
    this.exitCode = signalExitCodes[signal];
  }

  /** The text of the `Interrupted` error record. */
  describe(forced: boolean): string {
    return forced
      ? `${this.message}, then by a second signal while stopping: dropkit exited at once, after killing the running hook's processes (SIGKILL, no grace period).`
      : `${this.message}: the run stopped before finishing, and no process it started is left running. Run the command again to finish.`;
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
  /** Called once at a second signal, just before the process exits: the place to log the interruption. */
  onForce?: (reason: Interrupted) => void;
  /** Where the signals arrive. @default process */
  target?: Pick<NodeJS.Process, "on" | "off">;
  /** How a second signal ends the process. @default process.exit */
  exit?: (code: number) => void;
}

/**
 * Installs listeners for SIGINT, SIGTERM and SIGHUP for the length of one command. The first signal aborts
 * `signal`: the command stops what it runs (a hook's whole process group), unwinds so that nothing is half
 * done, and exits with the signal's code. A second signal means "now": `onForce` runs, then the process
 * exits at once with the first signal's code (every `exit` listener runs, which is where a running hook's
 * group is killed). Call `release` when the command ends; dropkit used as a library keeps Node's defaults.
 */
export function trapSignals(options: TrapOptions = {}): SignalTrap {
  const target = options.target ?? process;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const controller = new AbortController();
  const listeners = new Map<StopSignal, () => void>();
  for (const name of Object.keys(signalExitCodes) as StopSignal[]) {
    const listener = (): void => {
      if (!controller.signal.aborted) {
        controller.abort(new Interrupted(name));
        return;
      }
      const reason = controller.signal.reason as Interrupted;
      options.onForce?.(reason);
      exit(reason.exitCode);
    };
    listeners.set(name, listener);
    target.on(name, listener);
  }
  return {
    signal: controller.signal,
    release() {
      for (const [name, listener] of listeners) target.off(name, listener);
      listeners.clear();
    },
  };
}

/** The `Interrupted` that stopped a run, if `signal` was aborted by `trapSignals`. */
export function interruptionOf(signal: AbortSignal | undefined): Interrupted | null {
  return signal?.aborted && signal.reason instanceof Interrupted ? signal.reason : null;
}
