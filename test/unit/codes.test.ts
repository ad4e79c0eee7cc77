// The core's problem codes are declared once (its `Code` enum) and listed where hosts read them: the names it writes,
// src/core/protocol.ts's type and docs/errors.md. A code added or removed in one place and not the others fails here.

import assert from "node:assert/strict";
import fs from "node:fs";
import { test } from "node:test";
import { coreCodeNames, coreCodes, protocolCodes } from "../helpers/codes.js";

const docFile = new URL("../../docs/errors.md", import.meta.url);

/** The codes docs/errors.md's Codes table lists, in order. */
function documentedCodes(): string[] {
  const text = fs.readFileSync(docFile, "utf8");
  const section = text.split(/^## Codes$/m)[1]?.split(/^## /m)[0] ?? "";
  return [...section.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]!);
}

const difference = (a: string[], b: string[]) => a.filter((x) => !b.includes(x));

test("every code of the core has a doc comment, and the core writes each by its own name", () => {
  const codes = coreCodes();
  assert.ok(codes.length > 0, "no codes found in the core");
  for (const { code, doc } of codes) assert.ok(doc.length > 0, `the core's Code.${code} has no doc comment (docs/errors.md shows it)`);
  assert.deepEqual(
    coreCodeNames(),
    codes.map((c) => c.code),
    "the core's CODE_NAMES must list its Code enum's members, in the enum's order",
  );
});

test("docs/errors.md lists exactly the core's codes, in its order (npm run docs:errors writes them)", () => {
  const core = coreCodes().map((c) => c.code);
  const documented = documentedCodes();
  const missing = difference(core, documented);
  const extra = difference(documented, core);
  assert.deepEqual(missing, [], `docs/errors.md does not list the core's codes ${missing.join(", ")}: run npm run docs:errors`);
  assert.deepEqual(extra, [], `docs/errors.md lists codes the core no longer has (${extra.join(", ")}): run npm run docs:errors`);
  assert.deepEqual(documented, core, "docs/errors.md lists the codes out of the core's order: run npm run docs:errors");
});

test("src/core/protocol.ts types exactly the core's codes", () => {
  const core = coreCodes().map((c) => c.code);
  const typed = protocolCodes();
  assert.deepEqual(difference(core, typed), [], "codes of the core missing from ProblemCode (or WarningCode) in src/core/protocol.ts");
  assert.deepEqual(difference(typed, core), [], "codes in src/core/protocol.ts's ProblemCode or WarningCode that the core does not have");
});
