// Property test through the built CLI: what `config` and `create` print grows at most linearly with a list's length.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { cliPath, cliRuntime, fixture } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";

/** The leaves of the resolved config: one table line each, plus one per further list item. */
const leaves = 13;

/** The lengths tried: 100,000 short names stay under the 1 MiB limit of a config file. */
const sizes = [10, 1_000, 100_000] as const;

/** The longest any run may take, far beyond what linear work needs, so that a hang fails rather than stalls. */
const sanityMs = 120_000;

/** What one run wrote, measured from files so that a large output costs no pipe buffer. */
interface Measured {
  status: number | null;
  stdout: string;
  stdoutBytes: number;
  stderrBytes: number;
  ms: number;
}

/** Runs the built CLI in `cwd` with its output to files, and measures it. */
function measure(cwd: string, args: string[], env: Record<string, string> = {}): Measured {
  const out = path.join(tempDir("dropkit-linear-out-"), "out");
  const stdout = fs.openSync(`${out}.stdout`, "w");
  const stderr = fs.openSync(`${out}.stderr`, "w");
  const started = performance.now();
  try {
    const run = spawnSync(cliRuntime[0]!, [...cliRuntime.slice(1), cliPath, ...args], {
      cwd,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? os.tmpdir(),
        GIT_CEILING_DIRECTORIES: path.dirname(cwd),
        ...env,
      },
      stdio: ["ignore", stdout, stderr],
      timeout: sanityMs,
    });
    const ms = performance.now() - started;
    assert.equal(run.error, undefined, `${args.join(" ")}: ${String(run.error)}`);
    const text = fs.readFileSync(`${out}.stdout`, "utf8");
    return { status: run.status, stdout: text, stdoutBytes: Buffer.byteLength(text), stderrBytes: fs.statSync(`${out}.stderr`).size, ms };
  } finally {
    fs.closeSync(stdout);
    fs.closeSync(stderr);
  }
}

/**
 * `n` distinct module names of four characters (base 36), so that a line per entry has the same length at every
 * size and 100,000 of them make a 0.7 MB config.
 */
function names(n: number): string[] {
  return Array.from({ length: n }, (_, i) => i.toString(36).padStart(4, "0"));
}

/** A drop with a few archives (so `standard` is detected and adds `test-*`, `dev-*`) and a config excluding `n` names. */
function drop(n: number, config = true): string {
  const zip = { zip: { "a.txt": "a" } };
  return fixture({
    "ocean-theme.zip": zip,
    "blog.zip": zip,
    "shop.zip": zip,
    "test-old.zip": zip,
    ...(config ? { "dropkit.config.json": JSON.stringify({ schema: 1, modules: { exclude: names(n) } }) } : {}),
  });
}

/** The commands measured, each with where its output goes and its documented code. */
const commands: Array<{ name: string; args: string[]; bytes: (m: Measured) => number }> = [
  { name: "config", args: ["config"], bytes: (m) => m.stdoutBytes },
  { name: "config --json", args: ["config", "--json"], bytes: (m) => m.stdoutBytes },
  { name: "config --explain", args: ["config", "--explain", "modules.exclude"], bytes: (m) => m.stdoutBytes },
  { name: "create (text log)", args: ["create"], bytes: (m) => m.stderrBytes },
  { name: "create (JSON log)", args: ["create", "--log-format=json"], bytes: (m) => m.stderrBytes },
];

/** Asserts that `cost` at the largest size is at most linear in the size over the middle one (1,000 → 100,000: ×100). */
function assertLinear(what: string, cost: Record<number, number>, slack = 1.1): void {
  const ratio = cost[100_000]! / cost[1_000]!;
  assert.ok(ratio <= 100 * slack, `${what}: ${cost[1_000]} for 1,000 entries, ${cost[100_000]} for 100,000 (×${ratio.toFixed(1)})`);
}

describe("output grows at most linearly with a list (config text, --json, --explain; create)", () => {
  const results: Record<string, Record<number, Measured>> = {};
  for (const n of sizes) {
    test(`${n.toLocaleString("en")} exclude entries: every command ends with its documented code`, () => {
      const root = drop(n);
      assert.ok(fs.statSync(path.join(root, "dropkit.config.json")).size < 1024 * 1024, "the config is within the 1 MiB limit");
      for (const c of commands) {
        const m = measure(root, c.args);
        assert.equal(m.status, 0, `${c.name} with ${n} entries`);
        (results[c.name] ??= {})[n] = m;
      }
      // The table: a header, a line per leaf, and a further line per list item (the preset's two and these n).
      const table = results.config![n]!.stdout.trimEnd().split("\n");
      assert.equal(table.length, 1 + leaves + (n + 2 - 1));
      assert.match(table.find((l) => l.startsWith("modules.exclude "))!, /^modules\.exclude +test-\* +preset +standard$/);
      const json = JSON.parse(results["config --json"]![n]!.stdout);
      assert.equal(json.config.modules.exclude.length, n + 2);
      assert.equal(json.origins["modules.exclude"].entries.length, n + 2);
      const explained = results["config --explain"]![n]!.stdout;
      assert.ok(explained.startsWith('modules.exclude = ["test-*","dev-*","0000",'), explained.slice(0, 200));
      // The header, the config's n names a line each, the preset's two on one line (they fit), the default's [].
      assert.equal(explained.trimEnd().split("\n").length, 1 + n + 1 + 1);
    });
  }

  test("bytes per entry stay bounded and grow at most linearly; time too, within a generous bound", () => {
    for (const c of commands) {
      const runs = results[c.name]!;
      assert.ok(runs?.[100_000], `${c.name} ran at every size`);
      const bytes = Object.fromEntries(sizes.map((n) => [n, c.bytes(runs[n]!)]));
      assertLinear(`${c.name} bytes`, bytes);
      // A line per entry of at most the capped columns and its own cells (the source is a path in the temp dir).
      assert.ok(bytes[100_000]! / 100_000 < 200, `${c.name}: ${bytes[100_000]} bytes for 100,000 entries`);
      // Time: start-up dominates the small runs, so the bound is loose; a quadratic cost (×10,000) still fails it.
      const ms = Object.fromEntries(sizes.map((n) => [n, runs[n]!.ms]));
      assertLinear(`${c.name} time`, ms, 1.5);
    }
  });

  test("DROPKIT_MODULES_EXCLUDE with 10,000 names: config (text and --json) and create end with 0, linear output", () => {
    const root = drop(0, false);
    const env = {
      DROPKIT_MODULES_EXCLUDE: names(10_000)
        .map((n) => `m${n}`)
        .join(","),
    };
    const text = measure(root, ["config"], env);
    assert.equal(text.status, 0);
    const lines = text.stdout.trimEnd().split("\n");
    assert.equal(lines.length, 1 + leaves + (10_002 - 1));
    assert.match(lines.find((l) => l.includes("m02bj"))!, /^ +m02bj +env +DROPKIT_MODULES_EXCLUDE$/);
    assert.ok(text.stdoutBytes / 10_000 < 200, `${text.stdoutBytes} bytes`);
    const json = measure(root, ["config", "--json"], env);
    assert.equal(json.status, 0);
    assert.equal(JSON.parse(json.stdout).config.modules.exclude.length, 10_002);
    const create = measure(root, ["create"], env);
    assert.equal(create.status, 0);
    assert.ok(create.stderrBytes / 10_000 < 200, `${create.stderrBytes} bytes of log`);
  });
});
