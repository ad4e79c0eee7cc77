// Every problem and warning the core reports carries its code (docs/abi.md, "Diagnostics"): one input per code, and the
// code, the name (the class, which gives the exit code) and the fields a host reads instead of the message's words.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { CoreDiagnostic, CoreWarning, ResolveRequest } from "../../src/core/protocol.js";
import { coreCodes } from "../helpers/codes.js";
import { core, parse, resolve, validate } from "../helpers/core.js";

const cwd = "/w/drop";
const configOf = (text: string): ResolveRequest["config"] => ({ source: `${cwd}/dropkit.config.json`, format: "json", text });
/**
 * A resolve in the drop, with no preset files in the search path. Without a config, `DROPKIT_PRESETS=` says there are
 * no presets, else the core would first ask the host to detect them.
 */
const resolveWith = (request: Omit<ResolveRequest, "cwd">) =>
  resolve({ cwd, presetNames: [], ...request, env: { ...(request.config ? {} : { DROPKIT_PRESETS: "" }), ...request.env } });

interface Case {
  what: string;
  code: string;
  name: string;
  problems: () => Array<CoreDiagnostic | CoreWarning>;
}

const validated =
  (text: string, options: Parameters<typeof validate>[1] = {}) =>
  () =>
    validate(text, options).errors;
const resolvedErrors = (request: Omit<ResolveRequest, "cwd">) => () => (resolveWith(request) as { errors: CoreDiagnostic[] }).errors;
const resolvedWarnings = (request: Omit<ResolveRequest, "cwd">) => () => resolveWith(request).warnings;
const requestErrors = (request: object | string) => () => core.call<{ errors: CoreDiagnostic[] }>(request).errors;

const syntax = "ConfigSyntaxError";
const schema = "SchemaValidationError";
const cases: Case[] = [
  { what: "an empty text", code: "EmptyText", name: syntax, problems: validated("") },
  { what: "text after the value", code: "TrailingText", name: syntax, problems: validated("{} x") },
  { what: "no value after a colon", code: "ExpectedValue", name: syntax, problems: validated('{"theme": }') },
  { what: "a key without quotes", code: "ExpectedKey", name: syntax, problems: validated("{theme: 1}") },
  { what: "a trailing comma", code: "TrailingComma", name: syntax, problems: validated('{"theme": "a",}') },
  { what: "no colon after a key", code: "ExpectedColon", name: syntax, problems: validated('{"theme" "a"}') },
  { what: "no comma between properties", code: "ExpectedComma", name: syntax, problems: validated('{"theme": "a" "log": 1}') },
  { what: "no comma between items", code: "ExpectedComma", name: syntax, problems: validated('{"exclude": ["a" "b"]}') },
  { what: "an unterminated string", code: "UnterminatedString", name: syntax, problems: validated('{"theme": "a') },
  { what: "a raw control character", code: "ControlCharacter", name: syntax, problems: validated('{"theme": "a\u0001"}') },
  { what: "a bad escape", code: "InvalidEscape", name: syntax, problems: validated('{"theme": "\\q"}') },
  { what: "a short \\u escape", code: "InvalidUnicodeEscape", name: syntax, problems: validated('{"theme": "\\u12"}') },
  { what: "a leading zero", code: "InvalidNumber", name: syntax, problems: validated('{"schema": 01}') },
  { what: "nesting past the limit", code: "TooDeep", name: syntax, problems: () => parse("[".repeat(200) + "]".repeat(200)).errors },
  {
    what: "a package.json that is no object",
    code: "PackageNotObject",
    name: syntax,
    problems: validated("[]", { format: "package.json" }),
  },
  { what: "a key set twice", code: "DuplicateKey", name: schema, problems: validated('{"theme": "a", "theme": "b"}') },
  { what: "a config that is no object", code: "NotObject", name: schema, problems: validated("[]") },
  { what: "an unknown key", code: "UnknownKey", name: schema, problems: validated('{"them": "a"}') },
  { what: "a config's key in a preset", code: "NotInPreset", name: schema, problems: validated('{"schema": 1}', { kind: "preset" }) },
  { what: "a number for a string", code: "WrongType", name: schema, problems: validated('{"theme": 3}') },
  { what: "a value none of the choices", code: "NotOneOf", name: schema, problems: validated('{"log": {"format": "jsn"}}') },
  { what: "a schema version other than 1", code: "SchemaVersion", name: schema, problems: validated('{"schema": 2}') },
  { what: "an empty theme", code: "EmptyValue", name: schema, problems: validated('{"theme": ""}') },
  { what: "an empty detect glob", code: "EmptyValue", name: schema, problems: validated('{"detect": [""]}', { kind: "preset" }) },
  { what: "a theme of white space", code: "BlankTheme", name: schema, problems: validated('{"theme": "  "}') },
  { what: "a theme path not ending in .zip", code: "ThemePath", name: schema, problems: validated('{"theme": "a/b"}') },
  { what: "a NUL in a path", code: "NulCharacter", name: schema, problems: validated('{"hooks": {"initScriptsDir": "a\\u0000"}}') },
  { what: "a module glob with a slash", code: "GlobPath", name: schema, problems: validated('{"modules": {"include": ["a/b"]}}') },
  { what: "a '*' inside a module glob", code: "GlobStar", name: schema, problems: validated('{"exclude": ["a*b"]}') },
  { what: "cache.file naming a directory", code: "CacheFileDirectory", name: schema, problems: validated('{"cache": {"file": "sub/"}}') },
  {
    what: "DROPKIT_HOOK_TIMEOUT not a number of seconds",
    code: "HookTimeout",
    name: schema,
    problems: resolvedErrors({ env: { DROPKIT_HOOK_TIMEOUT: "1e3" } }),
  },
  {
    what: "problems past the listed ones",
    code: "MoreProblems",
    name: schema,
    problems: validated(JSON.stringify(Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, 1])))),
  },
  { what: "a bad flag value", code: "EmptyValue", name: "UsageError", problems: resolvedErrors({ flags: { theme: "" } }) },
  { what: "a bad variable value", code: "NotOneOf", name: schema, problems: resolvedErrors({ env: { DROPKIT_CACHE_ENABLED: "maybe" } }) },
  { what: "an unknown key for --explain", code: "UnknownKey", name: "UsageError", problems: resolvedErrors({ explain: "cache.enable" }) },
  {
    what: "an unknown preset name",
    code: "PresetNotFound",
    name: "PresetNotFound",
    problems: resolvedErrors({ config: configOf('{"presets": ["standrd"]}') }),
  },
  {
    what: "a preset path that is not there",
    code: "PresetFileNotFound",
    name: "PresetNotFound",
    problems: resolvedErrors({ config: configOf('{"presets": ["./nope.json"]}'), presetFiles: [] }),
  },
  {
    what: "a theme no archive has",
    code: "ThemeNotFound",
    name: "ThemeNotFound",
    problems: resolvedErrors({ env: { DROPKIT_THEME: "ocaen" }, archives: ["ocean-theme.zip"] }),
  },
  { what: "a request that is not JSON", code: "RequestNotJson", name: "RequestError", problems: requestErrors("{") },
  { what: "a request that is no object", code: "RequestNotObject", name: "RequestError", problems: requestErrors("[]") },
  { what: "an unknown op", code: "BadRequest", name: "RequestError", problems: requestErrors({ op: "nope" }) },
  { what: "a field of the wrong shape", code: "BadRequest", name: "RequestError", problems: requestErrors({ op: "validate", text: 42 }) },
  { what: "an unknown variable", code: "UnknownVariable", name: "", problems: resolvedWarnings({ env: { DROPKIT_THEMES: "a" } }) },
  {
    what: "a module glob that matches nothing",
    code: "GlobUnmatched",
    name: "",
    problems: resolvedWarnings({ config: configOf('{"presets": [], "modules": {"include": ["zzz"]}}'), archives: ["blog.zip"] }),
  },
  {
    what: "modules.only matching no module",
    code: "OnlySelectsNone",
    name: "",
    problems: resolvedWarnings({ config: configOf('{"presets": [], "modules": {"only": ["zzz"]}}'), archives: ["blog.zip"] }),
  },
  {
    what: "archives named alike but for case",
    code: "NameClash",
    name: "",
    problems: resolvedWarnings({ archives: ["Blog.zip", "blog.zip"] }),
  },
];

describe("each problem of the core has its code", () => {
  for (const c of cases) {
    test(`${c.what}: ${c.code}${c.name ? ` (${c.name})` : " (a warning)"}`, () => {
      const problems = c.problems();
      const found = problems.find((p) => p.code === c.code);
      assert.ok(found, `no ${c.code} among ${JSON.stringify(problems)}`);
      if (c.name) assert.equal((found as CoreDiagnostic).name, c.name);
      else assert.ok(!("name" in found), "a warning has no name");
    });
  }

  test("every code of the core's enum is reached by one of these inputs, but InvalidUtf8", () => {
    // A request's text is JSON: any bytes that are not UTF-8 make the request itself unreadable (RequestNotJson), and
    // the host checks a file's bytes before it sends them, so a config's InvalidUtf8 never reaches the validator.
    const reached = new Set(cases.map((c) => c.code));
    const unreached = coreCodes()
      .map((c) => c.code)
      .filter((code) => !reached.has(code) && code !== "InvalidUtf8");
    assert.deepEqual(unreached, [], "codes of the core's enum without an input here");
  });

  test("every problem and warning of an answer has a code, those with a did-you-mean have it as a field", () => {
    const answer = validate('{"them": "a", "log": {"format": "jsn"}, "modules": {"zzz": 1}}');
    assert.deepEqual(
      answer.errors.map((e) => [e.code, e.path, e.suggestion]),
      [
        ["UnknownKey", "them", "theme"],
        ["NotOneOf", "log.format", "json"],
        ["UnknownKey", "modules.zzz", undefined],
      ],
    );
    assert.deepEqual(answer.errors[0]!.expected?.includes("modules"), true, "the keys accepted at the top level");
    assert.deepEqual(answer.errors[1]!.expected, ["text", "json"]);
    assert.deepEqual(answer.errors[2]!.expected, ["include", "exclude", "only"]);
    const preset = resolveWith({ config: configOf('{"presets": ["standrd"]}') }) as { errors: CoreDiagnostic[] };
    assert.equal(preset.errors[0]!.suggestion, "standard");
    const theme = resolveWith({ env: { DROPKIT_THEME: "ocaen" }, archives: ["ocean-theme.zip"] }) as { errors: CoreDiagnostic[] };
    assert.equal(theme.errors[0]!.suggestion, "ocean");
  });
});
