// Tests for src/state/lock.ts and the folder's lock under the built CLI: one create at a time.
// Stale locks taken over, a held lock refused with a clear message, concurrent runs serialised with no lost update.

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { DropkitError } from "../../src/errors.js";
import { acquireLock, lockStaleMs, type LockHolder } from "../../src/state/lock.js";
import { Interrupted } from "../../src/signals.js";
import { age, deadPid, eventsOf, fixture, runCli, startCli } from "../helpers/cli.js";
import { openUp, permissions } from "../helpers/nobody.js";
import { isRunning, killQuietly, waitFor } from "../helpers/processes.js";
import { tempDir } from "../helpers/temp.js";
import { asOtherUser, otherUser } from "../helpers/users.js";

const zip = { zip: { "readme.txt": "hello\n" } };
const json = ["--log-format=json"];

describe("acquireLock", () => {
  test("creates the lock exclusively, holding pid, hostname and start time; release removes it", async () => {
    const file = path.join(tempDir(), ".dropkit.json.lock");
    const lock = await acquireLock(file);
    const holder = JSON.parse(fs.readFileSync(file, "utf8")) as LockHolder;
    assert.equal(holder.pid, process.pid);
    assert.equal(holder.hostname, os.hostname());
    assert.ok(Date.now() - Date.parse(holder.startedAt) < 60_000);
    assert.equal(fs.statSync(file).mode & 0o777, 0o644);
    lock.release();
    lock.release();
    assert.ok(!fs.existsSync(file));
  });

  test("a held lock: the second taker waits, then refuses with StateConflict (75) naming the lock, the holder and how to remove it", async () => {
    const file = path.join(tempDir(), ".dropkit.json.lock");
    const lock = await acquireLock(file);
    const waits: Array<LockHolder | null> = [];
    const started = Date.now();
    await assert.rejects(acquireLock(file, { waitMs: 300, onWait: (h) => waits.push(h) }), (e: DropkitError) => {
      assert.ok(e instanceof DropkitError);
      assert.equal(e.name, "StateConflict");
      assert.equal(e.exitCode, 75);
      assert.ok(e.message.includes(file));
      assert.match(e.message, new RegExp(`process ${process.pid} on host "${os.hostname()}"`));
      assert.ok(e.message.includes(`rm '${file}'`));
      return true;
    });
    assert.ok(Date.now() - started >= 290, "it did not wait");
    assert.equal(waits.length, 1);
    assert.equal(waits[0]!.pid, process.pid);
    lock.release();
  });

  test("a waiting taker gets the lock as soon as the holder releases it", async () => {
    const file = path.join(tempDir(), ".dropkit.json.lock");
    const first = await acquireLock(file);
    setTimeout(() => first.release(), 200);
    const second = await acquireLock(file, { waitMs: 5000 });
    assert.equal(JSON.parse(fs.readFileSync(file, "utf8")).pid, process.pid);
    second.release();
    assert.ok(!fs.existsSync(file));
  });

  test("a lock of a process that is gone, on this host, is stale: removed with a warning, and taken", async () => {
    const file = path.join(tempDir(), ".dropkit.json.lock");
    const dead = deadPid();
    fs.writeFileSync(file, JSON.stringify({ pid: dead, hostname: os.hostname(), startedAt: "2026-01-01T00:00:00.000Z" }));
    const warnings: string[] = [];
    const lock = await acquireLock(file, { waitMs: 0, onStale: (m) => warnings.push(m) });
    assert.match(warnings.join("\n"), new RegExp(`stale lock .* process ${dead} .*no longer running`));
    assert.equal(JSON.parse(fs.readFileSync(file, "utf8")).pid, process.pid);
    lock.release();
  });

  test("a lock from another host cannot be checked: held until it has gone 10 minutes without a refresh", async () => {
    const file = path.join(tempDir(), ".dropkit.json.lock");
    fs.writeFileSync(file, JSON.stringify({ pid: 1, hostname: "elsewhere.example", startedAt: "2026-01-01T00:00:00.000Z" }));
    await assert.rejects(
      acquireLock(file, { waitMs: 100 }),
      (e: DropkitError) => e.name === "StateConflict" && /another host .* 10 minutes without a refresh/.test(e.message),
    );
    age(file, lockStaleMs / 1000 - 30);
    await assert.rejects(acquireLock(file, { waitMs: 100 }), (e: DropkitError) => e.name === "StateConflict");
    age(file, lockStaleMs / 1000 + 30);
    const warnings: string[] = [];
    const lock = await acquireLock(file, { waitMs: 100, onStale: (m) => warnings.push(m) });
    assert.match(warnings[0]!, /not been refreshed for 11 minutes/);
    lock.release();
  });

  const noPidNamespace =
    !fs.existsSync("/proc/self/ns/pid") && "this system has no /proc/self/ns/pid: the lock records no pid namespace here";
  test("a lock in another pid namespace (a container on this host) is not judged by its process id", { skip: noPidNamespace }, async () => {
    const file = path.join(tempDir(), ".dropkit.json.lock");
    fs.writeFileSync(file, JSON.stringify({ pid: deadPid(), hostname: os.hostname(), startedAt: "x", pidNamespace: "pid:[1]" }));
    await assert.rejects(acquireLock(file, { waitMs: 100 }), (e: DropkitError) => e.name === "StateConflict");
  });

  const noBootId =
    !fs.existsSync("/proc/sys/kernel/random/boot_id") &&
    "this system has no /proc/sys/kernel/random/boot_id: the lock records no boot id here";
  test("a same-host lock from before this machine started is stale, whatever its process id", { skip: noBootId }, async () => {
    const file = path.join(tempDir(), ".dropkit.json.lock");
    fs.writeFileSync(file, JSON.stringify({ pid: process.pid, hostname: os.hostname(), startedAt: "x", bootId: "another-boot" }));
    age(file, os.uptime() + 60);
    const warnings: string[] = [];
    const lock = await acquireLock(file, { waitMs: 0, onStale: (m) => warnings.push(m) });
    assert.match(warnings[0]!, /restarted/);
    lock.release();
  });

  test("a lock naming no holder (its writer killed between creating and filling it) is stale after 5 s", async () => {
    const file = path.join(tempDir(), ".dropkit.json.lock");
    fs.writeFileSync(file, "");
    await assert.rejects(
      acquireLock(file, { waitMs: 100 }),
      (e: DropkitError) => e.name === "StateConflict" && /cannot be identified/.test(e.message),
    );
    age(file, 10);
    const lock = await acquireLock(file, { waitMs: 0 });
    lock.release();
  });

  test("a symbolic link at the lock's name is never followed: its target is untouched", async () => {
    const dir = tempDir();
    const file = path.join(dir, ".dropkit.json.lock");
    fs.writeFileSync(path.join(dir, "target"), "keep");
    fs.symlinkSync(path.join(dir, "target"), file);
    await assert.rejects(acquireLock(file, { waitMs: 100 }), (e: DropkitError) => e.name === "StateConflict");
    assert.equal(fs.readFileSync(path.join(dir, "target"), "utf8"), "keep");
  });

  test("several takers of one stale lock: exactly one gets it, the others wait for it", async () => {
    const file = path.join(tempDir(), ".dropkit.json.lock");
    fs.writeFileSync(file, JSON.stringify({ pid: deadPid(), hostname: os.hostname(), startedAt: "x" }));
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => acquireLock(file, { waitMs: 300 })));
    const won = results.filter((r) => r.status === "fulfilled");
    assert.equal(won.length, 1);
    for (const r of results) if (r.status === "rejected") assert.equal((r.reason as DropkitError).name, "StateConflict");
    (won[0] as PromiseFulfilledResult<{ release(): void }>).value.release();
  });

  test("the holder refreshes its lock's modification time, so a waiter on another host never thinks it stale", async () => {
    const file = path.join(tempDir(), ".dropkit.json.lock");
    const lock = await acquireLock(file, { refreshMs: 50 });
    age(file, 3600);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.ok(Date.now() - fs.statSync(file).mtimeMs < 5000);
    lock.release();
  });

  test("release leaves alone a lock that is no longer this one's", async () => {
    const file = path.join(tempDir(), ".dropkit.json.lock");
    const lock = await acquireLock(file);
    fs.unlinkSync(file);
    fs.writeFileSync(file, "someone else's");
    lock.release();
    assert.equal(fs.readFileSync(file, "utf8"), "someone else's");
  });

  test("a directory at the lock's name is an IOError naming it", async () => {
    const file = path.join(tempDir(), ".dropkit.json.lock");
    fs.mkdirSync(file);
    await assert.rejects(acquireLock(file, { waitMs: 0 }), (e: DropkitError) => e.name === "IOError" && e.message.includes(file));
  });
});

/** A lock of a process that is gone, on this host: stale. */
const staleLock = (extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ pid: deadPid(), hostname: os.hostname(), startedAt: "2026-01-01T00:00:00.000Z", ...extra }) + "\n";

/** A background loop that touches `file` every 50 ms, as a process that keeps a takeover guard fresh; stop it with `kill`. */
function keepTouching(file: string) {
  const loop = spawn("sh", ["-c", 'while :; do touch "$0"; sleep 0.05; done', file], { stdio: "ignore" });
  return { kill: () => killQuietly(loop.pid!) };
}

/** A process that leads its own session and group, as a hook does; killed at the end of the test. */
function detachedSleep() {
  const child = spawn("sleep", ["60"], { detached: true, stdio: "ignore" });
  child.unref();
  return child.pid!;
}

/**
 * Runs create in `root` (with `runner`: as this user, or as nobody), asserts that it ends with `status` well within
 * its bound and exactly one error record, and returns that record.
 */
function boundedCreate(root: string, status: number, env: Record<string, string> = {}, runner: typeof runCli = runCli) {
  const started = Date.now();
  const run = runner(root, ["create", ...json], env);
  assert.equal(run.status, status, run.stderr);
  assert.ok(Date.now() - started < 15_000, "it spun past its bound");
  const errors = eventsOf(run, "error");
  assert.equal(errors.length, 1, run.stderr);
  return { run, error: errors[0]! };
}

describe("acquireLock: every wait has a bound", () => {
  test("a stale lock whose takeover guard is a directory: IOError (74) at once, naming the guard and how to remove it", async () => {
    const file = path.join(tempDir(), ".dropkit.json.lock");
    fs.writeFileSync(file, staleLock());
    fs.mkdirSync(`${file}.takeover`);
    const started = Date.now();
    await assert.rejects(acquireLock(file, { waitMs: 60_000 }), (e: DropkitError) => {
      assert.equal(e.name, "IOError");
      assert.ok(e.message.includes(`${file}.takeover is a directory`), e.message);
      assert.ok(e.message.includes(`rm -r '${file}.takeover'`), e.message);
      assert.match(e.message, /stale lock .* no longer running/);
      return true;
    });
    assert.ok(Date.now() - started < 15_000, "it waited instead of failing at once");
  });

  test("a stale lock whose takeover guard some process keeps fresh: StateConflict (75) when the wait ends, naming the guard", async () => {
    const file = path.join(tempDir(), ".dropkit.json.lock");
    fs.writeFileSync(file, staleLock());
    const toucher = keepTouching(`${file}.takeover`);
    try {
      await waitFor(() => fs.existsSync(`${file}.takeover`));
      const started = Date.now();
      await assert.rejects(acquireLock(file, { waitMs: 500 }), (e: DropkitError) => {
        assert.equal(e.name, "StateConflict");
        assert.ok(e.message.includes(`its takeover guard ${file}.takeover changed`), e.message);
        assert.ok(e.message.includes(`rm '${file}.takeover' '${file}'`), e.message);
        return true;
      });
      const took = Date.now() - started;
      assert.ok(took >= 450 && took < 15_000, `waited ${took} ms, not the 500 ms bound`);
    } finally {
      toucher.kill();
    }
    assert.ok(fs.existsSync(file), "the stale lock is left for the guard's holder");
  });

  test("a takeover guard left over by a killed taker is removed once 10 s old, and the stale lock taken", async () => {
    const file = path.join(tempDir(), ".dropkit.json.lock");
    fs.writeFileSync(file, staleLock());
    fs.writeFileSync(`${file}.takeover`, "");
    age(`${file}.takeover`, 60);
    const lock = await acquireLock(file, { waitMs: 0 });
    assert.equal(JSON.parse(fs.readFileSync(file, "utf8")).pid, process.pid);
    assert.ok(!fs.existsSync(`${file}.takeover`));
    lock.release();
  });

  test("an aborted signal ends the wait at once with its reason, for a held lock and for a blocked takeover", async () => {
    const dir = tempDir();
    const held = path.join(dir, "held.lock");
    const holder = await acquireLock(held);
    const blocked = path.join(dir, "blocked.lock");
    fs.writeFileSync(blocked, staleLock());
    const toucher = keepTouching(`${blocked}.takeover`);
    try {
      for (const file of [held, blocked]) {
        const controller = new AbortController();
        const reason = new Interrupted("SIGTERM");
        const started = Date.now();
        setTimeout(() => controller.abort(reason), 200);
        await assert.rejects(acquireLock(file, { waitMs: 60_000, signal: controller.signal }), (e) => e === reason);
        assert.ok(Date.now() - started < 15_000, `${file}: the wait went on after the signal`);
      }
    } finally {
      toucher.kill();
      holder.release();
    }
  });
});

describe("acquireLock and the hooks' process group", () => {
  test("the holder records the running hook's group in place, and clears it; the lock stays valid JSON throughout", async () => {
    const file = path.join(tempDir(), ".dropkit.json.lock");
    const lock = await acquireLock(file);
    const first = fs.readFileSync(file, "utf8");
    lock.recordHookGroup(4242);
    const during = fs.readFileSync(file, "utf8");
    assert.equal(JSON.parse(during).hookGroup, 4242);
    assert.equal(JSON.parse(during).pid, process.pid);
    lock.recordHookGroup(null);
    const after = fs.readFileSync(file, "utf8");
    assert.equal(JSON.parse(after).hookGroup, undefined);
    assert.deepEqual(JSON.parse(after), JSON.parse(first));
    assert.ok(after.length >= during.length, "never shorter: a reader never sees a torn tail");
    assert.ok(after.endsWith("\n"));
    lock.release();
    assert.ok(!fs.existsSync(file));
  });

  test("a lock whose holder is gone but whose hook group still runs is not stale: held, naming the group; taken once the group is gone", async () => {
    const file = path.join(tempDir(), ".dropkit.json.lock");
    const group = detachedSleep();
    try {
      fs.writeFileSync(file, staleLock({ hookGroup: group }));
      await assert.rejects(acquireLock(file, { waitMs: 300 }), (e: DropkitError) => {
        assert.equal(e.name, "StateConflict");
        assert.ok(e.message.includes(`process group ${group}`), e.message);
        assert.ok(e.message.includes(`kill -TERM -- -${group}`), e.message);
        return true;
      });
      // Old as it is, a lock is not stale while its hook runs.
      age(file, lockStaleMs / 1000 + 60);
      await assert.rejects(acquireLock(file, { waitMs: 100 }), (e: DropkitError) => e.name === "StateConflict");
    } finally {
      killQuietly(group);
    }
    await waitFor(() => !isRunning(group));
    const warnings: string[] = [];
    const lock = await acquireLock(file, { waitMs: 2000, onStale: (m) => warnings.push(m) });
    assert.match(warnings.join("\n"), /no longer running/);
    lock.release();
  });

  test("a group id that is not a session of its own (reused by an unrelated process group) does not hold the lock", async () => {
    const file = path.join(tempDir(), ".dropkit.json.lock");
    // A process of this test's own session: its id is no session's.
    const other = spawn("sleep", ["60"], { stdio: "ignore" });
    try {
      fs.writeFileSync(file, staleLock({ hookGroup: other.pid }));
      const lock = await acquireLock(file, { waitMs: 0 });
      lock.release();
    } finally {
      other.kill("SIGKILL");
    }
  });
});

describe("create and the lock", () => {
  test("a held lock makes a second create wait, then refuse (75): no hook run, nothing written, the lock untouched", () => {
    const root = fixture({ "blog.zip": zip, "init-scripts/mark": { text: "#!/bin/sh\ntouch init-ran\n", mode: 0o755 } });
    const holder = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      const lock = JSON.stringify({ pid: holder.pid, hostname: os.hostname(), startedAt: "2026-11-21T12:00:00.000Z" }) + "\n";
      fs.writeFileSync(path.join(root, ".dropkit.json.lock"), lock);
      const run = runCli(root, ["create", ...json], { __DROPKIT_TEST_LOCK_WAIT_MS: "600" });
      assert.equal(run.status, 75, run.stderr);
      const [error] = eventsOf(run, "error");
      assert.equal(error!.name, "StateConflict");
      assert.ok(error!.message.includes(`process ${holder.pid}`));
      assert.deepEqual(
        eventsOf(run, "state").map((s) => [s.action, s.file, s.holder?.pid]),
        [["waiting", path.join(root, ".dropkit.json.lock"), holder.pid]],
      );
      assert.equal(fs.readFileSync(path.join(root, ".dropkit.json.lock"), "utf8"), lock);
      assert.deepEqual(fs.readdirSync(root).sort(), [".dropkit.json.lock", ".git", "blog.zip", "init-scripts"]);
    } finally {
      holder.kill();
    }
  });

  test("a stale lock (its process gone) is taken with a warning, and the run succeeds and releases it", () => {
    const root = fixture({ "blog.zip": zip });
    fs.writeFileSync(path.join(root, ".dropkit.json.lock"), JSON.stringify({ pid: deadPid(), hostname: os.hostname(), startedAt: "x" }));
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(
      eventsOf(run, "warning")
        .map((w) => w.message)
        .join("\n"),
      /Removed the stale lock .*no longer running/,
    );
    assert.ok(!fs.existsSync(path.join(root, ".dropkit.json.lock")));
  });

  test("the lock is released on every way out: success, a failing hook, an invalid plan", () => {
    const root = fixture({ "blog.zip": zip, "init-scripts/fail": { text: "#!/bin/sh\nexit 4\n", mode: 0o755 } });
    assert.equal(runCli(root, ["create", ...json], { DROPKIT_HOOKS_ON_FAILURE: "fail" }).status, 1);
    assert.ok(!fs.existsSync(path.join(root, ".dropkit.json.lock")));
    const keepGoing = { DROPKIT_HOOKS_ON_FAILURE: "continue" };
    assert.equal(runCli(root, ["create", ...json, "--theme=nowhere"], keepGoing).status, 66);
    assert.ok(!fs.existsSync(path.join(root, ".dropkit.json.lock")));
    assert.equal(runCli(root, ["create", ...json], keepGoing).status, 0);
    assert.ok(!fs.existsSync(path.join(root, ".dropkit.json.lock")));
  });

  test("the lock names the group of the hook that runs, and no group between hooks", () => {
    // Each hook copies the lock as it sees it, and writes its own process id (that of its group's leader). dropkit
    // records the group just after the hook has started, so the hook gives it up to 5 s to appear.
    const look = (name: string) => ({
      text:
        `#!/bin/sh\nfor i in $(seq 50); do grep -q hookGroup .dropkit.json.lock && break; sleep 0.1; done\ncat ` +
        `.dropkit.json.lock > ${name}.lock-seen\necho $$ > ${name}.pid\n`,
      mode: 0o755,
    });
    const root = fixture({ "blog.zip": zip, "init-scripts/look": look("init"), "post-scripts/look": look("post") });
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 0, run.stderr);
    for (const phase of ["init", "post"]) {
      const seen = JSON.parse(fs.readFileSync(path.join(root, `${phase}.lock-seen`), "utf8")) as LockHolder;
      assert.equal(seen.hookGroup, Number(fs.readFileSync(path.join(root, `${phase}.pid`), "utf8")), phase);
      assert.notEqual(seen.pid, seen.hookGroup);
    }
    assert.ok(!fs.existsSync(path.join(root, ".dropkit.json.lock")));
  });

  test("dropkit SIGKILLed while its hook runs: the next create does not take the lock while the hook lives, then does", {
    timeout: 60_000,
  }, async () => {
    const hook = { text: "#!/bin/sh\necho $$ > hook.pid\nsleep 60\ntouch hook-finished\n", mode: 0o755 };
    const root = fixture({ "blog.zip": zip, "init-scripts/slow": hook });
    const lockFile = path.join(root, ".dropkit.json.lock");
    const first = startCli(root, ["create", ...json]);
    let group = 0;
    try {
      await waitFor(
        () => fs.existsSync(path.join(root, "hook.pid")) && fs.readFileSync(path.join(root, "hook.pid"), "utf8").endsWith("\n"),
        20_000,
        "the hook to start",
      );
      group = Number(fs.readFileSync(path.join(root, "hook.pid"), "utf8"));
      // dropkit records the group a moment after the hook has started.
      await waitFor(() => fs.readFileSync(lockFile, "utf8").includes('"hookGroup"'), 5000, "the lock to name the hook's group");
      first.child.kill("SIGKILL");
      await first.done;
      assert.ok(isRunning(group), "the hook outlives dropkit (it leads its own group)");
      const lock = fs.readFileSync(lockFile, "utf8");
      const second = runCli(root, ["create", ...json], { __DROPKIT_TEST_LOCK_WAIT_MS: "1000" });
      assert.equal(second.status, 75, second.stderr);
      assert.equal((JSON.parse(lock) as LockHolder).hookGroup, group);
      const [error] = eventsOf(second, "error");
      assert.equal(error!.name, "StateConflict");
      assert.ok(error!.message.includes(`process group ${group}`), error!.message);
      assert.match(error!.message, /the hook it started still runs/);
      assert.equal(fs.readFileSync(lockFile, "utf8"), lock, "the lock was not taken over");
      assert.ok(!fs.existsSync(path.join(root, ".dropkit.json")));
    } finally {
      if (group > 0) {
        try {
          process.kill(-group, "SIGKILL");
        } catch {
          // Gone already.
        }
      }
    }
    await waitFor(() => !isRunning(group), 10_000, "the hook's group to end");
    // The hook is gone: the lock is stale now, and taken over.
    fs.rmSync(path.join(root, "init-scripts"), { recursive: true });
    const third = runCli(root, ["create", ...json]);
    assert.equal(third.status, 0, third.stderr);
    assert.match(
      eventsOf(third, "warning")
        .map((w) => w.message)
        .join("\n"),
      /Removed the stale lock .*no longer running/,
    );
  });

  test("a stale lock beside a takeover guard that is a directory: exit 74 at once, naming the guard; nothing written", () => {
    const root = fixture({ "blog.zip": zip, ".dropkit.json.lock.takeover/": "" });
    fs.writeFileSync(path.join(root, ".dropkit.json.lock"), staleLock());
    const { error } = boundedCreate(root, 74, { __DROPKIT_TEST_LOCK_WAIT_MS: "60000" });
    assert.equal(error.name, "IOError");
    assert.equal(error.file, path.join(root, ".dropkit.json.lock.takeover"));
    assert.ok(!fs.existsSync(path.join(root, ".dropkit.json")));
  });

  test("a stale lock beside a takeover guard some process keeps touching: exit 75 within the wait, naming the guard", () => {
    const root = fixture({ "blog.zip": zip });
    fs.writeFileSync(path.join(root, ".dropkit.json.lock"), staleLock());
    const guard = path.join(root, ".dropkit.json.lock.takeover");
    fs.writeFileSync(guard, "");
    const toucher = keepTouching(guard);
    try {
      const { run, error } = boundedCreate(root, 75, { __DROPKIT_TEST_LOCK_WAIT_MS: "1000" });
      assert.equal(error.name, "StateConflict");
      assert.equal(error.file, guard);
      assert.ok(error.message.includes(`rm '${guard}'`), error.message);
      assert.deepEqual(
        eventsOf(run, "state").map((r) => r.action),
        ["waiting"],
        "the wait is said",
      );
    } finally {
      toucher.kill();
    }
  });

  describe("a stale lock or guard this user cannot remove: a clear IOError (74), never 70", {
    skip: permissions.skip || otherUser.skip,
  }, () => {
    /** A shared drop: a folder every user may write, with the sticky bit (like /tmp). */
    const sharedDrop = () => {
      const root = fixture({ "blog.zip": zip });
      fs.chmodSync(root, 0o1777);
      return root;
    };
    /** Writes `text` to `name` in `root` as the other user, aged past every stale limit. */
    const plantAsOther = (root: string, name: string, text: string) => {
      const made = asOtherUser("sh", ["-c", 'printf "%s" "$1" > "$2"', "sh", text, name], root);
      assert.equal(made.status, 0, made.stderr);
      assert.equal(fs.statSync(path.join(root, name)).uid, otherUser.user.uid);
      age(path.join(root, name), 3600);
    };

    test("another user's stale lock in a sticky folder (EPERM): 74 naming the lock and its owner; the lock left as it was", () => {
      const root = sharedDrop();
      plantAsOther(root, ".dropkit.json.lock", staleLock());
      const { error } = boundedCreate(root, 74, {}, permissions.run);
      assert.equal(error.name, "IOError");
      assert.equal(error.file, path.join(root, ".dropkit.json.lock"));
      assert.match(error.message, /is stale \(process \d+ is no longer running\) but cannot be removed \(EPERM/);
      assert.ok(error.message.includes(`user ${otherUser.user.name}`), error.message);
      assert.match(error.message, /sticky bit/);
      assert.ok(fs.existsSync(path.join(root, ".dropkit.json.lock")));
      assert.ok(!fs.existsSync(path.join(root, ".dropkit.json")));
    });

    test("another user's left-over takeover guard in a sticky folder: 74 at once naming the guard and its owner", () => {
      const root = sharedDrop();
      fs.writeFileSync(path.join(root, ".dropkit.json.lock"), staleLock());
      fs.chownSync(path.join(root, ".dropkit.json.lock"), 65534, 65534);
      plantAsOther(root, ".dropkit.json.lock.takeover", "");
      const { error } = boundedCreate(root, 74, { __DROPKIT_TEST_LOCK_WAIT_MS: "60000" }, permissions.run);
      assert.equal(error.file, path.join(root, ".dropkit.json.lock.takeover"));
      assert.match(error.message, /cannot be removed \(EPERM/);
      assert.ok(error.message.includes(`user ${otherUser.user.name}`), error.message);
    });

    test("a stale lock in a folder this user cannot write (EACCES): 74 naming the lock, as the same folder without a lock", () => {
      const root = fixture({ "blog.zip": zip });
      openUp(root);
      const without = permissions.run(root, ["create", ...json]);
      assert.equal(without.status, 74, without.stderr);
      fs.writeFileSync(path.join(root, ".dropkit.json.lock"), staleLock());
      const { error } = boundedCreate(root, 74, {}, permissions.run);
      assert.equal(error.name, "IOError");
      assert.equal(error.file, path.join(root, ".dropkit.json.lock"));
      assert.match(error.message, /cannot be removed \(EACCES.*is writable/);
    });
  });

  test("a stale lock on a read-only file system (EROFS): 74 naming the lock, as the same folder without a lock", (t) => {
    const root = fixture({ "blog.zip": zip });
    const drop = path.join(root, "ro");
    fs.mkdirSync(drop);
    const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", drop], { encoding: "utf8" });
    if (mounted.status !== 0) {
      if (process.env.CI && process.env.CI !== "false") assert.fail(`mount failed in CI: ${mounted.stderr}`);
      t.skip(`cannot mount a file system here (${mounted.stderr.trim()})`);
      return;
    }
    try {
      fs.writeFileSync(path.join(drop, "blog.zip"), fs.readFileSync(path.join(root, "blog.zip")));
      fs.writeFileSync(path.join(drop, "other.lock"), staleLock());
      const remounted = spawnSync("mount", ["-o", "remount,ro", drop], { encoding: "utf8" });
      assert.equal(remounted.status, 0, remounted.stderr);
      const without = runCli(drop, ["create", ...json]);
      assert.equal(without.status, 74, without.stderr);
      spawnSync("mount", ["-o", "remount,rw", drop]);
      fs.renameSync(path.join(drop, "other.lock"), path.join(drop, ".dropkit.json.lock"));
      spawnSync("mount", ["-o", "remount,ro", drop]);
      const { error } = boundedCreate(drop, 74);
      assert.equal(error.name, "IOError");
      assert.equal(error.file, path.join(drop, ".dropkit.json.lock"));
      assert.match(error.message, /cannot be removed \(EROFS/);
    } finally {
      spawnSync("umount", [drop]);
    }
  });

  // STRESS_ROUNDS=<n> repeats it (docs/reliability.md quotes a longer run).
  const rounds = Math.max(1, Number(process.env.STRESS_ROUNDS) || 1);
  test(`6 concurrent creates take turns through the lock, and none loses an update (${rounds} round${rounds === 1 ? "" : "s"})`, async (t) => {
    // Each run's post hook adds its own key to the state's extra; a run that read the state before another
    // run's hook wrote it would drop that key when it writes. With the lock, every key survives.
    const hook =
      `#!${process.execPath}\nconst fs = require("fs");\nconst s = JSON.parse(fs.readFileSync(".dropkit.json", ` +
      `"utf8"));\ns.extra["run-" + process.env.RUN_ID] = true;\nfs.writeFileSync(".hook.tmp", JSON.stringify(s, ` +
      `null, 2) + "\\n");\nfs.renameSync(".hook.tmp", ".dropkit.json");\n`;
    let waited = 0;
    for (let round = 0; round < rounds; round++) {
      const root = fixture({ "blog.zip": zip, "post-scripts/record": { text: hook, mode: 0o755 } });
      const runs = await Promise.all(
        Array.from(
          { length: 6 },
          (_, i) => startCli(root, ["create", ...json], { RUN_ID: String(i), __DROPKIT_TEST_LOCK_WAIT_MS: "120000" }).done,
        ),
      );
      for (const r of runs) assert.equal(r.status, 0, r.stderr);
      const state = JSON.parse(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8"));
      assert.deepEqual(Object.keys(state.extra).sort(), ["run-0", "run-1", "run-2", "run-3", "run-4", "run-5"], `round ${round}`);
      waited += runs.filter((r) => eventsOf(r, "state").some((s) => s.action === "waiting")).length;
      assert.deepEqual(
        fs.readdirSync(root).filter((n) => n.endsWith(".tmp") || n.endsWith(".lock")),
        [],
      );
    }
    assert.ok(waited >= 1, "no run ever waited");
    t.diagnostic(`${rounds * 6} runs in ${rounds} rounds of 6; ${waited} waited for the lock; no update lost`);
  });
});
