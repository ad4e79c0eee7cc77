// The command line on the built CLI: unknown and incomplete flags in any form and place, one usage-error format, --help and --version everywhere, -C <dir>.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { eventsOf, fixture, runBundles, runCli, type RunResult } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";

const zip = { zip: { "readme.txt": "hello\n" } };
const version = JSON.parse(fs.readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version as string;

/** The three ways of asking for the JSON log before any config is read, and the text log (none of them). */
const modes: Array<{ mode: string; args: string[]; env: Record<string, string> }> = [
  { mode: "text", args: [], env: {} },
  { mode: "--log-format=json", args: ["--log-format=json"], env: {} },
  { mode: "DROPKIT_LOG_FORMAT=json", args: [], env: { DROPKIT_LOG_FORMAT: "json" } },
];

/**
 * Checks that `run` is one usage error and nothing else: exit 64, nothing on stdout, and in text one `error` line at
 * `source` (and, in JSON, every line a record and the one error record's name, code and source).
 */
function assertUsageError(run: RunResult, mode: string, source: string, message: RegExp, what: string): void {
  const shown = `${what} (${mode}):\n${run.stderr}`;
  assert.equal(run.status, 64, shown);
  assert.equal(run.stdout, "", shown);
  assert.match(mode === "text" ? run.stderr : (eventsOf(run, "error")[0]?.message ?? ""), message, shown);
  if (mode === "text") {
    assert.deepEqual(run.records, [], `a JSON record in the text log: ${shown}`);
    assert.deepEqual(
      run.stderr.split("\n").filter((l) => l.startsWith("error ")),
      [run.stderr.split("\n").find((l) => l.startsWith("error     UsageError (exit 64): "))],
      shown,
    );
    assert.ok(run.stderr.split("\n").includes(`          at ${source}`), shown);
  } else {
    assert.equal(run.stderr.trimEnd().split("\n").length, run.records.length, `not all JSON: ${shown}`);
    assert.deepEqual(
      eventsOf(run, "error").map((r) => [r.name, r.exitCode, r.source]),
      [["UsageError", 64, source]],
      shown,
    );
  }
}

describe("one parse of the command line: an unknown or incomplete flag is the same usage error in any position and form", () => {
  const root = fixture({ "blog.zip": zip });

  test("a mistyped flag, after a --flag=value flag, a --flag value flag, first, last or before the command, names the flag and the closest one", () => {
    const lines = [
      ["create", "--theme=ocean", "--exlude=shop"],
      ["create", "--exlude=shop"],
      ["create", "--exlude=shop", "--theme=ocean"],
      ["create", "--theme", "ocean", "--exlude", "shop"],
      ["create", "--theme", "ocean", "--exlude"],
      ["create", "--strict", "--preset=standard", "--exlude=shop", "--dry-run"],
      ["--theme=ocean", "--exlude=shop", "create"],
    ];
    for (const args of lines) {
      for (const { mode, args: extra, env } of modes) {
        const run = runCli(root, [...args, ...extra], env);
        assertUsageError(run, mode, "--exlude", /Unknown flag --exlude for dropkit create\. Did you mean --exclude\?/, args.join(" "));
      }
    }
    assert.ok(!fs.existsSync(path.join(root, ".dropkit.json")));
  });

  test("config --json's records name the flag too, and a flag of another command is unknown here", () => {
    const typo = runCli(root, ["config", "--explain=theme", "--jsn"]);
    assertUsageError(typo, "text", "--jsn", /Unknown flag --jsn for dropkit config\. Did you mean --json\?/, "config --jsn");
    const other = runCli(root, ["config", "--json", "--theme=ocean", "--dry-run"]);
    assertUsageError(other, "--json", "--dry-run", /Unknown flag --dry-run for dropkit config\./, "config --dry-run");
  });

  test("a flag without its value, anywhere on the line, names that flag with its = form", () => {
    const lines = [
      ["create", "--config"],
      ["create", "--theme=ocean", "--config"],
      ["create", "--theme", "ocean", "--config"],
      ["create", "--config", "--theme=ocean"],
      ["create", "--config", "--strict"],
      ["--config", "create"],
      ["create", "--config", "--", "x"],
    ];
    for (const args of lines) {
      for (const { mode, args: extra, env } of modes) {
        // --log-format=json goes first here: after the flag it would be the value the flag lacks.
        const run = runCli(root, [...extra, ...args], env);
        assertUsageError(run, mode, "--config", /--config needs a value: --config=<path>\./, args.join(" "));
      }
    }
    // A value that starts with a dash and is no flag of the command: the = form is what passes it.
    const dash = runCli(root, ["create", "--theme=ocean", "--exclude", "-legacy"]);
    assertUsageError(
      dash,
      "text",
      "--exclude",
      /"-legacy" after it is read as a flag\. For a value that starts with a dash, write --exclude=-legacy\./,
      "dash",
    );
  });

  test("a value given to a flag that takes none, and arguments too many or too few, name the word", () => {
    for (const { mode, args: extra, env } of modes) {
      assertUsageError(
        runCli(root, ["create", "--theme=ocean", "--strict=yes", ...extra], env),
        mode,
        "--strict",
        /--strict takes no value/,
        "--strict=yes",
      );
      assertUsageError(
        runCli(root, ["create", "--theme=ocean", "extra", ...extra], env),
        mode,
        "extra",
        /Unexpected argument "extra"/,
        "extra",
      );
      assertUsageError(runCli(root, ["completion", "bash", "zsh", ...extra], env), mode, "zsh", /Unexpected argument "zsh"/, "bash zsh");
      assertUsageError(
        runCli(root, ["help", "create", "config", ...extra], env),
        mode,
        "config",
        /Unexpected argument "config"/,
        "help a b",
      );
      assertUsageError(runCli(root, ["completion", ...extra], env), mode, "completion", /is missing an argument/, "completion");
    }
  });
});

describe("usage errors have one format, decided before any config is read", () => {
  test("log.format json in the config does not make a usage error JSON: a value the core refuses is text like a typo", () => {
    const root = fixture({ "dropkit.config.json": '{ "log": { "format": "json" } }\n', "blog.zip": zip });
    const lines: Array<{ args: string[]; source: string; message: RegExp }> = [
      { args: ["create", "--theme=a/b"], source: "--theme", message: /Invalid value for --theme/ },
      { args: ["create", "--them=a"], source: "--them", message: /Unknown flag --them for dropkit create/ },
      { args: ["config", "--theme="], source: "--theme", message: /theme must not be empty/ },
      { args: ["config", "--explain", "nope"], source: "--explain", message: /Unknown key "nope" for --explain/ },
      { args: ["create", "--exclude=a*b"], source: "--exclude", message: /Invalid value for --exclude/ },
    ];
    for (const { args, source, message } of lines) {
      // The text log: the config's record, then the error, both text (the config was read, and its format not taken).
      const text = runCli(root, args);
      assert.equal(text.status, 64, `${args.join(" ")}: ${text.stderr}`);
      assert.equal(text.stdout, "");
      assert.match(text.stderr, message);
      assert.doesNotMatch(text.stderr, /^\{/m, `${args.join(" ")}: a JSON line: ${text.stderr}`);
      assert.match(text.stderr, /^error {5}UsageError \(exit 64\): /m);
      assert.ok(text.stderr.split("\n").includes(`          at ${source}`), text.stderr);
      for (const { mode, args: extra, env } of modes.slice(1)) {
        const run = runCli(root, [...args, ...extra], env);
        assert.equal(run.status, 64, `${args.join(" ")} ${mode}: ${run.stderr}`);
        assert.equal(run.stderr.trimEnd().split("\n").length, run.records.length, `${mode}: not all JSON: ${run.stderr}`);
        assert.deepEqual(
          eventsOf(run, "error").map((r) => [r.name, r.source]),
          [["UsageError", source]],
        );
      }
    }
    assert.ok(!fs.existsSync(path.join(root, ".dropkit.json")));
  });

  test("config --json asks for JSON records, whatever the config says", () => {
    const root = fixture({ "dropkit.config.json": '{ "log": { "format": "text" } }\n' });
    const run = runCli(root, ["config", "--json", "--theme=a/b"]);
    assert.equal(run.status, 64, run.stderr);
    assert.deepEqual(
      eventsOf(run, "error").map((r) => [r.name, r.source]),
      [["UsageError", "--theme"]],
    );
  });

  test("every other problem still follows log.format in the config", () => {
    const root = fixture({ "dropkit.config.json": '{ "log": { "format": "json" }, "theme": 3 }\n' });
    const run = runCli(root, ["config"]);
    assert.equal(run.status, 65, run.stderr);
    assert.deepEqual(
      eventsOf(run, "error").map((r) => [r.name, r.path]),
      [["SchemaValidationError", "theme"]],
    );
  });
});

describe("--help and --version on every command, after arguments too, as git and npm take them", () => {
  const root = fixture({ "blog.zip": zip });

  test("--version (and -v) prints the version on stdout and exits 0, whatever else is on the line", () => {
    const lines = [
      ["completion", "--version"],
      ["completion", "bash", "--version"],
      ["help", "--version"],
      ["help", "create", "-v"],
      ["create", "--version"],
      ["create", "--theme", "ocean", "--version"],
      ["config", "--exlude=x", "--version"],
      ["init", "--yes", "--version"],
      ["--version", "extra"],
    ];
    for (const args of lines) {
      for (const { mode, args: extra, env } of modes) {
        const run = runCli(root, [...args, ...extra], env);
        assert.deepEqual([run.status, run.stdout, run.stderr], [0, `${version}\n`, ""], `${args.join(" ")} (${mode})`);
      }
    }
    // Nothing ran: no state file, no config written by init.
    assert.deepEqual(fs.readdirSync(root).sort(), [".git", "blog.zip"]);
  });

  test("--help (and -h) prints the help of the command named, on stdout, exit 0", () => {
    const helpOf = (command: string) => runCli(root, [command, "--help"]).stdout;
    const lines: Array<[string[], string]> = [
      [["completion", "bash", "--help"], "completion"],
      [["completion", "tcsh", "-h"], "completion"],
      [["help", "--help"], "help"],
      [["help", "create", "--help"], "help"],
      [["create", "--theme", "x", "--help"], "create"],
      [["create", "--exlude=shop", "--help"], "create"],
      [["config", "--json", "extra", "--help"], "config"],
      [["init", "--yes", "-h"], "init"],
    ];
    for (const [args, command] of lines) {
      const expected = helpOf(command);
      assert.match(expected, new RegExp(`\\$ dropkit ${command}`));
      for (const { mode, args: extra, env } of modes) {
        const run = runCli(root, [...args, ...extra], env);
        assert.deepEqual([run.status, run.stderr], [0, ""], `${args.join(" ")} (${mode})`);
        assert.equal(run.stdout, expected, `${args.join(" ")} (${mode})`);
      }
    }
    // Flags alone, no command: the general help.
    const general = runCli(root, ["--exlude", "--help"]);
    assert.deepEqual([general.status, general.stdout], [0, runCli(root, ["--help"]).stdout]);
    assert.deepEqual(fs.readdirSync(root).sort(), [".git", "blog.zip"]);
  });

  test("an unknown command stays a usage error with --help or --version beside it", () => {
    for (const { mode, args: extra, env } of modes) {
      for (const ask of ["--help", "--version"]) {
        const run = runCli(root, ["craete", ask, ...extra], env);
        assertUsageError(run, mode, "craete", /Unknown command "craete"\. Did you mean "dropkit create"\?/, `craete ${ask}`);
      }
    }
  });
});

describe("-C <dir>: every command runs as if dropkit was started in <dir>", () => {
  /** A repository with a drop one level down, and a file beside it. */
  function repo(): string {
    return fixture({
      "drop/dropkit.config.json": '{ "theme": "ocean" }\n',
      "drop/ocean-theme.zip": zip,
      "drop/blog.zip": zip,
      "drop/a/b/dropkit.config.json": '{ "theme": "deep" }\n',
      "notes.txt": "not a directory\n",
    });
  }

  test("before or after the command, in each form, the run is the one made in <dir>", () => {
    const root = repo();
    const drop = path.join(root, "drop");
    const there = runCli(drop, ["config", "--json"]);
    assert.equal(there.status, 0, there.stderr);
    const lines = [
      ["-C", "drop", "config", "--json"],
      ["config", "-C", "drop", "--json"],
      ["config", "--json", "-C", "drop"],
      ["-Cdrop", "config", "--json"],
      ["-C=drop", "config", "--json"],
      ["--directory=drop", "config", "--json"],
      ["config", "--directory", "drop", "--json"],
      ["-C", drop, "config", "--json"],
      ["-C", ".", "-C", "drop", "config", "--json"],
    ];
    for (const args of lines) {
      const run = runCli(root, args);
      assert.equal(run.status, 0, `${args.join(" ")}: ${run.stderr}`);
      assert.equal(run.stdout, there.stdout, args.join(" "));
      assert.equal(eventsOf(run, "config")[0]?.file, path.join(drop, "dropkit.config.json"));
    }
    // Each -C starts from the one before, as in git and make; a relative --config starts from <dir>.
    const nested = runCli(root, ["-C", "drop", "config", "-C", "a/b", "--json"]);
    assert.equal(nested.status, 0, nested.stderr);
    assert.equal(JSON.parse(nested.stdout).config.theme, "deep");
    const named = runCli(root, ["-C", "drop/a", "config", "--json", "--config=b/dropkit.config.json"]);
    assert.equal(named.status, 0, named.stderr);
    assert.equal(JSON.parse(named.stdout).config.theme, "deep");
  });

  test("create writes the drop's state file and cache in <dir>, and nothing where it was started", () => {
    const root = repo();
    const run = runCli(root, ["create", "-C", "drop", "--log-format=json"]);
    assert.equal(run.status, 0, run.stderr);
    assert.ok(fs.existsSync(path.join(root, "drop", ".dropkit.json")));
    assert.ok(fs.existsSync(path.join(root, "drop", ".dropkit-cache.json")));
    assert.deepEqual(fs.readdirSync(root).sort(), [".git", "drop", "notes.txt"]);
  });

  test("init writes its config in <dir>", () => {
    const root = fixture({ "drop/blog.zip": zip });
    const run = runCli(root, ["-C", "drop", "init", "--yes"]);
    assert.equal(run.status, 0, run.stderr);
    assert.ok(fs.existsSync(path.join(root, "drop", "dropkit.config.json")));
    assert.deepEqual(fs.readdirSync(root).sort(), [".git", "drop"]);
  });

  test("PWD is the directory entered, as after cd: a .js config that reads it sees <dir>", () => {
    const root = fixture({
      "drop/dropkit.config.js": 'module.exports = { theme: require("node:path").basename(process.env.PWD) + "-x" };\n',
    });
    const run = runCli(root, ["-C", "drop", "config", "--json"], { PWD: root });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).config.theme, "drop-x");
  });

  test("the answer cache is the one of <dir>: a run with -C and a run started there share it", () => {
    const root = repo();
    const home = tempDir("dropkit-argv-cache-");
    const env = { XDG_CACHE_HOME: home };
    assert.equal(runCli(root, ["-C", "drop", "config"], env).status, 0);
    const dir = path.join(home, "dropkit", "answers");
    const files = () => fs.readdirSync(dir).filter((n) => n.endsWith(".answers"));
    assert.equal(files().length, 1);
    const header = fs.readFileSync(path.join(dir, files()[0]!), "utf8").split("\n")[1]!;
    assert.equal(JSON.parse(header)[0], path.join(root, "drop"));
    assert.equal(runCli(path.join(root, "drop"), ["config"], env).status, 0);
    assert.equal(files().length, 1);
  });

  test("a directory that is missing, a file, or not given is a usage error at the flag, before anything is read", () => {
    const root = repo();
    const cases: Array<{ args: string[]; source: string; message: RegExp }> = [
      { args: ["-C", "missing", "create"], source: "-C", message: /-C missing: cannot run in .*\/missing: it does not exist\./ },
      { args: ["create", "-C", "notes.txt"], source: "-C", message: /notes\.txt: it is a file, not a directory\./ },
      { args: ["config", "--directory=notes.txt/x"], source: "--directory", message: /a folder on its path is a file\./ },
      { args: ["-C", "drop", "-C", "missing", "config"], source: "-C", message: /cannot run in .*\/drop\/missing: it does not exist/ },
      { args: ["config", "-C"], source: "-C", message: /-C needs a directory: -C <dir>/ },
      { args: ["-C", "--version"], source: "-C", message: /-C needs a directory: -C <dir>, .*"--version" after it is read as a flag/ },
      { args: ["-C=", "config"], source: "-C", message: /-C needs a directory/ },
      { args: ["--directory", "missing", "--help"], source: "--directory", message: /it does not exist/ },
    ];
    for (const { args, source, message } of cases) {
      for (const { mode, args: extra, env } of modes) {
        // --log-format=json goes first: after `-C` it would be the directory it lacks.
        const run = runCli(root, [...extra, ...args], env);
        assertUsageError(run, mode, source, message, args.join(" "));
        if (mode !== "text")
          assert.match(eventsOf(run, "error")[0]!.message, /leave -C out|-C <dir>|--directory=<dir>|leave --directory out/);
      }
    }
    assert.deepEqual(fs.readdirSync(root).sort(), [".git", "drop", "notes.txt"]);
    assert.ok(!fs.existsSync(path.join(root, "drop", ".dropkit.json")));
  });

  test("-C after -- is an argument, not the flag", () => {
    const run = runCli(repo(), ["config", "--", "-C", "drop"]);
    assertUsageError(run, "text", "-C", /Unexpected argument "-C"/, "config -- -C drop");
  });

  test("dropkit -C <dir> config runs the config command's own bundle, and its hand-off to the full CLI enters <dir> once", () => {
    const root = repo();
    const bundles = (args: string[]) => {
      const run = runBundles(root, args);
      return { status: run.status, stdout: run.stdout, bundles: run.bundles };
    };
    assert.deepEqual(bundles(["-C", "drop", "config"]).bundles, ["dropkit-config.cjs"]);
    assert.deepEqual(bundles(["--directory=drop", "config"]).bundles, ["dropkit-config.cjs"]);
    // The config bundle cannot take --version after an argument: the full CLI does, in drop (drop/drop would not exist).
    const handed = bundles(["-C", "drop", "config", "extra", "--version"]);
    assert.deepEqual(handed, { status: 0, stdout: `${version}\n`, bundles: ["dropkit-config.cjs", "dropkit-cli.cjs"] });
  });

  test("help and completion know the flag", () => {
    const root = repo();
    for (const command of ["create", "config", "init"]) assert.match(runCli(root, [command, "--help"]).stdout, /-C,--directory <dir>/);
    const bash = runCli(root, ["completion", "bash"]).stdout;
    assert.match(bash, /^ {4}create\) COMPREPLY=\(\$\(compgen -W "[^"]*-C --directory/m);
    // What Tab does after -C, in each shell, is tested on the real shells in completion.test.ts ("completion after -C <dir>").
    for (const shell of ["zsh", "fish"]) assert.match(runCli(root, ["completion", shell]).stdout, /-C.*--directory|--directory.*-C/);
  });
});
