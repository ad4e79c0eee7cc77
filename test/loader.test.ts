// Tests for src/loader.ts: JSON forms as text within the limits, presets, and what the checks before and after evaluation refuse.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { DropkitError } from "../src/errors.js";
import { limits } from "../src/limits.js";
import { loadConfigFile, loadPresetFile } from "../src/loader.js";
import { load, loadError, tree } from "./helpers/load.js";

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

  test("exported data over 1 MiB as JSON stops at once, a sparse new Array(1e9) included", async () => {
    const started = performance.now();
    const e = await loadError("dropkit.config.ts", "export default { exclude: new Array(1e9) };\n");
    assert.equal(e.name, "ConfigLoadError");
    assert.match(e.message, /The data exported by .*dropkit\.config\.ts is over 1 MiB \(1,048,576 bytes\) as JSON \(the walk stopped there\)/);
    assert.ok(performance.now() - started < 10_000, `${Math.round(performance.now() - started)} ms`);
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
