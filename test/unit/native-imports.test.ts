// What a .ts config imports of dropkit once its types are erased, and the text Bun is served with dropkit's specifiers
// made the running package's files (src/config/native.ts).

import assert from "node:assert/strict";
import { test } from "node:test";
import { aliased, importsDropkitValue } from "../../src/config/native.ts";

test("a type-only import of dropkit is erased whole; a value import, a re-export or a bare import is not", () => {
  const cases: Array<[string, boolean]> = [
    ['import type { DropkitConfig } from "dropkit";', false],
    ["import type {DropkitConfig} from 'dropkit/core';", false],
    ['import { type DropkitConfig, type Env } from "dropkit";', false],
    ['import {\n  type A,\n  type B,\n} from "dropkit";', false],
    ['export type { DropkitConfig } from "dropkit";', false],
    ['import { defineConfig } from "dropkit-extra";', false],
    ['const x = "import from dropkit";', false],
    ['import { defineConfig } from "dropkit";', true],
    ['import { defineConfig, type DropkitConfig } from "dropkit";', true],
    ['import * as dk from "dropkit";', true],
    ['import dk, { type X } from "dropkit";', true],
    ['import "dropkit";', true],
    ['export { defineConfig } from "dropkit";', true],
    ['import type { A } from "dropkit";\nimport { defineConfig } from "dropkit";', true],
  ];
  for (const [source, expected] of cases) assert.equal(importsDropkitValue(source), expected, source);
});

test("Bun is served the running package's files for dropkit's specifiers, every line and column before them kept", () => {
  const alias = { dropkit: "/opt/dk/dist/index.js", "dropkit/core": "/opt/dk/dist/core/index.js" };
  const source =
    'import {\n  defineConfig,\n} from "dropkit";\nimport * as core from \'dropkit/core\';\nexport default defineConfig({ theme: "x" });\n';
  const served = aliased(source, alias)!;
  assert.equal(
    served,
    'import {\n  defineConfig,\n} from "/opt/dk/dist/index.js";\n' +
      "import * as core from '/opt/dk/dist/core/index.js';\n" +
      'export default defineConfig({ theme: "x" });\n',
  );
  const beforeQuotes = (text: string) => text.split("\n").map((line) => line.split(/["']/)[0]);
  assert.deepEqual(beforeQuotes(served), beforeQuotes(source));
  // What it cannot place is left to jiti: a statement after other code on its line, a subpath the package does not export.
  assert.equal(aliased('const a = 1; import { defineConfig } from "dropkit";\n', alias), undefined);
  assert.equal(aliased('import { x } from "dropkit/nothere";\n', alias), undefined);
});
