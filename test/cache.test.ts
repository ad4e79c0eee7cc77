// Tests for src/cache.ts: loading (missing, corrupt), reuse of unchanged fingerprints, atomic save.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { fingerprintArchives, loadCache, saveCache, type Cache } from "../src/cache.js";
import { DropkitError } from "../src/errors.js";
import { makeZip } from "./helpers/cli.js";
import { tempDir } from "./helpers/temp.js";


const hourAgo = (): Date => new Date(Date.now() - 3_600_000);

/** Writes archives with an mtime an hour ago, so that they are not "racily" fresh. */
function archives(dir: string, files: Record<string, string>, mtime = hourAgo()): void {
  for (const [name, content] of Object.entries(files)) {
    fs.writeFileSync(path.join(dir, name), content);
    fs.utimesSync(path.join(dir, name), mtime, mtime);
  }
}

const sha = (s: string): string => createHash("sha256").update(s).digest("hex");

/** One full run as `create` does it: load, fingerprint, save. */
async function run(dir: string, names: string[]) {
  const file = path.join(dir, ".dropkit-cache.json");
  const cache = loadCache(file);
  const result = await fingerprintArchives(dir, names, cache);
  await saveCache(file, result);
  return { cache, result };
}

describe("loadCache", () => {
  test("a missing file is an empty cache, without a warning", () => {
    const cache = loadCache(path.join(tempDir(), ".dropkit-cache.json"));
    assert.deepEqual(cache, { entries: {}, checkedAtMs: 0 });
  });

  const corrupt: Array<[string, string, RegExp]> = [
    ["not JSON", "{ torn", /corrupt/],
    ["an array", "[]", /not a JSON object/],
    ["another version", '{"version":2,"checkedAtMs":1,"archives":{}}', /unknown version 2/],
    ["no checkedAtMs", '{"version":1,"archives":{}}', /checkedAtMs/],
    ["archives not an object", '{"version":1,"checkedAtMs":1,"archives":[]}', /archives/],
    ["a bad entry", '{"version":1,"checkedAtMs":1,"archives":{"a.zip":{"size":"1","mtimeMs":1,"sha256":"x"}}}', /"a\.zip"/],
    ["a bad hash", `{"version":1,"checkedAtMs":1,"archives":{"a.zip":{"size":1,"mtimeMs":1,"sha256":"${"Z".repeat(64)}"}}}`, /"a\.zip"/],
    ["an empty file", "", /corrupt/],
  ];
  for (const [what, text, pattern] of corrupt) {
    test(`a corrupt file (${what}) is an empty cache with a warning`, () => {
      const file = path.join(tempDir(), ".dropkit-cache.json");
      fs.writeFileSync(file, text);
      const cache = loadCache(file);
      assert.deepEqual(cache.entries, {});
      assert.match(cache.warning ?? "", pattern);
      assert.ok(cache.warning!.includes(file), "the warning names the file");
      assert.match(cache.warning!, /rebuilt/);
    });
  }

  test("a cache that is a directory is a warning, not a crash", () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, ".dropkit-cache.json"));
    const cache = loadCache(path.join(dir, ".dropkit-cache.json"));
    assert.deepEqual(cache.entries, {});
    assert.match(cache.warning ?? "", /EISDIR/);
  });

  test("a __proto__ entry stays data and pollutes nothing", () => {
    const file = path.join(tempDir(), "c.json");
    fs.writeFileSync(file, JSON.stringify({ version: 1, checkedAtMs: 5, archives: JSON.parse(`{"__proto__":{"size":1,"mtimeMs":2,"sha256":"${sha("x")}"}}`) }));
    const cache = loadCache(file);
    assert.equal(cache.warning, undefined);
    assert.deepEqual(Object.keys(cache.entries), ["__proto__"]);
    // A table without a prototype: `__proto__` is a key like any other.
    assert.equal(Object.getPrototypeOf(cache.entries), null);
    assert.equal(({} as { size?: unknown }).size, undefined);
  });
});

describe("fingerprintArchives", () => {
  test("the first run hashes every archive, with size, mtime and sha256", async () => {
    const dir = tempDir();
    archives(dir, { "a.zip": "alpha", "b b.zip": "bravo!" });
    const { result } = await run(dir, ["a.zip", "b b.zip"]);
    assert.deepEqual(result.hashed, ["a.zip", "b b.zip"]);
    assert.deepEqual(result.reused, []);
    const zip = { ok: false, problem: "not a zip archive (no end-of-central-directory record)" };
    assert.deepEqual(result.fingerprints["a.zip"], { size: 5, mtimeMs: fs.statSync(path.join(dir, "a.zip")).mtimeMs, sha256: sha("alpha"), zip });
    assert.equal(result.fingerprints["b b.zip"]!.sha256, sha("bravo!"));
  });

  test("a second run hashes nothing when nothing changed", async () => {
    const dir = tempDir();
    archives(dir, { "a.zip": "alpha", "b.zip": "bravo" });
    const first = await run(dir, ["a.zip", "b.zip"]);
    const second = await run(dir, ["a.zip", "b.zip"]);
    assert.equal(second.cache.warning, undefined);
    assert.deepEqual(second.result.hashed, []);
    assert.deepEqual(second.result.reused, ["a.zip", "b.zip"]);
    assert.deepEqual(second.result.fingerprints, first.result.fingerprints);
  });

  test("only the changed archive is hashed again: size change, and same size with a new mtime", async () => {
    const dir = tempDir();
    archives(dir, { "a.zip": "alpha", "b.zip": "bravo", "c.zip": "charlie" });
    await run(dir, ["a.zip", "b.zip", "c.zip"]);
    archives(dir, { "a.zip": "alpha-longer" });
    archives(dir, { "b.zip": "BRAVO" }, new Date(Date.now() - 1_800_000));
    const { result } = await run(dir, ["a.zip", "b.zip", "c.zip"]);
    assert.deepEqual(result.hashed, ["a.zip", "b.zip"]);
    assert.deepEqual(result.reused, ["c.zip"]);
    assert.equal(result.fingerprints["b.zip"]!.sha256, sha("BRAVO"));
    assert.equal(result.fingerprints["a.zip"]!.size, 12);
  });

  test("changed says whether the cache file would change: something read, or an archive come or gone", async () => {
    const dir = tempDir();
    archives(dir, { "a.zip": "alpha", "b.zip": "bravo" });
    assert.equal((await run(dir, ["a.zip", "b.zip"])).result.changed, true);
    assert.equal((await run(dir, ["a.zip", "b.zip"])).result.changed, false);
    // b.zip gone: nothing is read, but its entry must leave the cache.
    assert.equal((await run(dir, ["a.zip"])).result.changed, true);
    assert.equal((await run(dir, ["a.zip"])).result.changed, false);
  });

  test("a new archive is hashed, a removed one leaves the cache", async () => {
    const dir = tempDir();
    archives(dir, { "a.zip": "alpha", "old.zip": "old" });
    await run(dir, ["a.zip", "old.zip"]);
    fs.rmSync(path.join(dir, "old.zip"));
    archives(dir, { "new.zip": "new" });
    const { result } = await run(dir, ["a.zip", "new.zip"]);
    assert.deepEqual(result.hashed, ["new.zip"]);
    assert.deepEqual(Object.keys(loadCache(path.join(dir, ".dropkit-cache.json")).entries), ["a.zip", "new.zip"]);
  });

  test("an archive modified just before the cached run is not trusted (racy timestamps)", async () => {
    const dir = tempDir();
    archives(dir, { "a.zip": "alpha" });
    const { result } = await run(dir, ["a.zip"]);
    const mtimeMs = result.fingerprints["a.zip"]!.mtimeMs;
    const cache: Cache = { entries: result.fingerprints, checkedAtMs: mtimeMs + 1000 };
    assert.deepEqual((await fingerprintArchives(dir, ["a.zip"], cache)).hashed, ["a.zip"]);
    cache.checkedAtMs = mtimeMs + 5000;
    assert.deepEqual((await fingerprintArchives(dir, ["a.zip"], cache)).hashed, []);
  });

  test("a corrupt cache is rebuilt: everything hashed, then reused", async () => {
    const dir = tempDir();
    archives(dir, { "a.zip": "alpha" });
    fs.writeFileSync(path.join(dir, ".dropkit-cache.json"), "{ torn");
    const first = await run(dir, ["a.zip"]);
    assert.match(first.cache.warning ?? "", /corrupt/);
    assert.deepEqual(first.result.hashed, ["a.zip"]);
    const second = await run(dir, ["a.zip"]);
    assert.equal(second.cache.warning, undefined);
    assert.deepEqual(second.result.reused, ["a.zip"]);
  });

  test("a large archive is hashed by streaming, correctly", async () => {
    const dir = tempDir();
    const big = Buffer.alloc(5 * 1024 * 1024 + 7, 0x61);
    fs.writeFileSync(path.join(dir, "big.zip"), big);
    const { result } = await run(dir, ["big.zip"]);
    assert.equal(result.fingerprints["big.zip"]!.sha256, createHash("sha256").update(big).digest("hex"));
  });

  test("the zip verdict is kept with the fingerprint: a re-run reads nothing, an entry without one is checked but not hashed", async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "good.zip"), makeZip({ "a.txt": "alpha" }));
    archives(dir, { "bad.zip": "not a zip" });
    // Whole seconds, so that setting the same mtime again gives exactly the same mtimeMs.
    const then = new Date(Math.floor(Date.now() / 1000) * 1000 - 3_600_000);
    for (const name of ["good.zip", "bad.zip"]) fs.utimesSync(path.join(dir, name), then, then);
    const first = await run(dir, ["bad.zip", "good.zip"]);
    assert.deepEqual(first.result.checked, ["bad.zip", "good.zip"]);
    assert.deepEqual(first.result.fingerprints["good.zip"]!.zip, { ok: true, entries: 1 });
    assert.equal(first.result.fingerprints["bad.zip"]!.zip?.ok, false);
    // Other bytes of the same size and mtime: a run that read the files would see them, the cached run must not.
    for (const name of ["good.zip", "bad.zip"]) {
      const file = path.join(dir, name);
      fs.writeFileSync(file, Buffer.alloc(fs.statSync(file).size, 0x20));
      fs.utimesSync(file, then, then);
    }
    const second = await run(dir, ["bad.zip", "good.zip"]);
    assert.deepEqual([second.result.hashed, second.result.checked], [[], []]);
    assert.deepEqual(second.result.fingerprints, first.result.fingerprints);
    // A cache from before the check (no verdicts): checked, not hashed, and the sha256 kept.
    fs.writeFileSync(path.join(dir, "good.zip"), makeZip({ "a.txt": "alpha" }));
    fs.utimesSync(path.join(dir, "good.zip"), then, then);
    const file = path.join(dir, ".dropkit-cache.json");
    const data = JSON.parse(fs.readFileSync(file, "utf8"));
    for (const entry of Object.values(data.archives) as Array<Record<string, unknown>>) delete entry.zip;
    data.archives["good.zip"].sha256 = "0".repeat(64);
    fs.writeFileSync(file, JSON.stringify(data));
    const third = await run(dir, ["bad.zip", "good.zip"]);
    assert.deepEqual([third.result.hashed, third.result.checked, third.result.reused], [[], ["bad.zip", "good.zip"], ["bad.zip", "good.zip"]]);
    assert.equal(third.result.fingerprints["good.zip"]!.sha256, "0".repeat(64));
    assert.deepEqual(third.result.fingerprints["good.zip"]!.zip, { ok: true, entries: 1 });
  });

  test("a verdict this version cannot read is dropped, and the archive checked again", () => {
    const file = path.join(tempDir(), ".dropkit-cache.json");
    fs.writeFileSync(file, JSON.stringify({ version: 1, checkedAtMs: 1, archives: { "a.zip": { size: 1, mtimeMs: 1, sha256: "a".repeat(64), zip: { ok: "maybe" } } } }));
    const cache = loadCache(file);
    assert.equal(cache.warning, undefined);
    assert.deepEqual(cache.entries["a.zip"], { size: 1, mtimeMs: 1, sha256: "a".repeat(64) });
  });

  test("an archive that vanished is an IOError naming it", async () => {
    const dir = tempDir();
    await assert.rejects(fingerprintArchives(dir, ["gone.zip"], { entries: {}, checkedAtMs: 0 }), (e: DropkitError) =>
      e instanceof DropkitError && e.name === "IOError" && e.exitCode === 74 && e.message.includes(path.join(dir, "gone.zip")));
  });
});

describe("saveCache", () => {
  test("writes the documented layout atomically, leaving no temporary file", async () => {
    const dir = tempDir();
    archives(dir, { "b.zip": "b", "a.zip": "a" });
    await run(dir, ["b.zip", "a.zip"]);
    const data = JSON.parse(fs.readFileSync(path.join(dir, ".dropkit-cache.json"), "utf8"));
    assert.equal(data.version, 1);
    assert.equal(typeof data.checkedAtMs, "number");
    assert.deepEqual(Object.keys(data.archives), ["a.zip", "b.zip"]);
    assert.deepEqual(Object.keys(data.archives["a.zip"]), ["size", "mtimeMs", "sha256", "zip"]);
    assert.deepEqual(fs.readdirSync(dir).sort(), [".dropkit-cache.json", "a.zip", "b.zip"]);
  });

  test("a cache that cannot be written is an IOError (74) with the path and the reason", async () => {
    const file = path.join(tempDir(), "missing-dir", ".dropkit-cache.json");
    await assert.rejects(saveCache(file, { fingerprints: {}, checkedAtMs: 0 }), (e: DropkitError) =>
      e instanceof DropkitError && e.name === "IOError" && e.exitCode === 74 && e.message.includes(file) && /ENOENT/.test(e.message));
  });

  test("a failed write leaves no temporary file behind", async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, ".dropkit-cache.json"));
    await assert.rejects(saveCache(path.join(dir, ".dropkit-cache.json"), { fingerprints: {}, checkedAtMs: 0 }), (e: DropkitError) => e.name === "IOError");
    assert.deepEqual(fs.readdirSync(dir), [".dropkit-cache.json"]);
  });
});
