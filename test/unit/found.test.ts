// Tests for src/files/found.ts: what is at a path, read without following a link or blocking, and whether it is still the same file.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { readFound, sameFile } from "../../src/files/found.js";
import { tempDir } from "../helpers/temp.js";

test("readFound never follows a link, never blocks on a FIFO, and reads at most limit + 1 bytes", () => {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, "f"), "0123456789");
  fs.symlinkSync(path.join(dir, "f"), path.join(dir, "l"));
  spawnSync("mkfifo", [path.join(dir, "p")]);
  assert.equal(readFound(path.join(dir, "none"), 4).kind, "missing");
  const link = readFound(path.join(dir, "l"), 4);
  assert.ok(link.kind === "link" && link.target === path.join(dir, "f"));
  const fifo = readFound(path.join(dir, "p"), 4);
  assert.ok(fifo.kind === "other" && /FIFO/.test(fifo.what));
  const cut = readFound(path.join(dir, "f"), 4);
  assert.ok(cut.kind === "file" && !cut.complete && cut.bytes.toString() === "0123");
  const whole = readFound(path.join(dir, "f"), 10);
  assert.ok(whole.kind === "file" && whole.complete && whole.bytes.toString() === "0123456789");
});

test("readFound of a file that is longer than its size says (/proc): all of it, or the first limit bytes", () => {
  const status = readFound("/proc/self/status", 1 << 20);
  assert.ok(status.kind === "file" && status.complete && status.bytes.toString().includes("Pid:"));
  const cut = readFound("/proc/self/status", 8);
  assert.ok(cut.kind === "file" && !cut.complete && cut.bytes.length === 8);
});

test("sameFile: the same inode, size and modification time; any change is another file", () => {
  const dir = tempDir();
  const file = path.join(dir, "f");
  fs.writeFileSync(file, "one");
  const before = fs.lstatSync(file);
  assert.equal(sameFile(fs.lstatSync(file), before), true);
  fs.appendFileSync(file, "two");
  assert.equal(sameFile(fs.lstatSync(file), before), false);
  fs.writeFileSync(path.join(dir, "g"), "one");
  fs.renameSync(path.join(dir, "g"), file);
  assert.equal(sameFile(fs.lstatSync(file), before), false);
});
