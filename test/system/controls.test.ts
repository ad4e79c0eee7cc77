// Tests for src/output/controls.ts: control characters made visible in the text log, and JSON lines no reader misreads.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { escapeControls, escapeDeep, jsonLine, jsonText } from "../../src/output/controls.js";
import { fixture, runCli } from "../helpers/cli.js";

test("escapeControls makes C0, DEL, C1, the separators and the bidi controls visible", () => {
  assert.equal(escapeControls("a\nb\rc\td\u0000e\u001bf\u007fg\u0085h\u009bi"), "a\\nb\\rc\\td\\x00e\\x1bf\\x7fg\\x85h\\x9bi");
  assert.equal(
    escapeControls("\u2028\u2029\u061c\u200e\u200f\u202a\u202e\u2066\u2069"),
    "\\u2028\\u2029\\u061c\\u200e\\u200f\\u202a\\u202e\\u2066\\u2069",
  );
  assert.equal(escapeControls("tab\there", true), "tab\there");
  // Ordinary text, backslashes, and other Unicode (accents, emoji, right-to-left letters) pass as they are.
  assert.equal(escapeControls("é ✓ 😀 \\n שלום \u00a0"), "é ✓ 😀 \\n שלום \u00a0");
});

test("escapeDeep escapes every string of a value, keys too, and leaves the rest as it is", () => {
  assert.deepEqual(escapeDeep({ "k\n": ["a\u001b", 1, null, { x: "\u202e" }], n: true }), {
    "k\\n": ["a\\x1b", 1, null, { x: "\\u202e" }],
    n: true,
  });
});

test("escapeDeep returns a value with nothing to escape as it is, and copies only what changes", () => {
  const clean = { event: "plan", modules: ["blog", "shop"], plan: { theme: "ocean", excluded: [] }, n: 1 };
  assert.equal(escapeDeep(clean), clean);
  const dirty = { a: ["x", "y\n"], b: { c: "z" } };
  const escaped = escapeDeep(dirty) as typeof dirty;
  assert.deepEqual(escaped, { a: ["x", "y\\n"], b: { c: "z" } });
  assert.deepEqual(dirty, { a: ["x", "y\n"], b: { c: "z" } });
  assert.equal(escaped.b, dirty.b);
});

test("jsonLine: C0 escaped by JSON; DEL, C1, U+2028/U+2029 and bidi controls as \\u escapes; the value exact; one line", () => {
  const value = "a\nb\u001b\u007f\u0085\u2028\u2029\u202e\u2066é😀";
  const line = jsonLine({ v: value });
  assert.equal(line, '{"v":"a\\nb\\u001b\\u007f\\u0085\\u2028\\u2029\\u202e\\u2066é😀"}\n');
  assert.deepEqual(JSON.parse(line), { v: value });
  assert.equal(jsonLine({ x: "\u2028" }), '{"x":"\\u2028"}\n');
});

test("jsonText: the same escapes in indented JSON (`config --json`), the value exact", () => {
  const value = { v: ["\u202e\u001b", "\u2066"] };
  const text = jsonText(value, 2);
  assert.equal(text, '{\n  "v": [\n    "\\u202e\\u001b",\n    "\\u2066"\n  ]\n}');
  assert.deepEqual(JSON.parse(text), value);
});

describe("through the built CLI: config values and archive names reach no output raw", () => {
  /** ESC (a colour, a screen clear, a title), U+202E and a newline that would forge a row of the table. */
  const hostile = {
    theme: "oc\u001b[31mean\u202e",
    modules: { exclude: ["a\nKEY  forged", "b\u001b]0;x\u0007", "c\u202ed", "a-module-name-long-enough-to-list-one-a-line"] },
    presetsSearchPath: ["p\u202e\u001b[2Jq"],
  };
  const raw = /[\u001b\u0007\u202e]/;
  const labels = /^(config|preset|decision|plan|hook|state|warning|error) +\S|^ {10}\S/;

  test("the table, --explain, --json and the warnings escape them; a newline adds no row", () => {
    const root = fixture({ "dropkit.config.json": JSON.stringify(hostile) });
    const table = runCli(root, ["config"]);
    assert.equal(table.status, 0, table.stderr);
    assert.doesNotMatch(table.stdout, raw);
    assert.doesNotMatch(table.stderr, raw);
    // One line per leaf and per further list item, as many as --json has values: the newline forged none.
    const { config, origins } = JSON.parse(runCli(root, ["config", "--json"]).stdout);
    const values = Object.keys(origins).map((key) => key.split(".").reduce((v, part) => v[part], config));
    const lines = table.stdout.trimEnd().split("\n");
    assert.equal(lines.length, 1 + values.reduce((n: number, v: unknown) => n + (Array.isArray(v) ? Math.max(1, v.length) : 1), 0));
    assert.match(table.stdout, /^theme +oc\\x1b\[31mean\\u202e +config +\S+dropkit\.config\.json:1:10$/m);
    assert.match(table.stdout, /^modules\.exclude +a\\nKEY {2}forged +config /m);
    assert.match(table.stdout, /^ +b\\x1b\]0;x\\x07 +config /m);
    // The warning about the missing search path quotes the value, escaped.
    assert.match(table.stderr, /^warning +The presets search path directory \S+p\\u202e\\x1b\[2Jq does not exist/m);
    for (const line of table.stderr.trimEnd().split("\n")) assert.match(line, labels);

    const explained = runCli(root, ["config", "--explain", "modules.exclude"]);
    assert.equal(explained.status, 0);
    assert.doesNotMatch(explained.stdout, raw);
    const rows = explained.stdout.trimEnd().split("\n");
    assert.match(rows[0]!, /^modules\.exclude = \["a\\nKEY {2}forged","b\\u001b\]0;x\\u0007","c\\u202ed","a-module-/);
    // The config's four globs a line each (too long for one), the default's [].
    assert.equal(rows.length, 1 + 4 + 1);
    for (const row of rows.slice(1)) assert.match(row, /^ {2}\S|^ {11}"/);
    const theme = runCli(root, ["config", "--explain", "theme"]);
    assert.deepEqual(
      theme.stdout
        .trimEnd()
        .split("\n")
        .map((l) => l.trim().split(/ +/).slice(0, 2)),
      [
        ["theme", "="],
        ["config", '"oc\\u001b[31mean\\u202e"'],
        ["default", '"auto"'],
      ],
    );
    for (const args of [
      ["config", "--json"],
      ["config", "--explain", "theme", "--json"],
    ]) {
      const run = runCli(root, args);
      assert.doesNotMatch(run.stdout, raw, args.join(" "));
      assert.equal(JSON.parse(run.stdout) !== undefined, true);
    }
    assert.equal(JSON.parse(runCli(root, ["config", "--json"]).stdout).config.theme, hostile.theme, "--json stays exact");
  });

  test("create's warnings and log escape an archive's name", () => {
    const root = fixture({
      "dropkit.config.json": JSON.stringify({ modules: hostile.modules }),
      "ocean-theme.zip": { zip: { "a.txt": "a" } },
      "folder/": "",
    });
    // A link to a folder, named to clear the screen, reverse the line and forge a warning: left out with a warning.
    fs.symlinkSync(path.join(root, "folder"), path.join(root, "x\u001b[2J\u202e\nwarning   forged.zip"));
    const run = runCli(root, ["create"]);
    assert.equal(run.status, 0, run.stderr);
    assert.doesNotMatch(run.stderr, raw);
    // The config's globs match no archive: each is a warning that quotes it, escaped like the archive's name.
    const warnings = run.stderr.split("\n").filter((l) => l.startsWith("warning") && !l.includes("Module glob"));
    assert.equal(warnings.length, 1, run.stderr);
    assert.match(warnings[0]!, /x\\x1b\[2J\\u202e\\nwarning {3}forged\.zip is left out/);
    assert.match(run.stderr, /warning {3}Module glob "a\\nKEY {2}forged" \(modules\.exclude, /);
    for (const line of run.stderr.trimEnd().split("\n")) assert.match(line, labels);
  });
});
