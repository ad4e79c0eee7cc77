// Tests for the core's 5-layer merge, presets and staged resolve protocol (assembly/resolve/: merge.ts, resolve.ts, presets.ts).

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { PresetFileInput, ResolveDone, ResolveRequest } from "../../src/core/protocol.js";
import { deriveDecisions, deriveListEntries } from "../../src/core/decisions.js";
import { core, only, positionOf, resolve, resolveDone, resolveOk } from "../helpers/core.js";

const cwd = "/d";
const CONFIG = "/d/cfg/dropkit.config.json";

interface Layers {
  flags?: ResolveRequest["flags"];
  env?: Record<string, string>;
  config?: Record<string, unknown>;
  preset?: Record<string, unknown>;
}

/** Resolves with a local preset file /d/p.json listed by DROPKIT_PRESETS (so that every layer can be set). */
function layered({ flags, env, config, preset }: Layers): ResolveDone {
  return resolveOk({
    cwd,
    explain: true,
    flags,
    env: { DROPKIT_PRESETS: "/d/p.json", ...env },
    config: config ? { source: CONFIG, format: "json", text: JSON.stringify(config, null, 2) } : null,
    presetFiles: [{ ref: "/d/p.json", name: "p", source: "/d/p.json", format: "value", value: preset ?? {} }],
  });
}

/** Reads a dotted key of the resolved config. */
function valueAt(r: ResolveDone, key: string): unknown {
  return key.split(".").reduce<any>((o, k) => o[k], r.config);
}

describe("scalars: the highest layer that sets the value wins", () => {
  interface Case {
    key: string;
    flag?: [string, unknown, unknown];
    env: [string, string, unknown];
    config: unknown;
    preset: unknown;
    resolvedConfig?: unknown;
    resolvedPreset?: unknown;
    fallback: unknown;
  }
  const nest = (key: string, value: unknown) =>
    key.split(".").reduceRight<unknown>((v, k) => ({ [k]: v }), value) as Record<string, unknown>;
  const cases: Case[] = [
    {
      key: "theme",
      flag: ["theme", "fromflag", "fromflag"],
      env: ["DROPKIT_THEME", "fromenv", "fromenv"],
      config: "fromconfig",
      preset: "frompreset",
      fallback: "auto",
    },
    {
      key: "hooks.initScriptsDir",
      env: ["DROPKIT_HOOKS_INIT_SCRIPTS_DIR", "e", "/d/e"],
      config: "c",
      resolvedConfig: "/d/cfg/c",
      preset: "p",
      resolvedPreset: "/d/p",
      fallback: "/d/init-scripts",
    },
    {
      key: "hooks.postScriptsDir",
      env: ["DROPKIT_HOOKS_POST_SCRIPTS_DIR", "e", "/d/e"],
      config: "./c",
      resolvedConfig: "/d/cfg/c",
      preset: "/abs/p",
      fallback: "/d/post-scripts",
    },
    {
      key: "hooks.onFailure",
      env: ["DROPKIT_HOOKS_ON_FAILURE", "continue", "continue"],
      config: "fail",
      preset: "continue",
      fallback: "continue",
    },
    {
      key: "cache.file",
      env: ["DROPKIT_CACHE_FILE", "e.json", "/d/e.json"],
      config: "../c.json",
      resolvedConfig: "/d/c.json",
      preset: "p.json",
      resolvedPreset: "/d/p.json",
      fallback: "/d/.dropkit-cache.json",
    },
    { key: "cache.enabled", env: ["DROPKIT_CACHE_ENABLED", "yes", true], config: false, preset: true, fallback: true },
    {
      key: "log.format",
      flag: ["logFormat", "json", "json"],
      env: ["DROPKIT_LOG_FORMAT", "text", "text"],
      config: "json",
      preset: "text",
      fallback: "text",
    },
  ];
  for (const c of cases) {
    test(c.key, () => {
      const text = JSON.stringify(nest(c.key, c.config), null, 2);
      const column = positionOf(text, JSON.stringify(c.config));
      const all: Layers = {
        flags: c.flag ? { [c.flag[0]]: c.flag[1] } : undefined,
        env: { [c.env[0]]: c.env[1] },
        config: nest(c.key, c.config),
        preset: nest(c.key, c.preset),
      };
      const expected: Array<[string, string, unknown]> = [];
      if (c.flag) expected.push(["cli", c.flag[0] === "logFormat" ? "--log-format" : "--theme", c.flag[2]]);
      expected.push(
        ["env", c.env[0], c.env[2]],
        ["config", `${CONFIG}:${column.line}:${column.column}`, c.resolvedConfig ?? c.config],
        ["preset", "/d/p.json", c.resolvedPreset ?? c.preset],
        ["default", "default", c.fallback],
      );
      const steps: Layers[] = [all, { ...all, flags: undefined }, { ...all, flags: undefined, env: undefined }, { preset: all.preset }, {}];
      if (!c.flag) steps.shift();
      steps.forEach((layers, i) => {
        const r = layered(layers);
        const [layer, source, value] = expected[i];
        assert.deepEqual(r.origins![c.key], { layer, source }, `step ${i}`);
        assert.deepEqual(valueAt(r, c.key), value, `step ${i}`);
        // The explain chain: every layer that set it, winner first, down to the default.
        assert.deepEqual(
          r.explain![c.key].map((l) => [l.layer, l.source, l.value]),
          expected.slice(i),
          `explain at step ${i}`,
        );
        const decision = deriveDecisions(r).find((d) => d.key === c.key)!;
        assert.deepEqual(decision, { key: c.key, value, layer, source });
      });
    });
  }

  test("schema always comes from the config or the default", () => {
    assert.deepEqual(layered({}).origins!.schema, { layer: "default", source: "default" });
    const r = layered({ config: { schema: 1.0 } });
    assert.equal(r.origins!.schema.layer, "config");
    assert.equal(r.config!.schema, 1);
  });

  test("decision records (derived) and origins cover the core's leaves in order", () => {
    const keys = core.describeSchema().leaves.map((leaf) => leaf.key);
    const r = layered({});
    assert.deepEqual(
      deriveDecisions(r).map((d) => d.key),
      keys,
    );
    assert.deepEqual(Object.keys(r.origins!), keys);
    assert.deepEqual(Object.keys(r.explain!), keys);
  });
});

describe("union lists", () => {
  test("gather every layer's entries low to high, without duplicates, each keeping its origin", () => {
    const r = layered({
      flags: { exclude: ["f", "shared"] },
      env: { DROPKIT_MODULES_EXCLUDE: "e,shared", DROPKIT_MODULES_ONLY: "o-env" },
      config: { modules: { exclude: ["c", "shared"], include: ["i-config"] } },
      preset: { modules: { exclude: ["p", "shared"], only: ["o-preset"] } },
    });
    const text = JSON.stringify({ modules: { exclude: ["c", "shared"], include: ["i-config"] } }, null, 2);
    const c = positionOf(text, '"c"');
    assert.deepEqual(r.config!.modules, { include: ["i-config"], exclude: ["p", "shared", "c", "e", "f"], only: ["o-preset", "o-env"] });
    assert.deepEqual(
      deriveListEntries(r)["modules.exclude"]!.map((e) => [e.value, e.layer, e.source]),
      [
        ["p", "preset", "/d/p.json"],
        ["shared", "preset", "/d/p.json"],
        ["c", "config", `${CONFIG}:${c.line}:${c.column}`],
        ["e", "env", "DROPKIT_MODULES_EXCLUDE"],
        ["f", "cli", "--exclude"],
      ],
    );
    // The origin of a union list is the highest layer that contributed; `entries` has each item's, in the list's order.
    assert.deepEqual(r.origins!["modules.exclude"], {
      layer: "cli",
      source: "--exclude",
      entries: [
        ["preset", "/d/p.json"],
        ["preset", "/d/p.json"],
        ["config", `${CONFIG}:${c.line}:${c.column}`],
        ["env", "DROPKIT_MODULES_EXCLUDE"],
        ["cli", "--exclude"],
      ].map(([layer, source]) => ({ layer, source })),
    });
    assert.deepEqual(r.origins!["modules.only"], {
      layer: "env",
      source: "DROPKIT_MODULES_ONLY",
      entries: [
        { layer: "preset", source: "/d/p.json" },
        { layer: "env", source: "DROPKIT_MODULES_ONLY" },
      ],
    });
    assert.equal(r.origins!["modules.include"].layer, "config");
    assert.deepEqual(
      r.explain!["modules.exclude"].map((l) => [l.layer, l.value]),
      [
        ["cli", ["f", "shared"]],
        ["env", ["e", "shared"]],
        ["config", ["c", "shared"]],
        ["preset", ["p", "shared"]],
        ["default", []],
      ],
    );
  });

  test("a list set empty by a higher layer does not hide lower entries", () => {
    const r = layered({ env: { DROPKIT_MODULES_INCLUDE: "" }, config: { modules: { include: ["a"] } } });
    assert.deepEqual(r.config!.modules.include, ["a"]);
    assert.equal(r.origins!["modules.include"].layer, "config");
  });
});

describe("presets and presetsSearchPath are replaced by the highest layer", () => {
  test("flags replace env replace config", () => {
    const base = { cwd, files: [] as string[], config: { source: CONFIG, format: "json" as const, text: '{"presets": ["standard"]}' } };
    const fromConfig = resolveOk(base);
    assert.deepEqual([fromConfig.config!.presets, fromConfig.origins!.presets.layer], [["standard"], "config"]);
    assert.deepEqual(
      fromConfig.presets!.applied.map((p) => p.name),
      ["standard"],
    );
    const fromEnv = resolveOk({ ...base, env: { DROPKIT_PRESETS: "none" } });
    assert.deepEqual([fromEnv.config!.presets, fromEnv.origins!.presets], [["none"], { layer: "env", source: "DROPKIT_PRESETS" }]);
    assert.deepEqual(
      fromEnv.presets!.applied.map((p) => p.name),
      ["none"],
    );
    assert.deepEqual(fromEnv.config!.modules.exclude, []);
    const fromFlag = resolveOk({ ...base, env: { DROPKIT_PRESETS: "none" }, flags: { preset: ["standard"] }, explain: true });
    assert.deepEqual([fromFlag.config!.presets, fromFlag.origins!.presets], [["standard"], { layer: "cli", source: "--preset" }]);
    assert.deepEqual(
      fromFlag.explain!.presets.map((l) => [l.layer, l.value]),
      [
        ["cli", ["standard"]],
        ["env", ["none"]],
        ["config", ["standard"]],
      ],
    );
  });

  test("presetsSearchPath from the environment replaces the config's entirely", () => {
    const r = resolve({
      cwd,
      env: { DROPKIT_PRESETS_SEARCH_PATH: "a" },
      config: { source: CONFIG, format: "json", text: '{"presetsSearchPath": ["b", "c"]}' },
    });
    assert.equal(r.stage, "presets");
    assert.deepEqual(r.stage === "presets" && r.needs.searchPath, ["/d/a"]);
  });

  test("an empty --preset list is no flag at all", () => {
    const r = resolveOk({ cwd, flags: { preset: [] }, env: { DROPKIT_PRESETS: "none" } });
    assert.equal(r.origins!.presets.layer, "env");
  });
});

describe("several presets", () => {
  const files: PresetFileInput[] = [
    {
      ref: "a",
      name: "a",
      source: "/d/presets/a.json",
      format: "json",
      text: '{"theme": "from-a", "hooks": {"onFailure": "fail"}, "modules": {"exclude": ["x"]}}',
    },
    { ref: "b", name: "b", source: "/d/presets/b.json", format: "json", text: '{"theme": "from-b", "modules": {"exclude": ["y", "x"]}}' },
  ];

  test("a later preset wins over an earlier one", () => {
    const r = resolveOk({ cwd, flags: { preset: ["a", "b"] }, presetFiles: files, explain: true });
    assert.equal(r.config!.theme, "from-b");
    assert.deepEqual(r.origins!.theme, { layer: "preset", source: "/d/presets/b.json:1:11" });
    assert.deepEqual(
      r.explain!.theme.map((l) => [l.source, l.value]),
      [
        ["/d/presets/b.json:1:11", "from-b"],
        ["/d/presets/a.json:1:11", "from-a"],
        ["default", "auto"],
      ],
    );
    assert.equal(r.config!.hooks.onFailure, "fail");
    // Union: earlier preset's entries first.
    assert.deepEqual(r.config!.modules.exclude, ["x", "y"]);
    assert.deepEqual(
      r.presets!.applied.map((p) => [p.name, p.reason]),
      [
        ["a", "listed in presets (--preset)"],
        ["b", "listed in presets (--preset)"],
      ],
    );
  });

  test("reversing the list reverses the winner", () => {
    const r = resolveOk({ cwd, flags: { preset: ["b", "a"] }, presetFiles: files });
    assert.equal(r.config!.theme, "from-a");
    assert.deepEqual(r.config!.modules.exclude, ["y", "x"]);
  });

  test("a bundled preset applies by name and its values' source is its name", () => {
    const r = resolveOk({ cwd, config: { source: CONFIG, format: "json", text: '{"presets": ["standard"]}' } });
    assert.deepEqual(r.origins!["hooks.onFailure"], { layer: "preset", source: "standard" });
    assert.deepEqual(deriveListEntries(r)["modules.exclude"], [
      { value: "test-*", layer: "preset", source: "standard" },
      { value: "dev-*", layer: "preset", source: "standard" },
    ]);
  });
});

describe("origins and relative paths", () => {
  test("JSON sources are file:line:column of the value", () => {
    const text = '{\n  "log": {\n    "format": "json"\n  }\n}';
    const r = resolveOk({ cwd, env: { DROPKIT_PRESETS: "" }, config: { source: CONFIG, format: "json", text } });
    assert.deepEqual(r.origins!["log.format"], { layer: "config", source: `${CONFIG}:3:15` });
    assert.equal(r.logFormat, "json");
  });

  test("config paths resolve against the config's directory; flags, env and defaults against cwd", () => {
    const r = resolveOk({
      cwd: "/w/drop",
      explain: true,
      flags: { theme: "t/flag.zip" },
      env: { DROPKIT_PRESETS: "", DROPKIT_CACHE_FILE: "env-cache.json" },
      config: {
        source: "/w/conf/sub/dropkit.config.json",
        format: "json",
        text: '{"theme": "../x.zip", "hooks": {"initScriptsDir": "init"}, "presetsSearchPath": []}',
      },
    });
    assert.equal(r.config!.theme, "/w/drop/t/flag.zip");
    assert.equal(r.explain!.theme[1].value, "/w/conf/x.zip");
    assert.equal(r.config!.hooks.initScriptsDir, "/w/conf/sub/init");
    assert.equal(r.config!.hooks.postScriptsDir, "/w/drop/post-scripts");
    assert.equal(r.config!.cache.file, "/w/drop/env-cache.json");
  });

  test("a config source that is not an absolute path resolves against cwd", () => {
    const r = resolveOk({
      cwd,
      env: { DROPKIT_PRESETS: "" },
      config: { source: "<stdin>", format: "json", text: '{"cache": {"file": "c"}}' },
    });
    assert.equal(r.config!.cache.file, "/d/c");
  });
});

describe("flags", () => {
  test("bad values are UsageErrors (exit 64) naming the flag, all reported with other layers' errors", () => {
    const r = resolveDone({
      cwd,
      flags: { theme: "a/b", logFormat: "xml", exclude: ["ok", "a*b"], preset: [""] },
      env: { DROPKIT_CACHE_ENABLED: "maybe" },
      config: { source: CONFIG, format: "json", text: '{"theme": 1}' },
    });
    assert.equal(r.ok, false);
    assert.deepEqual(
      r.errors.map((e) => [e.name, e.exitCode, e.path, e.source]),
      [
        ["UsageError", 64, "theme", "--theme"],
        ["UsageError", 64, "log.format", "--log-format"],
        ["UsageError", 64, "modules.exclude", "--exclude"],
        ["UsageError", 64, "presets", "--preset"],
        ["SchemaValidationError", 65, "cache.enabled", "DROPKIT_CACHE_ENABLED"],
        ["SchemaValidationError", 65, "theme", `${CONFIG}:1:11`],
      ],
    );
    assert.equal(r.errors[1].message, 'Invalid value for --log-format: expected one of "text", "json", found "xml".');
  });

  test("the log format for reporting errors comes from whatever parsed", () => {
    const r = resolveDone({ cwd, flags: { theme: "a/b" }, env: { DROPKIT_LOG_FORMAT: "json" } });
    assert.deepEqual([r.ok, r.logFormat], [false, "json"]);
  });
});

describe("the staged resolve protocol", () => {
  test("stage presets: a search path or a path entry asks for files first", () => {
    const r = resolve({ cwd, flags: { preset: ["standard", "./mine.json", "other"] }, env: { DROPKIT_PRESETS_SEARCH_PATH: "ps" } });
    assert.deepEqual(r, {
      ok: true,
      stage: "presets",
      logFormat: "text",
      warnings: [],
      needs: {
        mode: "list",
        presets: [
          { ref: "standard", kind: "name" },
          { ref: "/d/mine.json", kind: "path" },
          { ref: "other", kind: "name" },
        ],
        searchPath: ["/d/ps"],
      },
    });
  });

  test("stage presets in auto mode lists the search path", () => {
    const r = resolve({ cwd, config: { source: CONFIG, format: "json", text: '{"presetsSearchPath": ["../presets"]}' } });
    assert.deepEqual(r.stage === "presets" && r.needs, { mode: "auto", presets: [], searchPath: ["/d/presets"] });
  });

  test("the second call with presetFiles applies them; refs resolve local names before bundled ones", () => {
    const r = resolveOk({
      cwd,
      flags: { preset: ["standard", "./mine.json"] },
      env: { DROPKIT_PRESETS_SEARCH_PATH: "ps" },
      presetFiles: [
        { ref: "standard", name: "standard", source: "/d/ps/standard.json", format: "json", text: '{"theme": "local-standard"}' },
        { ref: "/d/mine.json", name: "mine", source: "/d/mine.json", format: "json", text: '{"cache": {"enabled": false}}' },
      ],
    });
    assert.equal(r.config!.theme, "local-standard");
    assert.deepEqual(r.config!.modules.exclude, []);
    assert.equal(r.config!.cache.enabled, false);
    assert.deepEqual(
      r.presets!.applied.map((p) => p.source),
      ["/d/ps/standard.json", "/d/mine.json"],
    );
  });

  test("stage detect: auto mode asks which detect globs match, bundled first, then local by name", () => {
    const presetFiles: PresetFileInput[] = [
      { name: "zeta", source: "/d/ps/zeta.json", format: "json", text: '{"detect": ["docs/*.md"], "theme": "z"}' },
      { name: "alpha", source: "/d/ps/alpha.ts", format: "value", value: { detect: ["*.txt", "src/**/*.ts"], theme: "a" } },
      { name: "plain", source: "/d/ps/plain.json", format: "json", text: '{"theme": "p"}' },
    ];
    const base = { cwd, env: { DROPKIT_PRESETS_SEARCH_PATH: "ps" }, presetFiles };
    const staged = resolve(base);
    assert.deepEqual(staged.stage === "detect" && staged.needs.detect, [
      { id: "standard", name: "standard", globs: ["*.zip"] },
      { id: "/d/ps/alpha.ts", name: "alpha", globs: ["*.txt", "src/**/*.ts"] },
      { id: "/d/ps/zeta.json", name: "zeta", globs: ["docs/*.md"] },
    ]);

    // Answers from a host that globbed: later (by name) presets win.
    const viaDetected = resolveOk({
      ...base,
      detected: { standard: "*.zip", "/d/ps/alpha.ts": "src/**/*.ts", "/d/ps/zeta.json": "docs/*.md" },
    });
    assert.deepEqual(
      viaDetected.presets!.applied.map((p) => [p.name, p.glob]),
      [
        ["standard", "*.zip"],
        ["alpha", "src/**/*.ts"],
        ["zeta", "docs/*.md"],
      ],
    );
    assert.equal(viaDetected.config!.theme, "z");
    assert.deepEqual(viaDetected.config!.presets, ["standard", "alpha", "zeta"]);
    assert.deepEqual(viaDetected.origins!.presets, { layer: "default", source: "auto-detect" });
    assert.deepEqual(
      viaDetected.presets!.skipped.map((p) => p.name),
      ["none", "plain"],
    );

    // Or files, matched by the core.
    const viaFiles = resolveOk({ ...base, files: ["src/lib/x.ts", "README.md"] });
    assert.deepEqual(
      viaFiles.presets!.applied.map((p) => [p.name, p.glob, p.reason]),
      [["alpha", "src/**/*.ts", "detected: src/**/*.ts matched a file in the working directory"]],
    );
    assert.equal(viaFiles.config!.theme, "a");
    const standard = viaFiles.presets!.skipped.find((p) => p.name === "standard")!;
    assert.equal(standard.reason, "not detected: no file matched *.zip");
  });

  test("with nothing to look up, auto mode asks only about the bundled presets, and null means not detected", () => {
    const staged = resolve({ cwd });
    assert.deepEqual(staged, {
      ok: true,
      stage: "detect",
      logFormat: "text",
      needs: { detect: [{ id: "standard", name: "standard", globs: ["*.zip"] }] },
      warnings: [],
    });
    const r = resolveOk({ cwd, detected: { standard: null } });
    assert.deepEqual([r.presets!.applied, r.config!.presets], [[], []]);
  });

  test("a listed preset skips detection entirely", () => {
    assert.equal(resolve({ cwd, flags: { preset: ["none"] } }).stage, "done");
  });
});

describe("detect globs matched by the core over files", () => {
  const cases: Array<[string, string, boolean]> = [
    ["*.zip", "a.zip", true],
    ["*.zip", "d/a.zip", false],
    ["./*.zip", "./x.zip", true],
    ["*.md", "a.md.txt", false],
    ["src/**/*.ts", "src/x.ts", true],
    ["src/**/*.ts", "src/lib/x.ts", true],
    ["src/**/*.ts", "src/a/b/c/x.ts", true],
    ["src/**/x.ts", "src/ab/x.ts", true],
    ["src/**/x.ts", "src/ab/cx.ts", false],
    ["**/*.md", "a.md", true],
    ["**/*.md", "docs/a.md", true],
    ["**/a/**/b", "x/a/y/z/b", true],
    ["**/a/**/b", "x/ab/b", false],
    ["src/**", "src/a/b", true],
    ["docs/*/*.md", "docs/a/b.md", true],
    ["docs/*/*.md", "docs/a/c/b.md", false],
    ["?.txt", "a.txt", true],
    ["?.txt", "ab.txt", false],
    ["[ab].txt", "b.txt", true],
    ["[!ab].txt", "b.txt", false],
    ["[a-c]?", "bz", true],
  ];
  for (const [glob, file, expected] of cases) {
    test(`${glob} ${expected ? "matches" : "does not match"} ${file}`, () => {
      const r = resolveOk({
        cwd,
        env: { DROPKIT_PRESETS_SEARCH_PATH: "ps" },
        presetFiles: [{ name: "p", source: "/d/ps/p.json", format: "value", value: { detect: [glob] } }],
        files: ["unrelated.txt", file],
      });
      assert.equal(
        r.presets!.applied.some((a) => a.name === "p"),
        expected,
      );
    });
  }
});

describe("PresetNotFound", () => {
  const cases: Array<[string, ResolveRequest, string]> = [
    ["a flag", { cwd, flags: { preset: ["standrd"] } }, "--preset"],
    ["the environment", { cwd, env: { DROPKIT_PRESETS: "none,standrd" } }, "DROPKIT_PRESETS"],
    ["the config", { cwd, config: { source: CONFIG, format: "json", text: '{"presets": ["standrd"]}' } }, `${CONFIG}:1:14`],
  ];
  for (const [where, request, source] of cases) {
    test(`an unknown name from ${where} exits 67 with the available presets and a suggestion`, () => {
      const r = resolveDone({ ...request, presetNames: ["mine", "house"] });
      assert.equal(r.ok, false);
      const e = only(r.errors);
      assert.deepEqual([e.name, e.exitCode, e.path, e.source], ["PresetNotFound", 67, "presets", source]);
      assert.equal(e.message, 'Unknown preset "standrd". Did you mean "standard"? Available presets: none, standard, mine, house.');
    });
  }

  test("a preset path the host could not find", () => {
    const r = resolveDone({ cwd, flags: { preset: ["./gone.json"] }, presetFiles: [] });
    const e = only(r.errors);
    assert.deepEqual([e.name, e.exitCode, e.source], ["PresetNotFound", 67, "--preset"]);
    assert.equal(e.message, "Preset file not found: /d/gone.json. Check the path, or name a preset: none, standard.");
  });

  test("no suggestion for a name far from all", () => {
    const far = only(resolveDone({ cwd, flags: { preset: ["qqqqqqqq"] } }).errors);
    assert.deepEqual([far.code, far.suggestion], ["PresetNotFound", undefined]);
    assert.doesNotMatch(far.message, /Did you mean/);
  });
});

describe("preset file validation", () => {
  test("a listed preset file with problems is a SchemaValidationError (exit 65) at its positions", () => {
    const r = resolveDone({
      cwd,
      flags: { preset: ["./p.json"] },
      presetFiles: [{ ref: "/d/p.json", name: "p", source: "/d/p.json", format: "json", text: '{\n  "schema": 1,\n  "theme": 2\n}' }],
    });
    assert.equal(r.ok, false);
    assert.deepEqual(
      r.errors.map((e) => [e.name, e.exitCode, e.path, e.source]),
      [
        ["SchemaValidationError", 65, "schema", "/d/p.json:2:3"],
        ["SchemaValidationError", 65, "theme", "/d/p.json:3:12"],
      ],
    );
  });

  test("a preset file in the search path that does not parse fails auto mode (exit 65)", () => {
    const r = resolveDone({
      cwd,
      env: { DROPKIT_PRESETS_SEARCH_PATH: "ps" },
      presetFiles: [{ name: "bad", source: "/d/ps/bad.json", format: "json", text: '{"theme": }' }],
    });
    const e = only(r.errors);
    assert.deepEqual([e.name, e.exitCode, e.source], ["ConfigSyntaxError", 65, "/d/ps/bad.json:1:11"]);
  });

  test("a .ts preset value with presets in it", () => {
    const r = resolveDone({
      cwd,
      flags: { preset: ["./p.ts"] },
      presetFiles: [{ ref: "/d/p.ts", source: "/d/p.ts", format: "value", value: { presets: ["standard"] } }],
    });
    const e = only(r.errors);
    assert.deepEqual(
      [e.path, e.source, e.message],
      [
        "presets",
        "/d/p.ts",
        '"presets" is not allowed in a preset: a preset holds only theme, modules, exclude, hooks, cache, log and detect.',
      ],
    );
  });
});
