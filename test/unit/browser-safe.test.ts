// src/core/ and src/editor/ are browser-safe: their tsconfigs have no Node types, so a Node import or global there fails to type-check.

import assert from "node:assert/strict";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import type TypeScript from "typescript";

const root = fileURLToPath(new URL("../../", import.meta.url));
// Required, not imported: an import of this CommonJS module first has Node scan all its text for the names it exports.
const ts: typeof TypeScript = createRequire(import.meta.url)("typescript");

/** Parsed files shared by every check of this file, as an editor's language service shares them: only the checker runs again. */
const parsed = new Map<string, TypeScript.SourceFile>();

/**
 * What `tsc -p project` reports (the config's own problems, then its files', as tsc gathers them before it would emit); or, with
 * `code` appended in memory to the text of `file`, what the folder's rule says to a module that does that.
 */
function typeCheck(project: string, edit?: { file: string; code: string }): { status: number; output: string } {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(root, project), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, "\n")),
  });
  assert.ok(config);
  const host = ts.createCompilerHost(config.options);
  const edited = edit && path.join(root, edit.file);
  host.getSourceFile = (fileName, version) => {
    const options = typeof version === "object" ? version : { languageVersion: version };
    const text = ts.sys.readFile(fileName);
    if (text === undefined) return undefined;
    if (fileName === edited) return ts.createSourceFile(fileName, text + edit!.code, options);
    const key = `${fileName}\0${options.languageVersion}\0${options.impliedNodeFormat}`;
    const known = parsed.get(key);
    if (known?.text === text) return known;
    const file = ts.createSourceFile(fileName, text, options);
    parsed.set(key, file);
    return file;
  };
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    host,
    projectReferences: config.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(config),
  });
  // With an edit, the edited module's own problems are enough to fail the check: only it is checked.
  const file = edited === undefined ? undefined : program.getSourceFile(edited);
  if (edited) assert.ok(file && config.fileNames.includes(edited), `${edit!.file} is one of the project's files`);
  const diagnostics = ts.getPreEmitDiagnostics(program, file);
  return { status: diagnostics.length === 0 ? 0 : 1, output: ts.formatDiagnostics(diagnostics, host) };
}

describe("src/core/ without Node", () => {
  test("type-checks with no Node types (every module but node.ts, which reads the module from disk)", () => {
    const { status, output } = typeCheck("src/core/tsconfig.json");
    assert.equal(status, 0, output);
  });

  test("the check fails on a module of the folder that imports node:fs or reads process", () => {
    const code = '\nimport { readFileSync } from "node:fs";\nexport const cwd = [readFileSync, process.cwd];\n';
    const { status, output } = typeCheck("src/core/tsconfig.json", { file: "src/core/decisions.ts", code });
    assert.notEqual(status, 0);
    assert.match(output, /Cannot find module 'node:fs'/);
    assert.match(output, /Cannot find name 'process'/);
  });
});

describe("src/editor/ without Node or the DOM", () => {
  test("type-checks with no Node types and no DOM library: the playground and the language server both run it", () => {
    const { status, output } = typeCheck("src/editor/tsconfig.json");
    assert.equal(status, 0, output);
  });

  test("the check fails on a module of the folder that reads process or the document", () => {
    const code = "\nexport const host = [process.cwd, document.title];\n";
    const { status, output } = typeCheck("src/editor/tsconfig.json", { file: "src/editor/hover.ts", code });
    assert.notEqual(status, 0);
    assert.match(output, /Cannot find name 'process'/);
    assert.match(output, /Cannot find name 'document'/);
  });
});
