// A language server's client as editors are one: the server started over stdio, JSON-RPC messages framed by Content-Length headers.
// For the server's tests and its bench.

import { type ChildProcess, spawn } from "node:child_process";

/** A JSON-RPC response: a result, or an error with its code. */
export interface Response {
  id: number | string | null;
  result?: any;
  error?: { code: number; message: string; data?: unknown };
}

/** A notification the server sent. */
export interface Notification {
  method: string;
  params: any;
}

/** How the server process ended. */
export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * A client of one server process. Requests the server makes of the client (it may ask for configuration or to register
 * a capability) are answered with `null`, as a client without those features answers.
 */
export class LspClient {
  readonly process: ChildProcess;
  /** Settles when the server process has exited. */
  readonly exited: Promise<Exit>;
  /** What the server wrote on stderr. */
  stderr = "";
  private input = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number | string | null, (response: Response) => void>();
  private readonly notifications: Notification[] = [];
  private readonly waiters: Array<() => void> = [];

  constructor(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
    this.process = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "pipe"] });
    this.process.stdout!.on("data", (chunk: Buffer) => this.read(chunk));
    this.process.stderr!.on("data", (chunk: Buffer) => {
      this.stderr += chunk.toString("utf8");
    });
    // A write after the server left is the test's to judge (by `exited`), not an unhandled error.
    this.process.stdin!.on("error", () => {});
    this.exited = new Promise((resolve) => this.process.once("exit", (code, signal) => resolve({ code, signal })));
  }

  /** Sends a message as it is, framed. */
  send(message: object): void {
    this.sendText(JSON.stringify(message));
  }

  /** Sends a body as it is (which need not be JSON), framed by its length in bytes. */
  sendText(body: string): void {
    const bytes = Buffer.from(body, "utf8");
    this.process.stdin!.write(Buffer.concat([Buffer.from(`Content-Length: ${bytes.length}\r\n\r\n`, "ascii"), bytes]));
  }

  /** Sends a request and waits for its response (a result or an error), at most `timeoutMs`. */
  request(method: string, params?: unknown, timeoutMs = 10_000): Promise<Response> {
    const id = this.nextId++;
    const answered = new Promise<Response>((resolve) => this.pending.set(id, resolve));
    this.send({ jsonrpc: "2.0", id, method, ...(params !== undefined ? { params } : {}) });
    return within(answered, timeoutMs, `the response to ${method}`);
  }

  /** Waits for the response with `id` to a request sent with `send` or `sendText`. */
  response(id: number | string | null, timeoutMs = 10_000): Promise<Response> {
    return within(new Promise<Response>((resolve) => this.pending.set(id, resolve)), timeoutMs, `the response to request ${id}`);
  }

  notify(method: string, params?: unknown): void {
    this.send({ jsonrpc: "2.0", method, ...(params !== undefined ? { params } : {}) });
  }

  /** The `initialize` request and the `initialized` notification, as an editor starts a session. */
  async initialize(rootUri: string | null, processId: number | null = process.pid): Promise<Response> {
    const response = await this.request("initialize", { processId, rootUri, capabilities: {}, clientInfo: { name: "dropkit-tests" } });
    this.notify("initialized", {});
    return response;
  }

  /**
   * The first notification (taken from those received, in order) for which `match` holds, waiting for it at most
   * `timeoutMs`; it is taken off the list, so that the next call finds the next one.
   */
  async notification(match: (n: Notification) => boolean, timeoutMs = 10_000, what = "a notification"): Promise<Notification> {
    const take = (): Notification | undefined => {
      const at = this.notifications.findIndex(match);
      return at < 0 ? undefined : this.notifications.splice(at, 1)[0];
    };
    const found = take();
    if (found) return found;
    return within(
      new Promise<Notification>((resolve) => {
        const check = () => {
          const next = take();
          if (next) resolve(next);
          else this.waiters.push(check);
        };
        this.waiters.push(check);
      }),
      timeoutMs,
      what,
    );
  }

  /** The next diagnostics published for `uri`. */
  async diagnostics(uri: string, timeoutMs = 10_000): Promise<{ uri: string; version?: number; diagnostics: any[] }> {
    const n = await this.notification(
      (n) => n.method === "textDocument/publishDiagnostics" && n.params.uri === uri,
      timeoutMs,
      `diagnostics for ${uri}`,
    );
    return n.params;
  }

  /** Ends the session as an editor does: `shutdown`, then `exit`; returns how the process ended. */
  async shutdown(timeoutMs = 10_000): Promise<Exit> {
    await this.request("shutdown", undefined, timeoutMs);
    this.notify("exit");
    return within(this.exited, timeoutMs, "the server to exit");
  }

  /** Kills the server if it is still running (the test's cleanup). */
  kill(): void {
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill("SIGKILL");
  }

  private read(chunk: Buffer): void {
    this.input = Buffer.concat([this.input, chunk]);
    for (;;) {
      const end = this.input.indexOf("\r\n\r\n");
      if (end < 0) return;
      const length = Number(/Content-Length: *(\d+)/i.exec(this.input.subarray(0, end).toString("ascii"))?.[1]);
      if (!Number.isInteger(length)) throw new Error(`a message from the server without Content-Length: ${this.input.subarray(0, end)}`);
      if (this.input.length < end + 4 + length) return;
      const message = JSON.parse(this.input.subarray(end + 4, end + 4 + length).toString("utf8"));
      this.input = this.input.subarray(end + 4 + length);
      this.dispatch(message);
    }
  }

  private dispatch(message: any): void {
    if (message.method !== undefined && message.id !== undefined) {
      // A request of the server's: answered as a client without the feature answers.
      this.send({ jsonrpc: "2.0", id: message.id, result: null });
    } else if (message.method !== undefined) {
      this.notifications.push({ method: message.method, params: message.params });
      for (const waiter of this.waiters.splice(0)) waiter();
    } else {
      const resolve = this.pending.get(message.id);
      this.pending.delete(message.id);
      resolve?.(message);
    }
  }
}

/** `promise`, or a rejection naming `what` after `timeoutMs`. */
export function within<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
