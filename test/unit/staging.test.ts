// Tests for src/files/staging.ts: atomic writes leave the whole new file or the whole old one, and no debris.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { createFileExclusive, linkOrCopy, stageFile, writeFileAtomic } from "../../src/files/staging.js";
import { tempDir } from "../helpers/temp.js";

test("writes a new file and leaves no temporary file", async () => {
  const dir = tempDir();
  await writeFileAtomic(path.join(dir, "state.json"), '{"a":1}\n');
  assert.equal(fs.readFileSync(path.join(dir, "state.json"), "utf8"), '{"a":1}\n');
  assert.deepEqual(fs.readdirSync(dir), ["state.json"]);
});

test("replaces an existing file, keeping its permissions", async () => {
  const dir = tempDir();
  const file = path.join(dir, "c.json");
  fs.writeFileSync(file, "old");
  fs.chmodSync(file, 0o600);
  await writeFileAtomic(file, Buffer.from("new"));
  assert.equal(fs.readFileSync(file, "utf8"), "new");
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  assert.deepEqual(fs.readdirSync(dir), ["c.json"]);
});

test("concurrent writers never tear the file and leave no temporary files", async () => {
  const dir = tempDir();
  const file = path.join(dir, "c.json");
  const payloads = Array.from({ length: 20 }, (_, i) => JSON.stringify({ writer: i, pad: "x".repeat(50_000) }));
  await Promise.all(payloads.map((p) => writeFileAtomic(file, p)));
  assert.ok(payloads.includes(fs.readFileSync(file, "utf8")));
  assert.deepEqual(fs.readdirSync(dir), ["c.json"]);
});

test("on failure the error is thrown, the temporary file removed, the old file kept", async () => {
  const dir = tempDir();
  // The target is a directory: the rename fails after the temporary file was written.
  fs.mkdirSync(path.join(dir, "target"));
  fs.writeFileSync(path.join(dir, "target", "keep"), "x");
  await assert.rejects(writeFileAtomic(path.join(dir, "target"), "data"), (e: NodeJS.ErrnoException) => typeof e.code === "string");
  assert.deepEqual(fs.readdirSync(dir), ["target"]);
  assert.deepEqual(fs.readdirSync(path.join(dir, "target")), ["keep"]);
});

test("a missing directory is an error, not a silent success", async () => {
  const dir = tempDir();
  await assert.rejects(writeFileAtomic(path.join(dir, "nope", "c.json"), "x"), (e: NodeJS.ErrnoException) => e.code === "ENOENT");
});

test("writing to a symbolic link replaces the link itself, never its target (as git does)", async () => {
  const dir = tempDir();
  fs.mkdirSync(path.join(dir, "real"));
  fs.writeFileSync(path.join(dir, "real", "c.json"), "old");
  fs.chmodSync(path.join(dir, "real", "c.json"), 0o600);
  fs.symlinkSync(path.join(dir, "real", "c.json"), path.join(dir, "link.json"));
  await writeFileAtomic(path.join(dir, "link.json"), "new");
  const stats = fs.lstatSync(path.join(dir, "link.json"));
  assert.ok(stats.isFile());
  assert.equal(fs.readFileSync(path.join(dir, "link.json"), "utf8"), "new");
  assert.equal(fs.readFileSync(path.join(dir, "real", "c.json"), "utf8"), "old");
  assert.deepEqual(fs.readdirSync(path.join(dir, "real")), ["c.json"]);
});

test("a replaced file keeps its permission bits plus owner read and write: 0640 stays, 000 becomes 0600, set-id bits go", async () => {
  const dir = tempDir();
  for (const [before, after] of [
    [0o640, 0o640],
    [0o000, 0o600],
    [0o444, 0o644],
    [0o4755, 0o755],
  ] as const) {
    const file = path.join(dir, `m${before.toString(8)}`);
    fs.writeFileSync(file, "old");
    fs.chmodSync(file, before);
    await writeFileAtomic(file, "new");
    assert.equal(fs.statSync(file).mode & 0o7777, after, before.toString(8));
  }
});

test("a new file is readable and writable by its owner even under umask 0777", async () => {
  const dir = tempDir();
  // The mask is the process's: this file's tests run one at a time, so it is 0777 for this write alone.
  const mask = process.umask(0o777);
  try {
    await writeFileAtomic(path.join(dir, "new.json"), "x");
  } finally {
    process.umask(mask);
  }
  assert.equal(fs.statSync(path.join(dir, "new.json")).mode & 0o777, 0o600);
});

test("createFileExclusive writes an independent file with the original's mode, never replaces anything, even when racing", async () => {
  const dir = tempDir();
  const source = path.join(dir, "legacy");
  fs.writeFileSync(source, "bytes");
  fs.chmodSync(source, 0o640);
  const like = fs.statSync(source);
  assert.equal(await createFileExclusive(path.join(dir, "copy"), "bytes", like), true);
  assert.equal(await createFileExclusive(path.join(dir, "streamed"), { copyOf: source }, like), true);
  for (const name of ["copy", "streamed"]) {
    const stats = fs.statSync(path.join(dir, name));
    assert.equal(stats.mode & 0o777, 0o640);
    assert.notEqual(stats.ino, like.ino);
    assert.equal(fs.readFileSync(path.join(dir, name), "utf8"), "bytes");
  }
  fs.writeFileSync(path.join(dir, "taken"), "other");
  assert.equal(await createFileExclusive(path.join(dir, "taken"), "bytes", like), false);
  assert.equal(fs.readFileSync(path.join(dir, "taken"), "utf8"), "other");
  const results = await Promise.all(
    Array.from({ length: 10 }, (_, i) => createFileExclusive(path.join(dir, "raced"), `writer ${i}`, like)),
  );
  assert.equal(results.filter(Boolean).length, 1);
  assert.equal(fs.readFileSync(path.join(dir, "raced"), "utf8"), `writer ${results.indexOf(true)}`);
  assert.deepEqual(
    fs.readdirSync(dir).filter((n) => n.endsWith(".tmp")),
    [],
  );
});

test("linkOrCopy gives a file a second name, the very same file, and never replaces anything", async () => {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, "a"), "x");
  await linkOrCopy(path.join(dir, "a"), path.join(dir, "b"));
  assert.equal(fs.statSync(path.join(dir, "b")).ino, fs.statSync(path.join(dir, "a")).ino);
  await assert.rejects(linkOrCopy(path.join(dir, "a"), path.join(dir, "b")), (e: NodeJS.ErrnoException) => e.code === "EEXIST");
});

test("stageFile writes the temporary file only; commit replaces the target, discard leaves it as it was", async () => {
  const dir = tempDir();
  const file = path.join(dir, "s.json");
  fs.writeFileSync(file, "old");
  const staged = await stageFile(file, "new");
  assert.equal(fs.readFileSync(staged.temp, "utf8"), "new");
  assert.equal(fs.readFileSync(file, "utf8"), "old");
  await staged.discard();
  assert.deepEqual(fs.readdirSync(dir), ["s.json"]);
  const again = await stageFile(file, "new");
  await again.commit();
  assert.equal(fs.readFileSync(file, "utf8"), "new");
  assert.deepEqual(fs.readdirSync(dir), ["s.json"]);
});

test("stageFile in a missing directory throws and leaves nothing", async () => {
  const dir = tempDir();
  await assert.rejects(stageFile(path.join(dir, "nope", "s.json"), "x"), (e: NodeJS.ErrnoException) => e.code === "ENOENT");
  assert.deepEqual(fs.readdirSync(dir), []);
});
