// Tests for src/output/stdio.ts: stdout and stderr without Node's streams where no terminal is involved, and nothing lost or reordered.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { DirectWriter } from "../../src/output/stdio.js";
import { cliPath, fixture, makeZip } from "../helpers/cli.js";
import { runWithLateReader } from "../helpers/pipes.js";
import { hasScript } from "../helpers/pty.js";
import { tempDir } from "../helpers/temp.js";

const stdioModule = new URL("../../src/output/stdio.ts", import.meta.url).href;

/** What `standardStream(2)` gives in a process whose stderr is `stderr`: the writer's kind. */
function kindFor(stderr: "pipe" | "ignore" | number): string {
  const script = `import(${JSON.stringify(stdioModule)}).then((m) => process.stdout.write(m.standardStream(2) instanceof m.DirectWriter ? "direct" : "node"))`;
  const run = spawnSync(process.execPath, ["--import", "tsx", "-e", script], { stdio: ["ignore", "pipe", stderr], encoding: "utf8" });
  return run.stdout;
}

describe("standardStream", () => {
  test("a pipe, a regular file and /dev/null get plain writes; Node's stream is left unmade", () => {
    assert.equal(kindFor("pipe"), "direct");
    assert.equal(kindFor("ignore"), "direct");
    const fd = fs.openSync(path.join(tempDir(), "log"), "w");
    try {
      assert.equal(kindFor(fd), "direct");
    } finally {
      fs.closeSync(fd);
    }
  });

  test("a terminal gets Node's own stream (colours, columns, the progress line)", { skip: hasScript() ? false : "needs script(1)" }, () => {
    const script =
      `import(${JSON.stringify(stdioModule)}).then((m) => process.stderr.write(m.standardStream(2) === ` +
      `process.stderr ? "KIND=node" : "KIND=direct"))`;
    const command = `${process.execPath} --import tsx -e '${script}'`;
    const run = spawnSync("script", ["-qfec", command, "/dev/null"], {
      encoding: "utf8",
      cwd: path.dirname(new URL(import.meta.url).pathname),
    });
    assert.match(run.stdout, /KIND=node/);
  });
});

describe("DirectWriter", () => {
  test("writes every byte, in order, multi-byte characters whole", () => {
    const file = path.join(tempDir(), "out");
    const fd = fs.openSync(file, "w");
    const writer = new DirectWriter(fd, () => assert.fail("no fallback for a file"));
    for (const part of ["one\n", "é✓😀\n", "", "x".repeat(100_000), "\n"]) writer.write(part);
    fs.closeSync(fd);
    assert.equal(fs.readFileSync(file, "utf8"), `one\né✓😀\n${"x".repeat(100_000)}\n`);
  });

  test("a reader that is gone (EPIPE) ends the writing quietly; the caller goes on", () => {
    // A child whose stdout pipe is closed by the reader before it writes: it must exit 0, not crash.
    const script = `import(${JSON.stringify(stdioModule)}).then((m) => {
      const w = new m.DirectWriter(1, () => { throw new Error("no fallback"); });
      setTimeout(() => { for (let i = 0; i < 1000; i++) w.write("line " + i + "\\n"); process.stderr.write("went on"); }, 300);
    })`;
    const run = spawnSync(
      "bash",
      ["-c", `${process.execPath} --import tsx -e '${script}' | head -c 0; echo " status \${PIPESTATUS[0]}" >&2`],
      { encoding: "utf8" },
    );
    assert.match(run.stderr, /went on status 0/);
  });

  test("a full pipe left non-blocking by another program (EAGAIN): the rest goes through Node's stream, nothing lost or reordered", () => {
    const out = path.join(tempDir(), "received");
    const writer = `import(${JSON.stringify(stdioModule)}).then((m) => {
      const w = new m.DirectWriter(2, () => process.stderr);
      for (let i = 0; i < 20000; i++) w.write("record " + i + "\\n");
    })`;
    const run = runWithLateReader([process.execPath, "--import", "tsx", "-e", writer], out);
    assert.equal(run.status, 0, run.stderr);
    const lines = fs.readFileSync(out, "utf8").split("\n");
    assert.equal(lines.length, 20001);
    lines.slice(0, -1).forEach((line, i) => {
      assert.equal(line, `record ${i}`);
    });
  });
});

describe("the CLI's log through a pipe", () => {
  /** A drop with enough modules that the JSON log (one plan record each) is far larger than a pipe's buffer. */
  function bigDrop(): string {
    const zip = makeZip({ "index.html": "<p>x</p>" });
    const root = fixture();
    for (let i = 0; i < 1500; i++) fs.writeFileSync(path.join(root, `module-${String(i).padStart(4, "0")}.zip`), zip);
    return root;
  }

  test("a reader that stops reading early (create 2>&1 | head -c 100): the run still finishes, exit 0, state written", () => {
    const root = bigDrop();
    const run = spawnSync(
      "bash",
      ["-c", `${process.execPath} ${cliPath} create --log-format=json 2>&1 | head -c 100 >/dev/null; echo "status \${PIPESTATUS[0]}"`],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: process.env.HOME ?? os.tmpdir(),
          GIT_CEILING_DIRECTORIES: path.dirname(root),
        },
        encoding: "utf8",
      },
    );
    assert.match(run.stdout, /status 0/);
    const state = JSON.parse(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8"));
    assert.equal(state.plan.modules.length, 1500);
  });
});
