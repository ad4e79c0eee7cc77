// Tests for src/escape.ts: control characters made visible in the text log, and JSON lines no reader misreads.

import assert from "node:assert/strict";
import { test } from "node:test";
import { escapeControls, escapeDeep, jsonLine } from "../src/escape.js";

test("escapeControls makes C0, DEL, C1, the separators and the bidi controls visible", () => {
  assert.equal(escapeControls("a\nb\rc\td\u0000e\u001bf\u007fg\u0085h\u009bi"), "a\\nb\\rc\\td\\x00e\\x1bf\\x7fg\\x85h\\x9bi");
  assert.equal(escapeControls("\u2028\u2029\u061c\u200e\u200f\u202a\u202e\u2066\u2069"), "\\u2028\\u2029\\u061c\\u200e\\u200f\\u202a\\u202e\\u2066\\u2069");
  assert.equal(escapeControls("tab\there", true), "tab\there");
  // Ordinary text, backslashes, and other Unicode (accents, emoji, right-to-left letters) pass as they are.
  assert.equal(escapeControls("é ✓ 😀 \\n שלום \u00a0"), "é ✓ 😀 \\n שלום \u00a0");
});

test("escapeDeep escapes every string of a value, keys too, and leaves the rest as it is", () => {
  assert.deepEqual(escapeDeep({ "k\n": ["a\u001b", 1, null, { x: "\u202e" }], n: true }), { "k\\n": ["a\\x1b", 1, null, { x: "\\u202e" }], n: true });
});

test("jsonLine: C0 escaped by JSON; DEL, C1, U+2028/U+2029 and bidi controls as \\u escapes; the value exact; one line", () => {
  const value = "a\nb\u001b\u007f\u0085\u2028\u2029\u202e\u2066é😀";
  const line = jsonLine({ v: value });
  assert.equal(line, '{"v":"a\\nb\\u001b\\u007f\\u0085\\u2028\\u2029\\u202e\\u2066é😀"}\n');
  assert.deepEqual(JSON.parse(line), { v: value });
  assert.equal(jsonLine({ x: "\u2028" }), '{"x":"\\u2028"}\n');
});
