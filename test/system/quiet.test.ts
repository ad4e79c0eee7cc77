// --quiet and -q on the built CLI: only warnings and errors on stderr, in the text and the JSON log; stdout unchanged (issue 36, item 7).

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { fixture, runCli, type FixtureFile } from "../helpers/cli.js";

/** A drop with a theme and two modules: a successful create logs some 25 lines. */
const drop: Record<string, FixtureFile> = {
  "ocean-theme.zip": { zip: { "index.html": "<p>ocean</p>" } },
  "shop.zip": { zip: { "index.html": "<p>shop</p>" } },
  "blog.zip": { zip: { "index.html": "<p>blog</p>" } },
};

/** Every line of a JSON log, parsed (the helper's `records` is empty when stderr is). */
function jsonLines(stderr: string): Array<Record<string, unknown>> {
  return stderr
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("--quiet", () => {
  test("a successful create prints nothing on stderr with -q or --quiet, and still writes the state and the cache", () => {
    const loud = runCli(fixture(drop), ["create"]);
    assert.equal(loud.status, 0, loud.stderr);
    assert.ok(loud.stderr.split("\n").length > 15, "without --quiet, create logs its decisions");
    for (const flag of ["-q", "--quiet"]) {
      const root = fixture(drop);
      const run = runCli(root, ["create", flag]);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stderr, "", flag);
      assert.equal(run.stdout, "");
      const state = JSON.parse(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8"));
      assert.deepEqual(state.plan.modules, ["blog", "shop"]);
      assert.ok(fs.existsSync(path.join(root, ".dropkit-cache.json")));
    }
  });

  test("the flag's place does not matter, and the JSON log is quiet too (flag, variable or config)", () => {
    const cases: Array<{ args: string[]; env?: Record<string, string>; files?: Record<string, FixtureFile> }> = [
      { args: ["--quiet", "create"] },
      { args: ["create", "--log-format=json", "-q"] },
      { args: ["create", "-q"], env: { DROPKIT_LOG_FORMAT: "json" } },
      { args: ["create", "--quiet"], files: { "dropkit.config.json": '{ "log": { "format": "json" } }' } },
    ];
    for (const { args, env, files } of cases) {
      const run = runCli(fixture({ ...drop, ...files }), args, env);
      assert.equal(run.status, 0, `${args.join(" ")}: ${run.stderr}`);
      assert.equal(run.stderr, "", args.join(" "));
    }
  });

  test("warnings stay, in both formats: the JSON log holds only warning records, with their codes", () => {
    const text = runCli(fixture(drop), ["create", "-q", "--exclude=nomatch*"]);
    assert.equal(text.status, 0, text.stderr);
    const lines = text.stderr.split("\n").filter(Boolean);
    assert.equal(lines.length, 1, text.stderr);
    assert.match(lines[0]!, /^warning +Module glob "nomatch\*" \(--exclude\) matches no module archive/);

    const json = runCli(fixture(drop), ["create", "--quiet", "--log-format=json", "--exclude=nomatch*"]);
    assert.equal(json.status, 0, json.stderr);
    const records = jsonLines(json.stderr);
    assert.deepEqual(
      records.map((r) => [r.event, r.code]),
      [["warning", "GlobUnmatched"]],
    );
  });

  test("errors stay: the run's error records and exit code are those of a run without --quiet", () => {
    for (const format of ["text", "json"]) {
      const loud = runCli(fixture(drop), ["create", `--log-format=${format}`, "--theme=missing"]);
      const quiet = runCli(fixture(drop), ["create", `--log-format=${format}`, "--theme=missing", "-q"]);
      assert.equal(quiet.status, 66, quiet.stderr);
      assert.equal(quiet.status, loud.status);
      if (format === "json") {
        const errors = jsonLines(quiet.stderr);
        assert.ok(errors.length > 0);
        assert.deepEqual(
          errors.map((r) => r.event),
          errors.map(() => "error"),
        );
        assert.deepEqual(
          errors.map((r) => r.name),
          jsonLines(loud.stderr)
            .filter((r) => r.event === "error")
            .map((r) => r.name),
        );
      } else {
        assert.match(quiet.stderr, /^error +ThemeNotFound \(exit 66\)/);
        assert.doesNotMatch(quiet.stderr, /^(config|decision|preset|plan|state|hook) /m);
      }
    }
  });

  test("--strict still sees the warnings --quiet keeps from the decisions log", () => {
    const root = fixture(drop);
    const run = runCli(root, ["create", "-q", "--strict", "--log-format=json", "--exclude=nomatch*"]);
    assert.equal(run.status, 65, run.stderr);
    assert.deepEqual(
      jsonLines(run.stderr).map((r) => r.code ?? r.name),
      ["GlobUnmatched", "StrictWarnings"],
    );
    assert.equal(fs.existsSync(path.join(root, ".dropkit.json")), false);
  });

  test("a hook's own output still shows (in the JSON log as hook-output records); dropkit's hook records do not", () => {
    const files: Record<string, FixtureFile> = { ...drop, "init-scripts/10-say": { text: "#!/bin/sh\necho from the hook\n", mode: 0o755 } };
    const text = runCli(fixture(files), ["create", "-q"]);
    assert.equal(text.status, 0, text.stderr);
    assert.equal(text.stderr, "from the hook\n");
    const json = runCli(fixture(files), ["create", "-q", "--log-format=json"]);
    assert.equal(json.status, 0, json.stderr);
    assert.deepEqual(
      jsonLines(json.stderr).map((r) => [r.event, r.text]),
      [["hook-output", "from the hook"]],
    );
  });

  test("config: stdout is the same with --quiet, and stderr keeps only warnings", () => {
    for (const args of [["config"], ["config", "--json"], ["config", "--explain", "theme"]]) {
      const root = fixture({ ...drop, "dropkit.config.json": '{ "theme": "ocean" }' });
      const loud = runCli(root, args);
      const quiet = runCli(root, [...args, "--quiet"]);
      assert.equal(quiet.status, 0, quiet.stderr);
      assert.equal(quiet.stdout, loud.stdout, args.join(" "));
      assert.notEqual(loud.stderr, "", `${args.join(" ")} logs the config it found without --quiet`);
      assert.equal(quiet.stderr, "", args.join(" "));
    }
    const warned = runCli(fixture(drop), ["config", "--json", "-q"], { DROPKIT_THME: "ocean" });
    assert.equal(warned.status, 0, warned.stderr);
    assert.deepEqual(
      jsonLines(warned.stderr).map((r) => [r.event, r.code]),
      [["warning", "UnknownVariable"]],
    );
  });

  test("config: an invalid config is still reported in full", () => {
    const run = runCli(fixture({ "dropkit.config.json": '{ "theme": 1, "modules": { "exlude": [] } }' }), ["config", "--json", "-q"]);
    assert.equal(run.status, 65, run.stderr);
    const records = jsonLines(run.stderr);
    assert.ok(records.length >= 2, run.stderr);
    assert.ok(records.every((r) => r.event === "error"));
  });

  test("init --yes: nothing on stderr (no decisions, no hint), the file written", () => {
    const loud = runCli(fixture(drop), ["init", "--yes"]);
    assert.equal(loud.status, 0, loud.stderr);
    assert.match(loud.stderr, /^next +run dropkit create/m);
    for (const format of ["text", "json"]) {
      const root = fixture(drop);
      const run = runCli(root, ["init", "--yes", "-q", `--log-format=${format}`]);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stderr, "", format);
      assert.ok(fs.existsSync(path.join(root, "dropkit.config.json")));
    }
  });

  test("help and completion take it too: what they print is what was asked for, and an error still shows", () => {
    for (const args of [["help"], ["help", "create"], ["completion", "bash"]]) {
      const loud = runCli(fixture(), args);
      const quiet = runCli(fixture(), [...args, "-q"]);
      assert.equal(quiet.status, 0, quiet.stderr);
      assert.equal(quiet.stdout, loud.stdout, args.join(" "));
      assert.equal(quiet.stderr, "");
    }
    const unknown = runCli(fixture(), ["help", "nosuch", "--quiet", "--log-format=json"]);
    assert.equal(unknown.status, 64, unknown.stderr);
    assert.deepEqual(
      jsonLines(unknown.stderr).map((r) => r.name),
      ["UsageError"],
    );
  });

  test("help lists it, and -q takes no value", () => {
    const help = runCli(fixture(), ["create", "--help"]);
    assert.match(help.stdout, /-q,--quiet +log only warnings and errors/);
    const run = runCli(fixture(drop), ["create", "-q", "shop"]);
    assert.equal(run.status, 64, run.stderr);
  });
});
