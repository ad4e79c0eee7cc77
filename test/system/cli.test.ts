// Tests for the built CLI (dist/dropkit.cjs): discovery, layers, presets, create, config, exit codes and the log.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { age, cliRuntime, eventsOf, fixture, makeZip, runCli, cliPath, type RunResult } from "../helpers/cli.js";
import { escapeRegExp } from "../helpers/regexp.js";

const zip = { zip: { "readme.txt": "hello\n" } };
const json = ["--log-format=json"];

/** `dropkit config --json` in `cwd`: the parsed stdout, after checking the run succeeded. */
function configJson(
  cwd: string,
  args: string[] = [],
  env: Record<string, string> = {},
): { config: any; origins: Record<string, { layer: string; source: string }>; run: RunResult } {
  const run = runCli(cwd, ["config", "--json", ...json, ...args], env);
  assert.equal(run.status, 0, run.stderr);
  return { ...JSON.parse(run.stdout), run };
}

function errorsOf(run: RunResult): Array<Record<string, any>> {
  return eventsOf(run, "error");
}

describe("discovery (SPEC section 3)", () => {
  const forms: Array<[string, string]> = [
    ["dropkit.config.ts", 'const theme: string = "ocean";\nexport default { theme };\n'],
    ["dropkit.config.js", 'export default { theme: "ocean" };\n'],
    ["dropkit.config.json", '{ "theme": "ocean" }\n'],
    ["package.json", '{ "name": "x", "dropkit": { "theme": "ocean" } }\n'],
  ];
  for (const [name, text] of forms) {
    test(`finds ${name} from a subdirectory, and logs every directory searched`, () => {
      const root = fixture({ [name]: text, "sub/deeper/": "" });
      const cwd = path.join(root, "sub/deeper");
      const { config, origins, run } = configJson(cwd);
      assert.equal(config.theme, "ocean");
      assert.equal(origins.theme!.layer, "config");
      const [record] = eventsOf(run, "config");
      assert.deepEqual(record, {
        event: "config",
        file: path.join(root, name),
        via: "discovery",
        format: name === "package.json" ? "package.json" : path.extname(name).slice(1),
        searched: [cwd, path.join(root, "sub"), root],
        stop: { dir: root, reason: "found" },
      });
    });
  }

  test("a package.json without a dropkit key is not a match", () => {
    const root = fixture({ "package.json": '{"name":"x"}' });
    const run = runCli(root, ["config", ...json]);
    assert.equal(run.status, 0);
    assert.equal(eventsOf(run, "config")[0]!.via, "none");
  });

  test("stops at the directory holding .git, and says so", () => {
    const root = fixture({ "dropkit.config.json": '{"theme":"outer"}', "repo/.git/": "", "repo/src/": "" });
    const run = runCli(path.join(root, "repo/src"), ["config", ...json]);
    const [record] = eventsOf(run, "config");
    assert.equal(record!.via, "none");
    assert.equal(record!.file, null);
    assert.deepEqual(record!.searched, [path.join(root, "repo/src"), path.join(root, "repo")]);
    assert.deepEqual(record!.stop, { dir: path.join(root, "repo"), reason: "repository-root" });
  });

  test("never enters a GIT_CEILING_DIRECTORIES directory", () => {
    const root = fixture({ "a/dropkit.config.json": '{"theme":"above"}', "a/b/c/": "" });
    const run = runCli(path.join(root, "a/b/c"), ["config", ...json], { GIT_CEILING_DIRECTORIES: path.join(root, "a") });
    const [record] = eventsOf(run, "config");
    assert.equal(record!.via, "none");
    assert.deepEqual(record!.stop, { dir: path.join(root, "a"), reason: "ceiling" });
  });

  test("several forms in one directory: the first wins and the others are named in a warning", () => {
    const root = fixture({
      "dropkit.config.js": 'export default { theme: "js" };',
      "dropkit.config.json": '{"theme":"json"}',
      "package.json": '{"dropkit":{"theme":"pkg"}}',
    });
    const { config, run } = configJson(root);
    assert.equal(config.theme, "js");
    const [warning] = eventsOf(run, "warning");
    assert.match(warning!.message, /dropkit\.config\.json and package\.json \(dropkit key\)/);
    assert.equal(warning!.source, path.join(root, "dropkit.config.js"));
  });

  test("--config and DROPKIT_CONFIG skip discovery", () => {
    const root = fixture({ "dropkit.config.json": '{"theme":"found"}', "conf/ci.json": '{"theme":"ci"}' });
    const byFlag = configJson(root, ["--config=conf/ci.json"]);
    assert.equal(byFlag.config.theme, "ci");
    assert.equal(eventsOf(byFlag.run, "config")[0]!.via, "flag");
    const byEnv = configJson(root, [], { DROPKIT_CONFIG: "conf/ci.json" });
    assert.equal(byEnv.config.theme, "ci");
    assert.equal(eventsOf(byEnv.run, "config")[0]!.via, "env");
  });

  test("a missing --config or DROPKIT_CONFIG path exits 66 (ConfigNotFound)", () => {
    const root = fixture();
    for (const [args, env] of [
      [["--config=nope.json"], {}],
      [[], { DROPKIT_CONFIG: "nope.json" }],
    ] as const) {
      const run = runCli(root, ["config", ...json, ...args], env);
      assert.equal(run.status, 66);
      assert.equal(run.stdout, "");
      const [error] = errorsOf(run);
      assert.equal(error!.name, "ConfigNotFound");
      assert.equal(error!.exitCode, 66);
    }
  });
});

describe("loading configs", () => {
  test(".js may be CommonJS, and a default export may be an async function", () => {
    const cjs = fixture({ "dropkit.config.js": 'module.exports = { theme: "cjs" };\n' });
    assert.equal(configJson(cjs).config.theme, "cjs");
    const fn = fixture({ "dropkit.config.ts": 'export default async (): Promise<{ theme: string }> => ({ theme: "async" });\n' });
    assert.equal(configJson(fn).config.theme, "async");
  });

  test("a .ts config may import defineConfig from the package", () => {
    const root = fixture({
      "dropkit.config.ts": 'import { defineConfig } from "dropkit";\nexport default defineConfig({ theme: "typed" });\n',
    });
    fs.mkdirSync(path.join(root, "node_modules"));
    fs.symlinkSync(path.resolve(path.dirname(cliPath), ".."), path.join(root, "node_modules/dropkit"));
    assert.equal(configJson(root).config.theme, "typed");
  });

  test("a .ts config importing dropkit loads with dropkit run from outside a project that has none installed", () => {
    const root = fixture({
      "dropkit.config.ts":
        'import { defineConfig } from "dropkit";\nimport { openCore } from "dropkit/abi";\nexport default defineConfig(() => ({ theme: typeof openCore }));\n',
    });
    assert.equal(configJson(root).config.theme, "function");
    assert.ok(!fs.existsSync(path.join(root, "node_modules")));
  });

  test("the documented .ts forms (a type-only import, defineConfig) load without jiti wherever the runtime loads .ts itself", () => {
    const forms = {
      "type import":
        'import type { DropkitConfig } from "dropkit";\n\nconst config: DropkitConfig = { theme: "typed" };\nexport default config;\n',
      "type names":
        'import { type DropkitConfig } from "dropkit";\n\nconst config: DropkitConfig = { theme: "typed" };\nexport default config;\n',
      defineConfig: 'import { defineConfig } from "dropkit";\n\nexport default defineConfig({ theme: "typed" });\n',
      // Erased whole, so never resolved: a relative specifier without its extension blocks nothing.
      "type import of the project's file":
        'import type { Theme } from "./types";\nimport type { DropkitConfig } from "dropkit";\n\n' +
        'const theme: Theme = "typed";\nconst config: DropkitConfig = { theme };\nexport default config;\n',
    };
    // A project's own dropkit, which wins over the running one (below): its defineConfig returns what it is given.
    const installed = {
      "node_modules/dropkit/package.json": '{ "name": "dropkit", "type": "module", "exports": { ".": { "default": "./index.js" } } }',
      "node_modules/dropkit/index.js": "export const defineConfig = (config) => config;\n",
    };
    const deno = path.basename(cliRuntime[0]!).startsWith("deno");
    for (const [form, text] of Object.entries(forms)) {
      for (const project of [{}, installed]) {
        const what = `${form}${project === installed ? ", dropkit installed" : ""}`;
        const root = fixture({ "dropkit.config.ts": text, "types.ts": "export type Theme = string;\n", ...project });
        const { config, run } = configJson(root, [], { DROPKIT_DEBUG: "1" });
        assert.equal(config.theme, "typed", what);
        // Node 20 gives every .ts file to jiti ("cannot load it from its judged text"); Node 22.18+, Bun and Deno never for these.
        const jiti = /compiled by jiti: (.*)/.exec(run.stderr);
        if (jiti) assert.match(jiti[1]!, /cannot load it from its judged text/, what);
        if (deno) assert.match(run.stderr, /dropkit\.config\.ts: imported from its judged text as a data: URL/, what);
      }
    }
  });

  test("a project's own installed dropkit wins over the running one", () => {
    const root = fixture({
      "dropkit.config.ts": 'import { defineConfig } from "dropkit";\nexport default defineConfig({ theme: "ocean" });\n',
      "node_modules/dropkit/package.json": '{ "name": "dropkit", "version": "0.9.0", "type": "module", "exports": "./index.js" }',
      "node_modules/dropkit/index.js": 'export const defineConfig = (config) => ({ ...config, theme: "from-the-project" });\n',
    });
    assert.equal(configJson(path.join(root)).config.theme, "from-the-project");
  });

  test("a config that throws exits 65 with ConfigLoadError", () => {
    const root = fixture({ "dropkit.config.js": 'throw new Error("boom");\n' });
    const run = runCli(root, ["config", ...json]);
    assert.equal(run.status, 65);
    const [error] = errorsOf(run);
    assert.equal(error!.name, "ConfigLoadError");
    assert.match(error!.message, /boom/);
  });

  test("a syntax error exits 65 with its line and column", () => {
    const root = fixture({ "dropkit.config.json": '{\n  "theme": "ocean",\n  "modules": [\n}\n' });
    const run = runCli(root, ["config", ...json]);
    assert.equal(run.status, 65);
    const [error] = errorsOf(run);
    assert.equal(error!.name, "ConfigSyntaxError");
    assert.equal(error!.code, "ExpectedValue");
    assert.equal(error!.source, `${path.join(root, "dropkit.config.json")}:4:1`);
    assert.equal(error!.line, 4);
    assert.equal(error!.column, 1);
  });

  test("every schema problem is reported at once, each with its path and position", () => {
    const root = fixture({ "dropkit.config.json": '{\n  "theme": 3,\n  "modules": { "include": ["a", "b*c"] },\n  "themee": "x"\n}\n' });
    const run = runCli(root, ["config", ...json]);
    assert.equal(run.status, 65);
    assert.equal(run.stdout, "");
    const errors = errorsOf(run);
    assert.deepEqual(
      errors.map((e) => [e.name, e.path, e.line, e.column]),
      [
        ["SchemaValidationError", "theme", 2, 12],
        ["SchemaValidationError", "modules.include[1]", 3, 33],
        ["SchemaValidationError", "themee", 4, 3],
      ],
    );
    assert.deepEqual(
      errors.map((e) => e.code),
      ["WrongType", "GlobStar", "UnknownKey"],
    );
    assert.match(errors[2]!.message, /Did you mean "theme"\?/);
  });

  test("text mode shows a code frame with a caret under the column, and no colour off a terminal", () => {
    const root = fixture({ "dropkit.config.json": '{\n\t"theme": 3\n}\n' });
    const run = runCli(root, ["config"]);
    assert.equal(run.status, 65);
    assert.match(run.stderr, /error +SchemaValidationError \(exit 65\): theme must be a string/);
    assert.match(run.stderr, new RegExp(`at ${escapeRegExp(path.join(root, "dropkit.config.json"))}:2:11`));
    assert.match(run.stderr, /2 \| \t"theme": 3\n +\| \t {9}\^\n/);
    assert.doesNotMatch(run.stderr, /\u001b\[/);
  });

  test("an invalid environment value is a schema error naming the variable; an unknown one a warning", () => {
    const root = fixture();
    const bad = runCli(root, ["config", ...json], { DROPKIT_CACHE_ENABLED: "maybe" });
    assert.equal(bad.status, 65);
    assert.equal(errorsOf(bad)[0]!.source, "DROPKIT_CACHE_ENABLED");
    const typo = configJson(root, [], { DROPKIT_THEMES: "x" });
    assert.match(eventsOf(typo.run, "warning")[0]!.message, /Did you mean DROPKIT_THEME\?/);
  });

  test("log.format in the config switches the log to JSON", () => {
    const root = fixture({ "dropkit.config.json": '{"log":{"format":"json"}}' });
    const run = runCli(root, ["config", "--json"]);
    assert.equal(run.status, 0);
    assert.equal(run.records[0]!.event, "config");
  });
});

describe("layers (SPEC section 4)", () => {
  test("flags > environment > config > presets > defaults, one layer removed at a time", () => {
    const root = fixture({
      "dropkit.config.json": '{"theme":"from-config","presets":["mine"],"presetsSearchPath":["./presets"]}',
      "presets/mine.json": '{"theme":"from-preset"}',
    });
    const env = { DROPKIT_THEME: "from-env" };
    const all = configJson(root, ["--theme=from-flag"], env);
    assert.deepEqual([all.config.theme, all.origins.theme], ["from-flag", { layer: "cli", source: "--theme" }]);
    const noFlag = configJson(root, [], env);
    assert.deepEqual([noFlag.config.theme, noFlag.origins.theme], ["from-env", { layer: "env", source: "DROPKIT_THEME" }]);
    const noEnv = configJson(root);
    assert.equal(noEnv.config.theme, "from-config");
    assert.equal(noEnv.origins.theme!.layer, "config");
    assert.match(noEnv.origins.theme!.source, /dropkit\.config\.json:1:10$/);
    fs.writeFileSync(path.join(root, "dropkit.config.json"), '{"presets":["mine"],"presetsSearchPath":["./presets"]}');
    assert.deepEqual(configJson(root).origins.theme, { layer: "preset", source: `${path.join(root, "presets/mine.json")}:1:10` });
    fs.writeFileSync(path.join(root, "dropkit.config.json"), '{"presets":[]}');
    assert.deepEqual(configJson(root).origins.theme, { layer: "default", source: "default" });
  });

  test("module lists are the union of every layer, each entry keeping its origin", () => {
    const root = fixture({ "a.zip": zip, "dropkit.config.json": '{"exclude":["old-*"],"modules":{"exclude":["tmp"]}}' });
    const { config, origins } = configJson(root, ["--exclude=wip-*"], { DROPKIT_MODULES_EXCLUDE: "scratch, tmp" });
    assert.deepEqual(config.modules.exclude, ["test-*", "dev-*", "old-*", "tmp", "scratch", "wip-*"]);
    // The winning layer, and one origin per item: --json prints the core's origins as they are.
    assert.deepEqual(origins["modules.exclude"], {
      layer: "cli",
      source: "--exclude",
      entries: [
        ["preset", "standard"],
        ["preset", "standard"],
        ["config", `${path.join(root, "dropkit.config.json")}:1:13`],
        ["config", `${path.join(root, "dropkit.config.json")}:1:44`],
        ["env", "DROPKIT_MODULES_EXCLUDE"],
        ["cli", "--exclude"],
      ].map(([layer, source]) => ({ layer, source })),
    });
    const table = runCli(root, ["config", "--exclude=wip-*"], { DROPKIT_MODULES_EXCLUDE: "scratch, tmp" });
    // The list one item a line under the value column, each with its own origin.
    const lines = table.stdout.split("\n");
    const first = lines.findIndex((l) => l.startsWith("modules.exclude "));
    assert.match(lines[first]!, /^modules\.exclude +test-\* +preset +standard$/);
    assert.match(lines[first + 4]!, /^ +scratch +env +DROPKIT_MODULES_EXCLUDE$/);
    assert.match(lines[first + 5]!, /^ +wip-\* +cli +--exclude$/);
    assert.match(lines[first + 6]!, /^modules\.only /);
  });

  test("--preset replaces the preset list of every other layer", () => {
    const root = fixture({ "dropkit.config.json": '{"presets":["none"]}' });
    const { config, origins } = configJson(root, ["--preset=standard"], { DROPKIT_PRESETS: "none" });
    assert.deepEqual(config.presets, ["standard"]);
    assert.deepEqual(origins.presets, { layer: "cli", source: "--preset" });
    assert.equal(config.hooks.onFailure, "fail");
  });
});

describe("presets (SPEC section 5)", () => {
  test("an unknown preset exits 67 with the closest suggestion and the list, from any layer", () => {
    const root = fixture({ "presets/mine.json": "{}", "dropkit.config.json": '{"presetsSearchPath":["./presets"],"presets":["mien"]}' });
    for (const [args, env] of [
      [["--preset=standrd"], {}],
      [[], { DROPKIT_PRESETS: "standrd" }],
      [[], {}],
    ] as const) {
      const run = runCli(root, ["config", ...json, ...args], env);
      assert.equal(run.status, 67, run.stderr);
      const [error] = errorsOf(run);
      assert.equal(error!.name, "PresetNotFound");
      assert.match(error!.message, args.length + Object.keys(env).length > 0 ? /Did you mean "standard"\?/ : /Did you mean "mine"\?/);
      assert.match(error!.message, /none, standard, mine/);
    }
  });

  test("auto-detect applies bundled then local presets and logs the glob that matched", () => {
    const root = fixture({
      "a.zip": zip,
      "notes.md": "# notes",
      "dropkit.config.json": '{"presetsSearchPath":["./presets","./missing"]}',
      "presets/docs.json": '{"detect":["*.txt","*.md"],"theme":"paper"}',
      "presets/never.json": '{"detect":["*.nothing"]}',
    });
    const { config, run } = configJson(root);
    assert.deepEqual(config.presets, ["standard", "docs"]);
    assert.equal(config.theme, "paper");
    const presets = eventsOf(run, "preset");
    const applied = presets.filter((p) => p.status === "applied").map((p) => [p.name, p.glob]);
    assert.deepEqual(applied, [
      ["standard", "*.zip"],
      ["docs", "*.md"],
    ]);
    assert.ok(presets.some((p) => p.name === "never" && p.status === "skipped"));
    assert.match(eventsOf(run, "warning")[0]!.message, /missing does not exist/);
  });

  test("local preset files may be .ts, and are validated like a config (exit 65)", () => {
    const root = fixture({
      "dropkit.config.json": '{"presetsSearchPath":["./presets"],"presets":["strict","bad"]}',
      "presets/strict.ts": 'export default { hooks: { onFailure: "fail" as const } };\n',
      "presets/bad.json": '{"schema":1}',
    });
    const run = runCli(root, ["config", ...json]);
    assert.equal(run.status, 65);
    assert.equal(errorsOf(run)[0]!.path, "schema");
    fs.writeFileSync(path.join(root, "presets/bad.json"), "{}");
    assert.equal(configJson(root).config.hooks.onFailure, "fail");
  });
});

describe("create (SPEC section 6)", () => {
  test("chooses the theme and modules, writes the state and the cache, logs every step", () => {
    const root = fixture({ "ocean-theme.zip": zip, "blog.zip": zip, "shop.zip": zip, "test-data.zip": zip });
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, "");
    assert.equal(eventsOf(run, "decision").length, 13);
    const plan = eventsOf(run, "plan");
    assert.deepEqual(plan.at(-1), {
      event: "plan",
      item: "summary",
      theme: "ocean-theme.zip",
      modules: ["blog", "shop"],
      excluded: ["test-data"],
    });
    const state = JSON.parse(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8"));
    assert.equal(state.schema, 1);
    assert.equal(state.toolVersion, JSON.parse(fs.readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version);
    assert.deepEqual(state.plan, { theme: "ocean", modules: ["blog", "shop"], excluded: ["test-data"], presets: ["standard"] });
    assert.equal(state.createdAt, state.updatedAt);
    assert.deepEqual(state.extra, {});
    const cache = JSON.parse(fs.readFileSync(path.join(root, ".dropkit-cache.json"), "utf8"));
    assert.deepEqual(
      Object.keys(cache.archives),
      ["blog.zip", "ocean-theme.zip", "shop.zip", "test-data.zip"].map((name) => path.join(fs.realpathSync(root), name)),
    );
    assert.deepEqual(
      eventsOf(run, "state").map((s) => s.action),
      ["created", "cache"],
    );
  });

  test("module selection: only, exclude, include, and --exclude over everything", () => {
    const root = fixture({
      "blog.zip": zip,
      "shop-a.zip": zip,
      "shop-b.zip": zip,
      "legacy.zip": zip,
      "dropkit.config.json": '{"presets":[],"modules":{"only":["shop-*","blog"],"exclude":["shop-*"],"include":["shop-b","blog"]}}',
    });
    const run = runCli(root, ["create", ...json, "--exclude=blog"]);
    assert.equal(run.status, 0, run.stderr);
    const summary = eventsOf(run, "plan").at(-1)!;
    assert.deepEqual(summary.modules, ["shop-b"]);
    assert.deepEqual(summary.excluded, ["blog", "legacy", "shop-a"]);
    const blog = eventsOf(run, "plan").find((p) => p.name === "blog")!;
    assert.equal(blog.source, "--exclude");
  });

  test("theme auto with several theme archives picks the first by name and names the others", () => {
    const root = fixture({ "river-theme.zip": zip, "ocean-theme.zip": zip });
    const run = runCli(root, ["create", ...json]);
    const theme = eventsOf(run, "plan").find((p) => p.item === "theme")!;
    assert.equal(theme.value, "ocean-theme.zip");
    assert.deepEqual(theme.alternatives, ["river-theme.zip"]);
  });

  test("a named or path theme that is not there exits 66 (ThemeNotFound) and writes nothing", () => {
    const root = fixture({ "ocean-theme.zip": zip, "themes/": "" });
    for (const theme of ["river", "./themes/river.zip"]) {
      const run = runCli(root, ["create", ...json, `--theme=${theme}`]);
      assert.equal(run.status, 66, run.stderr);
      assert.equal(errorsOf(run)[0]!.name, "ThemeNotFound");
      assert.ok(!fs.existsSync(path.join(root, ".dropkit.json")));
    }
    fs.writeFileSync(path.join(root, "themes/river.zip"), makeZip({ "theme.css": "body {}" }));
    const ok = runCli(root, ["create", ...json, "--theme=./themes/river.zip"]);
    assert.equal(ok.status, 0, ok.stderr);
    assert.equal(JSON.parse(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8")).plan.theme, path.join(root, "themes/river.zip"));
  });

  test("an invalid config stops the run before any hook or write", () => {
    const root = fixture({
      "a.zip": zip,
      "dropkit.config.json": '{"theme": 1}',
      "init-scripts/01-touch": { text: "#!/bin/sh\ntouch ran\n", mode: 0o755 },
    });
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 65);
    assert.deepEqual(fs.readdirSync(root).sort(), [".git", "a.zip", "dropkit.config.json", "init-scripts"]);
  });

  test("hooks run in name order; a failure with continue is a warning, with fail it exits 1", () => {
    const root = fixture({
      "a.zip": zip,
      "init-scripts/01-first": { text: "#!/bin/sh\necho first >> order\n", mode: 0o755 },
      "init-scripts/02-fails": { text: "#!/bin/sh\necho second >> order\nexit 3\n", mode: 0o755 },
      "init-scripts/03-third": { text: "#!/bin/sh\necho third >> order\n", mode: 0o755 },
      "post-scripts/01-post": { text: "#!/bin/sh\necho post >> order\n", mode: 0o755 },
    });
    const cont = runCli(root, ["create", ...json, "--preset=none"]);
    assert.equal(cont.status, 0, cont.stderr);
    assert.equal(fs.readFileSync(path.join(root, "order"), "utf8"), "first\nsecond\nthird\npost\n");
    assert.ok(eventsOf(cont, "warning").some((w) => /02-fails failed with exit code 3/.test(w.message)));
    const hooks = eventsOf(cont, "hook").map((h) => [h.phase, path.basename(h.file), h.status]);
    assert.deepEqual(hooks, [
      ["init", "01-first", "ok"],
      ["init", "02-fails", "failed"],
      ["init", "03-third", "ok"],
      ["post", "01-post", "ok"],
    ]);

    fs.rmSync(path.join(root, "order"));
    fs.rmSync(path.join(root, ".dropkit.json"));
    const stop = runCli(root, ["create", ...json], { DROPKIT_HOOKS_ON_FAILURE: "fail" });
    assert.equal(stop.status, 1);
    assert.equal(errorsOf(stop)[0]!.name, "HookFailed");
    assert.equal(fs.readFileSync(path.join(root, "order"), "utf8"), "first\nsecond\n");
    assert.ok(!fs.existsSync(path.join(root, ".dropkit.json")));
  });

  test("a second run reuses the cached fingerprints of unchanged archives; a corrupt cache is rebuilt", () => {
    const root = fixture({ "a.zip": zip, "b.zip": zip });
    age(path.join(root, "a.zip"));
    age(path.join(root, "b.zip"));
    assert.deepEqual(eventsOf(runCli(root, ["create", ...json]), "state")[1]!.hashed, ["a.zip", "b.zip"]);
    fs.writeFileSync(path.join(root, "b.zip"), makeZip({ "readme.txt": "changed\n" }));
    age(path.join(root, "b.zip"), 1800);
    const second = eventsOf(runCli(root, ["create", ...json]), "state")[1]!;
    assert.deepEqual([second.hashed, second.reused], [["b.zip"], ["a.zip"]]);
    // A torn cache: still recognisably dropkit's by its beginning, so it is moved aside and rebuilt.
    const torn = fs.readFileSync(path.join(root, ".dropkit-cache.json"), "utf8").slice(0, 60);
    fs.writeFileSync(path.join(root, ".dropkit-cache.json"), torn);
    const third = runCli(root, ["create", ...json]);
    assert.equal(third.status, 0);
    assert.ok(eventsOf(third, "warning").some((w) => /cache .* is corrupt/.test(w.message)));
    const cacheRecord = eventsOf(third, "state")[1]!;
    assert.deepEqual(cacheRecord.hashed, ["a.zip", "b.zip"]);
    assert.equal(fs.readFileSync(cacheRecord.movedAside, "utf8"), torn);
  });

  test("the state file keeps createdAt and unknown keys; a corrupt one is moved aside", () => {
    const root = fixture({
      "a.zip": zip,
      ".dropkit.json": JSON.stringify({ schema: 1, createdAt: "2024-05-01T10:00:00.000Z", plan: {}, note: "mine", extra: { kept: true } }),
    });
    assert.equal(runCli(root, ["create", ...json]).status, 0);
    const state = JSON.parse(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8"));
    assert.equal(state.createdAt, "2024-05-01T10:00:00.000Z");
    assert.deepEqual(state.extra, { kept: true, note: "mine" });
    fs.writeFileSync(path.join(root, ".dropkit.json"), "{torn");
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 0);
    const aside = fs.readdirSync(root).filter((n) => n.startsWith(".dropkit.json.corrupt-"));
    assert.equal(aside.length, 1);
    assert.equal(fs.readFileSync(path.join(root, aside[0]!), "utf8"), "{torn");
    assert.ok(eventsOf(run, "warning").some((w) => w.message.includes(aside[0]!)));
  });

  test("a state or cache file that cannot be written exits 74 (IOError)", () => {
    const root = fixture({ "a.zip": zip, "dropkit.config.json": '{"cache":{"file":"./no/such/dir/cache.json"}}' });
    const cache = runCli(root, ["create", ...json]);
    assert.equal(cache.status, 74);
    assert.equal(errorsOf(cache)[0]!.name, "IOError");
    const blocked = fixture({ "a.zip": zip, ".dropkit.json/": "" });
    const state = runCli(blocked, ["create", ...json]);
    assert.equal(state.status, 74);
    assert.match(errorsOf(state)[0]!.message, /state file/);
  });

  test("a read-only drop exits 74 (IOError)", {
    skip: process.getuid?.() === 0 ? "root can write to read-only directories" : false,
  }, () => {
    const root = fixture({ "a.zip": zip });
    fs.chmodSync(root, 0o555);
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 74);
  });
});

describe("config (SPEC section 6)", () => {
  test("--json prints the config and the origin of every leaf, and writes nothing", () => {
    const root = fixture({ "dropkit.config.json": '{"cache":{"enabled":false}}' });
    const { config, origins } = configJson(root, ["--theme=ocean"]);
    assert.equal(Object.keys(origins).length, 13);
    assert.deepEqual(origins["cache.enabled"]!.layer, "config");
    assert.equal(config.theme, "ocean");
    assert.equal(config.hooks.initScriptsDir, path.join(root, "init-scripts"));
    assert.deepEqual(fs.readdirSync(root).sort(), [".git", "dropkit.config.json"]);
  });

  test("the table has one aligned row per leaf", () => {
    const root = fixture();
    const run = runCli(root, ["config", "--theme=ocean"]);
    assert.equal(run.status, 0);
    const lines = run.stdout.trimEnd().split("\n");
    assert.match(lines[0]!, /^KEY +VALUE +LAYER +SOURCE$/);
    assert.match(run.stdout, /^theme +ocean +cli +--theme$/m);
    const column = lines[0]!.indexOf("LAYER");
    for (const line of lines.slice(1)) assert.match(line.slice(column), /^(cli|env|config|preset|default) /);
  });

  test("--explain shows every layer that set a key, the winner first", () => {
    const root = fixture({ "dropkit.config.json": '{"theme":"config-theme"}' });
    const run = runCli(root, ["config", "--explain", "theme", "--theme=flag-theme"], { DROPKIT_THEME: "env-theme" });
    assert.equal(run.status, 0, run.stderr);
    const lines = run.stdout.trimEnd().split("\n");
    assert.equal(lines[0], 'theme = "flag-theme"');
    assert.deepEqual(
      lines.slice(1).map((l) => l.trim().split(/ +/)[0]),
      ["cli", "env", "config", "default"],
    );
    assert.match(lines[1]!, /"flag-theme" +--theme +wins$/);
    assert.match(lines[3]!, /"config-theme" +\S+dropkit\.config\.json:1:10 +overridden$/);
    const asJson = JSON.parse(runCli(root, ["config", "--explain=theme", "--json"]).stdout);
    assert.deepEqual(
      asJson.layers.map((l: { layer: string }) => l.layer),
      ["config", "default"],
    );
  });

  test("--explain with an unknown key is a usage error with a suggestion", () => {
    const root = fixture();
    const run = runCli(root, ["config", "--explain", "cache.enable"]);
    assert.equal(run.status, 64);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /Unknown key "cache\.enable" for --explain\. Did you mean "cache\.enabled"\? Keys: schema, theme,/);
  });
});

describe("usage, help and version", () => {
  test("unknown flags and commands, and bad flag values, exit 64 on stderr with nothing on stdout", () => {
    const root = fixture();
    for (const args of [["create", "--bogus"], ["frobnicate"], ["config", "--log-format=xml"], []]) {
      const run = runCli(root, args);
      assert.equal(run.status, 64, `${args.join(" ")}: ${run.stderr}`);
      assert.equal(run.stdout, "");
      assert.notEqual(run.stderr, "");
    }
    const inJson = runCli(root, ["config", "--nope", "--log-format=json"]);
    assert.equal(inJson.status, 64);
    assert.deepEqual(Object.keys(inJson.records[0]!), ["event", "name", "exitCode", "path", "source", "message"]);
    assert.equal(inJson.records[0]!.name, "UsageError");
  });

  test("one usage-error format: every usage error is one error record in text, one JSON record with --json or the JSON log", () => {
    const root = fixture();
    const cases: Array<{ args: string[]; source: string }> = [
      { args: ["craete"], source: "craete" },
      { args: ["config", "--colour=red"], source: "--colour" },
      { args: ["config", "--log-format=xml"], source: "--log-format" },
      { args: ["completion", "tcsh"], source: "<shell>" },
      { args: ["create", "extra"], source: "extra" },
      { args: ["create", "--exclude"], source: "--exclude" },
      { args: ["config", "--theme="], source: "--theme" },
      { args: ["help", "crate"], source: "crate" },
      { args: ["--bogus"], source: "--bogus" },
      { args: [], source: "" },
    ];
    for (const { args, source } of cases) {
      const text = runCli(root, args);
      assert.equal(text.status, 64, `${args.join(" ")}: ${text.stderr}`);
      assert.equal(text.stdout, "");
      assert.doesNotMatch(text.stderr, /Unknown Syntax Error|Usage Error:|^\$ /m, args.join(" "));
      // The record's first line, then "at <source>" (when there is one) and the usage line, each under the label column.
      const lines = text.stderr.trimEnd().split("\n");
      // (A flag value the core rejects comes after the config record, like any problem found while resolving.)
      const errorLines = lines.filter((l) => !l.startsWith(" ".repeat(10)) && !l.startsWith("config "));
      assert.deepEqual(
        errorLines.map((l) => l.slice(0, 32)),
        ["error     UsageError (exit 64): "],
        `${args.join(" ")}: ${text.stderr}`,
      );
      if (source) assert.ok(lines.includes(`          at ${source}`), `${args.join(" ")}: ${text.stderr}`);
      const variants: Array<[string, string[], Record<string, string>]> = [
        ["DROPKIT_LOG_FORMAT=json", args, { DROPKIT_LOG_FORMAT: "json" }],
      ];
      if (args.length > 0 && !args[0]!.startsWith("-") && !args.some((a) => a.startsWith("--log-format")))
        variants.push(["--log-format=json", [...args, "--log-format=json"], {}]);
      for (const [how, argv, env] of variants) {
        const asJson = runCli(root, argv, env);
        assert.equal(asJson.status, 64, `${args.join(" ")} ${how}: ${asJson.stderr}`);
        const errors = asJson.records.filter((r) => r.event === "error");
        assert.equal(
          asJson.stderr.trimEnd().split("\n").length,
          asJson.records.length,
          `${args.join(" ")} ${how}: not all JSON: ${asJson.stderr}`,
        );
        assert.deepEqual(
          errors.map((r) => [r.name, r.exitCode, r.source]),
          [["UsageError", 64, source]],
          `${args.join(" ")} ${how}`,
        );
      }
    }
    // --json asks for JSON records, also when --log-format has a value it does not take.
    for (const args of [
      ["config", "--json", "--log-format=xml"],
      ["config", "--json", "--colour"],
    ]) {
      const run = runCli(root, args);
      assert.equal(run.status, 64);
      assert.deepEqual(
        run.records.map((r) => [r.event, r.name]),
        [["error", "UsageError"]],
        run.stderr,
      );
    }
  });

  test("a mistyped command names the closest command only; dropkit version prints the version", () => {
    const root = fixture();
    const typo = runCli(root, ["craete"]);
    assert.equal(typo.status, 64);
    assert.match(typo.stderr, /Unknown command "craete"\. Did you mean "dropkit create"\?/);
    assert.doesNotMatch(typo.stderr, /dropkit (config|init|completion|-v)\b/);
    assert.match(runCli(root, ["confg"]).stderr, /Did you mean "dropkit config"\?/);
    const far = runCli(root, ["xyzzy"]);
    assert.equal(far.status, 64);
    assert.match(far.stderr, /Unknown command "xyzzy"\. Run dropkit --help for the commands\./);
    assert.doesNotMatch(far.stderr, /Did you mean/);
    const version = JSON.parse(fs.readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version;
    const run = runCli(root, ["version"]);
    assert.deepEqual([run.status, run.stdout, run.stderr], [0, `${version}\n`, ""]);
  });

  test("an unknown flag suggests the command's closest flag; a flag without its value shows the = form for a value starting with -", () => {
    const root = fixture();
    assert.match(runCli(root, ["config", "--confg=x.json"]).stderr, /Unknown flag --confg for dropkit config\. Did you mean --config\?/);
    assert.match(runCli(root, ["config", "--json=1"]).stderr, /--json takes no value, found "--json=1"\./);
    const dash = runCli(root, ["create", "--exclude", "-dash"]);
    assert.equal(dash.status, 64);
    assert.match(
      dash.stderr,
      /--exclude needs a value; "-dash" after it is read as a flag\. For a value that starts with a dash, write --exclude=-dash\./,
    );
    assert.match(runCli(root, ["create", "--theme"]).stderr, /--theme needs a value: --theme=<theme>\./);
    // The = form it suggests is taken.
    assert.equal(runCli(root, ["config", "--exclude=-dash"]).status, 0);
  });

  test("TERM=dumb gets no colour on a terminal; FORCE_COLOR still colours", {
    skip: hasScript() ? false : "needs script(1) for a pseudo-terminal",
  }, () => {
    const root = fixture({ "dropkit.config.json": '{"theme": 3}' });
    const onTty = (env: Record<string, string>, args = "config") =>
      spawnSync("script", ["-qec", `${JSON.stringify(process.execPath)} ${JSON.stringify(cliPath)} ${args}`, "/dev/null"], {
        cwd: root,
        env: { PATH: process.env.PATH ?? "", GIT_CEILING_DIRECTORIES: path.dirname(root), ...env },
        encoding: "utf8",
      }).stdout;
    assert.match(onTty({ TERM: "xterm" }), /\u001b\[31merror/);
    assert.doesNotMatch(onTty({ TERM: "dumb" }), /\u001b\[/);
    assert.doesNotMatch(onTty({ TERM: "dumb" }, "--help"), /\u001b\[/);
    assert.match(onTty({ TERM: "dumb", FORCE_COLOR: "1" }), /\u001b\[31merror/);
  });

  test("a bad module glob in --exclude is a usage error (64)", () => {
    const run = runCli(fixture(), ["config", ...json, "--exclude=a*b"]);
    assert.equal(run.status, 64);
    assert.equal(errorsOf(run)[0]!.source, "--exclude");
  });

  test("--help prints on stdout and exits 0, for the CLI and every command", () => {
    const root = fixture();
    for (const args of [["--help"], ["create", "--help"], ["config", "-h"]]) {
      const run = runCli(root, args);
      assert.equal(run.status, 0);
      assert.match(run.stdout, /dropkit/);
      assert.equal(run.stderr, "");
    }
    assert.match(runCli(root, ["create", "--help"]).stdout, /Create the drop in the working directory/);
  });

  test("--version prints the package version, also after a command", () => {
    const version = JSON.parse(fs.readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version;
    const root = fixture();
    for (const args of [["--version"], ["config", "--version"], ["create", "--version"]]) {
      const run = runCli(root, args);
      assert.equal(run.status, 0);
      assert.equal(run.stdout, `${version}\n`);
    }
    assert.ok(!fs.existsSync(path.join(root, ".dropkit.json")));
  });

  test("colour only on a terminal, and never with NO_COLOR", {
    skip: hasScript() ? false : "needs script(1) for a pseudo-terminal",
  }, () => {
    const root = fixture({ "dropkit.config.json": '{"theme": 3}' });
    const onTty = (env: Record<string, string>) =>
      spawnSync("script", ["-qec", `${JSON.stringify(process.execPath)} ${JSON.stringify(cliPath)} config`, "/dev/null"], {
        cwd: root,
        env: { PATH: process.env.PATH ?? "", GIT_CEILING_DIRECTORIES: path.dirname(root), ...env },
        encoding: "utf8",
      }).stdout;
    assert.match(onTty({}), /\u001b\[31merror/);
    assert.doesNotMatch(onTty({ NO_COLOR: "1" }), /\u001b\[/);
    assert.doesNotMatch(onTty({ FORCE_COLOR: "0" }), /\u001b\[/);
  });

  test("FORCE_COLOR colours off a terminal too (the log and help); NO_COLOR wins over it", () => {
    const root = fixture({ "dropkit.config.json": '{"theme": 3}' });
    assert.match(runCli(root, ["config"], { FORCE_COLOR: "1" }).stderr, /\u001b\[31merror/);
    assert.match(runCli(root, ["--help"], { FORCE_COLOR: "1" }).stdout, /\u001b\[/);
    assert.doesNotMatch(runCli(root, ["config"], { FORCE_COLOR: "1", NO_COLOR: "1" }).stderr, /\u001b\[/);
    assert.doesNotMatch(runCli(root, ["config"], { FORCE_COLOR: "false" }).stderr, /\u001b\[/);
    assert.doesNotMatch(runCli(root, ["config"]).stderr, /\u001b\[/);
  });

  test("config --json implies JSON error records, over DROPKIT_LOG_FORMAT and log.format; --log-format still wins", () => {
    const root = fixture({ "dropkit.config.json": '{"theme": 3, "log": {"format": "text"}}' });
    for (const env of [{}, { DROPKIT_LOG_FORMAT: "text" }]) {
      const run = runCli(root, ["config", "--json"], env);
      assert.equal(run.status, 65);
      assert.equal(run.stdout, "");
      assert.deepEqual(
        run.records.map((r) => r.event),
        ["config", "error"],
      );
      assert.equal(errorsOf(run)[0]!.path, "theme");
    }
    const usage = runCli(root, ["config", "--json", "--nope"]);
    assert.equal(usage.status, 64);
    assert.equal(usage.records[0]!.name, "UsageError");
    const text = runCli(root, ["config", "--json", "--log-format=text"]);
    assert.equal(text.records.length, 0);
    assert.match(text.stderr, /^error +SchemaValidationError/m);
  });

  test("help shows <path>, <glob>, <name> placeholders, never #0, in help and in usage errors", () => {
    const root = fixture();
    const help = runCli(root, ["create", "--help"]).stdout;
    for (const flag of ["--config <path>", "--theme <theme>", "--exclude <glob>", "--preset <name>", "--log-format <text|json>"])
      assert.ok(help.includes(flag), `${flag} in:\n${help}`);
    assert.match(runCli(root, ["config", "--help"]).stdout, /--explain <key>/);
    for (const run of [
      runCli(root, ["create", "--help"]),
      runCli(root, ["config", "--bogus"]),
      runCli(root, ["config", "--bogus", "--log-format=json"]),
      runCli(root, ["--help"]),
    ]) {
      assert.doesNotMatch(run.stdout + run.stderr, /#0/);
    }
  });

  test("dropkit help [command]: the general help with variables and exit codes, or one command's; an unknown one exits 64", () => {
    const root = fixture();
    const general = runCli(root, ["help"]);
    assert.equal(general.status, 0);
    assert.equal(general.stdout, runCli(root, ["--help"]).stdout);
    assert.match(general.stdout, /Environment\n\n {2}DROPKIT_THEME +theme\n/);
    assert.match(general.stdout, /Exit codes\n\n {2}0 +success\n {2}1 +HookFailed\n/);
    assert.match(general.stdout, /\n {2}65 +SchemaValidationError, ConfigSyntaxError, ConfigLoadError/);
    const create = runCli(root, ["help", "create"]);
    assert.equal(create.status, 0);
    assert.equal(create.stdout, runCli(root, ["create", "--help"]).stdout);
    assert.match(create.stdout, /Environment variables and exit codes: dropkit help\n$/);
    assert.match(general.stdout, /dropkit help \[command\]/);
    // The usage printed with a usage error stays short: no footer.
    const none = runCli(root, []);
    assert.equal(none.status, 64);
    assert.doesNotMatch(none.stderr, /Exit codes/);
    const unknown = runCli(root, ["help", "crate"]);
    assert.equal(unknown.status, 64);
    assert.equal(unknown.stdout, "");
    assert.match(unknown.stderr, /Unknown command "crate" for dropkit help\. Did you mean "create"\?/);
  });

  test("the help footer names every variable the core reads, and the core reads every DROPKIT_ variable it names", () => {
    const root = fixture();
    const footer = runCli(root, ["help"]).stdout;
    const listed = [...footer.matchAll(/^ {2}(DROPKIT_[A-Z_]+) /gm)].map((m) => m[1]!).sort();
    // The core's warning about an unknown variable lists every one it reads.
    const warning = eventsOf(runCli(root, ["config", "--log-format=json"], { DROPKIT_NOPE: "1" }), "warning")[0]!.message as string;
    const known = warning
      .slice(warning.indexOf("dropkit reads: ") + "dropkit reads: ".length)
      .replace(/\.$/, "")
      .split(", ")
      .sort();
    assert.deepEqual(listed, known);
  });
});

describe("internal errors", () => {
  test("a damaged install exits 70 asking for a bug report; the stack only with DROPKIT_DEBUG=1", () => {
    // A copy of the package whose wasm core is garbage: a real failure, not a simulated one.
    const install = fixture({ "package.json": fs.readFileSync(new URL("../../package.json", import.meta.url), "utf8") });
    fs.cpSync(path.dirname(cliPath), path.join(install, "dist"), { recursive: true });
    fs.symlinkSync(path.resolve(path.dirname(cliPath), "../node_modules"), path.join(install, "node_modules"));
    fs.writeFileSync(path.join(install, "dist/dropkit.wasm"), "not wasm");
    const drop = fixture();
    const run = (env: Record<string, string>) =>
      spawnSync(process.execPath, [path.join(install, "dist/dropkit.cjs"), "config"], {
        cwd: drop,
        env: { PATH: process.env.PATH ?? "", GIT_CEILING_DIRECTORIES: path.dirname(drop), ...env },
        encoding: "utf8",
      });
    const plain = run({});
    assert.equal(plain.status, 70);
    assert.equal(plain.stdout, "");
    assert.match(plain.stderr, /InternalError \(exit 70\): dropkit failed unexpectedly: .*This is a bug in dropkit: please report it/s);
    assert.doesNotMatch(plain.stderr, /^\s+at /m);
    const debug = run({ DROPKIT_DEBUG: "1" });
    assert.equal(debug.status, 70);
    assert.match(debug.stderr, /^\s+at /m);
  });
});

// --- helpers ---

function hasScript(): boolean {
  return spawnSync("script", ["-qec", "true", "/dev/null"]).status === 0;
}
