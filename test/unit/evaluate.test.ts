// Tests for src/config/evaluate.ts: .ts and .js configs through jiti, what they export, and where a throw is placed.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { canStripTypes } from "../../src/config/native.js";
import { load, loadError, loadPath, tree } from "../helpers/load.js";

describe(".ts and .js through jiti", () => {
  test(".ts with a default object, type annotations and an import", async () => {
    const loaded = await load(
      "dropkit.config.ts",
      `
      import { helper } from "./helper";
      interface Config { theme: string; modules: { exclude: string[] } }
      const config: Config = { theme: helper("ocean"), modules: { exclude: ["old-*"] } };
      export default config;
    `,
      { "helper.ts": "export const helper = (s: string): string => s.toUpperCase();" },
    );
    assert.deepEqual(loaded, { format: "value", value: { theme: "OCEAN", modules: { exclude: ["old-*"] } } });
  });

  test(".ts with a sync function", async () => {
    const loaded = await load("dropkit.config.ts", "export default (): object => ({ theme: 'sync' });");
    assert.deepEqual(loaded, { format: "value", value: { theme: "sync" } });
  });

  test(".ts with an async function", async () => {
    const loaded = await load(
      "dropkit.config.ts",
      "export default async () => { await new Promise((r) => setTimeout(r, 5)); return { theme: 'async' }; };",
    );
    assert.deepEqual(loaded, { format: "value", value: { theme: "async" } });
  });

  test(".js as ESM (no package type)", async () => {
    assert.deepEqual(await load("dropkit.config.js", "export default { theme: 'esm' };"), { format: "value", value: { theme: "esm" } });
  });

  test('.js as ESM under "type": "module"', async () => {
    const loaded = await load("dropkit.config.js", "export default { theme: 'esm-module' };", { "package.json": '{"type":"module"}' });
    assert.deepEqual(loaded, { format: "value", value: { theme: "esm-module" } });
  });

  test(".mjs with a function", async () => {
    assert.deepEqual(await load("c.mjs", "export default function () { return { theme: 'mjs' }; }"), {
      format: "value",
      value: { theme: "mjs" },
    });
  });

  test(".cjs with module.exports", async () => {
    assert.deepEqual(await load("c.cjs", "module.exports = { theme: 'cjs' };"), { format: "value", value: { theme: "cjs" } });
  });

  test('.js as CJS under "type": "commonjs", with require()', async () => {
    const loaded = await load(
      "dropkit.config.js",
      "const path = require('node:path');\nmodule.exports = { theme: path.basename('/x/cjs-js') };",
      { "package.json": '{"type":"commonjs"}' },
    );
    assert.deepEqual(loaded, { format: "value", value: { theme: "cjs-js" } });
  });

  test("CJS exporting an async function", async () => {
    assert.deepEqual(await load("c.cjs", "module.exports = async () => ({ theme: 'cjs-async' });"), {
      format: "value",
      value: { theme: "cjs-async" },
    });
  });

  test("TypeScript compiled to CommonJS (exports.default with __esModule)", async () => {
    const text = 'Object.defineProperty(exports, "__esModule", { value: true });\nexports.default = { theme: "tsc" };';
    assert.deepEqual(await load("c.cjs", text), { format: "value", value: { theme: "tsc" } });
  });

  test("an edited config is re-read by the same process", async () => {
    const root = tree({ "c.ts": "export default { theme: 'one' };" });
    const file = path.join(root, "c.ts");
    assert.deepEqual(await loadPath(file, "ts"), { format: "value", value: { theme: "one" } });
    fs.writeFileSync(file, "export default { theme: 'two' };");
    assert.deepEqual(await loadPath(file, "ts"), { format: "value", value: { theme: "two" } });
  });

  test("no files are written next to the config", async () => {
    const root = tree({ "dropkit.config.ts": "export default { theme: 'clean' };", "dropkit.config.mjs": "export default {};" });
    await loadPath(path.join(root, "dropkit.config.ts"), "ts");
    await loadPath(path.join(root, "dropkit.config.mjs"), "js");
    assert.deepEqual(fs.readdirSync(root).sort(), ["dropkit.config.mjs", "dropkit.config.ts"]);
  });

  test("jiti is loaded only when a .ts/.js file is (a .ts file not at all where Node strips its types)", () => {
    const root = tree({ "c.json": "{}", "c.ts": "export default {};", "c.js": "export default {};" });
    const loader = new URL("../../src/config/loader.ts", import.meta.url).href;
    const judged = new URL("../../src/files/judged.ts", import.meta.url).href;
    const script = `
      import { createRequire } from "node:module";
      const { loadConfigFile } = await import(${JSON.stringify(loader)});
      const { openJudged } = await import(${JSON.stringify(judged)});
      const loadPath = (file, format) => loadConfigFile(openJudged(file, "config", null), format);
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes("/jiti/"));
      const before = loaded();
      await loadPath(${JSON.stringify(path.join(root, "c.json"))}, "json");
      const afterJson = loaded();
      await loadPath(${JSON.stringify(path.join(root, "c.ts"))}, "ts");
      const afterTs = loaded();
      await loadPath(${JSON.stringify(path.join(root, "c.js"))}, "js");
      console.log(JSON.stringify([before, afterJson, afterTs, loaded()]));
    `;
    // A fresh process with the tests' own loader of .ts files (test/loader/), which loads nothing else.
    const tsLoader = new URL("../loader/register.mjs", import.meta.url).href;
    const run = spawnSync(process.execPath, ["--import", tsLoader, "--input-type=module", "-e", script], {
      cwd: path.dirname(fileURLToPath(import.meta.url)),
      encoding: "utf8",
    });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), [false, false, !canStripTypes(), true]);
  });
});

describe("ConfigLoadError", () => {
  test("a config that throws: the original message and the file, with the line and column of the throw", async () => {
    const error = await loadError("dropkit.config.js", "const x = 1;\nthrow new Error('no theme configured');\nexport default {};");
    assert.equal(error.name, "ConfigLoadError");
    assert.equal(error.exitCode, 65);
    assert.match(error.message, /no theme configured/);
    assert.match(error.message, /dropkit\.config\.js:2:7 could not be evaluated/);
    assert.equal(error.diagnostics[0]!.file!.endsWith("dropkit.config.js"), true);
    // The `new Error(...)`, in the file as written (jiti's transform moved it): test/system/stack.test.ts has the other forms.
    assert.equal(error.diagnostics[0]!.line, 2);
    assert.equal(error.diagnostics[0]!.column, 7);
    assert.match(error.source, /dropkit\.config\.js:2:7$/);
  });

  test("loads at once, ending in another order than they started: each position right, node:vm and process.exit as they were", async () => {
    const vm = await import("node:vm");
    const [runInThisContext, exit] = [vm.runInThisContext, process.exit];
    const root = tree({
      "slow.ts":
        'const a: string = "x";\nexport default async (): Promise<object> => { await new Promise((r) => setTimeout(r, ' +
        "50)); const b: number = 1; throw new Error(a); };\n",
      "fast.ts": 'const theme: string = "ocean";\nexport default { theme };\n',
    });
    // The fast load starts first and ends first: neither may put back the other's patch, nor drop the code the slow one needs.
    const [fast, slow] = await Promise.allSettled([loadPath(path.join(root, "fast.ts"), "ts"), loadPath(path.join(root, "slow.ts"), "ts")]);
    assert.equal(fast.status, "fulfilled");
    assert.equal(slow.status, "rejected");
    assert.equal((slow as PromiseRejectedResult).reason.source, `${path.join(root, "slow.ts")}:2:119`);
    assert.equal(vm.runInThisContext, runInThisContext);
    assert.equal(process.exit, exit);
  });

  test("a function export that throws", async () => {
    const error = await loadError("c.ts", "export default async () => { throw new TypeError('bad env'); };");
    assert.equal(error.name, "ConfigLoadError");
    assert.match(error.message, /exported function.*bad env/);
  });

  test("a config importing a missing module: the module named, not our require stack", async () => {
    const error = await loadError("c.ts", "import { x } from './not-there';\nexport default { x };");
    assert.equal(error.name, "ConfigLoadError");
    assert.match(error.message, /not-there/);
    assert.doesNotMatch(error.message, /Require stack|loader/);
  });

  test("a non-Error thrown value", async () => {
    const error = await loadError("c.cjs", "throw 'just a string';");
    assert.equal(error.name, "ConfigLoadError");
    assert.match(error.message, /just a string/);
  });

  test("a TypeScript syntax error names the file and its 1-based line and column", async () => {
    const error = await loadError("c.ts", "export default {\n  theme: ,\n};");
    assert.equal(error.name, "ConfigLoadError");
    assert.match(error.message, /c\.ts:2:10 could not be evaluated: .*Unexpected token$/);
    assert.equal(error.diagnostics[0]!.line, 2);
    // The comma: Babel counts columns from 0, dropkit from 1.
    assert.equal(error.diagnostics[0]!.column, 10);
    assert.match(error.diagnostics[0]!.source!, /c\.ts:2:10$/);
  });

  test("a syntax error in the first column of a .js file is at column 1, never 0", async () => {
    const error = await loadError("c.js", "export default {\n};\n)");
    assert.equal(error.diagnostics[0]!.line, 3);
    assert.equal(error.diagnostics[0]!.column, 1);
  });

  const nonObjects: Array<[string, string, RegExp]> = [
    ["a number", "export default 42;", /the number 42, not an object/],
    ["a string", "export default 'ocean';", /the string "ocean"/],
    ["null", "export default null;", /is null/],
    ["undefined", "export default undefined;", /is undefined/],
    ["an array", "export default ['a'];", /an array/],
    ["a Map", "export default new Map();", /a Map/],
    ["a function returning a number", "export default () => 7;", /function exported by default.*the number 7/],
    ["an async function returning an array", "export default async () => [];", /function exported by default.*an array/],
    ["a promise", "export default Promise.resolve({});", /a Promise/],
  ];
  for (const [what, text, pattern] of nonObjects) {
    test(`an export that is ${what}`, async () => {
      const error = await loadError("c.ts", text);
      assert.equal(error.name, "ConfigLoadError");
      assert.equal(error.exitCode, 65);
      assert.match(error.message, pattern);
    });
  }

  test("module.exports = undefined", async () => {
    const error = await loadError("c.cjs", "module.exports = undefined;");
    assert.equal(error.name, "ConfigLoadError");
    assert.match(error.message, /is undefined/);
  });

  test("only named exports: no default export, with the names", async () => {
    const error = await loadError("c.ts", "export const theme = 'ocean';\nexport const modules = {};");
    assert.equal(error.name, "ConfigLoadError");
    assert.match(error.message, /no default export \(it has named exports: modules, theme\)/);
  });
});

describe("exported values are checked as plain JSON data", () => {
  test("a config file whose export holds bad values fails with every path", async () => {
    const error = await loadError(
      "c.ts",
      "export default { theme: undefined, modules: { include: ['a', () => 1] }, cache: { enabled: NaN } };",
    );
    assert.equal(error.name, "SchemaValidationError");
    assert.deepEqual(
      error.diagnostics.map((d) => d.path),
      ["theme", "modules.include[1]", "cache.enabled"],
    );
  });

  test("a .ts config with a computed __proto__ key does not pollute", async () => {
    const loaded = await load("c.ts", 'export default { ["__proto__"]: { polluted: "ts" }, theme: "x" };');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(loaded.format, "value");
    assert.equal(JSON.stringify((loaded as { value: unknown }).value), '{"__proto__":{"polluted":"ts"},"theme":"x"}');
  });
});
