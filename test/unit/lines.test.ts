// No line of the project's source is over 160 characters, comments included: Biome wraps code but not comments or strings,
// and skips the modules of assembly/ it cannot parse.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { tempDir } from "../helpers/temp.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
/** The folders of source the project writes. */
const folders = ["src", "assembly", "scripts", "playground", "test", "bench"];
/** The longest line allowed, in characters (code points), not bytes. */
const maxLength = 160;
/** Source by its name's ending; data (JSON, such as the vendored JSONTestSuite and the golden vectors) and prose are not checked. */
const sourceFile = /\.(?:[cm]?[jt]s|tsx|html|css|c|h|sh)$/;
/** The folders' own READMEs in src/ and assembly/ are held to the rule too: the rule is for every line of those two folders. */
const checked = (file: string): boolean => sourceFile.test(file) || /^(?:src|assembly)\/(?:.+\/)?README\.md$/.test(file);

/** The files under `folders` of `dir`: git's tracked and untracked ones (ignored ones left out), or a walk where git cannot list them. */
function listFiles(dir: string): string[] {
  const git = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ...folders], {
    cwd: dir,
    encoding: "utf8",
  });
  if (git.status === 0) return git.stdout.split("\0").filter((f) => f !== "" && fs.existsSync(path.join(dir, f)));
  const found: string[] = [];
  const walk = (relative: string): void => {
    for (const entry of fs.readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const name = path.posix.join(relative, entry.name);
      if (entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "node_modules") walk(name);
      else if (entry.isFile()) found.push(name);
    }
  };
  for (const folder of folders) if (fs.existsSync(path.join(dir, folder))) walk(folder);
  return found;
}

/** Every line over `maxLength` characters in the source files of `dir`, as `file:line: length`. */
function longLines(dir: string, files: string[]): string[] {
  const long: string[] = [];
  for (const file of files.filter(checked)) {
    const lines = fs.readFileSync(path.join(dir, file), "utf8").split(/\r?\n/);
    lines.forEach((line, i) => {
      const length = [...line].length;
      if (length > maxLength) long.push(`${file}:${i + 1}: ${length} characters`);
    });
  }
  return long;
}

describe("line length", () => {
  test(`no line of src/, assembly/, scripts/, playground/, test/ or bench/ is over ${maxLength} characters`, () => {
    const files = listFiles(root);
    for (const folder of folders)
      assert.ok(
        files.some((f) => f.startsWith(`${folder}/`) && sourceFile.test(f)),
        `no source file found in ${folder}/`,
      );
    assert.deepEqual(longLines(root, files), [], "wrap these lines (comments too): at most 160 characters");
  });

  test("it counts characters, not bytes, skips data and prose but the READMEs of src/ and assembly/, and sees untracked files and no git", () => {
    const dir = tempDir("dropkit-lines-");
    fs.mkdirSync(path.join(dir, "assembly"));
    fs.mkdirSync(path.join(dir, "test/unit"), { recursive: true });
    fs.writeFileSync(path.join(dir, "assembly/ok.ts"), `// ${"×".repeat(maxLength - 3)}\n`);
    fs.writeFileSync(path.join(dir, "test/unit/long.test.ts"), `const a = 1;\r\n// ${"x".repeat(maxLength - 2)}\r\n`);
    fs.writeFileSync(path.join(dir, "test/unit/data.json"), `${"0".repeat(maxLength * 2)}\n`);
    fs.writeFileSync(path.join(dir, "test/unit/README.md"), `${"x".repeat(maxLength * 2)}\n`);
    fs.writeFileSync(path.join(dir, "assembly/README.md"), `# ${"x".repeat(maxLength - 1)}\n`);
    const expected = [`assembly/README.md:1: ${maxLength + 1} characters`, `test/unit/long.test.ts:2: ${maxLength + 1} characters`];
    // No repository: the folders are walked.
    assert.deepEqual(longLines(dir, listFiles(dir)), expected);
    // A repository where nothing is committed yet: git lists the files as untracked.
    assert.equal(spawnSync("git", ["init", "-q"], { cwd: dir }).status, 0);
    assert.deepEqual(listFiles(dir).sort(), [
      "assembly/README.md",
      "assembly/ok.ts",
      "test/unit/README.md",
      "test/unit/data.json",
      "test/unit/long.test.ts",
    ]);
    assert.deepEqual(longLines(dir, listFiles(dir)), expected);
  });
});
