// The small faces of issue 36 on the built CLI: a blank theme, the corrupt cache's copy named, colour levels, the
// package.json dropkit object's place, init's --exclude help, the packed package.json, and the schema against the core.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { eventsOf, fixture, runCli } from "../helpers/cli.js";

const zip = { zip: { "readme.txt": "x" } };

describe("a theme of only white space is refused as an empty one, wherever it is set", () => {
  const drop = (files: Record<string, string> = {}) => fixture({ "ocean-theme.zip": zip, "blog.zip": zip, ...files });

  for (const command of ["config", "create"]) {
    test(`${command} --theme "  \\t": UsageError (64) at --theme, the value shown escaped; nothing written`, () => {
      const root = drop();
      const run = runCli(root, [command, "--theme", " \t", "--log-format=json"]);
      assert.equal(run.status, 64, run.stderr);
      const [error] = eventsOf(run, "error");
      assert.deepEqual([error!.name, error!.path, error!.source], ["UsageError", "theme", "--theme"]);
      assert.match(error!.message, /theme must not be only white space: .*, found " \\t"\.$/);
      assert.equal(fs.existsSync(path.join(root, ".dropkit.json")), false);
      // In text too, the value is visible.
      const text = runCli(root, [command, "--theme=  "]);
      assert.equal(text.status, 64);
      assert.match(text.stderr, /UsageError \(exit 64\): Invalid value for --theme: theme must not be only white space.*, found " {2}"\./);
    });
  }

  test('"theme": " \\t" in the config: SchemaValidationError (65) at its line:column, for config and create alike', () => {
    const root = drop({ "dropkit.config.json": '{\n  "theme": " \\t\\u00a0"\n}\n' });
    for (const command of ["config", "create"]) {
      const run = runCli(root, [command, "--log-format=json"]);
      assert.equal(run.status, 65, run.stderr);
      const [error] = eventsOf(run, "error");
      assert.deepEqual([error!.name, error!.path, error!.line, error!.column], ["SchemaValidationError", "theme", 2, 12]);
      assert.match(error!.message, /^Theme must not be only white space: .*, found the string " \\t\\u00a0"\.$/);
    }
  });

  test("a blank DROPKIT_THEME counts as unset, as an empty one: the config's theme applies, and create chooses it", () => {
    const root = drop({ "dropkit.config.json": '{"theme": "ocean"}\n' });
    for (const value of ["", "  ", "\t"]) {
      const run = runCli(root, ["config", "--json"], { DROPKIT_THEME: value });
      assert.equal(run.status, 0, run.stderr);
      const out = JSON.parse(run.stdout);
      assert.deepEqual([out.config.theme, out.origins.theme.layer], ["ocean", "config"], JSON.stringify(value));
    }
    const created = runCli(root, ["create", "--log-format=json"], { DROPKIT_THEME: "  " });
    assert.equal(created.status, 0, created.stderr);
    assert.equal(JSON.parse(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8")).plan.theme, "ocean");
  });
});

describe("the corrupt cache's warning names the file it is moved to", () => {
  test("the warning gives the very name the copy has (no <time> placeholder), in JSON and text", () => {
    for (const format of ["json", "text"]) {
      const root = fixture({ "blog.zip": zip, ".dropkit-cache.json": "garbage\n" });
      const run = runCli(root, ["create", `--log-format=${format}`]);
      assert.equal(run.status, 0, run.stderr);
      const copies = fs.readdirSync(root).filter((n) => n.startsWith(".dropkit-cache.json.corrupt-"));
      assert.equal(copies.length, 1, copies.join());
      const copy = path.join(root, copies[0]!);
      assert.equal(fs.readFileSync(copy, "utf8"), "garbage\n");
      assert.doesNotMatch(run.stderr, /<time>/);
      const warnings =
        format === "json"
          ? eventsOf(run, "warning").map((w) => w.message as string)
          : run.stderr.split("\n").filter((l) => l.startsWith("warning"));
      assert.equal(
        warnings.filter((w) => w.includes(`is corrupt`) && w.includes(`moved aside to ${copy} and rebuilt`)).length,
        1,
        run.stderr,
      );
      if (format === "json") assert.equal(eventsOf(run, "state").find((s) => s.action === "cache")!.movedAside, copy);
    }
  });

  test("a cache that goes bad during the run (an init script writes over it) is moved aside with a warning naming the copy", () => {
    const root = fixture({
      "blog.zip": zip,
      "init-scripts/10-spoil.sh": { text: "#!/bin/sh\nprintf 'spoilt' > .dropkit-cache.json\n", mode: 0o755 },
    });
    const first = runCli(root, ["create", "--log-format=json"]);
    assert.equal(first.status, 0, first.stderr);
    const run = runCli(root, ["create", "--log-format=json"]);
    assert.equal(run.status, 0, run.stderr);
    const moved = eventsOf(run, "state").find((s) => s.action === "cache")!.movedAside as string;
    assert.match(moved, /\.dropkit-cache\.json\.corrupt-/);
    assert.equal(fs.readFileSync(moved, "utf8"), "spoilt");
    assert.ok(
      eventsOf(run, "warning").some((w) => String(w.message).endsWith(`it was moved aside to ${moved} and rebuilt.`)),
      run.stderr,
    );
  });
});
