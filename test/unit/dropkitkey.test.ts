// Whether a package.json's text holds dropkit's config: the one-pass scan and the parse behind it give discovery's answer.

import assert from "node:assert/strict";
import { test } from "node:test";
import { dropkitKeyInText, looksLikePackageJson } from "../../src/config/dropkitkey.js";

test("a top-level dropkit key, and only that, makes a package.json dropkit's; one that does not parse but mentions it counts", () => {
  const cases: Array<[string, boolean]> = [
    ['{ "name": "site" }', false],
    ['{ "name": "site", "dropkit": { "theme": "ocean" } }', true],
    ['\ufeff{ "dropkit" : {} }', true],
    // dropkit as a dependency, or as a string, is no config.
    ['{ "devDependencies": { "dropkit": "^1.0.0" } }', false],
    ['{ "description": "\\"dropkit\\": a config", "keywords": ["dropkit"] }', false],
    ['[{ "dropkit": {} }]', false],
    // Unparsable: the core reports the syntax error with its position.
    ['{ "devDependencies": { "dropkit": "^1.0.0" }', true],
    ['{ "dropkit": { "theme": }', true],
  ];
  for (const [text, holds] of cases) assert.equal(dropkitKeyInText(text), holds, text);
});

test("the scan finds the key where the parse does, without building the value", () => {
  assert.equal(looksLikePackageJson('{ "a": { "dropkit": 1 }, "dropkit": {} }'), true);
  assert.equal(looksLikePackageJson('{ "a": { "dropkit": 1 } }'), false);
  assert.equal(looksLikePackageJson('{ "a": "{\\"dropkit\\": 1" }'), false);
});
