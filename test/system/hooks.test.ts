// Tests for src/hooks/scripts.ts: which files run, in what order, where their output goes, and how they fail.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { DropkitError } from "../../src/errors.js";
import { runHooks, type HookOptions, type HookOutputRecord, type HookRecord } from "../../src/hooks/scripts.js";
import { Interrupted } from "../../src/signals.js";
import { cliPath, eventsOf, fixture, runCli, type FixtureFile } from "../helpers/cli.js";
import { assertStopped, killQuietly, waitFor } from "../helpers/processes.js";
import { tempDir } from "../helpers/temp.js";

/** A project dir with an `init-scripts` dir holding `hooks` (name → [script, mode]). */
function project(hooks: Record<string, [string, number]>): string {
  const root = tempDir();
  fs.mkdirSync(path.join(root, "init-scripts"));
  for (const [name, [script, mode]] of Object.entries(hooks)) {
    fs.writeFileSync(path.join(root, "init-scripts", name), script);
    fs.chmodSync(path.join(root, "init-scripts", name), mode);
  }
  return root;
}

/** A shell hook that appends its name to `ran.txt` in the working directory, then runs `body`. */
const sh = (name: string, body = ""): [string, number] => [`#!/bin/sh\necho ${name} >> ran.txt\n${body}\n`, 0o755];

function options(cwd: string, extra: Partial<HookOptions> = {}): HookOptions & { records: HookRecord[] } {
  const records: HookRecord[] = [];
  return {
    cwd,
    onFailure: "continue",
    phase: "init",
    env: { PATH: process.env.PATH },
    timeoutMs: 10_000,
    log: (r) => records.push(r),
    records,
    ...extra,
  };
}

const ran = (root: string): string[] => {
  const file = path.join(root, "ran.txt");
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n") : [];
};

describe("runHooks: which hooks run", () => {
  test("every executable regular file, in name order, with the working directory as cwd", async () => {
    const root = project({
      "20-b": sh("b"),
      "10-a": sh("a"),
      "3-c": sh("c"),
      "B-upper": sh("B"),
      cwd: ["#!/bin/sh\npwd > cwd.txt\n", 0o755],
    });
    const opts = options(root);
    const outcome = await runHooks("init-scripts", opts);
    // Code-unit order: digits, then uppercase, then lowercase.
    assert.deepEqual(ran(root), ["a", "b", "c", "B"]);
    assert.equal(fs.readFileSync(path.join(root, "cwd.txt"), "utf8").trim(), root);
    assert.equal(outcome.dir, path.join(root, "init-scripts"));
    assert.equal(outcome.exists, true);
    assert.deepEqual(
      outcome.ran.map((r) => path.basename(r.file)),
      ["10-a", "20-b", "3-c", "B-upper", "cwd"],
    );
    assert.deepEqual(outcome.warnings, []);
  });

  test("each hook is logged with phase, file, exit code and duration", async () => {
    const root = project({ a: sh("a") });
    const opts = options(root, { phase: "post" });
    await runHooks(path.join(root, "init-scripts"), opts);
    assert.equal(opts.records.length, 1);
    const [record] = opts.records;
    assert.equal(record!.event, "hook");
    assert.equal(record!.phase, "post");
    assert.equal(record!.file, path.join(root, "init-scripts", "a"));
    assert.equal(record!.exitCode, 0);
    assert.equal(record!.status, "ok");
    assert.equal(typeof record!.durationMs, "number");
    assert.ok(record!.durationMs >= 0);
  });

  test("files without the execute bit, directories and hidden files are not run; skipped files are logged", async () => {
    const root = project({ a: sh("a"), "notes.txt": sh("notes"), ".hidden": sh("hidden") });
    fs.chmodSync(path.join(root, "init-scripts", "notes.txt"), 0o644);
    fs.mkdirSync(path.join(root, "init-scripts", "subdir"));
    const opts = options(root);
    const outcome = await runHooks("init-scripts", opts);
    assert.deepEqual(ran(root), ["a"]);
    assert.deepEqual(outcome.skipped, [path.join(root, "init-scripts", "notes.txt"), path.join(root, "init-scripts", "subdir")]);
    assert.deepEqual(
      opts.records.map((r) => [path.basename(r.file), r.status]),
      [
        ["a", "ok"],
        ["notes.txt", "skipped"],
        ["subdir", "skipped"],
      ],
    );
    assert.match(opts.records[1]!.message!, /not executable/);
    assert.match(opts.records[2]!.message!, /is a directory/);
  });

  test("create logs each entry at its turn in name order: a skipped file after the hooks ahead of it, a directory too", () => {
    const root = fixture({
      "blog.zip": { zip: { "a.txt": "a" } },
      "init-scripts/05-notes": { text: "#!/bin/sh\n", mode: 0o644 },
      "init-scripts/10-a": { text: "#!/bin/sh\n", mode: 0o755 },
      "init-scripts/20-dir/": "",
      "init-scripts/30-b": { text: "#!/bin/sh\n", mode: 0o755 },
    });
    fs.symlinkSync("nowhere", path.join(root, "init-scripts", "40-link"));
    const run = runCli(root, ["create", "--log-format=json"]);
    assert.equal(run.status, 0, run.stderr);
    const hooks = eventsOf(run, "hook").filter((r) => r.phase === "init");
    assert.deepEqual(
      hooks.map((r) => [path.basename(r.file), r.status]),
      [
        ["05-notes", "skipped"],
        ["10-a", "ok"],
        ["20-dir", "skipped"],
        ["30-b", "ok"],
        ["40-link", "skipped"],
      ],
    );
    assert.match(hooks[2]!.message, /20-dir is a directory/);
    assert.match(hooks[4]!.message, /link to nothing/);
    const text = runCli(root, ["create"]);
    const lines = text.stderr.split("\n").filter((l) => l.startsWith("hook      init"));
    assert.deepEqual(
      lines.map((l) => /init-scripts\/(\S+) (\S+)/.exec(l)!.slice(1)),
      [
        ["05-notes", "skipped:"],
        ["10-a", "ok"],
        ["20-dir", "skipped:"],
        ["30-b", "ok"],
        ["40-link", "skipped:"],
      ],
    );
  });

  test("create does not log a file it would have skipped when a hook ahead of it stops the run", () => {
    const root = fixture({
      "blog.zip": { zip: { "a.txt": "a" } },
      "dropkit.config.json": JSON.stringify({ hooks: { onFailure: "fail" } }),
      "init-scripts/10-fail": { text: "#!/bin/sh\nexit 3\n", mode: 0o755 },
      "init-scripts/20-notes": { text: "#!/bin/sh\n", mode: 0o644 },
      "init-scripts/30-dir/": "",
    });
    const run = runCli(root, ["create", "--log-format=json"]);
    assert.equal(run.status, 1, run.stderr);
    assert.deepEqual(
      eventsOf(run, "hook").map((r) => [path.basename(r.file), r.status]),
      [["10-fail", "failed"]],
    );
  });

  test("a hook whose name is not valid UTF-8 is not run, with a warning naming it that says to rename it; the others run", async () => {
    const root = project({ a: sh("a") });
    // f\xff: no string path reaches it (Node lists it as f\uFFFD), as for such an archive.
    fs.writeFileSync(Buffer.concat([Buffer.from(`${root}/init-scripts/`), Buffer.from([0x66, 0xff])]), "#!/bin/sh\necho bad >> ran.txt\n", {
      mode: 0o755,
    });
    const opts = options(root);
    const outcome = await runHooks("init-scripts", opts);
    assert.deepEqual(ran(root), ["a"]);
    const file = path.join(root, "init-scripts", "f\uFFFD");
    assert.deepEqual(outcome.warnings, [
      {
        message: `The init hook ${file} is not run: its name is not valid UTF-8, so it cannot be started by name; rename it.`,
        source: file,
      },
    ]);
    assert.deepEqual(
      opts.records.map((r) => [path.basename(r.file), r.status]),
      [["a", "ok"]],
    );
  });

  test("create logs a hook whose name is not valid UTF-8 as a warning, escaped in the text log, and goes on", () => {
    const root = fixture({
      "blog.zip": { zip: { "a.txt": "a" } },
      "post-scripts/ok": { text: "#!/bin/sh\ntouch post-ran\n", mode: 0o755 },
    });
    // A newline and an invalid byte: the text log shows the newline as \n and the byte as U+FFFD.
    fs.writeFileSync(Buffer.concat([Buffer.from(`${root}/post-scripts/x\n`), Buffer.from([0xfe])]), "#!/bin/sh\n", { mode: 0o755 });
    const json = runCli(root, ["create", "--log-format=json"]);
    assert.equal(json.status, 0, json.stderr);
    const [warning] = eventsOf(json, "warning");
    assert.equal(warning!.source, path.join(root, "post-scripts", "x\n\uFFFD"));
    assert.match(
      warning!.message,
      /The post hook .*post-scripts\/x\n\uFFFD is not run: its name is not valid UTF-8, so it cannot be started by name; rename it\./,
    );
    assert.ok(fs.existsSync(path.join(root, "post-ran")));
    const text = runCli(root, ["create"]);
    assert.equal(text.status, 0, text.stderr);
    const line = text.stderr.split("\n").find((l) => l.startsWith("warning"))!;
    assert.ok(line.includes("post-scripts/x\\n\uFFFD is not run"), line);
  });

  test("a symbolic link to an executable file runs", async () => {
    const root = project({});
    fs.writeFileSync(path.join(root, "real.sh"), "#!/bin/sh\necho linked >> ran.txt\n", { mode: 0o755 });
    fs.symlinkSync(path.join(root, "real.sh"), path.join(root, "init-scripts", "link"));
    await runHooks("init-scripts", options(root));
    assert.deepEqual(ran(root), ["linked"]);
  });

  test("a hook runs from its judged descriptor: $0 is /proc/self/fd/3, dropkit_hook its path; no other descriptor of ours leaks in", {
    skip: process.platform !== "linux" && "the descriptor is run through /proc on Linux only",
  }, async () => {
    const root = project({
      "1-self": [
        '#!/bin/sh\necho "$0 $dropkit_hook" > self.txt\nfor fd in /proc/$$/fd/*; do [ "$(basename "$fd")" -gt 2 ] && readlink "$fd"; done > fds.txt\n',
        0o755,
      ],
      "2-other": sh("other"),
    });
    // A program, not a script: the kernel runs the descriptor itself.
    fs.symlinkSync(
      spawnSync("sh", ["-c", "command -v printenv"], { encoding: "utf8" }).stdout.trim(),
      path.join(root, "init-scripts", "3-env"),
    );
    const lines: HookOutputRecord[] = [];
    await runHooks("init-scripts", options(root, { output: (r) => lines.push(r) }));
    const self = path.join(root, "init-scripts", "1-self");
    assert.equal(fs.readFileSync(path.join(root, "self.txt"), "utf8"), `/proc/self/fd/3 ${self}\n`);
    // fd 3, and the shell's own descriptor of its script: the same file. Neither the directory nor the other hooks, which
    // dropkit holds open meanwhile (what the test runner itself passed down, a pipe or a socket, is not ours).
    const fds = fs.readFileSync(path.join(root, "fds.txt"), "utf8").trim().split("\n");
    assert.ok(fds.includes(self), fds.join(", "));
    assert.deepEqual(
      fds.filter((fd) => fd.startsWith(path.join(root, "init-scripts"))),
      fds.filter((fd) => fd === self),
    );
    assert.ok(lines.some((l) => l.text === `dropkit_hook=${path.join(root, "init-scripts", "3-env")}`));
  });

  test("a missing directory means no hooks, and is recorded", async () => {
    const root = project({});
    const opts = options(root);
    const outcome = await runHooks("post-scripts", opts);
    assert.equal(outcome.exists, false);
    assert.deepEqual(outcome.ran, []);
    assert.equal(opts.records.length, 1);
    assert.equal(opts.records[0]!.status, "no-directory");
    assert.equal(opts.records[0]!.file, path.join(root, "post-scripts"));
  });

  test("a hooks path that is a file is an IOError", async () => {
    const root = project({});
    fs.writeFileSync(path.join(root, "hooks-file"), "");
    await assert.rejects(
      runHooks("hooks-file", options(root)),
      (e: DropkitError) => e.name === "IOError" && /not a directory/.test(e.message),
    );
  });

  test("hooks run directly: no shell, no interpolation of names, environment passed", async () => {
    const root = project({ "$(touch pwned);x": ['#!/bin/sh\necho "$MY_VAR" > env.txt\n', 0o755] });
    await runHooks("init-scripts", options(root, { env: { PATH: process.env.PATH, MY_VAR: "$HOME `id`" } }));
    assert.equal(fs.readFileSync(path.join(root, "env.txt"), "utf8"), "$HOME `id`\n");
    assert.equal(fs.existsSync(path.join(root, "pwned")), false);
  });

  test("hook stdout and stderr go to our stderr; our stdout stays clean", () => {
    const root = project({ talk: ["#!/bin/sh\necho to-stdout\necho to-stderr >&2\n", 0o755] });
    const hooks = new URL("../../src/hooks/scripts.ts", import.meta.url).href;
    const script = `
      const { runHooks } = await import(${JSON.stringify(hooks)});
      await runHooks("init-scripts", { cwd: ${JSON.stringify(root)}, onFailure: "fail", phase: "init", env: process.env, timeoutMs: 10000, log: () => {} });
    `;
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
      cwd: import.meta.dirname,
    });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /to-stdout/);
    assert.match(run.stderr, /to-stderr/);
  });
});

describe("runHooks: failures", () => {
  test("continue: a non-zero exit is a warning and the next hooks still run", async () => {
    const root = project({ "1": sh("one", "exit 3"), "2": sh("two") });
    const opts = options(root);
    const outcome = await runHooks("init-scripts", opts);
    assert.deepEqual(ran(root), ["one", "two"]);
    assert.deepEqual(
      outcome.ran.map((r) => [r.status, r.exitCode]),
      [
        ["failed", 3],
        ["ok", 0],
      ],
    );
    assert.equal(outcome.warnings.length, 1);
    assert.match(outcome.warnings[0]!.message, /init-scripts\/1 failed with exit code 3.*continue/);
    assert.equal(outcome.warnings[0]!.source, path.join(root, "init-scripts", "1"));
  });

  test("fail: the run stops at the failing hook with HookFailed (exit 1) naming it and its code", async () => {
    const root = project({ "1": sh("one"), "2": sh("two", "exit 7"), "3": sh("three") });
    const opts = options(root, { onFailure: "fail" });
    await assert.rejects(runHooks("init-scripts", opts), (e: DropkitError) => {
      assert.ok(e instanceof DropkitError);
      assert.equal(e.name, "HookFailed");
      assert.equal(e.exitCode, 1);
      assert.ok(e.message.includes(path.join(root, "init-scripts", "2")));
      assert.match(e.message, /exit code 7/);
      return true;
    });
    assert.deepEqual(ran(root), ["one", "two"]);
    assert.deepEqual(
      opts.records.map((r) => r.exitCode),
      [0, 7],
      "the failing hook is logged before the run stops",
    );
  });

  test("a hook killed by a signal fails", async () => {
    const root = project({ k: sh("k", "kill -9 $$") });
    const opts = options(root);
    const outcome = await runHooks("init-scripts", opts);
    assert.equal(outcome.ran[0]!.status, "failed");
    assert.equal(outcome.ran[0]!.signal, "SIGKILL");
    assert.equal(outcome.ran[0]!.exitCode, null);
    assert.match(outcome.warnings[0]!.message, /killed by SIGKILL/);
  });

  test("a hook that cannot be started fails (spawn error)", async () => {
    const root = project({ bad: ["#!/nonexistent/interpreter\n", 0o755], next: sh("next") });
    const outcome = await runHooks("init-scripts", options(root));
    assert.equal(outcome.ran[0]!.status, "spawn-error");
    assert.match(outcome.warnings[0]!.message, /could not be started \(ENOENT\)/);
    assert.deepEqual(ran(root), ["next"]);
  });

  test("a spawn error with fail stops the run", async () => {
    const root = project({ bad: ["#!/nonexistent/interpreter\n", 0o755] });
    await assert.rejects(
      runHooks("init-scripts", options(root, { onFailure: "fail" })),
      (e: DropkitError) => e.name === "HookFailed" && /could not be started/.test(e.message),
    );
  });

  test("a hook over the timeout is killed and reported as timed out", async () => {
    const root = project({ "1-slow": ["#!/bin/sh\nexec sleep 5\n", 0o755], "2-next": sh("next") });
    const started = Date.now();
    const outcome = await runHooks("init-scripts", options(root, { timeoutMs: 200 }));
    assert.ok(Date.now() - started < 3000, "killed, not waited for");
    assert.equal(outcome.ran[0]!.status, "timed-out");
    assert.equal(outcome.ran[0]!.signal, "SIGTERM");
    assert.match(outcome.warnings[0]!.message, /timed out after 0\.2 s/);
    assert.deepEqual(ran(root), ["next"]);
  });

  test("a hook that ignores SIGTERM gets SIGKILL", async () => {
    const root = project({ stubborn: ["#!/bin/sh\ntrap '' TERM\nexec sleep 10\n", 0o755] });
    const outcome = await runHooks("init-scripts", options(root, { timeoutMs: 100 }));
    assert.equal(outcome.ran[0]!.status, "timed-out");
    assert.equal(outcome.ran[0]!.signal, "SIGKILL");
  });

  test("a timeout with fail stops the run with HookFailed", async () => {
    const root = project({ slow: ["#!/bin/sh\nexec sleep 5\n", 0o755] });
    await assert.rejects(
      runHooks("init-scripts", options(root, { timeoutMs: 100, onFailure: "fail" })),
      (e: DropkitError) => e.name === "HookFailed" && e.exitCode === 1 && /timed out/.test(e.message),
    );
  });
});

describe("runHooks: no process outlives its hook", { timeout: 120_000 }, () => {
  /** A hook that starts `sleep 1000` in the background and writes its pid to child.pid. */
  const backgrounding = (after: string): [string, number] => [`#!/bin/sh\nsleep 1000 &\necho $! > child.pid\n${after}\n`, 0o755];
  const childPid = (root: string) => Number(fs.readFileSync(path.join(root, "child.pid"), "utf8"));

  test("a hook that leaves a background child and exits 0: the child is stopped with it", async () => {
    const root = project({ bg: backgrounding("exit 0") });
    const outcome = await runHooks("init-scripts", options(root));
    assert.equal(outcome.ran[0]!.status, "ok");
    assertStopped(childPid(root));
  });

  test("a leftover that ignores SIGTERM gets SIGKILL after the grace period", async () => {
    const root = project({ "stubborn-bg": ["#!/bin/sh\n(trap '' TERM; sleep 1000) &\necho $! > child.pid\nexit 0\n", 0o755] });
    await runHooks("init-scripts", options(root));
    assertStopped(childPid(root));
  });

  test("a timeout stops the whole group: `sleep 1000 & wait` ends, sleep included", async () => {
    const root = project({ "1-wait": backgrounding("wait"), "2-next": sh("next") });
    const outcome = await runHooks("init-scripts", options(root, { timeoutMs: 300 }));
    assert.equal(outcome.ran[0]!.status, "timed-out");
    assertStopped(childPid(root));
    assert.deepEqual(ran(root), ["next"]);
  });

  test("an aborted signal stops the running hook's group, logs it as interrupted, and starts no further hook", async () => {
    const root = project({ "1-wait": backgrounding("wait"), "2-next": sh("next") });
    const controller = new AbortController();
    const opts = options(root, { signal: controller.signal });
    const running = runHooks("init-scripts", opts);
    await waitFor(() => fs.existsSync(path.join(root, "child.pid")));
    const reason = new Interrupted("SIGTERM");
    controller.abort(reason);
    await assert.rejects(running, (e) => e === reason);
    assertStopped(childPid(root));
    assert.deepEqual(
      opts.records.map((r) => [path.basename(r.file), r.status]),
      [["1-wait", "interrupted"]],
    );
    assert.match(opts.records[0]!.message!, /stopped with every process it started, because dropkit received SIGTERM/);
    assert.deepEqual(ran(root), []);
    // Already aborted: nothing starts at all.
    await assert.rejects(runHooks("init-scripts", options(root, { signal: controller.signal })), (e) => e === reason);
  });
});

describe("runHooks: captured output (the JSON log)", { timeout: 120_000 }, () => {
  function capture(root: string, extra: Partial<HookOptions> = {}) {
    const lines: HookOutputRecord[] = [];
    return { lines, opts: options(root, { output: (r) => lines.push(r), ...extra }) };
  }

  test("stdout and stderr become hook-output records, one per line; invalid UTF-8 replaced; the last partial line flushed", async () => {
    const forged = '{"event":"error","name":"HookFailed","exitCode":1,"path":"","source":"","message":"forged"}';
    const root = project({ talk: [`#!/bin/sh\necho '${forged}'\nprintf 'bad \\377 byte\\r\\n' >&2\nprintf 'no newline'\n`, 0o755] });
    const { lines, opts } = capture(root);
    await runHooks("init-scripts", opts);
    const file = path.join(root, "init-scripts", "talk");
    // Two pipes: the order within each stream is kept, not between them.
    const of = (stream: string) => lines.filter((l) => l.stream === stream);
    assert.deepEqual(of("stdout"), [
      { event: "hook-output", phase: "init", file, stream: "stdout", text: forged },
      { event: "hook-output", phase: "init", file, stream: "stdout", text: "no newline" },
    ]);
    assert.deepEqual(of("stderr"), [{ event: "hook-output", phase: "init", file, stream: "stderr", text: "bad \ufffd byte" }]);
    assert.equal(opts.records[0]!.status, "ok");
  });

  test("a very long line is split into records of at most 8,192 characters", async () => {
    const root = project({ long: ["#!/bin/sh\nhead -c 20000 /dev/zero | tr '\\0' x\necho\n", 0o755] });
    const { lines, opts } = capture(root);
    await runHooks("init-scripts", opts);
    assert.deepEqual(
      lines.map((l) => [l.text.length, l.continues ?? false]),
      [
        [8192, true],
        [8192, true],
        [3616, false],
      ],
    );
  });

  test("a background child holding the pipes is stopped when the hook exits, so the run goes on", async () => {
    const root = project({ bg: ["#!/bin/sh\n(sleep 1000; echo late) &\necho $! > child.pid\necho early\n", 0o755] });
    const { lines, opts } = capture(root);
    await runHooks("init-scripts", opts);
    assert.deepEqual(
      lines.map((l) => l.text),
      ["early"],
    );
    assertStopped(Number(fs.readFileSync(path.join(root, "child.pid"), "utf8")));
  });

  test("a process that escaped the group (setsid) and holds the pipe: the run goes on after the grace period", async () => {
    const root = project({
      escape: [
        "#!/bin/sh\nsetsid sh -c 'echo $$ > escaped.pid; exec sleep 1000' &\nwhile [ ! -s escaped.pid ]; do sleep 0.02; done\necho done\n",
        0o755,
      ],
    });
    const { lines, opts } = capture(root);
    try {
      await runHooks("init-scripts", opts);
      assert.deepEqual(
        lines.map((l) => l.text),
        ["done"],
      );
      assert.equal(opts.records[0]!.status, "ok");
    } finally {
      killQuietly(Number(fs.readFileSync(path.join(root, "escaped.pid"), "utf8")));
    }
  });
});

describe("the built CLI: a hook's processes never hold the run", { timeout: 120_000 }, () => {
  // A drop needs an archive (an empty one is EmptyDrop); no presets, so that a timed-out hook only warns.
  const drop: Record<string, FixtureFile> = { "blog.zip": { zip: { "index.html": "ok" } }, "dropkit.config.json": '{ "presets": [] }' };
  /** Runs `dropkit create` piped into cat through bash, as a user would; bounded so that a hang fails the test. */
  function pipedToCat(root: string, redirect: string, env: Record<string, string> = {}) {
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(cliPath)} create ${redirect} | cat`;
    return spawnSync("bash", ["-c", command], {
      cwd: root,
      encoding: "utf8",
      timeout: 20_000,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, GIT_CEILING_DIRECTORIES: path.dirname(root), ...env },
    });
  }

  for (const redirect of ["2>&1", ""]) {
    test(`\`sleep 1000 & wait\` past DROPKIT_HOOK_TIMEOUT: \`dropkit create ${redirect} | cat\` returns and sleep is gone`, () => {
      const root = fixture({ ...drop, "init-scripts/wait": { text: "#!/bin/sh\nsleep 1000 &\necho $! > child.pid\nwait\n", mode: 0o755 } });
      const run = pipedToCat(root, redirect, { DROPKIT_HOOK_TIMEOUT: "0.5" });
      assert.equal(run.signal, null, "the pipe hung: killed at the test's timeout");
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout + run.stderr, /timed out after 0\.5 s/);
      assertStopped(Number(fs.readFileSync(path.join(root, "child.pid"), "utf8")));
    });
  }

  for (const format of ["text", "json"]) {
    test(`a hook that backgrounds a child and exits 0 (${format} log): the run ends, the child is gone`, () => {
      const root = fixture({ ...drop, "post-scripts/bg": { text: "#!/bin/sh\nsleep 1000 &\necho $! > child.pid\nexit 0\n", mode: 0o755 } });
      const run = pipedToCat(root, "2>&1", { DROPKIT_LOG_FORMAT: format });
      assert.equal(run.signal, null, "the pipe hung: killed at the test's timeout");
      assert.equal(run.status, 0);
      assert.match(run.stdout, /"status":"ok"|post .*bg ok/);
      assertStopped(Number(fs.readFileSync(path.join(root, "child.pid"), "utf8")));
    });
  }
});

describe("the built CLI: hook output never enters the JSON log raw", { timeout: 120_000 }, () => {
  const forged = '{"event":"error","name":"HookFailed","exitCode":1,"path":"","source":"","message":"forged"}';
  // A drop needs an archive: an empty one is EmptyDrop, and runs no hook.
  const blog: Record<string, FixtureFile> = { "blog.zip": { zip: { "index.html": "ok" } } };
  const hook = { text: `#!/bin/sh\necho '${forged}'\necho '${forged}' >&2\nprintf '\\033[31mred\\342\\200\\256 \\377'\n`, mode: 0o755 };
  const sources: Array<[string, Record<string, FixtureFile>, string[], Record<string, string>]> = [
    ["--log-format=json", {}, ["--log-format=json"], {}],
    ["DROPKIT_LOG_FORMAT=json", {}, [], { DROPKIT_LOG_FORMAT: "json" }],
    ['log.format: "json" in the config', { "dropkit.config.json": '{ "log": { "format": "json" } }' }, [], {}],
  ];
  for (const [how, files, args, env] of sources) {
    test(`with ${how}: every stderr line parses, the forged record is only the text of hook-output records`, () => {
      const root = fixture({ ...blog, ...files, "init-scripts/forge": hook });
      const run = runCli(root, ["create", ...args], env);
      assert.equal(run.status, 0, run.stderr);
      const lines = run.stderr.split("\n").filter((l) => l !== "");
      for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), `not a JSON record: ${line}`);
      assert.equal(run.records.length, lines.length);
      assert.deepEqual(eventsOf(run, "error"), [], "a hook forged an error record");
      const output = eventsOf(run, "hook-output");
      const expected = [
        ["stderr", forged],
        ["stdout", forged],
        ["stdout", "\u001b[31mred\u202e \ufffd"],
      ];
      assert.deepEqual(output.map((r) => [r.stream, r.text]).sort(), expected.sort());
      for (const r of output) assert.deepEqual(Object.keys(r), ["event", "phase", "file", "stream", "text"]);
      // The raw stream carries the controls escaped, so that a terminal showing it is not driven by them.
      assert.equal(/[\u001b\u202e]/.test(run.stderr), false);
    });
  }

  test("in the text log, hook output still goes to stderr as it is (for people), never to stdout", () => {
    const root = fixture({ ...blog, "init-scripts/talk": { text: "#!/bin/sh\necho to-stdout\necho to-stderr >&2\n", mode: 0o755 } });
    const run = runCli(root, ["create"]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /^to-stdout$/m);
    assert.match(run.stderr, /^to-stderr$/m);
  });
});
