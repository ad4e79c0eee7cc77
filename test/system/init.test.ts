// Tests for `dropkit init` on the built CLI: the seven prompts driven with keys on a pseudo-terminal, --yes, --force, no terminal, Ctrl-C and existing configs.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { cliPath, eventsOf, fixture, runCli } from "../helpers/cli.js";
import { hasScript, keys, Terminal } from "../helpers/pty.js";

const zip = { zip: { "readme.txt": "hello\n" } };
const pty = { skip: hasScript() ? false : "needs script(1) for a pseudo-terminal", timeout: 120_000 };
const schema = "./node_modules/dropkit/schema.json";

/** A drop with two themes, four modules and a local preset. */
function drop(extra: Record<string, string> = {}): string {
  return fixture({
    "ocean-theme.zip": zip,
    "forest-theme.zip": zip,
    "blog.zip": zip,
    "shop.zip": zip,
    "test-a.zip": zip,
    "test-b.zip": zip,
    "presets/ci.json": '{ "cache": { "enabled": false } }\n',
    // Installed here, so that $schema points at it.
    "node_modules/dropkit/schema.json": "{}\n",
    ...extra,
  });
}

/** Picks "other…" at the theme question and types `theme`. */
async function typeTheme(term: Terminal, theme: string): Promise<void> {
  await term.expect("◆  Theme");
  term.send(keys.up, keys.enter); // wraps round to "other…"
  await term.expect("◆  Theme name or .zip path");
  term.send(theme, keys.enter);
}

function readConfig(root: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(root, "dropkit.config.json"), "utf8"));
}

/**
 * The seven prompts of the test "answers each prompt with keys", each as: the text to wait for, then
 * the keys to send. Cut after any step for Ctrl-C.
 */
const answers: Array<[string, string[]]> = [
  // theme: auto, forest, ocean, ... -> ocean
  ["◆  Theme", [keys.down, keys.down, keys.enter]],
  // presets: auto-detect (on), standard, ci -> off, off, on
  ["◆  Presets", [keys.space, keys.down, keys.down, keys.space, keys.enter]],
  // exclude: type to search, Tab selects
  ["◆  Modules to exclude", ["sh", keys.tab, keys.enter]],
  // only: up wraps round to the last option, the test-* glob; Space selects while navigating; down wraps to blog
  ["◆  Only these modules", [keys.up, keys.space, keys.down, keys.space, keys.enter]],
  // hooks.onFailure: continue -> fail
  ["◆  When a hook script fails", [keys.down, keys.enter]],
  // cache.enabled: the ci preset turned it off; Yes turns it back on
  ["◆  Cache archive fingerprints?", [keys.left, keys.enter]],
  // log.format: text -> json
  ["◆  Decisions log format", [keys.down, keys.enter]],
];

describe("init on a terminal", () => {
  test("answers each of the seven prompts with keys and writes only what differs", pty, async () => {
    const root = drop();
    const term = new Terminal(root, ["init"]);
    await term.expect("7 questions");
    for (const [prompt, sequence] of answers) {
      await term.expect(prompt);
      term.send(...sequence);
    }
    await term.expect("next");
    assert.equal(await term.exit(), 0, term.screen);
    assert.deepEqual(readConfig(root), {
      $schema: schema,
      schema: 1,
      theme: "ocean",
      presets: ["ci"],
      presetsSearchPath: ["./presets"],
      modules: { exclude: ["shop"], only: ["blog", "test-*"] },
      hooks: { onFailure: "fail" },
      cache: { enabled: true },
      log: { format: "json" },
    });
    // The folder's choices were offered, each with a hint.
    assert.match(term.screen, /forest \(forest-theme\.zip\)|○ forest/);
    assert.match(term.screen, /auto-detect/);
    assert.match(term.screen, /ci \(\.\/presets\/ci\.json\)|◻ ci/);
    // The resolved result and the next step.
    assert.match(term.screen, /written .*dropkit\.config\.json/);
    assert.match(term.screen, /decision\s+theme\s+ocean\s+config\s+\S+dropkit\.config\.json:4:12/);
    assert.match(term.screen, /next\s+run dropkit create/);
    // What was written is what every other command reads.
    const run = runCli(root, ["config", "--json"]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).config.theme, "ocean");
  });

  test("typing: a theme path by hand, and module globs checked by the core as they are typed", pty, async () => {
    const root = fixture({ "themes/sea-theme.zip": zip });
    const term = new Terminal(root, ["init"]);
    await typeTheme(term, "./themes/sea-theme.zip");
    await term.expect("◆  Presets");
    term.send(keys.space, keys.enter); // nothing picked: no presets
    await term.expect("◆  Modules to exclude");
    term.send("old-*, a*b", keys.enter);
    await term.expect("one '*', only at its end");
    term.send(keys.backspace, keys.backspace, keys.backspace, keys.backspace, keys.backspace, keys.enter);
    await term.expect("◆  Only these modules");
    term.send(keys.enter);
    for (const prompt of ["◆  When a hook script fails", "◆  Cache archive fingerprints?", "◆  Decisions log format"]) {
      await term.expect(prompt);
      term.send(keys.enter);
    }
    assert.equal(await term.exit(), 0, term.screen);
    assert.deepEqual(readConfig(root), {
      schema: 1,
      theme: "./themes/sea-theme.zip",
      presets: [],
      modules: { exclude: ["old-*"] },
    });
  });

  test("a bad flag stops init on a terminal before the first question, at the flag", pty, async () => {
    const root = drop();
    const term = new Terminal(root, ["init", "--theme=nope"]);
    assert.equal(await term.exit(), 66, term.screen);
    assert.match(term.screen, /ThemeNotFound \(exit 66\): Theme "nope" not found[\s\S]*at --theme/);
    assert.doesNotMatch(term.screen, /◆ {2}Theme/);
    assert.ok(!fs.existsSync(path.join(root, "dropkit.config.json")));
  });

  test("a typed theme the folder does not hold is refused at the prompt, with the themes it does hold", pty, async () => {
    const root = drop();
    const term = new Terminal(root, ["init"]);
    await typeTheme(term, "ocaen");
    await term.expect('Theme "ocaen" not found');
    await term.expect(/Did you mean\s+"ocean"\?/);
    term.send(keys.backspace, keys.backspace, keys.backspace, keys.backspace, keys.backspace, "OCEAN", keys.enter);
    await term.expect("◆  Presets");
    term.send(keys.enter);
    for (const prompt of [
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
    // Theme names compare in any letter case, as archives are found: OCEAN is ocean-theme.zip.
    assert.equal((readConfig(root) as { theme: string }).theme, "OCEAN");
  });

  test("Ctrl-C at any of the seven prompts writes nothing and exits 130", pty, async () => {
    const root = drop();
    for (let at = 0; at < answers.length; at++) {
      const term = new Terminal(root, ["init"]);
      for (const [prompt, sequence] of answers.slice(0, at)) {
        await term.expect(prompt);
        term.send(...sequence);
      }
      await term.expect(answers[at]![0]);
      term.send(keys.ctrlC);
      assert.equal(await term.exit(), 130, `prompt ${at + 1}: ${term.screen}`);
      assert.match(term.screen, /Cancelled: nothing was written/);
      assert.deepEqual(
        fs.readdirSync(root).filter((f) => f.startsWith("dropkit.config") || f.endsWith(".tmp")),
        [],
        `prompt ${at + 1}`,
      );
    }
  });
});

describe("init without questions", () => {
  test("no terminal and no --yes exits 64 at once, without waiting for input", async () => {
    const root = drop();
    // stdin stays open: a program that waited for an answer would never end.
    const child = spawn(process.execPath, [cliPath, "init"], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", GIT_CEILING_DIRECTORIES: path.dirname(root) },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    clearTimeout(timer);
    child.stdin.end();
    assert.equal(code, 64, stderr);
    assert.equal(stdout, "");
    assert.match(stderr, /UsageError \(exit 64\): init asks questions and needs a terminal.*dropkit init --yes/s);
    assert.ok(!fs.existsSync(path.join(root, "dropkit.config.json")));
  });

  test("--yes takes every default: the file holds only $schema and schema, and validates", () => {
    const root = drop();
    const run = runCli(root, ["init", "--yes"]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, "");
    assert.equal(
      fs.readFileSync(path.join(root, "dropkit.config.json"), "utf8"),
      `{\n  "$schema": "${schema}",\n  "schema": 1,\n  "presetsSearchPath": ["./presets"]\n}\n`,
    );
    assert.match(run.stderr, /^state\s+written .*dropkit\.config\.json$/m);
    assert.match(run.stderr, /^decision\s+hooks\.onFailure\s+fail\s+preset\s+standard$/m);
    assert.match(run.stderr, /^next\s+run dropkit create/m);
    assert.equal(runCli(root, ["config"]).status, 0);
  });

  test("--yes in an empty folder writes no presetsSearchPath nor a $schema to nothing; the JSON log has the file and every decision", () => {
    const root = fixture();
    const run = runCli(root, ["init", "--yes", "--log-format=json"]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(readConfig(root), { schema: 1 });
    assert.deepEqual(eventsOf(run, "state"), [{ event: "state", action: "written", file: path.join(root, "dropkit.config.json") }]);
    assert.equal(eventsOf(run, "decision").length, 13);
    assert.equal(run.records.length, 14, "no text lines in the JSON log");
  });

  test("--theme, --preset and --exclude change the defaults of --yes; invalid ones are caught before writing", () => {
    const root = drop();
    const run = runCli(root, ["init", "--yes", "--theme=forest", "--preset=standard", "--exclude=shop", "--exclude=old-*"]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(readConfig(root), {
      $schema: schema,
      schema: 1,
      theme: "forest",
      presets: ["standard"],
      modules: { exclude: ["shop", "old-*"] },
    });
    const other = drop();
    const bad = runCli(other, ["init", "--yes", "--preset=nope", "--log-format=json"]);
    assert.equal(bad.status, 67, bad.stderr);
    assert.equal(eventsOf(bad, "error")[0]!.name, "PresetNotFound");
    assert.ok(!fs.existsSync(path.join(other, "dropkit.config.json")));
  });

  test("--config does not apply to init (64)", () => {
    const root = fixture();
    const run = runCli(root, ["init", "--yes", "--config=./x.json"]);
    assert.equal(run.status, 64);
    assert.match(run.stderr, /--config does not apply/);
    assert.ok(!fs.existsSync(path.join(root, "dropkit.config.json")));
  });

  test("init --help does not offer --config, which init refuses; the other shared flags are listed", () => {
    const run = runCli(fixture(), ["init", "--help"]);
    assert.equal(run.status, 0);
    assert.doesNotMatch(run.stdout, /--config/);
    for (const flag of ["--yes", "--force", "--theme", "--preset", "--exclude", "--log-format"]) assert.match(run.stdout, new RegExp(flag));
  });
});

describe("init and an existing config", () => {
  const forms: Array<[string, string]> = [
    ["dropkit.config.ts", 'export default { theme: "ocean" };\n'],
    ["dropkit.config.js", 'export default { theme: "ocean" };\n'],
    ["dropkit.config.json", '{ "theme": "ocean" }\n'],
    ["package.json", '{ "name": "x", "dropkit": { "theme": "ocean" } }\n'],
  ];
  for (const [name, text] of forms) {
    test(`${name} counts as a config: exit 73, naming --force, and nothing changes`, () => {
      const root = fixture({ [name]: text, "blog.zip": zip });
      const before = fs.readdirSync(root).sort();
      for (const args of [["init", "--yes"], ["init"]]) {
        const run = runCli(root, args);
        assert.equal(run.status, args.length === 2 ? 73 : 64, run.stderr);
        if (args.length === 2)
          assert.match(
            run.stderr,
            new RegExp(`ConfigExists \\(exit 73\\): This folder already has a config: .*${name.replace(".", "\\.")}.*--force`),
          );
      }
      assert.deepEqual(fs.readdirSync(root).sort(), before);
      assert.equal(fs.readFileSync(path.join(root, name), "utf8"), text);
    });
  }

  test("a package.json without a dropkit key is not a config; one in a parent directory is not replaced (it is inherited)", () => {
    const root = fixture({ "package.json": '{ "name": "x" }\n', "dropkit.config.json": "{}", "sub/": "" });
    assert.equal(runCli(path.join(root, "sub"), ["init", "--yes"]).status, 0);
    const plain = fixture({ "package.json": '{ "name": "x" }\n' });
    assert.equal(runCli(plain, ["init", "--yes"]).status, 0);
    assert.equal(fs.readFileSync(path.join(plain, "package.json"), "utf8"), '{ "name": "x" }\n');
  });

  test("--force overwrites dropkit.config.json in place", () => {
    const root = fixture({ "dropkit.config.json": '{ "theme": "ocean" }\n' });
    const run = runCli(root, ["init", "--yes", "--force", "--log-format=json"]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(readConfig(root), { schema: 1 });
    assert.equal(eventsOf(run, "state")[0]!.action, "overwritten");
    assert.deepEqual(eventsOf(run, "warning"), []);
  });

  test("--force beside another form writes dropkit.config.json, keeps the other file, and says which one wins", () => {
    const ts = fixture({ "dropkit.config.ts": 'export default { theme: "ocean" };\n' });
    const run = runCli(ts, ["init", "--yes", "--force", "--log-format=json"]);
    assert.equal(run.status, 0, run.stderr);
    assert.ok(fs.existsSync(path.join(ts, "dropkit.config.ts")));
    assert.deepEqual(readConfig(ts), { schema: 1 });
    assert.match(eventsOf(run, "warning")[0]!.message, /dropkit\.config\.ts still wins over .*dropkit\.config\.json.*remove it/);
    const pkg = fixture({ "package.json": '{ "dropkit": { "theme": "ocean" } }\n' });
    const again = runCli(pkg, ["init", "--yes", "--force", "--log-format=json"]);
    assert.equal(again.status, 0, again.stderr);
    assert.match(eventsOf(again, "warning")[0]!.message, /package\.json still has a dropkit key; .* wins over it/);
  });
});
