// The small faces of issue 36 on the built CLI: a blank theme, the corrupt cache's copy named, colour levels, the
// package.json dropkit object's place and init's --exclude help (the packed package.json: package.test.ts).

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { cliPath, eventsOf, fixture, runCli } from "../helpers/cli.js";
import { hasScript } from "../helpers/pty.js";

const zip = { zip: { "readme.txt": "x" } };

describe("a theme of only white space is refused as an empty one, wherever it is set", () => {
  const drop = (files: Record<string, string> = {}) => fixture({ "ocean-theme.zip": zip, "blog.zip": zip, ...files });

  for (const command of ["config", "create"]) {
    test(`${command} --theme "  \\t": UsageError (64) at --theme, the value shown escaped; nothing written`, () => {
      const root = drop();
      const run = runCli(root, [command, "--theme", " \t", "--log-format=json"]);
      assert.equal(run.status, 64, run.stderr);
      const [error] = eventsOf(run, "error");
      assert.deepEqual([error!.name, error!.path, error!.source], ["UsageError", "theme", "--theme"]);
      assert.match(error!.message, /theme must not be only white space: .*, found " \\t"\.$/);
      assert.equal(fs.existsSync(path.join(root, ".dropkit.json")), false);
      // In text too, the value is visible.
      const text = runCli(root, [command, "--theme=  "]);
      assert.equal(text.status, 64);
      assert.match(text.stderr, /UsageError \(exit 64\): Invalid value for --theme: theme must not be only white space.*, found " {2}"\./);
    });
  }

  test('"theme": " \\t" in the config: SchemaValidationError (65) at its line:column, for config and create alike', () => {
    const root = drop({ "dropkit.config.json": '{\n  "theme": " \\t\\u00a0"\n}\n' });
    for (const command of ["config", "create"]) {
      const run = runCli(root, [command, "--log-format=json"]);
      assert.equal(run.status, 65, run.stderr);
      const [error] = eventsOf(run, "error");
      assert.deepEqual([error!.name, error!.path, error!.line, error!.column], ["SchemaValidationError", "theme", 2, 12]);
      assert.match(error!.message, /^Theme must not be only white space: .*, found the string " \\t\\u00a0"\.$/);
    }
  });

  test("a blank DROPKIT_THEME counts as unset, as an empty one: the config's theme applies, and create chooses it", () => {
    const root = drop({ "dropkit.config.json": '{"theme": "ocean"}\n' });
    for (const value of ["", "  ", "\t"]) {
      const run = runCli(root, ["config", "--json"], { DROPKIT_THEME: value });
      assert.equal(run.status, 0, run.stderr);
      const out = JSON.parse(run.stdout);
      assert.deepEqual([out.config.theme, out.origins.theme.layer], ["ocean", "config"], JSON.stringify(value));
    }
    const created = runCli(root, ["create", "--log-format=json"], { DROPKIT_THEME: "  " });
    assert.equal(created.status, 0, created.stderr);
    assert.equal(JSON.parse(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8")).plan.theme, "ocean");
  });
});

describe("the corrupt cache's warning names the file it is moved to", () => {
  test("the warning gives the very name the copy has (no <time> placeholder), in JSON and text", () => {
    for (const format of ["json", "text"]) {
      const root = fixture({ "blog.zip": zip, ".dropkit-cache.json": "garbage\n" });
      const run = runCli(root, ["create", `--log-format=${format}`]);
      assert.equal(run.status, 0, run.stderr);
      const copies = fs.readdirSync(root).filter((n) => n.startsWith(".dropkit-cache.json.corrupt-"));
      assert.equal(copies.length, 1, copies.join());
      const copy = path.join(root, copies[0]!);
      assert.equal(fs.readFileSync(copy, "utf8"), "garbage\n");
      assert.doesNotMatch(run.stderr, /<time>/);
      const warnings =
        format === "json"
          ? eventsOf(run, "warning").map((w) => w.message as string)
          : run.stderr.split("\n").filter((l) => l.startsWith("warning"));
      assert.equal(
        warnings.filter((w) => w.includes(`is corrupt`) && w.includes(`moved aside to ${copy} and rebuilt`)).length,
        1,
        run.stderr,
      );
      if (format === "json") assert.equal(eventsOf(run, "state").find((s) => s.action === "cache")!.movedAside, copy);
    }
  });

  test("a cache that goes bad during the run (an init script writes over it) is moved aside with a warning naming the copy", () => {
    const root = fixture({
      "blog.zip": zip,
      "init-scripts/10-spoil.sh": { text: "#!/bin/sh\nprintf 'spoilt' > .dropkit-cache.json\n", mode: 0o755 },
    });
    const first = runCli(root, ["create", "--log-format=json"]);
    assert.equal(first.status, 0, first.stderr);
    const run = runCli(root, ["create", "--log-format=json"]);
    assert.equal(run.status, 0, run.stderr);
    const moved = eventsOf(run, "state").find((s) => s.action === "cache")!.movedAside as string;
    assert.match(moved, /\.dropkit-cache\.json\.corrupt-/);
    assert.equal(fs.readFileSync(moved, "utf8"), "spoilt");
    assert.ok(
      eventsOf(run, "warning").some((w) => String(w.message).endsWith(`it was moved aside to ${moved} and rebuilt.`)),
      run.stderr,
    );
  });
});

describe("the help's colours follow the level asked for, and every code is in range", () => {
  /** The SGR sequences of `text`, each as its list of numbers. */
  const sgr = (text: string): number[][] => [...text.matchAll(/\x1b\[([0-9;]*)m/g)].map((m) => m[1]!.split(";").map(Number));

  /** Which colour codes `text` uses (16, 256, 24-bit); fails on any code out of range. */
  function levels(text: string): Set<string> {
    const used = new Set<string>();
    for (const params of sgr(text)) {
      for (let i = 0; i < params.length; i++) {
        const p = params[i]!;
        if (p === 38 || p === 48) {
          const kind = params[i + 1];
          const values = params.slice(i + 2, i + (kind === 5 ? 3 : 5));
          assert.ok(kind === 5 || kind === 2, `38;${kind}`);
          for (const v of values) assert.ok(Number.isInteger(v) && v >= 0 && v <= 255, `out of range: ${params.join(";")}`);
          used.add(kind === 5 ? "256" : "24-bit");
          i += kind === 5 ? 2 : 4;
        } else {
          assert.ok(
            [0, 1, 2, 22, 39, 49].includes(p) || (p >= 30 && p <= 37) || (p >= 90 && p <= 97),
            `not an SGR code: ${params.join(";")}`,
          );
          if ((p >= 30 && p <= 37) || (p >= 90 && p <= 97)) used.add("16");
        }
      }
    }
    return used;
  }

  const dir = fixture({});
  const expected: Array<[string, string[]]> = [
    ["1", ["16"]],
    ["true", ["16"]],
    ["2", ["16", "256"]],
    ["3", ["16", "24-bit"]],
  ];
  for (const [force, want] of expected) {
    test(`FORCE_COLOR=${force}: ${want.join(" and ")} colours in --help, help and a command's help`, () => {
      for (const args of [["--help"], ["help"], ["create", "--help"]]) {
        const run = runCli(dir, args, { FORCE_COLOR: force });
        assert.equal(run.status, 0, run.stderr);
        assert.deepEqual([...levels(run.stdout)].sort(), want, `${args.join(" ")}: ${JSON.stringify(run.stdout.slice(0, 400))}`);
        // A header's rule is 80 columns, as without colour codes.
        const headers = run.stdout
          .replace(/\x1b\[[0-9;]*m/g, "")
          .split("\n")
          .filter((l) => l.startsWith("━━━ "));
        assert.ok(headers.length > 0 && headers.every((h) => h.length <= 80), JSON.stringify(headers));
      }
    });
  }

  test("NO_COLOR wins over FORCE_COLOR=3: no escape at all", () => {
    const run = runCli(dir, ["--help"], { FORCE_COLOR: "3", NO_COLOR: "1" });
    assert.equal(run.status, 0, run.stderr);
    assert.doesNotMatch(run.stdout, /\x1b/);
  });

  test("on a terminal, its depth decides: TERM=xterm 16 colours, xterm-256color 256, COLORTERM=truecolor 24-bit", {
    skip: !hasScript() && "no script(1)",
  }, () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ TERM: "xterm" }, "16"],
      [{ TERM: "xterm-256color" }, "256"],
      [{ TERM: "xterm", COLORTERM: "truecolor" }, "24-bit"],
    ];
    for (const [env, want] of cases) {
      const run = spawnSync("script", ["-qec", `${process.execPath} ${cliPath} --help`, "/dev/null"], {
        cwd: dir,
        env: { PATH: process.env.PATH, HOME: dir, ...env },
        encoding: "utf8",
      });
      assert.equal(run.status, 0, run.stderr);
      const used = levels(run.stdout);
      assert.deepEqual([...used].filter((l) => l !== "16").sort(), want === "16" ? [] : [want], JSON.stringify(env));
    }
  });
});

describe("an unknown key in package.json's dropkit object", () => {
  test("is placed in that object, at its line:column with a caret, in text and JSON", () => {
    const root = fixture({ "blog.zip": zip, "package.json": '{\n  "name": "drop",\n  "dropkit": {\n    "themes": "ocean"\n  }\n}\n' });
    const json = runCli(root, ["config", "--log-format=json"]);
    assert.equal(json.status, 65, json.stderr);
    const [error] = eventsOf(json, "error");
    assert.deepEqual([error!.name, error!.path, error!.line, error!.column], ["SchemaValidationError", "themes", 4, 5]);
    assert.match(error!.message, /^Unknown key "themes" in package\.json's dropkit object\. Did you mean "theme"\?/);
    const text = runCli(root, ["config"]);
    assert.equal(text.status, 65);
    assert.match(
      text.stderr,
      /Unknown key "themes" in package\.json's dropkit object.*\n +at .*package\.json:4:5\n +4 \| +"themes": "ocean"\n +\| +\^/,
    );
    assert.doesNotMatch(text.stderr, /top level/);
  });
});

describe("init --help says what --exclude does for init", () => {
  /** The description of `--exclude` in a command's help. */
  const excludeLine = (root: string, command: string): string => {
    const run = runCli(root, [command, "--help"]);
    assert.equal(run.status, 0, run.stderr);
    return run.stdout.split("\n").find((l) => /^ +--exclude <glob> /.test(l)) ?? "";
  };

  test('init: it seeds the answer written to modules.exclude (not "wins over everything"), as init --yes --exclude writes', () => {
    const root = fixture({ "blog.zip": zip, "shop.zip": zip });
    assert.match(
      excludeLine(root, "init"),
      /start the modules-to-exclude answer with this glob \(repeatable; written to modules\.exclude\)/,
    );
    assert.doesNotMatch(excludeLine(root, "init"), /wins over everything/);
    // create and config keep the flag's meaning there: it wins over every layer.
    for (const command of ["create", "config"]) assert.match(excludeLine(root, command), /wins over everything/);
    const run = runCli(root, ["init", "--yes", "--exclude=shop"]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(root, "dropkit.config.json"), "utf8")).modules, { exclude: ["shop"] });
  });
});
