// Tests of a run's life through the built CLI: it ends when its command is done, whatever a config leaves open or never settles, and where it cannot write.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { cliPath, fixture, makeZip, startCli } from "./helpers/cli.js";
import { runWithLateReader } from "./helpers/pipes.js";
import { hasScript } from "./helpers/pty.js";

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
  const interval = "setInterval(() => {}, 1000);\nexport default { theme: \"ocean\" };\n";

  test("create writes the state and exits 0 by itself (setInterval in the config)", async () => {
    const root = drop({ "dropkit.config.ts": interval });
    const result = await runToEnd(root, ["create"]);
    assert.equal(result.signal, null, `killed after ${hangMs} ms: the run never ended\n${result.stderr}`);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(JSON.parse(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8")).plan.theme, "ocean");
  });

  test("an error (ThemeNotFound, 66) is printed and the run exits 66 by itself (a listening server in an imported module)", async () => {
    const root = drop({
      "server.ts": "import net from \"node:net\";\nnet.createServer().listen(0, \"127.0.0.1\");\nexport const theme = \"nope\";\n",
      "dropkit.config.ts": "import { theme } from \"./server\";\nexport default { theme };\n",
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
    // falls back to Node's stream (src/stdio.ts), whose queue must be flushed before the process exits.
    const root = drop({ "dropkit.config.ts": "setInterval(() => {}, 1000);\nexport default { theme: \"ocean\", exclude: [] };\n" });
    const zip = makeZip({ "index.html": "<p>x</p>" });
    for (let i = 0; i < 3000; i++) fs.writeFileSync(path.join(root, `module-${String(i).padStart(4, "0")}.zip`), zip);
    const out = path.join(root, "received");
    const run = runWithLateReader([process.execPath, cliPath, "create", "--log-format=json"], out, {
      cwd: root,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? os.tmpdir(), GIT_CEILING_DIRECTORIES: path.dirname(root) },
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
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? os.tmpdir(), GIT_CEILING_DIRECTORIES: path.dirname(root), TERM: "dumb" },
      encoding: "utf8",
      timeout: hangMs,
    });
    assert.equal(run.signal, null, "killed: the run never ended");
    assert.equal(run.status, 0, run.stdout);
    assert.match(run.stdout, /no post hooks/);
  });
});
