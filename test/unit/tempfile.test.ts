// Tests for src/files/tempfile.ts: unique temporary names, and the removal of the ones a killed run left behind.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { FolderListing } from "../../src/files/listing.js";
import { processAlive, removeStaleTempFiles, tempName } from "../../src/files/tempfile.js";
import { age, deadPid } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";

test("tempName: next to the target, hidden, with this process's id and 12 hex digits, never the same twice", () => {
  const dir = tempDir();
  const target = path.join(dir, ".dropkit.json");
  const names = Array.from({ length: 1000 }, () => tempName(target));
  assert.equal(new Set(names).size, names.length);
  for (const name of names) {
    assert.equal(path.dirname(name), dir);
    assert.match(path.basename(name), new RegExp(`^\\.\\.dropkit\\.json\\.${process.pid}\\.[0-9a-f]{12}\\.tmp$`));
  }
});

test("removeStaleTempFiles: only the temporary files of a process that is gone, a minute old; live, young and other files stay", () => {
  const dir = tempDir();
  const file = path.join(dir, ".dropkit.json");
  const dead = deadPid();
  const stale = path.join(dir, `..dropkit.json.${dead}.0123456789ab.tmp`);
  const young = path.join(dir, `..dropkit.json.${dead}.ba9876543210.tmp`);
  const live = tempName(file);
  const other = path.join(dir, `..dropkit.json.${dead}.notes.tmp`);
  for (const name of [stale, young, live, other]) fs.writeFileSync(name, "x");
  for (const name of [stale, live, other]) age(name, 120);
  assert.deepEqual(removeStaleTempFiles(file), [stale]);
  assert.deepEqual(fs.readdirSync(dir).sort(), [young, live, other].map((n) => path.basename(n)).sort());
});

test("removeStaleTempFiles uses a listing of the folder made earlier in the run; debris is older than any such listing", () => {
  const dir = tempDir();
  const file = path.join(dir, ".dropkit.json");
  const stale = path.join(dir, `..dropkit.json.${deadPid()}.0123456789ab.tmp`);
  fs.writeFileSync(stale, "x");
  age(stale, 120);
  const listing = new FolderListing(dir);
  listing.read();
  // Made after the listing: not debris of a killed run, and not seen.
  const later = path.join(dir, `..dropkit.json.${deadPid()}.aaaaaaaaaaaa.tmp`);
  fs.writeFileSync(later, "x");
  age(later, 120);
  assert.deepEqual(removeStaleTempFiles(file, listing), [stale]);
  assert.ok(fs.existsSync(later));
  // A listing of another folder is not used.
  assert.deepEqual(removeStaleTempFiles(file, new FolderListing(tempDir())), [later]);
});

test("processAlive: this process yes, a process that has exited no, nonsense ids no", () => {
  assert.equal(processAlive(process.pid), true);
  assert.equal(processAlive(deadPid()), false);
  for (const pid of [0, -1, 1.5, Number.NaN]) assert.equal(processAlive(pid), false);
});
