// Tests for src/archives/fingerprints.ts: what a cache file is (dropkit's, corrupt, someone else's), reuse of unchanged fingerprints, the safe atomic save.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, test } from "node:test";
import {
  cacheEntriesMax,
  cacheFileLimits,
  commitCache,
  fingerprintArchives,
  loadCache,
  saveCache,
  stageCache,
  type FingerprintCache,
} from "../../src/archives/fingerprints.js";
import { DropkitError } from "../../src/errors.js";
import { age, eventsOf, fixture, makeZip, runCli } from "../helpers/cli.js";
import { asNobody, nobody, openUp, permissions } from "../helpers/nobody.js";
import { tempDir } from "../helpers/temp.js";

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

const entry = (content: string, extra: Record<string, unknown> = {}) => ({
  dev: 1,
  ino: 2,
  size: content.length,
  mtimeMs: 5,
  ctimeMs: 6,
  checkedAtMs: 7,
  sha256: sha(content),
  ...extra,
});

/** What a cache entry records of the file at `file`: the identity a verdict is reused for (with its run's checkedAtMs). */
function identity(file: string) {
  const { dev, ino, size, mtimeMs, ctimeMs } = fs.statSync(file);
  return { dev, ino, size, mtimeMs, ctimeMs };
}

/** The key of an archive of `dir` in the cache: its real path. */
const keyOf = (dir: string, name: string): string => path.join(fs.realpathSync(dir), name);

describe("loadCache", () => {
  test("a missing file is an empty cache, without a warning", () => {
    const cache = loadCache(path.join(tempDir(), ".dropkit-cache.json"));
    assert.deepEqual(cache, { entries: {}, checkedAtMs: 0, found: { kind: "missing" } });
  });

  test("a version-3 cache is read, each entry with every field it has", () => {
    const dir = tempDir();
    const v3 = { kind: "dropkit-cache", version: 3, checkedAtMs: 7, archives: { "/drop/a.zip": entry("a", { zip: { ok: true } }) } };
    fs.writeFileSync(path.join(dir, "v3.json"), JSON.stringify(v3));
    const three = loadCache(path.join(dir, "v3.json"));
    assert.deepEqual([three.found.kind, three.warning, three.checkedAtMs, { ...three.entries }], ["cache", undefined, 7, v3.archives]);
  });

  test("version-2 and version-1 caches are dropkit's, without a warning, and their entries (bare names, no identity) are misses, flawed or not", () => {
    const dir = tempDir();
    const v2 = { kind: "dropkit-cache", version: 2, checkedAtMs: 7, archives: { "a.zip": { size: 1, mtimeMs: 5, sha256: sha("a") } } };
    const v1 = { version: 1, checkedAtMs: 8, archives: { "b.zip": { size: "1", mtimeMs: 5, sha256: "x" } } };
    fs.writeFileSync(path.join(dir, "v2.json"), JSON.stringify(v2));
    fs.writeFileSync(path.join(dir, "v1.json"), JSON.stringify(v1, null, 2));
    const two = loadCache(path.join(dir, "v2.json"));
    assert.deepEqual([two.found.kind, two.warning, two.checkedAtMs, { ...two.entries }], ["cache", undefined, 7, {}]);
    assert.equal((two.found as { version: number }).version, 2);
    const one = loadCache(path.join(dir, "v1.json"));
    assert.deepEqual([one.found.kind, one.warning, one.checkedAtMs, { ...one.entries }], ["cache", undefined, 8, {}]);
  });

  // A dropkit cache that cannot be used: recognisable as dropkit's, so it is moved aside and rebuilt.
  const corrupt: Array<[string, string, RegExp]> = [
    ["torn after the marker", '{\n  "kind": "dropkit-cache",\n  "version": 2,\n  "checkedAt', /corrupt/],
    ["a version-1 file cut short", '{\n  "version": 1,\n  "checkedAtMs": 17000', /corrupt/],
    ["cut inside the marker", '{\n  "kind": "dropk', /corrupt/],
    ["an empty file", "", /it is empty/],
    ["only whitespace", " \n\t", /it is empty/],
    ["a version-1 beginning without archives", '{"version":1,"checkedAtMs":1}', /not an object of the cache layout/],
    ["checkedAtMs not a number", '{"version":1,"checkedAtMs":"1","archives":{}}', /checkedAtMs/],
    ["archives not an object", '{"kind":"dropkit-cache","version":2,"checkedAtMs":1,"archives":[]}', /archives/],
    [
      "a bad entry",
      '{"kind":"dropkit-cache","version":3,"checkedAtMs":1,"archives":{"/d/a.zip":{"dev":1,"ino":2,"size":"1","mtimeMs":1,"ctimeMs":1,"sha256":"x"}}}',
      /"\/d\/a\.zip"/,
    ],
    [
      "a bad hash",
      `{"kind":"dropkit-cache","version":3,"checkedAtMs":1,"archives":{"/d/a.zip":${JSON.stringify(entry("a", { sha256: "Z".repeat(64) }))}}}`,
      /"\/d\/a\.zip"/,
    ],
    [
      "an entry without the file's identity",
      `{"kind":"dropkit-cache","version":3,"checkedAtMs":1,"archives":{"/d/a.zip":{"size":1,"mtimeMs":1,"sha256":"${sha("a")}"}}}`,
      /"\/d\/a\.zip"/,
    ],
    [
      "nested 200 deep",
      `{"kind":"dropkit-cache","version":2,"checkedAtMs":1,"archives":{"a.zip":${"[".repeat(200)}${"]".repeat(200)}}}`,
      /more than 128 levels/,
    ],
  ];
  for (const [what, text, pattern] of corrupt) {
    test(`a corrupt dropkit cache (${what}) is an empty cache with a warning, to be moved aside`, () => {
      const file = path.join(tempDir(), ".dropkit-cache.json");
      fs.writeFileSync(file, text);
      const cache = loadCache(file);
      assert.deepEqual(cache.entries, {});
      assert.equal(cache.found.kind, "corrupt");
      assert.match(cache.warning ?? "", pattern);
      assert.ok(cache.warning!.includes(file), "the warning names the file");
      assert.match(cache.warning!, /moved aside .* rebuilt/);
    });
  }

  test("a cache over the size limit is corrupt without being read whole", () => {
    const file = path.join(tempDir(), ".dropkit-cache.json");
    const big = Buffer.alloc(cacheFileLimits.bytes + 10, 0x20);
    Buffer.from('{"kind": "dropkit-cache", "version": 2, "archives": {"a').copy(big);
    fs.writeFileSync(file, big);
    const cache = loadCache(file);
    assert.equal(cache.found.kind, "corrupt");
    assert.match(cache.warning!, /64 MiB, more than the 64 MiB dropkit reads/);
  });

  test("a cache with dropkit's marker and another version is rebuilt, without a copy", () => {
    const file = path.join(tempDir(), ".dropkit-cache.json");
    fs.writeFileSync(file, '{"kind":"dropkit-cache","version":4,"whatever":[]}');
    const cache = loadCache(file);
    assert.equal(cache.found.kind, "other-version");
    assert.match(cache.warning!, /layout version 4/);
  });

  // Not a dropkit cache: never replaced, never moved.
  const foreign: Array<[string, string | Buffer, RegExp]> = [
    ["text", "my notes\n", /does not begin like one/],
    ["JSON of another tool", '{"name": "x", "version": "1.0.0"}', /JSON that is not a dropkit cache/],
    ["another tool's file with version 1", '{"version": 1, "name": "x", "archives": {}}', /JSON that is not a dropkit cache/],
    ["an array", "[1, 2]", /JSON that is not a dropkit cache/],
    ["a zip archive", Buffer.from("PK\u0003\u0004rest"), /a zip archive/],
    ["a dropkit state file", '{"schema": 1, "plan": {}}', /JSON that is not a dropkit cache/],
  ];
  for (const [what, content, pattern] of foreign) {
    test(`a file that is not a dropkit cache (${what}) is foreign`, () => {
      const file = path.join(tempDir(), "some.file");
      fs.writeFileSync(file, content);
      const cache = loadCache(file);
      assert.equal(cache.found.kind, "foreign");
      assert.match((cache.found as { what: string }).what, pattern);
      assert.equal(cache.warning, undefined);
    });
  }

  for (const [what, content] of foreign) {
    test(`the same content (${what}) at dropkit's own name, .dropkit-cache.json, is a corrupt cache: moved aside and rebuilt, with a warning`, () => {
      const file = path.join(tempDir(), ".dropkit-cache.json");
      fs.writeFileSync(file, content);
      const cache = loadCache(file);
      assert.equal(cache.found.kind, "corrupt");
      assert.match(cache.warning!, /is corrupt .*moved aside/s);
    });
  }

  test("names dropkit reads as something else are foreign even when missing: the state file, configs, package.json, archives", () => {
    const dir = tempDir();
    for (const name of [".dropkit.json", ".dropkit.json.legacy", "dropkit.config.json", "dropkit.config.ts", "package.json", "cache.ZIP"]) {
      const found = loadCache(path.join(dir, name)).found;
      assert.equal(found.kind, "foreign", name);
    }
  });

  test("a directory or a FIFO at the path is foreign, and a FIFO is never opened for reading", () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, ".dropkit-cache.json"));
    assert.deepEqual(loadCache(path.join(dir, ".dropkit-cache.json")).found, {
      kind: "foreign",
      what: "is a directory",
      stats: fs.lstatSync(path.join(dir, ".dropkit-cache.json")),
    });
    spawnSync("mkfifo", [path.join(dir, "fifo")]);
    const found = loadCache(path.join(dir, "fifo")).found;
    assert.equal(found.kind, "foreign");
    assert.match((found as { what: string }).what, /FIFO/);
  });

  test("a symbolic link is not followed: an empty cache and a warning that the link itself will be replaced", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "real.json"), JSON.stringify({ kind: "dropkit-cache", version: 2, checkedAtMs: 1, archives: {} }));
    fs.symlinkSync(path.join(dir, "real.json"), path.join(dir, "link.json"));
    const cache = loadCache(path.join(dir, "link.json"));
    assert.equal(cache.found.kind, "link");
    assert.match(cache.warning!, /symbolic link .* does not follow it/);
  });

  test("a __proto__ entry stays data and pollutes nothing", () => {
    const file = path.join(tempDir(), "c.json");
    fs.writeFileSync(
      file,
      JSON.stringify({
        kind: "dropkit-cache",
        version: 3,
        checkedAtMs: 5,
        archives: JSON.parse(`{"__proto__":${JSON.stringify(entry("x"))}}`),
      }),
    );
    const cache = loadCache(file);
    assert.equal(cache.warning, undefined);
    assert.deepEqual(Object.keys(cache.entries), ["__proto__"]);
    // A table without a prototype: `__proto__` is a key like any other.
    assert.equal(Object.getPrototypeOf(cache.entries), null);
    assert.equal(({} as { size?: unknown }).size, undefined);
  });
});

describe("fingerprintArchives", () => {
  test("the first run hashes every archive, with the file's identity (device, inode, size, mtime, ctime) and sha256", async () => {
    const dir = tempDir();
    archives(dir, { "a.zip": "alpha", "b b.zip": "bravo!" });
    const { result } = await run(dir, ["a.zip", "b b.zip"]);
    assert.deepEqual(result.hashed, ["a.zip", "b b.zip"]);
    assert.deepEqual(result.reused, []);
    const zip = { ok: false, problem: "not a zip archive (no end-of-central-directory record)" };
    const checkedAtMs = result.checkedAtMs;
    assert.deepEqual(result.fingerprints["a.zip"], { ...identity(path.join(dir, "a.zip")), checkedAtMs, sha256: sha("alpha"), zip });
    assert.equal(result.fingerprints["b b.zip"]!.sha256, sha("bravo!"));
    // Written under each archive's real path.
    assert.deepEqual(Object.keys(result.archives).sort(), [keyOf(dir, "a.zip"), keyOf(dir, "b b.zip")]);
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
    assert.deepEqual(Object.keys(loadCache(path.join(dir, ".dropkit-cache.json")).entries), [keyOf(dir, "a.zip"), keyOf(dir, "new.zip")]);
  });

  test("an archive modified just before the cached run is not trusted (racy timestamps)", async () => {
    const dir = tempDir();
    archives(dir, { "a.zip": "alpha" });
    const { result } = await run(dir, ["a.zip"]);
    const known = result.archives[keyOf(dir, "a.zip")]!;
    // As read by a run that started 1 s, then 5 s, after the archive's mtime: each entry says when it was read.
    const readAt = (checkedAtMs: number): Pick<FingerprintCache, "entries" | "checkedAtMs"> => ({
      entries: { [keyOf(dir, "a.zip")]: { ...known, checkedAtMs } },
      checkedAtMs,
    });
    assert.deepEqual((await fingerprintArchives(dir, ["a.zip"], readAt(known.mtimeMs + 1000))).hashed, ["a.zip"]);
    assert.deepEqual((await fingerprintArchives(dir, ["a.zip"], readAt(known.mtimeMs + 5000))).hashed, []);
  });

  test("a corrupt cache is rebuilt: everything hashed, then reused", async () => {
    const dir = tempDir();
    archives(dir, { "a.zip": "alpha" });
    fs.writeFileSync(path.join(dir, ".dropkit-cache.json"), '{"kind": "dropkit-cache", "vers');
    const first = await run(dir, ["a.zip"]);
    assert.match(first.cache.warning ?? "", /corrupt/);
    assert.deepEqual(first.result.hashed, ["a.zip"]);
    const aside = fs.readdirSync(dir).filter((n) => n.startsWith(".dropkit-cache.json.corrupt-"));
    assert.equal(aside.length, 1);
    assert.equal(fs.readFileSync(path.join(dir, aside[0]!), "utf8"), '{"kind": "dropkit-cache", "vers');
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
    assert.deepEqual(first.result.fingerprints["good.zip"]!.zip, { ok: true, entries: 1, verified: 1 });
    assert.equal(first.result.fingerprints["bad.zip"]!.zip?.ok, false);
    // Nothing changed: the cached run reads nothing and has the same verdicts.
    const second = await run(dir, ["bad.zip", "good.zip"]);
    assert.deepEqual([second.result.hashed, second.result.checked], [[], []]);
    assert.deepEqual(second.result.fingerprints, first.result.fingerprints);
    // Other bytes of the same size and mtime: the ctime says the file was written since, so both are read again.
    for (const name of ["good.zip", "bad.zip"]) {
      const file = path.join(dir, name);
      fs.writeFileSync(file, Buffer.alloc(fs.statSync(file).size, 0x20));
      fs.utimesSync(file, then, then);
    }
    const rewritten = await run(dir, ["bad.zip", "good.zip"]);
    assert.deepEqual(rewritten.result.hashed, ["bad.zip", "good.zip"]);
    assert.equal(rewritten.result.fingerprints["good.zip"]!.zip?.ok, false);
    // A cache from before the check (no verdicts): checked, not hashed, and the sha256 kept.
    fs.writeFileSync(path.join(dir, "good.zip"), makeZip({ "a.txt": "alpha" }));
    fs.utimesSync(path.join(dir, "good.zip"), then, then);
    await run(dir, ["bad.zip", "good.zip"]);
    const file = path.join(dir, ".dropkit-cache.json");
    const data = JSON.parse(fs.readFileSync(file, "utf8"));
    for (const entry of Object.values(data.archives) as Array<Record<string, unknown>>) delete entry.zip;
    data.archives[keyOf(dir, "good.zip")].sha256 = "0".repeat(64);
    fs.writeFileSync(file, JSON.stringify(data));
    const third = await run(dir, ["bad.zip", "good.zip"]);
    assert.deepEqual(
      [third.result.hashed, third.result.checked, third.result.reused],
      [[], ["bad.zip", "good.zip"], ["bad.zip", "good.zip"]],
    );
    assert.equal(third.result.fingerprints["good.zip"]!.sha256, "0".repeat(64));
    assert.deepEqual(third.result.fingerprints["good.zip"]!.zip, { ok: true, entries: 1, verified: 1 });
  });

  test("a sound verdict made before entry data was verified (an older cache) is made again, once, without hashing", async () => {
    const dir = tempDir();
    // The same size as the good archive, with data that does not match its CRC-32.
    const good = makeZip({ "a.txt": "alpha" });
    const bad = Buffer.from(good);
    bad[good.indexOf("alpha")] = 0x41;
    fs.writeFileSync(path.join(dir, "a.zip"), bad);
    const known = identity(path.join(dir, "a.zip"));
    const mtimeMs = known.mtimeMs;
    const cache = {
      entries: {
        [keyOf(dir, "a.zip")]: { ...known, checkedAtMs: mtimeMs + 10_000, sha256: "a".repeat(64), zip: { ok: true, entries: 1 } as never },
      },
      checkedAtMs: mtimeMs + 10_000,
    };
    const result = await fingerprintArchives(dir, ["a.zip"], cache);
    assert.deepEqual([result.hashed, result.checked], [[], ["a.zip"]]);
    assert.deepEqual(result.fingerprints["a.zip"]!.zip, {
      ok: false,
      problem: `corrupt: the data of "a.txt" does not match its CRC-32 (${crcHex("Alpha")}, the directory says ${crcHex("alpha")})`,
    });
    // With the new verdict cached, the next run reads nothing.
    const again = await fingerprintArchives(dir, ["a.zip"], { entries: result.archives, checkedAtMs: mtimeMs + 10_000 });
    assert.deepEqual([again.hashed, again.checked], [[], []]);
  });

  test("a verdict this version cannot read is replaced: the archive is checked again, not hashed", async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "a.zip"), makeZip({ "a.txt": "alpha" }));
    const known = { ...identity(path.join(dir, "a.zip")), checkedAtMs: Date.now() + 10_000 };
    const cache = {
      entries: { [keyOf(dir, "a.zip")]: { ...known, sha256: "a".repeat(64), zip: { ok: "maybe" } as never } },
      checkedAtMs: known.checkedAtMs,
    };
    const result = await fingerprintArchives(dir, ["a.zip"], cache);
    assert.deepEqual([result.hashed, result.checked], [[], ["a.zip"]]);
    assert.deepEqual(result.fingerprints["a.zip"], { ...known, sha256: "a".repeat(64), zip: { ok: true, entries: 1, verified: 1 } });
  });

  test("an archive that vanished is an IOError naming it", async () => {
    const dir = tempDir();
    await assert.rejects(
      fingerprintArchives(dir, ["gone.zip"], { entries: {}, checkedAtMs: 0 }),
      (e: DropkitError) =>
        e instanceof DropkitError && e.name === "IOError" && e.exitCode === 74 && e.message.includes(path.join(dir, "gone.zip")),
    );
  });
});

describe("saveCache", () => {
  test("writes the documented layout atomically, leaving no temporary file", async () => {
    const dir = tempDir();
    archives(dir, { "b.zip": "b", "a.zip": "a" });
    await run(dir, ["b.zip", "a.zip"]);
    const text = fs.readFileSync(path.join(dir, ".dropkit-cache.json"), "utf8");
    assert.ok(text.startsWith('{\n  "kind": "dropkit-cache",\n  "version": 3,\n'), text);
    const data = JSON.parse(text);
    assert.deepEqual(Object.keys(data), ["kind", "version", "checkedAtMs", "archives"]);
    assert.equal(typeof data.checkedAtMs, "number");
    assert.deepEqual(Object.keys(data.archives), [keyOf(dir, "a.zip"), keyOf(dir, "b.zip")]);
    assert.deepEqual(Object.keys(data.archives[keyOf(dir, "a.zip")]), [
      "dev",
      "ino",
      "size",
      "mtimeMs",
      "ctimeMs",
      "checkedAtMs",
      "sha256",
      "zip",
    ]);
    // One line an entry.
    assert.equal(text.split("\n").filter((line) => line.includes(".zip")).length, 2);
    assert.deepEqual(fs.readdirSync(dir).sort(), [".dropkit-cache.json", "a.zip", "b.zip"]);
  });

  test("further fields of an entry are kept across a run that reuses it (the layout other fields can join)", async () => {
    const dir = tempDir();
    archives(dir, { "a.zip": "alpha" });
    const known = { ...identity(path.join(dir, "a.zip")), checkedAtMs: Date.now() };
    const file = path.join(dir, ".dropkit-cache.json");
    fs.writeFileSync(
      file,
      JSON.stringify({
        kind: "dropkit-cache",
        version: 3,
        checkedAtMs: Date.now(),
        archives: { [keyOf(dir, "a.zip")]: { ...known, sha256: sha("alpha"), verdict: { zip: "ok" } } },
      }),
    );
    const { result } = await run(dir, ["a.zip"]);
    assert.deepEqual(result.reused, ["a.zip"]);
    // The zip check adds its own field (the file is not a zip), and keeps the others.
    const zip = { ok: false, problem: "not a zip archive (no end-of-central-directory record)" };
    assert.deepEqual(JSON.parse(fs.readFileSync(file, "utf8")).archives[keyOf(dir, "a.zip")], {
      ...known,
      sha256: sha("alpha"),
      verdict: { zip: "ok" },
      zip,
    });
  });

  for (const version of [1, 2]) {
    test(`a version-${version} cache is read without a warning, its entries are misses, and it is rewritten as version 3`, async () => {
      const dir = tempDir();
      archives(dir, { "a.zip": "alpha" });
      const mtimeMs = fs.statSync(path.join(dir, "a.zip")).mtimeMs;
      const file = path.join(dir, ".dropkit-cache.json");
      const archivesOf = { "a.zip": { size: 5, mtimeMs, sha256: sha("alpha") } };
      const old = version === 1 ? { version, checkedAtMs: Date.now() } : { kind: "dropkit-cache", version, checkedAtMs: Date.now() };
      fs.writeFileSync(file, JSON.stringify({ ...old, archives: archivesOf }, null, 2));
      const first = await run(dir, ["a.zip"]);
      assert.equal(first.cache.warning, undefined);
      assert.deepEqual([first.result.hashed, first.result.changed], [["a.zip"], true]);
      const data = JSON.parse(fs.readFileSync(file, "utf8"));
      assert.deepEqual([data.kind, data.version, Object.keys(data.archives)], ["dropkit-cache", 3, [keyOf(dir, "a.zip")]]);
      assert.deepEqual((await run(dir, ["a.zip"])).result.reused, ["a.zip"]);
    });
  }

  test("never replaces a file that is not a dropkit cache: IOError (74) naming cache.file, the file untouched", async () => {
    const dir = tempDir();
    const file = path.join(dir, "notes.txt");
    fs.writeFileSync(file, "mine\n");
    await assert.rejects(
      saveCache(file, { archives: {}, checkedAtMs: 0 }),
      (e: DropkitError) =>
        e instanceof DropkitError &&
        e.name === "IOError" &&
        e.diagnostics[0]!.path === "cache.file" &&
        /not a dropkit cache/.test(e.message),
    );
    assert.equal(fs.readFileSync(file, "utf8"), "mine\n");
    assert.deepEqual(fs.readdirSync(dir), ["notes.txt"]);
  });

  test("a symbolic link is replaced by a regular file, its target untouched", async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "target.json"), "outside\n");
    fs.symlinkSync(path.join(dir, "target.json"), path.join(dir, ".dropkit-cache.json"));
    await saveCache(path.join(dir, ".dropkit-cache.json"), { archives: {}, checkedAtMs: 0 });
    assert.ok(fs.lstatSync(path.join(dir, ".dropkit-cache.json")).isFile());
    assert.equal(fs.readFileSync(path.join(dir, "target.json"), "utf8"), "outside\n");
  });

  test("a cache that cannot be written is an IOError (74) with the path and the reason", async () => {
    const file = path.join(tempDir(), "missing-dir", ".dropkit-cache.json");
    await assert.rejects(
      saveCache(file, { archives: {}, checkedAtMs: 0 }),
      (e: DropkitError) =>
        e instanceof DropkitError && e.name === "IOError" && e.exitCode === 74 && e.message.includes(file) && /ENOENT/.test(e.message),
    );
  });

  test("a cache replaced by something that is not one during the run is refused at commit, the staged file left to discard", async () => {
    const dir = tempDir();
    const file = path.join(dir, "cache.json");
    const loaded = loadCache(file);
    const staged = await stageCache(file, { archives: {}, checkedAtMs: 0 });
    fs.writeFileSync(file, "written meanwhile by someone else\n");
    await assert.rejects(
      commitCache(staged, loaded, new Date()),
      (e: DropkitError) => e.name === "IOError" && /not a dropkit cache/.test(e.message),
    );
    await staged.discard();
    assert.equal(fs.readFileSync(file, "utf8"), "written meanwhile by someone else\n");
    assert.deepEqual(fs.readdirSync(dir), ["cache.json"]);
  });
});

describe("create and the cache file: dropkit never replaces a file it did not write", () => {
  const zip = { zip: { "readme.txt": "hello\n" } };
  const outside = fixture({ "notes.md": "# my notes\n" });
  const targets: Array<[string, (root: string) => string, string]> = [
    ["a file outside the drop", () => path.join(outside, "notes.md"), "not a dropkit cache"],
    ["the config file itself", (root) => path.join(root, "dropkit.config.json"), "named like a dropkit config file"],
    ["the state file", (root) => path.join(root, ".dropkit.json"), "named like dropkit's state file"],
    ["an archive of the drop", (root) => path.join(root, "blog.zip"), "named like a zip archive"],
    ["a file that is a zip archive by its content", (root) => path.join(root, "data.bin"), "is a zip archive"],
    ["package.json", (root) => path.join(root, "package.json"), "named like a package.json"],
  ];
  for (const [what, target, reason] of targets) {
    test(`cache.file naming ${what}: IOError (74) before anything is written, naming cache.file and where it was set, the file untouched`, () => {
      const root = fixture({
        "blog.zip": zip,
        "data.bin": { zip: { a: "a" } },
        ".dropkit.json": '{"schema": 1, "extra": {"mine": true}}\n',
        "package.json": '{"name": "drop"}\n',
        "init-scripts/mark": { text: "#!/bin/sh\ntouch init-ran\n", mode: 0o755 },
      });
      const file = target(root);
      fs.writeFileSync(path.join(root, "dropkit.config.json"), `{\n  "cache": {\n    "file": ${JSON.stringify(file)}\n  }\n}\n`);
      const before = new Map(
        fs.readdirSync(root).map((n) => [n, fs.statSync(path.join(root, n)).isFile() ? fs.readFileSync(path.join(root, n)) : null]),
      );
      const bytes = fs.readFileSync(file);
      const run = runCli(root, ["create", "--log-format=json"]);
      assert.equal(run.status, 74, run.stderr);
      const [error] = eventsOf(run, "error");
      assert.equal(error!.name, "IOError");
      assert.equal(error!.path, "cache.file");
      assert.equal(error!.source, `${path.join(root, "dropkit.config.json")}:3:13`);
      assert.ok(error!.message.includes(file));
      assert.match(error!.message, new RegExp(reason));
      assert.deepEqual(fs.readFileSync(file), bytes);
      assert.deepEqual(
        new Map(
          fs.readdirSync(root).map((n) => [n, fs.statSync(path.join(root, n)).isFile() ? fs.readFileSync(path.join(root, n)) : null]),
        ),
        before,
      );
    });
  }

  test("a variable naming the file: the error's source is the variable", () => {
    const root = fixture({ "blog.zip": zip, "notes.txt": "mine\n" });
    const run = runCli(root, ["create", "--log-format=json"], { DROPKIT_CACHE_FILE: "notes.txt" });
    assert.equal(run.status, 74, run.stderr);
    assert.equal(eventsOf(run, "error")[0]!.source, "DROPKIT_CACHE_FILE");
    assert.equal(fs.readFileSync(path.join(root, "notes.txt"), "utf8"), "mine\n");
  });

  test("a corrupt dropkit cache is moved aside byte for byte and rebuilt, with a warning", () => {
    const torn = '{\n  "kind": "dropkit-cache",\n  "version": 2,\n  "checkedAtMs": 17';
    const root = fixture({ "blog.zip": zip, ".dropkit-cache.json": torn });
    const run = runCli(root, ["create", "--log-format=json"]);
    assert.equal(run.status, 0, run.stderr);
    const record = eventsOf(run, "state").find((s) => s.action === "cache")!;
    assert.match(record.movedAside, /\.dropkit-cache\.json\.corrupt-/);
    assert.equal(fs.readFileSync(record.movedAside, "utf8"), torn);
    assert.match(
      eventsOf(run, "warning")
        .map((w) => w.message)
        .join("\n"),
      /cache .* is corrupt/,
    );
    assert.equal(JSON.parse(fs.readFileSync(path.join(root, ".dropkit-cache.json"), "utf8")).kind, "dropkit-cache");
  });

  test("a cache that is a symbolic link: the link is replaced by a regular file, its target untouched", () => {
    const root = fixture({ "blog.zip": zip, "shared.json": '{"kind": "dropkit-cache", "version": 2, "checkedAtMs": 1, "archives": {}}\n' });
    fs.symlinkSync("shared.json", path.join(root, ".dropkit-cache.json"));
    const run = runCli(root, ["create", "--log-format=json"]);
    assert.equal(run.status, 0, run.stderr);
    assert.ok(fs.lstatSync(path.join(root, ".dropkit-cache.json")).isFile());
    assert.equal(
      fs.readFileSync(path.join(root, "shared.json"), "utf8"),
      '{"kind": "dropkit-cache", "version": 2, "checkedAtMs": 1, "archives": {}}\n',
    );
  });

  const garbage: Array<[string, string | Buffer]> = [
    ["garbage text", "garbage\n"],
    ["another tool's JSON", '{"name": "x", "version": "1.0.0"}\n'],
    ["a zip archive", makeZip({ a: "a" })],
    ["binary bytes", Buffer.from([0, 1, 2, 255, 254])],
  ];
  for (const [what, content] of garbage) {
    test(`${what} in the default .dropkit-cache.json: moved aside with a warning and rebuilt, exit 0 every run`, () => {
      const root = fixture({ "blog.zip": zip });
      fs.writeFileSync(path.join(root, ".dropkit-cache.json"), content);
      const run = runCli(root, ["create", "--log-format=json"]);
      assert.equal(run.status, 0, run.stderr);
      assert.match(
        eventsOf(run, "warning")
          .map((w) => w.message)
          .join("\n"),
        /The cache .*\.dropkit-cache\.json is corrupt/,
      );
      const record = eventsOf(run, "state").find((s) => s.action === "cache")!;
      assert.deepEqual(fs.readFileSync(record.movedAside), Buffer.from(content));
      assert.equal(JSON.parse(fs.readFileSync(path.join(root, ".dropkit-cache.json"), "utf8")).kind, "dropkit-cache");
      const again = runCli(root, ["create", "--log-format=json"]);
      assert.equal(again.status, 0, again.stderr);
      assert.deepEqual(eventsOf(again, "warning"), []);
    });
  }

  test("garbage at a cache.file the user named (notes.txt) is still refused: 74, untouched", () => {
    const root = fixture({ "blog.zip": zip, "notes.txt": "garbage\n" });
    const run = runCli(root, ["create", "--log-format=json"], { DROPKIT_CACHE_FILE: "notes.txt" });
    assert.equal(run.status, 74, run.stderr);
    assert.deepEqual(fs.readdirSync(root).sort(), [".git", "blog.zip", "notes.txt"]);
  });

  test("cache.file naming a file this user cannot read (mode 000, the user's notes): 74, nothing renamed, the file untouched", {
    skip: permissions.skip,
  }, () => {
    const root = fixture({ "blog.zip": zip, "notes.txt": "my notes\n" });
    const notes = path.join(root, "notes.txt");
    fs.writeFileSync(path.join(root, "dropkit.config.json"), `{\n  "cache": {\n    "file": "./notes.txt"\n  }\n}\n`);
    openUp(root);
    // The drop is the runner's own (a folder anyone could write would make its config untrusted: src/files/trust.ts).
    if (asNobody) fs.chownSync(root, nobody, nobody);
    if (asNobody) fs.chownSync(notes, nobody, nobody);
    fs.chmodSync(notes, 0o000);
    const before = fs.statSync(notes);
    const run = permissions.run(root, ["create", "--log-format=json"]);
    assert.equal(run.status, 74, run.stderr);
    const [error] = eventsOf(run, "error");
    assert.equal(error!.path, "cache.file");
    assert.equal(error!.source, `${path.join(root, "dropkit.config.json")}:3:13`);
    assert.match(error!.message, /notes\.txt, which cannot be read \(EACCES\), so it cannot be shown to be a dropkit cache/);
    // The runner's HOME is the drop: .cache holds dropkit's own compiled code, nothing of the cache file.
    assert.deepEqual(
      fs
        .readdirSync(root)
        .filter((name) => name !== ".cache")
        .sort(),
      [".git", "blog.zip", "dropkit.config.json", "notes.txt"],
    );
    const after = fs.statSync(notes);
    assert.equal(after.ino, before.ino);
    assert.equal(after.mode & 0o777, 0);
    fs.chmodSync(notes, 0o600);
    assert.equal(fs.readFileSync(notes, "utf8"), "my notes\n");
  });

  test("cache.file: /proc/self/mem (a file that cannot be read, and not one to rename): 74, nothing moved aside", {
    skip: fs.existsSync("/proc/self/mem") ? false : "needs /proc",
  }, () => {
    const root = fixture({ "blog.zip": zip });
    const run = runCli(root, ["create", "--log-format=json"], { DROPKIT_CACHE_FILE: "/proc/self/mem" });
    assert.equal(run.status, 74, run.stderr);
    const [error] = eventsOf(run, "error");
    assert.equal(error!.source, "DROPKIT_CACHE_FILE");
    assert.match(error!.message, /\/proc\/self\/mem, which cannot be read \(EIO\)/);
    assert.doesNotMatch(run.stderr, /move the unusable cache aside|moved aside/);
    assert.deepEqual(fs.readdirSync(root).sort(), [".git", "blog.zip"]);
  });

  test("a cache of mode 000 recovers: moved aside whole (mode kept), rebuilt readable, reused by the next run", {
    skip: permissions.skip,
  }, () => {
    const root = fixture({ "blog.zip": zip });
    age(path.join(root, "blog.zip"));
    const cache = path.join(root, ".dropkit-cache.json");
    const old = JSON.stringify({ kind: "dropkit-cache", version: 2, checkedAtMs: 1, archives: {} });
    fs.writeFileSync(cache, old);
    openUp(root);
    fs.chmodSync(root, 0o777);
    if (asNobody) fs.chownSync(cache, nobody, nobody);
    fs.chmodSync(cache, 0o000);
    const first = permissions.run(root, ["create", "--log-format=json"]);
    assert.equal(first.status, 0, first.stderr);
    assert.match(
      eventsOf(first, "warning")
        .map((w) => w.message)
        .join("\n"),
      /Cannot read the cache .*EACCES/,
    );
    const aside = eventsOf(first, "state").find((s) => s.action === "cache")!.movedAside as string;
    assert.equal(fs.statSync(aside).mode & 0o777, 0o000);
    fs.chmodSync(aside, 0o600);
    assert.equal(fs.readFileSync(aside, "utf8"), old);
    assert.equal(fs.statSync(cache).mode & 0o600, 0o600);
    const second = permissions.run(root, ["create", "--log-format=json"]);
    assert.equal(second.status, 0, second.stderr);
    assert.deepEqual(eventsOf(second, "warning"), []);
    assert.deepEqual(eventsOf(second, "state").find((s) => s.action === "cache")!.reused, ["blog.zip"]);
  });
});

function crcHex(text: string): string {
  return zlib.crc32(text).toString(16).padStart(8, "0");
}

describe("fingerprintArchives: entries keyed by the archive's real path, shared by several drops", () => {
  test("another folder's entries are kept as they were; this folder's are replaced, and those no longer listed leave", async () => {
    const [a, b] = [tempDir(), tempDir()];
    archives(a, { "shop.zip": "alpha", "old.zip": "old" });
    archives(b, { "shop.zip": "bravo" });
    const inA = await fingerprintArchives(a, ["old.zip", "shop.zip"], { entries: {}, checkedAtMs: 0 });
    const inB = await fingerprintArchives(b, ["shop.zip"], { entries: inA.archives, checkedAtMs: inA.checkedAtMs });
    assert.deepEqual(Object.keys(inB.archives).sort(), [keyOf(a, "old.zip"), keyOf(a, "shop.zip"), keyOf(b, "shop.zip")].sort());
    assert.deepEqual(inB.archives[keyOf(a, "shop.zip")], inA.archives[keyOf(a, "shop.zip")]);
    // old.zip gone from a: its entry leaves with a's next run (the listing shows it gone), b's stays, nothing is read.
    const again = await fingerprintArchives(a, ["shop.zip"], { entries: inB.archives, checkedAtMs: inB.checkedAtMs });
    assert.deepEqual([again.hashed, again.reused, again.changed], [[], ["shop.zip"], true]);
    assert.deepEqual(Object.keys(again.archives).sort(), [keyOf(a, "shop.zip"), keyOf(b, "shop.zip")].sort());
    const still = await fingerprintArchives(a, ["shop.zip"], { entries: again.archives, checkedAtMs: again.checkedAtMs });
    assert.deepEqual([still.hashed, still.changed], [[], false]);
  });

  test("an entry of the same name, size and mtime in another folder is not this archive's", async () => {
    const [a, b] = [tempDir(), tempDir()];
    const then = hourAgo();
    archives(a, { "shop.zip": "alpha" }, then);
    archives(b, { "shop.zip": "ALPHA" }, then);
    const inA = await fingerprintArchives(a, ["shop.zip"], { entries: {}, checkedAtMs: 0 });
    // Even under b's key, a's entry names another inode.
    const entries = { ...inA.archives, [keyOf(b, "shop.zip")]: inA.archives[keyOf(a, "shop.zip")]! };
    const inB = await fingerprintArchives(b, ["shop.zip"], { entries, checkedAtMs: inA.checkedAtMs });
    assert.deepEqual(inB.hashed, ["shop.zip"]);
    assert.equal(inB.fingerprints["shop.zip"]!.sha256, sha("ALPHA"));
  });

  test("a link to an archive is keyed by its target's real path, so two drops linking one archive share its entry", async () => {
    const [store, a, b] = [tempDir(), tempDir(), tempDir()];
    archives(store, { "theme.zip": "theme" });
    for (const dir of [a, b]) fs.symlinkSync(path.join(store, "theme.zip"), path.join(dir, "ocean-theme.zip"));
    const inA = await fingerprintArchives(a, ["ocean-theme.zip"], { entries: {}, checkedAtMs: 0 });
    assert.deepEqual(Object.keys(inA.archives), [keyOf(store, "theme.zip")]);
    const inB = await fingerprintArchives(b, ["ocean-theme.zip"], { entries: inA.archives, checkedAtMs: inA.checkedAtMs });
    assert.deepEqual([inB.hashed, inB.reused], [[], ["ocean-theme.zip"]]);
  });

  test("an archive modified just before the run that read it is not trusted by a later run, whichever drop wrote the file since", async () => {
    const [dir, other] = [tempDir(), tempDir()];
    fs.writeFileSync(path.join(dir, "new.zip"), "fresh");
    archives(dir, { "old.zip": "old" });
    archives(other, { "b.zip": "bravo" });
    const first = await fingerprintArchives(dir, ["new.zip", "old.zip"], { entries: {}, checkedAtMs: 0 });
    // A run in another drop, later, rewrites the shared file: the entry keeps the time it was read at.
    const inOther = await fingerprintArchives(other, ["b.zip"], { entries: first.archives, checkedAtMs: Date.now() + 60_000 });
    assert.equal(inOther.archives[keyOf(dir, "new.zip")]!.checkedAtMs, first.checkedAtMs);
    const again = await fingerprintArchives(dir, ["new.zip", "old.zip"], { entries: inOther.archives, checkedAtMs: Date.now() + 60_000 });
    assert.deepEqual([again.hashed, again.reused], [["new.zip"], ["old.zip"]]);
  });

  test(`past ${cacheEntriesMax} entries, other folders' entries whose archive is gone leave; this folder's always stay`, async () => {
    const [dir, other] = [tempDir(), tempDir()];
    archives(dir, { "a.zip": "alpha" });
    archives(other, { "kept.zip": "kept" });
    const entries = Object.create(null) as Record<string, ReturnType<typeof entry>>;
    const gone = path.join(tempDir(), "gone");
    for (let i = 0; i < cacheEntriesMax; i++) entries[`${gone}/${i}.zip`] = entry("x");
    entries[keyOf(other, "kept.zip")] = { ...identity(path.join(other, "kept.zip")), checkedAtMs: Date.now(), sha256: sha("kept") };
    const result = await fingerprintArchives(dir, ["a.zip"], { entries, checkedAtMs: Date.now() });
    assert.equal(result.changed, true);
    assert.deepEqual(Object.keys(result.archives).sort(), [keyOf(dir, "a.zip"), keyOf(other, "kept.zip")].sort());
  });
});

describe("create: a cached verdict is reused only for the very file it judged", () => {
  const json = ["--log-format=json"];
  const good = makeZip({ "index.html": "<p>shop</p>\n" });
  /** The same size as `good`, with data that no longer matches its CRC-32. */
  const corrupt = Buffer.from(good);
  corrupt[corrupt.indexOf("shop")] = 0x53;
  // Whole seconds an hour ago, so that two files given it have the very same mtime, past the racy window.
  const then = new Date(Math.floor(Date.now() / 1000) * 1000 - 3_600_000);
  /** A drop holding shop.zip with these bytes and the shared mtime. */
  function drop(bytes: Buffer): string {
    const root = fixture({});
    fs.writeFileSync(path.join(root, "shop.zip"), bytes);
    fs.utimesSync(path.join(root, "shop.zip"), then, then);
    return root;
  }
  const cacheRecord = (run: ReturnType<typeof runCli>) => eventsOf(run, "state").find((s) => s.action === "cache")!;
  const archiveInvalid = (run: ReturnType<typeof runCli>, root: string): void => {
    assert.equal(run.status, 65, run.stderr);
    const errors = eventsOf(run, "error");
    assert.deepEqual(
      errors.map((e) => [e.name, e.source]),
      [["ArchiveInvalid", path.join(root, "shop.zip")]],
    );
    assert.match(errors[0]!.message, /does not match its CRC-32/);
  };

  test("two drops sharing one cache file (DROPKIT_CACHE_FILE): a corrupt b/shop.zip of a good a/shop.zip's name, size and mtime is read (65)", () => {
    const env = { DROPKIT_CACHE_FILE: path.join(tempDir(), "shared.json") };
    const [a, b] = [drop(good), drop(corrupt)];
    const [sa, sb] = [fs.statSync(path.join(a, "shop.zip")), fs.statSync(path.join(b, "shop.zip"))];
    assert.deepEqual([sa.size, sa.mtimeMs], [sb.size, sb.mtimeMs], "the two archives look alike by name, size and mtime");
    const first = runCli(a, ["create", ...json], env);
    assert.equal(first.status, 0, first.stderr);
    assert.deepEqual(cacheRecord(first).hashed, ["shop.zip"]);
    archiveInvalid(runCli(b, ["create", ...json], env), b);
    // The same as without the cache.
    archiveInvalid(runCli(b, ["create", ...json], { DROPKIT_CACHE_ENABLED: "false" }), b);
  });

  for (const [how, replace] of [
    ["cp -p over it (same inode, new ctime)", (from: string, to: string) => spawnSync("cp", ["-p", from, to]).status],
    [
      "cp -p beside it, then renamed over it (new inode)",
      (from: string, to: string) => spawnSync("sh", ["-c", 'cp -p "$1" "$2.new" && mv "$2.new" "$2"', "sh", from, to]).status,
    ],
  ] as const) {
    test(`an archive replaced by a same-size corrupt copy with its mtime, by ${how}, is read again (65)`, () => {
      const root = drop(good);
      const first = runCli(root, ["create", ...json]);
      assert.equal(first.status, 0, first.stderr);
      const copy = path.join(tempDir(), "shop.zip");
      fs.writeFileSync(copy, corrupt);
      fs.utimesSync(copy, then, then);
      const before = fs.statSync(path.join(root, "shop.zip"));
      assert.equal(replace(copy, path.join(root, "shop.zip")), 0);
      const after = fs.statSync(path.join(root, "shop.zip"));
      assert.deepEqual([after.size, after.mtimeMs], [before.size, before.mtimeMs]);
      archiveInvalid(runCli(root, ["create", ...json]), root);
    });
  }

  test("runs in a, then b, then a again: each keeps the other's entries, and the second run in a reuses its verdict without rewriting the cache", () => {
    const file = path.join(tempDir(), "shared.json");
    const env = { DROPKIT_CACHE_FILE: file };
    const [a, b] = [drop(good), drop(makeZip({ "index.html": "<p>blog</p>\n" }))];
    const runs = [a, b, a, b].map((root) => {
      const run = runCli(root, ["create", ...json], env);
      assert.equal(run.status, 0, run.stderr);
      return cacheRecord(run);
    });
    assert.deepEqual(
      runs.map((r) => [r.hashed, r.reused, r.written]),
      [
        [["shop.zip"], [], true],
        [["shop.zip"], [], true],
        [[], ["shop.zip"], false],
        [[], ["shop.zip"], false],
      ],
    );
    const data = JSON.parse(fs.readFileSync(file, "utf8"));
    assert.deepEqual(Object.keys(data.archives).sort(), [keyOf(a, "shop.zip"), keyOf(b, "shop.zip")].sort());
  });

  test("an older cache's entry by bare name is a miss: a corrupt archive of its name, size and mtime is read (65), no warning", () => {
    const root = drop(corrupt);
    const { size, mtimeMs } = fs.statSync(path.join(root, "shop.zip"));
    const sound = { ok: true, entries: 1, verified: 1 };
    const old = {
      kind: "dropkit-cache",
      version: 2,
      checkedAtMs: Date.now(),
      archives: { "shop.zip": { size, mtimeMs, sha256: sha("x"), zip: sound } },
    };
    fs.writeFileSync(path.join(root, ".dropkit-cache.json"), JSON.stringify(old));
    const run = runCli(root, ["create", ...json]);
    archiveInvalid(run, root);
    assert.deepEqual(eventsOf(run, "warning"), []);
  });
});
