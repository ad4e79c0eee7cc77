// Tests for src/config/detect.ts: auto-detect answered by a listing of the drop for top-level globs, by tinyglobby for deeper ones.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { detectPresets, isTopLevelGlob, listTopLevelFiles } from "../../src/config/detect.js";
import { FolderListing } from "../../src/files/listing.js";
import { tempDir } from "../helpers/temp.js";

test("isTopLevelGlob: one segment that both matchers read alike", () => {
  assert.deepEqual(["*.zip", "theme-*.zip", "a?.json"].map(isTopLevelGlob), [true, true, true]);
  assert.deepEqual(["**/*.zip", "dir/*.zip", ".hidden", "*.{zip,tar}", "!(a).zip", "@(a).zip", "a\\*.zip"].map(isTopLevelGlob), [
    false,
    false,
    false,
    false,
    false,
    false,
    false,
  ]);
});

test("listTopLevelFiles: the visible files and links to files, in code-unit order, from the run's listing when it has one", () => {
  const dir = tempDir();
  for (const name of ["b.zip", "B.zip", "a.zip", ".hidden.zip"]) fs.writeFileSync(path.join(dir, name), "");
  fs.mkdirSync(path.join(dir, "folder.zip"));
  fs.symlinkSync(path.join(dir, "a.zip"), path.join(dir, "link.zip"));
  fs.symlinkSync(path.join(dir, "folder.zip"), path.join(dir, "dirlink.zip"));
  assert.deepEqual(listTopLevelFiles(dir), ["B.zip", "a.zip", "b.zip", "link.zip"]);
  const listing = new FolderListing(dir);
  listing.read();
  fs.writeFileSync(path.join(dir, "late.zip"), "");
  assert.deepEqual(listTopLevelFiles(dir, listing), ["B.zip", "a.zip", "b.zip", "link.zip"]);
  assert.equal(listTopLevelFiles(path.join(dir, "missing")), null);
});

test("detectPresets: each candidate's first glob that matches, outside node_modules and .git; null when none does", async () => {
  const dir = tempDir();
  fs.mkdirSync(path.join(dir, "themes/ocean"), { recursive: true });
  fs.writeFileSync(path.join(dir, "themes/ocean/theme.json"), "{}");
  fs.mkdirSync(path.join(dir, "node_modules/x"), { recursive: true });
  fs.writeFileSync(path.join(dir, "node_modules/x/plugin.js"), "");
  const detected = await detectPresets(dir, [
    { id: "themes", name: "themes", globs: ["**/*.css", "themes/**/theme.json"] },
    { id: "plugins", name: "plugins", globs: ["**/plugin.js"] },
  ]);
  assert.deepEqual(detected, { themes: "themes/**/theme.json", plugins: null });
});
