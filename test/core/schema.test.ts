// Tests for the core's strict config validator (assembly/schema/schema.ts, document.ts) through validate and resolve.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as M from "../../assembly/schema/messages.js";
import { deriveListEntries } from "../../src/core/decisions.js";
import { only, positionOf, resolveDone, resolveOk, validate } from "../helpers/core.js";

/** The errors of a text that must not validate, as [path, message] pairs. */
function problems(text: string, options: Parameters<typeof validate>[1] = {}): Array<[string, string]> {
  const r = validate(text, options);
  assert.equal(r.ok, false, `expected ${text} to be rejected`);
  for (const e of r.errors) assert.equal(e.exitCode, 65);
  return r.errors.map((e) => [e.path, e.message]);
}

function accepts(config: unknown, options: Parameters<typeof validate>[1] = {}): void {
  const text = JSON.stringify(config);
  const r = validate(text, options);
  assert.deepEqual(r, { ok: true, config, errors: [], warnings: [] }, text);
}

const TOP_KEYS = "schema, theme, modules, exclude, presets, presetsSearchPath, hooks, cache, log";

describe("a complete valid config", () => {
  test("every field of SPEC section 2 is accepted and returned as written", () => {
    accepts({
      $schema: "https://example.com/dropkit.schema.json",
      schema: 1,
      theme: "ocean",
      modules: { include: ["blog"], exclude: ["test-*", "*"], only: ["shop-*", "blog"] },
      exclude: ["old-*"],
      presets: ["standard", "./presets/mine.json", "mine"],
      presetsSearchPath: ["./presets", "/abs/presets"],
      hooks: { initScriptsDir: "./init", postScriptsDir: "post", onFailure: "fail" },
      cache: { file: ".cache.json", enabled: false },
      log: { format: "json" },
    });
    accepts({});
    accepts({ modules: {}, hooks: {}, cache: {}, log: {}, presets: [], exclude: [] });
  });
});

describe("schema", () => {
  test("accepts any number equal to 1", () => {
    for (const text of ["1", "1.0", "10e-1", "0.1e1", "1E0", "100e-2"]) assert.equal(validate(`{"schema": ${text}}`).ok, true, text);
  });

  test("rejects anything else, naming what it found", () => {
    for (const [text, found] of [
      ["2", "the number 2"],
      ["0", "the number 0"],
      ["-1", "the number -1"],
      ["1.5", "the number 1.5"],
      ['"1"', 'the string "1"'],
      ["true", "true"],
      ["null", "null"],
      ["[1]", "an array"],
    ]) {
      assert.deepEqual(problems(`{"schema": ${text}}`), [["schema", `${M.MSG_SCHEMA_VALUE}, found ${found}.`]]);
    }
  });
});

describe("theme", () => {
  test("accepts auto, none, a name and a path ending in .zip (any case)", () => {
    for (const theme of ["auto", "none", "ocean", "Ocean Blue", "./themes/ocean.zip", "/abs/x.ZIP", "ocean-theme.zip"]) accepts({ theme });
  });

  test("rejects an empty string, a path without .zip and a non-string", () => {
    assert.deepEqual(problems('{"theme": ""}'), [
      ["theme", 'Theme must not be empty: use "auto", "none", a theme name or a path ending in .zip, found an empty string.'],
    ]);
    for (const theme of ["themes/ocean", "a\\b", "./ocean"]) {
      const e = only(validate(JSON.stringify({ theme })).errors);
      assert.deepEqual([e.path, e.code], ["theme", "ThemePath"], e.message);
    }
    for (const value of ["3", "true", "null", "[]", "{}"]) {
      const e = only(validate(`{"theme": ${value}}`).errors);
      assert.deepEqual([e.path, e.code], ["theme", "WrongType"], e.message);
    }
  });

  test("rejects a theme of only white space as an empty one, in a file, a preset and a flag, the value shown escaped", () => {
    const blanks: Array<[string, string]> = [
      [" ", " "],
      ["  \t", "  \\t"],
      ["\n\r", "\\n\\r"],
      ["\u00a0\u3000\ufeff", "\\u00a0\\u3000\\ufeff"],
    ];
    for (const [theme, shown] of blanks) {
      const inFile = `T${M.MSG_THEME_BLANK.slice(1)}, found the string "${shown}".`;
      assert.deepEqual(problems(JSON.stringify({ theme })), [["theme", inFile]]);
      assert.deepEqual(problems(JSON.stringify({ theme }), { kind: "preset" }), [["theme", inFile]]);
      const flag = only(resolveDone({ cwd: "/drop", env: { DROPKIT_PRESETS: "" }, flags: { theme } }).errors);
      assert.deepEqual(
        [flag.name, flag.exitCode, flag.path, flag.source, flag.message],
        ["UsageError", 64, "theme", "--theme", `Invalid value for --theme: ${M.MSG_THEME_BLANK}, found "${shown}".`],
      );
    }
    // A name with white space inside or around it is still a name: only a theme of nothing else is refused.
    for (const theme of [" ocean", "Ocean Blue\t"]) accepts({ theme });
  });

  test("a DROPKIT_THEME of only white space counts as unset, as an empty variable does: the layer below gives the theme", () => {
    for (const value of ["", "  ", "\t \u00a0"]) {
      const r = resolveOk({ cwd: "/drop", env: { DROPKIT_PRESETS: "", DROPKIT_THEME: value } });
      assert.deepEqual([r.config.theme, r.origins.theme.layer], ["auto", "default"], JSON.stringify(value));
    }
  });
});

describe("cache.file", () => {
  test("names a file: a path ending in / or \\ names a directory and is rejected, in the file and the variable alike", () => {
    for (const file of ["sub/", "sub\\", "./", "/var/cache/"]) {
      const [[path, message]] = problems(JSON.stringify({ cache: { file } }));
      assert.equal(path, "cache.file");
      assert.match(message, /a path ending in a separator names a directory, and the cache is a file/);
    }
    for (const file of ["sub/cache.json", ".dropkit-cache.json", "/var/cache/dropkit.json"]) accepts({ cache: { file } });
    // Directory settings may end in a separator: they name directories.
    accepts({ presetsSearchPath: ["./presets/"], hooks: { initScriptsDir: "./init/" } });
    const env = resolveDone({ cwd: "/drop", env: { DROPKIT_PRESETS: "", DROPKIT_CACHE_FILE: "sub/" } });
    assert.deepEqual(
      env.errors.map((e) => [e.path, e.source]),
      [["cache.file", "DROPKIT_CACHE_FILE"]],
    );
  });
});

describe("module globs", () => {
  test("a name, or a prefix with one trailing *", () => {
    accepts({ modules: { include: ["blog", "shop-*", "*", "a.b_c-1"], exclude: ["x*"], only: ["é-*"] }, exclude: ["y"] });
  });

  test("a * anywhere but the end is rejected, in every list and the shorthand", () => {
    for (const key of ["include", "exclude", "only"]) {
      assert.deepEqual(problems(JSON.stringify({ modules: { [key]: ["ok", "*-x"] } })), [
        [`modules.${key}[1]`, `modules.${key}[1]: ${M.MSG_GLOB_STAR}, found the string "*-x".`],
      ]);
    }
    for (const glob of ["a*b", "**", "*a*", "a**"]) {
      assert.deepEqual(
        problems(JSON.stringify({ exclude: [glob] })).map(([p]) => p),
        ["exclude[0]"],
        glob,
      );
    }
  });

  test("a / or \\ is rejected: a module glob is not a path", () => {
    assert.deepEqual(problems('{"modules": {"include": ["a/b", "c\\\\d"]}}'), [
      ["modules.include[0]", `modules.include[0]: ${M.MSG_GLOB_SLASH}, found the string "a/b".`],
      ["modules.include[1]", `modules.include[1]: ${M.MSG_GLOB_SLASH}, found the string "c\\d".`],
    ]);
  });

  test("every length and every position of a *, /, \\ or NUL is judged by the rule (the checker reads eight bytes at a time)", () => {
    // The rule, written plainly: a slash anywhere first, then a * anywhere but the last character.
    const expected = (glob: string): string =>
      glob === ""
        ? M.MSG_GLOB_EMPTY
        : glob.includes("\u0000")
          ? "a module glob" + M.MSG_NUL
          : /[/\\]/.test(glob)
            ? M.MSG_GLOB_SLASH
            : glob.slice(0, -1).includes("*")
              ? M.MSG_GLOB_STAR
              : "";
    const globs: string[] = [];
    for (let len = 1; len <= 19; len++) {
      const base = "abcdefghijklmnopqrs".slice(0, len);
      for (let at = 0; at < len; at++) {
        for (const c of ["*", "/", "\\", "\u0000"]) globs.push(base.slice(0, at) + c + base.slice(at + 1));
        // Two marks: a * before the end with a trailing *, a * before a slash, a slash before a NUL.
        if (at < len - 1) globs.push(base.slice(0, at) + "*" + base.slice(at + 1, -1) + "*");
        if (at < len - 1) globs.push(base.slice(0, at) + "*" + base.slice(at + 1, -1) + "/");
        if (at < len - 1) globs.push(base.slice(0, at) + "/" + base.slice(at + 1, -1) + "\u0000");
      }
      globs.push(base, "é" + base + "*");
    }
    // In batches under the 100 problems a document lists.
    for (let from = 0; from < globs.length; from += 90) {
      const batch = globs.slice(from, from + 90);
      const r = validate(JSON.stringify({ modules: { include: batch } }));
      const got = new Map(r.errors.map((e) => [e.path, e.message]));
      batch.forEach((glob, i) => {
        const want = expected(glob);
        const message = got.get(`modules.include[${i}]`);
        if (want === "") assert.equal(message, undefined, `${JSON.stringify(glob)} should be accepted`);
        else assert.equal(message, `modules.include[${i}]: ${want}, found the string "${glob}".`, JSON.stringify(glob));
      });
    }
  });

  test("an empty glob, a non-string item and a non-array are rejected", () => {
    assert.deepEqual(problems('{"modules": {"only": ["", 3]}, "exclude": "x"}'), [
      ["modules.only[0]", `modules.only[0]: ${M.MSG_GLOB_EMPTY}, found an empty string.`],
      ["modules.only[1]", "modules.only[1] must be a string, found the number 3."],
      ["exclude", 'exclude must be an array of module globs, found the string "x".'],
    ]);
  });
});

describe("presets and presetsSearchPath", () => {
  test("must be arrays of non-empty strings", () => {
    assert.deepEqual(problems('{"presets": ["", null], "presetsSearchPath": "dir"}'), [
      ["presets[0]", `presets[0]: ${M.MSG_PRESET_EMPTY}, found an empty string.`],
      ["presets[1]", "presets[1] must be a string, found null."],
      ["presetsSearchPath", 'presetsSearchPath must be an array of directory paths, found the string "dir".'],
    ]);
    assert.deepEqual(problems('{"presetsSearchPath": [""]}'), [
      ["presetsSearchPath[0]", `presetsSearchPath[0]: ${M.MSG_PATH_EMPTY}, found an empty string.`],
    ]);
  });
});

describe("hooks, cache, log", () => {
  test("enums accept exactly their values and suggest the closest", () => {
    accepts({ hooks: { onFailure: "continue" }, log: { format: "text" } });
    assert.deepEqual(problems('{"hooks": {"onFailure": "Fail"}, "log": {"format": "yaml"}}'), [
      ["hooks.onFailure", 'hooks.onFailure: expected one of "continue", "fail" (did you mean "fail"?), found the string "Fail".'],
      ["log.format", 'log.format: expected one of "text", "json", found the string "yaml".'],
    ]);
    assert.deepEqual(problems('{"log": {"format": 1}}'), [["log.format", 'log.format must be one of "text", "json", found the number 1.']]);
  });

  test("paths must be non-empty strings; cache.enabled a boolean", () => {
    assert.deepEqual(problems('{"hooks": {"initScriptsDir": "", "postScriptsDir": 1}, "cache": {"file": [], "enabled": "true"}}'), [
      ["hooks.initScriptsDir", `hooks.initScriptsDir: ${M.MSG_PATH_EMPTY}, found an empty string.`],
      ["hooks.postScriptsDir", "hooks.postScriptsDir must be a string (a path), found the number 1."],
      ["cache.file", "cache.file must be a string (a path), found an empty array."],
      ["cache.enabled", 'cache.enabled must be true or false, found the string "true".'],
    ]);
  });

  test("groups must be objects, listing their keys", () => {
    assert.deepEqual(problems('{"modules": [], "hooks": "x", "cache": true, "log": null}'), [
      ["modules", 'modules must be an object with the keys "include", "exclude", "only", found an empty array.'],
      ["hooks", 'hooks must be an object with the keys "initScriptsDir", "postScriptsDir", "onFailure", found the string "x".'],
      ["cache", 'cache must be an object with the keys "file", "enabled", found true.'],
      ["log", 'log must be an object with the keys "format", found null.'],
    ]);
  });

  test("the config itself must be an object", () => {
    for (const [text, found] of [
      ["[]", "an empty array"],
      ['"x"', 'the string "x"'],
      ["null", "null"],
      ["1", "the number 1"],
    ]) {
      assert.deepEqual(problems(text), [["", `${M.MSG_NOT_OBJECT}, found ${found}.`]]);
    }
  });
});

describe("unknown keys", () => {
  test("at the top level: the accepted keys and a did-you-mean", () => {
    assert.deepEqual(problems('{"themes": "x"}'), [
      ["themes", `Unknown key "themes" at the top level. Did you mean "theme"? Accepted keys: ${TOP_KEYS}.`],
    ]);
  });

  test("in every group, with its own accepted keys", () => {
    assert.deepEqual(
      problems('{"modules": {"exlude": []}, "hooks": {"onFailur": "fail"}, "cache": {"enable": true}, "log": {"fromat": "json"}}'),
      [
        ["modules.exlude", 'Unknown key "exlude" in modules. Did you mean "exclude"? Accepted keys: include, exclude, only.'],
        [
          "hooks.onFailur",
          'Unknown key "onFailur" in hooks. Did you mean "onFailure"? Accepted keys: initScriptsDir, postScriptsDir, onFailure.',
        ],
        ["cache.enable", 'Unknown key "enable" in cache. Did you mean "enabled"? Accepted keys: file, enabled.'],
        ["log.fromat", 'Unknown key "fromat" in log. Did you mean "format"? Accepted keys: format.'],
      ],
    );
  });

  test("no suggestion when nothing is close", () => {
    assert.deepEqual(problems('{"zzzzzz": 1}'), [["zzzzzz", `Unknown key "zzzzzz" at the top level. Accepted keys: ${TOP_KEYS}.`]]);
  });

  test("$schema is accepted only at the top level, and must be a string", () => {
    assert.deepEqual(problems('{"hooks": {"$schema": "x"}}'), [
      ["hooks.$schema", 'Unknown key "$schema" in hooks. Accepted keys: initScriptsDir, postScriptsDir, onFailure.'],
    ]);
    assert.deepEqual(problems('{"$schema": 1}'), [
      ["$schema", "$schema must be a string (the URL or path of the JSON Schema), found the number 1."],
    ]);
  });
});

describe("all problems at once", () => {
  test("every problem of the document, ordered by position, with positions", () => {
    const text = [
      "{",
      '  "cache": {"enabled": 1, "fil": "x"},',
      '  "theme": "",',
      '  "modules": {"include": ["a", "b*c"], "bogus": 1},',
      '  "schema": 2,',
      '  "hooks": {"onFailure": "never"}',
      "}",
    ].join("\n");
    const r = validate(text, { source: "/p/dropkit.config.json" });
    assert.equal(r.ok, false);
    assert.deepEqual(
      r.errors.map((e) => [e.path, e.line, e.column, e.source]),
      [
        ["cache.enabled", 2, 24, "/p/dropkit.config.json:2:24"],
        ["cache.fil", 2, 27, "/p/dropkit.config.json:2:27"],
        ["theme", 3, 12, "/p/dropkit.config.json:3:12"],
        ["modules.include[1]", 4, 32, "/p/dropkit.config.json:4:32"],
        ["modules.bogus", 4, 40, "/p/dropkit.config.json:4:40"],
        ["schema", 5, 13, "/p/dropkit.config.json:5:13"],
        ["hooks.onFailure", 6, 26, "/p/dropkit.config.json:6:26"],
      ],
    );
    assert.ok(r.errors.every((e) => e.file === "/p/dropkit.config.json" && e.name === "SchemaValidationError"));
  });

  test("duplicates and schema problems are reported together", () => {
    assert.deepEqual(
      problems('{"theme": 1, "theme": "x", "log": {"format": "x"}}').map(([p]) => p),
      ["theme", "theme", "log.format"],
    );
  });
});

describe("the exclude shorthand", () => {
  test("is merged into modules.exclude, without duplicates, before flags", () => {
    const text = '{"presets": [], "exclude": ["a", "b"], "modules": {"exclude": ["b", "z"]}}';
    const r = resolveOk({ cwd: "/d", flags: { exclude: ["c"] }, config: { source: "/d/dropkit.config.json", format: "json", text } });
    const at = (needle: string) => `/d/dropkit.config.json:1:${positionOf(text, needle).column}`;
    assert.deepEqual(r.config!.modules.exclude, ["a", "b", "z", "c"]);
    assert.deepEqual(
      deriveListEntries(r)["modules.exclude"]!.map((e) => [e.value, e.layer, e.source]),
      [
        ["a", "config", at('"a"')],
        ["b", "config", at('"b"')],
        ["z", "config", at('"z"')],
        ["c", "cli", "--exclude"],
      ],
    );
  });
});

describe("the package.json form", () => {
  const pkg = '{\n  "name": "drop",\n  "dropkit": {\n    "theme": 3,\n    "modules": {"only": ["x/y"]}\n  }\n}';

  test("validates the dropkit key with positions in the whole file and paths relative to the key", () => {
    const r = validate(pkg, { format: "package.json", source: "/p/package.json" });
    assert.deepEqual(
      r.errors.map((e) => [e.path, e.line, e.column, e.offset, e.source]),
      [
        ["theme", 4, 14, pkg.indexOf("3"), "/p/package.json:4:14"],
        ["modules.only[0]", 5, 26, pkg.indexOf('"x/y"'), "/p/package.json:5:26"],
      ],
    );
  });

  test("an unknown key in the dropkit object is placed in it, not at the file's top level, with its line:column", () => {
    const text = '{\n  "name": "drop",\n  "dropkit": {\n    "themes": "ocean",\n    "modules": {"exlude": []}\n  }\n}';
    const r = validate(text, { format: "package.json", source: "/p/package.json" });
    assert.deepEqual(
      r.errors.map((e) => [e.path, e.source, e.message]),
      [
        [
          "themes",
          "/p/package.json:4:5",
          `Unknown key "themes" in package.json's dropkit object. Did you mean "theme"? Accepted keys: ${TOP_KEYS}.`,
        ],
        [
          "modules.exlude",
          "/p/package.json:5:17",
          'Unknown key "exlude" in modules. Did you mean "exclude"? Accepted keys: include, exclude, only.',
        ],
      ],
    );
    // The same key in a dropkit.config.json is at the top level of its file.
    const top = only(validate('{"themes": "ocean"}').errors);
    assert.deepEqual([top.code, top.path, top.suggestion], ["UnknownKey", "themes", "theme"]);
    assert.match(top.message, /^Unknown key "themes" at the top level\./);
  });

  test("returns the key's value as the config", () => {
    const r = validate('{"name": "x", "dropkit": {"theme": "ocean"}}', { format: "package.json" });
    assert.deepEqual(r, { ok: true, config: { theme: "ocean" }, errors: [], warnings: [] });
  });

  test("without a dropkit key the config is null, and unrelated keys are not checked", () => {
    const r = validate('{"name": "x", "name": "y", "scripts": {"a": 1, "a": 2}}', { format: "package.json" });
    assert.deepEqual(r, { ok: true, config: null, errors: [], warnings: [] });
  });

  test("a duplicate inside the dropkit key has a path relative to it", () => {
    const r = validate('{"dropkit": {"hooks": {"onFailure": "fail", "onFailure": "continue"}}}', { format: "package.json" });
    assert.deepEqual(
      r.errors.map((e) => [e.path, e.column]),
      [["hooks.onFailure", 45]],
    );
  });

  test("a package.json that is not an object, or does not parse, is a ConfigSyntaxError", () => {
    const e = only(validate("[]", { format: "package.json" }).errors);
    assert.deepEqual([e.name, e.message], ["ConfigSyntaxError", `${M.MSG_PACKAGE_NOT_OBJECT}, found an empty array.`]);
    const s = only(validate('{"name": }', { format: "package.json" }).errors);
    assert.equal(s.name, "ConfigSyntaxError");
  });

  test("a dropkit key that is not an object is a schema error", () => {
    assert.deepEqual(problems('{"dropkit": "yes"}', { format: "package.json" }), [["", `${M.MSG_NOT_OBJECT}, found the string "yes".`]]);
  });

  test("in resolve, a package.json without the key is no config layer", () => {
    const r = resolveOk({ cwd: "/d", config: { source: "/d/package.json", format: "package.json", text: '{"name": "x"}' }, files: [] });
    assert.ok(Object.values(r.origins!).every((o) => o.layer !== "config"));
  });
});

describe("preset documents", () => {
  test("accept theme, modules, exclude, hooks, cache, log and detect", () => {
    accepts(
      {
        theme: "x",
        modules: { exclude: ["a"] },
        exclude: ["b"],
        hooks: { onFailure: "fail" },
        cache: { enabled: false },
        log: { format: "json" },
        detect: ["*.zip", "src/**"],
      },
      { kind: "preset" },
    );
  });

  test("reject schema, presets, presetsSearchPath and $schema with a specific message", () => {
    const r = validate('{"schema": 1, "presets": [], "presetsSearchPath": [], "$schema": "x"}', { kind: "preset" });
    assert.deepEqual(
      r.errors.map((e) => [e.path, e.message]),
      ["schema", "presets", "presetsSearchPath", "$schema"].map((k) => [k, `"${k}" ${M.MSG_PRESET_ONLY_KEY}.`]),
    );
  });

  test("an unknown key in a preset lists the preset's keys", () => {
    assert.deepEqual(problems('{"detects": []}', { kind: "preset" }), [
      [
        "detects",
        'Unknown key "detects" at the top level. Did you mean "detect"? Accepted keys: theme, modules, exclude, hooks, cache, log, detect.',
      ],
    ]);
  });

  test("detect must be an array of non-empty strings; a config may not hold detect", () => {
    assert.deepEqual(
      problems('{"detect": ["", 1]}', { kind: "preset" }).map(([p]) => p),
      ["detect[0]", "detect[1]"],
    );
    assert.match(problems('{"detect": "*.zip"}', { kind: "preset" })[0][1], /^detect must be an array of file globs/);
    assert.equal(problems('{"detect": ["*.zip"]}')[0][0], "detect");
  });

  test("a preset that is not an object says so", () => {
    assert.deepEqual(problems("[]", { kind: "preset" }), [["", `${M.MSG_NOT_OBJECT} (a preset), found an empty array.`]]);
  });
});

describe("values from .ts/.js configs (format value)", () => {
  test("are validated the same, without positions, with the file as source", () => {
    const r = resolveDone({
      cwd: "/d",
      config: { source: "/d/dropkit.config.ts", format: "value", value: { theme: 5, modules: { exlude: [] }, log: { format: "xml" } } },
    });
    assert.equal(r.ok, false);
    assert.deepEqual(
      r.errors.map((e) => [e.path, e.source, "line" in e, "file" in e]),
      [
        ["theme", "/d/dropkit.config.ts", false, false],
        ["modules.exlude", "/d/dropkit.config.ts", false, false],
        ["log.format", "/d/dropkit.config.ts", false, false],
      ],
    );
  });

  test("a valid value's origins name the file, without a position", () => {
    const r = resolveOk({
      cwd: "/d",
      config: { source: "/d/sub/dropkit.config.js", format: "value", value: { theme: "sea", cache: { file: "c.json" } } },
      files: [],
    });
    assert.deepEqual(r.origins!.theme, { layer: "config", source: "/d/sub/dropkit.config.js" });
    assert.equal(r.config!.cache.file, "/d/sub/c.json");
  });
});

describe("NUL in a value that names files (SPEC section 12)", () => {
  const nul = "a\u0000b";
  const said = (noun: string) => `${noun}${M.MSG_NUL}`;

  test("is rejected in every path-like leaf of a config, with the dotted path and what to do", () => {
    const text = JSON.stringify({
      theme: `${nul}.zip`,
      modules: { include: [nul], exclude: ["ok", nul], only: [nul] },
      exclude: [nul],
      presets: [nul, `./${nul}.json`],
      presetsSearchPath: [nul],
      hooks: { initScriptsDir: nul, postScriptsDir: `./${nul}` },
      cache: { file: nul },
    });
    assert.deepEqual(
      problems(text).map(([path, message]) => [path, message.replace(/, found .*$/s, "")]),
      [
        ["theme", `A theme${M.MSG_NUL}`],
        ["modules.include[0]", `modules.include[0]: ${said("a module glob")}`],
        ["modules.exclude[1]", `modules.exclude[1]: ${said("a module glob")}`],
        ["modules.only[0]", `modules.only[0]: ${said("a module glob")}`],
        ["exclude[0]", `exclude[0]: ${said("a module glob")}`],
        ["presets[0]", `presets[0]: ${said("a preset name or path")}`],
        ["presets[1]", `presets[1]: ${said("a preset name or path")}`],
        ["presetsSearchPath[0]", `presetsSearchPath[0]: ${said("a path")}`],
        ["hooks.initScriptsDir", `hooks.initScriptsDir: ${said("a path")}`],
        ["hooks.postScriptsDir", `hooks.postScriptsDir: ${said("a path")}`],
        ["cache.file", `cache.file: ${said("a path")}`],
      ],
    );
    // A theme name (not a path) too: it becomes a file name.
    assert.deepEqual(
      problems(JSON.stringify({ theme: nul })).map(([p]) => p),
      ["theme"],
    );
  });

  test("is rejected in a preset's theme and detect globs", () => {
    const r = problems(JSON.stringify({ theme: nul, detect: ["*.zip", nul] }), { kind: "preset" });
    assert.deepEqual(
      r.map(([p, m]) => [p, m.replace(/, found .*$/s, "")]),
      [
        ["theme", `A theme${M.MSG_NUL}`],
        ["detect[1]", `detect[1]: a detect glob${M.MSG_NUL}`],
      ],
    );
  });

  test("is rejected from the environment (65), flags (64, as every bad flag value) and .ts/.js values (65)", () => {
    const env = resolveDone({
      cwd: "/d",
      env: {
        DROPKIT_THEME: nul,
        DROPKIT_MODULES_EXCLUDE: `a,${nul}`,
        DROPKIT_CACHE_FILE: nul,
        DROPKIT_PRESETS_SEARCH_PATH: nul,
        DROPKIT_HOOKS_INIT_SCRIPTS_DIR: nul,
      },
    });
    assert.deepEqual(env.errors.map((e) => `${e.name} ${e.exitCode} ${e.path} ${e.source}`).sort(), [
      "SchemaValidationError 65 cache.file DROPKIT_CACHE_FILE",
      "SchemaValidationError 65 hooks.initScriptsDir DROPKIT_HOOKS_INIT_SCRIPTS_DIR",
      "SchemaValidationError 65 modules.exclude[1] DROPKIT_MODULES_EXCLUDE",
      "SchemaValidationError 65 presetsSearchPath[0] DROPKIT_PRESETS_SEARCH_PATH",
      "SchemaValidationError 65 theme DROPKIT_THEME",
    ]);
    for (const e of env.errors) assert.equal(e.code, "NulCharacter", e.message);

    const flags = resolveDone({ cwd: "/d", flags: { theme: nul, exclude: [nul], preset: [nul] } });
    assert.deepEqual(
      flags.errors.map((e) => [e.name, e.exitCode, e.source]),
      [
        ["UsageError", 64, "--theme"],
        ["UsageError", 64, "--exclude"],
        ["UsageError", 64, "--preset"],
      ],
    );
    for (const e of flags.errors) assert.equal(e.code, "NulCharacter", e.message);

    const value = resolveDone({
      cwd: "/d",
      config: { source: "/d/dropkit.config.ts", format: "value", value: { theme: nul, hooks: { postScriptsDir: nul } } },
    });
    assert.deepEqual(
      value.errors.map((e) => [e.name, e.path, e.source]),
      [
        ["SchemaValidationError", "theme", "/d/dropkit.config.ts"],
        ["SchemaValidationError", "hooks.postScriptsDir", "/d/dropkit.config.ts"],
      ],
    );
  });

  test("other control characters are still accepted in paths (only NUL cannot reach a file name)", () => {
    accepts({ theme: "a\tb", hooks: { initScriptsDir: "./a\u0001b" }, cache: { file: "x\u007f" } });
  });
});
