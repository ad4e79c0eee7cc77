// Tests for src/loader.ts: JSON forms as text, .ts/.js through jiti, and the plain-data check.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { DropkitError } from "../src/errors.js";
import { limits } from "../src/limits.js";
import { loadConfigFile, loadPresetFile, toJsonValue } from "../src/loader.js";

const roots: string[] = [];
after(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

/** Writes `files` into a fresh temp dir and returns the dir. */
function tree(files: Record<string, string | Buffer>): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dropkit-")));
  roots.push(root);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

/** Loads one file written into a fresh temp dir. */
async function load(name: string, text: string, extra: Record<string, string> = {}) {
  const root = tree({ [name]: text, ...extra });
  const format = name.endsWith(".json") ? "json" : /\.[mc]?ts$/.test(name) ? "ts" : "js";
  return loadConfigFile(path.join(root, name), format);
}

async function loadError(name: string, text: string, extra: Record<string, string> = {}): Promise<DropkitError> {
  try {
    await load(name, text, extra);
  } catch (error) {
    assert.ok(error instanceof DropkitError, `expected a DropkitError, got ${String(error)}`);
    return error;
  }
  assert.fail("expected the load to fail");
}

describe("JSON forms are returned as raw text", () => {
  test("dropkit.config.json: text as is, never parsed", async () => {
    const text = '{\n  "theme": "ocean",\n  "theme": "dup",\n}\n';
    const loaded = await load("dropkit.config.json", text);
    assert.deepEqual(loaded, { format: "json", text });
  });

  test("package.json keeps its format", async () => {
    const root = tree({ "package.json": '{"dropkit":{}}' });
    assert.deepEqual(await loadConfigFile(path.join(root, "package.json"), "package.json"), { format: "package.json", text: '{"dropkit":{}}' });
  });

  test("UTF-8 text with a byte-order mark: the mark is dropped, the rest kept", async () => {
    const root = tree({ "c.json": Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"theme":"océan"}')]) });
    assert.deepEqual(await loadConfigFile(path.join(root, "c.json"), "json"), { format: "json", text: '{"theme":"océan"}' });
  });

  test("bytes that are not UTF-8 are a ConfigSyntaxError", async () => {
    const root = tree({ "c.json": Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) });
    await assert.rejects(loadConfigFile(path.join(root, "c.json"), "json"), (e: DropkitError) => e.name === "ConfigSyntaxError" && e.exitCode === 65 && /UTF-8/.test(e.message));
  });

  test("a file that vanished is ConfigNotFound", async () => {
    const root = tree({});
    await assert.rejects(loadConfigFile(path.join(root, "gone.json"), "json"), (e: DropkitError) => e.name === "ConfigNotFound" && e.exitCode === 66);
    await assert.rejects(loadConfigFile(path.join(root, "gone.ts"), "ts"), (e: DropkitError) => e.name === "ConfigNotFound" && /does not exist/.test(e.message));
  });
});

describe(".ts and .js through jiti", () => {
  test(".ts with a default object, type annotations and an import", async () => {
    const loaded = await load("dropkit.config.ts", `
      import { helper } from "./helper";
      interface Config { theme: string; modules: { exclude: string[] } }
      const config: Config = { theme: helper("ocean"), modules: { exclude: ["old-*"] } };
      export default config;
    `, { "helper.ts": "export const helper = (s: string): string => s.toUpperCase();" });
    assert.deepEqual(loaded, { format: "value", value: { theme: "OCEAN", modules: { exclude: ["old-*"] } } });
  });

  test(".ts with a sync function", async () => {
    const loaded = await load("dropkit.config.ts", "export default (): object => ({ theme: 'sync' });");
    assert.deepEqual(loaded, { format: "value", value: { theme: "sync" } });
  });

  test(".ts with an async function", async () => {
    const loaded = await load("dropkit.config.ts", "export default async () => { await new Promise((r) => setTimeout(r, 5)); return { theme: 'async' }; };");
    assert.deepEqual(loaded, { format: "value", value: { theme: "async" } });
  });

  test(".js as ESM (no package type)", async () => {
    assert.deepEqual(await load("dropkit.config.js", "export default { theme: 'esm' };"), { format: "value", value: { theme: "esm" } });
  });

  test(".js as ESM under \"type\": \"module\"", async () => {
    const loaded = await load("dropkit.config.js", "export default { theme: 'esm-module' };", { "package.json": '{"type":"module"}' });
    assert.deepEqual(loaded, { format: "value", value: { theme: "esm-module" } });
  });

  test(".mjs with a function", async () => {
    assert.deepEqual(await load("c.mjs", "export default function () { return { theme: 'mjs' }; }"), { format: "value", value: { theme: "mjs" } });
  });

  test(".cjs with module.exports", async () => {
    assert.deepEqual(await load("c.cjs", "module.exports = { theme: 'cjs' };"), { format: "value", value: { theme: "cjs" } });
  });

  test(".js as CJS under \"type\": \"commonjs\", with require()", async () => {
    const loaded = await load("dropkit.config.js", "const path = require('node:path');\nmodule.exports = { theme: path.basename('/x/cjs-js') };", { "package.json": '{"type":"commonjs"}' });
    assert.deepEqual(loaded, { format: "value", value: { theme: "cjs-js" } });
  });

  test("CJS exporting an async function", async () => {
    assert.deepEqual(await load("c.cjs", "module.exports = async () => ({ theme: 'cjs-async' });"), { format: "value", value: { theme: "cjs-async" } });
  });

  test("TypeScript compiled to CommonJS (exports.default with __esModule)", async () => {
    const text = 'Object.defineProperty(exports, "__esModule", { value: true });\nexports.default = { theme: "tsc" };';
    assert.deepEqual(await load("c.cjs", text), { format: "value", value: { theme: "tsc" } });
  });

  test("an edited config is re-read by the same process", async () => {
    const root = tree({ "c.ts": "export default { theme: 'one' };" });
    const file = path.join(root, "c.ts");
    assert.deepEqual(await loadConfigFile(file, "ts"), { format: "value", value: { theme: "one" } });
    fs.writeFileSync(file, "export default { theme: 'two' };");
    assert.deepEqual(await loadConfigFile(file, "ts"), { format: "value", value: { theme: "two" } });
  });

  test("no files are written next to the config", async () => {
    const root = tree({ "dropkit.config.ts": "export default { theme: 'clean' };", "dropkit.config.mjs": "export default {};" });
    await loadConfigFile(path.join(root, "dropkit.config.ts"), "ts");
    await loadConfigFile(path.join(root, "dropkit.config.mjs"), "js");
    assert.deepEqual(fs.readdirSync(root).sort(), ["dropkit.config.mjs", "dropkit.config.ts"]);
  });

  test("jiti is loaded only when a .ts/.js file is", () => {
    const root = tree({ "c.json": "{}", "c.ts": "export default {};" });
    const loader = new URL("../src/loader.ts", import.meta.url).href;
    const script = `
      import { createRequire } from "node:module";
      const { loadConfigFile } = await import(${JSON.stringify(loader)});
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes("/jiti/"));
      const before = loaded();
      await loadConfigFile(${JSON.stringify(path.join(root, "c.json"))}, "json");
      const afterJson = loaded();
      await loadConfigFile(${JSON.stringify(path.join(root, "c.ts"))}, "ts");
      console.log(JSON.stringify([before, afterJson, loaded()]));
    `;
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: path.dirname(fileURLToPath(import.meta.url)),
      encoding: "utf8",
    });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), [false, false, true]);
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
    // The `new Error(...)`, in the file as written (jiti's transform moved it): test/stack.test.ts has the other forms.
    assert.equal(error.diagnostics[0]!.line, 2);
    assert.equal(error.diagnostics[0]!.column, 7);
    assert.match(error.source, /dropkit\.config\.js:2:7$/);
  });

  test("loads at once, ending in another order than they started: each position right, node:vm and process.exit as they were", async () => {
    const vm = await import("node:vm");
    const [runInThisContext, exit] = [vm.runInThisContext, process.exit];
    const root = tree({
      "slow.ts": 'const a: string = "x";\nexport default async (): Promise<object> => { await new Promise((r) => setTimeout(r, 50)); const b: number = 1; throw new Error(a); };\n',
      "fast.ts": 'const theme: string = "ocean";\nexport default { theme };\n',
    });
    // The fast load starts first and ends first: neither may put back the other's patch, nor drop the code the slow one needs.
    const [fast, slow] = await Promise.allSettled([loadConfigFile(path.join(root, "fast.ts"), "ts"), loadConfigFile(path.join(root, "slow.ts"), "ts")]);
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

describe("toJsonValue: only plain JSON data", () => {
  test("plain data is copied", () => {
    const value = { a: "s", b: 1.5, c: -0, d: true, e: null, f: [1, [2, { g: "h" }]], i: Object.assign(Object.create(null), { j: 1 }) };
    const out = toJsonValue(value, "/x.ts");
    assert.deepEqual(out, { a: "s", b: 1.5, c: -0, d: true, e: null, f: [1, [2, { g: "h" }]], i: { j: 1 } });
    assert.notEqual((out as { f: unknown }).f, value.f, "a copy, not the same array");
  });

  test("a shared (non-cyclic) reference is fine", () => {
    const shared = ["a"];
    assert.deepEqual(toJsonValue({ x: shared, y: { z: shared } }, "/x.ts"), { x: ["a"], y: { z: ["a"] } });
  });

  test("each non-JSON value kind is reported with its dotted path, all at once", () => {
    class Custom {}
    const sparse = ["a"];
    sparse[2] = "c";
    const value = {
      theme: () => "x",
      hooks: { onFailure: undefined },
      modules: { include: ["blog", "shop", Symbol("s"), NaN, Infinity, -Infinity, 10n] },
      when: new Date(0),
      map: new Map(),
      re: /x/,
      set: new Set(),
      custom: new Custom(),
      sparse,
      [Symbol("key")]: 1,
      fine: "ok",
    };
    let error: DropkitError | undefined;
    try {
      toJsonValue(value, "/abs/dropkit.config.ts");
    } catch (e) {
      error = e as DropkitError;
    }
    assert.ok(error instanceof DropkitError);
    assert.equal(error.name, "SchemaValidationError");
    assert.equal(error.exitCode, 65);
    const byPath = Object.fromEntries(error.diagnostics.map((d) => [d.path, d.message]));
    const expected: Record<string, RegExp> = {
      theme: /is a function/,
      "hooks.onFailure": /is undefined/,
      "modules.include[2]": /Symbol\(s\)/,
      "modules.include[3]": /NaN/,
      "modules.include[4]": /Infinity/,
      "modules.include[5]": /-Infinity/,
      "modules.include[6]": /bigint 10n/,
      when: /a Date/,
      map: /a Map/,
      re: /a RegExp/,
      set: /a Set/,
      custom: /a Custom/,
      "sparse[1]": /empty slot/,
      "[Symbol(key)]": /symbol key/,
    };
    assert.deepEqual(Object.keys(byPath).sort(), Object.keys(expected).sort());
    for (const [p, pattern] of Object.entries(expected)) {
      assert.match(byPath[p]!, pattern, p);
      assert.ok(byPath[p]!.startsWith(p), `message names the path: ${byPath[p]}`);
    }
    for (const d of error.diagnostics) {
      assert.equal(d.name, "SchemaValidationError");
      assert.equal(d.file, "/abs/dropkit.config.ts");
    }
  });

  test("a cycle is reported where it closes, naming its target", () => {
    const config: Record<string, unknown> = { modules: { include: ["a"] } };
    (config.modules as Record<string, unknown>).self = config.modules;
    (config.modules as { include: unknown[] }).include.push(config);
    let error: DropkitError | undefined;
    try {
      toJsonValue(config, "/x.ts");
    } catch (e) {
      error = e as DropkitError;
    }
    assert.ok(error);
    assert.deepEqual(error.diagnostics.map((d) => d.path), ["modules.include[1]", "modules.self"]);
    assert.match(error.diagnostics[0]!.message, /refers back to the top-level object/);
    assert.match(error.diagnostics[1]!.message, /refers back to modules: a cycle/);
  });

  test("a config file whose export holds bad values fails with every path", async () => {
    const error = await loadError("c.ts", "export default { theme: undefined, modules: { include: ['a', () => 1] }, cache: { enabled: NaN } };");
    assert.equal(error.name, "SchemaValidationError");
    assert.deepEqual(error.diagnostics.map((d) => d.path), ["theme", "modules.include[1]", "cache.enabled"]);
  });

  test("__proto__, constructor and prototype are copied as plain keys without polluting", () => {
    const evil = JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "prototype": 1, "a": {"__proto__": {"polluted": "deep"}}}');
    const out = toJsonValue(evil, "/x.ts") as Record<string, unknown>;
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.deepEqual(Object.keys(out), ["__proto__", "constructor", "prototype", "a"]);
    assert.equal(Object.getOwnPropertyDescriptor(out, "__proto__")!.value.polluted, "yes");
    assert.equal((out as { polluted?: unknown }).polluted, undefined);
    const a = out.a as object;
    assert.equal(Object.getPrototypeOf(a), Object.prototype);
    assert.deepEqual(Object.keys(a), ["__proto__"]);
    // Round-trips to the core with the key intact.
    assert.equal(JSON.stringify(out), JSON.stringify(evil));
  });

  test("a .ts config with a computed __proto__ key does not pollute", async () => {
    const loaded = await load("c.ts", 'export default { ["__proto__"]: { polluted: "ts" }, theme: "x" };');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(loaded.format, "value");
    assert.equal(JSON.stringify((loaded as { value: unknown }).value), '{"__proto__":{"polluted":"ts"},"theme":"x"}');
  });

  test("a getter that throws is reported, not a crash", () => {
    const value = { get theme(): string { throw new Error("no"); } };
    assert.throws(() => toJsonValue(value, "/x.ts"), (e: DropkitError) => e.diagnostics[0]!.path === "theme" && /threw: no/.test(e.message));
  });
});

describe("presets", () => {
  test("loadPresetFile reads .json as text and .ts/.js as values", async () => {
    const root = tree({ "p.json": '{"theme":"j"}', "p.ts": "export default { theme: 't' as string };", "p.js": "module.exports = { theme: 'js' };" });
    assert.deepEqual(await loadPresetFile(path.join(root, "p.json")), { format: "json", text: '{"theme":"j"}' });
    assert.deepEqual(await loadPresetFile(path.join(root, "p.ts")), { format: "value", value: { theme: "t" } });
    assert.deepEqual(await loadPresetFile(path.join(root, "p.js")), { format: "value", value: { theme: "js" } });
  });

  test("a preset's errors say preset", async () => {
    const root = tree({ "p.ts": "export default 1;" });
    await assert.rejects(loadPresetFile(path.join(root, "p.ts")), (e: DropkitError) => e.name === "ConfigLoadError" && /preset file must export an object/.test(e.message));
  });
});

describe("limits (src/limits.ts): sizes, depth, and values that fight back", () => {
  const mib = limits.fileBytes;

  test("a JSON config over 1 MiB is a ConfigLoadError naming the file, its size and the limit; 1 MiB exactly loads", async () => {
    const e = await loadError("dropkit.config.json", `{"x": "${"y".repeat(1_500_000 - 9)}"}`);
    assert.equal(e.name, "ConfigLoadError");
    assert.equal(e.exitCode, 65);
    assert.match(e.message, /dropkit\.config\.json is 1\.4 MiB \(1,500,000 bytes\), over the limit of 1 MiB \(1,048,576 bytes\) for a config file/);
    const exact = " ".repeat(mib - 2) + "{}";
    assert.deepEqual(await load("dropkit.config.json", exact), { format: "json", text: exact });
  });

  test("a 100 MB file is refused from its size, without reading it", async () => {
    const root = tree({});
    const file = path.join(root, "dropkit.config.json");
    fs.writeFileSync(file, "");
    fs.truncateSync(file, 100 * 1024 * 1024);
    const started = performance.now();
    await assert.rejects(loadConfigFile(file, "json"), /is 100 MiB \(104,857,600 bytes\), over the limit/);
    assert.ok(performance.now() - started < 2_000);
  });

  test("a .ts source over 1 MiB is refused before jiti compiles or runs it; a package.json says where the settings can go", async () => {
    const e = await loadError("dropkit.config.ts", `throw new Error("evaluated");\n${"//".repeat(mib)}\n`);
    assert.match(e.message, /is 2\.0 MiB \(2,097,183 bytes\), over the limit of 1 MiB/);
    assert.doesNotMatch(e.message, /evaluated/);
    const pkg = await loadError("package.json", JSON.stringify({ dropkit: {}, big: "x".repeat(mib) }));
    assert.match(pkg.message, /or move the dropkit key to a dropkit\.config\.json/);
    const root = tree({ "big.json": " ".repeat(mib + 10) });
    await assert.rejects(loadPresetFile(path.join(root, "big.json")), /The preset .*big\.json is .* for a preset file/);
  });

  test("the files of one resolve share a budget of 4 MiB; the file that passes it is named", async () => {
    const root = tree({ "a.json": "{}", "b.json": '{"theme": "t"}' });
    const budget = { used: 0 };
    await loadConfigFile(path.join(root, "a.json"), "json", "config", budget);
    assert.equal(budget.used, 2);
    budget.used = limits.totalBytes - 5;
    await assert.rejects(loadPresetFile(path.join(root, "b.json"), budget), (e: DropkitError) =>
      e.name === "ConfigLoadError" && /together with .*b\.json, over the limit of 4 MiB \(4,194,304 bytes\)/.test(e.message));
  });

  test("an export nested 10,000 deep is one error with its path at level 129, not a stack overflow; 128 levels pass", () => {
    const nest = (levels: number) => {
      let v: unknown = 1;
      for (let i = 0; i < levels; i++) v = { a: v };
      return v;
    };
    assert.doesNotThrow(() => toJsonValue(nest(limits.depth), "/x.ts"));
    for (const levels of [limits.depth + 1, 10_000]) {
      const e = assert.throws(() => toJsonValue(nest(levels), "/x.ts"), (error: DropkitError) => {
        assert.equal(error.diagnostics.length, 1);
        const [d] = error.diagnostics;
        assert.equal(d!.name, "SchemaValidationError");
        assert.equal(d!.path, Array(128).fill("a").join("."));
        assert.match(d!.message, /is nested deeper than 128 levels/);
        return true;
      });
      void e;
    }
  });

  test("exported data over 1 MiB as JSON stops at once, a sparse new Array(1e9) included", async () => {
    const started = performance.now();
    const e = await loadError("dropkit.config.ts", "export default { exclude: new Array(1e9) };\n");
    assert.equal(e.name, "ConfigLoadError");
    assert.match(e.message, /The data exported by .*dropkit\.config\.ts is over 1 MiB \(1,048,576 bytes\) as JSON \(the walk stopped there\)/);
    assert.ok(performance.now() - started < 10_000, `${Math.round(performance.now() - started)} ms`);
    assert.throws(() => toJsonValue({ exclude: ["x".repeat(mib)] }, "/x.ts"), /is over 1 MiB \(1,048,576 bytes\) as JSON/);
    // Non-ASCII text is larger in UTF-8 than the walk counts: the exact check after it gives the size.
    assert.throws(() => toJsonValue({ theme: "é".repeat(600_000) }, "/x.ts"), /is 1\.1 MiB \(1,200,012 bytes\) as JSON, over the limit of 1 MiB/);
  });

  test("past 100 bad values, one last problem counts the rest (as the core does)", () => {
    assert.throws(() => toJsonValue({ exclude: Array.from({ length: 300 }, () => () => 1) }, "/x.ts"), (e: DropkitError) => {
      assert.equal(e.diagnostics.length, 101);
      assert.equal(e.diagnostics[99]!.path, "exclude[99]");
      assert.equal(e.diagnostics[100]!.message, "200 more problems in /x.ts are not listed (only the first 100 of a file are): fix these and run again to see the rest.");
      return true;
    });
  });

  test("values that throw when looked at (Proxy traps, stack and message getters) are ConfigLoadErrors", async () => {
    const cases: Record<string, RegExp> = {
      "export default new Proxy({}, { ownKeys() { throw new Error('no keys'); } });": /exports a value that cannot be read: no keys/,
      "export default new Proxy({}, { getPrototypeOf() { throw new Error('no proto'); } });": /exports a value that cannot be read: no proto/,
      "const r = Proxy.revocable([], {}); r.revoke(); export default { exclude: r.proxy };": /exports a value that cannot be read: .*revoked/,
      "export default () => { throw new Proxy({}, { get() { throw 1; }, getPrototypeOf() { throw 1; } }); };": /threw when its exported function was called: a thrown value that cannot be shown/,
      "const e = new Error('kept'); Object.defineProperty(e, 'stack', { get() { throw 1; } }); throw e;": /could not be evaluated: kept/,
      "const e = new Error('x'); Object.defineProperty(e, 'message', { get() { throw 1; } }); throw e;": /could not be evaluated: a thrown value that cannot be shown/,
    };
    for (const [source, expected] of Object.entries(cases)) {
      const e = await loadError("dropkit.config.ts", source);
      assert.equal(e.name, "ConfigLoadError", source);
      assert.match(e.message, expected, source);
    }
  });

  test("a config that calls process.exit is a ConfigLoadError, and process.exit is itself again afterwards", async () => {
    const exit = process.exit;
    const top = await loadError("dropkit.config.js", "process.exit(70);\n");
    assert.match(top.message, /could not be evaluated: it called process\.exit\(70\); a config or preset file exports its settings and must not end the process/);
    // Placed at the call in the config, not in dropkit's stand-in for process.exit.
    assert.match(top.source, /dropkit\.config\.js:1:9$/);
    const inFunction = await loadError("dropkit.config.ts", "const n: number = 0;\nexport default async () => { process.exit(n); };\n");
    assert.match(inFunction.message, /threw when its exported function was called: it called process\.exit\(0\)/);
    assert.match(inFunction.source, /dropkit\.config\.ts:2:38$/);
    assert.equal(process.exit, exit);
  });
});
