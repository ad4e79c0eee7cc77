// What a .ts config imports of dropkit once its types are erased, and the text Bun and Deno are given with its specifiers
// placed: dropkit's as the running package's files, on Deno every other one too; which imports keep it from loading
// natively (src/config/native.ts).

import assert from "node:assert/strict";
import nodeModule from "node:module";
import { test } from "node:test";
import { aliased, importsDropkitValue, nativeBlocker, placeSpecifiers } from "../../src/config/native.ts";

/**
 * Forms of an import or export of dropkit, and what a runtime must be given for them: nothing (erased whole before
 * anything is resolved, only `import type` and `export type`, or no import of dropkit), the running package's file in
 * place of the specifier, or jiti, for one not read as a statement that starts its line. `import { type A }` is kept:
 * Node's stripper keeps `import {} from`, and Deno resolves it. `statement`: code, not a comment or a string.
 */
type Form = { source: string; needs: "nothing" | "placed" | "unread"; statement: boolean };
const forms: Form[] = [
  ...[
    'import type { A } from "dropkit";',
    "import type {A} from 'dropkit/core';",
    'import type {\n  A,\n  B,\n} from "dropkit";',
    'import type D from "dropkit";',
    'import type * as N from "dropkit";',
    'export type { A } from "dropkit";',
    'export type * from "dropkit";',
    'import /* a comment */ type { A } from "dropkit";',
    'const a = 1; import type { A } from "dropkit";',
    'import { defineConfig } from "dropkit-extra";',
  ].map((source): Form => ({ source, needs: "nothing", statement: true })),
  ...[
    'import { type A } from "dropkit";',
    'import {type A, type B} from "dropkit";',
    'import {\n  type A,\n  type B,\n} from "dropkit";',
    'import { type A, B } from "dropkit";',
    'import D, { type A } from "dropkit";',
    'export { type A } from "dropkit";',
    'import { defineConfig } from "dropkit";',
    'import {\n  defineConfig, // the helper\n} from "dropkit";',
    'import { /* the helper */ defineConfig } from "dropkit";',
    'import * as dk from "dropkit";',
    'import "dropkit";',
    "import 'dropkit/core';",
    'export { defineConfig } from "dropkit";',
    'export * from "dropkit";',
    // Names that only look like the keyword: a default import named `type`, an import of an export named `type`.
    'import type from "dropkit";',
    'import { type as t } from "dropkit";',
    'import typeName from "dropkit";',
    'import type { A } from "dropkit";\nimport { defineConfig } from "dropkit";',
  ].map((source): Form => ({ source, needs: "placed", statement: true })),
  { source: 'const a = 1; import { defineConfig } from "dropkit";', needs: "unread", statement: true },
  // Text in a comment or a string: what reads as an erased statement needs nothing wherever it is; what reads as a
  // kept import cannot be placed, so jiti loads the file.
  ...[
    '// import type { A } from "dropkit"\nexport default {};',
    "const s = \"import type { A } from 'dropkit'\";",
    'const x = "import from dropkit";',
    'export const theme = "dropkit";',
  ].map((source): Form => ({ source, needs: "nothing", statement: false })),
  ...[
    '// import { defineConfig } from "dropkit"\nexport default {};',
    "const s = 'import { defineConfig } from \"dropkit\"';",
    '/* export { type A } from "dropkit" */',
  ].map((source): Form => ({ source, needs: "unread", statement: false })),
];

const isDropkit = (specifier: string) => /^dropkit(?:\/|$)/.test(specifier);
const alias = { dropkit: "/opt/dk/dist/index.js", "dropkit/core": "/opt/dk/dist/core/index.js" };

/** What Deno's use (`placeSpecifiers`, every specifier placed) makes of a form's dropkit specifiers. */
function denoReading(source: string): Form["needs"] {
  let placed = false;
  const result = placeSpecifiers(
    source,
    (specifier, typeOnly) => {
      placed ||= !typeOnly && isDropkit(specifier);
      return specifier;
    },
    true,
  );
  if ("unplaced" in result && isDropkit(result.unplaced)) return "unread";
  return placed ? "placed" : "nothing";
}

/** What Bun's use (`importsDropkitValue`, then `aliased` when it asks for the alias) makes of them. */
function bunReading(source: string): Form["needs"] {
  if (!importsDropkitValue(source)) return "nothing";
  const served = aliased(source, alias);
  if (served === undefined) return "unread";
  assert.ok(served.includes("/opt/dk/dist/") && !importsDropkitValue(served), served);
  return "placed";
}

test("Bun's and Deno's uses read each import and export of dropkit alike: erased whole only as `import type`/`export type`", () => {
  for (const { source, needs } of forms) assert.deepEqual([bunReading(source), denoReading(source)], [needs, needs], source);
});

test("an erased statement is given to Bun as written, needing no alias", () => {
  for (const { source, needs } of forms) if (needs === "nothing") assert.equal(aliased(source, alias), source, source);
  const source = 'import type { X } from "dropkit/nothere";\nimport { defineConfig } from "dropkit";\n';
  assert.equal(
    aliased(source, alias),
    'import type { X } from "dropkit/nothere";\nimport { defineConfig } from "/opt/dk/dist/index.js";\n',
  );
});

test("Node's type stripper erases exactly the statements read as erased, and keeps the specifier of every other", {
  skip: typeof (nodeModule as { stripTypeScriptTypes?: unknown }).stripTypeScriptTypes !== "function" && "no module.stripTypeScriptTypes",
}, () => {
  const strip = (nodeModule as unknown as { stripTypeScriptTypes(code: string, options: { mode: "strip" }): string }).stripTypeScriptTypes;
  const emitWarning = process.emitWarning;
  process.emitWarning = (() => undefined) as typeof process.emitWarning;
  try {
    for (const { source, needs, statement } of forms) {
      if (!statement) continue;
      assert.equal(/["']dropkit["'/]/.test(strip(source, { mode: "strip" })), needs !== "nothing", source);
      // What `nativeBlocker` lets through with a relative specifier without its extension is gone once stripped.
      const relative = relativeForm(source);
      if (relative !== undefined)
        assert.equal(/["']\.\/types["']/.test(strip(relative, { mode: "strip" })), nativeBlocker(relative) !== "", relative);
    }
  } finally {
    process.emitWarning = emitWarning;
  }
});

test("Bun is served the running package's files for dropkit's specifiers, every line and column before them kept", () => {
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

/** A form with its dropkit specifiers made `./types`, a relative one without its extension; undefined when it names none. */
function relativeForm(source: string): string | undefined {
  const relative = source.replace(/(["'])dropkit(?:\/core)?\1/g, "$1./types$1");
  return relative === source ? undefined : relative;
}

test("a relative import without its extension keeps a file from loading natively unless its statement is erased whole", () => {
  const erased = [
    'import type { Theme } from "./types";\nconst theme: Theme = "ocean";\nexport default { theme };\n',
    'export type { Theme } from "./types";\nexport default {};\n',
    'import type Data from "./data.json";\nexport default {};\n',
  ];
  for (const source of erased) assert.equal(nativeBlocker(source), "", source);
  const kept = [
    'import { type Theme } from "./types";\nexport default {};\n',
    'import type { Theme } from "./types";\nimport { helper } from "./lib/helper";\nexport default { theme: helper };\n',
    'import data from "./data.json";\nexport default data;\n',
    'import type from "./types";\nexport default { theme: type };\n',
  ];
  for (const source of kept) assert.notEqual(nativeBlocker(source), "", source);
  // The one reading of "erased" (`erasedWhole`): every form of the table, its specifier made relative, blocks exactly
  // when it is not erased whole (a kept statement, or one not read as a statement, which jiti then loads).
  for (const { source, needs } of forms) {
    const relative = relativeForm(source);
    if (relative !== undefined) assert.equal(nativeBlocker(relative) !== "", needs !== "nothing", relative);
  }
});
