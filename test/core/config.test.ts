// Tests for src/config/resolve.ts and src/index.ts: the pipeline as a library, preset lookup, detect, and planDrop.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { loadConfig, planDrop } from "../../src/config/resolve.js";
import { DropkitError } from "../../src/errors.js";
import * as entry from "../../src/index.js";
import { fixture } from "../helpers/cli.js";
import { fenced } from "../helpers/temp.js";

describe("loadConfig", () => {
  test("returns the resolved config with its discovery, through the package entry too", async () => {
    const root = fixture({ "dropkit.config.json": '{"theme":"ocean"}' });
    const direct = await loadConfig({ cwd: root, env: fenced(root) });
    assert.equal(direct.ok, true);
    assert.equal(direct.config!.theme, "ocean");
    assert.equal(direct.discovery.via, "discovery");
    const viaEntry = await entry.loadConfig({ cwd: root, env: fenced(root), flags: { theme: "river" } });
    assert.equal(viaEntry.config!.theme, "river");
    assert.deepEqual(viaEntry.origins!.theme, { layer: "cli", source: "--theme" });
  });

  test("DROPKIT_HOOK_TIMEOUT: the library returns the timeout it sets, and refuses a bad one as the CLI does", async () => {
    const root = fixture();
    assert.equal((await entry.loadConfig({ cwd: root, env: fenced(root, { DROPKIT_HOOK_TIMEOUT: "2.5" }) })).hookTimeoutMs, 2500);
    assert.equal((await entry.loadConfig({ cwd: root, env: fenced(root) })).hookTimeoutMs, undefined);
    await assert.rejects(
      entry.loadConfig({ cwd: root, env: fenced(root, { DROPKIT_HOOK_TIMEOUT: "1e3" }) }),
      (e: DropkitError) => e.name === "SchemaValidationError" && e.exitCode === 65 && e.diagnostics[0]!.source === "DROPKIT_HOOK_TIMEOUT",
    );
  });

  test("defineConfig returns its argument unchanged", () => {
    const config = { theme: "ocean", modules: { exclude: ["test-*"] } };
    assert.equal(entry.defineConfig(config), config);
  });

  test("the package entry's loadConfig rejects a cwd that is not an existing folder with an IOError (74) naming it", async () => {
    const root = fixture({ "dropkit.config.json": '{"theme":"ocean"}' });
    for (const [cwd, reason] of [
      [path.join(root, "missing"), "it does not exist"],
      [path.join(root, "dropkit.config.json"), "it is not a folder"],
      [path.join(root, "dropkit.config.json", "below"), "it does not exist"],
    ] as const) {
      await assert.rejects(entry.loadConfig({ cwd, env: fenced(root) }), (error: unknown) => {
        assert.ok(entry.isDropkitError(error));
        assert.deepEqual(
          [error.name, error.exitCode, error.code, error.file, error.source, error.line],
          ["IOError", 74, "ERR_DROPKIT_IO_ERROR", cwd, cwd, undefined],
        );
        assert.equal(error.message, `The working directory ${cwd} (the cwd option) cannot be used: ${reason}. Pass an existing folder.`);
        return true;
      });
    }
  });

  test("a DropkitError carries a stable code and its first problem's file, line and column at the top level", async () => {
    const root = fixture({ "dropkit.config.json": '{\n  "theme": 3,\n  "colour": 1\n}' });
    await assert.rejects(entry.loadConfig({ cwd: root, env: fenced(root) }), (error: unknown) => {
      assert.ok(entry.isDropkitError(error));
      const first = error.diagnostics[0]!;
      assert.deepEqual(
        [error.code, error.file, error.line, error.column],
        ["ERR_DROPKIT_SCHEMA_VALIDATION_ERROR", path.join(root, "dropkit.config.json"), 2, 12],
      );
      assert.deepEqual([first.file, first.line, first.column], [error.file, error.line, error.column]);
      assert.equal(error.diagnostics.length, 2);
      return true;
    });
    const named = new DropkitError({ name: "ConfigNotFound", message: "x" });
    assert.deepEqual([named.code, named.file, named.line, named.column], ["ERR_DROPKIT_CONFIG_NOT_FOUND", undefined, undefined, undefined]);
  });

  test("only DROPKIT_* variables reach the core", async () => {
    const root = fixture();
    const result = await loadConfig({ cwd: root, env: fenced(root, { DROPKIT_THEME: "ocean", THEME: "other" }) });
    assert.deepEqual(result.request.env, { DROPKIT_THEME: "ocean" });
  });

  test("a preset path in the list is loaded from the config's directory", async () => {
    const root = fixture({ "conf/dropkit.config.json": '{"presets":["./team.json"]}', "conf/team.json": '{"theme":"team"}' });
    const result = await loadConfig({ cwd: root, env: fenced(root), flags: { config: "conf/dropkit.config.json" } });
    assert.equal(result.config!.theme, "team");
    assert.equal(result.origins!.theme!.source, `${path.join(root, "conf/team.json")}:1:10`);
  });

  test("a preset name is looked up in the search path in order; a later file of the same name is ignored with a warning", async () => {
    const root = fixture({
      "dropkit.config.json": '{"presetsSearchPath":["./a","./b"],"presets":["team"]}',
      "a/team.json": '{"theme":"from-a"}',
      "b/team.js": 'export default { theme: "from-b" };',
    });
    const result = await loadConfig({ cwd: root, env: fenced(root) });
    assert.equal(result.config!.theme, "from-a");
    assert.ok(result.warnings.some((w) => w.message.includes(path.join(root, "b/team.js"))));
  });

  test("every preset file that fails to load is reported together", async () => {
    const root = fixture({
      "dropkit.config.json": '{"presetsSearchPath":["./p"],"presets":["one","two"]}',
      "p/one.js": 'throw new Error("one");',
      "p/two.js": "export default 42;",
    });
    await assert.rejects(loadConfig({ cwd: root, env: fenced(root) }), (error: unknown) => {
      assert.ok(error instanceof DropkitError);
      assert.deepEqual(
        error.diagnostics.map((d) => d.name),
        ["ConfigLoadError", "ConfigLoadError"],
      );
      return true;
    });
  });

  test("auto-detect globs below the top level are matched with tinyglobby, skipping node_modules", async () => {
    const root = fixture({
      "dropkit.config.json": '{"presetsSearchPath":["./p"]}',
      "p/docs.json": '{"detect":["docs/**/*.md"],"theme":"paper"}',
      "p/deps.json": '{"detect":["**/package.json"],"theme":"deps"}',
      "docs/guide/intro.md": "# intro",
      "node_modules/x/package.json": "{}",
    });
    const result = await loadConfig({ cwd: root, env: fenced(root) });
    assert.deepEqual(result.config!.presets, ["docs"]);
    assert.equal(result.presets!.applied[0]!.glob, "docs/**/*.md");
    assert.ok(result.presets!.skipped.some((p) => p.name === "deps"));
  });

  test("top-level detect globs ignore hidden files, as tinyglobby does", async () => {
    const root = fixture({ ".hidden.zip": "" });
    const result = await loadConfig({ cwd: root, env: fenced(root) });
    assert.deepEqual(result.config!.presets, []);
    fs.writeFileSync(path.join(root, "visible.zip"), "");
    assert.deepEqual((await loadConfig({ cwd: root, env: fenced(root) })).config!.presets, ["standard"]);
  });
});

describe("planDrop", () => {
  test("plans with the config that was resolved, without looking presets up again", async () => {
    const root = fixture({
      "dropkit.config.json": '{"presetsSearchPath":["./p"]}',
      "p/mine.json": '{"detect":["*.zip"],"modules":{"exclude":["old"]}}',
    });
    fs.writeFileSync(path.join(root, "old.zip"), "");
    const loaded = await loadConfig({ cwd: root, env: fenced(root) });
    fs.rmSync(path.join(root, "p"), { recursive: true });
    const planned = await planDrop(loaded, ["old.zip", "new.zip"]);
    assert.equal(planned.ok, true);
    assert.deepEqual(planned.plan!.modules, ["new"]);
    assert.deepEqual(planned.plan!.excluded, ["old"]);
  });
});
