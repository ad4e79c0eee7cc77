// Tests for src/config/stack.ts through the built CLI: a .ts/.js config that throws is reported where it threw.
// That is the 1-based line and column of the throw in the file as written.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { canStripTypes } from "../../src/config/native.js";
import { plainError } from "../../src/config/stack.js";
import { cliPath, cliRuntime, eventsOf, fixture, runCli, type RunResult } from "../helpers/cli.js";
import { escapeRegExp } from "../helpers/regexp.js";
import { tempDir } from "../helpers/temp.js";

/**
 * Bun (JavaScriptCore) runs the CLI suite too (.ci/run), where positions are best-effort (docs/library.md): only the
 * outcome and the file are checked there. Deno is V8, and is held to the exact positions.
 */
const bun = path.basename(cliRuntime[0]!).startsWith("bun");

/** A private cache home (mode 0700, as the private cache directory requires) for one test's runs. */
function cacheHome(): string {
  const dir = tempDir("dropkit-xdg-");
  fs.chmodSync(dir, 0o700);
  return dir;
}

interface Case {
  what: string;
  files: Record<string, string>;
  /** Where the throw is: the file (relative to the root), 1-based line and column. */
  at: [string, number, number];
  /** The message: the config's position (`file:line:column`, relative) and the text after it. */
  message: RegExp;
}

const cases: Case[] = [
  {
    what: "a .ts config with type annotations before the throw on its line (babel shifts the columns)",
    files: {
      "dropkit.config.ts":
        "type Theme = { name: string; size: number };\nconst pick = (x: Theme): string => x.name;\nexport default { " +
        'theme: ((t: Theme): string => { throw new Error("boom") })({ name: "a", size: 1 }) };\n',
    },
    at: ["dropkit.config.ts", 3, 56],
    message: /^The config dropkit\.config\.ts:3:56 could not be evaluated: boom$/,
  },
  {
    what: "a .js ESM config throwing on line 1 (where jiti's wrapper comes first)",
    files: { "dropkit.config.js": 'export default { theme: (() => { throw new Error("boom") })() };\n' },
    at: ["dropkit.config.js", 1, 40],
    message: /^The config dropkit\.config\.js:1:40 could not be evaluated: boom$/,
  },
  {
    what: 'a .js ESM config in a "type": "module" package (imported natively first, then compiled by jiti)',
    files: {
      "package.json": '{ "type": "module" }\n',
      "dropkit.config.js": 'const a = 1;\nexport default { theme: (() => { throw new Error("boom") })() };\n',
    },
    at: ["dropkit.config.js", 2, 40],
    message: /^The config dropkit\.config\.js:2:40 could not be evaluated: boom$/,
  },
  {
    what: "a .js CommonJS config",
    files: { "dropkit.config.js": 'const x = 1;\nmodule.exports = { theme: (() => { throw new Error("boom") })() };\n' },
    at: ["dropkit.config.js", 2, 42],
    message: /^The config dropkit\.config\.js:2:42 could not be evaluated: boom$/,
  },
  {
    what: "a .ts function config that throws",
    files: {
      "dropkit.config.ts":
        'const n: number = 2;\nexport default (): { theme: string } => { const s: string = "x"; throw new Error("sync " + s); };\n',
    },
    at: ["dropkit.config.ts", 2, 72],
    message: /^The config dropkit\.config\.ts:2:72 threw when its exported function was called: sync x$/,
  },
  {
    what: "a .ts async function config that rejects after an await",
    files: {
      "dropkit.config.ts":
        'export default async (): Promise<{ theme: string }> => {\n  await 0;\n  const a: number = 1; throw new RangeError("late");\n};\n',
    },
    at: ["dropkit.config.ts", 3, 30],
    message: /^The config dropkit\.config\.ts:3:30 threw when its exported function was called: late$/,
  },
  {
    what: "a .js CommonJS function config (run as written: no compiling)",
    files: { "dropkit.config.js": 'const a = 1;\nmodule.exports = () => { throw new Error("fn"); };\n' },
    at: ["dropkit.config.js", 2, 32],
    message: /^The config dropkit\.config\.js:2:32 threw when its exported function was called: fn$/,
  },
  {
    what: "a TypeError from reading a property of undefined",
    files: {
      "dropkit.config.ts": "const env: Record<string, string | undefined> = {};\nexport default { theme: (env.THEME as any).trim() };\n",
    },
    at: ["dropkit.config.ts", 2, 44],
    message: /^The config dropkit\.config\.ts:2:44 could not be evaluated: Cannot read properties of undefined \(reading 'trim'\)$/,
  },
  {
    what: "an error thrown inside a library (node:fs): the config's call, at the called name",
    files: {
      "dropkit.config.ts":
        'import { readFileSync } from "node:fs";\nconst p: string = "/nonexistent/theme.txt";\nexport default { theme: readFileSync(p, "utf8") };\n',
    },
    at: ["dropkit.config.ts", 3, 25],
    message: /^The config dropkit\.config\.ts:3:25 could not be evaluated: ENOENT: no such file or directory/,
  },
  {
    what: "an error thrown in a helper the function config calls: the throw in the helper, the config's call in the message",
    files: {
      "dropkit.config.ts":
        'import { helper } from "./lib/helper";\ninterface X { a: number }\nexport default (): { theme: string } => ({ theme: helper() as string });\n',
      "lib/helper.ts": "export function helper(): string {\n  const o: { x?: { y: string } } = {};\n  return (o.x as any).y;\n}\n",
    },
    at: ["lib/helper.ts", 3, 23],
    message: new RegExp(
      String.raw`^The config dropkit\.config\.ts:3:51 threw when its exported function was called: ` +
        String.raw`Cannot read properties of undefined \(reading 'y'\), thrown in lib\/helper\.ts:3:23$`,
    ),
  },
  {
    what: "an error thrown while a helper is imported: the throw in the helper, the config's import in the message",
    files: {
      "dropkit.config.ts": 'import { v } from "./lib/helper";\nexport default { theme: v };\n',
      "lib/helper.ts": 'const q: number = 1;\nexport const v: string = (() => { throw new Error("top") })();\n',
    },
    at: ["lib/helper.ts", 2, 41],
    message: /^The config dropkit\.config\.ts:1:1 could not be evaluated: top, thrown in lib\/helper\.ts:2:41$/,
  },
  {
    what: "a syntax error in a helper: its position in the helper, 1-based",
    files: {
      "dropkit.config.ts": 'import { h } from "./helper";\nexport default { theme: h };\n',
      "helper.ts": "export const h: string = \n  ;\n",
    },
    at: ["helper.ts", 2, 3],
    message: /^The config dropkit\.config\.ts could not be evaluated: ParseError: Unexpected token, in helper\.ts:2:3$/,
  },
];

/** The one error record of a failed `dropkit config --log-format=json` run. */
function errorRecord(run: RunResult): Record<string, any> {
  assert.equal(run.status, 65, run.stderr);
  const errors = eventsOf(run, "error");
  assert.equal(errors.length, 1, run.stderr);
  return errors[0]!;
}

/** The text log's code frame: the line as written, then a caret under the column. */
function codeFrame(text: string, line: number, column: number): RegExp {
  const escapeText = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`\\n +${line} \\| ${escapeText(text.split("\n")[line - 1]!)}\\n +\\| ${" ".repeat(column - 1)}\\^\\n`);
}

describe("a .ts/.js config that throws: 1-based line and column in the file as written", () => {
  for (const c of cases) {
    test(c.what, () => {
      const root = fixture(c.files);
      const env = { XDG_CACHE_HOME: cacheHome() };
      const [name, line, column] = c.at;
      const file = path.join(root, name);
      const record = errorRecord(runCli(root, ["config", "--log-format=json"], env));
      assert.equal(record.name, "ConfigLoadError");
      assert.equal(record.file, file);
      if (bun) {
        // JavaScriptCore: the file is right; line and column are best-effort (docs/library.md).
        assert.ok(record.source.startsWith(file), record.source);
        return;
      }
      assert.equal(record.source, `${file}:${line}:${column}`);
      assert.equal(record.line, line);
      assert.equal(record.column, column);
      assert.match(record.message.replaceAll(`${root}/`, ""), c.message);

      const text = runCli(root, ["config"], env);
      assert.equal(text.status, 65);
      assert.ok(text.stderr.includes(`\n          at ${file}:${line}:${column}\n`), text.stderr);
      assert.match(text.stderr, codeFrame(c.files[name]!, line, column));
      assert.doesNotMatch(text.stderr, /^\s+at .*\(.*:\d+:\d+\)$/m, "no stack trace");
    });
  }

  test("a thrown non-Error has no stack: the file alone, no line", () => {
    const root = fixture({ "dropkit.config.ts": 'const a: number = 1;\nthrow "just a string";\n' });
    const record = errorRecord(runCli(root, ["config", "--log-format=json"], { XDG_CACHE_HOME: cacheHome() }));
    assert.equal(record.source, path.join(root, "dropkit.config.ts"));
    assert.equal(record.line, undefined);
    assert.equal(record.column, undefined);
  });

  test("a preset file that throws is reported the same way", { skip: bun && "best-effort positions on Bun" }, () => {
    const root = fixture({
      "dropkit.config.json": '{ "presets": ["./presets/team.ts"] }\n',
      "presets/team.ts": 'const who: string = "team";\nexport default { theme: ((): string => { throw new Error(who) })() };\n',
    });
    const record = errorRecord(runCli(root, ["config", "--log-format=json"], { XDG_CACHE_HOME: cacheHome() }));
    const file = path.join(root, "presets/team.ts");
    assert.equal(record.source, `${file}:2:48`);
    assert.match(record.message, /^The preset .*team\.ts:2:48 could not be evaluated: team$/);
  });
});

describe("jiti's file cache keeps the source maps", { skip: bun && "best-effort positions on Bun" }, () => {
  const config = 'const theme: string = "x";\nexport default { theme: ((t: string): string => { throw new Error(t) })(theme) };\n';

  test("the cache entry holds the map, and a run that reads it (a hit) reports the same position", () => {
    const root = fixture({ "dropkit.config.ts": config });
    const xdg = cacheHome();
    const source = `${path.join(root, "dropkit.config.ts")}:2:57`;
    // jiti's path, also where Node could strip the types (src/config/native.ts).
    const env = { XDG_CACHE_HOME: xdg, __DROPKIT_TEST_TS_LOADER: "jiti" };
    assert.equal(errorRecord(runCli(root, ["config", "--log-format=json"], env)).source, source);
    const dir = path.join(xdg, "dropkit", "jiti");
    const entries = fs.readdirSync(dir).filter((name) => name.includes("dropkit.config"));
    assert.equal(entries.length, 1, entries.join(", "));
    const entry = path.join(dir, entries[0]!);
    assert.match(fs.readFileSync(entry, "utf8"), /\/\/# sourceMappingURL=data:application\/json;.*base64,/);
    // jiti writes the entry again on a miss: an old mtime that stays proves the second run read it.
    const old = new Date("2001-01-01T00:00:00Z");
    fs.utimesSync(entry, old, old);
    assert.equal(errorRecord(runCli(root, ["config", "--log-format=json"], env)).source, source);
    assert.equal(fs.statSync(entry).mtime.getTime(), old.getTime());
  });

  test("without a usable cache directory (one others may write to is refused), the same position", () => {
    const root = fixture({ "dropkit.config.ts": config });
    const open = tempDir("dropkit-xdg-open-");
    fs.chmodSync(open, 0o777);
    const record = errorRecord(runCli(root, ["config", "--log-format=json"], { XDG_CACHE_HOME: open }));
    assert.equal(record.source, `${path.join(root, "dropkit.config.ts")}:2:57`);
    // Nothing of dropkit's there (Deno keeps its own cache in $XDG_CACHE_HOME/deno).
    assert.ok(!fs.existsSync(path.join(open, "dropkit")));
  });
});

describe("plainError: whatever a config threw, safe to read", () => {
  test("an Error keeps its message and stack; a string or number becomes the message", () => {
    const original = new TypeError("bad theme");
    const plain = plainError(original);
    assert.equal(plain.message, "bad theme");
    assert.equal(plain.stack, original.stack);
    assert.equal(plainError("text").message, "text");
    assert.equal(plainError(42).stack, "Error: 42");
  });

  test("values that throw when looked at never throw out of it", () => {
    const proxy = new Proxy(
      {},
      {
        get() {
          throw new Error("trap");
        },
        getPrototypeOf() {
          throw new Error("trap");
        },
      },
    );
    assert.equal(plainError(proxy).message, "a thrown value that cannot be shown");
    const noMessage = new Error("hidden");
    Object.defineProperty(noMessage, "message", {
      get() {
        throw new Error("getter");
      },
    });
    assert.equal(plainError(noMessage).message, "a thrown value that cannot be shown");
    const noStack = new Error("kept");
    Object.defineProperty(noStack, "stack", {
      get() {
        throw new Error("getter");
      },
    });
    assert.deepEqual([plainError(noStack).message, plainError(noStack).stack], ["kept", "Error: kept"]);
  });
});

describe("which path loads a .ts config (src/config/native.ts), on every runtime", () => {
  const deno = path.basename(cliRuntime[0]!).startsWith("deno");
  /**
   * Whether the runtime the CLI runs on loads a .ts file without jiti, from its judged text (src/files/judged.ts): Node
   * when it strips types (a load hook serves the text), Bun (a plugin serves it), Deno (its import takes the text as a
   * data: URL).
   */
  const native = bun || deno || (cliRuntime[0] === process.execPath && canStripTypes());
  const debugRun = (files: Record<string, string>) =>
    runCli(fixture(files), ["config", "--json"], { XDG_CACHE_HOME: cacheHome(), DROPKIT_DEBUG: "1" });
  const theme = (r: RunResult) => (JSON.parse(r.stdout) as { config: { theme: string } }).config.theme;

  test("a typed config: natively where the runtime can, else by jiti, with the same result", () => {
    const r = debugRun({ "dropkit.config.ts": 'const theme: string = "ocean";\nexport default { theme };\n' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(theme(r), "ocean");
    assert.equal(/is compiled by jiti/.test(r.stderr), !native, r.stderr);
    // Each native path says which it took.
    if (bun) assert.match(r.stderr, /dropkit\.config\.ts: imported by Bun from its judged text/);
    else if (deno) assert.match(r.stderr, /dropkit\.config\.ts: imported from its judged text as a data: URL/);
    else if (native) assert.match(r.stderr, /dropkit\.config\.ts: types stripped/);
  });

  test("an enum: natively on Bun and Deno (which compile it), by jiti on Node (whose stripper cannot erase it)", () => {
    const r = debugRun({ "dropkit.config.ts": 'enum Theme { Ocean = "ocean" }\nexport default { theme: Theme.Ocean };\n' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(theme(r), "ocean");
    assert.equal(/is compiled by jiti/.test(r.stderr), !bun && !deno, r.stderr);
  });

  test("a throw keeps its line:column natively, in the config and in a .ts file it imports, also when its function runs later", () => {
    const root = fixture({
      "dropkit.config.ts":
        'import { pick } from "./lib/pick.ts";\nconst n: number = 1;\nexport default (): { theme: string } => ({ theme: pick(n) as string });\n',
      "lib/pick.ts": 'export function pick(n: number): string {\n  const t: string = "x"; throw new Error(t + n);\n}\n',
      "q/dropkit.config.ts":
        'type T = { a: string };\nexport default { theme: ((t: T): string => { throw new Error(t.a) })({ a: "q" }) };\n',
    });
    for (const dir of [root, path.join(root, "q")]) {
      const r = runCli(dir, ["config", "--json"], { XDG_CACHE_HOME: cacheHome(), DROPKIT_DEBUG: "1" });
      assert.equal(r.status, 65, r.stderr);
      assert.equal(/is compiled by jiti/.test(r.stderr), !native, r.stderr);
      if (deno) assert.match(r.stderr, /dropkit\.config\.ts: imported from its judged text as a data: URL/);
    }
    if (bun) return;
    const json = (dir: string) => errorRecord(runCli(dir, ["config", "--log-format=json"], { XDG_CACHE_HOME: cacheHome() }));
    const helper = json(root);
    assert.equal(helper.source, `${path.join(root, "lib/pick.ts")}:2:32`);
    assert.match(helper.message, new RegExp(`^The config ${escapeRegExp(path.join(root, "dropkit.config.ts"))}:3:51 threw when`));
    assert.equal(json(path.join(root, "q")).source, `${path.join(root, "q/dropkit.config.ts")}:2:52`);
  });

  test("a config that reads import.meta is told its own file: by jiti on Deno, where a data: URL would answer", () => {
    const root = fixture({
      "dropkit.config.ts":
        'const here: string = new URL("./x", import.meta.url).pathname;\nexport default { theme: here.replaceAll("/", "_") };\n',
    });
    const r = runCli(root, ["config", "--json"], { XDG_CACHE_HOME: cacheHome(), DROPKIT_DEBUG: "1" });
    assert.equal(r.status, 0, r.stderr);
    // A theme name has no "/": the path is given with "_" for each.
    assert.equal(theme(r), path.join(root, "x").replaceAll("/", "_"));
    if (deno) assert.match(r.stderr, /is compiled by jiti: it uses import\.meta/);
  });

  test('`import "dropkit"` without a project install: the running dropkit on every path', () => {
    const r = debugRun({
      "dropkit.config.ts": 'import { defineConfig } from "dropkit";\nexport default defineConfig({ theme: "ocean" as string });\n',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(theme(r), "ocean");
    assert.equal(/is compiled by jiti/.test(r.stderr), !native, r.stderr);
  });

  test("a syntax error is reported by jiti's parser, at the same place, on every path", () => {
    const root = fixture({ "dropkit.config.ts": "export default {\n  theme: ,\n};\n" });
    const r = runCli(root, ["config", "--log-format=json"], { XDG_CACHE_HOME: cacheHome() });
    assert.equal(r.status, 65);
    assert.equal(errorRecord(r).source, `${path.join(root, "dropkit.config.ts")}:2:10`);
  });
});

describe("a schema problem in a .ts/.js config or preset is placed where its key is written (src/config/valuepositions.ts)", () => {
  test("an unknown key and a wrong element: file:line:column as for JSON, on every runtime and path", () => {
    for (const name of ["dropkit.config.ts", "dropkit.config.js"]) {
      const root = fixture({
        [name]: 'export default {\n  theme: "none",\n  modules: {\n    exlude: ["x"],\n    only: ["a", 3],\n  },\n};\n',
      });
      const r = runCli(root, ["config", "--log-format=json"], { XDG_CACHE_HOME: cacheHome() });
      assert.equal(r.status, 65, r.stderr);
      const file = path.join(root, name);
      assert.deepEqual(
        eventsOf(r, "error").map((e) => [e.path, e.source, e.file, e.line, e.column]),
        [
          ["modules.exlude", `${file}:4:5`, file, 4, 5],
          ["modules.only[1]", `${file}:5:17`, file, 5, 17],
        ],
      );
    }
  });

  test("a .ts preset's problem too; a key the file does not spell out keeps only its file", () => {
    const root = fixture({
      "dropkit.config.json": '{ "presets": ["./p.ts"] }\n',
      "p.ts": 'export default {\n  hooks: { onFailure: "sometimes" },\n};\n',
      "q/dropkit.config.ts": 'const key = ["th", "eme"].join("");\nexport default { [key]: 5 };\n',
    });
    const preset = errorRecord(runCli(root, ["config", "--log-format=json"], { XDG_CACHE_HOME: cacheHome() }));
    assert.equal(preset.source, `${path.join(root, "p.ts")}:2:12`);
    const computed = errorRecord(runCli(path.join(root, "q"), ["config", "--log-format=json"], { XDG_CACHE_HOME: cacheHome() }));
    assert.equal(computed.source, path.join(root, "q", "dropkit.config.ts"));
    assert.equal(computed.line, undefined);
  });
});

describe("on every runtime, a .ts/.js config is loaded from the text that was judged", () => {
  for (const name of ["c.ts", "c.js"]) {
    test(`${name}: the file replaced after it was opened and judged, the judged text still loads (Node's hook, Bun's plugin, jiti)`, () => {
      const root = tempDir();
      const file = path.join(root, name);
      fs.writeFileSync(file, 'const theme = "judged";\nexport default { theme };\n');
      const dist = path.resolve(path.dirname(cliPath), ".");
      const script = path.join(root, "load.mjs");
      fs.writeFileSync(
        script,
        `import { openJudged } from ${JSON.stringify(path.join(dist, "files/judged.js"))};
import { loadConfigFile } from ${JSON.stringify(path.join(dist, "config/loader.js"))};
import fs from "node:fs";
const judged = openJudged(${JSON.stringify(file)}, "config", null);
fs.writeFileSync(${JSON.stringify(`${file}.new`)}, 'const theme = "swapped";\\nexport default { theme };\\n');
fs.renameSync(${JSON.stringify(`${file}.new`)}, ${JSON.stringify(file)});
const loaded = await loadConfigFile(judged, ${JSON.stringify(name.endsWith(".ts") ? "ts" : "js")});
process.stdout.write(loaded.value.theme);
`,
      );
      const run = spawnSync(cliRuntime[0]!, [...cliRuntime.slice(1), script], {
        encoding: "utf8",
        env: { ...process.env, XDG_CACHE_HOME: cacheHome() },
      });
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout, "judged");
    });
  }
});
