// The core's problem codes reach users: the CLI's JSON `error` and `warning` records and the library's diagnostics carry
// them (docs/errors.md, "Codes"), so that a program matches the code, not the message.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { DropkitError } from "../../src/errors.js";
import { loadConfig } from "../../src/index.js";
import { eventsOf, fixture, runCli } from "../helpers/cli.js";
import { fenced } from "../helpers/temp.js";

describe("codes in what users get", () => {
  test("each error record of a config's problems carries the core's code; the text log shows none", () => {
    const root = fixture({ "dropkit.config.json": '{\n  "them": "ocean",\n  "log": {"format": "jsn"},\n  "exclude": ["a*b"]\n}\n' });
    const json = runCli(root, ["config", "--log-format=json"]);
    assert.equal(json.status, 65, json.stderr);
    assert.deepEqual(
      eventsOf(json, "error").map((r) => [r.name, r.code, r.path]),
      [
        ["SchemaValidationError", "UnknownKey", "them"],
        ["SchemaValidationError", "NotOneOf", "log.format"],
        ["SchemaValidationError", "GlobStar", "exclude[0]"],
      ],
    );
    const text = runCli(root, ["config"]);
    assert.equal(text.status, 65);
    assert.doesNotMatch(text.stderr, /UnknownKey|NotOneOf|GlobStar/);
  });

  test("a bad flag value is a UsageError whose code is the value's problem; an unknown variable's warning has its code", () => {
    const root = fixture({ "dropkit.config.json": "{}\n" });
    const r = runCli(root, ["config", "--log-format=json", "--theme="], { DROPKIT_THEMES: "x" });
    assert.equal(r.status, 64, r.stderr);
    assert.deepEqual(
      eventsOf(r, "error").map((e) => [e.name, e.code, e.source]),
      [["UsageError", "EmptyValue", "--theme"]],
    );
    assert.deepEqual(
      eventsOf(r, "warning").map((w) => [w.code, w.source]),
      [["UnknownVariable", "DROPKIT_THEMES"]],
    );
  });

  test("a syntax error's record has the kind of error as its code", () => {
    const root = fixture({ "dropkit.config.json": '{"theme": "ocean",}\n' });
    const r = runCli(root, ["config", "--log-format=json"]);
    assert.equal(r.status, 65, r.stderr);
    assert.deepEqual(
      eventsOf(r, "error").map((e) => [e.name, e.code]),
      [["ConfigSyntaxError", "TrailingComma"]],
    );
  });

  test("the library's DropkitError carries each problem's code", async () => {
    const root = fixture({ "dropkit.config.json": '{"theme": "ocean", "theme": "river", "schema": 2}' });
    await assert.rejects(loadConfig({ cwd: root, env: fenced(root) }), (e: DropkitError) => {
      assert.deepEqual(
        e.diagnostics.map((d) => [d.name, d.code]),
        [
          ["SchemaValidationError", "DuplicateKey"],
          ["SchemaValidationError", "SchemaVersion"],
        ],
      );
      return true;
    });
  });
});
