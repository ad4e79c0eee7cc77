// Security: no prototype pollution from any config form, no evaluation in the playground, discovery fenced at the repository, hooks without a shell.

import assert from "node:assert/strict";
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import path from "node:path";
import { afterEach, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { loadCache } from "../../src/archives/fingerprints.js";
import { loadConfig } from "../../src/config/resolve.js";
import { findConfig } from "../../src/config/discovery.js";
import { readState } from "../../src/state/file.js";
import { fixture, runCli } from "../helpers/cli.js";

const hostile =
  '{"__proto__": {"polluted": "proto"}, "constructor": {"prototype": {"polluted": "ctor"}}, "prototype": {"polluted": "prototype"}}';

function assertClean(what: string): void {
  assert.equal(({} as Record<string, unknown>).polluted, undefined, `${what}: Object.prototype was polluted`);
  assert.equal(Object.hasOwn(Object.prototype, "polluted"), false, what);
  assert.equal((Object as unknown as Record<string, unknown>).polluted, undefined, what);
  assert.equal(([] as unknown as Record<string, unknown>).polluted, undefined, what);
}

afterEach(() => {
  // A failing case must not leave the prototype dirty for the next one.
  delete (Object.prototype as Record<string, unknown>).polluted;
});

describe("__proto__, constructor and prototype keys never reach a prototype", () => {
  const forms: Array<[string, Record<string, string>]> = [
    ["dropkit.config.json", { "dropkit.config.json": hostile }],
    ["dropkit.config.json, nested", { "dropkit.config.json": `{"modules": ${hostile}, "hooks": ${hostile}}` }],
    ["package.json", { "package.json": `{"name": "x", "dropkit": ${hostile}}` }],
    ["package.json, a top-level __proto__", { "package.json": `{"__proto__": {"polluted": 1}, "dropkit": {"theme": "ocean"}}` }],
    [
      "dropkit.config.ts, computed keys",
      {
        "dropkit.config.ts": 'export default { ["__proto__"]: { polluted: "ts" }, ["constructor"]: { prototype: { polluted: "ts" } } };\n',
      },
    ],
    ["dropkit.config.js, from JSON.parse", { "dropkit.config.js": `module.exports = JSON.parse(${JSON.stringify(hostile)});\n` }],
    [
      "dropkit.config.ts, a __proto__ literal (a prototype, not a key)",
      { "dropkit.config.ts": 'export default { __proto__: { polluted: "literal" }, theme: "ocean" };\n' },
    ],
    [
      "dropkit.config.ts, a function returning it",
      { "dropkit.config.ts": `export default async () => JSON.parse(${JSON.stringify(`{"modules": ${hostile}}`)});\n` },
    ],
    ["a JSON preset", { "dropkit.config.json": '{"presets": ["evil"], "presetsSearchPath": ["./p"]}', "p/evil.json": hostile }],
    [
      "a .ts preset",
      {
        "dropkit.config.json": '{"presets": ["evil"], "presetsSearchPath": ["./p"]}',
        "p/evil.ts": `export default JSON.parse(${JSON.stringify(hostile)});\n`,
      },
    ],
  ];
  for (const [name, files] of forms) {
    test(`${name}: loaded through the host and the core, nothing polluted, the keys are reported as unknown`, async () => {
      const root = fixture(files);
      const loaded = await loadConfig({ cwd: root, env: {} }).catch((error: unknown) => ({ ok: false as const, thrown: error }));
      assertClean(name);
      // The schema rejects the keys, or (a literal __proto__) the export is not a plain object; outside
      // the dropkit key of a package.json, they are none of dropkit's business.
      const outside = name.includes("top-level");
      assert.equal(loaded.ok, outside, `${name}: ok should be ${outside}`);
      // The same through the CLI, in JSON: stdout and every record parse, and nothing in this process changed.
      const r = runCli(root, ["config", "--json", "--log-format=json"]);
      assert.equal(r.status, outside ? 0 : 65, r.stderr);
      assertClean(name);
    });
  }

  test("environment variables named like prototype keys are unknown variables, nothing more", async () => {
    const root = fixture({});
    const loaded = await loadConfig({
      cwd: root,
      env: { DROPKIT___PROTO__: "x", DROPKIT_CONSTRUCTOR: "y", __proto__: "z" } as NodeJS.ProcessEnv,
    });
    assertClean("environment");
    assert.equal(loaded.ok, true);
    assert.equal(loaded.warnings.filter((w) => /Unknown environment variable/.test(w.message)).length, 2);
  });

  test("the state file and the cache file keep such keys as data", () => {
    const root = fixture({
      ".dropkit.json": `{"schema": 1, "plan": ${hostile}, "extra": ${hostile}, ${hostile.slice(1)}`,
      ".dropkit-cache.json": `{"version": 1, "checkedAtMs": 0, "archives": ${hostile}}`,
    });
    const state = readState(path.join(root, ".dropkit.json"));
    assertClean("state");
    assert.equal(state.kind, "v1");
    if (state.kind === "v1") assert.ok(Object.hasOwn(state.state.extra, "__proto__"));
    loadCache(path.join(root, ".dropkit-cache.json"));
    assertClean("cache");
  });

  test("the core's answers parse without pollution (their keys come back as own data)", async () => {
    const { openAbi } = await import("../../scripts/lib/abi.js");
    const { text } = openAbi().call(JSON.stringify({ op: "parse", text: hostile }));
    const value = (JSON.parse(text) as { value: Record<string, unknown> }).value;
    assertClean("parse");
    assert.ok(Object.hasOwn(value, "__proto__"));
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
  });

  test("the check can fail: a real pollution is caught", () => {
    (Object.prototype as Record<string, unknown>).polluted = true;
    assert.throws(() => assertClean("self-test"));
  });
});

describe("the playground never evaluates input", () => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const sources = fs
    .readdirSync(path.join(here, "..", "..", "playground"))
    .filter((n) => /\.(ts|html|js)$/.test(n))
    .map((n) => path.join(here, "..", "..", "playground", n));
  const built = path.join(here, "..", "..", "dist", "playground");
  const bundles = fs.existsSync(built) ? walk(built).filter((f) => /\.(js|html)$/.test(f)) : [];

  test("its sources have no eval, Function constructor, string timers, or HTML sinks", () => {
    assert.ok(sources.length > 0, "no playground sources found");
    for (const file of sources) {
      const text = stripComments(fs.readFileSync(file, "utf8"));
      for (const [what, pattern] of sinks) assert.doesNotMatch(text, pattern, `${path.basename(file)} uses ${what}`);
    }
  });

  test("the built bundle has no eval or Function constructor either", {
    skip: bundles.length === 0 ? "the playground is not built (npm run playground:build)" : false,
  }, () => {
    for (const file of bundles) {
      const text = fs.readFileSync(file, "utf8");
      assert.doesNotMatch(text, /\beval\s*\(/, `${path.relative(built, file)} calls eval`);
      assert.doesNotMatch(text, /\bnew\s+Function\s*\(/, `${path.relative(built, file)} uses the Function constructor`);
    }
  });

  test("the check can fail", () => {
    assert.ok(sinks.some(([, p]) => p.test("el.innerHTML = input.value")));
    assert.ok(sinks.some(([, p]) => p.test("setTimeout('go()', 1)")));
  });
});

/** Ways a page turns text into code or markup. */
const sinks: Array<[string, RegExp]> = [
  ["eval", /\beval\s*\(/],
  ["the Function constructor", /\bnew\s+Function\s*\(|\bFunction\s*\(\s*["'`]/],
  ["a string timer", /\bset(Timeout|Interval)\s*\(\s*["'`]/],
  ["innerHTML / outerHTML", /\.(inner|outer)HTML\s*[+]?=/],
  ["insertAdjacentHTML", /\binsertAdjacentHTML\s*\(/],
  ["document.write", /\bdocument\.write(ln)?\s*\(/],
  ["createContextualFragment", /\bcreateContextualFragment\s*\(/],
];

describe("discovery never reads above the repository boundary", () => {
  test("nothing above the directory holding .git is opened, listed or statted", async () => {
    const outer = fixture({ "dropkit.config.json": '{"theme": "outside"}', "package.json": '{"dropkit": {"theme": "outside"}}' });
    const repo = path.join(outer, "repo");
    fs.mkdirSync(path.join(repo, ".git"), { recursive: true });
    fs.mkdirSync(path.join(repo, "a", "b"), { recursive: true });
    const touched = spyOnFs();
    let found;
    try {
      found = await findConfig(path.join(repo, "a", "b"), {});
    } finally {
      touched.restore();
    }
    assert.equal(found.file, null);
    assert.equal(found.stop.reason, "repository-root");
    const above = touched.paths.filter((p) => !p.startsWith(repo + path.sep) && p !== repo);
    assert.deepEqual(above, [], "discovery looked above the repository");
    assert.ok(touched.paths.length > 0, "the spy saw nothing: the check would pass vacuously");
    // And through the CLI: the outer config is not used.
    const r = runCli(path.join(repo, "a", "b"), ["config", "--json"], { GIT_CEILING_DIRECTORIES: "" });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).config.theme, "auto");
  });
});

describe("hooks run only from the configured directories, with no shell", () => {
  test("names and config values with shell syntax are never interpreted", () => {
    const dir = "hooks $(touch PWNED-dir) `touch PWNED-tick`";
    const root = fixture({
      "dropkit.config.json": JSON.stringify({ hooks: { initScriptsDir: `./${dir}`, postScriptsDir: "./none" }, theme: "none" }),
      [`${dir}/01; touch PWNED-name && echo`]: { text: '#!/bin/sh\nprintf "%s" "$DROPKIT_X" > "$PWD/ran"\n', mode: 0o755 },
      "init-scripts/not-configured": { text: "#!/bin/sh\ntouch PWNED-default\n", mode: 0o755 },
      "evil.sh": { text: "#!/bin/sh\ntouch PWNED-root\n", mode: 0o755 },
      // A module archive: create on a folder with none is EmptyDrop, and runs no hook.
      "blog.zip": { zip: { "a.txt": "a" } },
    });
    const r = runCli(root, ["create", "--log-format=json"], { DROPKIT_X: "$(touch PWNED-env); `id`" });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(fs.readFileSync(path.join(root, "ran"), "utf8"), "$(touch PWNED-env); `id`", "the hook did not get the value verbatim");
    assert.deepEqual(
      fs.readdirSync(root).filter((n) => n.startsWith("PWNED")),
      [],
    );
  });
});

// --- helpers ---

/** Records every path given to the fs calls discovery uses (through the live ESM bindings of node:fs). */
function spyOnFs(): { paths: string[]; restore(): void } {
  const paths: string[] = [];
  const names = ["statSync", "lstatSync", "readFileSync", "readdirSync", "existsSync", "realpathSync", "openSync", "accessSync"] as const;
  const originals = new Map<string, unknown>();
  const target = fs as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of names) {
    const original = target[name]!;
    originals.set(name, original);
    const spy = function (this: unknown, ...args: unknown[]) {
      if (typeof args[0] === "string") paths.push(path.resolve(args[0]));
      return original.apply(this, args);
    };
    Object.assign(spy, original);
    target[name] = spy;
  }
  syncBuiltinESMExports();
  return {
    paths,
    restore() {
      for (const [name, original] of originals) target[name] = original as (...args: unknown[]) => unknown;
      syncBuiltinESMExports();
    },
  };
}

function walk(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");
}
