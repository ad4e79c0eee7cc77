// Looking at the process table from tests: is a process still running, which processes are in a group.

import fs from "node:fs";

/** Whether `pid` is running: it exists and is not a zombie (an exited process nobody reaped yet). */
export function isRunning(pid: number): boolean {
  const stat = readStat(String(pid));
  return stat !== null && stat.state !== "Z" && stat.state !== "X";
}

/** The running processes (not zombies) whose process group is `pgid`. */
export function groupMembers(pgid: number): number[] {
  return fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      const stat = readStat(pid);
      return stat !== null && stat.pgrp === pgid && stat.state !== "Z" && stat.state !== "X";
    })
    .map(Number);
}

/** Polls `condition` every 20 ms until it holds. @throws after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 10_000, what = "a condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Kills `pid` if it still runs; for cleaning up after a test that failed. */
export function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

// --- helpers ---

function readStat(pid: string): { state: string; pgrp: number } | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return null;
  }
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { state: fields[0]!, pgrp: Number(fields[2]) };
}

/** Asserts that `pid` no longer runs; kills it first if it does, so that a failing test leaves nothing behind. */
export function assertStopped(pid: number, what = `process ${pid}`): void {
  const running = isRunning(pid);
  killQuietly(pid);
  if (running) throw new Error(`${what} still runs`);
}
