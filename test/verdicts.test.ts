// One input, one verdict: `init`, `config` and `create` on the built CLI give the same code and source for the same input.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { eventsOf, fixture, runCli } from "./helpers/cli.js";

const zip = { zip: { "readme.txt": "hello\n" } };
const json = ["--log-format=json"];

/** The one error record of a run. */
function onlyError(run: ReturnType<typeof runCli>): Record<string, any> {
  const errors = eventsOf(run, "error");
  assert.equal(errors.length, 1, run.stderr);
  return errors[0]!;
}

describe("DROPKIT_HOOK_TIMEOUT: config rejects what create rejects", () => {
  for (const bad of ["abc", "0", "-1", "1e3", "99999999"]) {
    test(`DROPKIT_HOOK_TIMEOUT=${bad}: config and create both exit 65 at the variable, and create runs no hook`, () => {
      const root = fixture({ "blog.zip": zip, "init-scripts/mark": { text: "#!/bin/sh\ntouch ran\n", mode: 0o755 } });
      const verdicts = ["config", "create"].map((command) => {
        const run = runCli(root, [command, ...json], { DROPKIT_HOOK_TIMEOUT: bad });
        const e = onlyError(run);
        return [run.status, e.name, e.source, e.message];
      });
      assert.deepEqual(verdicts[0], [65, "SchemaValidationError", "DROPKIT_HOOK_TIMEOUT", `DROPKIT_HOOK_TIMEOUT must be a positive number of seconds up to 2147483, e.g. 120; got "${bad}".`]);
      assert.deepEqual(verdicts[1], verdicts[0]);
      assert.ok(!fs.existsSync(path.join(root, "ran")), "no hook ran");
      assert.ok(!fs.existsSync(path.join(root, ".dropkit.json")));
    });
  }

  test("a valid timeout is used by create and accepted by config", () => {
    const root = fixture({ "blog.zip": zip, "init-scripts/slow": { text: "#!/bin/sh\nexec sleep 5\n", mode: 0o755 } });
    assert.equal(runCli(root, ["config"], { DROPKIT_HOOK_TIMEOUT: "0.3" }).status, 0);
    const run = runCli(root, ["create", "--preset=none", ...json], { DROPKIT_HOOK_TIMEOUT: "0.3" });
    assert.equal(run.status, 0, run.stderr);
    assert.match(eventsOf(run, "warning").map((w) => w.message).join("\n"), /timed out after 0\.3 s/);
  });
});

describe("theme names compare as archives are found", () => {
  test("OCEAN-THEME.ZIP, which auto picks, can be named OCEAN, ocean or Ocean; the state keeps the archive's name", () => {
    for (const theme of ["auto", "OCEAN", "ocean", "Ocean"]) {
      const root = fixture({ "OCEAN-THEME.ZIP": zip, "blog.zip": zip });
      const run = runCli(root, ["create", `--theme=${theme}`, ...json]);
      assert.equal(run.status, 0, run.stderr);
      const state = JSON.parse(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8"));
      assert.equal(state.plan.theme, "OCEAN", theme);
      assert.deepEqual(state.plan.modules, ["blog"]);
    }
  });

  test("-theme.zip has no theme name: it is the module \"-theme\", auto picks no theme, and the state never records an empty theme", () => {
    const root = fixture({ "-theme.zip": zip, "blog.zip": zip });
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 0, run.stderr);
    const state = JSON.parse(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8"));
    assert.equal(state.plan.theme, null);
    assert.deepEqual(state.plan.modules, ["-theme", "blog"]);
    // init offers it as a module too, never as a theme named "".
    const init = runCli(root, ["init", "--yes", ...json]);
    assert.equal(init.status, 0, init.stderr);
    assert.ok(!fs.readFileSync(path.join(root, "dropkit.config.json"), "utf8").includes('"theme"'));
  });
});

describe("an explicit config path that holds no dropkit config", () => {
  for (const [how, args, env, source] of [
    ["--config=package.json", ["--config=package.json"], {}, "--config"],
    ["DROPKIT_CONFIG=package.json", [], { DROPKIT_CONFIG: "package.json" }, "DROPKIT_CONFIG"],
  ] as const) {
    test(`${how} without a dropkit key is ConfigNotFound (66) naming the key, from config and create alike`, () => {
      const root = fixture({ "package.json": '{ "name": "site", "version": "1.0.0" }\n', "blog.zip": zip });
      for (const command of ["config", "create"]) {
        const run = runCli(root, [command, ...args, ...json], env);
        assert.equal(run.status, 66, run.stderr);
        const e = onlyError(run);
        assert.deepEqual([e.name, e.source, e.file], ["ConfigNotFound", source, path.join(root, "package.json")]);
        assert.match(e.message, /no top-level "dropkit" key/);
        assert.equal(run.stdout, "");
      }
      assert.ok(!fs.existsSync(path.join(root, ".dropkit.json")));
    });
  }

  test("with a dropkit key it is used, and discovery still passes over a package.json without one", () => {
    const root = fixture({ "package.json": '{ "name": "site", "dropkit": { "theme": "none" } }\n' });
    const run = runCli(root, ["config", "--config=package.json", "--json"]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).config.theme, "none");
    const plain = fixture({ "package.json": '{ "name": "site" }\n' });
    assert.equal(runCli(plain, ["config"]).status, 0);
  });
});
