// Driving the built CLI on a pseudo-terminal (script(1) from util-linux): wait for a prompt's text, then send keys.

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import path from "node:path";
import { cliPath } from "./cli.js";

/** Key sequences as a terminal sends them. */
export const keys = {
  up: "\u001b[A",
  down: "\u001b[B",
  right: "\u001b[C",
  left: "\u001b[D",
  enter: "\r",
  space: " ",
  tab: "\t",
  backspace: "\u007f",
  ctrlC: "\u0003",
} as const;

/** Whether script(1) can give a command a pseudo-terminal here. */
export function hasScript(): boolean {
  return spawnSync("script", ["-qec", "true", "/dev/null"]).status === 0;
}

/**
 * One run of `dropkit ...args` on a pseudo-terminal of 100 columns. Output is collected as the user
 * would see it, without escape sequences; `expect` waits for text to appear after what an earlier
 * `expect` matched, so that keys are only sent once the prompt they are for is on screen.
 */
export class Terminal {
  private raw = "";
  private cursor = 0;
  private readonly child: ChildProcess;
  private readonly waiters = new Set<() => void>();
  /** The exit code of dropkit (script -e passes it on). */
  readonly exited: Promise<number | null>;

  constructor(cwd: string, args: string[], env: Record<string, string> = {}) {
    // A fixed size: without one the terminal has 0 columns and prompts cannot lay out their lines.
    const command = `stty cols 100 rows 50; exec ${[process.execPath, cliPath, ...args].map(shellQuote).join(" ")}`;
    this.child = spawn("script", ["-qec", command, "/dev/null"], {
      cwd,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? "/tmp",
        SHELL: "/bin/sh",
        TERM: "xterm-256color",
        GIT_CEILING_DIRECTORIES: path.dirname(cwd),
        ...env,
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const collect = (chunk: Buffer) => {
      this.raw += chunk.toString("utf8");
      for (const wake of this.waiters) wake();
    };
    this.child.stdout!.on("data", collect);
    this.child.stderr!.on("data", collect);
    this.exited = new Promise((resolve) =>
      this.child.on("close", (code) => {
        for (const wake of this.waiters) wake();
        resolve(code);
      }),
    );
  }

  /** Everything the program wrote so far, escape sequences and carriage returns included. */
  get output(): string {
    return this.raw;
  }

  /** Everything shown so far, without escape sequences. */
  get screen(): string {
    return stripAnsi(this.raw);
  }

  /**
   * Waits until `text` appears after the previous match, then moves past it.
   * @throws when it does not appear within `timeoutMs` or the program exits first, with the screen so far.
   */
  async expect(text: string | RegExp, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen;
      const rest = screen.slice(this.cursor);
      const match = typeof text === "string" ? indexOf(rest, text) : rest.match(text);
      if (match) {
        this.cursor += match.index! + match[0].length;
        return;
      }
      if (this.child.exitCode !== null || Date.now() > deadline) {
        this.kill();
        throw new Error(
          `expected ${String(text)} on the terminal; it shows:\n${screen.slice(this.cursor)}\n--- (whole screen) ---\n${screen}`,
        );
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        // Short polling as well, so that the deadline is noticed even when nothing is printed.
        const timer = setTimeout(wake, 100);
        this.waiters.add(wake);
      });
    }
  }

  /** Types keys, one write per argument. */
  send(...sequence: string[]): void {
    for (const k of sequence) this.child.stdin!.write(k);
  }

  /** Waits for the program to end; returns its exit code. */
  async exit(timeoutMs = 30_000): Promise<number | null> {
    const timer = setTimeout(() => this.kill(), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
      this.child.stdin!.end();
    }
  }

  private kill(): void {
    this.child.kill("SIGKILL");
  }
}

// --- helpers ---

function stripAnsi(text: string): string {
  return text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007|\u001b[()][0-9A-Za-z]|\u001b[=>78]/g, "").replace(/\r/g, "");
}

function indexOf(haystack: string, needle: string): RegExpMatchArray | null {
  const at = haystack.indexOf(needle);
  if (at < 0) return null;
  const match = [needle] as unknown as RegExpMatchArray;
  match.index = at;
  return match;
}

function shellQuote(arg: string): string {
  return `'${arg.replace(/'/g, "'\\''")}'`;
}
