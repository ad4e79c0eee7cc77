// The CLI's standard output and error: a terminal gets Node's own stream; a file, a pipe or /dev/null gets plain synchronous writes.

import { fstatSync, statSync, writeSync } from "node:fs";

/** Where the CLI writes: what the decisions log, the progress line and the commands need of a stream. */
export interface StandardStream {
  write(text: string, done?: (error?: Error | null) => void): boolean;
  /** Whether it is a terminal: only then is it Node's `process.stdout` or `process.stderr`, with `columns`. */
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/**
 * The stream for standard output (1) or error (2). Creating `process.stdout` or `process.stderr` loads Node's
 * stream modules (and for a terminal `node:tty` with `node:net`), which a run that only logs a few lines need not pay
 * for (docs/performance.md#loaded-on-first-use).
 * So only what may be a terminal (a character device other than `/dev/null`), anything on Windows, and an fd that
 * cannot be looked at get Node's stream; a regular file, a pipe, a socket or `/dev/null` gets a `DirectWriter`:
 * the same bytes, written at once, in the same order.
 */
export function standardStream(fd: 1 | 2): StandardStream {
  const node = (): NodeJS.WriteStream => {
    const stream = fd === 1 ? process.stdout : process.stderr;
    // Node's stream reports a failed write (ENOSPC on /dev/full, EIO on a closed terminal) as an 'error' event,
    // which without a listener ends the process with exit 1: a code that means HookFailed here.
    if (!listened.has(stream)) {
      listened.add(stream);
      stream.on("error", (error) => noteFailure(fd, error));
    }
    return stream;
  };
  if (process.platform === "win32") return node();
  try {
    const stats = fstatSync(fd);
    if (stats.isCharacterDevice() && stats.rdev !== statSync("/dev/null").rdev) return node();
  } catch {
    return node();
  }
  return new DirectWriter(fd, node);
}

/**
 * Writes text to a file descriptor with `writeSync`, as Node's stream does for files and, on Linux, for pipes:
 * synchronously, so that the log is complete at any exit and in order with what hooks write to the same fd. A
 * pipe left non-blocking by another program (EAGAIN when full) is handed to Node's stream, which waits for the
 * reader, for the rest of the text and every later write. A reader that is gone (EPIPE: `dropkit config | head -1`)
 * ends the writing, not the run: what dropkit does to its files and its exit code do not depend on who reads the log.
 */
export class DirectWriter implements StandardStream {
  readonly isTTY = false;
  private closed = false;
  private stream: NodeJS.WriteStream | undefined;

  /**
   * @param fd - The file descriptor.
   * @param fallback - Node's stream for the same fd, made only when the fd would block.
   */
  constructor(
    private readonly fd: number,
    private readonly fallback: () => NodeJS.WriteStream,
  ) {}

  write(text: string, done?: (error?: Error | null) => void): boolean {
    if (this.stream) return this.stream.write(text, done);
    if (done) queueMicrotask(done);
    if (this.closed || text === "") return true;
    // The text is written as it is (Node encodes it without a Buffer of ours); a Buffer is made only for what a
    // short write left.
    let rest: string | Buffer = text;
    for (;;) {
      let written: number;
      try {
        written = typeof rest === "string" ? writeSync(this.fd, rest) : writeSync(this.fd, rest);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "EAGAIN") {
          this.stream = this.fallback();
          return this.stream.write(rest);
        }
        // EPIPE, EBADF, EIO, ENOSPC...: the text has nowhere to go; the run goes on without it.
        noteFailure(this.fd, error);
        this.closed = true;
        return true;
      }
      if (written >= (typeof rest === "string" ? Buffer.byteLength(rest, "utf8") : rest.length)) return true;
      rest = (typeof rest === "string" ? Buffer.from(rest, "utf8") : rest).subarray(written);
    }
  }
}

/**
 * Why writing to stdout (1) or stderr (2) stopped (`ENOSPC`, `EIO`...), or `undefined` while it works. A reader that
 * closed its end (EPIPE: `dropkit config | head -1`) wanted no more and is not a failure. The CLI ends a run whose
 * requested output (stdout) was lost with IOError; a lost log (stderr) never changes the exit code (src/cli/main.ts).
 */
export function writeFailure(fd: 1 | 2): string | undefined {
  return failures.get(fd);
}

/**
 * Resolves once everything written to `streams` has reached its file descriptor: a `DirectWriter` writes at once,
 * Node's stream (a terminal, or a pipe that would block) may still hold text, which `process.exit` would drop. A
 * stream that fails or closes counts as flushed: there is nothing more to wait for.
 */
export function flushed(streams: StandardStream[]): Promise<void> {
  return Promise.all(
    streams.map(
      (stream) =>
        new Promise<void>((resolve) => {
          const node = stream as Partial<NodeJS.WriteStream>;
          if (node.destroyed || node.writableEnded) return resolve();
          node.once?.("close", () => resolve());
          node.once?.("error", () => resolve());
          // Write callbacks run in order: this one runs once everything written before it is out.
          stream.write("", () => resolve());
        }),
    ),
  ).then(() => undefined);
}

// --- helpers ---

/** The first failure of each fd, as `writeFailure` gives it. */
const failures = new Map<number, string>();

/** Node's streams that have dropkit's 'error' listener. */
const listened = new WeakSet<NodeJS.WriteStream>();

function noteFailure(fd: number, error: unknown): void {
  const code = (error as NodeJS.ErrnoException).code ?? String(error);
  if (code !== "EPIPE" && !failures.has(fd)) failures.set(fd, code);
}
