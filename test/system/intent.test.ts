// What `create` ships is what the user meant (issue 35): an empty drop is an error, --strict and --dry-run, every *.zip
// that is no archive said, an empty archive said, HookFailed naming where "fail" came from, the lift saying what
// changes, and `config` judging a hooks path as `create` does. The built CLI on real trees, with the JSON log.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { describe, test } from "node:test";
import { eventsOf, fixture, runCli, type FixtureFile } from "../helpers/cli.js";
import { endRecord } from "../helpers/zips.js";

const json = ["--log-format=json"];
const zip = (name = "index.html"): FixtureFile => ({ zip: { [name]: "<p>ok</p>" } });
const exe = (text: string): FixtureFile => ({ text, mode: 0o755 });

/** Every file under `root` (but .git) with its sha256, mode and kind: what "byte for byte unchanged" compares. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      const rel = path.relative(root, file);
      if (rel === ".git") continue;
      const stats = fs.lstatSync(file);
      if (entry.isDirectory()) {
        out[`${rel}/`] = `dir ${stats.mode}`;
        walk(file);
      } else if (entry.isFile()) {
        out[rel] = `${createHash("sha256").update(fs.readFileSync(file)).digest("hex")} ${stats.mode} ${stats.mtimeMs}`;
      } else {
        out[rel] = `other ${stats.mode}`;
      }
    }
  };
  walk(root);
  return out;
}

/** The drop's own files (no .git), sorted. */
const names = (root: string): string[] =>
  fs
    .readdirSync(root)
    .filter((n) => n !== ".git")
    .sort();

const errorOf = (run: ReturnType<typeof runCli>): Record<string, any> => eventsOf(run, "error")[0] ?? {};

describe("an empty drop is an error (EmptyDrop, exit 66)", () => {
  test("a folder with no *.zip: exit 66 naming it, nothing written, no hook run", () => {
    const root = fixture({ "init-scripts/a.sh": exe("#!/bin/sh\ntouch ran-init\n"), "notes.txt": "n" });
    const before = names(root);
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 66, run.stderr);
    const error = errorOf(run);
    assert.equal(error.name, "EmptyDrop");
    assert.equal(error.exitCode, 66);
    assert.equal(error.source, root);
    assert.match(error.message, /No \*\.zip archive in .*nothing was written and no hook ran/);
    assert.deepEqual(names(root), before);
    assert.deepEqual(eventsOf(run, "hook"), []);
  });

  test("a monorepo sub-package with no zips: names the root's folder, its config and its archive count", () => {
    const root = fixture({
      "package.json": JSON.stringify({ name: "mono", private: true, dropkit: { exclude: ["legacy-*"], presets: [] } }),
      "blog.zip": zip(),
      "shop.zip": zip(),
      "ocean-theme.zip": zip(),
      "packages/site/package.json": JSON.stringify({ name: "site" }),
      "packages/site/src/index.ts": "export {};\n",
    });
    const sub = path.join(root, "packages", "site");
    const before = [snapshot(root), snapshot(sub)];
    const run = runCli(sub, ["create", ...json]);
    assert.equal(run.status, 66, run.stderr);
    const error = errorOf(run);
    assert.equal(error.name, "EmptyDrop");
    assert.ok(error.message.includes(`No *.zip archive in ${sub}`), error.message);
    assert.ok(error.message.includes(`${path.join(root, "package.json")}, is in ${root}, which holds 3 *.zip archives`), error.message);
    assert.ok(error.message.includes(`run dropkit there (cd ${root})`), error.message);
    assert.deepEqual([snapshot(root), snapshot(sub)], before);
    // The config was read and logged first: the problem is the folder, not the config.
    assert.equal(eventsOf(run, "config")[0]!.file, path.join(root, "package.json"));
  });

  test("the config's folder holds no *.zip either: said, with no advice to run there", () => {
    const root = fixture({ "dropkit.config.json": '{ "schema": 1 }\n', "sub/": "" });
    const run = runCli(path.join(root, "sub"), ["create", ...json]);
    assert.equal(run.status, 66, run.stderr);
    assert.match(errorOf(run).message, /which holds no \*\.zip either/);
    assert.doesNotMatch(errorOf(run).message, /run dropkit there/);
  });

  test("config and flag errors keep their codes and come first", () => {
    const root = fixture({ "dropkit.config.json": '{ "themes": "ocean" }\n' });
    assert.equal(runCli(root, ["create", ...json]).status, 65);
    assert.equal(runCli(fixture(), ["create", "--bogus", ...json]).status, 64);
    assert.equal(runCli(fixture(), ["create", "--preset=nope", ...json]).status, 67);
    assert.equal(runCli(fixture(), ["create", "--config=missing.json", ...json]).status, 66);
    assert.equal(errorOf(runCli(fixture(), ["create", "--config=missing.json", ...json])).name, "ConfigNotFound");
  });

  test("only entries that are no archives (a folder named x.zip): each said, then EmptyDrop", () => {
    const root = fixture({ "x.zip/": "" });
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 66, run.stderr);
    assert.deepEqual(
      eventsOf(run, "warning").map((w) => w.message),
      [`${path.join(root, "x.zip")} is left out: it is a directory, not a regular file, so it is not an archive.`],
    );
  });

  test("an init hook that removes every archive: EmptyDrop after it, nothing written, no post hook", () => {
    const root = fixture({
      "blog.zip": zip(),
      "init-scripts/a.sh": exe("#!/bin/sh\nrm -f blog.zip\n"),
      "post-scripts/b.sh": exe("#!/bin/sh\ntouch ran-post\n"),
    });
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 66, run.stderr);
    assert.match(errorOf(run).message, /once the init hooks had run/);
    assert.deepEqual(names(root), ["init-scripts", "post-scripts"]);
  });
});

describe("create --dry-run", () => {
  test("resolves, scans, checks and logs the plan; the folder is byte for byte unchanged, no hook runs", () => {
    const root = fixture({
      "blog.zip": zip(),
      "shop.zip": zip(),
      "ocean-theme.zip": zip(),
      "dropkit.config.json": JSON.stringify({ exclude: ["shop"] }),
      "init-scripts/a.sh": exe("#!/bin/sh\ntouch ran-init\n"),
      "post-scripts/b.sh": exe("#!/bin/sh\ntouch ran-post\n"),
      ".dropkit.json": JSON.stringify({ version: "0.7.2", theme: "ocean", modules: ["blog"] }),
    });
    const before = snapshot(root);
    const run = runCli(root, ["create", "--dry-run", ...json]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(snapshot(root), before);
    assert.deepEqual(eventsOf(run, "hook"), []);
    const summary = eventsOf(run, "plan").find((r) => r.item === "summary")!;
    assert.deepEqual([summary.theme, summary.modules, summary.excluded], ["ocean-theme.zip", ["blog"], ["shop"]]);
    const states = eventsOf(run, "state");
    assert.deepEqual(
      states.map((s) => s.action),
      ["dry-run"],
    );
    assert.deepEqual(states[0]!.plan, { theme: "ocean", modules: ["blog"], excluded: ["shop"], presets: ["standard"] });
    assert.equal(states[0]!.file, path.join(root, ".dropkit.json"));
  });

  test("with a cache that is stale: read, never written; a second dry run is the same", () => {
    const root = fixture({ "blog.zip": zip(), "ocean-theme.zip": zip() });
    assert.equal(runCli(root, ["create", ...json]).status, 0);
    fs.writeFileSync(path.join(root, "shop.zip"), fs.readFileSync(path.join(root, "blog.zip")));
    const before = snapshot(root);
    for (let i = 0; i < 2; i++) {
      const run = runCli(root, ["create", "--dry-run", ...json]);
      assert.equal(run.status, 0, run.stderr);
      assert.deepEqual(snapshot(root), before);
    }
  });

  test("a bad selected archive still fails it (65, ArchiveInvalid), with nothing written", () => {
    const root = fixture({ "blog.zip": "not a zip", "ocean-theme.zip": zip() });
    const before = snapshot(root);
    const run = runCli(root, ["create", "--dry-run", ...json]);
    assert.equal(run.status, 65, run.stderr);
    assert.equal(errorOf(run).name, "ArchiveInvalid");
    assert.deepEqual(snapshot(root), before);
  });

  test("in an empty folder it is EmptyDrop too", () => {
    const root = fixture();
    const run = runCli(root, ["create", "--dry-run", ...json]);
    assert.equal(run.status, 66, run.stderr);
    assert.deepEqual(names(root), []);
  });

  test("the text log ends with what the state would hold", () => {
    const root = fixture({ "blog.zip": zip() });
    const run = runCli(root, ["create", "--dry-run"]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /state {5}dry run: nothing written; .*\.dropkit\.json would hold this plan \(theme none; modules blog\)/);
  });
});

describe("create --strict", () => {
  test("an unmatched glob: exit 65 (StrictWarnings) naming the warning, nothing written, no post hook", () => {
    const root = fixture({
      "blog.zip": zip(),
      "shop.zip": zip(),
      "post-scripts/b.sh": exe("#!/bin/sh\ntouch ran-post\n"),
    });
    const before = snapshot(root);
    const run = runCli(root, ["create", "--strict", "--exclude=shpo", ...json]);
    assert.equal(run.status, 65, run.stderr);
    const error = errorOf(run);
    assert.equal(error.name, "StrictWarnings");
    assert.equal(error.exitCode, 65);
    assert.equal(error.source, "--strict");
    assert.match(error.message, /^1 warning was raised before the state was written, and --strict makes warnings errors/);
    assert.match(error.message, /\(1\) GlobUnmatched: Module glob "shpo" \(--exclude\)/);
    assert.deepEqual(snapshot(root), before);
    assert.deepEqual(
      eventsOf(run, "hook").filter((h) => h.phase === "post"),
      [],
    );
  });

  test("without warnings it writes as create does; the same drop without --strict warns and exits 0", () => {
    const root = fixture({ "blog.zip": zip() });
    assert.equal(runCli(root, ["create", "--strict", ...json]).status, 0);
    assert.ok(fs.existsSync(path.join(root, ".dropkit.json")));
    const loose = runCli(root, ["create", "--exclude=shpo", ...json]);
    assert.equal(loose.status, 0, loose.stderr);
    assert.equal(eventsOf(loose, "warning").length, 1);
  });

  test("an init hook's failure under onFailure continue is a warning before the write: refused", () => {
    const root = fixture({
      "blog.zip": zip(),
      "dropkit.config.json": JSON.stringify({ presets: [], hooks: { onFailure: "continue" } }),
      "init-scripts/a.sh": exe("#!/bin/sh\nexit 3\n"),
    });
    const run = runCli(root, ["create", "--strict", ...json]);
    assert.equal(run.status, 65, run.stderr);
    assert.match(errorOf(run).message, /init hook .*a\.sh/);
    assert.ok(!fs.existsSync(path.join(root, ".dropkit.json")));
    assert.ok(!fs.existsSync(path.join(root, ".dropkit.json.lock")));
  });

  test("with --dry-run: the warnings fail the dry run, which writes nothing either way", () => {
    const root = fixture({ "blog.zip": zip(), "dropkit.config.json": JSON.stringify({ modules: { only: ["blgo"] } }) });
    const before = snapshot(root);
    const run = runCli(root, ["create", "--dry-run", "--strict", ...json]);
    assert.equal(run.status, 65, run.stderr);
    assert.match(errorOf(run).message, /^2 warnings were raised .* so the dry run fails: \(1\) GlobUnmatched: .*\(2\) OnlySelectsNone: /);
    assert.deepEqual(snapshot(root), before);
  });
});

describe("every *.zip that is not a regular file is left out with a warning; an empty archive is a warning", () => {
  test("a FIFO, a folder and a socket named *.zip: one warning each, the run goes on", async () => {
    const root = fixture({ "blog.zip": zip(), "folder.zip/": "" });
    assert.equal(spawnSync("mkfifo", [path.join(root, "pipe.zip")]).status, 0);
    const server = net.createServer().listen(path.join(root, "sock.zip"));
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const run = runCli(root, ["create", ...json]);
      assert.equal(run.status, 0, run.stderr);
      assert.deepEqual(
        eventsOf(run, "warning").map((w) => w.message),
        [
          `${path.join(root, "folder.zip")} is left out: it is a directory, not a regular file, so it is not an archive.`,
          `${path.join(root, "pipe.zip")} is left out: it is a FIFO, not a regular file, so it is not an archive.`,
          `${path.join(root, "sock.zip")} is left out: it is a socket, not a regular file, so it is not an archive.`,
        ],
      );
      assert.deepEqual(JSON.parse(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8")).plan.modules, ["blog"]);
    } finally {
      server.close();
    }
  });

  test("a zip with no entries is accepted with a warning, as unzip -t warns", () => {
    const root = fixture({ "blog.zip": zip() });
    fs.writeFileSync(path.join(root, "empty.zip"), endRecord(0, 0, 0));
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(
      eventsOf(run, "warning").map((w) => w.message),
      [
        `The archive ${path.join(root, "empty.zip")} is empty: it is a zip with no entries (unzip -t says "zipfile is empty"). ` +
          "It is accepted as it is; if it should hold files, build it again.",
      ],
    );
    // Cached or not, the same word on the next run.
    assert.equal(eventsOf(runCli(root, ["create", ...json]), "warning").length, 1);
  });
});

describe('HookFailed names where hooks.onFailure "fail" came from and how to opt out', () => {
  const failing = { "blog.zip": zip(), "init-scripts/a.sh": exe("#!/bin/sh\nexit 2\n") };

  test("from the auto-detected standard preset", () => {
    const run = runCli(fixture(failing), ["create", ...json]);
    assert.equal(run.status, 1, run.stderr);
    const message = errorOf(run).message as string;
    assert.match(
      message,
      /hooks\.onFailure is "fail" \(set by the preset "standard", applied automatically because its detect glob \*\.zip matched\)/,
    );
    assert.match(
      message,
      /set hooks\.onFailure: "continue" in the config, or turn automatic presets off with "presets": \[\] \(or --preset=none\)/,
    );
  });

  test("from a listed preset, a variable, a config line", () => {
    const listed = runCli(fixture({ ...failing, "dropkit.config.json": '{\n  "presets": ["standard"]\n}\n' }), ["create", ...json]);
    assert.match(
      errorOf(listed).message,
      /set by the preset "standard" \(listed at .*dropkit\.config\.json:2:\d+\)\).*take "standard" out of the presets/,
    );
    const env = runCli(fixture(failing), ["create", "--preset=none", ...json], { DROPKIT_HOOKS_ON_FAILURE: "fail" });
    assert.match(
      errorOf(env).message,
      /\(set by DROPKIT_HOOKS_ON_FAILURE\)\. Fix the hook, or unset DROPKIT_HOOKS_ON_FAILURE, or set it to "continue"\./,
    );
    const root = fixture({ ...failing, "dropkit.config.json": '{\n  "hooks": { "onFailure": "fail" }\n}\n' });
    const config = runCli(root, ["create", ...json]);
    assert.match(
      errorOf(config).message,
      new RegExp(`\\(set at ${path.join(root, "dropkit.config.json")}:2:\\d+\\)\\. Fix the hook, or set it to "continue" there\\.`),
    );
  });
});

describe("the lift says what changes (SPEC section 9's legacy example)", () => {
  const legacy = {
    version: "0.7.2",
    theme: "ocean",
    modules: ["blog", "shop"],
    excluded: ["legacy-*"],
    preset: "standard",
    created: 1714557600000,
    lastRun: "2024-05-01T10:00:00.000Z",
  };
  const drop = (extra: Record<string, FixtureFile> = {}): string =>
    fixture({
      ".dropkit.json": JSON.stringify(legacy, null, 2),
      "legacy-forum.zip": zip(),
      "ocean-theme.zip": zip(),
      "forest-theme.zip": zip(),
      "blog.zip": zip(),
      "shop.zip": zip(),
      ...extra,
    });
  const lifts = (run: ReturnType<typeof runCli>) => eventsOf(run, "warning").filter((w) => w.code === "LegacyPlanDiffers");

  test("the theme and the exclusion that changed are each named, with the config line that keeps them", () => {
    const root = drop();
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 0, run.stderr);
    const state = path.join(root, ".dropkit.json");
    assert.deepEqual(
      lifts(run).map((w) => [w.key, w.keep, w.legacy, w.now, w.source]),
      [
        ["theme", '"theme": "ocean"', "ocean", "forest", state],
        ["exclude", '"exclude": ["legacy-*"]', "legacy-*", ["legacy-forum"], state],
      ],
    );
    assert.match(
      lifts(run)[0]!.message,
      /^The legacy state file .* \(dropkit 0\.7\.2\) recorded the theme "ocean"; this run's plan has the theme "forest" instead\. /,
    );
    assert.match(lifts(run)[0]!.message, /To keep the old choice, add "theme": "ocean" to a dropkit\.config\.json in /);
    assert.match(
      lifts(run)[1]!.message,
      /left out the modules matching "legacy-\*"; this run's plan ships legacy-forum\. To keep them out, add "exclude": \["legacy-\*"\]/,
    );
    // The lift is written as before; the next run reads v1 and says nothing more.
    assert.equal(eventsOf(run, "state")[0]!.lifted, true);
    assert.deepEqual(lifts(runCli(root, ["create", ...json])), []);
  });

  test("with the lines the warnings name in the config, the plan is the legacy one and nothing is said", () => {
    const root = drop({ "dropkit.config.json": JSON.stringify({ theme: "ocean", exclude: ["legacy-*"] }) });
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(lifts(run), []);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8")).plan.modules, ["blog", "shop"]);
  });

  test("a module the legacy plan shipped that this plan leaves out is named with modules.include; --strict refuses the lift", () => {
    const root = drop({ "dropkit.config.json": JSON.stringify({ theme: "ocean", exclude: ["legacy-*", "shop"] }) });
    const strict = runCli(root, ["create", "--strict", ...json]);
    assert.equal(strict.status, 65, strict.stderr);
    assert.match(
      errorOf(strict).message,
      /LegacyPlanDiffers: .* shipped shop; this run's plan leaves it out\. To ship it again, add "modules": \{ "include": \["shop"\] \}/,
    );
    assert.equal(JSON.parse(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8")).version, "0.7.2");
    assert.ok(!fs.existsSync(path.join(root, ".dropkit.json.legacy")));
  });
});

describe("config judges a hooks path that is not a directory as create does", () => {
  for (const key of ["initScriptsDir", "postScriptsDir"] as const) {
    test(`hooks.${key} naming a regular file: the same IOError (74) and record from both`, () => {
      const root = fixture({
        "blog.zip": zip(),
        "hooks.txt": "x",
        "dropkit.config.json": `{\n  "hooks": { "${key}": "./hooks.txt" }\n}\n`,
      });
      const config = runCli(root, ["config", "--json"]);
      const create = runCli(root, ["create", ...json]);
      assert.equal(config.status, 74, config.stderr);
      assert.equal(create.status, 74, create.stderr);
      assert.deepEqual(errorOf(config), errorOf(create));
      assert.equal(errorOf(create).path, `hooks.${key}`);
      assert.match(errorOf(create).message, /\(it is a file, not a directory\)/);
      assert.ok(!fs.existsSync(path.join(root, ".dropkit.json")));
    });
  }
});
