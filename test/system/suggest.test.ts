// Tests for the CLI's did-you-means, every one the core's: an unknown command, flag, help topic, --explain key and theme path.
//
// Each mistyped name swaps two pairs of neighbouring letters: two edits by the core's rule (a swap is one), within the
// limit, where insertions, deletions and substitutions alone would count four and suggest nothing.

import assert from "node:assert/strict";
import path from "node:path";
import { describe, test } from "node:test";
import { fixture, runCli, type RunResult } from "../helpers/cli.js";

const json = ["--log-format=json"];

/** The one error record of a run with JSON records, after checking its exit code and that stdout is empty. */
function onlyError(run: RunResult, exitCode: number): Record<string, unknown> {
  assert.equal(run.status, exitCode, run.stderr);
  assert.equal(run.stdout, "");
  const errors = run.records.filter((r) => r.event === "error");
  assert.equal(errors.length, 1, run.stderr);
  return errors[0]!;
}

describe("every did-you-mean of the CLI is the core's", () => {
  test("an unknown command", () => {
    const root = fixture();
    const record = onlyError(runCli(root, ["cnofgi", ...json]), 64);
    assert.deepEqual(record, {
      event: "error",
      name: "UsageError",
      exitCode: 64,
      path: "",
      source: "cnofgi",
      message: 'Unknown command "cnofgi". Did you mean "dropkit config"? Run dropkit --help for the commands.',
    });
    // In any ASCII case; nothing close, no suggestion.
    assert.match(runCli(root, ["CRAETE"]).stderr, /Unknown command "CRAETE"\. Did you mean "dropkit create"\?/);
    assert.doesNotMatch(runCli(root, ["xyzzy"]).stderr, /Did you mean/);
  });

  test("an unknown flag, and an unknown command for dropkit help", () => {
    const root = fixture();
    const cases: Array<[string[], string, string]> = [
      [
        ["config", "--xeplian=theme"],
        "--xeplian",
        "Unknown flag --xeplian for dropkit config. Did you mean --explain? Run dropkit config --help for its flags.",
      ],
      [
        ["help", "rcetae"],
        "rcetae",
        'Unknown command "rcetae" for dropkit help. Did you mean "create"? Commands: create, config, init, help, completion, lsp.',
      ],
    ];
    for (const [args, source, message] of cases) {
      const record = onlyError(runCli(root, [...args, ...json]), 64);
      assert.deepEqual([record.name, record.source, record.message], ["UsageError", source, message], args.join(" "));
    }
  });

  test("an unknown key of config --explain: a UsageError at --explain, with the keys", () => {
    const root = fixture({ "dropkit.config.json": '{"theme": "ocean"}' });
    const keys =
      "schema, theme, modules.include, modules.exclude, modules.only, presets, presetsSearchPath, " +
      "hooks.initScriptsDir, hooks.postScriptsDir, hooks.onFailure, cache.file, cache.enabled, log.format";
    for (const args of [
      ["config", "--explain", "htmee", ...json],
      ["config", "--json", "--explain=htmee"],
    ]) {
      const record = onlyError(runCli(root, args), 64);
      assert.deepEqual(record, {
        event: "error",
        name: "UsageError",
        code: "UnknownKey",
        exitCode: 64,
        path: "",
        source: "--explain",
        message: `Unknown key "htmee" for --explain. Did you mean "theme"? Keys: ${keys}.`,
      });
    }
    const text = runCli(root, ["config", "--explain", "cache.enable"]);
    assert.equal(text.status, 64);
    assert.match(text.stderr, /UsageError \(exit 64\): Unknown key "cache\.enable" for --explain\. Did you mean "cache\.enabled"\?/);
    // The key that is known is explained.
    const known = runCli(root, ["config", "--explain", "theme"]);
    assert.equal(known.status, 0, known.stderr);
    assert.match(known.stdout, /^theme = "ocean"\n {2}config +"ocean"/);
  });

  test("an unknown --explain key is a bad flag value: reported with the config's problems, first, as exit 64", () => {
    const root = fixture({ "dropkit.config.json": '{"theme": 3}' });
    const run = runCli(root, ["config", "--explain", "tehme", ...json]);
    assert.equal(run.status, 64);
    assert.deepEqual(
      run.records.filter((r) => r.event === "error").map((r) => [r.name, r.source]),
      [
        ["UsageError", "--explain"],
        ["SchemaValidationError", `${path.join(root, "dropkit.config.json")}:1:11`],
      ],
    );
  });

  test("a theme path that does not exist: the closest .zip of its folder, from create and from init", () => {
    const root = fixture({
      "blog.zip": { zip: { "a.txt": "a" } },
      "themes/blue.zip": { zip: { "theme.css": "body {}" } },
      "themes/other.zip": { zip: { "a.txt": "a" } },
    });
    const wanted = path.join(root, "themes/blue.zip");
    for (const command of [["create"], ["init", "--yes"]]) {
      const record = onlyError(runCli(root, [...command, "--theme=./themes/lbeu.zip", ...json]), 66);
      assert.equal(record.name, "ThemeNotFound", command.join(" "));
      assert.equal(record.source, "--theme");
      assert.equal(
        record.message,
        `Theme archive ${path.join(root, "themes/lbeu.zip")} not found (the theme set by --theme). Did you mean ` +
          `${wanted}? Check the theme path, or use a theme name or "auto".`,
      );
    }
    // Nothing close: the folder's archives instead.
    const far = onlyError(runCli(root, ["create", "--theme=./themes/zzzzzzzz.zip", ...json]), 66);
    assert.match(String(far.message), /not found \(the theme set by --theme\)\. Archives in \S+themes: blue\.zip, other\.zip\./);
  });
});
