// Tests for src/output/logtext.ts: the text of each record (its rendering through DecisionLog is tested in log.test.ts).

import assert from "node:assert/strict";
import { test } from "node:test";
import { codeFrame, describeRecord, listSome, type Paint } from "../../src/output/logtext.js";

const plain: Paint = (text) => text;

test("listSome: every name when there are few, the first ones and a count when there are many", () => {
  assert.equal(listSome(["a", "b"], 3), "a, b");
  assert.equal(listSome(["a", "b", "c", "d", "e"], 3), "a, b, c and 2 more");
  assert.equal(listSome([], 3), "");
});

test("describeRecord: the state records of a run, the cache's included", () => {
  assert.equal(
    describeRecord(
      { event: "state", action: "cache", file: "/d/c.json", hashed: ["a"], reused: ["b", "c"], checked: ["a", "d"], written: false },
      plain,
    ),
    "cache /d/c.json: 1 archive hashed, 2 reused (1 checked as zips) (unchanged, not rewritten)",
  );
  assert.equal(
    describeRecord({ event: "state", action: "restored", file: "/d/.dropkit.json" }, plain),
    "restored /d/.dropkit.json as it was before this run, which failed",
  );
  assert.equal(
    describeRecord(
      {
        event: "state",
        action: "updated",
        file: "/d/.dropkit.json",
        lifted: true,
        legacyCopy: "/d/.dropkit.json.legacy",
        plan: { theme: null, modules: [] },
      },
      plain,
    ),
    "updated /d/.dropkit.json, lifted from the legacy shape (original kept as /d/.dropkit.json.legacy) (theme none; modules none)",
  );
});

test("codeFrame: nothing without a file and a line, or when the file cannot be read", () => {
  assert.equal(codeFrame({}, plain), "");
  assert.equal(codeFrame({ file: "/no/such/file.json", line: 1, column: 1 }, plain), "");
});
