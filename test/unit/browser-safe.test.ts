// src/core/ is browser-safe: its tsconfig has no Node types, so a Node import or global there fails to type-check.

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

describe("src/core/ without Node", () => {
  test("type-checks with no Node types (every module but node.ts, which reads the module from disk)", () => {
    const { status, output } = typeCheck(path.join(root, "src/core/tsconfig.json"));
    assert.equal(status, 0, output);
  });

  test("the check fails on a module of the folder that imports node:fs or reads process", () => {
    // A copy of the folder beside the real node_modules, with one module that uses Node.
    const copy = tempDir("dropkit-core-");
    fs.cpSync(path.join(root, "src/core"), path.join(copy, "src/core"), { recursive: true });
    fs.symlinkSync(path.join(root, "node_modules"), path.join(copy, "node_modules"));
    fs.writeFileSync(path.join(copy, "package.json"), '{ "type": "module" }');
    fs.appendFileSync(
      path.join(copy, "src/core/decisions.ts"),
      '\nimport { readFileSync } from "node:fs";\nexport const cwd = [readFileSync, process.cwd];\n',
    );
    const { status, output } = typeCheck(path.join(copy, "src/core/tsconfig.json"));
    assert.notEqual(status, 0);
    assert.match(output, /Cannot find module 'node:fs'/);
    assert.match(output, /Cannot find name 'process'/);
  });
});
