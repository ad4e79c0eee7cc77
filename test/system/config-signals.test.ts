// SIGINT, SIGTERM and SIGHUP sent to the built CLI while a config's code blocks the main thread (issue 34, item 6), or waits (issue 36, item 7).

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { signalExitCodes, trapSignals, withDefaultSignals, type StopSignal } from "../../src/signals.js";
import { cliPath, fixture } from "../helpers/cli.js";
import { isRunning, killQuietly, waitFor } from "../helpers/processes.js";
import { hasScript, keys, Terminal } from "../helpers/pty.js";

const stopSignals = Object.keys(signalExitCodes) as StopSignal[];

/** Configs that say they started (a file the test waits for), then never give the main thread back. */
const blocking = {
  "a .ts config in while (true) {}": {
    "dropkit.config.ts": `import fs from "node:fs";\nfs.writeFileSync("started", "");\nwhile (true) {}\nexport default { theme: "none" };\n`,
  },
  "a .js config in while (true) {}": {
    "dropkit.config.js": `require("node:fs").writeFileSync("started", "");\nwhile (true) {}\nmodule.exports = { theme: "none" };\n`,
  },
  "a .js config in execSync of a command that hangs": {
    "dropkit.config.js": [
      `require("node:fs").writeFileSync("started", "");`,
      `require("node:child_process").execSync("echo $$ > sleep.pid && exec sleep 1000");`,
      `module.exports = { theme: "none" };\n`,
    ].join("\n"),
  },
} as const;

/**
 * Starts `dropkit create` in its own process group (as a shell starts a job), in a drop with an archive, so that a
 * run that went on would write the state and the cache file.
 */
function startCreate(root: string, env: Record<string, string> = {}) {
  return startDropkit(root, ["create", "--log-format=json"], env);
}

/** Starts dropkit with `args` in its own process group; `stderr()` is what it has written so far. */
function startDropkit(root: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [cliPath, ...args], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? os.tmpdir(),
      GIT_CEILING_DIRECTORIES: path.dirname(root),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  // "exit", not "close": execSync's child inherits dropkit's stderr, and holds the pipe while it lives.
  const exited = new Promise<{ status: number; at: number; stdout: string; stderr: string }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ status: shellStatus(code, signal), at: performance.now(), stdout, stderr }));
  });
  const guard = setTimeout(() => killQuietly(-child.pid!), 60_000);
  void exited.then(() => clearTimeout(guard));
  return { child, exited, stderr: () => stderr };
}

/** What a shell prints for `$?`: the exit code, or 128 + the number of the signal that ended the process. */
function shellStatus(code: number | null, signal: NodeJS.Signals | null): number {
  return code ?? 128 + os.constants.signals[signal!];
}

const drop = { "shop.zip": { zip: { "index.html": "<p>shop</p>" } } };

describe("a config whose code blocks the main thread", { timeout: 180_000 }, () => {
  for (const [what, files] of Object.entries(blocking)) {
    for (const name of stopSignals) {
      test(`${what}: ${name} ends the run within 1 s with ${signalExitCodes[name]}, nothing written, no process left`, async () => {
        const root = fixture({ ...files, ...drop });
        const before = fs.readdirSync(root).sort();
        const run = startCreate(root);
        await waitFor(() => fs.existsSync(path.join(root, "started")), 20_000, "the config to start");
        if (what.includes("execSync")) await waitFor(() => fs.existsSync(path.join(root, "sleep.pid")), 20_000, "the command to start");
        // Given time to get into the loop: a signal before the evaluation is heard by dropkit's own listeners.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const sent = performance.now();
        // To the whole group, as a terminal's Ctrl-C, `timeout` or a CI runner stopping a job does.
        process.kill(-run.child.pid!, name);
        const { status, at, stdout, stderr } = await run.exited;
        const sleeper = what.includes("execSync") ? Number(fs.readFileSync(path.join(root, "sleep.pid"), "utf8")) : 0;
        if (sleeper) await waitFor(() => !isRunning(sleeper), 5_000, "the config's command to end").catch(() => killQuietly(sleeper));
        assert.equal(status, signalExitCodes[name], stderr);
        assert.ok(at - sent < 1000, `ended ${Math.round(at - sent)} ms after the signal`);
        assert.equal(stdout, "");
        assert.deepEqual(
          fs.readdirSync(root).sort(),
          [...before, "started", ...(sleeper ? ["sleep.pid"] : [])].sort(),
          "no state, no cache file, nothing else written",
        );
        if (sleeper) assert.equal(isRunning(sleeper), false, "the config's command still runs");
      });
    }
  }

  test("SIGTERM to dropkit alone: the run ends at once; the command execSync started is the config's, and finishes by itself", async () => {
    const root = fixture({ ...blocking["a .js config in execSync of a command that hangs"], ...drop });
    const run = startCreate(root);
    await waitFor(() => fs.existsSync(path.join(root, "sleep.pid")), 20_000, "the command to start");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sleeper = Number(fs.readFileSync(path.join(root, "sleep.pid"), "utf8"));
    try {
      run.child.kill("SIGTERM");
      const { status } = await run.exited;
      assert.equal(status, 143);
      assert.equal(isRunning(sleeper), true, "documented: the kernel's default action ends dropkit, not the processes the config started");
    } finally {
      killQuietly(sleeper);
    }
  });

  test("with a short settle bound, a synchronous loop is not cut by the bound (documented); the first signal still ends it", async () => {
    const root = fixture({ ...blocking["a .ts config in while (true) {}"], ...drop });
    const run = startCreate(root, { __DROPKIT_TEST_CONFIG_SETTLE_MS: "200" });
    await waitFor(() => fs.existsSync(path.join(root, "started")), 20_000, "the config to start");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(isRunning(run.child.pid!), true, "the settle bound is a timer: it needs the main thread back");
    process.kill(-run.child.pid!, "SIGTERM");
    const { status, stderr } = await run.exited;
    assert.equal(status, 143, stderr);
  });

  test("a config that waits (its code awaits a timer): the first SIGTERM ends it at once too, not when the config settles", async () => {
    const root = fixture({
      "dropkit.config.ts": [
        `import fs from "node:fs";`,
        `export default async () => {`,
        `  fs.writeFileSync("started", "");`,
        `  await new Promise((resolve) => setTimeout(resolve, 30_000));`,
        `  return { theme: "none" };`,
        `};\n`,
      ].join("\n"),
      ...drop,
    });
    const run = startCreate(root);
    await waitFor(() => fs.existsSync(path.join(root, "started")), 20_000, "the config to start");
    const sent = performance.now();
    run.child.kill("SIGTERM");
    const { status, at, stdout } = await run.exited;
    assert.equal(status, 143);
    assert.ok(at - sent < 1000, `ended ${Math.round(at - sent)} ms after the signal`);
    assert.equal(stdout, "");
  });
});

/** Configs that say they started (a file the test waits for), then wait: the main thread is free while they do. */
const waiting = {
  "a .ts config awaiting a timer at its top level": {
    "dropkit.config.ts": [
      `import fs from "node:fs";`,
      `fs.writeFileSync("started", "");`,
      `await new Promise((resolve) => setTimeout(resolve, 20_000));`,
      `export default { theme: "none" };\n`,
    ].join("\n"),
  },
  "a .js config whose exported function awaits a child process": {
    "dropkit.config.js": [
      `const { execFile } = require("node:child_process");`,
      `module.exports = async () => {`,
      `  require("node:fs").writeFileSync("started", "");`,
      `  await new Promise((resolve) => execFile("sleep", ["20"], resolve));`,
      `  return { theme: "none" };`,
      `};\n`,
    ].join("\n"),
  },
} as const;

/** The JSON records dropkit wrote to stderr so far. */
function recordsOf(stderr: string): Array<Record<string, unknown>> {
  return stderr
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Starts dropkit in a drop holding `files`, and returns once the config's code has started and is waiting. */
async function startWaiting(files: Record<string, string>, args: string[], env: Record<string, string> = {}) {
  const root = fixture({ ...files, ...drop });
  const before = fs.readdirSync(root).sort();
  const run = startDropkit(root, args, env);
  await waitFor(() => fs.existsSync(path.join(root, "started")), 20_000, "the config to start");
  // The listeners come back once the loop has made no callback for 50 ms; a signal before that ends the run as above.
  await new Promise((resolve) => setTimeout(resolve, 400));
  const unchanged = () => {
    // What the config started (execFile's sleep) is its own, and outlives a dropkit that got the signal alone: the whole
    // group goes (a negative pid).
    killQuietly(-run.child.pid!);
    assert.deepEqual(fs.readdirSync(root).sort(), [...before, "started"].sort(), "nothing written");
  };
  return { ...run, root, unchanged };
}

describe("Ctrl-C while a config's code waits", { timeout: 180_000 }, () => {
  for (const [what, files] of Object.entries(waiting)) {
    test(`${what}: config stops at the first SIGINT, at once, with its Interrupted record naming the file`, async () => {
      const run = await startWaiting(files, ["config", "--json"]);
      const sent = performance.now();
      run.child.kill("SIGINT");
      const { status, at, stdout, stderr } = await run.exited;
      assert.equal(status, 130, stderr);
      assert.ok(at - sent < 1000, `ended ${Math.round(at - sent)} ms after the signal`);
      assert.equal(stdout, "", "nothing on stdout: the config was not loaded");
      const records = recordsOf(stderr);
      assert.deepEqual(
        records.map((r) => [r.event, r.name, r.exitCode, r.source]),
        [["error", "Interrupted", 130, "SIGINT"]],
      );
      assert.match(String(records[0]!.message), new RegExp(`while ${path.join(run.root, Object.keys(files)[0]!)} was loading`));
      run.unchanged();
    });

    test(`${what}: create notes the first SIGINT at once and keeps waiting; the second ends it with 130, nothing written`, async () => {
      const run = await startWaiting(files, ["create", "--log-format=json"]);
      const sent = performance.now();
      run.child.kill("SIGINT");
      await waitFor(() => run.stderr().includes('"WaitingForConfig"'), 5_000, "the note");
      assert.ok(performance.now() - sent < 1000, `noted ${Math.round(performance.now() - sent)} ms after the signal`);
      const [note] = recordsOf(run.stderr());
      assert.equal(note!.event, "warning");
      assert.equal(note!.source, "SIGINT");
      assert.equal(note!.file, path.join(run.root, Object.keys(files)[0]!));
      assert.match(String(note!.message), /Press Ctrl-C again to quit now/);
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(isRunning(run.child.pid!), true, "the first Ctrl-C waits for the config");
      const second = performance.now();
      run.child.kill("SIGINT");
      const { status, at, stderr } = await run.exited;
      assert.equal(status, 130, stderr);
      assert.ok(at - second < 1000, `ended ${Math.round(at - second)} ms after the second signal`);
      assert.deepEqual(
        recordsOf(stderr).map((r) => [r.event, r.code ?? r.name]),
        [
          ["warning", "WaitingForConfig"],
          ["error", "Interrupted"],
        ],
      );
      run.unchanged();
    });
  }

  test("create after one SIGINT: the config finishes loading, then the run stops with 130 before logging or writing anything", async () => {
    const files = {
      "dropkit.config.ts": [
        `import fs from "node:fs";`,
        `export default async () => {`,
        `  fs.writeFileSync("started", "");`,
        `  await new Promise((resolve) => setTimeout(resolve, 2_000));`,
        `  fs.writeFileSync("loaded", "");`,
        `  return { theme: "none" };`,
        `};\n`,
      ].join("\n"),
    };
    const run = await startWaiting(files, ["create", "--log-format=json"]);
    run.child.kill("SIGINT");
    const { status, stderr } = await run.exited;
    assert.equal(status, 130, stderr);
    assert.ok(fs.existsSync(path.join(run.root, "loaded")), "the config's code ran to its end");
    const records = recordsOf(stderr);
    assert.deepEqual(
      records.map((r) => [r.event, r.code ?? r.name]),
      [
        ["warning", "WaitingForConfig"],
        ["error", "Interrupted"],
      ],
    );
    assert.match(String(records[1]!.message), /was loading: the run stopped once it had loaded, and nothing was written/);
    fs.rmSync(path.join(run.root, "loaded"));
    run.unchanged();
  });

  for (const name of ["SIGTERM", "SIGHUP"] as const) {
    test(`create: ${name}, which programs send, ends the run at once with its record (no note)`, async () => {
      const run = await startWaiting(waiting["a .ts config awaiting a timer at its top level"], ["create", "--log-format=json"]);
      const sent = performance.now();
      run.child.kill(name);
      const { status, at, stderr } = await run.exited;
      assert.equal(status, signalExitCodes[name], stderr);
      assert.ok(at - sent < 1000, `ended ${Math.round(at - sent)} ms after the signal`);
      assert.deepEqual(
        recordsOf(stderr).map((r) => [r.event, r.name, r.source]),
        [["error", "Interrupted", name]],
      );
      run.unchanged();
    });
  }

  test("--quiet keeps the note, in the text log too", async () => {
    const run = await startWaiting(waiting["a .ts config awaiting a timer at its top level"], ["create", "-q"]);
    run.child.kill("SIGINT");
    await waitFor(() => run.stderr().includes("Press Ctrl-C again"), 5_000, "the note");
    assert.match(run.stderr(), /^warning +Interrupted by SIGINT \(Ctrl-C\) while \S+dropkit\.config\.ts is loading: waiting for it/);
    run.child.kill("SIGINT");
    const { status, stderr } = await run.exited;
    assert.equal(status, 130, stderr);
    assert.match(stderr, /^error +Interrupted \(exit 130\)/m);
    run.unchanged();
  });

  test("a config that waits, then holds the main thread: after the note, the second SIGINT ends it at once (the kernel's, no record)", async () => {
    const files = {
      "dropkit.config.ts": [
        `import fs from "node:fs";`,
        `fs.writeFileSync("started", "");`,
        `await new Promise((resolve) => setTimeout(resolve, 1_500));`,
        `fs.writeFileSync("looping", "");`,
        `while (true) {}`,
        `export default { theme: "none" };\n`,
      ].join("\n"),
    };
    const run = await startWaiting(files, ["create", "--log-format=json"]);
    run.child.kill("SIGINT");
    await waitFor(() => run.stderr().includes('"WaitingForConfig"'), 5_000, "the note");
    await waitFor(() => fs.existsSync(path.join(run.root, "looping")), 10_000, "the loop to start");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sent = performance.now();
    run.child.kill("SIGINT");
    const { status, at, stderr } = await run.exited;
    assert.equal(status, 130, stderr);
    assert.ok(at - sent < 1000, `ended ${Math.round(at - sent)} ms after the signal`);
    assert.deepEqual(
      recordsOf(stderr).map((r) => r.code ?? r.name),
      ["WaitingForConfig"],
    );
    fs.rmSync(path.join(run.root, "looping"));
    run.unchanged();
  });

  test("Ctrl-C at a terminal: config stops at the first, with its record", {
    skip: hasScript() ? false : "script(1) is not available",
  }, async () => {
    const root = fixture({ ...waiting["a .ts config awaiting a timer at its top level"], ...drop });
    const terminal = new Terminal(root, ["config"]);
    await waitFor(() => fs.existsSync(path.join(root, "started")), 20_000, "the config to start");
    await new Promise((resolve) => setTimeout(resolve, 400));
    terminal.send(keys.ctrlC);
    await terminal.expect("Interrupted (exit 130): Interrupted by SIGINT (Ctrl-C) while", 5_000);
    assert.equal(await terminal.exit(5_000), 130);
    assert.doesNotMatch(terminal.screen, /KEY +VALUE/, "no table: the config was not loaded");
  });

  test("Ctrl-C at a terminal: the note, then the second Ctrl-C quits with 130", {
    skip: hasScript() ? false : "script(1) is not available",
  }, async () => {
    const root = fixture({ ...waiting["a .ts config awaiting a timer at its top level"], ...drop });
    const terminal = new Terminal(root, ["create"]);
    await waitFor(() => fs.existsSync(path.join(root, "started")), 20_000, "the config to start");
    await new Promise((resolve) => setTimeout(resolve, 400));
    terminal.send(keys.ctrlC);
    await terminal.expect("is loading: waiting for it to finish", 5_000);
    await terminal.expect("Press Ctrl-C again to quit now.");
    terminal.send(keys.ctrlC);
    await terminal.expect("Interrupted (exit 130)", 5_000);
    assert.equal(await terminal.exit(), 130);
    assert.equal(fs.existsSync(path.join(root, ".dropkit.json")), false);
  });
});

describe("withDefaultSignals", () => {
  test("takes dropkit's listeners away while the work runs and puts them back after, nested or not", async () => {
    const target = new EventEmitter();
    const trap = trapSignals({ target: target as never });
    const counts = () => stopSignals.map((s) => target.listenerCount(s));
    assert.deepEqual(counts(), [1, 1, 1]);
    await withDefaultSignals("a.ts", async () => {
      assert.deepEqual(counts(), [0, 0, 0]);
      await withDefaultSignals("b.ts", async () => assert.deepEqual(counts(), [0, 0, 0]));
      assert.deepEqual(counts(), [0, 0, 0], "still away while the outer work runs");
    });
    assert.deepEqual(counts(), [1, 1, 1]);
    await assert.rejects(
      withDefaultSignals("a.ts", async () => {
        throw new Error("boom");
      }),
      /boom/,
    );
    assert.deepEqual(counts(), [1, 1, 1], "back after a failure too");
    trap.release();
    assert.deepEqual(counts(), [0, 0, 0]);
  });

  test("a signal that arrived before the work began stops it before it starts", async () => {
    const target = new EventEmitter();
    const trap = trapSignals({ target: target as never });
    target.emit("SIGHUP");
    let ran = false;
    await assert.rejects(
      withDefaultSignals("a.ts", async () => {
        ran = true;
      }),
      (error) => error === trap.signal.reason,
    );
    assert.equal(ran, false);
    assert.equal(target.listenerCount("SIGHUP"), 1, "the trap keeps listening: the run unwinds as interrupted");
    trap.release();
  });

  test("with no trap (the library), a host program's own listeners stay", async () => {
    const host = (): void => {};
    process.on("SIGTERM", host);
    try {
      await withDefaultSignals("a.ts", async () => assert.equal(process.listeners("SIGTERM").includes(host), true));
    } finally {
      process.off("SIGTERM", host);
    }
  });
});
