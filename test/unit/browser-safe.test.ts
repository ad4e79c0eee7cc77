// src/core/ and src/editor/ are browser-safe: their tsconfigs have no Node types, so a Node import or global there fails to type-check.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { tempDir } from "../helpers/temp.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const tsc = path.join(root, "node_modules/typescript/bin/tsc");

function typeCheck(project: string): { status: number | null; output: string } {
  const r = spawnSync(process.execPath, [tsc, "-p", project], { encoding: "utf8" });
  return { status: r.status, output: r.stdout + r.stderr };
}

/** The type check of a copy of src/ (beside the real node_modules) whose `file` ends with `code`: what a folder's rule says to it. */
function typeCheckWith(folder: string, file: string, code: string): { status: number | null; output: string } {
  const copy = tempDir("dropkit-browser-safe-");
  fs.cpSync(path.join(root, "src"), path.join(copy, "src"), { recursive: true });
  fs.symlinkSync(path.join(root, "node_modules"), path.join(copy, "node_modules"));
  fs.writeFileSync(path.join(copy, "package.json"), '{ "type": "module" }');
  fs.appendFileSync(path.join(copy, folder, file), code);
  return typeCheck(path.join(copy, folder, "tsconfig.json"));
}

describe("src/core/ without Node", () => {
  test("type-checks with no Node types (every module but node.ts, which reads the module from disk)", () => {
    const { status, output } = typeCheck(path.join(root, "src/core/tsconfig.json"));
    assert.equal(status, 0, output);
  });

  test("the check fails on a module of the folder that imports node:fs or reads process", () => {
    const code = '\nimport { readFileSync } from "node:fs";\nexport const cwd = [readFileSync, process.cwd];\n';
    const { status, output } = typeCheckWith("src/core", "decisions.ts", code);
    assert.notEqual(status, 0);
    assert.match(output, /Cannot find module 'node:fs'/);
    assert.match(output, /Cannot find name 'process'/);
  });
});

describe("src/editor/ without Node or the DOM", () => {
  test("type-checks with no Node types and no DOM library: the playground and the language server both run it", () => {
    const { status, output } = typeCheck(path.join(root, "src/editor/tsconfig.json"));
    assert.equal(status, 0, output);
  });

  test("the check fails on a module of the folder that reads process or the document", () => {
    const { status, output } = typeCheckWith("src/editor", "hover.ts", "\nexport const host = [process.cwd, document.title];\n");
    assert.notEqual(status, 0);
    assert.match(output, /Cannot find name 'process'/);
    assert.match(output, /Cannot find name 'document'/);
  });
});
