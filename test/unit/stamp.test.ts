// `npm test` builds again only when an input of the build changed (scripts/build/stamp.mjs).

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { upToDate } from "../../scripts/build/stamp.mjs";

const stamp = path.join(import.meta.dirname, "../../scripts/build/stamp.mjs");

test("dist/ is up to date only for the inputs it was built from: a source, a new file or a missing output builds again", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "dropkit-stamp-"));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  const run = (flag: string) => spawnSync(process.execPath, [stamp, flag], { cwd: root, encoding: "utf8" }).status;
  // The script's --check exits 1 unless upToDate: after the first checks, the question is asked of upToDate itself.
  const check = () => (upToDate(root) ? 0 : 1);
  try {
    assert.equal(spawnSync("git", ["init", "-q"], { cwd: root }).status, 0);
    write(".gitignore", "dist/\nnode_modules/\n");
    write("src/a.ts", "export const a = 1;\n");
    write("test/a.test.ts", "// a test\n");
    for (const file of ["dist/dropkit.wasm", "dist/dropkit.cjs", "dist/playground/index.html"]) write(file, "built");
    assert.equal(run("--check"), 1, "no stamp yet");
    assert.equal(check(), 1);
    assert.equal(run("--write"), 0);
    assert.equal(run("--check"), 0);
    assert.equal(check(), 0);
    // Files no build reads, and ignored ones, change nothing.
    write("test/a.test.ts", "// another test\n");
    write("dist/other.js", "x");
    assert.equal(check(), 0);
    // Each change is undone before the next: the stamp holds again for the inputs it was written from.
    write("src/a.ts", "export const a = 2;\n");
    assert.equal(check(), 1, "a changed source");
    write("src/a.ts", "export const a = 1;\n");
    assert.equal(check(), 0);
    write("src/b.ts", "export const b = 1;\n");
    assert.equal(check(), 1, "a new source");
    fs.rmSync(path.join(root, "src/b.ts"));
    assert.equal(check(), 0);
    write("node_modules/.package-lock.json", "{}");
    assert.equal(check(), 1, "another install");
    fs.rmSync(path.join(root, "node_modules"), { recursive: true });
    assert.equal(check(), 0);
    fs.rmSync(path.join(root, "dist/dropkit.cjs"));
    assert.equal(check(), 1, "a missing output");
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
