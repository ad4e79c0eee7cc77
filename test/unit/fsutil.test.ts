// Tests for src/files/fsutil.ts: error reasons without paths, flushing a directory, and the small checks shared by the modules that write files.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { errorReason, isFile, noHardLinks, syncDirectory, unlinkQuietly } from "../../src/files/fsutil.js";
import { tempDir } from "../helpers/temp.js";

test("errorReason: the code and Node's message, without the path Node appends", () => {
  const dir = tempDir();
  let error: unknown;
  try {
    fs.readFileSync(path.join(dir, "missing"));
  } catch (e) {
    error = e;
  }
  assert.equal(errorReason(error), "ENOENT: no such file or directory");
  assert.equal(errorReason(new Error("plain")), "plain");
  assert.equal(errorReason("text"), "text");
});

test("isFile follows links and never throws: a file, a link to one yes; a directory, a broken link, a missing path no", () => {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, "f"), "x");
  fs.symlinkSync(path.join(dir, "f"), path.join(dir, "link"));
  fs.symlinkSync(path.join(dir, "none"), path.join(dir, "broken"));
  assert.deepEqual(
    ["f", "link", ".", "broken", "none", "f/below"].map((n) => isFile(path.join(dir, n))),
    [true, true, false, false, false, false],
  );
});

test("syncDirectory flushes a directory without a warning; one that cannot be opened is skipped", () => {
  const dir = tempDir();
  assert.equal(syncDirectory(dir, path.join(dir, "f")), undefined);
  assert.equal(syncDirectory(path.join(dir, "missing"), "f"), undefined);
});

test("noHardLinks knows the codes of file systems without hard links; unlinkQuietly never throws", () => {
  assert.deepEqual(["EPERM", "EXDEV", "EMLINK", "EEXIST", "ENOENT", undefined].map(noHardLinks), [true, true, true, false, false, false]);
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, "f"), "x");
  unlinkQuietly(path.join(dir, "f"));
  unlinkQuietly(path.join(dir, "f"));
  assert.deepEqual(fs.readdirSync(dir), []);
});
