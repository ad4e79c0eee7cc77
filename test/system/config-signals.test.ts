// SIGINT, SIGTERM and SIGHUP sent to the built CLI while a config's code blocks the main thread (issue 34, item 6).

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
  const child = spawn(process.execPath, [cliPath, "create", "--log-format=json"], {
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
  const guard = setTimeout(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // Already gone.
    }
  }, 60_000);
  void exited.then(() => clearTimeout(guard));
  return { child, exited };
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

describe("withDefaultSignals", () => {
  test("takes dropkit's listeners away while the work runs and puts them back after, nested or not", async () => {
    const target = new EventEmitter();
    const trap = trapSignals({ target: target as never });
    const counts = () => stopSignals.map((s) => target.listenerCount(s));
    assert.deepEqual(counts(), [1, 1, 1]);
    await withDefaultSignals(async () => {
      assert.deepEqual(counts(), [0, 0, 0]);
      await withDefaultSignals(async () => assert.deepEqual(counts(), [0, 0, 0]));
      assert.deepEqual(counts(), [0, 0, 0], "still away while the outer work runs");
    });
    assert.deepEqual(counts(), [1, 1, 1]);
    await assert.rejects(
      withDefaultSignals(async () => {
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
      withDefaultSignals(async () => {
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
      await withDefaultSignals(async () => assert.equal(process.listeners("SIGTERM").includes(host), true));
    } finally {
      process.off("SIGTERM", host);
    }
  });
});
