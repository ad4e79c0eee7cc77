// Tests for resolve's answer with problems (docs/abi.md, "With problems"): what the valid values give, and which keys are invalid.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { deriveDecisions } from "../../src/core/decisions.js";
import { openAbi } from "../../scripts/lib/abi.js";
import { positionOf, resolveDone } from "../helpers/core.js";

const cwd = "/d";
const CONFIG = "/d/dropkit.config.json";

function withConfig(text: string, extra: object = {}) {
  return resolveDone({ cwd, presetFiles: [], files: [], config: { source: CONFIG, format: "json", text }, ...extra });
}

describe("an answer with problems still has what the valid values give", () => {
  test("an invalid value is left out: the next layer down applies, and its key is invalid", () => {
    const text = '{"theme": "a/b", "presets": ["standard"], "cache": {"enabled": false}}';
    const r = withConfig(text, { env: { DROPKIT_THEME: "" } });
    assert.equal(r.ok, false);
    assert.deepEqual(
      r.errors.map((e) => e.path),
      ["theme"],
    );
    assert.deepEqual(r.invalid, ["theme"]);
    // theme: what applies meanwhile, from the default; the valid values of the config and the preset apply.
    assert.equal(r.config!.theme, "auto");
    assert.deepEqual(r.origins!.theme, { layer: "default", source: "default" });
    assert.equal(r.config!.cache.enabled, false);
    assert.deepEqual(r.origins!["cache.enabled"], { layer: "config", source: `${CONFIG}:1:${positionOf(text, "false").column}` });
    assert.equal(r.config!.hooks.onFailure, "fail");
    assert.deepEqual(
      r.presets!.applied.map((p) => p.name),
      ["standard"],
    );
    assert.equal(deriveDecisions(r).length, 13);
  });

  test("a lower layer's value shows for an invalid higher one", () => {
    const r = resolveDone({
      cwd,
      presetFiles: [],
      files: [],
      flags: { logFormat: "xml" },
      env: { DROPKIT_LOG_FORMAT: "json", DROPKIT_CACHE_ENABLED: "maybe" },
    });
    assert.deepEqual(r.invalid, ["cache.enabled", "log.format"]);
    assert.deepEqual([r.config!.log.format, r.origins!["log.format"]], ["json", { layer: "env", source: "DROPKIT_LOG_FORMAT" }]);
    assert.deepEqual([r.config!.cache.enabled, r.origins!["cache.enabled"].layer], [true, "default"]);
  });

  test("items, groups and the exclude shorthand mark their leaves; unknown keys, detect and $schema mark none", () => {
    const r = withConfig('{"hooks": 3, "exclude": ["ok", "a/b"], "modules": {"only": ["x", 1], "inclde": []}, "nope": 1, "$schema": 2}');
    assert.deepEqual(r.invalid, ["modules.exclude", "modules.only", "hooks.initScriptsDir", "hooks.postScriptsDir", "hooks.onFailure"]);
    // A list with an invalid item is left out whole (as the layer would be), so the list shows the other layers'.
    assert.deepEqual(r.config!.modules.only, []);
    assert.deepEqual(r.config!.modules.exclude, []);
  });

  test("a text that does not parse sets nothing and marks nothing", () => {
    const r = withConfig('{"theme": "ocean", "cache": {', { env: { DROPKIT_THEME: "sea" } });
    assert.deepEqual(
      r.errors.map((e) => e.name),
      ["ConfigSyntaxError"],
    );
    assert.deepEqual(r.invalid, []);
    assert.equal(r.config!.theme, "sea");
    assert.equal(r.origins!.theme.layer, "env");
  });

  test("every problem at once, in order: inputs, then presets, then the plan; the first one's exit code stands", () => {
    const r = resolveDone({
      cwd,
      presetFiles: [],
      files: [],
      flags: { preset: ["standard", "nope"] },
      config: { source: CONFIG, format: "json", text: '{"cache": {"enabled": "yes"}, "theme": "ocean"}' },
      archives: ["blog.zip"],
    });
    assert.deepEqual(
      r.errors.map((e) => [e.name, e.exitCode, e.path]),
      [
        ["SchemaValidationError", 65, "cache.enabled"],
        ["PresetNotFound", 67, "presets"],
        ["ThemeNotFound", 66, "theme"],
      ],
    );
    assert.deepEqual(r.invalid, ["theme", "presets", "cache.enabled"]);
    assert.deepEqual(
      r.presets!.applied.map((p) => p.name),
      ["standard"],
    );
    assert.deepEqual(r.plan!.modules, ["blog"]);
  });

  test("with problems the core never asks for more: presets that need files apply nothing, and `presets` is absent", () => {
    const r = resolveDone({ cwd, env: { DROPKIT_PRESETS_SEARCH_PATH: "ps", DROPKIT_CACHE_ENABLED: "maybe" }, flags: { preset: ["mine"] } });
    assert.equal(r.stage, "done");
    assert.equal(r.presets, undefined);
    assert.deepEqual([r.config!.presets, r.origins!.presets], [["mine"], { layer: "cli", source: "--preset" }]);
    const auto = resolveDone({ cwd, env: { DROPKIT_CACHE_ENABLED: "maybe" } });
    assert.deepEqual([auto.stage, auto.presets, auto.config!.presets], ["done", undefined, []]);
  });

  test("the log format for problems comes from flags, environment and config, never from a preset", () => {
    const r = resolveDone({
      cwd,
      files: [],
      flags: { preset: ["/d/p.json"] },
      env: { DROPKIT_CACHE_ENABLED: "maybe" },
      presetFiles: [{ ref: "/d/p.json", name: "p", source: "/d/p.json", format: "json", text: '{"log": {"format": "json"}}' }],
    });
    assert.deepEqual([r.ok, r.logFormat, r.config!.log.format], [false, "text", "json"]);
  });

  test("past the first problems, a malformed later field is left unused, not refused", () => {
    const request = { op: "resolve", cwd, env: { DROPKIT_CACHE_ENABLED: "maybe" }, presetFiles: [{}], files: [1], archives: "blog.zip" };
    const { status, text } = openAbi().call(JSON.stringify(request));
    const r = JSON.parse(text);
    assert.equal(status, 0);
    assert.deepEqual([r.ok, r.presets, r.plan, r.errors.length], [false, undefined, undefined, 1]);
    // Without those first problems the same fields are the host's bug.
    assert.equal(openAbi().call(JSON.stringify({ ...request, env: {} })).status, 2);
  });

  test("a successful answer has no invalid member", () => {
    assert.equal(withConfig('{"theme": "ocean"}').invalid, undefined);
  });
});
