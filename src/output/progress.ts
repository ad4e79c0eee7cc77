// The progress line on a terminal: one line on stderr, redrawn in place while archives are read, cleared when done.

/** Where the line is drawn: stderr, or a test's stand-in. */
export interface ProgressTarget {
  write(text: string): unknown;
  isTTY?: boolean;
  /** The terminal's width; the line is cut to fit so that it never wraps (a wrapped line cannot be redrawn). */
  columns?: number;
}

/** Options of `ProgressLine`. */
export interface ProgressOptions {
  /** Whether to colour the label. @default false */
  color?: boolean;
  /** Nothing is drawn before this much time has passed (ms): short work stays silent. @default 500 */
  delayMs?: number;
  /** The clock, in ms. @default performance.now */
  now?: () => number;
}

/** The rate is measured over about this many ms, so that it follows the current speed rather than the average. */
const rateWindowMs = 3000;
/** At most one redraw in this many ms. */
const redrawMs = 80;
const eraseLine = "\r\u001b[K";
/** The signals that end a run from the terminal (Ctrl-C, a closed window, kill): the line is erased first. */
const erasingSignals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/**
 * Whether a progress line may be drawn: stderr is a terminal that can redraw a line (not `TERM=dumb`) and the log
 * is text (a JSON log holds records only). `NO_COLOR` only takes the colour away.
 */
export function canShowProgress(target: ProgressTarget, env: NodeJS.ProcessEnv, format: "text" | "json"): boolean {
  return target.isTTY === true && format === "text" && env.TERM !== "dumb";
}

/**
 * The line `reading archives  3/12  612 MB of 2.04 GB  410 MB/s  about 4 s left`, drawn once the work has lasted
 * `delayMs`, redrawn at most every 80 ms, and erased by `stop`, at exit, or on SIGINT, SIGTERM or SIGHUP (which then
 * end the process as they would have, unless something else listens for them).
 */
export class ProgressLine {
  private readonly target: ProgressTarget;
  private readonly options: Required<ProgressOptions>;
  private total = 0;
  private totalBytes = 0;
  private startedAt = 0;
  private samples: Array<[number, number]> = [];
  private drawnAt = -Infinity;
  private shown = false;
  private stopped = true;
  private readonly onExit = (): void => this.erase();
  private readonly onSignal = (signal: NodeJS.Signals): void => {
    // Stopped, not only erased: the work is ending, and a late update must not draw the line again.
    this.stop();
    // Listening changed what the signal does; with no other listener its default (ending the process) is what should happen.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };

  constructor(target: ProgressTarget, options: ProgressOptions = {}) {
    this.target = target;
    this.options = { color: false, delayMs: 500, now: () => performance.now(), ...options };
  }

  /** Starts the clock for work of `total` archives and `totalBytes` bytes to hash. */
  start(total: number, totalBytes: number): void {
    this.total = total;
    this.totalBytes = totalBytes;
    this.startedAt = this.options.now();
    this.samples = [[this.startedAt, 0]];
    this.drawnAt = -Infinity;
    this.stopped = false;
  }

  /** Records how far the work is, and redraws when it is time to. */
  update(done: number, bytes: number): void {
    if (this.stopped) return;
    const now = this.options.now();
    this.samples.push([now, bytes]);
    while (this.samples.length > 2 && now - this.samples[1]![0] > rateWindowMs) this.samples.shift();
    if (now - this.startedAt < this.options.delayMs || now - this.drawnAt < redrawMs) return;
    if (!this.shown) {
      this.shown = true;
      process.once("exit", this.onExit);
      for (const signal of erasingSignals) process.on(signal, this.onSignal);
    }
    this.drawnAt = now;
    this.target.write(eraseLine + this.fit(this.render(done, bytes, now)));
  }

  /** Erases the line if it was drawn; later updates draw nothing. */
  stop(): void {
    this.stopped = true;
    this.erase();
  }

  private erase(): void {
    if (!this.shown) return;
    this.shown = false;
    process.removeListener("exit", this.onExit);
    for (const signal of erasingSignals) process.removeListener(signal, this.onSignal);
    this.target.write(eraseLine);
  }

  private render(done: number, bytes: number, now: number): string {
    const { total, totalBytes } = this;
    const { color } = this.options;
    const [since, from] = this.samples[0]!;
    const rate = now > since ? ((bytes - from) / (now - since)) * 1000 : 0;
    const left = rate > 0 ? `about ${formatDuration((totalBytes - bytes) / rate)} left` : "";
    const label = color ? "\u001b[36mreading archives\u001b[0m" : "reading archives";
    const parts = [
      label,
      `${done}/${total}`,
      `${formatBytes(bytes)} of ${formatBytes(totalBytes)}`,
      rate > 0 ? `${formatBytes(rate)}/s` : "",
      left,
    ];
    return parts.filter((p) => p !== "").join("  ");
  }

  /** Cuts the line to the terminal's width less one column, counting only what is printed (not colour codes). */
  private fit(line: string): string {
    const width = (this.target.columns ?? 80) - 1;
    let visible = 0;
    let out = "";
    for (let i = 0; i < line.length; i++) {
      if (line[i] === "\u001b") {
        const end = line.indexOf("m", i);
        out += line.slice(i, end + 1);
        i = end;
        continue;
      }
      if (visible === width) break;
      out += line[i];
      visible++;
    }
    return out;
  }
}

/** Bytes in decimal units with three significant digits: `612 MB`, `2.04 GB`, `980 B`. */
export function formatBytes(bytes: number): string {
  const units = ["B", "kB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 999.5 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = unit === 0 || value >= 99.95 ? 0 : value >= 9.995 ? 1 : 2;
  return `${value.toFixed(digits)} ${units[unit]}`;
}

/** Seconds as people read a time left: `<1 s`, `12 s`, `3 min 05 s`. */
export function formatDuration(seconds: number): string {
  if (seconds < 1) return "<1 s";
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
}
