// One input, one verdict: `init`, `config` and `create` on the built CLI give the same code and source for the same input.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { eventsOf, fixture, runCli } from "../helpers/cli.js";

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
      assert.deepEqual(verdicts[0], [
        65,
        "SchemaValidationError",
        "DROPKIT_HOOK_TIMEOUT",
        `DROPKIT_HOOK_TIMEOUT must be a positive number of seconds up to 2147483, e.g. 120; got "${bad}".`,
      ]);
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
    assert.match(
      eventsOf(run, "warning")
        .map((w) => w.message)
        .join("\n"),
      /timed out after 0\.3 s/,
    );
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

  test('-theme.zip has no theme name: it is the module "-theme", auto picks no theme, and the state never records an empty theme', () => {
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

describe("init checks its flags as config and create do, before anything is written", () => {
  const drop = () => fixture({ "ocean-theme.zip": zip, "blog.zip": zip });

  test("--theme naming a theme the folder does not hold: 66 at --theme, listing the themes, with a did-you-mean; no file", () => {
    const root = drop();
    const run = runCli(root, ["init", "--yes", "--theme=ocaen", ...json]);
    assert.equal(run.status, 66, run.stderr);
    const e = onlyError(run);
    assert.deepEqual([e.name, e.source], ["ThemeNotFound", "--theme"]);
    assert.match(e.message, /Did you mean "ocean"\?.*Theme archives in the drop: ocean-theme\.zip\./);
    assert.ok(!fs.existsSync(path.join(root, "dropkit.config.json")));
    // A theme path that does not exist is refused too, as create refuses it.
    assert.equal(runCli(root, ["init", "--yes", "--theme=../nowhere/sea.zip"]).status, 66);
    assert.ok(!fs.existsSync(path.join(root, "dropkit.config.json")));
  });

  test("with --force, a bad flag is reported at the flag: no position, and no code frame quoting the file on disk", () => {
    const root = fixture({
      "ocean-theme.zip": zip,
      "dropkit.config.json": '{\n  "theme": "KEEP-ME-OLD-LINE",\n  "modules": { "exclude": ["x"] }\n}\n',
    });
    const before = fs.readFileSync(path.join(root, "dropkit.config.json"), "utf8");
    for (const flag of ["--theme=", "--exclude=a*b"]) {
      const run = runCli(root, ["init", "-y", "--force", flag]);
      assert.equal(run.status, 64, run.stderr);
      assert.match(run.stderr, new RegExp(`UsageError \\(exit 64\\): Invalid value for ${flag.slice(0, flag.indexOf("="))}`));
      assert.doesNotMatch(run.stderr, /KEEP-ME-OLD-LINE|dropkit\.config\.json/);
      assert.equal(fs.readFileSync(path.join(root, "dropkit.config.json"), "utf8"), before);
    }
  });
});

/**
 * One bad value through every form that can carry it: a flag (init, config and create), a variable and a config file
 * (config and create: init writes the file and leaves the environment out). Each form has one code and one source,
 * whichever command meets it.
 */
describe("one bad value, one verdict per form, whichever command meets it", () => {
  type Form = {
    form: string;
    args?: string[];
    env?: Record<string, string>;
    config?: string;
    commands: string[];
    exit: number;
    name: string;
    source: (root: string) => string;
  };
  const at = (needle: string, text: string) => (root: string) => {
    const lines = text.split("\n");
    const line = lines.findIndex((l) => l.includes(needle));
    return `${path.join(root, "dropkit.config.json")}:${line + 1}:${lines[line]!.indexOf(needle) + 1}`;
  };
  const flagForms = ["init", "config", "create"];
  const both = ["config", "create"];
  const themeEmpty = '{\n  "theme": ""\n}\n';
  const themeNope = '{\n  "theme": "nope"\n}\n';
  const excludeText = '{\n  "modules": { "exclude": ["a*b"] }\n}\n';
  const shorthandText = '{\n  "exclude": ["a*b"]\n}\n';
  const presetText = '{\n  "presets": ["nope"]\n}\n';
  const rows: Array<[string, Form[]]> = [
    [
      'theme ""',
      [
        { form: "flag", args: ["--theme="], commands: flagForms, exit: 64, name: "UsageError", source: () => "--theme" },
        { form: "file", config: themeEmpty, commands: both, exit: 65, name: "SchemaValidationError", source: at('""', themeEmpty) },
      ],
    ],
    [
      'theme "nope"',
      [
        // Whether a theme is there is a question about the drop, not the settings: init and create ask it (config does not; see README).
        { form: "flag", args: ["--theme=nope"], commands: ["init", "create"], exit: 66, name: "ThemeNotFound", source: () => "--theme" },
        {
          form: "variable",
          env: { DROPKIT_THEME: "nope" },
          commands: ["create"],
          exit: 66,
          name: "ThemeNotFound",
          source: () => "DROPKIT_THEME",
        },
        { form: "file", config: themeNope, commands: ["create"], exit: 66, name: "ThemeNotFound", source: at('"nope"', themeNope) },
      ],
    ],
    [
      'module glob "a*b"',
      [
        { form: "flag", args: ["--exclude=a*b"], commands: flagForms, exit: 64, name: "UsageError", source: () => "--exclude" },
        {
          form: "variable",
          env: { DROPKIT_MODULES_EXCLUDE: "a*b" },
          commands: both,
          exit: 65,
          name: "SchemaValidationError",
          source: () => "DROPKIT_MODULES_EXCLUDE",
        },
        { form: "file", config: excludeText, commands: both, exit: 65, name: "SchemaValidationError", source: at('"a*b"', excludeText) },
        {
          form: "file (exclude shorthand)",
          config: shorthandText,
          commands: both,
          exit: 65,
          name: "SchemaValidationError",
          source: at('"a*b"', shorthandText),
        },
      ],
    ],
    [
      'preset "nope"',
      [
        { form: "flag", args: ["--preset=nope"], commands: flagForms, exit: 67, name: "PresetNotFound", source: () => "--preset" },
        {
          form: "variable",
          env: { DROPKIT_PRESETS: "nope" },
          commands: both,
          exit: 67,
          name: "PresetNotFound",
          source: () => "DROPKIT_PRESETS",
        },
        { form: "file", config: presetText, commands: both, exit: 67, name: "PresetNotFound", source: at('"nope"', presetText) },
      ],
    ],
    ...["abc", "0", "-1", "1e3", "99999999"].map((bad): [string, Form[]] => [
      `hook timeout "${bad}"`,
      [
        {
          form: "variable",
          env: { DROPKIT_HOOK_TIMEOUT: bad },
          commands: both,
          exit: 65,
          name: "SchemaValidationError",
          source: () => "DROPKIT_HOOK_TIMEOUT",
        },
      ],
    ]),
  ];

  for (const [value, forms] of rows) {
    for (const f of forms) {
      test(`${value} as a ${f.form}: ${f.commands.join(", ")} exit ${f.exit} (${f.name}) at ${f.source("<root>")}`, () => {
        for (const command of f.commands) {
          const root = fixture({ "ocean-theme.zip": zip, "blog.zip": zip, ...(f.config ? { "dropkit.config.json": f.config } : {}) });
          const args = command === "init" ? ["init", "--yes"] : [command];
          const run = runCli(root, [...args, ...(f.args ?? []), ...json], f.env ?? {});
          assert.equal(run.status, f.exit, `${command}: ${run.stderr}`);
          const e = onlyError(run);
          assert.deepEqual([e.name, e.exitCode, e.source], [f.name, f.exit, f.source(root)], command);
          // Nothing written: init's config, create's state.
          if (command === "init") assert.ok(!fs.existsSync(path.join(root, "dropkit.config.json")));
          assert.ok(!fs.existsSync(path.join(root, ".dropkit.json")), command);
        }
      });
    }
  }

  test("a theme that is not in the drop is not a problem of the settings: config resolves it and exits 0", () => {
    const root = fixture({ "ocean-theme.zip": zip });
    assert.equal(runCli(root, ["config", "--theme=nope"]).status, 0);
  });
});
