// Real shells in tests: whether one is installed, and an interactive one in tmux, typed into and read as a user sees it.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { tempDir } from "./temp.js";

/** Whether a command is installed; in CI a missing one fails the test instead of skipping it (.ci/run installs them). */
export function missing(command: string): string | false {
  if (spawnSync("sh", ["-c", `command -v ${command}`]).status === 0) return false;
  if (process.env.CI) assert.fail(`${command} is not installed`);
  return `${command} is not installed`;
}

/** A tmux pane, as `tmuxPane` starts it. */
export interface Pane {
  /** Sends `keys` (text, or tmux's key names such as "Enter", "Tab", "C-u"). */
  send: (...keys: string[]) => void;
  /** Waits (15 s at most) for the pane to match `wanted`; returns its text either way. */
  wait: (wanted: RegExp) => Promise<string>;
  /** Sends `keys`, then waits for the pane to match `wanted`. */
  screen: (keys: string[], wanted: RegExp) => Promise<string>;
  close: () => void;
}

/**
 * Runs the shell command `command` in a tmux pane of `width` columns and 40 lines, in a tmux server of its own (its own
 * socket: other tmux users on the machine neither see nor stop it), in `cwd` when given.
 */
export function tmuxPane(command: string, options: { width: number; cwd?: string }): Pane {
  const socket = path.join(tempDir("dropkit-tmux-"), "tmux.sock");
  const tmux = (...args: string[]) => spawnSync("tmux", ["-S", socket, ...args], { encoding: "utf8" });
  const where = options.cwd ? ["-c", options.cwd] : [];
  tmux("new-session", "-d", "-s", "pane", "-x", String(options.width), "-y", "40", ...where, command);
  const send = (...keys: string[]) => void tmux("send-keys", "-t", "pane", ...keys);
  const wait = async (wanted: RegExp): Promise<string> => {
    let text = "";
    for (let i = 0; i < 150 && !wanted.test(text); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      text = tmux("capture-pane", "-p", "-t", "pane").stdout;
    }
    return text;
  };
  const screen = (keys: string[], wanted: RegExp) => {
    send(...keys);
    return wait(wanted);
  };
  return { send, wait, screen, close: () => void tmux("kill-server") };
}
