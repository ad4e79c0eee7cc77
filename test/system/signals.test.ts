// Tests for src/signals.ts, and SIGINT, SIGTERM and SIGHUP sent to the built CLI while a hook runs.

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { EventEmitter } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { Interrupted, signalExitCodes, trapSignals, type StopSignal } from "../../src/signals.js";
import { cliPath, deadPid, fixture, type FixtureFile, startCli as startWaiting } from "../helpers/cli.js";
import { groupMembers, isRunning, killQuietly, waitFor } from "../helpers/processes.js";
import { hasScript, keys, Terminal } from "../helpers/pty.js";

/** One module: a drop with no archive is EmptyDrop, which takes no lock and runs no hook. */
const blog: Record<string, FixtureFile> = { "blog.zip": { zip: { "a.txt": "a" } } };
const stopSignals = Object.keys(signalExitCodes) as StopSignal[];

describe("trapSignals", () => {
  test("the first signal aborts with an Interrupted reason carrying 128 + the signal's number", () => {
    for (const [name, code] of [
      ["SIGINT", 130],
      ["SIGTERM", 143],
      ["SIGHUP", 129],
    ] as const) {
      const target = new EventEmitter();
      const trap = trapSignals({ target: target as never, exit: () => assert.fail("no exit at the first signal") });
      assert.equal(trap.signal.aborted, false);
      target.emit(name);
      assert.equal(trap.signal.aborted, true);
      const reason = trap.signal.reason as Interrupted;
      assert.ok(reason instanceof Interrupted);
      assert.equal(reason.name, "Interrupted");
      assert.equal(reason.signal, name);
      assert.equal(reason.exitCode, code);
      assert.throws(
        () => trap.signal.throwIfAborted(),
        (e) => e === reason,
      );
      trap.release();
    }
  });

  test("a command that only checks needs no AbortSignal; one asked for after the signal is aborted already", () => {
    const target = new EventEmitter();
    const trap = trapSignals({ target: target as never, exit: () => assert.fail("no exit at the first signal") });
    assert.equal(trap.interrupted, null);
    trap.throwIfInterrupted();
    target.emit("SIGHUP");
    const reason = trap.interrupted;
    assert.ok(reason instanceof Interrupted);
    assert.equal(reason.exitCode, 129);
    assert.throws(
      () => trap.throwIfInterrupted(),
      (e) => e === reason,
    );
    // Made now, after the signal: aborted with the same reason, and the same signal at every ask.
    assert.equal(trap.signal.aborted, true);
    assert.equal(trap.signal.reason, reason);
    assert.equal(trap.signal, trap.signal);
    target.emit("SIGINT");
    assert.equal(reason.hurry.aborted, true, "a second signal still hurries the run");
    trap.release();
  });

  test("an AbortSignal asked for before the signal is aborted by it, and its listeners hear it", () => {
    const target = new EventEmitter();
    const trap = trapSignals({ target: target as never, exit: () => assert.fail("no exit at the first signal") });
    const signal = trap.signal;
    const heard: unknown[] = [];
    signal.addEventListener("abort", () => heard.push(signal.reason));
    target.emit("SIGTERM");
    assert.equal(heard.length, 1);
    assert.equal(heard[0], trap.interrupted);
    assert.equal((heard[0] as Interrupted).exitCode, 143);
    trap.release();
  });

  test("a second signal hurries the run and bounds it; a third exits at once", async () => {
    const target = new EventEmitter();
    const calls: string[] = [];
    const trap = trapSignals({
      target: target as never,
      hurryExitMs: 50,
      onExit: (reason) => calls.push(`onExit ${reason.signal}`),
      exit: (code) => calls.push(`exit ${code}`),
    });
    target.emit("SIGTERM");
    const reason = trap.signal.reason as Interrupted;
    assert.equal(reason.hurry.aborted, false);
    target.emit("SIGINT");
    assert.equal(reason.hurry.aborted, true, "the second signal hurries");
    assert.deepEqual(calls, [], "and gives the run time to put things back");
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(calls, ["onExit SIGTERM", "exit 143"], "then exits with the first signal's code");
    calls.length = 0;
    target.emit("SIGHUP");
    assert.deepEqual(calls, ["onExit SIGTERM", "exit 143"], "a third signal exits at once");
    trap.release();
  });

  test("a run that ends before the bound is not cut short: release clears the timer", async () => {
    const target = new EventEmitter();
    const calls: number[] = [];
    const trap = trapSignals({ target: target as never, hurryExitMs: 50, exit: (code) => calls.push(code) });
    target.emit("SIGINT");
    target.emit("SIGINT");
    trap.release();
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(calls, []);
  });

  test("the record's message says what happened", () => {
    const reason = new Interrupted("SIGINT");
    assert.match(
      reason.describe(),
      /^Interrupted by SIGINT \(Ctrl-C\): the run stopped before finishing, and no process it started is left running/,
    );
    reason.hurryUp();
    assert.match(reason.describe(), /then by a second signal: the running hook's processes were killed at once \(SIGKILL\)/);
    assert.match(reason.describe(true), /then by another signal: dropkit exited at once, before it finished putting things back/);
  });

  test("release removes every listener, so the process gets Node's default behaviour back", () => {
    const before = stopSignals.map((s) => process.listenerCount(s));
    const trap = trapSignals();
    assert.deepEqual(
      stopSignals.map((s) => process.listenerCount(s)),
      before.map((n) => n + 1),
    );
    trap.release();
    assert.deepEqual(
      stopSignals.map((s) => process.listenerCount(s)),
      before,
    );
  });

  test("in a real process: trapped, SIGINT is an abort; released, SIGINT ends the process as Node does", () => {
    const signals = new URL("../../src/signals.ts", import.meta.url).href;
    const script = (release: boolean) => `
      const { trapSignals } = await import(${JSON.stringify(signals)});
      const trap = trapSignals();
      trap.signal.addEventListener("abort", () => { console.log("aborted", trap.signal.reason.exitCode); process.exit(0); });
      ${release ? "trap.release();" : ""}
      process.kill(process.pid, "SIGINT");
      setTimeout(() => console.log("still alive"), 2000);
    `;
    const trapped = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script(false)], {
      encoding: "utf8",
      cwd: import.meta.dirname,
      timeout: 20_000,
    });
    assert.equal(trapped.stdout.trim(), "aborted 130", trapped.stderr);
    const released = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script(true)], {
      encoding: "utf8",
      cwd: import.meta.dirname,
      timeout: 20_000,
    });
    assert.equal(released.signal, "SIGINT", `${released.stdout}${released.stderr}`);
    assert.equal(released.stdout, "");
  });
});

/** A hook that records its pid and its background child's, prints a line, and waits for the child. */
const waitingHook = (extra = "") => ({
  text: `#!/bin/sh\n${extra}\necho $$ > hook.pid\nsleep 1000 &\necho $! > child.pid\necho "hook started"\nwait\n`,
  mode: 0o755,
});

/** A state file as an earlier run left it: the interrupted run must leave it byte for byte. */
const previousState = '{ "version": "0.7.2", "theme": "old", "modules": ["blog"], "created": 1714557600000 }\n';

/** The built CLI, started asynchronously so that the test can signal it. */
function startCli(root: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [cliPath, ...args], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? "/tmp",
      GIT_CEILING_DIRECTORIES: path.dirname(root),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => {
    child.once("close", (code, signal) => resolve({ code, signal, stderr }));
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  void exited.then(() => clearTimeout(timer));
  return { child, exited };
}

/** The pids a waiting hook wrote, once it wrote both. */
async function hookPids(root: string): Promise<{ hook: number; child: number }> {
  const read = (name: string) => fs.readFileSync(path.join(root, name), "utf8");
  await waitFor(() => fs.existsSync(path.join(root, "child.pid")) && read("child.pid").endsWith("\n"), 20_000, "the hook to start");
  return { hook: Number(read("hook.pid")), child: Number(read("child.pid")) };
}

/** Asserts that the hook, its child and every process of its group are gone (cleans them up either way). */
function assertGroupGone(pids: { hook: number; child: number }): void {
  const left = groupMembers(pids.hook);
  const alive = [pids.hook, pids.child].filter(isRunning);
  for (const pid of [...left, ...alive]) killQuietly(pid);
  assert.deepEqual(left, [], "processes of the hook's group still run");
  assert.deepEqual(alive, [], "the hook or its child still runs");
}

function records(stderr: string): Array<Record<string, any>> {
  return stderr
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

describe("signals to dropkit create while a hook runs", { timeout: 120_000 }, () => {
  for (const name of stopSignals) {
    test(`${name} in the init phase: exit ${signalExitCodes[name]}, the hook's whole group stopped, the state file untouched`, async () => {
      const root = fixture({
        ".dropkit.json": previousState,
        "blog.zip": { zip: { "index.html": "blog" } },
        "init-scripts/01-wait": waitingHook(),
        "init-scripts/02-next": { text: "#!/bin/sh\ntouch next-ran\n", mode: 0o755 },
      });
      const before = fs.readdirSync(root).sort();
      const run = startCli(root, ["create", "--log-format=json"]);
      const pids = await hookPids(root);
      run.child.kill(name);
      const { code, stderr } = await run.exited;
      assert.equal(code, signalExitCodes[name], stderr);
      assertGroupGone(pids);
      const all = records(stderr);
      const hook = all.find((r) => r.event === "hook" && r.file.endsWith("01-wait"));
      assert.equal(hook?.status, "interrupted");
      assert.match(hook.message, new RegExp(`dropkit received ${name}`));
      assert.deepEqual(all.at(-1), {
        event: "error",
        name: "Interrupted",
        exitCode: signalExitCodes[name],
        path: "",
        source: name,
        message: all.at(-1)!.message,
      });
      assert.match(all.at(-1)!.message, /stopped before finishing/);
      assert.equal(all.filter((r) => r.event === "error").length, 1, "one error record, never an InternalError");
      assert.equal(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8"), previousState);
      assert.deepEqual(
        fs.readdirSync(root).sort(),
        [...before, "child.pid", "hook.pid"].sort(),
        "nothing else written, the next hook not run",
      );
    });
  }

  test("SIGTERM in the post phase: exit 143, the group stopped, the state file put back byte for byte", async () => {
    const root = fixture({
      ".dropkit.json": previousState,
      "blog.zip": { zip: { "index.html": "blog" } },
      "post-scripts/01-wait": waitingHook(),
    });
    const run = startCli(root, ["create", "--log-format=json"]);
    const pids = await hookPids(root);
    run.child.kill("SIGTERM");
    const { code, stderr } = await run.exited;
    assert.equal(code, 143, stderr);
    assertGroupGone(pids);
    const all = records(stderr);
    assert.equal(all.find((r) => r.event === "hook" && r.phase === "post")?.status, "interrupted");
    assert.deepEqual(
      all.filter((r) => r.event === "state").map((r) => r.action),
      ["updated", "cache", "restored"],
      "written, then put back",
    );
    assert.equal(all.at(-1)!.name, "Interrupted");
    assert.equal(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8"), previousState);
    // No legacy copy of a lift that was undone, no temporary file, no lock left behind.
    assert.deepEqual(
      fs.readdirSync(root).filter((f) => f.startsWith(".dropkit.json") || f.endsWith(".tmp") || f.endsWith(".lock")),
      [".dropkit.json"],
    );
  });

  test("a hook that ignores SIGTERM is killed after the grace period; a second signal kills it at once", async () => {
    const stubborn = waitingHook("trap '' TERM");
    const patient = fixture({ ...blog, ".dropkit.json": previousState, "init-scripts/01-wait": stubborn });
    const first = startCli(patient, ["create", "--log-format=json"]);
    const firstPids = await hookPids(patient);
    first.child.kill("SIGINT");
    const waited = await first.exited;
    assert.equal(waited.code, 130, waited.stderr);
    const patientHook = records(waited.stderr).find((r) => r.event === "hook");
    assert.equal(patientHook?.signal, "SIGKILL", "SIGTERM was ignored: SIGKILL after the grace period");
    assert.ok(patientHook.durationMs >= 2000, "the grace period was given");
    assertGroupGone(firstPids);

    const hurried = fixture({ ...blog, ".dropkit.json": previousState, "init-scripts/01-wait": stubborn });
    const second = startCli(hurried, ["create", "--log-format=json"]);
    const secondPids = await hookPids(hurried);
    second.child.kill("SIGINT");
    await new Promise((resolve) => setTimeout(resolve, 200));
    second.child.kill("SIGINT");
    const forced = await second.exited;
    assert.equal(forced.code, 130, forced.stderr);
    const all = records(forced.stderr);
    assert.equal(all.find((r) => r.event === "hook")?.status, "interrupted", "the run unwound: the hook was logged");
    assert.match(all.at(-1)!.message, /then by a second signal: the running hook's processes were killed at once/);
    assertGroupGone(secondPids);
    assert.equal(fs.readFileSync(path.join(hurried, ".dropkit.json"), "utf8"), previousState);
  });

  test("Ctrl-C at a terminal: the hook (in its own group) is stopped by dropkit, which exits 130", {
    skip: hasScript() ? false : "script(1) is not available",
  }, async () => {
    const root = fixture({ ...blog, ".dropkit.json": previousState, "init-scripts/01-wait": waitingHook() });
    const terminal = new Terminal(root, ["create"]);
    await terminal.expect("hook started");
    const pids = await hookPids(root);
    terminal.send(keys.ctrlC);
    assert.equal(await terminal.exit(), 130, terminal.screen);
    assert.match(terminal.screen, /Interrupted \(exit 130\): Interrupted by SIGINT \(Ctrl-C\)/);
    assertGroupGone(pids);
    assert.equal(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8"), previousState);
  });
});

describe("signals to the other commands", { timeout: 120_000 }, () => {
  /** Runs `dropkit config` on a config function that takes `ms`, and sends SIGTERM `times` while it runs. */
  async function interruptConfig(ms: number, times: number) {
    const root = fixture({
      "dropkit.config.ts":
        `import fs from "node:fs";\nexport default async () => {\n  fs.writeFileSync("loading", "");\n  await new ` +
        `Promise((resolve) => setTimeout(resolve, ${ms}));\n  return { theme: "none" };\n};\n`,
    });
    const run = startCli(root, ["config", "--log-format=json"]);
    let stdout = "";
    run.child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    await waitFor(() => fs.existsSync(path.join(root, "loading")), 20_000, "the config to load");
    // The listeners come back once the config's code has waited 50 ms (src/signals.ts); before that the kernel ends the run.
    await new Promise((resolve) => setTimeout(resolve, 400));
    for (let i = 0; i < times; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 200));
      run.child.kill("SIGTERM");
    }
    return { ...(await run.exited), stdout };
  }

  // While a config's code waits, the listeners are on (src/signals.ts): config has nothing in flight, and stops at once with its record.
  test("config: SIGTERM while a config function waits: 143 at once with the Interrupted record, nothing on stdout", async () => {
    const { code, signal, stdout, stderr } = await interruptConfig(1500, 1);
    assert.equal(code, 143, stderr);
    assert.equal(signal, null);
    assert.equal(stdout, "", "the resolved config is not printed after the signal");
    const records = stderr
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, string>);
    assert.deepEqual(
      records.map((r) => [r.event, r.name, r.source]),
      [["error", "Interrupted", "SIGTERM"]],
    );
    assert.match(records[0]!.message, /while \S+dropkit\.config\.ts was loading: dropkit stopped at once/);
  });

  test("config: a config function that does not end; the first SIGTERM ends the run, with nothing on stdout", async () => {
    const { code, stdout, stderr } = await interruptConfig(60_000, 1);
    assert.equal(code, 143, stderr);
    assert.equal(stdout, "");
  });

  test("init: SIGTERM while a question waits closes it, writes nothing, and exits 143", {
    skip: hasScript() ? false : "script(1) is not available",
  }, async () => {
    const root = fixture({ "ocean-theme.zip": { zip: { "a.txt": "a" } } });
    const terminal = new Terminal(root, ["init"]);
    await terminal.expect("◆  Theme");
    // The dropkit process under script(1): the one running the CLI in this fixture.
    const dropkit = fs
      .readdirSync("/proc")
      .filter((p) => /^\d+$/.test(p))
      .map(Number)
      .find((pid) => {
        try {
          return fs.readlinkSync(`/proc/${pid}/cwd`) === root && fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[1] === cliPath;
        } catch {
          return false;
        }
      });
    assert.ok(dropkit, "the dropkit process was not found");
    process.kill(dropkit, "SIGTERM");
    assert.equal(await terminal.exit(), 143, terminal.screen);
    assert.match(terminal.screen, /Interrupted \(exit 143\): Interrupted by SIGTERM/);
    assert.equal(fs.existsSync(path.join(root, "dropkit.config.json")), false);
  });
});

describe("signals to dropkit create while it waits for the lock", { timeout: 120_000 }, () => {
  /** Starts create in a folder whose lock another run holds (a live process) with a long wait; resolves once it waits. */
  async function waitingForLock(root: string) {
    const run = startWaiting(root, ["create", "--log-format=json"], { __DROPKIT_TEST_LOCK_WAIT_MS: "60000" });
    await run.waitFor('"action":"waiting"');
    return run;
  }

  for (const name of stopSignals) {
    test(`${name} during the lock wait ends it at once: exit ${signalExitCodes[name]}, one Interrupted record, the lock untouched`, async () => {
      const holder = spawn("sleep", ["60"], { stdio: "ignore" });
      try {
        const lock = JSON.stringify({ pid: holder.pid, hostname: os.hostname(), startedAt: "2026-11-21T12:00:00.000Z" }) + "\n";
        const root = fixture({
          ...blog,
          ".dropkit.json.lock": lock,
          "init-scripts/mark": { text: "#!/bin/sh\ntouch init-ran\n", mode: 0o755 },
        });
        const run = await waitingForLock(root);
        const sent = Date.now();
        run.child.kill(name);
        const ended = await run.done;
        assert.ok(Date.now() - sent < 15_000, "the signal was acted on only when the wait ended");
        assert.equal(ended.status, signalExitCodes[name], ended.stderr);
        const errors = ended.records.filter((r) => r.event === "error");
        assert.deepEqual(
          errors.map((r) => [r.name, r.source]),
          [["Interrupted", name]],
          "exactly one error record",
        );
        assert.equal(fs.readFileSync(path.join(root, ".dropkit.json.lock"), "utf8"), lock);
        assert.equal(fs.existsSync(path.join(root, "init-ran")), false, "no hook ran");
      } finally {
        holder.kill("SIGKILL");
      }
    });
  }

  test("SIGTERM while a stale lock's takeover is blocked (its guard kept fresh) ends the wait at once with one record", async () => {
    const root = fixture(blog);
    fs.writeFileSync(path.join(root, ".dropkit.json.lock"), JSON.stringify({ pid: deadPid(), hostname: os.hostname(), startedAt: "x" }));
    const guard = path.join(root, ".dropkit.json.lock.takeover");
    const toucher = spawn("sh", ["-c", 'while :; do touch "$0"; sleep 0.05; done', guard], { stdio: "ignore" });
    try {
      const run = await waitingForLock(root);
      const sent = Date.now();
      run.child.kill("SIGTERM");
      const ended = await run.done;
      assert.ok(Date.now() - sent < 15_000, "the signal was acted on only when the wait ended");
      assert.equal(ended.status, 143, ended.stderr);
      assert.deepEqual(
        ended.records.filter((r) => r.event === "error").map((r) => r.name),
        ["Interrupted"],
      );
    } finally {
      killQuietly(toucher.pid!);
    }
  });
});
