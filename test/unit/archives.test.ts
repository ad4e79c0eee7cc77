// Tests for src/archives/scan.ts: which files are archives, and their order.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { scanArchives } from "../../src/archives/scan.js";
import { tempDir } from "../helpers/temp.js";

function tree(entries: string[]): string {
  const root = tempDir();
  for (const name of entries) {
    const full = path.join(root, name);
    if (name.endsWith("/")) fs.mkdirSync(full, { recursive: true });
    else {
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, "PK");
    }
  }
  return root;
}

test("lists the *.zip files directly in the directory, sorted by code unit", async () => {
  const root = tree(["shop.zip", "blog.zip", "Zeta.zip", "ocean-theme.zip", "readme.txt", "notes.zip.txt", "zip"]);
  assert.deepEqual(await scanArchives(root), ["Zeta.zip", "blog.zip", "ocean-theme.zip", "shop.zip"]);
});

test("matches .zip in any case", async () => {
  const root = tree(["A.ZIP", "b.Zip", "c.zip"]);
  assert.deepEqual(await scanArchives(root), ["A.ZIP", "b.Zip", "c.zip"]);
});

test("names with spaces, unicode and glob characters work", async () => {
  const names = ["my blog.zip", "océan-theme.zip", "日本語.zip", "[x]{y}(z)!.zip", "a*b.zip", "😀.zip"];
  const root = tree(names);
  assert.deepEqual(await scanArchives(root), [...names].sort());
});

test("ignores subdirectories, directories named *.zip, and hidden files", async () => {
  const root = tree(["top.zip", "sub/nested.zip", "dir.zip/inner.zip", ".hidden.zip"]);
  assert.deepEqual(await scanArchives(root), ["top.zip"]);
});

test("a symbolic link to a zip counts", async () => {
  const root = tree(["real/target.zip"]);
  fs.symlinkSync(path.join(root, "real/target.zip"), path.join(root, "linked.zip"));
  assert.deepEqual(await scanArchives(root), ["linked.zip"]);
});

test("a working directory inside a directory with glob characters", async () => {
  const root = tree(["a [b] *c/x.zip"]);
  assert.deepEqual(await scanArchives(path.join(root, "a [b] *c")), ["x.zip"]);
});

test("an empty directory has no archives", async () => {
  assert.deepEqual(await scanArchives(tree([])), []);
});

test("a dangling link, a link loop and a link to a directory are not archives: each left out with a warning", async () => {
  const root = tree(["real.zip", "dir/", "folder.zip/"]);
  fs.symlinkSync(path.join(root, "nowhere.zip"), path.join(root, "dangling.zip"));
  fs.symlinkSync(path.join(root, "loop.zip"), path.join(root, "loop.zip"));
  fs.symlinkSync(path.join(root, "dir"), path.join(root, "linked-dir.zip"));
  const warnings: string[] = [];
  assert.deepEqual(await scanArchives(root, (message) => warnings.push(message.replace(root + "/", ""))), ["real.zip"]);
  // Every *.zip entry that is no archive is answered, a real directory named *.zip too (issue 35: one rule for all).
  assert.deepEqual(warnings.sort(), [
    "dangling.zip is left out: it cannot be read (ENOENT).",
    "folder.zip is left out: it is a directory, not a regular file, so it is not an archive.",
    "linked-dir.zip is left out: it is a directory, not a regular file, so it is not an archive.",
    "loop.zip is left out: it cannot be read (ELOOP).",
  ]);
});

test("what is not a regular file once links are followed (a device, a FIFO) is left out with a warning, never read", async () => {
  const root = tree(["blog.zip"]);
  fs.symlinkSync("/dev/zero", path.join(root, "zero.zip"));
  fs.symlinkSync("/dev/null", path.join(root, "null-theme.zip"));
  const fifo = spawnSync("mkfifo", [path.join(root, "pipe.zip")]);
  assert.equal(fifo.status, 0);
  const warnings: Array<[string, string]> = [];
  assert.deepEqual(await scanArchives(root, (message, source) => warnings.push([message, source])), ["blog.zip"]);
  assert.deepEqual(warnings.map(([, source]) => path.basename(source)).sort(), ["null-theme.zip", "pipe.zip", "zero.zip"]);
  for (const [message, source] of warnings) {
    const what = source.endsWith("pipe.zip") ? "a FIFO" : "a device";
    assert.equal(message, `${source} is left out: it is ${what}, not a regular file, so it is not an archive.`);
  }
});

test("a name that is not valid UTF-8 is left out with a warning to rename it (no path string can reach it)", async () => {
  const root = tree(["blog.zip"]);
  fs.writeFileSync(Buffer.concat([Buffer.from(`${root}/`), Buffer.from([0x62, 0xff, 0x2e, 0x7a, 0x69, 0x70])]), "PK");
  const warnings: string[] = [];
  assert.deepEqual(await scanArchives(root, (message) => warnings.push(message)), ["blog.zip"]);
  assert.deepEqual(warnings, [
    `${path.join(root, "b\uFFFD.zip")} is left out: its name is not valid UTF-8, so it cannot be opened by name; rename it.`,
  ]);
});
