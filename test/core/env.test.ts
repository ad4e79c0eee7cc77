// Tests for the core's DROPKIT_* environment layer (assembly/resolve/env.ts) through the resolve op.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ResolveDone } from "../../src/core/protocol.js";
import { only, resolve, resolveDone, resolveOk } from "../helpers/core.js";

const cwd = "/work/drop";

/** Resolves with only an environment (and no presets, so no stages). */
function withEnv(env: Record<string, string>): ResolveDone {
  return resolveDone({ cwd, env: { DROPKIT_PRESETS: "", ...env } });
}

function origin(r: ResolveDone, key: string) {
  return r.origins![key];
}

describe("lists", () => {
  test("are comma-separated with blanks trimmed and empty items dropped", () => {
    const r = withEnv({ DROPKIT_MODULES_EXCLUDE: " a , b,,c , ", DROPKIT_MODULES_INCLUDE: "x", DROPKIT_MODULES_ONLY: "shop-*,blog" });
    assert.equal(r.ok, true);
    assert.deepEqual(r.config!.modules, { include: ["x"], exclude: ["a", "b", "c"], only: ["shop-*", "blog"] });
    const env = { layer: "env", source: "DROPKIT_MODULES_EXCLUDE" };
    assert.deepEqual(origin(r, "modules.exclude"), { ...env, entries: [env, env, env] });
  });

  test("an empty variable is an empty list that is set (DROPKIT_PRESETS= means no presets, not auto-detect)", () => {
    const r = resolveOk({ cwd, env: { DROPKIT_PRESETS: "" } });
    assert.equal(r.presets!.mode, "list");
    assert.deepEqual(r.config!.presets, []);
    assert.deepEqual(origin(r, "presets"), { layer: "env", source: "DROPKIT_PRESETS" });
    // Only blanks and commas: also empty.
    const blank = resolveOk({ cwd, env: { DROPKIT_PRESETS: " , ," } });
    assert.deepEqual(blank.config!.presets, []);
    assert.equal(blank.presets!.mode, "list");
  });

  test("an empty presets search path replaces a config's", () => {
    const r = resolveOk({
      cwd,
      env: { DROPKIT_PRESETS: "", DROPKIT_PRESETS_SEARCH_PATH: "" },
      config: { source: "/work/drop/dropkit.config.json", format: "json", text: '{"presetsSearchPath": ["p"]}' },
    });
    assert.deepEqual(r.config!.presetsSearchPath, []);
    assert.deepEqual(origin(r, "presetsSearchPath"), { layer: "env", source: "DROPKIT_PRESETS_SEARCH_PATH" });
  });

  test("paths in lists resolve against the working directory", () => {
    const r = resolve({ cwd, env: { DROPKIT_PRESETS_SEARCH_PATH: "presets, ../shared,/abs" } });
    assert.equal(r.stage, "presets");
    assert.deepEqual(r.stage === "presets" && r.needs.searchPath, ["/work/drop/presets", "/work/shared", "/abs"]);
  });

  test("an invalid item is a SchemaValidationError naming the variable, with the item's index", () => {
    const r = withEnv({ DROPKIT_MODULES_EXCLUDE: "ok, a/b,, c*d" });
    assert.equal(r.ok, false);
    assert.deepEqual(
      r.errors.map((e) => [e.name, e.exitCode, e.path, e.source]),
      [
        ["SchemaValidationError", 65, "modules.exclude[1]", "DROPKIT_MODULES_EXCLUDE"],
        ["SchemaValidationError", 65, "modules.exclude[2]", "DROPKIT_MODULES_EXCLUDE"],
      ],
    );
    assert.match(r.errors[0].message, /^Invalid value in DROPKIT_MODULES_EXCLUDE: .*not a path, found "a\/b"\.$/);
    assert.ok(!("line" in r.errors[0]));
  });
});

describe("booleans", () => {
  const truthy = ["true", "1", "yes", "TRUE", "Yes", " yes "];
  const falsy = ["false", "0", "no", "False", "NO"];
  for (const value of truthy) {
    test(`${JSON.stringify(value)} is true`, () => {
      const r = resolveOk({
        cwd,
        env: { DROPKIT_PRESETS: "", DROPKIT_CACHE_ENABLED: value },
        config: { source: "/c.json", format: "json", text: '{"cache": {"enabled": false}}' },
      });
      assert.equal(r.config!.cache.enabled, true);
      assert.deepEqual(origin(r, "cache.enabled"), { layer: "env", source: "DROPKIT_CACHE_ENABLED" });
    });
  }
  for (const value of falsy) {
    test(`${JSON.stringify(value)} is false`, () => {
      const r = withEnv({ DROPKIT_CACHE_ENABLED: value });
      assert.equal(r.config!.cache.enabled, false);
    });
  }

  test("anything else is an error naming the variable; path is the leaf", () => {
    for (const value of ["on", "2", "y", "truee"]) {
      const e = only(withEnv({ DROPKIT_CACHE_ENABLED: value }).errors);
      assert.deepEqual([e.name, e.path, e.source], ["SchemaValidationError", "cache.enabled", "DROPKIT_CACHE_ENABLED"]);
      assert.equal(e.message, `Invalid value in DROPKIT_CACHE_ENABLED: expected true, false, 1, 0, yes or no, found "${value}".`);
    }
  });
});

describe("scalars", () => {
  test("every scalar variable sets its leaf, paths against the working directory", () => {
    const r = withEnv({
      DROPKIT_THEME: "ocean",
      DROPKIT_HOOKS_INIT_SCRIPTS_DIR: "scripts/init",
      DROPKIT_HOOKS_POST_SCRIPTS_DIR: "/abs/post",
      DROPKIT_HOOKS_ON_FAILURE: "fail",
      DROPKIT_CACHE_FILE: "../cache.json",
      DROPKIT_LOG_FORMAT: "json",
    });
    assert.equal(r.ok, true);
    assert.equal(r.config!.theme, "ocean");
    assert.deepEqual(r.config!.hooks, { initScriptsDir: "/work/drop/scripts/init", postScriptsDir: "/abs/post", onFailure: "fail" });
    assert.equal(r.config!.cache.file, "/work/cache.json");
    assert.equal(r.config!.log.format, "json");
    assert.equal(r.logFormat, "json");
    for (const [key, variable] of [
      ["theme", "DROPKIT_THEME"],
      ["hooks.initScriptsDir", "DROPKIT_HOOKS_INIT_SCRIPTS_DIR"],
      ["hooks.postScriptsDir", "DROPKIT_HOOKS_POST_SCRIPTS_DIR"],
      ["hooks.onFailure", "DROPKIT_HOOKS_ON_FAILURE"],
      ["cache.file", "DROPKIT_CACHE_FILE"],
      ["log.format", "DROPKIT_LOG_FORMAT"],
    ]) {
      assert.deepEqual(origin(r, key), { layer: "env", source: variable }, key);
    }
  });

  test("a .zip theme from the environment resolves against the working directory", () => {
    assert.equal(withEnv({ DROPKIT_THEME: "themes/ocean.zip" }).config!.theme, "/work/drop/themes/ocean.zip");
  });

  test("an empty (or blank) scalar counts as unset", () => {
    const r = resolveOk({
      cwd,
      env: { DROPKIT_PRESETS: "", DROPKIT_THEME: "", DROPKIT_LOG_FORMAT: "  ", DROPKIT_CACHE_ENABLED: "", DROPKIT_CACHE_FILE: "" },
      config: { source: "/work/drop/dropkit.config.json", format: "json", text: '{"theme": "sea"}' },
    });
    assert.deepEqual(origin(r, "theme"), { layer: "config", source: "/work/drop/dropkit.config.json:1:11" });
    assert.deepEqual(origin(r, "log.format"), { layer: "default", source: "default" });
    assert.deepEqual(origin(r, "cache.enabled"), { layer: "default", source: "default" });
    assert.deepEqual(origin(r, "cache.file"), { layer: "default", source: "default" });
    assert.deepEqual(r.errors, []);
  });

  test("invalid values are SchemaValidationErrors naming the variable, all reported together", () => {
    const r = withEnv({ DROPKIT_THEME: "a/b", DROPKIT_HOOKS_ON_FAILURE: "stop", DROPKIT_LOG_FORMAT: "jsn" });
    assert.equal(r.ok, false);
    assert.deepEqual(
      r.errors.map((e) => [e.name, e.exitCode, e.path, e.source]),
      [
        ["SchemaValidationError", 65, "theme", "DROPKIT_THEME"],
        ["SchemaValidationError", 65, "hooks.onFailure", "DROPKIT_HOOKS_ON_FAILURE"],
        ["SchemaValidationError", 65, "log.format", "DROPKIT_LOG_FORMAT"],
      ],
    );
    assert.equal(
      r.errors[2].message,
      'Invalid value in DROPKIT_LOG_FORMAT: expected one of "text", "json" (did you mean "json"?), found "jsn".',
    );
    assert.deepEqual(
      r.errors.map((e) => [e.code, e.found, e.suggestion, e.expected]),
      [
        ["ThemePath", "a/b", undefined, undefined],
        ["NotOneOf", "stop", undefined, ["continue", "fail"]],
        ["NotOneOf", "jsn", "json", ["text", "json"]],
      ],
    );
  });
});

describe("unknown variables", () => {
  test("an unknown DROPKIT_ variable is a warning with a suggestion, not an error", () => {
    const r = withEnv({ DROPKIT_THEMES: "x" });
    assert.equal(r.ok, true);
    const w = only(r.warnings);
    assert.equal(w.source, "DROPKIT_THEMES");
    assert.match(
      w.message,
      /^Unknown environment variable DROPKIT_THEMES is ignored\. Did you mean DROPKIT_THEME\? dropkit reads: DROPKIT_THEME, /,
    );
    assert.equal(r.config!.theme, "auto");
  });

  test("a misspelt nested name suggests the right one", () => {
    assert.equal(only(withEnv({ DROPKIT_CACHE_ENABLE: "1" }).warnings).suggestion, "DROPKIT_CACHE_ENABLED");
    assert.equal(only(withEnv({ DROPKIT_HOOKS_ONFAILURE: "fail" }).warnings).suggestion, "DROPKIT_HOOKS_ON_FAILURE");
  });

  test("a name that stops short of known ones names the one it can mean, or lists them all: never a guess across settings", () => {
    assert.match(only(withEnv({ DROPKIT_LOG: "json" }).warnings).message, /Did you mean DROPKIT_LOG_FORMAT\?/);
    // DROPKIT_CACHE is three edits from DROPKIT_THEME, but it means a cache setting: both are listed, and no single name.
    const cache = only(withEnv({ DROPKIT_CACHE: "0" }).warnings).message;
    assert.match(cache, /Did you mean one of DROPKIT_CACHE_FILE, DROPKIT_CACHE_ENABLED\?/);
    assert.doesNotMatch(cache, /DROPKIT_THEME\?/);
    assert.doesNotMatch(only(withEnv({ DROPKIT_CACHE_X: "0" }).warnings).message, /Did you mean/);
  });

  test("no suggestion when nothing is close", () => {
    const w = only(withEnv({ DROPKIT_SOMETHING_ELSE_ENTIRELY: "1" }).warnings);
    assert.doesNotMatch(w.message, /Did you mean/);
  });

  test("DROPKIT_CONFIG, DROPKIT_HOOK_TIMEOUT, DROPKIT_DEBUG and DROPKIT_SAFE_DIRECTORIES are the host's: no warning", () => {
    const r = withEnv({
      DROPKIT_CONFIG: "/x/dropkit.config.json",
      DROPKIT_HOOK_TIMEOUT: "30",
      DROPKIT_DEBUG: "1",
      DROPKIT_SAFE_DIRECTORIES: "/srv/drops",
    });
    assert.deepEqual(r.warnings, []);
    assert.equal(r.ok, true);
  });

  test("DROPKIT_HOOK_TIMEOUT: seconds, decimals allowed, in the answer as hookTimeoutMs; unset or blank leaves it out", () => {
    assert.equal(withEnv({}).hookTimeoutMs, undefined);
    assert.equal(withEnv({ DROPKIT_HOOK_TIMEOUT: "" }).hookTimeoutMs, undefined);
    assert.equal(withEnv({ DROPKIT_HOOK_TIMEOUT: "  " }).hookTimeoutMs, undefined);
    assert.equal(withEnv({ DROPKIT_HOOK_TIMEOUT: "120" }).hookTimeoutMs, 120_000);
    assert.equal(withEnv({ DROPKIT_HOOK_TIMEOUT: " 1.5 " }).hookTimeoutMs, 1500);
    assert.equal(withEnv({ DROPKIT_HOOK_TIMEOUT: "0.0015" }).hookTimeoutMs, 2);
    assert.equal(withEnv({ DROPKIT_HOOK_TIMEOUT: "2147483.647" }).hookTimeoutMs, 2 ** 31 - 1);
  });

  for (const bad of [
    "0",
    "-1",
    "abc",
    "1e3",
    "10s",
    "Infinity",
    "0.0001",
    "1.",
    ".5",
    "3000000",
    "2147483.648",
    "99999999",
    "99999999999999999999999",
  ]) {
    test(`DROPKIT_HOOK_TIMEOUT=${JSON.stringify(bad)} is a SchemaValidationError naming the variable`, () => {
      const r = withEnv({ DROPKIT_HOOK_TIMEOUT: bad });
      assert.equal(r.ok, false);
      const e = only(r.errors);
      assert.equal(e.name, "SchemaValidationError");
      assert.equal(e.exitCode, 65);
      assert.equal(e.source, "DROPKIT_HOOK_TIMEOUT");
      assert.equal(e.path, "");
      assert.equal(e.message, `DROPKIT_HOOK_TIMEOUT must be a positive number of seconds up to 2147483, e.g. 120; got "${bad}".`);
      assert.equal(r.hookTimeoutMs, undefined);
      // The problem marks no key of the config: the resolved values stand.
      assert.deepEqual(r.invalid, []);
    });
  }

  test("variables without the DROPKIT_ prefix are ignored", () => {
    const r = withEnv({ PATH: "/bin", dropkit_theme: "x", DROPKIT: "1" });
    assert.deepEqual(r.warnings, []);
    assert.equal(r.config!.theme, "auto");
  });

  test("warnings come back with errors too, and at the presets stage", () => {
    const failed = withEnv({ DROPKIT_THEMEX: "x", DROPKIT_LOG_FORMAT: "xml" });
    assert.equal(failed.ok, false);
    assert.equal(only(failed.warnings).source, "DROPKIT_THEMEX");
    const staged = resolve({ cwd, env: { DROPKIT_THEMEX: "x", DROPKIT_PRESETS: "./p.json" } });
    assert.equal(staged.stage, "presets");
    assert.equal(only(staged.warnings).source, "DROPKIT_THEMEX");
  });
});
