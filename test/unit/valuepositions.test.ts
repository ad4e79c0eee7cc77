// Tests for placing a .ts/.js config's problems where their keys are written (src/config/valuepositions.ts).

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { CoreDiagnostic } from "../../src/core/protocol.js";
import { blankCommentsAndStrings, pathSegments, placeValueErrors, positionOf } from "../../src/config/valuepositions.js";

const problem = (path: string, source = "/p/c.ts"): CoreDiagnostic => ({
  name: "SchemaValidationError",
  exitCode: 65,
  path,
  source,
  message: "m",
});
const place = (text: string, path: string) => placeValueErrors([problem(path)], new Map([["/p/c.ts", text]]))[0]!;

describe("placeValueErrors", () => {
  test("an unknown key, bare or quoted, at its name; the source becomes file:line:column", () => {
    const text = 'export default {\n  theme: "none",\n  modules: {\n    exlude: ["x"],\n  },\n};\n';
    const placed = place(text, "modules.exlude");
    assert.deepEqual([placed.line, placed.column, placed.source, placed.length], [4, 5, "/p/c.ts:4:5", 6]);
    const quoted = place("module.exports = {\n  \"modules\": { 'exlude': [] }\n};\n", "modules.exlude");
    assert.deepEqual([quoted.line, quoted.column], [2, 17]);
  });

  test("an array element by its index, nested values and strings with brackets skipped", () => {
    const text = 'export default {\n  modules: { only: ["a,]", [1, 2], { x: "]" }, 3] },\n};\n';
    assert.deepEqual([place(text, "modules.only[3]").line, place(text, "modules.only[3]").column], [2, 48]);
    assert.deepEqual([place(text, "modules.only[1]").column], [28]);
  });

  test("keys in comments and strings are not taken for the key", () => {
    const text = '// theme: "x"\nconst note = "theme: y";\n/* theme: z */\nexport default { theme: 5 };\n';
    assert.deepEqual([place(text, "theme").line, place(text, "theme").column], [4, 18]);
  });

  test("a path the text does not spell out (a computed key, a spread) keeps only its file", () => {
    const text = 'const k = "the" + "me";\nexport default { [k]: 5 };\n';
    assert.equal(place(text, "theme").line, undefined);
    assert.equal(place(text, "theme").source, "/p/c.ts");
    // Not a file of this run: left alone; a problem with a position already: left alone.
    const other = placeValueErrors([problem("theme", "/q/d.ts")], new Map([["/p/c.ts", "export default { theme: 5 };"]]))[0]!;
    assert.equal(other.source, "/q/d.ts");
  });

  test("lines end at LF, CRLF and a lone CR, as in the core; a byte-order mark is no column", () => {
    assert.deepEqual(positionOf("a\r\nb\rc\nd", 7), { line: 4, column: 1, offset: 7 });
    assert.deepEqual(positionOf("\ufeffab", 2), { line: 1, column: 2, offset: 2 });
  });

  test("path segments; blanking keeps the length and the newlines", () => {
    assert.deepEqual(pathSegments("modules.include[2]"), ["modules", "include", 2]);
    assert.deepEqual(pathSegments("a[0][1].b"), ["a", 0, 1, "b"]);
    const text = 'a // x\n"b:c" `d\ne` /* f */';
    const blanked = blankCommentsAndStrings(text);
    assert.equal(blanked.length, text.length);
    assert.equal(blanked, 'a     \n"   " ` \n `        ');
  });
});
