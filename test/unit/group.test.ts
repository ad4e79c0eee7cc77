// Tests for src/hooks/group.ts: stopping a whole process group, and telling running processes from unreaped ones.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import { describe, test } from "node:test";
import { groupRunning, sessionRunning, signalGroup, stopGroup } from "../../src/hooks/group.js";
import { tempDir } from "../helpers/temp.js";
import { isRunning, waitFor } from "../helpers/processes.js";

/** Starts `script` with `shell` as the leader of a new process group; resolves once it wrote its background child's pid. */
async function startGroup(script: string, shell = "sh"): Promise<{ leader: number; child: number }> {
  const dir = tempDir("dropkit-group-");
  const pidFile = `${dir}/pid`;
  const leader = spawn(shell, ["-c", script.replaceAll("PIDFILE", pidFile)], { detached: true, stdio: "ignore" });
  leader.unref();
  await waitFor(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, "utf8").endsWith("\n"));
  return { leader: leader.pid!, child: Number(fs.readFileSync(pidFile, "utf8")) };
}

describe("stopGroup", () => {
  test("SIGTERM stops every process of the group, the leader and what it started", async () => {
    const { leader, child } = await startGroup("sleep 1000 & echo $! > PIDFILE; wait");
    assert.equal(groupRunning(leader), true);
    assert.equal(await stopGroup(leader, 5000), "terminated");
    assert.equal(isRunning(child), false);
    assert.equal(groupRunning(leader), false);
  });

  test("a process that ignores SIGTERM gets SIGKILL after the grace period", async () => {
    // The subshell publishes its own pid only once its trap is set ($PPID of the sh it starts), so that SIGTERM
    // cannot arrive before the trap and end it early.
    const { leader, child } = await startGroup("(trap '' TERM; sh -c 'echo $PPID > PIDFILE'; sleep 1000) & exit 0");
    const started = performance.now();
    assert.equal(await stopGroup(leader, 300), "killed");
    assert.ok(performance.now() - started >= 290, "the grace period was given");
    await waitFor(() => !isRunning(child));
  });

  test("a group whose processes all exited: nothing to signal", async () => {
    const leader = spawn("true", [], { detached: true, stdio: "ignore" });
    await new Promise((resolve) => leader.once("exit", resolve));
    assert.equal(await stopGroup(leader.pid!, 5000), "empty");
  });
});

describe("groupRunning", () => {
  test("an unreaped (zombie) process does not count as running", async () => {
    // sh exits at once; its background child is reparented to pid 1, which may not reap it (containers).
    const { leader, child } = await startGroup("(sleep 0.2; exit 0) & echo $! > PIDFILE");
    await waitFor(() => !isRunning(child));
    await waitFor(() => !groupRunning(leader));
  });

  test("signalGroup says false for a group that does not exist", () => {
    // Process ids are below 2^22 on Linux; this group cannot exist.
    assert.equal(signalGroup(2 ** 22 + 12345, 0), false);
  });
});

describe("sessionRunning", () => {
  test("a hook's session counts while any process of it runs, also one its shell moved to a group of its own", async () => {
    // set -m: bash's job control puts the background sleep in a group of its own, in the same session.
    const { leader, child } = await startGroup("set -m; sleep 1000 & echo $! > PIDFILE; exit 0", "bash");
    await waitFor(() => !isRunning(leader));
    assert.equal(groupRunning(leader), false, "the leader's group is empty");
    assert.equal(sessionRunning(leader), true, "its session still runs");
    process.kill(child, "SIGKILL");
    await waitFor(() => !sessionRunning(leader));
  });

  test("a process group that is no session (a process of this test's own session) does not count", async () => {
    const other = spawn("sleep", ["1000"], { stdio: "ignore" });
    try {
      assert.equal(isRunning(other.pid!), true);
      assert.equal(sessionRunning(other.pid!), false);
    } finally {
      other.kill("SIGKILL");
    }
  });
});
