// Tests for src/config/lookalikes.ts and its use by discovery: files that look like a config but are none of the four forms.

import assert from "node:assert/strict";
import path from "node:path";
import { describe, test } from "node:test";
import { findConfig } from "../../src/config/discovery.js";
import { nearMissesIn, nearMissesInDotConfig, nearMissWarning } from "../../src/config/lookalikes.js";
import { eventsOf, fixture, runCli } from "../helpers/cli.js";

const names = (misses: Array<{ file: string }>) => misses.map((m) => path.basename(m.file));

describe("nearMissesIn", () => {
  test("every other extension of dropkit.config, dropkit.<config extension>, dropkit.config and .dropkitrc*", () => {
    const listed = [
      "dropkit.config.mjs",
      "dropkit.config.cjs",
      "dropkit.config.mts",
      "dropkit.config.cts",
      "dropkit.config.yaml",
      "dropkit.config.yml",
      "dropkit.config.jsonc",
      "dropkit.config.json5",
      "dropkit.config.toml",
      "dropkit.config",
      "dropkit.json",
      "dropkit.yaml",
      "dropkit.ts",
      ".dropkitrc",
      ".dropkitrc.json",
      ".dropkitrc.yml",
      ".dropkitrc.js",
      "dropkitrc",
    ];
    assert.deepEqual(names(nearMissesIn("/d", listed)).sort(), [...listed].sort());
  });

  test("the four forms, archives, dropkit's own state files, declarations and unrelated files are not near misses", () => {
    const listed = [
      "dropkit.config.ts",
      "dropkit.config.js",
      "dropkit.config.json",
      "package.json",
      "dropkit.zip",
      "dropkit-theme.zip",
      "dropkit.md",
      ".dropkit.json",
      ".dropkit-cache.json",
      ".dropkit.json.legacy",
      ".dropkit.json.corrupt-1",
      "dropkit.config.d.ts",
      "dropkit.config.js.map",
      "README.md",
      "tsconfig.json",
    ];
    assert.deepEqual(nearMissesIn("/d", listed), []);
  });

  test("a form in other letter case: a near miss unless it is the file discovery found (a case-insensitive file system)", () => {
    assert.deepEqual(names(nearMissesIn("/d", ["Dropkit.Config.JSON"])), ["Dropkit.Config.JSON"]);
    assert.deepEqual(nearMissesIn("/d", ["Dropkit.Config.JSON"], ["/d/dropkit.config.json"]), []);
    // Both listed: two different files, and the one in other case is ignored.
    assert.deepEqual(names(nearMissesIn("/d", ["Dropkit.Config.JSON", "dropkit.config.json"], ["/d/dropkit.config.json"])), [
      "Dropkit.Config.JSON",
    ]);
  });

  test("the .config folder: dropkit.*, dropkitrc* and the like", () => {
    assert.deepEqual(
      names(nearMissesInDotConfig("/d/.config", ["dropkit.json", "dropkitrc", "dropkit.ts", "git", "other.json", "dropkit.d.ts"])),
      ["dropkit.json", "dropkit.ts", "dropkitrc"],
    );
  });
});

describe("nearMissWarning", () => {
  const warn = (dir: string, name: string, cwd = dir) => nearMissWarning(nearMissesIn(dir, [name])[0]!, cwd);

  test("a script or JSON file: rename it to the form it should be, or --config relative to the working directory", () => {
    assert.match(
      warn("/d", "dropkit.config.mjs"),
      /^\/d\/dropkit\.config\.mjs looks like a dropkit config, .* ignored: rename it to dropkit\.config\.js, or pass --config=dropkit\.config\.mjs\.$/,
    );
    assert.match(warn("/d", "dropkit.config.mts"), /rename it to dropkit\.config\.ts,/);
    assert.match(warn("/d", ".dropkitrc", "/d/sub"), /rename it to dropkit\.config\.json, or pass --config=\.\.\/\.dropkitrc\.$/);
    assert.match(warn("/d", "dropkit.config.jsonc"), /rename it to dropkit\.config\.json \(as JSON without comments\)/);
  });

  test("YAML and TOML: dropkit cannot read them, so no --config", () => {
    assert.match(warn("/d", "dropkit.config.yml"), /dropkit reads no YAML; write it as dropkit\.config\.json\.$/);
    assert.match(warn("/d", "dropkit.toml"), /dropkit reads no TOML; write it as dropkit\.config\.json\.$/);
  });

  test("a .config file is to be moved up", () => {
    const [miss] = nearMissesInDotConfig("/d/.config", ["dropkit.ts"]);
    assert.match(nearMissWarning(miss!, "/d"), /move it to \/d\/dropkit\.config\.ts, or pass --config=\.config\/dropkit\.ts\.$/);
  });
});

describe("discovery", () => {
  test("near misses of every searched directory are collected, nearest directory first, its .config folder last; the found config is not one", async () => {
    const root = fixture({
      "dropkit.config.json": "{}",
      "dropkit.config.mjs": "export default {};",
      ".config/dropkit.yaml": "theme: x",
      "a/b/.dropkitrc": "{}",
      "a/dropkit.json": "{}",
    });
    const found = await findConfig(path.join(root, "a/b"), { GIT_CEILING_DIRECTORIES: path.dirname(root) });
    assert.equal(found.file, path.join(root, "dropkit.config.json"));
    assert.deepEqual(
      found.nearMisses.map((m) => path.relative(root, m.file)),
      ["a/b/.dropkitrc", "a/dropkit.json", "dropkit.config.mjs", ".config/dropkit.yaml"],
    );
  });

  test("a directory beyond the one holding .git is not searched, so its near misses are not reported", async () => {
    const root = fixture({ "inner/.git/HEAD": "", "dropkit.config.mjs": "" });
    const found = await findConfig(path.join(root, "inner"), { GIT_CEILING_DIRECTORIES: path.dirname(root) });
    assert.deepEqual(found.nearMisses, []);
  });
});

describe("the CLI", () => {
  test("each near miss is a warning naming the file, with the config still found and used", () => {
    const root = fixture({ "dropkit.config.cjs": 'module.exports = { theme: "cjs" };', "sub/dropkit.config.yaml": "theme: yaml" });
    const run = runCli(path.join(root, "sub"), ["config", "--json", "--log-format=json"]);
    assert.equal(run.status, 0, run.stderr);
    const warnings = eventsOf(run, "warning");
    assert.deepEqual(
      warnings.map((w) => w.source),
      [path.join(root, "sub/dropkit.config.yaml"), path.join(root, "dropkit.config.cjs")],
    );
    assert.match(warnings[1]!.message, /rename it to dropkit\.config\.js, or pass --config=\.\.\/dropkit\.config\.cjs/);
    // No config of the four forms: the defaults, as before, but no longer silently.
    assert.equal(JSON.parse(run.stdout).config.theme, "auto");
    const used = runCli(path.join(root, "sub"), ["config", "--json", "--config=../dropkit.config.cjs"]);
    assert.equal(JSON.parse(used.stdout).config.theme, "cjs");
  });
});
