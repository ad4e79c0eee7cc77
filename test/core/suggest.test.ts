// Tests for the one did-you-mean (assembly/schema/suggest.ts): the `suggest` op the host asks, and `--explain`'s key check in resolve.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { openAbi } from "../../scripts/lib/abi.js";
import { core, only, resolveDone } from "../helpers/core.js";

const abi = openAbi();
const commands = ["create", "config", "init", "help", "completion"];
// The 13 leaves, in order, as every answer's origins lists them (test/core/merge.test.ts checks the list).
const keys = Object.keys(resolveDone({ cwd: "/d", presetFiles: [], files: [] }).origins!);
const topKeys = ["schema", "theme", "modules", "exclude", "presets", "presetsSearchPath", "hooks", "cache", "log"];

function suggest(name: string, candidates: string[]): string | null {
  const { status, text } = abi.call(JSON.stringify({ op: "suggest", name, candidates }));
  assert.equal(status, 0, text);
  return (JSON.parse(text) as { suggestion: string | null }).suggestion;
}

/**
 * The rule, stated apart from the core: edits are insertions, deletions, substitutions and swaps of two neighbours,
 * one each, on ASCII letters folded to lower case; the first closest candidate, when it is at most max(2, a third of
 * the name's length) edits away and fewer than the name's length.
 */
function expected(name: string, candidates: string[]): string | null {
  const lower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const a = lower(name);
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const b = lower(c);
    const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
    for (let j = 0; j <= b.length; j++) d[0]![j] = j;
    for (let i = 1; i <= a.length; i++) {
      for (let j = 1; j <= b.length; j++) {
        const row = d[i]!;
        row[j] = Math.min(d[i - 1]![j]! + 1, row[j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
      }
    }
    const distance = d[a.length]![b.length]!;
    if (distance < bestDistance) [best, bestDistance] = [c, distance];
  }
  return bestDistance <= Math.max(2, Math.floor(a.length / 3)) && bestDistance < a.length ? best : null;
}

describe("the suggest op", () => {
  test("answers with the closest candidate as the candidate spells it, or null", () => {
    assert.equal(suggest("craete", commands), "create");
    assert.equal(suggest("CONFG", commands), "config");
    assert.equal(suggest("xyzzy", commands), null);
    assert.equal(suggest("anything", []), null);
  });

  test("a swap of two neighbours is one edit: two swaps in six letters are within the limit of two", () => {
    // As insertions, deletions and substitutions alone, each swap costs two: four edits, past the limit.
    assert.equal(suggest("cnofgi", commands), "config");
    assert.equal(suggest("rcetae", commands), "create");
    assert.equal(suggest("xeplain", ["config", "explain", "json"]), "explain");
  });

  test("the limit: at most max(2, a third of the name's length) edits, and fewer edits than the name has characters", () => {
    assert.equal(suggest("ab", ["xy"]), null);
    assert.equal(suggest("ab", ["ax"]), "ax");
    assert.equal(suggest("abcdefghi", ["abcdefxyz"]), "abcdefxyz");
    assert.equal(suggest("abcdefghi", ["abcdewxyz"]), null);
    assert.equal(suggest("", ["a"]), null);
  });

  test("ASCII letters compare in any case; other letters as they are", () => {
    assert.equal(suggest("OCEAN-THEME.ZIP", ["ocean-theme.zip"]), "ocean-theme.zip");
    // É and é are two different characters to the core, as in its theme names: one edit each.
    assert.equal(suggest("ÉTÉ.zip", ["été.zip"]), "été.zip");
    assert.equal(suggest("ÉÉ", ["éé"]), null);
  });

  test("the first of equally close candidates wins", () => {
    assert.equal(suggest("cat", ["bat", "hat"]), "bat");
    assert.equal(suggest("cat", ["hat", "bat"]), "hat");
  });

  test("a name of a megabyte is answered (candidates far longer or shorter are never measured)", () => {
    assert.equal(suggest("x".repeat(1_000_000), commands), null);
    assert.equal(suggest("config".repeat(1000), ["config".repeat(999) + "confgi"]), "config".repeat(999) + "confgi");
  });

  test("is the rule above on any name and candidates", () => {
    const word = fc.string({ unit: fc.constantFrom(..."abcCOnfigtE-.é"), maxLength: 9 });
    fc.assert(
      fc.property(word, fc.array(word, { maxLength: 6 }), (name, candidates) => {
        assert.equal(suggest(name, candidates), expected(name, candidates));
      }),
      { numRuns: 2000, seed: 2501 },
    );
  });

  test("is the did-you-mean of the core's own messages: an unknown config key gets the same suggestion", () => {
    const word = fc.string({ unit: fc.constantFrom(..."themsocaprlgxHE"), minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(word, (name) => {
        fc.pre(!topKeys.includes(name) && name !== "$schema" && name !== "detect");
        const message = only(core.validateConfig(JSON.stringify({ [name]: 1 })).errors).message;
        const guess = suggest(name, topKeys);
        assert.equal(message.includes("Did you mean"), guess !== null, message);
        if (guess !== null) assert.ok(message.includes(`Did you mean "${guess}"?`), message);
      }),
      { numRuns: 500, seed: 2502 },
    );
  });

  test("a malformed request is the host's bug (status 2)", () => {
    const cases: Array<[object, string]> = [
      [{ op: "suggest", candidates: [] }, "Malformed suggest request: name must be a string"],
      [{ op: "suggest", name: "x" }, "Malformed suggest request: candidates must be an array of strings"],
      [{ op: "suggest", name: "x", candidates: "a" }, "Malformed suggest request: candidates must be an array of strings"],
      [
        { op: "suggest", name: 1, candidates: ["a", 2] },
        "Malformed suggest request: name must be a string; candidates[1] must be a string",
      ],
    ];
    for (const [request, message] of cases) {
      const { status, text } = abi.call(JSON.stringify(request));
      assert.equal(status, 2, JSON.stringify(request));
      assert.equal(only(JSON.parse(text).errors as Array<{ message: string }>).message, message);
    }
    assert.throws(() => core.suggest(1 as unknown as string, []), { name: "InternalError", message: /name must be a string/ });
  });

  test("the JS binding answers undefined for none", () => {
    assert.equal(core.suggest("confgi", commands), "config");
    assert.equal(core.suggest("zzz", commands), undefined);
  });
});

describe("resolve's explain key", () => {
  const base = { cwd: "/d", presetFiles: [], files: [] };

  test("a known key: the answer's explain has that key's chain alone", () => {
    const r = resolveDone({ ...base, flags: { theme: "ocean" }, explain: "theme" });
    assert.equal(r.ok, true);
    assert.deepEqual(r.explain, {
      theme: [
        { layer: "cli", source: "--theme", value: "ocean" },
        { layer: "default", source: "default", value: "auto" },
      ],
    });
    // true still asks for every key's.
    assert.deepEqual(Object.keys(resolveDone({ ...base, explain: true }).explain!), keys);
  });

  test("an unknown key is a UsageError at --explain with the did-you-mean and the keys, and marks no key invalid", () => {
    const r = resolveDone({ ...base, explain: "cache.enable" });
    assert.equal(r.ok, false);
    assert.deepEqual(only(r.errors), {
      name: "UsageError",
      code: "UnknownKey",
      exitCode: 64,
      path: "",
      source: "--explain",
      message: `Unknown key "cache.enable" for --explain. Did you mean "cache.enabled"? Keys: ${keys.join(", ")}.`,
      suggestion: "cache.enabled",
      expected: keys,
    });
    assert.deepEqual(r.invalid, []);
    assert.equal(r.explain, undefined);
    // Nothing close: no suggestion, the keys still listed. Keys compare exactly: a key in other case is unknown, with itself suggested.
    assert.equal(
      only(resolveDone({ ...base, explain: "zzz" }).errors).message,
      `Unknown key "zzz" for --explain. Keys: ${keys.join(", ")}.`,
    );
    assert.equal(only(resolveDone({ ...base, explain: "THEME" }).errors).suggestion, "theme");
  });

  test("the key's suggestion is the suggest op's, swaps counted as one edit", () => {
    for (const key of ["htmee", "cahce.fiel", "log.fromat", "hooks.onfailure", "presetSearchPath"]) {
      const message = only(resolveDone({ ...base, explain: key }).errors).message;
      const guess = suggest(key, keys);
      assert.ok(guess !== null, key);
      assert.ok(message.includes(`Did you mean "${guess}"?`), message);
    }
    assert.equal(suggest("htmee", keys), "theme");
  });

  test("it is a problem of the flags: after theirs, before the environment's; and a resolve with problems asks for no files", () => {
    const r = resolveDone({ cwd: "/d", flags: { theme: "a/b" }, env: { DROPKIT_CACHE_ENABLED: "maybe" }, explain: "nope" });
    assert.deepEqual(
      r.errors.map((e) => [e.name, e.source]),
      [
        ["UsageError", "--theme"],
        ["UsageError", "--explain"],
        ["SchemaValidationError", "DROPKIT_CACHE_ENABLED"],
      ],
    );
    // With a search path the presets stage would come first; the unknown key answers at once.
    const staged = core.resolveLayers({ cwd: "/d", flags: { preset: ["./p.json"] }, explain: "nope" });
    assert.equal(staged.stage, "done");
  });

  test("explain of another kind than a boolean or a string is malformed", () => {
    for (const explain of [1, [], {}]) {
      const { status, text } = abi.call(JSON.stringify({ op: "resolve", cwd: "/d", explain }));
      assert.equal(status, 2);
      assert.equal(
        only(JSON.parse(text).errors as Array<{ message: string }>).message,
        "Malformed resolve request: explain must be true, false or a key",
      );
    }
    assert.equal(abi.call(JSON.stringify({ op: "resolve", cwd: "/d", explain: null, presetFiles: [], files: [] })).status, 0);
  });
});
