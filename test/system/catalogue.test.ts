// Runs the bad-input catalogue (test/system/catalogue.ts) against the built CLI, and checks docs/errors.md against it.
// For each case: the exit code, the error name, the place named, and no stack trace.

import assert from "node:assert/strict";
import fs from "node:fs";
import { before, describe, test } from "node:test";
import { cases, errorDocs, exampleCases, renderErrorsDoc, runCases, shownRoot, whereOf, type CaseResult } from "./catalogue.js";

const docFile = new URL("../../docs/errors.md", import.meta.url);
let results: CaseResult[] = [];

before(async () => {
  results = await runCases();
});

describe("the bad-input catalogue", () => {
  cases.forEach((c, i) => {
    test(`${c.input}: ${c.title} → ${c.name === "warning" ? "a warning" : c.name}, exit ${c.exit}`, () => {
      const r = results[i]!;
      const shown = `\n--- stderr ---\n${r.stderr}`;
      assert.equal(r.status, c.exit, `exit code${shown}`);
      // A stack frame ("    at fn (file:1:2)") is never shown to a user.
      assert.doesNotMatch(r.stderr, /\n\s+at .+:\d+:\d+\)?\n/, `a stack trace${shown}`);
      // Every line is a JSON record, nothing else leaks onto stderr (a bad --log-format value included).
      assert.deepEqual(
        r.records.filter((x) => x.event === "text"),
        [],
        `non-JSON output${shown}`,
      );
      assert.ok(r.record, `no ${c.name} record naming ${c.place.join(", ")}${shown}`);
      if (c.name !== "warning") {
        assert.equal(r.record.exitCode, c.exit, `the record's exit code${shown}`);
        assert.equal(r.records.filter((x) => x.event === "error")[0]?.name, c.name, `the first error${shown}`);
      }
      const where = whereOf(r.record);
      for (const place of c.place)
        assert.ok(where.includes(place.replace("<root>", shownRoot)), `the message does not name ${place}: ${where}`);
    });
  });

  test("at least 50 cases, over every input the CLI takes and every error it can report", () => {
    assert.ok(cases.length >= 50, `${cases.length} cases`);
    const inputs = new Set(cases.map((c) => c.input));
    for (const input of [
      "dropkit.config.json",
      "dropkit.config.ts / .js",
      "package.json",
      "presets",
      "environment",
      "flags",
      "state file",
      "cache file",
      "archive names",
      "archive files",
      "paths with spaces and unicode",
      "hooks",
      "init",
    ]) {
      assert.ok(inputs.has(input as never), `no case for ${input}`);
    }
    const names = new Set(cases.map((c) => c.name));
    for (const name of Object.keys(errorDocs)) {
      // InternalError is a bug by definition: no input may cause it. Interrupted comes from a signal, not an input
      // (test/system/signals.test.ts sends them).
      if (name !== "InternalError" && name !== "Interrupted") assert.ok(names.has(name as never), `no case for ${name}`);
    }
  });

  test("each error name's example, run with the text log, prints one record in the shape of the JSON one", () => {
    for (const c of exampleCases()) {
      const r = results[cases.indexOf(c)]!;
      const [first, ...rest] = r.text ?? [];
      assert.equal(
        first,
        `error     ${c.name} (exit ${c.exit}): ${String(r.record?.message).split("\n")[0]}`,
        `${c.title}: ${r.text?.join("\n")}`,
      );
      if (r.record?.source) assert.ok(rest.includes(`          at ${String(r.record.source)}`), `${c.title}: ${r.text?.join("\n")}`);
    }
  });

  test("docs/errors.md is generated from this catalogue and up to date (npm run docs:errors)", () => {
    const expected = renderErrorsDoc(results);
    // `npm run docs:errors` runs this file with DROPKIT_WRITE_ERRORS_DOC=1: the page is written, not compared.
    if (process.env.DROPKIT_WRITE_ERRORS_DOC === "1") fs.writeFileSync(docFile, expected);
    const actual = fs.existsSync(docFile) ? fs.readFileSync(docFile, "utf8") : "";
    assert.ok(actual === expected, "docs/errors.md is out of date: run npm run docs:errors");
  });
});
