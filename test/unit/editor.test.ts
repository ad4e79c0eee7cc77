// src/editor/, the editor logic of the playground and the language server, on its own: completion, hover, quick fixes, the
// override messages, explain's text and the whitespace-only formatter, over texts and offsets with no editor around them.

import assert from "node:assert/strict";
import fs from "node:fs";
import { describe, test } from "node:test";
import type { CoreDiagnostic } from "../../src/core/protocol.ts";
import { type Row, type Step, stepsOf } from "../../src/editor/answer.ts";
import { archiveNames } from "../../src/editor/archives.ts";
import { type CompletionFacts, completionEdit, completionsAt } from "../../src/editor/complete.ts";
import { explainOutput } from "../../src/editor/explain.ts";
import { applyToEnv, applyToText, candidatesFor, isSafe, locate } from "../../src/editor/fixes.ts";
import { hoverAt, hoverMarkdown } from "../../src/editor/hover.ts";
import { jsonTree, keyAt, placeAt, type TextSource } from "../../src/editor/jsonpath.ts";
import { formatJson, tokens } from "../../src/editor/jsontext.ts";
import { overriddenValues } from "../../src/editor/overrides.ts";
import type { Schema } from "../../src/editor/schema.ts";

const schema = JSON.parse(fs.readFileSync(new URL("../../schema.json", import.meta.url), "utf8")) as Schema;
const facts: CompletionFacts = {
  packageJson: false,
  presetNames: ["standard", "none", "company"],
  themeNames: ["forest", "ocean"],
  moduleNames: ["blog", "shop"],
};

/** The text without its `|`, and the offset where it stood: the caret. */
function caret(marked: string): { text: string; pos: number } {
  const pos = marked.indexOf("|");
  assert.ok(pos >= 0, "no caret in the text");
  return { text: marked.slice(0, pos) + marked.slice(pos + 1), pos };
}

function labels(marked: string, explicit = true, known = facts): string[] | null {
  const { text, pos } = caret(marked);
  return completionsAt(text, pos, known, schema, { explicit })?.items.map((i) => i.label) ?? null;
}

describe("src/editor: where an offset is", () => {
  test("a key's place, a value's path in arrays and objects, and nothing after a closing bracket", () => {
    const { text, pos } = caret('{"modules": {"exclude": ["a", |]}}');
    assert.deepEqual(placeAt(text, pos)?.path, ["modules", "exclude", 1]);
    const key = caret('{"theme": "ocean", "|"}');
    const place = placeAt(key.text, key.pos)!;
    assert.deepEqual([place.role, place.path, place.token], ["key", [], { from: 19, to: 21 }]);
    assert.ok(place.siblings.includes("theme"));
    const after = caret('{"theme": "ocean"}|');
    assert.equal(placeAt(after.text, after.pos), undefined);
    const hovered = caret('{"hooks": {"onFailure": "f|ail"}}');
    assert.deepEqual(keyAt(hovered.text, hovered.pos)?.path, ["hooks", "onFailure"]);
  });
});

describe("src/editor: completion", () => {
  test("keys in the schema's order, less the ones the object has; nested keys; values with what they mean", () => {
    const top = Object.keys(schema.properties!);
    assert.equal(top[2], "theme");
    assert.deepEqual(labels('{\n  "theme": "ocean",\n  |\n}'), [...top.slice(0, 2), ...top.slice(3)]);
    assert.deepEqual(labels('{"modules": {|}}'), ["include", "exclude", "only"]);
    assert.deepEqual(labels('{"theme": |}'), ["auto", "none", "forest", "ocean"]);
    assert.deepEqual(labels('{"presets": [|]}'), ["standard", "none", "company"]);
    assert.deepEqual(labels('{"exclude": ["|"]}'), ["blog", "shop"]);
    const { text, pos } = caret('{"log": {"format": "|"}}');
    const items = completionsAt(text, pos, facts, schema, { explicit: true })!.items;
    assert.deepEqual(
      items.map((i) => [i.label, i.text, i.kind, i.info]),
      [
        ["text", '"text"', "enum", "One line per record, for people."],
        ["json", '"json"', "enum", "One JSON object per line, for programs."],
      ],
    );
    const theme = caret('{"theme": "|"}');
    const ocean = completionsAt(theme.text, theme.pos, facts, schema, { explicit: true })!.items.find((i) => i.label === "ocean");
    assert.equal(ocean?.info, "The theme archive ocean-theme.zip (or ocean.zip) in the folder.");
  });

  test("in a package.json, the dropkit key at the top and dropkit's keys under it, nothing for the package's own keys", () => {
    const packageJson = { ...facts, packageJson: true };
    assert.deepEqual(labels('{"name": "site", |}', true, packageJson), ["dropkit"]);
    assert.equal(labels('{"dropkit": {}, |}', true, packageJson), null);
    assert.equal(labels('{"scripts": {|}}', true, packageJson), null);
    assert.deepEqual(labels('{"dropkit": {"log": {|}}}', true, packageJson), ["format"]);
  });

  test("unprompted, it opens only once a word is typed; the word typed is where the options apply from", () => {
    assert.equal(labels("{\n  |\n}", false), null);
    const { text, pos } = caret('{\n  "th|\n}');
    const found = completionsAt(text, pos, facts, schema, { explicit: false })!;
    assert.equal(found.from, pos - 2);
    assert.ok(found.items.some((i) => i.label === "theme"));
  });

  test("applying replaces the token with its quotes, and a key gets its colon unless one follows", () => {
    const key = { label: "theme", text: '"theme"', kind: "property" as const };
    const typed = caret('{"th|"}');
    assert.deepEqual(completionEdit(typed.text, typed.pos - 2, typed.pos, key), { from: 1, to: 5, insert: '"theme": ' });
    const withColon = caret('{"th|": "ocean"}');
    assert.deepEqual(completionEdit(withColon.text, withColon.pos - 2, withColon.pos, key), { from: 1, to: 5, insert: '"theme"' });
    const value = { label: "forest", text: '"forest"', kind: "enum" as const };
    const inValue = caret('{"theme": "oc|ean"}');
    assert.deepEqual(completionEdit(inValue.text, inValue.pos - 2, inValue.pos, value), { from: 10, to: 17, insert: '"forest"' });
  });

  test("archive names: a theme from <name>-theme.zip, a module from the rest, each list by name", () => {
    assert.deepEqual(archiveNames(["ocean-theme.zip", "shop.zip", "forest-theme.ZIP", "blog.zip", "-theme.zip"]), {
      themeNames: ["forest", "ocean"],
      moduleNames: ["-theme", "blog", "shop"],
    });
  });
});

describe("src/editor: a document read in slices", () => {
  test("with its editor's tree, completion and hover read only short slices of it, and answer as they do on the string", () => {
    const text = `{\n  "theme": "oc",\n  "modules": {"exclude": [${'"legacy-*", '.repeat(2000)}"x"]}\n}\n`;
    const longest: number[] = [];
    const source: TextSource = {
      length: text.length,
      slice: (from, to) => {
        longest.push(to - from);
        return text.slice(from, to);
      },
    };
    const tree = jsonTree(text);
    const pos = text.indexOf('"oc"') + 3;
    const sliced = completionsAt(source, pos, facts, schema, { explicit: true, tree });
    assert.deepEqual(sliced, completionsAt(text, pos, facts, schema, { explicit: true }));
    assert.deepEqual(
      completionEdit(source, sliced!.from, pos, sliced!.items[0]!),
      completionEdit(text, sliced!.from, pos, sliced!.items[0]!),
    );
    const facts2 = { packageJson: false, rows: [] };
    assert.deepEqual(hoverAt(source, 5, facts2, schema, tree), hoverAt(text, 5, facts2, schema));
    assert.ok(Math.max(...longest) <= 40, `a slice of ${Math.max(...longest)} characters`);
  });
});

describe("src/editor: hover", () => {
  const rows: Row[] = [
    { key: "theme", value: "forest", layer: "env", source: "DROPKIT_THEME", invalid: false },
    { key: "hooks.onFailure", value: "continue", layer: "default", source: "default", invalid: true },
  ];
  const known = { packageJson: false, rows };

  test("the description, the resolved value with its layer and source, and the layer that overrides the value written here", () => {
    const { text, pos } = caret('{"the|me": "ocean", "hooks": {"onFailure": "Fail"}}');
    const found = hoverAt(text, pos, known, schema)!;
    assert.equal(found.key, "theme");
    assert.deepEqual([found.from, found.to], [1, 8]);
    assert.match(found.paragraphs[0]!, /the only theme archive/);
    assert.deepEqual(found.paragraphs.slice(1), [
      "Resolved: forest (env, DROPKIT_THEME)",
      "The value written here is overridden, so it is not used (the environment wins over the config file and the presets).",
    ]);
    // The winner is named once, in the line that says where the value came from.
    assert.equal(found.paragraphs.join("\n").split("DROPKIT_THEME").length - 1, 1);
    // Set by the config file itself, nothing overrides it.
    const own = [{ ...rows[0]!, value: "ocean", layer: "config" as const, source: "/drop/dropkit.config.json:1:11" }];
    assert.deepEqual(hoverAt(text, pos, { ...known, rows: own }, schema)!.paragraphs.slice(1), [
      "Resolved: ocean (config, /drop/dropkit.config.json:1:11)",
    ]);
  });

  test("a key with a problem says so; a package.json's own keys get none; Markdown escapes what a value holds", () => {
    const { text, pos } = caret('{"hooks": {"onFailure": "Fa|il"}}');
    const found = hoverAt(text, pos, known, schema)!;
    assert.equal(found.key, "hooks.onFailure");
    assert.equal(found.paragraphs.at(-1), "This key has a problem: see Problems.");
    const packageJson = caret('{"na|me": "site", "dropkit": {"theme": "ocean"}}');
    assert.equal(hoverAt(packageJson.text, packageJson.pos, { ...known, packageJson: true }, schema), undefined);
    const inside = caret('{"name": "site", "dropkit": {"the|me": "ocean"}}');
    assert.equal(hoverAt(inside.text, inside.pos, { ...known, packageJson: true }, schema)?.key, "theme");
    const markdown = hoverMarkdown(
      { from: 0, to: 1, key: "exclude", paragraphs: ['Resolved: ["test-*"] (preset, standard)'] },
      "[Explain](x)",
    );
    assert.equal(markdown, '**exclude**\n\nResolved: \\["test-\\*"\\] (preset, standard)\n\n[Explain](x)');
  });

  test("override messages name the winner as the user wrote it, and say which layer wins over which", () => {
    const flags: Record<string, Step[]> = {
      "log.format": stepsOf(
        [
          { layer: "cli", source: "--log-format", value: "text" },
          { layer: "preset", source: "/drop/presets/company.json:4:22", value: "json" },
        ],
        false,
      ),
      "modules.exclude": stepsOf([{ layer: "config", source: "/drop/dropkit.config.json:2:14", value: ["a"] }], true),
    };
    assert.deepEqual(overriddenValues(flags, {}), [
      {
        key: "log.format",
        file: "/drop/presets/company.json",
        line: 4,
        column: 22,
        message: "overridden by --log-format=text, so this value is not used (a flag wins over every other layer).",
      },
    ]);
  });
});

describe("src/editor: quick fixes", () => {
  const file = "/drop/dropkit.config.json";
  const problem = (text: string, found: string, suggestion: string, path: string): CoreDiagnostic =>
    ({
      name: "SchemaValidationError",
      code: "UnknownKey",
      exitCode: 65,
      path,
      source: `${file}:1:1`,
      file,
      offset: text.indexOf(found),
      length: found.length,
      message: `Unknown key ${found}. Did you mean "${suggestion}"?`,
      suggestion,
    }) as CoreDiagnostic;

  test("a did-you-mean is a rename of the wrong text; beside the key it means, a removal of the property too", () => {
    const text = '{\n  "thme": "forest"\n}\n';
    const textOf = (f: string) => (f === file ? text : undefined);
    const [rename] = candidatesFor(problem(text, '"thme"', "theme", "thme"), textOf);
    assert.deepEqual(rename, {
      label: 'Use "theme"',
      edit: { target: "text", file, from: 4, to: 10, expect: '"thme"', insert: '"theme"' },
    });
    assert.equal(applyToText(text, rename!.edit as never), '{\n  "theme": "forest"\n}\n');
    const both = '{\n  "theme": "ocean",\n  "thme": "forest"\n}\n';
    const fixes = candidatesFor(problem(both, '"thme"', "theme", "thme"), (f) => (f === file ? both : undefined));
    assert.deepEqual(
      fixes.map((f) => f.label),
      ['Use "theme"', 'Remove "thme"'],
    );
    // The removal takes the comma before the last property, so that none trails.
    assert.equal(applyToText(both, fixes[1]!.edit as never), '{\n  "theme": "ocean"\n}\n');
    // A stale fix (the text changed since) applies to nothing.
    assert.equal(applyToText('{"x": 1}', rename!.edit as never), undefined);
  });

  test("a problem found after parsing is located by its line and column, its string's span", () => {
    const text = '{\n  "presets": ["standrd"]\n}';
    const found = locate({ message: "", source: `${file}:2:15` } as never, (f) => (f === file ? text : undefined));
    assert.deepEqual(found, { file, from: 16, to: 25, expect: '"standrd"' });
  });

  test("a fix is safe only when the input it edits has fewer problems (a problem) or no more (a warning), none of them new", () => {
    const judged = (problems: Array<Pick<CoreDiagnostic, "name" | "path">>) => ({
      source: file,
      read: true,
      file: "dropkit.config.json",
      problems: problems.map((p) => ({ ...p, source: `${file}:1:1`, file }) as CoreDiagnostic),
    });
    const fix = { label: 'Use "theme"', edit: { target: "text" as const, file, from: 0, to: 1, expect: "x", insert: "y" } };
    const one = judged([{ name: "SchemaValidationError", path: "thme" }]);
    assert.equal(isSafe(one, judged([]), fix, true), true);
    assert.equal(isSafe(one, judged([{ name: "ConfigSyntaxError", path: "" }]), fix, true), false);
    assert.equal(isSafe(judged([]), judged([]), fix, false), true);
    assert.equal(isSafe(judged([]), judged([{ name: "SchemaValidationError", path: "theme" }]), fix, false), false);
  });

  test("a variable's fix renames it or changes only the wrong item of its list", () => {
    const env = "export DROPKIT_THEM=ocean\nDROPKIT_PRESETS= standard, 'standrd'\n";
    assert.equal(
      applyToEnv(env, { target: "env", name: "DROPKIT_THEM", rename: "DROPKIT_THEME" }).split("\n")[0],
      "export DROPKIT_THEME=ocean",
    );
    assert.equal(
      applyToEnv(env, { target: "env", name: "DROPKIT_PRESETS", found: "standrd", value: "standard" }).split("\n")[1],
      "DROPKIT_PRESETS= standard, 'standard'",
    );
  });
});

describe("src/editor: explain and format", () => {
  test("explain's text lists every layer, the winner first, a long list one item a line; JSON with the statuses", () => {
    const steps = stepsOf(
      [
        { layer: "env", source: "DROPKIT_THEME", value: "forest" },
        { layer: "config", source: "/drop/dropkit.config.json:1:11", value: "ocean" },
      ],
      false,
    );
    assert.equal(
      explainOutput("theme", "forest", steps, false),
      'theme = "forest"\n  env     "forest"  DROPKIT_THEME                   wins\n  config  "ocean"   /drop/dropkit.config.json:1:11  overridden\n',
    );
    const long = Array.from({ length: 8 }, (_, i) => `legacy-module-${i}-*`);
    const merged = explainOutput(
      "modules.exclude",
      long,
      stepsOf([{ layer: "config", source: "/d/c.json:1:1", value: long }], true),
      false,
    );
    assert.equal(merged.split("\n").length, 1 + long.length + 1);
    assert.match(merged, /^ {2}config {2}"legacy-module-0-\*" {2}\/d\/c\.json:1:1 {2}merged$/m);
    assert.deepEqual(JSON.parse(explainOutput("theme", "forest", steps, true)).layers[1], {
      layer: "config",
      source: "/drop/dropkit.config.json:1:11",
      value: "ocean",
      status: "overridden",
    });
  });

  test("Format changes whitespace only: the same tokens, numbers and strings as written, the text's line ending kept", () => {
    const text = '\ufeff{"a":1e400,"b":[ ],"c":{"d":"\\u00e9",\r\n"e":12345678901234567890}}';
    const formatted = formatJson(text);
    const written = (t: string) => tokens(t).map((k) => t.slice(k.from, k.to));
    assert.deepEqual(written(formatted), written(text));
    assert.equal(formatted.replace(/\s/g, ""), text.replace(/\s/g, ""));
    assert.ok(formatted.startsWith('\ufeff{\r\n  "a": 1e400,\r\n  "b": [],\r\n  "c": {\r\n    "d": "\\u00e9",'));
    assert.ok(formatted.endsWith("}\r\n"));
  });
});
