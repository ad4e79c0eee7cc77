// Tests for src/config/loader.ts: JSON forms as text within the limits, presets, what the checks before and after evaluation refuse,
// and .ts files loaded natively (src/config/native.ts).

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import type { DropkitError } from "../../src/errors.js";
import { limits } from "../../src/files/limits.js";
import { canStripTypes } from "../../src/config/native.js";
import { cliRuntime, fixture, runCli } from "../helpers/cli.js";
import { load, loadError, loadPath, loadPreset, tree } from "../helpers/load.js";
import { tempDir } from "../helpers/temp.js";

describe("JSON forms are returned as raw text", () => {
  test("dropkit.config.json: text as is, never parsed", async () => {
    const text = '{\n  "theme": "ocean",\n  "theme": "dup",\n}\n';
    const loaded = await load("dropkit.config.json", text);
    assert.deepEqual(loaded, { format: "json", text });
  });

  test("package.json keeps its format", async () => {
    const root = tree({ "package.json": '{"dropkit":{}}' });
    assert.deepEqual(await loadPath(path.join(root, "package.json"), "package.json"), {
      format: "package.json",
      text: '{"dropkit":{}}',
    });
  });

  test("UTF-8 text with a byte-order mark: kept for the core, which skips one mark (an offset, not a column)", async () => {
    const root = tree({ "c.json": Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"theme":"océan"}')]) });
    assert.deepEqual(await loadPath(path.join(root, "c.json"), "json"), { format: "json", text: '\ufeff{"theme":"océan"}' });
  });

  test("bytes that are not UTF-8 are a ConfigSyntaxError", async () => {
    const root = tree({ "c.json": Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) });
    await assert.rejects(
      loadPath(path.join(root, "c.json"), "json"),
      (e: DropkitError) => e.name === "ConfigSyntaxError" && e.exitCode === 65 && /UTF-8/.test(e.message),
    );
  });

  test("a file that vanished is ConfigNotFound", async () => {
    const root = tree({});
    await assert.rejects(
      loadPath(path.join(root, "gone.json"), "json"),
      (e: DropkitError) => e.name === "ConfigNotFound" && e.exitCode === 66,
    );
    await assert.rejects(
      loadPath(path.join(root, "gone.ts"), "ts"),
      (e: DropkitError) => e.name === "ConfigNotFound" && /gone\.ts does not exist/.test(e.message),
    );
  });
});
describe("presets", () => {
  test("loadPresetFile reads .json as text and .ts/.js as values", async () => {
    const root = tree({
      "p.json": '{"theme":"j"}',
      "p.ts": "export default { theme: 't' as string };",
      "p.js": "module.exports = { theme: 'js' };",
    });
    assert.deepEqual(await loadPreset(path.join(root, "p.json")), { format: "json", text: '{"theme":"j"}' });
    assert.deepEqual(await loadPreset(path.join(root, "p.ts")), { format: "value", value: { theme: "t" } });
    assert.deepEqual(await loadPreset(path.join(root, "p.js")), { format: "value", value: { theme: "js" } });
  });

  test("a preset's errors say preset", async () => {
    const root = tree({ "p.ts": "export default 1;" });
    await assert.rejects(
      loadPreset(path.join(root, "p.ts")),
      (e: DropkitError) => e.name === "ConfigLoadError" && /preset file must export an object/.test(e.message),
    );
  });
});

describe("limits (src/files/limits.ts): sizes, depth, and values that fight back", () => {
  const mib = limits.fileBytes;

  test("a JSON config over 1 MiB is a ConfigLoadError naming the file, its size and the limit; 1 MiB exactly loads", async () => {
    const e = await loadError("dropkit.config.json", `{"x": "${"y".repeat(1_500_000 - 9)}"}`);
    assert.equal(e.name, "ConfigLoadError");
    assert.equal(e.exitCode, 65);
    assert.match(
      e.message,
      /dropkit\.config\.json is 1\.4 MiB \(1,500,000 bytes\), over the limit of 1 MiB \(1,048,576 bytes\) for a config file/,
    );
    const exact = " ".repeat(mib - 2) + "{}";
    assert.deepEqual(await load("dropkit.config.json", exact), { format: "json", text: exact });
  });

  test("a 100 MB file is refused from its size, without reading it", async () => {
    const root = tree({});
    const file = path.join(root, "dropkit.config.json");
    fs.writeFileSync(file, "");
    fs.truncateSync(file, 100 * 1024 * 1024);
    const started = performance.now();
    await assert.rejects(loadPath(file, "json"), /is 100 MiB \(104,857,600 bytes\), over the limit/);
    assert.ok(performance.now() - started < 2_000);
  });

  test("a .ts source over 1 MiB is refused before jiti compiles or runs it; a package.json says where the settings can go", async () => {
    const e = await loadError("dropkit.config.ts", `throw new Error("evaluated");\n${"//".repeat(mib)}\n`);
    assert.match(e.message, /is 2\.0 MiB \(2,097,183 bytes\), over the limit of 1 MiB/);
    assert.doesNotMatch(e.message, /evaluated/);
    const pkg = await loadError("package.json", JSON.stringify({ dropkit: {}, big: "x".repeat(mib) }));
    assert.match(pkg.message, /or move the dropkit key to a dropkit\.config\.json/);
    const root = tree({ "big.json": " ".repeat(mib + 10) });
    await assert.rejects(loadPreset(path.join(root, "big.json")), /The preset .*big\.json is .* for a preset file/);
  });

  test("the files of one resolve share a budget of 4 MiB; the file that passes it is named", async () => {
    const root = tree({ "a.json": "{}", "b.json": '{"theme": "t"}' });
    const budget = { used: 0 };
    await loadPath(path.join(root, "a.json"), "json", "config", budget);
    assert.equal(budget.used, 2);
    budget.used = limits.totalBytes - 5;
    await assert.rejects(
      loadPreset(path.join(root, "b.json"), budget),
      (e: DropkitError) =>
        e.name === "ConfigLoadError" && /together with .*b\.json, over the limit of 4 MiB \(4,194,304 bytes\)/.test(e.message),
    );
  });

  test("exported data over 1 MiB as JSON stops at once, a sparse new Array(1e9) included", async () => {
    const started = performance.now();
    const e = await loadError("dropkit.config.ts", "export default { exclude: new Array(1e9) };\n");
    assert.equal(e.name, "ConfigLoadError");
    assert.match(
      e.message,
      /The data exported by .*dropkit\.config\.ts is over 1 MiB \(1,048,576 bytes\) as JSON \(the walk stopped there\)/,
    );
    assert.ok(performance.now() - started < 10_000, `${Math.round(performance.now() - started)} ms`);
  });

  test("values that throw when looked at (Proxy traps, stack and message getters) are ConfigLoadErrors", async () => {
    const cases: Record<string, RegExp> = {
      "export default new Proxy({}, { ownKeys() { throw new Error('no keys'); } });": /exports a value that cannot be read: no keys/,
      "export default new Proxy({}, { getPrototypeOf() { throw new Error('no proto'); } });":
        /exports a value that cannot be read: no proto/,
      "const r = Proxy.revocable([], {}); r.revoke(); export default { exclude: r.proxy };":
        /exports a value that cannot be read: .*revoked/,
      "export default () => { throw new Proxy({}, { get() { throw 1; }, getPrototypeOf() { throw 1; } }); };":
        /threw when its exported function was called: a thrown value that cannot be shown/,
      "const e = new Error('kept'); Object.defineProperty(e, 'stack', { get() { throw 1; } }); throw e;": /could not be evaluated: kept/,
      "const e = new Error('x'); Object.defineProperty(e, 'message', { get() { throw 1; } }); throw e;":
        /could not be evaluated: a thrown value that cannot be shown/,
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
    assert.match(
      top.message,
      /could not be evaluated: it called process\.exit\(70\); a config or preset file exports its settings and must not end the process/,
    );
    // Placed at the call in the config, not in dropkit's stand-in for process.exit.
    assert.match(top.source, /dropkit\.config\.js:1:9$/);
    const inFunction = await loadError("dropkit.config.ts", "const n: number = 0;\nexport default async () => { process.exit(n); };\n");
    assert.match(inFunction.message, /threw when its exported function was called: it called process\.exit\(0\)/);
    assert.match(inFunction.source, /dropkit\.config\.ts:2:38$/);
    assert.equal(process.exit, exit);
  });
});

describe(".ts configs without jiti where Node strips types (src/config/native.ts), through the built CLI", {
  skip: !canStripTypes(nodeOnly()) && "this runtime does not strip types: jiti loads every .ts file",
}, () => {
  const config = 'const theme: string = "ocean";\nexport default { theme };\n';
  /** `config --json` with the debug records of how the file was loaded, and its own private cache home. */
  const run = (root: string, xdg: string, env: Record<string, string> = {}) =>
    runCli(root, ["config", "--json"], { XDG_CACHE_HOME: xdg, DROPKIT_DEBUG: "1", ...env });
  const stripCache = (xdg: string) => path.join(xdg, "dropkit", "ts");
  const themeOf = (r: { stdout: string }) => (JSON.parse(r.stdout) as { config: { theme: string } }).config.theme;

  test("the types are stripped once, saved by the text's hash (mode 0600), and a second run reads them without stripping or jiti", () => {
    const root = fixture({ "dropkit.config.ts": config });
    const xdg = privateHome();
    const first = run(root, xdg);
    assert.equal(first.status, 0, first.stderr);
    assert.equal(themeOf(first), "ocean");
    const entries = fs.readdirSync(stripCache(xdg));
    assert.equal(entries.length, 1, entries.join(", "));
    assert.match(entries[0]!, /^[0-9a-f]{16}\.js$/);
    const entry = path.join(stripCache(xdg), entries[0]!);
    // The debug record names the entry where it is (xdg is a real path), not by the descriptor path it was opened through.
    const said = (r: { stderr: string }, how: string) =>
      r.stderr.split("\n").includes(`dropkit: ${path.join(root, "dropkit.config.ts")}: types stripped${how} ${entry}`);
    assert.ok(said(first, ", saved to"), first.stderr);
    assert.doesNotMatch(first.stderr, /\/proc\/self\/fd/);
    assert.equal(fs.statSync(entry).mode & 0o777, 0o600);
    // The text it was stripped from, then the code: erased, not rewritten (the same length, every position kept).
    const text = fs.readFileSync(entry, "utf8");
    const head = `${config.length}\n${config}`;
    assert.ok(text.startsWith(head));
    assert.equal(text.length - head.length, config.length);
    assert.doesNotMatch(text.slice(head.length), /: string/);
    assert.equal(fs.existsSync(path.join(xdg, "dropkit", "jiti")), false);
    const old = new Date("2001-01-01T00:00:00Z");
    fs.utimesSync(entry, old, old);
    const second = run(root, xdg);
    assert.equal(themeOf(second), "ocean");
    assert.ok(said(second, " before, read from"), second.stderr);
    assert.doesNotMatch(second.stderr, /types stripped, saved|\/proc\/self\/fd/);
    assert.equal(fs.statSync(entry).mtime.getTime(), old.getTime());
  });

  test("an entry made from another text (two texts with one key) is never used: the file is stripped again", () => {
    const root = fixture({ "dropkit.config.ts": config });
    const xdg = privateHome();
    run(root, xdg);
    const [name] = fs.readdirSync(stripCache(xdg));
    const other = config.replace("ocean", "coral");
    fs.writeFileSync(path.join(stripCache(xdg), name!), `${other.length}\n${other}${other}`);
    const r = run(root, xdg);
    assert.equal(themeOf(r), "ocean");
    assert.match(r.stderr, /types stripped, saved to /);
  });

  test("a changed file is stripped again, under its new hash", () => {
    const root = fixture({ "dropkit.config.ts": config });
    const xdg = privateHome();
    run(root, xdg);
    fs.writeFileSync(path.join(root, "dropkit.config.ts"), config.replace("ocean", "coral"));
    const changed = run(root, xdg);
    assert.equal(themeOf(changed), "coral");
    assert.match(changed.stderr, /types stripped, saved to /);
    assert.equal(fs.readdirSync(stripCache(xdg)).length, 2);
  });

  test("an enum (which cannot be erased) falls back to jiti, with the same result", () => {
    const root = fixture({ "dropkit.config.ts": 'enum Theme { Ocean = "ocean" }\nexport default { theme: Theme.Ocean };\n' });
    const r = run(root, privateHome());
    assert.equal(r.status, 0, r.stderr);
    assert.equal(themeOf(r), "ocean");
    assert.match(r.stderr, /is compiled by jiti: .*ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX/);
  });

  test("a namespace, a parameter property and CommonJS names fall back to jiti too", () => {
    const sources = {
      namespace: 'namespace N { export const theme = "ocean"; }\nexport default { theme: N.theme };\n',
      parameter: 'class C { constructor(public theme: string) {} }\nexport default { theme: new C("ocean").theme };\n',
      commonjs: 'const theme: string = "ocean";\nmodule.exports = { theme };\n',
    };
    for (const [what, source] of Object.entries(sources)) {
      const r = run(fixture({ "dropkit.config.ts": source }), privateHome());
      assert.equal(r.status, 0, `${what}: ${r.stderr}`);
      assert.equal(themeOf(r), "ocean", what);
      assert.match(r.stderr, /is compiled by jiti: /, what);
    }
  });

  test("a throw, in the config or in a .ts file it imports, is at the same line:column on both paths", () => {
    const root = fixture({
      "dropkit.config.ts": 'import { pick } from "./lib/pick.ts";\nconst n: number = 1;\nexport default { theme: pick(n) };\n',
      "lib/pick.ts": 'export function pick(n: number): string {\n  if (n > 0) throw new Error("no theme");\n  return "x";\n}\n',
    });
    const json = (env: Record<string, string>) =>
      runCli(root, ["config", "--log-format=json"], { XDG_CACHE_HOME: privateHome(), DROPKIT_DEBUG: "1", ...env });
    const native = json({});
    const jiti = json({ __DROPKIT_TEST_TS_LOADER: "jiti" });
    assert.match(native.stderr, /types stripped, saved/);
    assert.doesNotMatch(jiti.stderr, /types stripped/);
    const error = (r: typeof native) =>
      r.stderr
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l))
        .find((r) => r.event === "error");
    for (const r of [native, jiti]) {
      assert.equal(r.status, 65);
      assert.equal(error(r).source, `${path.join(root, "lib/pick.ts")}:2:20`);
      assert.match(error(r).message, /dropkit\.config\.ts:3:25 could not be evaluated: no theme, thrown in .*pick\.ts:2:20$/);
    }
  });

  test('`import "dropkit"` loads the running dropkit natively, and a project\'s own install wins', () => {
    const source = 'import { defineConfig } from "dropkit";\nexport default defineConfig({ theme: "ocean" as string });\n';
    const running = run(fixture({ "dropkit.config.ts": source }), privateHome());
    assert.equal(themeOf(running), "ocean", running.stderr);
    assert.match(running.stderr, /types stripped/);
    const own = run(
      fixture({
        "dropkit.config.ts": source,
        "node_modules/dropkit/package.json": '{ "name": "dropkit", "version": "0.9.0", "type": "module", "exports": "./index.js" }',
        "node_modules/dropkit/index.js": 'export const defineConfig = (config) => ({ ...config, theme: "from-the-project" });\n',
      }),
      privateHome(),
    );
    assert.equal(themeOf(own), "from-the-project", own.stderr);
    assert.match(own.stderr, /types stripped/);
  });

  test("the strip cache is checked as jiti's is: a directory others may write is not used, and what was planted there never runs", () => {
    const root = fixture({ "dropkit.config.ts": config });
    const xdg = privateHome();
    run(root, xdg);
    const [name] = fs.readdirSync(stripCache(xdg));
    // The entry replaced by another user's code, in a directory made writable by others.
    fs.writeFileSync(path.join(stripCache(xdg), name!), 'export default { theme: "planted" };\n');
    fs.chmodSync(stripCache(xdg), 0o777);
    const r = run(root, xdg);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(themeOf(r), "ocean");
    assert.match(r.stderr, /stripped without a file cache: .*dropkit\/ts is writable by its group and others \(mode 777\)/);
    assert.match(r.stderr, /types stripped\n/);
  });
});

/** A private cache home (mode 0700, as src/files/privatedir.ts requires). */
function privateHome(): string {
  const dir = tempDir("dropkit-xdg-");
  fs.chmodSync(dir, 0o700);
  return dir;
}

/** The environment the CLI runs with: the tests' own runtime (Bun and Deno never strip types themselves). */
function nodeOnly(): NodeJS.ProcessEnv {
  return cliRuntime[0] === process.execPath ? process.env : { __DROPKIT_TEST_TS_LOADER: "jiti" };
}
