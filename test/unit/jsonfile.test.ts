// Tests for src/files/jsonfile.ts: the nesting check that runs before JSON.parse on dropkit's own files.

import assert from "node:assert/strict";
import { test } from "node:test";
import { nestingExceeds, parseJsonWithin } from "../../src/files/jsonfile.js";

/** The walk alone, without the count of brackets that ends most checks early. */
function walk(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") {
      if (++depth > max) return true;
    } else if (c === "}" || c === "]") depth--;
  }
  return false;
}

test("nestingExceeds: the limit itself passes, one level more does not", () => {
  for (const max of [1, 2, 5, 128]) {
    assert.equal(nestingExceeds("[".repeat(max) + "]".repeat(max), max), false);
    assert.equal(nestingExceeds("[".repeat(max + 1) + "]".repeat(max + 1), max), true);
    assert.equal(nestingExceeds(`${'{"a":'.repeat(max + 1)}1${"}".repeat(max + 1)}`, max), true);
  }
});

test("nestingExceeds: brackets inside strings do not count; many shallow brackets are not deep", () => {
  assert.equal(nestingExceeds(JSON.stringify({ a: "[[[[[[{{{{{{", b: '\\"[[[[' }), 2), false);
  assert.equal(nestingExceeds(JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ i, v: [i] }))), 3), false);
  assert.equal(nestingExceeds(JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ i, v: [[i]] }))), 3), true);
});

test("nestingExceeds: the same answer as the walk on random bracket texts", () => {
  const pieces = ["{", "}", "[", "]", '"', "\\", "a", ",", ":"];
  for (let n = 0; n < 3000; n++) {
    const length = Math.floor(Math.random() * 60);
    const text = Array.from({ length }, () => pieces[Math.floor(Math.random() * pieces.length)]).join("");
    const max = Math.floor(Math.random() * 8);
    assert.equal(nestingExceeds(text, max), walk(text, max), `${JSON.stringify(text)} max ${max}`);
  }
});

test("parseJsonWithin: a file nested deeper than its limit is refused before it is parsed", () => {
  const parsed = parseJsonWithin("[[[1]]]", true, 7, { bytes: 100, depth: 2 });
  assert.deepEqual(parsed, { ok: false, reason: "it is nested more than 2 levels deep" });
  assert.deepEqual(parseJsonWithin("[[1]]", true, 5, { bytes: 100, depth: 2 }), { ok: true, value: [[1]] });
});
