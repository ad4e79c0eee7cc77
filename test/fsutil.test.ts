// Tests for src/fsutil.ts: atomic writes leave the whole new file or the whole old one, and no debris.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { createFileExclusive, stageFile, writeFileAtomic } from "../src/fsutil.js";
import { tempDir } from "./helpers/temp.js";


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

test("writing through a symbolic link replaces the target, not the link", async () => {
  const dir = tempDir();
  fs.mkdirSync(path.join(dir, "real"));
  fs.writeFileSync(path.join(dir, "real", "c.json"), "old");
  fs.symlinkSync(path.join(dir, "real", "c.json"), path.join(dir, "link.json"));
  await writeFileAtomic(path.join(dir, "link.json"), "new");
  assert.ok(fs.lstatSync(path.join(dir, "link.json")).isSymbolicLink());
  assert.equal(fs.readFileSync(path.join(dir, "real", "c.json"), "utf8"), "new");
  assert.deepEqual(fs.readdirSync(path.join(dir, "real")), ["c.json"]);
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

test("createFileExclusive creates a file once and never overwrites, even when racing", async () => {
  const dir = tempDir();
  const file = path.join(dir, "copy");
  const results = await Promise.all(Array.from({ length: 10 }, (_, i) => createFileExclusive(file, `writer ${i}`)));
  assert.equal(results.filter(Boolean).length, 1);
  const winner = results.indexOf(true);
  assert.equal(fs.readFileSync(file, "utf8"), `writer ${winner}`);
  assert.equal(await createFileExclusive(file, "later"), false);
  assert.equal(fs.readFileSync(file, "utf8"), `writer ${winner}`);
  assert.deepEqual(fs.readdirSync(dir), ["copy"]);
});
