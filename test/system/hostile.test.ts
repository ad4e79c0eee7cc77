// Hostile inputs through the built CLI: huge, deep, special and oddly named files, odd bytes, values that fight back.
// None may reach InternalError (70), hang, or print a stack trace (SPEC section 12, docs/reliability.md).

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { loadConfig } from "../../src/config/resolve.js";
import { DropkitError } from "../../src/errors.js";
import { cliPath, eventsOf, fixture, type FixtureFile, type RunResult } from "../helpers/cli.js";

const zip: FixtureFile = { zip: { "a.txt": "a" } };
const cfg = (value: unknown): Record<string, FixtureFile> => ({ "dropkit.config.json": JSON.stringify(value) });

interface HostileCase {
  title: string;
  files?: Record<string, FixtureFile>;
  /** Changes the fixture before the run: special files, sparse files, odd names. */
  setup?: (root: string) => void;
  args: string[];
  env?: Record<string, string>;
  exit: number;
  /** The first error's name, or "warning" for a warning record; what its message must match. */
  name: string;
  message: RegExp;
  /** What the first error's `source` must match, when it says where. */
  source?: RegExp;
}

const cases: HostileCase[] = [
  // Sizes (limits.fileBytes, limits.totalBytes): a clear ConfigLoadError at once, never a trap after minutes.
  {
    title: "a 100 MB config (sparse: only its size is looked at)",
    setup: (r) => sparse(path.join(r, "dropkit.config.json"), 100 * 2 ** 20),
    args: ["config"],
    exit: 65,
    name: "ConfigLoadError",
    message: /dropkit\.config\.json is 100 MiB \(104,857,600 bytes\), over the limit of 1 MiB/,
  },
  {
    title: "a 100 MB .ts config",
    setup: (r) => sparse(path.join(r, "dropkit.config.ts"), 100 * 2 ** 20),
    args: ["config"],
    exit: 65,
    name: "ConfigLoadError",
    message: /dropkit\.config\.ts is 100 MiB/,
  },
  {
    title: "a 2 MB package.json with a dropkit key",
    files: { "package.json": JSON.stringify({ dropkit: {}, readme: "x".repeat(2_000_000) }) },
    args: ["config"],
    exit: 65,
    name: "ConfigLoadError",
    message: /package\.json is 1\.9 MiB .*move the dropkit key to a dropkit\.config\.json/,
  },
  {
    title: "a 2 MB package.json that never mentions dropkit is no config",
    files: { "package.json": JSON.stringify({ readme: "x".repeat(2_000_000) }) },
    args: ["config"],
    exit: 0,
    name: "",
    message: /./,
  },
  {
    title: "a 2 MB preset",
    files: { ...cfg({ presets: ["./big.json"] }), "big.json": " ".repeat(2_000_000) + "{}" },
    args: ["config"],
    exit: 65,
    name: "ConfigLoadError",
    message: /The preset .*big\.json is 1\.9 MiB/,
  },
  {
    title: "five 0.9 MB preset files auto-detected: over 4 MiB together",
    files: {
      ...cfg({ presetsSearchPath: ["./presets"] }),
      ...Object.fromEntries(
        [1, 2, 3, 4, 5].map((i) => [`presets/p${i}.json`, JSON.stringify({ detect: ["*.zip"], exclude: [`m${i}`] }) + " ".repeat(900_000)]),
      ),
    },
    args: ["config"],
    exit: 65,
    name: "ConfigLoadError",
    message: /The config and preset files of this run are 4\.\d MiB .* together with .*p5\.json, over the limit of 4 MiB/,
  },
  {
    title: "a .ts config exporting 10 MB of data",
    files: { "dropkit.config.ts": "export default { exclude: Array.from({ length: 1e6 }, (_, i) => 'module-' + i) };\n" },
    args: ["config"],
    exit: 65,
    name: "ConfigLoadError",
    message: /The data exported by .* is over 1 MiB/,
  },
  {
    title: "a .ts config exporting new Array(1e9)",
    files: { "dropkit.config.ts": "export default { exclude: new Array(1e9) };\n" },
    args: ["config"],
    exit: 65,
    name: "ConfigLoadError",
    message: /is over 1 MiB/,
  },

  // Depth: the core's 128 levels, for JSON text and .ts/.js data alike.
  {
    title: "a config nested 100,000 deep",
    files: { "dropkit.config.json": "[".repeat(100_000) + "]".repeat(100_000) },
    args: ["config"],
    exit: 65,
    name: "ConfigSyntaxError",
    message: /deeper than 128 levels/,
  },
  {
    title: "a package.json nested 200,000 deep beside its dropkit key",
    files: { "package.json": '{"dropkit": {}, "x": ' + "[".repeat(200_000) + "]".repeat(200_000) + "}" },
    args: ["config"],
    exit: 65,
    name: "ConfigSyntaxError",
    message: /deeper than 128 levels/,
  },
  {
    title: "a .ts export nested 10,000 deep",
    files: { "dropkit.config.ts": "let v: any = 1;\nfor (let i = 0; i < 10000; i++) v = { a: v };\nexport default { theme: v };\n" },
    args: ["config"],
    exit: 65,
    name: "SchemaValidationError",
    message: /^theme(\.a){127} is nested deeper than 128 levels/,
  },
  {
    title: "a .ts export nested exactly 128 levels reaches the core",
    files: { "dropkit.config.ts": "let v: any = 'x';\nfor (let i = 0; i < 127; i++) v = [v];\nexport default { theme: v };\n" },
    args: ["config"],
    exit: 65,
    name: "SchemaValidationError",
    message: /^theme must be a string/,
  },

  // NUL in path values, from a JSON config and a .ts value: a schema error, never a file system call.
  {
    title: "a NUL in a theme path",
    files: { "dropkit.config.json": '{"theme": "./a\\u0000b.zip"}' },
    args: ["create"],
    exit: 65,
    name: "SchemaValidationError",
    message: /^A theme must not contain a NUL character/,
  },
  {
    title: "a NUL in cache.file and a hooks directory",
    files: { "dropkit.config.json": '{"cache": {"file": "c\\u0000"}, "hooks": {"initScriptsDir": "\\u0000"}}' },
    args: ["create"],
    exit: 65,
    name: "SchemaValidationError",
    message: /^cache\.file: a path must not contain a NUL character/,
  },
  {
    title: "a NUL in a .ts preset path",
    files: { "dropkit.config.ts": "export default { presets: ['./p\\u0000.json'] };\n" },
    args: ["config"],
    exit: 65,
    name: "SchemaValidationError",
    message: /^presets\[0\]: a preset name or path must not contain a NUL/,
  },

  // Special files where a config, preset or archive is expected: never read forever, never a hang.
  {
    title: "--config naming a FIFO",
    setup: (r) => mkfifo(path.join(r, "c.json")),
    args: ["config", "--config=c.json"],
    exit: 66,
    name: "ConfigNotFound",
    // Named for what it is, with no did-you-mean of a config file inside it.
    message: new RegExp(
      String.raw`^Config path is a FIFO \(named pipe\), not a regular file: [^\n]*c\.json \(from --config=c\.json\)\. ` +
        String.raw`Give the path of a dropkit\.config\.json(?![\s\S]*c\.json\/)`,
    ),
  },
  {
    title: "--config naming a character device (/dev/zero)",
    args: ["config", "--config=/dev/zero"],
    exit: 66,
    name: "ConfigNotFound",
    message: /^Config path is a device, not a regular file: \/dev\/zero \(from --config=\/dev\/zero\)\.(?![\s\S]*\/dev\/zero\/)/,
  },
  {
    title: "a config that starts with two byte-order marks (JSON.parse rejects the second)",
    files: { "dropkit.config.json": "\ufeff\ufeff{}" },
    args: ["config"],
    exit: 65,
    name: "ConfigSyntaxError",
    message: /found a non-ASCII character/,
    source: /dropkit\.config\.json:1:1$/,
  },
  {
    title: "a preset that is a FIFO",
    files: cfg({ presets: ["./p.json"] }),
    setup: (r) => mkfifo(path.join(r, "p.json")),
    args: ["config"],
    exit: 67,
    name: "PresetNotFound",
    message: /p\.json/,
  },
  {
    title: "DROPKIT_CONFIG=/proc/self/environ (a file whose size is 0)",
    args: ["config"],
    env: { DROPKIT_CONFIG: "/proc/self/environ" },
    exit: 65,
    name: "ConfigSyntaxError",
    message: /Expected a JSON value/,
  },
  {
    title: "a module archive that is a link to /dev/zero",
    files: { "blog.zip": zip },
    setup: (r) => fs.symlinkSync("/dev/zero", path.join(r, "zero.zip")),
    args: ["create"],
    exit: 0,
    name: "warning",
    message: /zero\.zip is left out: it is a device, not a regular file/,
  },
  {
    title: "a theme archive that is a link to /dev/zero",
    files: { "blog.zip": zip },
    setup: (r) => fs.symlinkSync("/dev/zero", path.join(r, "z-theme.zip")),
    args: ["create"],
    exit: 0,
    name: "warning",
    message: /z-theme\.zip is left out/,
  },
  {
    title: "an archive whose name is not UTF-8",
    files: { "blog.zip": zip },
    setup: (r) => fs.writeFileSync(Buffer.concat([Buffer.from(`${r}/`), Buffer.from([0x66, 0xff, 0x2e, 0x7a, 0x69, 0x70])]), "PK"),
    args: ["create"],
    exit: 0,
    name: "warning",
    message: /is left out: its name is not valid UTF-8, so it cannot be opened by name; rename it/,
  },

  // Names too long for the file system.
  {
    title: "a theme path longer than a file name may be",
    files: { ...cfg({ theme: `${"x".repeat(5000)}.zip` }), "blog.zip": zip },
    args: ["create"],
    exit: 66,
    name: "ThemeNotFound",
    message: /cannot be read \(ENAMETOOLONG\)/,
  },
  {
    title: "a theme path longer than a path may be",
    files: { ...cfg({ theme: `${`${"a".repeat(250)}/`.repeat(20)}x.zip` }), "blog.zip": zip },
    args: ["create"],
    exit: 66,
    name: "ThemeNotFound",
    message: /cannot be read \(ENAMETOOLONG\)/,
  },
  {
    title: "a cache.file longer than a file name may be",
    files: { ...cfg({ cache: { file: "x".repeat(5000) } }), "blog.zip": zip },
    args: ["create"],
    exit: 74,
    name: "IOError",
    message: /cannot be looked at \(ENAMETOOLONG\)/,
  },
  {
    title: "DROPKIT_CONFIG longer than a path may be",
    args: ["config"],
    env: { DROPKIT_CONFIG: `${"a".repeat(250)}/`.repeat(20) + "c.json" },
    exit: 66,
    name: "ConfigNotFound",
    message: /Config file not found/,
  },

  // .ts/.js code that fights back when it is looked at or run.
  {
    title: "a .ts export that is a Proxy whose traps throw",
    files: { "dropkit.config.ts": "export default new Proxy({}, { ownKeys() { throw new Error('no keys'); } });\n" },
    args: ["config"],
    exit: 65,
    name: "ConfigLoadError",
    message: /exports a value that cannot be read: no keys/,
  },
  {
    title: "a .ts function that throws a Proxy",
    files: {
      "dropkit.config.ts": "export default () => { throw new Proxy({}, { get() { throw 1; }, getPrototypeOf() { throw 1; } }); };\n",
    },
    args: ["config"],
    exit: 65,
    name: "ConfigLoadError",
    message: /a thrown value that cannot be shown/,
  },
  {
    title: "a .ts config that throws an Error whose stack getter throws",
    files: { "dropkit.config.ts": "const e = new Error('kept');\nObject.defineProperty(e, 'stack', { get() { throw 1; } });\nthrow e;\n" },
    args: ["config"],
    exit: 65,
    name: "ConfigLoadError",
    message: /could not be evaluated: kept/,
  },
  {
    title: "a .js config that calls process.exit(70)",
    files: { "dropkit.config.js": "process.exit(70);\n" },
    args: ["config"],
    exit: 65,
    name: "ConfigLoadError",
    message: /it called process\.exit\(70\)/,
  },
  {
    title: "a .js config whose function calls process.exit(0)",
    files: { "dropkit.config.js": "module.exports = () => process.exit(0);\n" },
    args: ["create"],
    exit: 65,
    name: "ConfigLoadError",
    message: /it called process\.exit\(0\)/,
  },

  // Arguments: clipanion's parser is quadratic in their number, so there is a ceiling.
  {
    title: "1,001 arguments",
    args: ["config", ...Array.from({ length: 1000 }, (_, i) => `--exclude=m${i}`)],
    exit: 64,
    name: "UsageError",
    message: /^Too many arguments \(1002\): dropkit takes at most 1,000/,
  },
];

describe("hostile inputs never reach InternalError (70)", () => {
  for (const c of cases) {
    test(`${c.title} → ${c.name || "no error"}, exit ${c.exit}`, () => {
      const root = fixture(c.files ?? {});
      c.setup?.(root);
      const r = run(root, c.args, c.env);
      const shown = `\n--- stderr ---\n${r.stderr.slice(0, 3000)}`;
      assert.equal(r.status, c.exit, `exit code${shown}`);
      assert.doesNotMatch(r.stderr, /\n\s+at .+:\d+:\d+\)?\n/, `a stack trace${shown}`);
      assert.ok(r.records.length > 0, `stderr is not all JSON records${shown}`);
      assert.equal(eventsOf(r, "error").filter((e) => e.exitCode === 70).length, 0, `an InternalError${shown}`);
      if (!c.name) return;
      const record = c.name === "warning" ? eventsOf(r, "warning").find((w) => c.message.test(w.message)) : eventsOf(r, "error")[0];
      assert.ok(record, `no ${c.name} record${shown}`);
      if (c.name !== "warning") assert.equal(record.name, c.name, shown);
      assert.match(String(record.message), c.message, shown);
      if (c.source) assert.match(String(record.source), c.source, shown);
    });
  }
});

describe("odd bytes in paths a program passes to loadConfig", () => {
  const root = fixture({});
  const fails = async (options: Parameters<typeof loadConfig>[0], name: string, message: RegExp) => {
    await assert.rejects(loadConfig(options), (e: unknown) => {
      assert.ok(e instanceof DropkitError, String(e));
      assert.equal(e.name, name);
      assert.match(e.message, message);
      return true;
    });
  };

  test("a NUL in --config, DROPKIT_CONFIG or the working directory is a clear error, never ERR_INVALID_ARG_VALUE", async () => {
    await fails({ cwd: root, flags: { config: "x\0.json" } }, "UsageError", /--config must not contain a NUL character/);
    await fails(
      { cwd: root, env: { DROPKIT_CONFIG: "a\0b" } },
      "SchemaValidationError",
      /Invalid value in DROPKIT_CONFIG: a path must not contain a NUL character/,
    );
    await fails({ cwd: `${root}\0x` }, "UsageError", /The working directory .* contains a NUL character/);
  });

  test("a NUL in any path-like flag or variable is reported by the core with the flag or variable", async () => {
    const r = await loadConfig({ cwd: root, env: { DROPKIT_CACHE_FILE: "c\0" }, flags: { theme: "t\0" } });
    assert.equal(r.ok, false);
    assert.deepEqual(
      r.errors.map((e) => [e.name, e.source]),
      [
        ["UsageError", "--theme"],
        ["SchemaValidationError", "DROPKIT_CACHE_FILE"],
      ],
    );
  });
});

// --- helpers ---

/** Runs the built CLI with a JSON log and a private cache directory; a hang fails the case at 60 s. */
function run(root: string, args: string[], env: Record<string, string> = {}): RunResult {
  const result = spawnSync(process.execPath, [cliPath, ...args, "--log-format=json"], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root, GIT_CEILING_DIRECTORIES: path.dirname(root), ...env },
    encoding: "utf8",
    timeout: 60_000,
    maxBuffer: 64 * 2 ** 20,
  });
  let records: Array<Record<string, any>> = [];
  try {
    records = result.stderr
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l));
  } catch {
    // Not all JSON: the case reports it.
  }
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, records };
}

/** A file of `size` zero bytes that takes no disk: only its size is real. */
function sparse(file: string, size: number): void {
  fs.writeFileSync(file, "");
  fs.truncateSync(file, size);
}

function mkfifo(file: string): void {
  const r = spawnSync("mkfifo", [file]);
  assert.equal(r.status, 0, "mkfifo");
}
