// The core's rules for names and globs (issue 35) through the built CLI on real drops: names compare without regard to
// letter case, a theme name prefers the theme archive, every module glob the user wrote is answered, and the near names
// of variables suggest the real ones. Records are matched by their fields (`code`, `glob`, `source`, `suggestion`).

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { eventsOf, fixture, runCli, type RunResult } from "../helpers/cli.js";

const json = ["--log-format=json"];
const zip = { zip: { "readme.txt": "hello" } };

/** The plan the state file keeps after a successful create. */
function statePlan(root: string): { theme: string | null; modules: string[]; excluded: string[] } {
  return JSON.parse(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8")).plan;
}

/** The warning records of a code. */
function warnings(run: RunResult, code: string): Array<Record<string, any>> {
  return eventsOf(run, "warning").filter((w) => w.code === code);
}

/** `file:line:column` of the first `needle` in a file (1-based; the texts here are ASCII). */
function positionIn(file: string, needle: string): string {
  const text = fs.readFileSync(file, "utf8");
  const before = text.slice(0, text.indexOf(needle));
  const line = before.split("\n").length;
  return `${file}:${line}:${before.length - before.lastIndexOf("\n")}`;
}

describe("names and globs compare without regard to ASCII letter case", () => {
  test("Blog.ZIP and Test-Shop.zip: --exclude=blog and the auto-detected standard preset's test-* leave both out", () => {
    const root = fixture({ "Blog.ZIP": zip, "Test-Shop.zip": zip, "shop.zip": zip, "ocean-theme.zip": zip });
    const run = runCli(root, ["create", "--exclude=blog", ...json]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(
      eventsOf(run, "preset")
        .filter((p) => p.status === "applied")
        .map((p) => p.name),
      ["standard"],
    );
    const modules = Object.fromEntries(
      eventsOf(run, "plan")
        .filter((r) => r.item === "module")
        .map((r) => [r.file, [r.selected, r.glob, r.source]]),
    );
    assert.deepEqual(modules, {
      "Blog.ZIP": [false, "blog", "--exclude"],
      "Test-Shop.zip": [false, "test-*", "standard"],
      "shop.zip": [true, undefined, undefined],
    });
    assert.deepEqual(statePlan(root), { theme: "ocean", modules: ["shop"], excluded: ["Blog", "Test-Shop"], presets: ["standard"] });
    // Every glob matched an archive, and the standard preset's own dev-* (which matches none) stays quiet.
    assert.deepEqual(eventsOf(run, "warning"), []);
  });

  test("blog.zip and Blog.zip are one module: the first by name is used, and a warning names both", () => {
    const root = fixture({ "blog.zip": zip, "Blog.zip": zip, "shop.zip": zip });
    const run = runCli(root, ["create", ...json], { DROPKIT_PRESETS: "" });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(
      warnings(run, "NameClash").map((w) => [w.files, w.used, w.source]),
      [[["Blog.zip", "blog.zip"], "Blog.zip", "Blog.zip"]],
    );
    assert.deepEqual(statePlan(root).modules, ["Blog", "shop"]);
    assert.deepEqual(statePlan(root).excluded, ["blog"]);
  });

  test("two theme archives of one name: --theme takes its own spelling, and a warning names both", () => {
    const root = fixture({ "Ocean-theme.zip": zip, "ocean-theme.zip": zip, "blog.zip": zip });
    const run = runCli(root, ["create", "--theme=ocean", ...json], { DROPKIT_PRESETS: "" });
    assert.equal(run.status, 0, run.stderr);
    const theme = eventsOf(run, "plan").find((r) => r.item === "theme")!;
    assert.deepEqual([theme.value, theme.alternatives], ["ocean-theme.zip", ["Ocean-theme.zip"]]);
    assert.deepEqual(
      warnings(run, "NameClash").map((w) => [w.files, w.used]),
      [[["Ocean-theme.zip", "ocean-theme.zip"], "ocean-theme.zip"]],
    );
  });
});

describe("a theme name prefers the theme archive", () => {
  test("--theme=ocean with ocean.zip and ocean-theme.zip: ocean-theme.zip is the theme, ocean ships as a module, named as the alternative", () => {
    const root = fixture({ "ocean.zip": zip, "ocean-theme.zip": zip, "blog.zip": zip });
    const run = runCli(root, ["create", "--theme=ocean", ...json], { DROPKIT_PRESETS: "" });
    assert.equal(run.status, 0, run.stderr);
    const theme = eventsOf(run, "plan").find((r) => r.item === "theme")!;
    assert.deepEqual([theme.value, theme.alternatives], ["ocean-theme.zip", ["ocean.zip"]]);
    assert.match(theme.reason, /ocean\.zip stays a module/);
    assert.deepEqual(statePlan(root), { theme: "ocean", modules: ["blog", "ocean"], excluded: [], presets: [] });
    assert.deepEqual(eventsOf(run, "warning"), []);
  });
});

describe("every module glob the user wrote is answered", () => {
  test('modules.only: ["blgo"] in a config: a warning with the did-you-mean blog and the glob\'s file:line:column; only selects none', () => {
    const root = fixture({
      "dropkit.config.json": `{\n  "schema": 1,\n  "presets": [],\n  "modules": {\n    "only": ["blgo"]\n  }\n}\n`,
      "blog.zip": zip,
      "shop.zip": zip,
    });
    const config = path.join(root, "dropkit.config.json");
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(
      warnings(run, "GlobUnmatched").map((w) => [w.glob, w.key, w.source, w.suggestion]),
      [["blgo", "modules.only", positionIn(config, '"blgo"'), "blog"]],
    );
    assert.deepEqual(
      warnings(run, "OnlySelectsNone").map((w) => [w.key, w.source]),
      [["modules.only", positionIn(config, '["blgo"]')]],
    );
    assert.deepEqual(statePlan(root).modules, []);
  });

  test("--exclude=shpo: a warning whose source is the flag, with the did-you-mean shop; shop still ships", () => {
    const root = fixture({ "shop.zip": zip, "blog.zip": zip });
    const run = runCli(root, ["create", "--exclude=shpo", ...json], { DROPKIT_PRESETS: "" });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(
      warnings(run, "GlobUnmatched").map((w) => [w.glob, w.key, w.source, w.suggestion]),
      [["shpo", "modules.exclude", "--exclude", "shop"]],
    );
    assert.deepEqual(statePlan(root).modules, ["blog", "shop"]);
  });

  test("the text log says it in words: the glob, where it was written, and the did-you-mean", () => {
    const root = fixture({ "shop.zip": zip });
    const run = runCli(root, ["create", "--exclude=shpo"], { DROPKIT_PRESETS: "" });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /warning +Module glob "shpo" \(--exclude\) matches no module archive in the drop\. Did you mean "shop"\?/);
  });

  test("a variable's and a local preset file's globs are answered with their sources; the bundled standard's stay quiet", () => {
    const root = fixture({
      "presets/mine.json": `{"modules": {"include": ["legacy-*"]}}`,
      "dropkit.config.json": `{"presetsSearchPath": ["./presets"], "presets": ["standard", "mine"]}`,
      "blog.zip": zip,
    });
    const run = runCli(root, ["create", ...json], { DROPKIT_MODULES_EXCLUDE: "blgo" });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(
      warnings(run, "GlobUnmatched").map((w) => [w.glob, w.key, w.source, w.suggestion]),
      [
        ["legacy-*", "modules.include", positionIn(path.join(root, "presets/mine.json"), '"legacy-*"'), undefined],
        ["blgo", "modules.exclude", "DROPKIT_MODULES_EXCLUDE", "blog"],
      ],
    );
  });
});

describe("near names of variables", () => {
  test("DROPKIT_EXCLUDE=x suggests DROPKIT_MODULES_EXCLUDE, in create and in config", () => {
    const root = fixture({ "blog.zip": zip });
    for (const args of [
      ["create", ...json],
      ["config", ...json],
    ]) {
      const run = runCli(root, args, { DROPKIT_EXCLUDE: "x" });
      assert.equal(run.status, 0, run.stderr);
      assert.deepEqual(
        warnings(run, "UnknownVariable").map((w) => [w.source, w.suggestion]),
        [["DROPKIT_EXCLUDE", "DROPKIT_MODULES_EXCLUDE"]],
        args[0],
      );
      assert.match(warnings(run, "UnknownVariable")[0]!.message, /Did you mean DROPKIT_MODULES_EXCLUDE\?/);
    }
  });
});
