// Tests for `dropkit init` resolving as `dropkit config` does: the environment layer, DROPKIT_CONFIG, a config inherited from a
// folder above (a monorepo root), and a `$schema` pointer that exists.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { eventsOf, fixture, runCli, type RunResult } from "../helpers/cli.js";
import { hasScript, keys, Terminal } from "../helpers/pty.js";

const zip = { zip: { "readme.txt": "hello\n" } };
const pty = { skip: hasScript() ? false : "needs script(1) for a pseudo-terminal", timeout: 120_000 };

/** A drop with two themes and a few modules. */
function drop(): string {
  return fixture({ "ocean-theme.zip": zip, "forest-theme.zip": zip, "blog.zip": zip, "test-shop.zip": zip });
}

function readConfig(dir: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(dir, "dropkit.config.json"), "utf8")) as Record<string, unknown>;
}

/** What `config --json` resolves: the config, and each key's layer (sources name files, which differ by design). */
function resolved(cwd: string, env: Record<string, string> = {}): { config: unknown; layers: Record<string, string> } {
  const run = runCli(cwd, ["config", "--json"], env);
  assert.equal(run.status, 0, run.stderr);
  const { config, origins } = JSON.parse(run.stdout) as { config: unknown; origins: Record<string, { layer: string }> };
  // `schema` is the one key a written file always sets itself.
  const layers = Object.fromEntries(Object.entries(origins).flatMap(([key, o]) => (key === "schema" ? [] : [[key, o.layer]])));
  return { config, layers };
}

/** The error records of a run, without what only says where the process ran. */
function errorsOf(run: RunResult): Array<Record<string, unknown>> {
  return eventsOf(run, "error").map(({ name, exitCode, source, message }) => ({ name, exitCode, source, message }));
}

describe("init reads the environment as config does", () => {
  test("the decisions printed are those the next run uses: DROPKIT_THEME=forest is theme forest from env", () => {
    const root = drop();
    const env = { DROPKIT_THEME: "forest", DROPKIT_CACHE_ENABLED: "no" };
    const run = runCli(root, ["init", "--yes", "--log-format=json"], env);
    assert.equal(run.status, 0, run.stderr);
    const theme = eventsOf(run, "decision").find((d) => d.key === "theme");
    assert.deepEqual(theme, { event: "decision", key: "theme", value: "forest", layer: "env", source: "DROPKIT_THEME" });
    // The environment is not part of the file.
    assert.deepEqual(readConfig(root), { schema: 1 });
    const next = runCli(root, ["config", "--json"], env);
    const { config, origins } = JSON.parse(next.stdout) as { config: Record<string, any>; origins: Record<string, { layer: string }> };
    for (const d of eventsOf(run, "decision")) {
      const value = d.key.split(".").reduce((v: any, k: string) => v[k], config);
      assert.deepEqual([d.value, d.layer], [value, origins[d.key]!.layer], d.key);
    }
  });

  const invalid: Array<[string, string, number]> = [
    ["DROPKIT_LOG_FORMAT", "xml", 65],
    ["DROPKIT_CACHE_ENABLED", "maybe", 65],
    ["DROPKIT_PRESETS", "nope", 67],
    ["DROPKIT_HOOKS_ON_FAILURE", "stop", 65],
  ];
  for (const [name, value, code] of invalid) {
    test(`${name}=${value} exits ${code} as config does, and nothing is written`, () => {
      const root = drop();
      const env = { [name]: value };
      const config = runCli(root, ["config", "--log-format=json"], env);
      const init = runCli(root, ["init", "--yes", "--log-format=json"], env);
      assert.equal(config.status, code, config.stderr);
      assert.equal(init.status, code, init.stderr);
      assert.deepEqual(errorsOf(init), errorsOf(config));
      assert.equal(errorsOf(init)[0]!.source, name);
      assert.ok(!fs.existsSync(path.join(root, "dropkit.config.json")));
    });
  }

  test("an unknown DROPKIT_ variable gets config's warning", () => {
    const root = drop();
    const run = runCli(root, ["init", "--yes", "--log-format=json"], { DROPKIT_THEMES: "ocean" });
    assert.equal(run.status, 0, run.stderr);
    assert.ok(
      eventsOf(run, "warning").some((w) => /DROPKIT_THEMES/.test(w.message) && /DROPKIT_THEME\b/.test(w.message)),
      run.stderr,
    );
  });

  test("DROPKIT_CONFIG set is a usage error naming it (64): the file init writes would never be read", () => {
    const root = fixture({ "other.json": "{}\n" });
    for (const args of [
      ["init", "--yes", "--log-format=json"],
      ["init", "--log-format=json"],
    ]) {
      const run = runCli(root, args, { DROPKIT_CONFIG: "./other.json" });
      assert.equal(run.status, 64, run.stderr);
      const [error] = eventsOf(run, "error");
      assert.equal(error!.name, "UsageError");
      assert.equal(error!.source, "DROPKIT_CONFIG");
      assert.match(error!.message, /DROPKIT_CONFIG is set .*would never be read.*Unset DROPKIT_CONFIG/);
    }
    assert.ok(!fs.existsSync(path.join(root, "dropkit.config.json")));
    // Empty counts as unset.
    assert.equal(runCli(root, ["init", "--yes"], { DROPKIT_CONFIG: "" }).status, 0);
  });
});

/** The root config of the monorepo tests: the values a sub-package inherits today, paths included. */
const rootConfig = {
  theme: "ocean",
  exclude: ["legacy-*"],
  presets: [],
  hooks: { initScriptsDir: "./tools/init-scripts", onFailure: "fail" },
  cache: { file: "./.cache/dropkit.json" },
};

/** A workspace: the root config (in the given form) and a sub-package with its archives. */
function monorepo(form: "package.json" | "dropkit.config.json", extra: Record<string, string> = {}): { root: string; site: string } {
  const config =
    form === "package.json"
      ? JSON.stringify({ name: "shop", private: true, workspaces: ["packages/*"], dropkit: rootConfig }, null, 2)
      : JSON.stringify(rootConfig, null, 2);
  const root = fixture({
    [form]: `${config}\n`,
    "tools/init-scripts/": "",
    "packages/site/package.json": '{ "name": "site" }\n',
    "packages/site/ocean-theme.zip": zip,
    "packages/site/blog.zip": zip,
    "packages/site/legacy-forum.zip": zip,
    "packages/site/test-shop.zip": zip,
    ...extra,
  });
  return { root, site: path.join(root, "packages", "site") };
}

describe("init under an existing config", () => {
  for (const form of ["package.json", "dropkit.config.json"] as const) {
    test(`in a sub-package below a root ${form}: warns naming it, and config resolves the same before and after init --yes`, () => {
      const { root, site } = monorepo(form);
      const before = resolved(site);
      assert.deepEqual((before.config as { presets: string[] }).presets, []);
      const run = runCli(site, ["init", "--yes", "--log-format=json"]);
      assert.equal(run.status, 0, run.stderr);
      const rootFile = path.join(root, form);
      const [warning] = eventsOf(run, "warning");
      assert.equal(warning!.source, rootFile);
      assert.match(warning!.message, /will shadow it here .*discovery stops at the nearest config.*starts from its values/);
      assert.ok(warning!.message.includes(rootFile));
      // The root's values, relative paths rebased to the sub-package's folder; no $schema, as none is installed.
      assert.deepEqual(readConfig(site), {
        schema: 1,
        theme: "ocean",
        presets: [],
        modules: { exclude: ["legacy-*"] },
        hooks: { initScriptsDir: "../../tools/init-scripts", onFailure: "fail" },
        cache: { file: "../../.cache/dropkit.json" },
      });
      const after = resolved(site);
      assert.deepEqual(after.config, before.config);
      assert.deepEqual(after.layers, before.layers);
      const again = runCli(site, ["config", "--log-format=json"]);
      assert.equal(eventsOf(again, "config")[0]!.file, path.join(site, "dropkit.config.json"));
    });
  }

  test("flags still change the defaults: --exclude adds to the inherited globs, --preset replaces the inherited list", () => {
    const { site } = monorepo("package.json");
    const run = runCli(site, ["init", "--yes", "--exclude=test-*", "--preset=standard"]);
    assert.equal(run.status, 0, run.stderr);
    const written = readConfig(site);
    assert.deepEqual(written.modules, { exclude: ["legacy-*", "test-*"] });
    assert.deepEqual(written.presets, ["standard"]);
  });

  test("an inherited theme is not checked against the sub-package's archives, as config does not check it", () => {
    const { site } = monorepo("package.json");
    fs.rmSync(path.join(site, "ocean-theme.zip"));
    assert.equal(runCli(site, ["config"]).status, 0);
    const run = runCli(site, ["init", "--yes"]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(readConfig(site).theme, "ocean");
  });

  test("a config in the folder itself is not inherited: --force replaces it from the defaults, without the shadow warning", () => {
    const { site } = monorepo("package.json");
    fs.writeFileSync(path.join(site, "dropkit.config.json"), '{ "theme": "ocean" }\n');
    const run = runCli(site, ["init", "--yes", "--force", "--log-format=json"]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(readConfig(site), { schema: 1 });
    assert.deepEqual(eventsOf(run, "warning"), []);
  });

  test("on a terminal, each question starts from the inherited value", pty, async () => {
    const { root, site } = monorepo("package.json");
    const term = new Terminal(site, ["init"], { GIT_CEILING_DIRECTORIES: path.dirname(root) });
    await term.expect("will shadow it");
    for (const prompt of [
      "◆  Theme",
      "◆  Presets",
      "◆  Modules to exclude",
      "◆  Only these modules",
      "◆  When a hook script fails",
      "◆  Cache archive fingerprints?",
      "◆  Decisions log format",
    ]) {
      await term.expect(prompt);
      term.send(keys.enter);
    }
    assert.equal(await term.exit(), 0, term.screen);
    const yes = monorepo("package.json");
    assert.equal(runCli(yes.site, ["init", "--yes"]).status, 0);
    assert.deepEqual(readConfig(site), readConfig(yes.site));
  });
});

describe("$schema points at a file that exists", () => {
  test("in a workspace, the schema installed at the root, as a path from the config's folder", () => {
    const { root, site } = monorepo("package.json", { "node_modules/dropkit/schema.json": "{}\n" });
    const run = runCli(site, ["init", "--yes"]);
    assert.equal(run.status, 0, run.stderr);
    const pointer = readConfig(site).$schema as string;
    assert.equal(pointer, "../../node_modules/dropkit/schema.json");
    assert.equal(path.resolve(site, pointer), path.join(root, "node_modules", "dropkit", "schema.json"));
    assert.ok(fs.existsSync(path.resolve(site, pointer)));
  });

  test("the nearest install wins: the folder's own node_modules", () => {
    const root = fixture({ "node_modules/dropkit/schema.json": "{}\n", "app/node_modules/dropkit/schema.json": "{}\n" });
    const app = path.join(root, "app");
    assert.equal(runCli(app, ["init", "--yes"]).status, 0);
    assert.equal(readConfig(app).$schema, "./node_modules/dropkit/schema.json");
  });

  test("left out when none is installed up to the repository root", () => {
    const root = drop();
    fs.mkdirSync(path.join(root, "node_modules", "dropkit"), { recursive: true });
    const run = runCli(root, ["init", "--yes"]);
    assert.equal(run.status, 0, run.stderr);
    assert.ok(!("$schema" in readConfig(root)));
  });
});
