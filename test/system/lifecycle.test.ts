// Tests of a run's life through the built CLI: it ends when its command is done, whatever a config leaves open or never settles, and where it cannot write.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { cliPath, fixture, makeZip, startCli } from "../helpers/cli.js";
import { runWithLateReader } from "../helpers/pipes.js";
import { hasScript } from "../helpers/pty.js";

/** Generous: a run that ends by itself takes well under a second; one that hangs is killed at this bound and fails. */
const hangMs = 20_000;

/** Runs the CLI in the background and waits for its end, killing it after `hangMs`; the result says whether it ended by itself. */
async function runToEnd(cwd: string, args: string[], env: Record<string, string> = {}) {
  const run = startCli(cwd, args, env);
  const timer = setTimeout(() => run.child.kill("SIGKILL"), hangMs);
  const result = await run.done;
  clearTimeout(timer);
  return result;
}

/** A drop with a theme and one module, and these files. */
function drop(files: Record<string, string>): string {
  return fixture({ "ocean-theme.zip": { zip: { "a.css": "x" } }, "blog.zip": { zip: { "index.html": "<p>x</p>" } }, ...files });
}

describe("a config that leaves a handle open", () => {
  const interval = 'setInterval(() => {}, 1000);\nexport default { theme: "ocean" };\n';

  test("create writes the state and exits 0 by itself (setInterval in the config)", async () => {
    const root = drop({ "dropkit.config.ts": interval });
    const result = await runToEnd(root, ["create"]);
    assert.equal(result.signal, null, `killed after ${hangMs} ms: the run never ended\n${result.stderr}`);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(JSON.parse(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8")).plan.theme, "ocean");
  });

  test("an error (ThemeNotFound, 66) is printed and the run exits 66 by itself (a listening server in an imported module)", async () => {
    const root = drop({
      "server.ts": 'import net from "node:net";\nnet.createServer().listen(0, "127.0.0.1");\nexport const theme = "nope";\n',
      "dropkit.config.ts": 'import { theme } from "./server";\nexport default { theme };\n',
    });
    const result = await runToEnd(root, ["create", "--log-format=json"]);
    assert.equal(result.signal, null, `killed after ${hangMs} ms: the run never ended\n${result.stderr}`);
    assert.equal(result.status, 66, result.stderr);
    assert.equal(result.records.find((r) => r.event === "error")?.name, "ThemeNotFound");
    assert.equal(fs.existsSync(path.join(root, ".dropkit.json")), false);
  });

  test("config prints everything and exits by itself: 0, and 65 for an invalid value", async () => {
    const root = drop({ "dropkit.config.ts": interval });
    const ok = await runToEnd(root, ["config", "--json"]);
    assert.equal(ok.signal, null);
    assert.equal(ok.status, 0, ok.stderr);
    assert.equal(JSON.parse(ok.stdout).config.theme, "ocean");
    fs.writeFileSync(path.join(root, "dropkit.config.ts"), "setInterval(() => {}, 1000);\nexport default { theme: 3 };\n");
    const bad = await runToEnd(root, ["config"]);
    assert.equal(bad.signal, null);
    assert.equal(bad.status, 65, bad.stderr);
  });

  test("a large output on a full non-blocking pipe, read late, arrives whole before the exit", () => {
    // 3,000 module archives: the JSON log (a plan record each) is far larger than a pipe's buffer, and the writer
    // falls back to Node's stream (src/output/stdio.ts), whose queue must be flushed before the process exits.
    const root = drop({ "dropkit.config.ts": 'setInterval(() => {}, 1000);\nexport default { theme: "ocean", exclude: [] };\n' });
    const zip = makeZip({ "index.html": "<p>x</p>" });
    for (let i = 0; i < 3000; i++) fs.writeFileSync(path.join(root, `module-${String(i).padStart(4, "0")}.zip`), zip);
    const out = path.join(root, "received");
    const run = runWithLateReader([process.execPath, cliPath, "create", "--log-format=json"], out, {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? os.tmpdir(),
        GIT_CEILING_DIRECTORIES: path.dirname(root),
      },
      delaySeconds: 2,
      timeoutSeconds: hangMs / 1000,
    });
    assert.equal(run.status, 0, run.stderr);
    const lines = fs.readFileSync(out, "utf8").split("\n").filter(Boolean);
    const records = lines.map((line) => JSON.parse(line) as { event: string; action?: string });
    assert.equal(records.at(-1)?.event, "hook", "the last record (the post hooks) arrived");
    assert.ok(lines.length > 3000, `only ${lines.length} records arrived`);
  });

  test("on a terminal, the whole log is shown before the exit", { skip: hasScript() ? false : "needs script(1)" }, () => {
    const root = drop({ "dropkit.config.ts": interval });
    const command = `exec ${process.execPath} ${cliPath} create`;
    const run = spawnSync("script", ["-qfec", command, "/dev/null"], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? os.tmpdir(),
        GIT_CEILING_DIRECTORIES: path.dirname(root),
        TERM: "dumb",
      },
      encoding: "utf8",
      timeout: hangMs,
    });
    assert.equal(run.signal, null, "killed: the run never ended");
    assert.equal(run.status, 0, run.stdout);
    assert.match(run.stdout, /no post hooks/);
  });
});

describe("a config that never settles", () => {
  const never = "export default async () => { await new Promise(() => {}); };\n";

  for (const command of ["create", "config"]) {
    test(
      `${command}: a function whose promise is pending when nothing is left to wait on is a ConfigLoadError (65) ` +
        "naming the file, nothing written",
      async () => {
        const root = drop({ "dropkit.config.ts": never });
        const result = await runToEnd(root, [command, "--log-format=json"]);
        assert.equal(result.signal, null);
        assert.equal(result.status, 65, result.stderr);
        const error = result.records.find((r) => r.event === "error");
        assert.equal(error?.name, "ConfigLoadError");
        assert.equal(error?.source, path.join(root, "dropkit.config.ts"));
        assert.match(
          error?.message,
          /never settled: the promise its exported function returned was still pending when nothing was left for it to wait on/,
        );
        assert.deepEqual(
          fs.readdirSync(root).filter((name) => name.startsWith(".dropkit")),
          [],
        );
      },
    );
  }

  test("top-level await on a promise never resolved, in a .js config or a preset: the same error", async () => {
    const root = drop({
      "dropkit.config.js": "await new Promise(() => {});\nexport default {};\n",
    });
    const result = await runToEnd(root, ["config", "--log-format=json"]);
    assert.equal(result.status, 65, result.stderr);
    assert.match(
      result.records.find((r) => r.event === "error")?.message,
      /dropkit\.config\.js never settled: its top-level code was still pending/,
    );
    fs.rmSync(path.join(root, "dropkit.config.js"));
    fs.writeFileSync(path.join(root, "dropkit.config.json"), JSON.stringify({ presets: ["./slow.ts"] }));
    fs.writeFileSync(path.join(root, "slow.ts"), never);
    const preset = await runToEnd(root, ["create", "--log-format=json"]);
    assert.equal(preset.status, 65, preset.stderr);
    const error = preset.records.find((r) => r.event === "error");
    assert.equal(error?.source, path.join(root, "slow.ts"));
    assert.match(error?.message, /The preset .*slow\.ts never settled/);
  });

  test("pending while a timer of its own keeps the process alive: the same error after the settle limit", async () => {
    const root = drop({ "dropkit.config.ts": `setInterval(() => {}, 1000);\n${never}` });
    const started = Date.now();
    const result = await runToEnd(root, ["create", "--log-format=json"], { __DROPKIT_TEST_CONFIG_SETTLE_MS: "1500" });
    assert.equal(result.signal, null);
    assert.equal(result.status, 65, result.stderr);
    assert.match(
      result.records.find((r) => r.event === "error")?.message,
      /was still pending after 1\.5 s, while a timer, a server or other work kept the process alive/,
    );
    assert.ok(Date.now() - started >= 1500);
    assert.equal(fs.existsSync(path.join(root, ".dropkit.json")), false);
  });

  test("a config that settles late (a 300 ms wait) is not affected", async () => {
    const root = drop({
      "dropkit.config.ts": 'export default async () => { await new Promise((r) => setTimeout(r, 300)); return { theme: "ocean" }; };\n',
    });
    const result = await runToEnd(root, ["create"]);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(JSON.parse(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8")).plan.theme, "ocean");
  });
});

describe("loadConfig (the library) with a config that never settles", () => {
  const library = new URL("../../src/library.ts", import.meta.url).href;

  /** Runs a program that awaits loadConfig on `root` and prints how it ended; `keepAlive` gives it a timer of its own. */
  function program(root: string, keepAlive: boolean) {
    const script = `${keepAlive ? "const t = setInterval(() => {}, 1000);" : "const t = undefined;"}
import(${JSON.stringify(library)}).then((m) =>
  m.loadConfig({ cwd: ${JSON.stringify(root)}, env: { GIT_CEILING_DIRECTORIES: ${JSON.stringify(path.dirname(root))} } }))
  .then(() => console.log("resolved"), (e) => console.log("rejected " + e.name + " " + e.exitCode + " " + e.message))
  .finally(() => clearInterval(t));`;
    return spawnSync(process.execPath, ["--import", "tsx", "-e", script], {
      encoding: "utf8",
      timeout: hangMs,
      env: { ...process.env, __DROPKIT_TEST_CONFIG_SETTLE_MS: "1500" },
    });
  }

  test("rejects with a ConfigLoadError when the host has nothing else to do, instead of ending the program silently", () => {
    const root = drop({ "dropkit.config.ts": "export default async () => { await new Promise(() => {}); };\n" });
    const run = program(root, false);
    assert.equal(run.signal, null);
    assert.match(run.stdout, /^rejected ConfigLoadError 65 The config .*dropkit\.config\.ts never settled/);
  });

  test("rejects after the settle limit when the host keeps the process alive", () => {
    const root = drop({ "dropkit.config.ts": "export default async () => { await new Promise(() => {}); };\n" });
    const run = program(root, true);
    assert.equal(run.signal, null, "the program never ended");
    assert.match(run.stdout, /^rejected ConfigLoadError 65 .*after 1\.5 s/);
  });
});

describe("a working directory removed before the run (a CI workspace cleaned by a parallel job)", () => {
  for (const command of [["create"], ["config"], ["init", "--yes"]]) {
    test(`${command.join(" ")}: IOError (74) saying the folder is gone, not InternalError`, () => {
      const root = fixture();
      const gone = path.join(root, "workspace");
      fs.mkdirSync(gone);
      // The shell enters the folder, which is then removed; dropkit starts in it.
      const script = `cd "$1" && rmdir "$1" && exec "$2" "$3" ${command.map((c) => `"${c}"`).join(" ")} --log-format=json`;
      const run = spawnSync("bash", ["-c", script, "bash", gone, process.execPath, cliPath], {
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: process.env.HOME ?? os.tmpdir(),
          GIT_CEILING_DIRECTORIES: path.dirname(root),
        },
        encoding: "utf8",
        timeout: hangMs,
      });
      assert.equal(run.status, 74, run.stderr);
      const error = JSON.parse(run.stderr.trim().split("\n").at(-1)!);
      assert.equal(error.name, "IOError");
      assert.equal(error.source, gone);
      assert.match(error.message, /The working directory \(.*workspace, as the shell last knew it\) no longer exists/);
      assert.doesNotMatch(run.stderr, /InternalError|uv_cwd/);
    });
  }
});

describe("standard error or output on a full device (/dev/full)", { skip: fs.existsSync("/dev/full") ? false : "needs /dev/full" }, () => {
  /** Runs the CLI in `root` with its stdout and stderr as given (file descriptors or "pipe"). */
  function runWith(root: string, args: string[], stdio: Array<"pipe" | number>) {
    return spawnSync(process.execPath, [cliPath, ...args], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? os.tmpdir(),
        GIT_CEILING_DIRECTORIES: path.dirname(root),
      },
      stdio: ["ignore", ...stdio],
      encoding: "utf8",
      timeout: hangMs,
    });
  }

  test("create with stderr on /dev/full commits the state and exits 0: a lost log is no failure of the run", () => {
    const root = drop({});
    const full = fs.openSync("/dev/full", "w");
    try {
      const run = runWith(root, ["create"], ["pipe", full]);
      assert.equal(run.signal, null);
      assert.equal(run.status, 0);
      assert.equal(JSON.parse(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8")).plan.theme, "ocean");
      // A failing run keeps its own code: ThemeNotFound stays 66, never 1 or 74.
      const missing = runWith(root, ["create", "--theme=nope"], ["pipe", full]);
      assert.equal(missing.status, 66);
    } finally {
      fs.closeSync(full);
    }
  });

  test("config --json with stdout on /dev/full: the data asked for was lost, IOError (74) on stderr", () => {
    const root = drop({});
    const full = fs.openSync("/dev/full", "w");
    try {
      const run = runWith(root, ["config", "--json"], [full, "pipe"]);
      assert.equal(run.status, 74, run.stderr);
      const error = JSON.parse(run.stderr.trim().split("\n").at(-1)!);
      assert.equal(error.name, "IOError");
      assert.equal(error.source, "stdout");
      assert.match(error.message, /Cannot write the output to standard output \(ENOSPC\)/);
    } finally {
      fs.closeSync(full);
    }
  });
});

describe('cache.file ending in a separator ("sub/", no such folder)', () => {
  const cases: Array<[string, Record<string, string>, Record<string, string>, RegExp]> = [
    ["a JSON config", { "dropkit.config.json": '{\n  "cache": { "file": "sub/" }\n}\n' }, {}, /dropkit\.config\.json:2:22$/],
    // Placed at its key, as written in the file (src/config/valuepositions.ts).
    ["a .ts config", { "dropkit.config.ts": 'export default { cache: { file: "sub/" } };\n' }, {}, /dropkit\.config\.ts:1:27$/],
    [
      "a preset file",
      { "dropkit.config.json": '{ "presets": ["./p.json"] }\n', "p.json": '{ "cache": { "file": "sub\\\\" } }\n' },
      {},
      /p\.json:1:22$/,
    ],
    ["DROPKIT_CACHE_FILE", {}, { DROPKIT_CACHE_FILE: "sub/" }, /^DROPKIT_CACHE_FILE$/],
  ];
  for (const [where, files, env, source] of cases) {
    test(`in ${where}: config and create both stop with a SchemaValidationError (65) at the value; no file named sub is written`, async () => {
      const root = drop(files);
      for (const command of ["config", "create"]) {
        const result = await runToEnd(root, [command, "--log-format=json"], env);
        assert.equal(result.status, 65, `${command}: ${result.stderr}`);
        const error = result.records.find((r) => r.event === "error")!;
        assert.equal(error.name, "SchemaValidationError");
        assert.equal(error.path, "cache.file");
        assert.match(error.source, source);
        assert.match(error.message, /a path ending in a separator names a directory, and the cache is a file/);
      }
      assert.equal(fs.existsSync(path.join(root, "sub")), false);
      assert.equal(fs.existsSync(path.join(root, ".dropkit.json")), false);
    });
  }

  test("a cache.file in an existing folder, named in full, still works", async () => {
    const root = drop({ "dropkit.config.json": '{ "cache": { "file": "sub/cache.json" } }\n', "sub/keep": "" });
    const result = await runToEnd(root, ["create"]);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(JSON.parse(fs.readFileSync(path.join(root, "sub", "cache.json"), "utf8")).kind, "dropkit-cache");
  });
});
