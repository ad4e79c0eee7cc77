// Process groups: stopping every process of a hook's group (SIGTERM, then SIGKILL), and knowing when none is left.

import { readdirSync, readFileSync } from "node:fs";

/** How often a stopping group is checked for processes still running. */
const pollMs = 25;

/** After SIGKILL, how long to wait for the processes to be gone (only a process stuck in the kernel takes longer). */
const killWaitMs = 1000;

/**
 * Stops every process of the group `pgid`: SIGTERM, then SIGKILL to whatever is still running after
 * `graceMs`. Resolves once the group is empty (after a SIGKILL, which cannot be ignored, at most `killWaitMs`
 * later). A group that is already empty resolves at once.
 *
 * @returns `"empty"` when nothing was running, `"terminated"` when SIGTERM was enough, `"killed"` otherwise.
 */
export async function stopGroup(pgid: number, graceMs: number): Promise<"empty" | "terminated" | "killed"> {
  if (!groupRunning(pgid)) return "empty";
  signalGroup(pgid, "SIGTERM");
  if (await emptied(pgid, graceMs)) return "terminated";
  signalGroup(pgid, "SIGKILL");
  await emptied(pgid, killWaitMs);
  return "killed";
}

/**
 * Sends `signal` to every process of the group; `false` when the group has no process left (ESRCH).
 * A group that holds only processes dropkit may not signal (EPERM: a setuid program) counts as there.
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/**
 * Whether a process of the group is still running. A process that has exited but was not reaped (a zombie,
 * left by an init that does not reap orphans, as in many containers) still counts for `kill(-pgid, 0)`, so on
 * Linux the process table decides; elsewhere, or without a readable `/proc`, `kill` alone does.
 */
export function groupRunning(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  return anyRunning((stat) => stat.pgrp === pgid) ?? true;
}

/**
 * Whether a process of the session `sid` is still running: the hooks of a run, each the leader of its own session
 * (and group), with whatever they started, also in a group of its own (a shell's job control). A process group id
 * reused later by an unrelated program is not counted: its session is another. Off Linux, or without a readable
 * `/proc`, the group alone decides.
 */
export function sessionRunning(sid: number): boolean {
  return anyRunning((stat) => stat.session === sid) ?? signalGroup(sid, 0);
}

// --- helpers ---

/** Polls until no process of the group runs (`true`), or `ms` have passed (`false`). */
async function emptied(pgid: number, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    if (!groupRunning(pgid)) return true;
  }
  return false;
}

/** Whether a running process (not a zombie) matches, from the process table; `null` off Linux or without a readable `/proc`. */
function anyRunning(matches: (stat: { pgrp: number; session: number }) => boolean): boolean | null {
  if (process.platform !== "linux") return null;
  let pids: string[];
  try {
    pids = readdirSync("/proc");
  } catch {
    return null;
  }
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = processStat(pid);
    if (stat !== null && matches(stat) && stat.state !== "Z" && stat.state !== "X") return true;
  }
  return false;
}

/** The state, process group and session of a process from `/proc/<pid>/stat`; null when it is gone. */
function processStat(pid: string): { state: string; pgrp: number; session: number } | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return null;
  }
  // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so fields count from the last ")".
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { state: fields[0] ?? "", pgrp: Number(fields[2]), session: Number(fields[3]) };
}
