// Tests for src/state/copies.ts: the rollback's putBack (the .legacy and .corrupt copies are tested through create in transaction.test.ts and state.test.ts).

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { putBack } from "../../src/state/copies.js";
import { tempDir } from "../helpers/temp.js";

const at = "2026-11-21T12:00:00.000Z";

test("putBack: the second name back over the committed file; with none, the committed file removed", () => {
  const dir = tempDir();
  const file = path.join(dir, ".dropkit.json");
  const second = path.join(dir, "second");
  fs.writeFileSync(second, "old");
  fs.writeFileSync(file, "new");
  assert.deepEqual(putBack(file, fs.lstatSync(file), second, at), { action: "restored" });
  assert.equal(fs.readFileSync(file, "utf8"), "old");
  assert.deepEqual(fs.readdirSync(dir), [".dropkit.json"]);
  assert.deepEqual(putBack(file, fs.lstatSync(file), null, at), { action: "removed" });
  assert.deepEqual(fs.readdirSync(dir), []);
});

test("putBack: a file another program put there since is left as it is, the previous state kept beside it", () => {
  const dir = tempDir();
  const file = path.join(dir, ".dropkit.json");
  const second = path.join(dir, "second");
  fs.writeFileSync(second, "old");
  fs.writeFileSync(file, "new");
  const committed = fs.lstatSync(file);
  fs.writeFileSync(path.join(dir, "theirs"), "theirs");
  fs.renameSync(path.join(dir, "theirs"), file);
  const { action, warning } = putBack(file, committed, second, at);
  assert.equal(action, null);
  assert.match(
    warning!,
    new RegExp(
      "was changed by another program after this run wrote it; it is left as it is, and the state from before this run " +
        String.raw`is kept as .*\.dropkit\.json\.previous-2026-11-21T12-00-00-000Z\.`,
    ),
  );
  assert.equal(fs.readFileSync(file, "utf8"), "theirs");
  assert.equal(fs.readFileSync(`${file}.previous-2026-11-21T12-00-00-000Z`, "utf8"), "old");
});
