// Tests for the check for a change in src/state/transaction.ts: a change another program made to the state file between this run's read and its replacement.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { changeSince, secondNameOf } from "../../src/state/transaction.js";
import type { DropkitError } from "../../src/errors.js";
import { readState } from "../../src/state/file.js";
import { tempDir } from "../helpers/temp.js";

test("changeSince: nothing for the very file with the same bytes; what changed otherwise", () => {
  const dir = tempDir();
  const file = path.join(dir, ".dropkit.json");
  assert.equal(changeSince(file, readState(file)), null);
  const missing = readState(file);
  fs.writeFileSync(file, '{"schema": 1}\n');
  assert.equal(changeSince(file, missing), "a file appeared there");
  const read = readState(file);
  assert.equal(changeSince(file, read), null);
  fs.writeFileSync(file, '{"schema": 1, "extra": {"x": 1}}\n');
  assert.equal(changeSince(file, read), "its content or identity changed");
  fs.unlinkSync(file);
  fs.symlinkSync("/elsewhere", file);
  const link = readState(file);
  assert.equal(changeSince(file, link), null);
  fs.unlinkSync(file);
  fs.symlinkSync("/other", file);
  assert.equal(changeSince(file, link), "the link was changed");
});

test("secondNameOf: a second name of the very file; a removed or replaced file is a StateConflict, and no name is left", async () => {
  const dir = tempDir();
  const file = path.join(dir, ".dropkit.json");
  fs.writeFileSync(file, '{"schema": 1}\n');
  const read = readState(file);
  assert.ok(read.kind !== "missing");
  const name = await secondNameOf(file, read);
  assert.equal(fs.statSync(name).ino, fs.statSync(file).ino);
  fs.unlinkSync(name);
  // Another program's file, renamed over it: same size, other bytes.
  fs.writeFileSync(path.join(dir, "other"), '{"schema": 2}\n');
  fs.renameSync(path.join(dir, "other"), file);
  await assert.rejects(
    secondNameOf(file, read),
    (e: DropkitError) => e.name === "StateConflict" && /it is not the file this run read/.test(e.message),
  );
  assert.deepEqual(fs.readdirSync(dir), [".dropkit.json"]);
  fs.unlinkSync(file);
  await assert.rejects(secondNameOf(file, read), (e: DropkitError) => e.name === "StateConflict" && /it was removed/.test(e.message));
});
