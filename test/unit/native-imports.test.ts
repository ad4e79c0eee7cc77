// What a .ts config imports of dropkit once its types are erased, and the text Bun and Deno are given with its specifiers
// placed: dropkit's as the running package's files, on Deno every other one too (src/config/native.ts).

import assert from "node:assert/strict";
import { test } from "node:test";
import { aliased, importsDropkitValue, placeSpecifiers } from "../../src/config/native.ts";

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

test("Deno's data: URL gets every specifier placed: relative ones as file URLs, dropkit's as files, type-only ones left to be erased", () => {
  const base = "file:///p/dropkit.config.ts";
  const placed: Array<[string, boolean]> = [];
  const place = (specifier: string, typeOnly: boolean) => {
    placed.push([specifier, typeOnly]);
    if (typeOnly || specifier.startsWith("node:")) return specifier;
    if (/^\.{0,2}\//.test(specifier)) return new URL(specifier, base).href;
    return specifier === "dropkit" ? "file:///opt/dk/dist/index.js" : undefined;
  };
  const source =
    'import type { DropkitConfig } from "dropkit";\nimport { defineConfig } from "dropkit";\nimport {\n  helper,\n} from "./lib/helper.ts";\n' +
    "import fs from 'node:fs';\nexport * from \"../shared.ts\";\nimport typeName from './type.ts';\nexport default defineConfig({ theme: helper });\n";
  const result = placeSpecifiers(source, place, true);
  assert.ok("text" in result);
  assert.equal(
    result.text,
    'import type { DropkitConfig } from "dropkit";\nimport { defineConfig } from "file:///opt/dk/dist/index.js";\nimport {\n  helper,\n} ' +
      "from \"file:///p/lib/helper.ts\";\nimport fs from 'node:fs';\nexport * from \"file:///shared.ts\";\nimport typeName from 'file:///p/type.ts';\n" +
      "export default defineConfig({ theme: helper });\n",
  );
  // `import typeName from` is a default import whose name starts with "type", not a type-only import.
  assert.deepEqual(placed, [
    ["dropkit", true],
    ["dropkit", false],
    ["./lib/helper.ts", false],
    ["node:fs", false],
    ["../shared.ts", false],
    ["./type.ts", false],
  ]);
  const beforeQuotes = (text: string) => text.split("\n").map((line) => line.split(/["']/)[0]);
  assert.deepEqual(beforeQuotes(result.text), beforeQuotes(source));
});

test("what cannot be placed is named, so that jiti loads the file: another package, an import after code on its line", () => {
  const place = (specifier: string) => (specifier.startsWith("./") ? `file:///p/${specifier.slice(2)}` : undefined);
  assert.deepEqual(placeSpecifiers('import { z } from "zod";\nexport default {};\n', place, true), { unplaced: "zod" });
  // A statement the line-start form does not see: refused only when every specifier must be placed (Deno), not on Bun.
  const stray = 'const a = 1; import { b } from "./b.ts";\nexport default { a, b };\n';
  assert.deepEqual(placeSpecifiers(stray, place, true), { unplaced: "./b.ts" });
  assert.deepEqual(placeSpecifiers(stray, place), { text: stray });
  // A string that only looks like an import is no statement, and its text is kept.
  const text = 'export const theme = "./x.ts";\nexport default { theme };\n';
  assert.deepEqual(placeSpecifiers(text, place, true), { text });
});
