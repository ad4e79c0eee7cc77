// The bad-input catalogue: every input the CLI takes, broken on purpose, with the exit code, error name and place each must give.
// docs/errors.md is rendered from it.

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { cliPath, fixture, makeZip, type FixtureFile } from "../helpers/cli.js";
import { coreCodes } from "../helpers/codes.js";
import { teamGroup } from "../helpers/users.js";

/** Which input a case breaks: the sections of docs/errors.md's index. */
export type InputKind =
  | "dropkit.config.json"
  | "dropkit.config.ts / .js"
  | "package.json"
  | "presets"
  | "environment"
  | "flags"
  | "state file"
  | "cache file"
  | "archive names"
  | "archive files"
  | "paths with spaces and unicode"
  | "hooks"
  | "init";

/** An error name of SPEC section 8 (and `init`'s ConfigExists), or a warning that lets the run go on. */
export type Outcome =
  | "UsageError"
  | "SchemaValidationError"
  | "ConfigSyntaxError"
  | "ConfigLoadError"
  | "ArchiveInvalid"
  | "StrictWarnings"
  | "ConfigNotFound"
  | "ThemeNotFound"
  | "EmptyDrop"
  | "PresetNotFound"
  | "HookFailed"
  | "IOError"
  | "StateConflict"
  | "ConfigExists"
  | "UntrustedFile"
  | "warning";

export interface CatalogueCase {
  input: InputKind;
  /** What is wrong, in a few words. */
  title: string;
  /** The fixture tree (a `.git` directory is added at its root). */
  files?: Record<string, FixtureFile>;
  /** Files written as raw bytes (for text that is not UTF-8). */
  bytes?: Record<string, Buffer>;
  /** Symbolic links: name → target. */
  links?: Record<string, string>;
  /** Modes set after the tree is written (whatever the umask): name → mode. */
  modes?: Record<string, number>;
  /**
   * Names given to a group shared with another user (`teamGroup`), so that group write lets someone else in; where
   * there is no second user, the name is made writable by others instead.
   */
  shared?: string[];
  /** The working directory, relative to the fixture root. @default "." */
  cwd?: string;
  args: string[];
  env?: Record<string, string>;
  exit: number;
  /** The error record's name, or "warning" for a warning record (then `exit` is the run's). */
  name: Outcome;
  /** What the message (or its `source`, printed under it) must name: a key path, a variable, a flag, a file; `<root>` is the fixture root. */
  place: string[];
  /** Whether this case is the example shown for its error name in docs/errors.md. */
  example?: boolean;
}

/** The process id shown in docs/errors.md for a lock held by the catalogue's own process. */
const shownPid = 4242;

const exe = (text: string): FixtureFile => ({ text, mode: 0o755 });
const cfg = (value: unknown): Record<string, FixtureFile> => ({ "dropkit.config.json": JSON.stringify(value, null, 2) + "\n" });
const create = ["create"];
const okZip: FixtureFile = { zip: { "index.html": "<p>ok</p>" } };
/** A drop with one module, for cases about anything but the archives: a folder with no `*.zip` is EmptyDrop. */
const drop: Record<string, FixtureFile> = { "blog.zip": okZip };
/** A valid zip cut short, as by an interrupted download. */
/** A zip whose one entry's data was changed after it was made: the records are sound, the CRC-32 is not. */
const badCrc = (): Buffer => {
  const bytes = makeZip({ "index.html": "<p>shop</p>" });
  bytes[bytes.indexOf("shop")] = 0x53;
  return bytes;
};
const cutShort = (): Buffer => {
  const whole = makeZip({ "index.html": "<p>".repeat(200), "style.css": "p {}".repeat(200) });
  return whole.subarray(0, whole.length >> 1);
};
const config = ["config"];

export const cases: CatalogueCase[] = [
  // dropkit.config.json
  {
    input: "dropkit.config.json",
    title: "a trailing comma",
    files: { "dropkit.config.json": '{\n  "theme": "ocean",\n}\n' },
    args: config,
    exit: 65,
    name: "ConfigSyntaxError",
    place: ["<root>/dropkit.config.json:3:1"],
    example: true,
  },
  {
    input: "dropkit.config.json",
    title: "an unknown key, with a suggestion",
    files: cfg({ themes: "ocean" }),
    args: config,
    exit: 65,
    name: "SchemaValidationError",
    place: ["themes", "theme", "<root>/dropkit.config.json:2:3"],
    example: true,
  },
  {
    input: "dropkit.config.json",
    title: "a wrong type",
    files: cfg({ theme: 3 }),
    args: config,
    exit: 65,
    name: "SchemaValidationError",
    place: ["theme", "<root>/dropkit.config.json:2:12"],
  },
  {
    input: "dropkit.config.json",
    title: "a nested wrong type, reported with its dotted path",
    files: cfg({ modules: { include: ["a", "b", 7] } }),
    args: config,
    exit: 65,
    name: "SchemaValidationError",
    place: ["modules.include[2]"],
  },
  {
    input: "dropkit.config.json",
    title: "a '*' inside a module glob",
    files: cfg({ exclude: ["a*b"] }),
    args: config,
    exit: 65,
    name: "SchemaValidationError",
    place: ["exclude[0]"],
  },
  {
    input: "dropkit.config.json",
    title: "a duplicate key",
    files: { "dropkit.config.json": '{"theme": "a",\n "theme": "b"}\n' },
    args: config,
    exit: 65,
    name: "SchemaValidationError",
    place: ["theme", "line 1", "<root>/dropkit.config.json:2:2"],
  },
  {
    input: "dropkit.config.json",
    title: "schema 2",
    files: cfg({ schema: 2 }),
    args: config,
    exit: 65,
    name: "SchemaValidationError",
    place: ["schema"],
  },
  {
    input: "dropkit.config.json",
    title: "an array instead of an object",
    files: { "dropkit.config.json": "[]\n" },
    args: config,
    exit: 65,
    name: "SchemaValidationError",
    place: ["<root>/dropkit.config.json:1:1"],
  },
  {
    input: "dropkit.config.json",
    title: "an empty file",
    files: { "dropkit.config.json": "" },
    args: config,
    exit: 65,
    name: "ConfigSyntaxError",
    place: ["<root>/dropkit.config.json:1:1"],
  },
  {
    input: "dropkit.config.json",
    title: "not UTF-8",
    bytes: { "dropkit.config.json": Buffer.from('{"theme": "caf\xe9"}', "latin1") },
    args: config,
    exit: 65,
    name: "ConfigSyntaxError",
    place: ["<root>/dropkit.config.json", "UTF-8"],
  },
  {
    input: "dropkit.config.json",
    title: "an unknown hooks.onFailure value",
    files: cfg({ hooks: { onFailure: "retry" } }),
    args: create,
    exit: 65,
    name: "SchemaValidationError",
    place: ["hooks.onFailure"],
  },
  {
    input: "dropkit.config.json",
    title: "a comment (JSON has none)",
    files: { "dropkit.config.json": '{\n  // the theme\n  "theme": "ocean"\n}\n' },
    args: config,
    exit: 65,
    name: "ConfigSyntaxError",
    place: ["<root>/dropkit.config.json:2:3"],
  },
  {
    input: "dropkit.config.json",
    title: "a NUL character (\\u0000) in a path value",
    files: { "dropkit.config.json": '{"theme": "ocean\\u0000.zip"}\n' },
    args: create,
    exit: 65,
    name: "SchemaValidationError",
    place: ["theme", "NUL", "<root>/dropkit.config.json:1:11"],
  },
  {
    input: "dropkit.config.json",
    title: "a theme of only white space (refused as an empty one, the value shown escaped)",
    files: { "dropkit.config.json": '{"theme": " \\t"}\n' },
    args: create,
    exit: 65,
    name: "SchemaValidationError",
    place: ["theme", "only white space", '" \\t"', "<root>/dropkit.config.json:1:11"],
  },
  {
    input: "dropkit.config.json",
    title: "a YAML file given to --config (read as JSON, and says YAML is not read)",
    files: { "c.yaml": "theme: ocean\n" },
    args: [...config, "--config=c.yaml"],
    exit: 65,
    name: "ConfigSyntaxError",
    place: ["<root>/c.yaml:1:1", "dropkit reads no YAML", ".json", ".ts or .js"],
  },
  {
    input: "environment",
    title: "a TOML file in DROPKIT_CONFIG",
    files: { "dropkit.toml": 'theme = "ocean"\n' },
    args: config,
    env: { DROPKIT_CONFIG: "dropkit.toml" },
    exit: 65,
    name: "ConfigSyntaxError",
    place: ["<root>/dropkit.toml:1:1", "dropkit reads no TOML"],
  },
  {
    input: "dropkit.config.json",
    title: "a config writable by a group with another member (another user could have written it)",
    files: cfg({ theme: "none" }),
    modes: { "dropkit.config.json": 0o664 },
    shared: ["dropkit.config.json"],
    args: config,
    exit: 77,
    name: "UntrustedFile",
    place: ["<root>/dropkit.config.json", "writable by its group", "DROPKIT_SAFE_DIRECTORIES=<root>"],
    example: true,
  },
  {
    input: "dropkit.config.json",
    title: "a config over the 1 MiB limit",
    files: { "dropkit.config.json": `{"modules": {"exclude": ["${"m".repeat(1_500_000)}"]}}\n` },
    args: config,
    exit: 65,
    name: "ConfigLoadError",
    place: ["<root>/dropkit.config.json", "1 MiB (1,048,576 bytes)"],
  },

  // dropkit.config.ts / .js
  {
    input: "dropkit.config.ts / .js",
    title: "a .ts config that throws",
    files: { "dropkit.config.ts": 'throw new Error("no config today");\nexport default {};\n' },
    args: config,
    exit: 65,
    name: "ConfigLoadError",
    place: ["<root>/dropkit.config.ts:1:7", "no config today"],
    example: true,
  },
  {
    input: "dropkit.config.ts / .js",
    title: "a .js config with no default export",
    files: { "dropkit.config.js": "export const theme = 'ocean';\n" },
    args: config,
    exit: 65,
    name: "ConfigLoadError",
    place: ["<root>/dropkit.config.js", "theme"],
  },
  {
    input: "dropkit.config.ts / .js",
    title: "a default export that is a number",
    files: { "dropkit.config.js": "module.exports = 42;\n" },
    args: config,
    exit: 65,
    name: "ConfigLoadError",
    place: ["<root>/dropkit.config.js", "42"],
  },
  {
    input: "dropkit.config.ts / .js",
    title: "an async function that rejects",
    files: { "dropkit.config.ts": 'export default async () => { throw new Error("vault locked"); };\n' },
    args: config,
    exit: 65,
    name: "ConfigLoadError",
    place: ["<root>/dropkit.config.ts:1:36", "vault locked"],
  },
  {
    input: "dropkit.config.ts / .js",
    title: "a file the config imports throws",
    files: {
      "dropkit.config.ts": 'import { secret } from "./lib/vault";\nexport default async () => ({ theme: await secret("theme") });\n',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a file of the fixture, holding a template literal.
      "lib/vault.ts": "export async function secret(name: string): Promise<string> {\n  throw new Error(`no secret named ${name}`);\n}\n",
    },
    args: config,
    exit: 65,
    name: "ConfigLoadError",
    place: ["<root>/lib/vault.ts:2:9", "<root>/dropkit.config.ts:2:44", "no secret named theme"],
  },
  {
    input: "dropkit.config.ts / .js",
    title: "a TypeScript syntax error",
    files: { "dropkit.config.ts": "export default { theme: 'ocean' ;\n" },
    args: config,
    exit: 65,
    name: "ConfigLoadError",
    place: ["<root>/dropkit.config.ts"],
  },
  {
    input: "dropkit.config.ts / .js",
    title: "a value JSON cannot carry (NaN)",
    files: { "dropkit.config.ts": "export default { cache: { enabled: NaN } };\n" },
    args: config,
    exit: 65,
    name: "SchemaValidationError",
    place: ["cache.enabled", "<root>/dropkit.config.ts"],
  },
  {
    input: "dropkit.config.ts / .js",
    title: "an unknown key in a .ts config",
    files: { "dropkit.config.ts": "export default { modules: { exlude: ['a'] } };\n" },
    args: config,
    exit: 65,
    name: "SchemaValidationError",
    place: ["exlude", "modules", "<root>/dropkit.config.ts"],
  },
  {
    input: "dropkit.config.ts / .js",
    title: "an export nested deeper than 128 levels",
    files: { "dropkit.config.ts": "let v: any = 1;\nfor (let i = 0; i < 10000; i++) v = { a: v };\nexport default { theme: v };\n" },
    args: config,
    exit: 65,
    name: "SchemaValidationError",
    place: ["theme.a.a", "128 levels", "<root>/dropkit.config.ts"],
  },
  {
    input: "dropkit.config.ts / .js",
    title: "an async function whose promise never settles",
    files: { "dropkit.config.ts": "export default async () => { await new Promise(() => {}); };\n" },
    args: create,
    exit: 65,
    name: "ConfigLoadError",
    place: ["<root>/dropkit.config.ts", "never settled"],
  },
  {
    input: "dropkit.config.ts / .js",
    title: "a .js config that calls process.exit",
    files: { "dropkit.config.js": "process.exit(0);\n" },
    args: create,
    exit: 65,
    name: "ConfigLoadError",
    place: ["<root>/dropkit.config.js", "process.exit(0)"],
  },

  // package.json
  {
    input: "package.json",
    title: "a package.json that does not parse",
    files: { "package.json": '{"name": "x", "dropkit": {"theme": "ocean"}\n' },
    args: config,
    exit: 65,
    name: "ConfigSyntaxError",
    place: ["<root>/package.json:2:1"],
  },
  {
    input: "package.json",
    title: "a dropkit key that is not an object",
    files: { "package.json": '{"name": "x", "dropkit": "ocean"}\n' },
    args: config,
    exit: 65,
    name: "SchemaValidationError",
    place: ["<root>/package.json:1:26"],
  },
  {
    input: "package.json",
    title: "an unknown key under dropkit",
    files: { "package.json": '{\n  "name": "x",\n  "dropkit": {"colour": "red"}\n}\n' },
    args: config,
    exit: 65,
    name: "SchemaValidationError",
    place: ["colour", "<root>/package.json:3:15"],
  },
  {
    input: "package.json",
    title: "--config naming a package.json without a dropkit key",
    files: { "package.json": '{"name": "x"}\n' },
    args: [...config, "--config=package.json"],
    exit: 66,
    name: "ConfigNotFound",
    place: ["--config", "<root>/package.json", "dropkit"],
  },
  {
    input: "package.json",
    title: "a wrong type under dropkit",
    files: { "package.json": '{"dropkit": {"cache": {"enabled": "yes"}}}\n' },
    args: config,
    exit: 65,
    name: "SchemaValidationError",
    place: ["cache.enabled"],
  },
  {
    input: "package.json",
    title: "a package.json over 1 MiB with a dropkit key",
    files: { "package.json": `{"dropkit": {}, "readme": "${"r".repeat(1_200_000)}"}\n` },
    args: config,
    exit: 65,
    name: "ConfigLoadError",
    place: ["<root>/package.json", "dropkit.config.json"],
  },

  // presets
  {
    input: "presets",
    title: "an unknown preset in the config",
    files: cfg({ presets: ["standrad"] }),
    args: config,
    exit: 67,
    name: "PresetNotFound",
    place: ["standrad", "standard"],
    example: true,
  },
  {
    input: "presets",
    title: "an unknown --preset",
    args: [...config, "--preset=ghost"],
    exit: 67,
    name: "PresetNotFound",
    place: ["ghost", "--preset"],
  },
  {
    input: "presets",
    title: "an unknown preset in DROPKIT_PRESETS",
    args: config,
    env: { DROPKIT_PRESETS: "standard,nope" },
    exit: 67,
    name: "PresetNotFound",
    place: ["nope", "DROPKIT_PRESETS"],
  },
  {
    input: "presets",
    title: "a preset path that does not exist",
    files: cfg({ presets: ["./presets/ci.json"] }),
    args: config,
    exit: 67,
    name: "PresetNotFound",
    place: ["presets/ci.json"],
  },
  {
    input: "presets",
    title: "a local preset with a key presets may not hold",
    files: { ...cfg({ presets: ["mine"], presetsSearchPath: ["./presets"] }), "presets/mine.json": '{"schema": 1}\n' },
    args: config,
    exit: 65,
    name: "SchemaValidationError",
    place: ["schema", "<root>/presets/mine.json:1:2"],
  },
  {
    input: "presets",
    title: "a local preset that does not parse",
    files: { ...cfg({ presets: ["mine"], presetsSearchPath: ["./presets"] }), "presets/mine.json": '{"theme": }\n' },
    args: config,
    exit: 65,
    name: "ConfigSyntaxError",
    place: ["<root>/presets/mine.json:1:11"],
  },
  {
    input: "presets",
    title: "a presets search path directory that does not exist",
    files: cfg({ presetsSearchPath: ["./nowhere"] }),
    args: config,
    exit: 0,
    name: "warning",
    place: ["<root>/nowhere"],
  },
  {
    input: "presets",
    title: "preset files over the 4 MiB limit together",
    files: {
      ...cfg({ presetsSearchPath: ["./presets"] }),
      ...Object.fromEntries([1, 2, 3, 4, 5].map((i) => [`presets/p${i}.json`, `{"exclude": ["m${i}"]}${" ".repeat(900_000)}\n`])),
    },
    args: config,
    exit: 65,
    name: "ConfigLoadError",
    place: ["<root>/presets/p5.json", "4 MiB (4,194,304 bytes)"],
  },

  // environment
  {
    input: "environment",
    title: "a boolean variable with another word",
    args: config,
    env: { DROPKIT_CACHE_ENABLED: "maybe" },
    exit: 65,
    name: "SchemaValidationError",
    place: ["DROPKIT_CACHE_ENABLED"],
    example: false,
  },
  {
    input: "environment",
    title: "an unknown log format",
    args: config,
    env: { DROPKIT_LOG_FORMAT: "xml" },
    exit: 65,
    name: "SchemaValidationError",
    place: ["DROPKIT_LOG_FORMAT"],
  },
  {
    input: "environment",
    title: "an unknown hooks.onFailure",
    args: config,
    env: { DROPKIT_HOOKS_ON_FAILURE: "sometimes" },
    exit: 65,
    name: "SchemaValidationError",
    place: ["DROPKIT_HOOKS_ON_FAILURE"],
  },
  {
    input: "environment",
    title: "a theme with a slash",
    args: config,
    env: { DROPKIT_THEME: "themes/ocean" },
    exit: 65,
    name: "SchemaValidationError",
    place: ["DROPKIT_THEME"],
  },
  {
    input: "environment",
    title: "a bad glob in a list",
    args: config,
    env: { DROPKIT_MODULES_EXCLUDE: "test-*, a*b" },
    exit: 65,
    name: "SchemaValidationError",
    place: ["DROPKIT_MODULES_EXCLUDE"],
  },
  {
    input: "environment",
    title: "DROPKIT_CONFIG naming a missing file",
    args: config,
    env: { DROPKIT_CONFIG: "./nope.json" },
    exit: 66,
    name: "ConfigNotFound",
    place: ["DROPKIT_CONFIG", "<root>/nope.json"],
  },
  {
    input: "environment",
    title: "a relative directory in DROPKIT_SAFE_DIRECTORIES",
    args: config,
    env: { DROPKIT_SAFE_DIRECTORIES: "drops" },
    exit: 65,
    name: "SchemaValidationError",
    place: ["DROPKIT_SAFE_DIRECTORIES", "drops"],
  },
  {
    input: "environment",
    title: "a hook timeout that is not a number",
    args: create,
    env: { DROPKIT_HOOK_TIMEOUT: "soon" },
    exit: 65,
    name: "SchemaValidationError",
    place: ["DROPKIT_HOOK_TIMEOUT"],
  },
  {
    input: "environment",
    title: "a hook timeout out of range, met by config as by create",
    args: config,
    env: { DROPKIT_HOOK_TIMEOUT: "99999999" },
    exit: 65,
    name: "SchemaValidationError",
    place: ["DROPKIT_HOOK_TIMEOUT"],
  },
  {
    input: "environment",
    title: "a misspelt variable (a warning with a suggestion)",
    args: config,
    env: { DROPKIT_THEM: "ocean" },
    exit: 0,
    name: "warning",
    place: ["DROPKIT_THEM", "DROPKIT_THEME"],
  },
  {
    input: "environment",
    title: "DROPKIT_LOG_FORMAT=json with an invalid config: the errors still come as JSON",
    files: cfg({ theme: "" }),
    args: config,
    env: { DROPKIT_LOG_FORMAT: "json" },
    exit: 65,
    name: "SchemaValidationError",
    place: ["theme"],
  },

  // flags
  {
    input: "flags",
    title: "an unknown flag",
    args: [...config, "--colour=red"],
    exit: 64,
    name: "UsageError",
    place: ["--colour"],
    example: true,
  },
  {
    input: "flags",
    title: "an unknown command, with the closest one",
    args: ["craete"],
    exit: 64,
    name: "UsageError",
    place: ["craete", "dropkit create"],
  },
  {
    input: "flags",
    title: "an unknown key for config --explain, with the closest one",
    args: [...config, "--explain", "cache.enable"],
    exit: 64,
    name: "UsageError",
    place: ["--explain", 'Did you mean "cache.enabled"?'],
  },
  {
    input: "flags",
    title: "a bad --log-format value",
    args: [...config, "--log-format=xml"],
    exit: 64,
    name: "UsageError",
    place: ["--log-format"],
  },
  {
    input: "flags",
    title: "a bad --log-format value beside --json (the record is JSON)",
    args: [...config, "--json", "--log-format=xml"],
    exit: 64,
    name: "UsageError",
    place: ["--log-format"],
  },
  {
    input: "flags",
    title: "an unknown shell for completion",
    args: ["completion", "tcsh"],
    exit: 64,
    name: "UsageError",
    place: ["<shell>", "tcsh"],
  },
  {
    input: "flags",
    title: "a flag value that starts with a dash, in the space form",
    args: [...create, "--exclude", "-dash"],
    exit: 64,
    name: "UsageError",
    place: ["--exclude", "--exclude=-dash"],
  },
  {
    input: "flags",
    title: "an argument a command does not take",
    args: [...create, "ocean"],
    exit: 64,
    name: "UsageError",
    place: ["ocean"],
  },
  {
    input: "flags",
    title: "a mistyped flag after a --flag=value flag",
    args: [...create, "--theme=ocean", "--exlude=shop"],
    exit: 64,
    name: "UsageError",
    place: ["--exlude", "Did you mean --exclude?"],
  },
  {
    input: "flags",
    title: "-C naming a directory that does not exist",
    args: ["-C", "missing", ...config],
    exit: 64,
    name: "UsageError",
    place: ["-C", "<root>/missing"],
  },
  {
    input: "flags",
    title: "-C naming a file",
    files: { "notes.txt": "notes\n" },
    args: [...config, "-C", "notes.txt"],
    exit: 64,
    name: "UsageError",
    place: ["-C", "<root>/notes.txt", "not a directory"],
  },
  {
    input: "flags",
    title: "dropkit help for an unknown command",
    args: ["help", "crate"],
    exit: 64,
    name: "UsageError",
    place: ["crate", "create"],
  },
  { input: "flags", title: "a bad --exclude glob", args: [...config, "--exclude=a*b"], exit: 64, name: "UsageError", place: ["--exclude"] },
  { input: "flags", title: "an empty --theme", args: [...config, "--theme="], exit: 64, name: "UsageError", place: ["--theme"] },
  {
    input: "flags",
    title: "a --theme of only white space",
    args: [...config, "--theme=  "],
    exit: 64,
    name: "UsageError",
    place: ["--theme", "only white space"],
  },
  {
    input: "flags",
    title: "--config naming a missing file",
    args: [...config, "--config=./missing.json"],
    exit: 66,
    name: "ConfigNotFound",
    place: ["--config", "<root>/missing.json"],
    example: true,
  },
  {
    input: "flags",
    title: "--config naming a directory",
    files: { "conf/": "" },
    args: [...config, "--config=conf"],
    exit: 66,
    name: "ConfigNotFound",
    place: ["<root>/conf"],
  },
  { input: "flags", title: "an empty --config", args: [...config, "--config="], exit: 64, name: "UsageError", place: ["--config"] },
  {
    input: "flags",
    title: "more than 1,000 arguments",
    args: [...config, ...Array.from({ length: 1000 }, (_, i) => `--exclude=old-${i}`)],
    exit: 64,
    name: "UsageError",
    place: ["1,000", "--exclude"],
  },
  {
    input: "flags",
    title: "a --theme that is not in the drop",
    files: { "blog.zip": { zip: { "a.txt": "a" } }, "ocean-theme.zip": { zip: { "t.txt": "t" } } },
    args: [...create, "--theme=forest"],
    exit: 66,
    name: "ThemeNotFound",
    place: ["forest", "--theme"],
    example: true,
  },
  {
    input: "flags",
    title: "a --theme path that does not exist",
    files: drop,
    args: [...create, "--theme=./themes/sea.zip"],
    exit: 66,
    name: "ThemeNotFound",
    place: ["<root>/themes/sea.zip", "--theme"],
  },
  {
    input: "flags",
    title: "a --theme path with a typo, with the closest archive of its folder",
    files: { ...drop, "themes/sea.zip": okZip },
    args: [...create, "--theme=./themes/se.zip"],
    exit: 66,
    name: "ThemeNotFound",
    place: ["<root>/themes/se.zip", "--theme", "Did you mean <root>/themes/sea.zip?"],
  },
  {
    input: "dropkit.config.json",
    title: "a theme path in the config that does not exist, with the archives of its folder",
    files: { ...drop, ...cfg({ theme: "./themes/forest.zip" }), "themes/sea.zip": okZip },
    args: create,
    exit: 66,
    name: "ThemeNotFound",
    place: ["<root>/themes/forest.zip", "<root>/dropkit.config.json:2:12", "Archives in <root>/themes: sea.zip"],
  },
  {
    input: "environment",
    title: "a theme path in DROPKIT_THEME that does not exist",
    files: drop,
    args: create,
    env: { DROPKIT_THEME: "./ocean.zip" },
    exit: 66,
    name: "ThemeNotFound",
    place: ["<root>/ocean.zip", "DROPKIT_THEME"],
  },

  // state file
  {
    input: "state file",
    title: "a state file that is not a JSON object (moved aside, a warning)",
    files: { ...drop, ".dropkit.json": '"torn"\n' },
    args: create,
    exit: 0,
    name: "warning",
    place: ["<root>/.dropkit.json", ".dropkit.json.corrupt-"],
  },
  {
    input: "state file",
    title: "a state file that is a directory",
    files: { ...drop, ".dropkit.json/": "" },
    args: create,
    exit: 74,
    name: "IOError",
    place: ["<root>/.dropkit.json"],
    example: true,
  },
  {
    input: "state file",
    title: "another create holds the folder's lock",
    files: {
      ...drop,
      ".dropkit.json.lock": JSON.stringify({ pid: process.pid, hostname: os.hostname(), startedAt: "2026-11-21T12:00:00.000Z" }) + "\n",
    },
    args: create,
    exit: 75,
    name: "StateConflict",
    place: ["<root>/.dropkit.json.lock", `process ${shownPid}`, "rm '<root>/.dropkit.json.lock'"],
    example: true,
  },
  {
    input: "state file",
    title: "a stale lock whose takeover guard is a directory",
    files: {
      ...drop,
      ".dropkit.json.lock": JSON.stringify({ pid: 2 ** 22 + 1, hostname: os.hostname(), startedAt: "2026-11-21T12:00:00.000Z" }) + "\n",
      ".dropkit.json.lock.takeover/": "",
    },
    args: create,
    exit: 74,
    name: "IOError",
    place: ["<root>/.dropkit.json.lock.takeover", "is a directory", "rm -r '<root>/.dropkit.json.lock.takeover'"],
  },
  {
    input: "state file",
    title: "a state file nested 5,000 levels deep (moved aside, a warning)",
    files: { ...drop, ".dropkit.json": "[".repeat(5000) + "]".repeat(5000) },
    args: create,
    exit: 0,
    name: "warning",
    place: ["<root>/.dropkit.json", "more than 128 levels", ".dropkit.json.corrupt-"],
  },
  {
    input: "state file",
    title: "a state file that is a symbolic link (the link replaced, its target untouched, a warning)",
    files: { ...drop, "elsewhere.json": "{}" },
    links: { ".dropkit.json": "elsewhere.json" },
    args: create,
    exit: 0,
    name: "warning",
    place: ["<root>/.dropkit.json", "does not follow it"],
  },
  {
    input: "state file",
    title: "values dropkit does not use (kept under extra, a warning)",
    files: { ...drop, ".dropkit.json": '{"version": "0.7.2", "owner": "ops", "modules": "blog"}' },
    args: create,
    exit: 0,
    name: "warning",
    place: ["<root>/.dropkit.json", "owner", "modules"],
  },

  {
    input: "state file",
    title: "a legacy state file whose plan this run changes (the lift warns, naming the config line)",
    files: {
      ".dropkit.json": JSON.stringify({ version: "0.7.2", theme: "ocean", excluded: ["legacy-*"] }),
      "legacy-forum.zip": okZip,
      "ocean-theme.zip": okZip,
      "forest-theme.zip": okZip,
    },
    args: create,
    exit: 0,
    name: "warning",
    place: ["<root>/.dropkit.json", "legacy-forum", '"exclude": ["legacy-*"]'],
  },

  // cache file
  {
    input: "cache file",
    title: "a corrupt cache (moved aside, rebuilt, a warning)",
    files: { ...drop, ".dropkit-cache.json": '{\n  "kind": "dropkit-cache",\n  "version": 2,\n  "checkedAt' },
    args: create,
    exit: 0,
    name: "warning",
    place: ["<root>/.dropkit-cache.json", "corrupt", "moved aside"],
  },
  {
    input: "cache file",
    title: "garbage in the default .dropkit-cache.json (dropkit's own name: moved aside, rebuilt, a warning)",
    files: { ...drop, ".dropkit-cache.json": "not json at all\n" },
    args: create,
    exit: 0,
    name: "warning",
    place: ["<root>/.dropkit-cache.json", "corrupt"],
  },
  {
    input: "cache file",
    title: "cache.file naming a file dropkit did not write",
    files: { ...drop, ...cfg({ cache: { file: "./notes.txt" } }), "notes.txt": "my notes\n" },
    args: create,
    exit: 74,
    name: "IOError",
    place: ["<root>/notes.txt", "not a dropkit cache", "<root>/dropkit.config.json:3:13"],
  },
  {
    input: "cache file",
    title: "cache.file naming the config file",
    files: { ...drop, ...cfg({ cache: { file: "./dropkit.config.json" } }) },
    args: create,
    exit: 74,
    name: "IOError",
    place: ["<root>/dropkit.config.json", "named like a dropkit config file"],
  },
  {
    input: "cache file",
    title: "a cache file in a directory that does not exist",
    files: { ...drop, ...cfg({ cache: { file: "./no/such/dir/cache.json" } }) },
    args: create,
    exit: 74,
    name: "IOError",
    place: ["<root>/no/such/dir/cache.json", "cache.enabled"],
  },
  {
    input: "cache file",
    title: "a cache file that is a directory",
    files: { ...drop, ".dropkit-cache.json/": "" },
    args: create,
    exit: 74,
    name: "IOError",
    place: ["<root>/.dropkit-cache.json"],
  },
  {
    input: "cache file",
    title: "a cache.file ending in '/' (a directory's name)",
    files: cfg({ cache: { file: "sub/" } }),
    args: create,
    exit: 65,
    name: "SchemaValidationError",
    place: ["cache.file", "<root>/dropkit.config.json:3:13", "names a directory"],
  },
  {
    input: "cache file",
    title: "an empty cache.file",
    files: cfg({ cache: { file: "" } }),
    args: config,
    exit: 65,
    name: "SchemaValidationError",
    place: ["cache.file"],
  },

  // archive names
  {
    input: "archive names",
    title: "a theme name with spaces and accents that is not there",
    files: { "forêt profonde-theme.zip": { zip: { t: "t" } } },
    args: [...create, "--theme=forêt"],
    exit: 66,
    name: "ThemeNotFound",
    place: ["forêt"],
  },
  {
    input: "archive names",
    title: "several themes, one named in the config that is missing",
    files: { ...cfg({ theme: "été 2024" }), "ocean-theme.zip": { zip: { t: "t" } }, "日本-theme.zip": { zip: { t: "t" } } },
    args: create,
    exit: 66,
    name: "ThemeNotFound",
    place: ["été 2024"],
  },
  {
    input: "archive names",
    title: "a module glob written as a path",
    files: cfg({ modules: { only: ["mods/shop"] } }),
    args: config,
    exit: 65,
    name: "SchemaValidationError",
    place: ["modules.only[0]"],
  },
  {
    input: "archive names",
    title: "an archive named like a flag, with an unknown preset",
    files: { "--help.zip": { zip: { a: "a" } }, "-x y.zip": { zip: { a: "a" } } },
    args: [...create, "--preset=odd"],
    exit: 67,
    name: "PresetNotFound",
    place: ["odd"],
  },

  {
    input: "archive names",
    title: "a folder with no *.zip at all",
    files: { "notes.txt": "n\n" },
    args: create,
    exit: 66,
    name: "EmptyDrop",
    place: ["<root>", "No *.zip archive"],
    example: true,
  },
  {
    input: "archive names",
    title: "a monorepo sub-package with no *.zip, under a root config whose folder holds archives",
    files: { "package.json": JSON.stringify({ name: "mono", dropkit: { presets: [] } }), "blog.zip": okZip, "packages/site/": "" },
    cwd: "packages/site",
    args: create,
    exit: 66,
    name: "EmptyDrop",
    place: ["<root>/packages/site", "<root>/package.json", "holds 1 *.zip archive", "run dropkit there (cd <root>)"],
  },
  {
    input: "archive names",
    title: "a folder named x.zip (left out, a warning)",
    files: { ...drop, "x.zip/": "" },
    args: create,
    exit: 0,
    name: "warning",
    place: ["<root>/x.zip", "it is a directory, not a regular file"],
  },
  {
    input: "archive names",
    title: "--strict with a module glob that matches no archive",
    files: drop,
    args: [...create, "--strict", "--exclude=blgo"],
    exit: 65,
    name: "StrictWarnings",
    place: ["--strict", "GlobUnmatched", "blgo"],
    example: true,
  },

  // archive files
  {
    input: "archive files",
    title: "a module archive cut short (an interrupted download)",
    files: { "blog.zip": okZip },
    bytes: { "shop.zip": cutShort() },
    args: create,
    exit: 65,
    name: "ArchiveInvalid",
    place: ["<root>/shop.zip", "truncated", "--exclude=shop"],
    example: true,
  },
  {
    input: "archive files",
    title: "a text file named .zip",
    files: { "blog.zip": okZip, "notes.zip": "meeting notes\n" },
    args: create,
    exit: 65,
    name: "ArchiveInvalid",
    place: ["<root>/notes.zip", "not a zip archive"],
  },
  {
    input: "archive files",
    title: "a zero-byte .zip",
    files: { "blog.zip": okZip, "empty.zip": "" },
    args: create,
    exit: 65,
    name: "ArchiveInvalid",
    place: ["<root>/empty.zip", "empty"],
  },
  {
    input: "archive files",
    title: "an entry name that leaves the folder (zip slip)",
    files: { "blog.zip": okZip, "shop.zip": { zip: { "index.html": "<p>", "../xt": "x" } } },
    args: create,
    exit: 65,
    name: "ArchiveInvalid",
    place: ["<root>/shop.zip", "unsafe name", '"../xt"'],
  },
  {
    input: "archive files",
    title: "entry data that does not match its CRC-32 (corrupted in the middle)",
    files: { "blog.zip": okZip },
    bytes: { "shop.zip": badCrc() },
    args: create,
    exit: 65,
    name: "ArchiveInvalid",
    place: ["<root>/shop.zip", "CRC-32", '"index.html"'],
  },
  {
    input: "archive files",
    title: "a theme archive that is not a zip",
    files: { "ocean-theme.zip": "<html>404 Not Found</html>", "blog.zip": okZip },
    args: create,
    exit: 65,
    name: "ArchiveInvalid",
    place: ["<root>/ocean-theme.zip", "theme"],
  },
  {
    input: "archive files",
    title: "an unreadable archive the plan leaves out (a warning)",
    files: { "blog.zip": okZip },
    bytes: { "test-old.zip": cutShort() },
    args: create,
    exit: 0,
    name: "warning",
    place: ["<root>/test-old.zip", "truncated", "leaves it out"],
  },

  {
    input: "archive files",
    title: "a zip with no entries (accepted, a warning, as unzip -t warns)",
    files: { ...drop },
    bytes: { "empty.zip": Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0)]) },
    args: create,
    exit: 0,
    name: "warning",
    place: ["<root>/empty.zip", "zipfile is empty"],
  },

  // paths with spaces and unicode
  {
    input: "paths with spaces and unicode",
    title: "a config with a syntax error in a folder with spaces and unicode",
    files: { "my drop/ünï côde/dropkit.config.json": '{"theme": ocean}' },
    cwd: "my drop/ünï côde",
    args: config,
    exit: 65,
    name: "ConfigSyntaxError",
    place: ["<root>/my drop/ünï côde/dropkit.config.json:1:11"],
  },
  {
    input: "paths with spaces and unicode",
    title: "--config with spaces that does not exist",
    args: [...config, "--config=./cfg dir/my config.json"],
    exit: 66,
    name: "ConfigNotFound",
    place: ["<root>/cfg dir/my config.json"],
  },
  {
    input: "paths with spaces and unicode",
    title: "a failing hook in a folder with spaces",
    files: {
      ...drop,
      ...cfg({ hooks: { onFailure: "fail", initScriptsDir: "./my hooks" } }),
      "my hooks/01 prépare.sh": exe("#!/bin/sh\nexit 3\n"),
    },
    args: create,
    exit: 1,
    name: "HookFailed",
    place: ["<root>/my hooks/01 prépare.sh", "3"],
  },
  {
    input: "paths with spaces and unicode",
    title: "an unknown preset found through a search path with spaces",
    files: { ...cfg({ presets: ["ci"], presetsSearchPath: ["./mes presets"] }), "mes presets/cd.json": "{}" },
    args: config,
    exit: 67,
    name: "PresetNotFound",
    place: ["ci", "cd"],
  },

  // hooks
  {
    input: "hooks",
    title: "a failing hook with onFailure: fail",
    files: { ...drop, ...cfg({ hooks: { onFailure: "fail" } }), "init-scripts/10-check": exe("#!/bin/sh\nexit 2\n") },
    args: create,
    exit: 1,
    name: "HookFailed",
    place: ["<root>/init-scripts/10-check", "2"],
    example: true,
  },
  {
    input: "hooks",
    title: "a failing hook with onFailure: continue (a warning)",
    files: { ...drop, ...cfg({ hooks: { onFailure: "continue" } }), "post-scripts/notify": exe("#!/bin/sh\nexit 9\n") },
    args: create,
    exit: 0,
    name: "warning",
    place: ["<root>/post-scripts/notify", "9"],
  },
  {
    input: "hooks",
    title: "a hook that runs past DROPKIT_HOOK_TIMEOUT",
    files: { ...drop, ...cfg({ hooks: { onFailure: "fail" } }), "init-scripts/slow": exe("#!/bin/sh\nexec sleep 20\n") },
    args: create,
    env: { DROPKIT_HOOK_TIMEOUT: "0.3" },
    exit: 1,
    name: "HookFailed",
    place: ["<root>/init-scripts/slow", "DROPKIT_HOOK_TIMEOUT"],
  },
  {
    input: "hooks",
    title: "a hooks directory others can write",
    files: { ...drop, "init-scripts/": "" },
    modes: { "init-scripts": 0o777 },
    args: create,
    exit: 77,
    name: "UntrustedFile",
    place: ["<root>/init-scripts", "mode 777"],
  },
  {
    input: "hooks",
    title: "a hooks directory that is a file",
    files: { ...drop, "init-scripts": "not a directory" },
    args: create,
    exit: 74,
    name: "IOError",
    place: ["<root>/init-scripts"],
  },

  {
    input: "hooks",
    title: "hooks.postScriptsDir naming a file, checked by config as create checks it",
    files: { ...cfg({ hooks: { postScriptsDir: "./post.sh" } }), "post.sh": "#!/bin/sh\n" },
    args: config,
    exit: 74,
    name: "IOError",
    place: ["<root>/post.sh", "it is a file, not a directory", "hooks.postScriptsDir", "<root>/dropkit.config.json:3:23"],
  },

  // init
  { input: "init", title: "init without a terminal and without --yes", args: ["init"], exit: 64, name: "UsageError", place: ["--yes"] },
  {
    input: "init",
    title: "init in a folder that has a config",
    files: cfg({}),
    args: ["init", "--yes"],
    exit: 73,
    name: "ConfigExists",
    place: ["<root>/dropkit.config.json", "--force"],
    example: true,
  },
  {
    input: "init",
    title: "init with --config",
    args: ["init", "--yes", "--config=x.json"],
    exit: 64,
    name: "UsageError",
    place: ["--config"],
  },
  {
    input: "init",
    title: "init with a --theme the folder does not hold",
    files: { "ocean-theme.zip": { zip: { "t.txt": "t" } } },
    args: ["init", "--yes", "--theme=ocaen"],
    exit: 66,
    name: "ThemeNotFound",
    place: ["--theme", "ocean"],
  },
  {
    input: "init",
    title: "init with a bad --exclude glob (as config and create: at the flag)",
    args: ["init", "--yes", "--exclude=a*b"],
    exit: 64,
    name: "UsageError",
    place: ["--exclude"],
  },
];

/** What each error means and how to fix it, the prose of docs/errors.md; `Interrupted` and `InternalError` have no input that causes them. */
export const errorDocs: Record<
  Exclude<Outcome, "warning"> | "Interrupted" | "InternalError",
  { exit: number | string; when: string; fix: string }
> = {
  UsageError: {
    exit: 64,
    when:
      "an unknown command or flag (the closest one is suggested), a flag without its value, an argument a command " +
      "does not take, a bad flag value, more than 1,000 arguments, `init` without a terminal or `--yes`",
    fix:
      "Check the command and flag against `dropkit <command> --help` (the text log prints the command's usage line " +
      "under the error); a value that starts with a dash needs the `=` form (`--exclude=-dash`); for `init` in CI, " +
      "add `--yes`.",
  },
  SchemaValidationError: {
    exit: 65,
    when:
      "an unknown key, a wrong type or value in a config or preset (the message has the dotted path), a duplicate " +
      "key, a NUL character in a path value, a `cache.file` ending in `/` or `\\` (a directory's name), a " +
      "`.ts`/`.js` export nested deeper than 128 levels, an invalid `DROPKIT_*` value (the message names the " +
      "variable)",
    fix: "Change the value at the path (or the variable) to one the message lists; an unknown key comes with the closest known one.",
  },
  ConfigSyntaxError: {
    exit: 65,
    when: "a config, preset or `package.json` that is not JSON, or not UTF-8",
    fix:
      "Open the file at the `file:line:column` given (the text log shows the line with a caret) and fix the JSON " +
      "there; JSON allows no comments and no trailing commas.",
  },
  ConfigLoadError: {
    exit: 65,
    when:
      "a `.ts`/`.js` config or preset that throws, does not compile, calls `process.exit`, exports no object, or " +
      "never settles (its code or its function's promise still pending when nothing is left to wait on, or after 60 " +
      "s); a config, preset or `package.json` over 1 MiB (or exporting over 1 MiB of data), or config and preset " +
      "files over 4 MiB together",
    fix:
      "Open the file at the `file:line:column` given: where it threw or stopped compiling, in the file as written " +
      "(the text log shows the line with a caret), in a file the config imports when the throw is there, with the " +
      "config's line in the message. Export an object or a function returning one as the default export; one that " +
      "never settled awaits a promise nothing resolves. For a file over the limits, check that it is the right file: " +
      "a dropkit config is a few KB (limits: docs/reliability.md).",
  },
  ArchiveInvalid: {
    exit: 65,
    when:
      "the theme or a selected module is not a sound zip archive: not a zip at all (a text or HTML file, an empty " +
      "file), truncated (an interrupted download or copy), with a corrupt central directory, an entry name that is " +
      "unsafe to unpack (an absolute path `/a.txt`, a drive letter `C:\\xt`, a `..` segment, a backslash), or entry " +
      "data that does not verify (a stored entry's length or CRC-32, a deflated entry that does not inflate to its " +
      "length and CRC-32), as `unzip -t` checks it. Every archive is read without extracting anything; the message " +
      "names the file, the entry (escaped) and what is wrong. Encrypted entries (no password) and compression " +
      "methods other than stored and deflate cannot be verified: the archive is accepted with a warning that names " +
      "them",
    fix:
      "Download or build the archive again (`unzip -t <file>` shows whether it is whole), or leave it out: " +
      "`--exclude=<module>` for a module, another `theme` for a theme. An unreadable archive the plan leaves out " +
      "only warns.",
  },
  StrictWarnings: {
    exit: 65,
    when:
      "`create --strict` (or `create --dry-run --strict`) met a warning before the state is written: an unmatched module glob, an `only` that " +
      "selects none, names archives share, a `*.zip` that is no archive, an empty or unverifiable archive, an init hook that failed with " +
      "`onFailure: continue`, a lifted legacy plan that changes, any config warning. The record quotes them (each with its code), and nothing is " +
      "written; no post hook runs",
    fix: "Fix what each quoted warning names (each has its own fix in its message), or run without `--strict` to let warnings be warnings.",
  },
  ConfigNotFound: {
    exit: 66,
    when: "`--config` or `DROPKIT_CONFIG` names a path that does not exist or is not a file (or cannot be read), or a `package.json` without a `dropkit` key",
    fix: "Fix the path (relative paths start at the working directory), or drop the flag or variable to let discovery find the config.",
  },
  ThemeNotFound: {
    exit: 66,
    when:
      "a named theme that has no `<name>.zip` or `<name>-theme.zip` in the drop (names compare in any letter case), " +
      "or a `.zip` path that does not exist (named at the flag, variable or config line that set it, with the " +
      "closest archive of its folder); from `create`, and from `init` for its theme answer (`config` does not look " +
      "at the drop)",
    fix:
      "Use one of the theme archives the drop has, `auto`, or `none`; a path is relative to the config file (or the " +
      "working directory for flags and variables).",
  },
  EmptyDrop: {
    exit: 66,
    when:
      "`create` (or `create --dry-run`) in a folder with no `*.zip` archive (hidden files and entries that are no regular file do not count), " +
      "before any hook runs; or with none left once the init hooks ran. When the config in use is in another folder (discovery walked up, as from a" +
      " monorepo sub-package), the message names it and how many archives it holds. Nothing is written (sysexits EX_NOINPUT)",
    fix:
      "Run dropkit in the folder that holds the archives (the message names the config's folder when it holds some), or put the theme and module " +
      "archives in this folder.",
  },
  PresetNotFound: {
    exit: 67,
    when: "a preset name from the config, `--preset` or `DROPKIT_PRESETS` that is neither bundled nor in the search path, or a preset path that does not exist",
    fix: "Use a name from the list in the message (the closest one is suggested), or add the preset's directory to `presetsSearchPath`.",
  },
  HookFailed: {
    exit: 1,
    when: "a hook exits non-zero, is killed, cannot start, or runs past `DROPKIT_HOOK_TIMEOUT` (seconds, default 60), with `hooks.onFailure: fail`",
    fix:
      "Run the hook named in the message by hand and fix it; raise `DROPKIT_HOOK_TIMEOUT` for a slow one; or set " +
      "`hooks.onFailure` to `continue` to make failures warnings.",
  },
  IOError: {
    exit: 74,
    when:
      "the working directory was removed before the run, standard output cannot be written (the data asked for was " +
      "lost: a full disk, an I/O error; a reader that closed the pipe is no error, and an unwritable standard error " +
      "never changes the exit code), the state file, the cache file or a hooks directory cannot be read or written " +
      "(a stale lock this user cannot remove too: another user's in a folder with the sticky bit, a folder the user " +
      "may not write, a read-only file system), or `cache.file` names a file that is not a dropkit cache or that " +
      "dropkit cannot read (dropkit never replaces a file it did not write; at the default name " +
      "`.dropkit-cache.json`, dropkit's own, such a regular file is a corrupt cache instead: moved aside with a " +
      "warning and rebuilt)",
    fix:
      "Make the path named in the message a writable file in a writable directory; for the cache, set `cache.file` " +
      "to a path of its own (the default is `.dropkit-cache.json`) or `cache.enabled: false`.",
  },
  StateConflict: {
    exit: 75,
    when:
      "another `dropkit create` holds the folder's lock (`.dropkit.json.lock`) past the 5 s wait (its process, or " +
      "the hook it started while that still runs after the process was killed), a stale lock's takeover stays " +
      "blocked past that wait (its guard `.dropkit.json.lock.takeover` kept fresh), or another program changed " +
      "`.dropkit.json` while the run was going on; nothing was replaced",
    fix:
      "Run `dropkit create` again once the other run (and its hook) has finished. If none is running, the lock is " +
      "left over (the message names it and its process, or its guard): remove it.",
  },
  UntrustedFile: {
    exit: 77,
    when:
      "a config, preset, hooks directory or hook that another user owns or could have written: owned by someone " +
      "other than you or root, writable by its group or others, or in such a directory up to where discovery stopped " +
      "(a sticky folder such as `/tmp` too). The message names the file, its owner and what is wrong. Nothing runs " +
      "and nothing is written (sysexits EX_NOPERM)",
    fix:
      "If you trust the file, allow its directory: `DROPKIT_SAFE_DIRECTORIES=/path/to/dir` (several separated by " +
      "`:`, `*` for every directory), as git's `safe.directory`. Otherwise make it yours (`chown`), take the write " +
      "permission away from others (`chmod go-w`), or move it out of the shared folder. The rule: " +
      'docs/reliability.md, "Trust".',
  },
  ConfigExists: {
    exit: 73,
    when: "`dropkit init` in a folder that already has a config, in any form",
    fix: "Edit the existing config, or run `dropkit init --force` to replace `dropkit.config.json`.",
  },
  Interrupted: {
    exit: "130, 143, 129",
    when:
      "SIGINT (Ctrl-C), SIGTERM or SIGHUP stopped the run (128 + the signal's number; the record's `source` is the " +
      "signal; one record, also when the signal ends the wait for the lock, at once): the running hook's whole " +
      "process group was stopped and `.dropkit.json` put back as it was; also `init` cancelled at a question. " +
      "Nothing is written" +
      "; while a `.ts`/`.js` config's code waits (a timer, I/O), the message names the file: `config` stops at once, `create` first writes a " +
      "`WaitingForConfig` warning at Ctrl-C and stops once the config has loaded, or at a second Ctrl-C; while that code holds the main thread, " +
      "the first signal ends dropkit by the kernel's default action, with no record",
    fix:
      "Nothing to fix: run the command again. A second signal kills the hook's processes at once (SIGKILL) and gives " +
      "the run one second to put the state back before it exits. In CI, a job timeout sends SIGTERM: raise the job's " +
      "timeout or `DROPKIT_HOOK_TIMEOUT` for a slow hook. Covered by `test/system/signals.test.ts`, on a " +
      "pseudo-terminal too" +
      ", and `test/system/config-signals.test.ts` for a config that waits or holds the main thread.",
  },
  InternalError: {
    exit: 70,
    when: "a bug in dropkit, or a failure of the wasm core",
    fix:
      "Report it with the command, the dropkit version and the message; `DROPKIT_DEBUG=1` adds the stack trace. No " +
      "input should ever cause it: the fuzz suite (test/core/fuzz.test.ts) checks that the core never fails.",
  },
};

/** What one case produced, with the fixture root replaced by a fixed path so the docs do not change between runs. */
export interface CaseResult {
  status: number | null;
  stderr: string;
  records: Array<Record<string, any>>;
  /** The record the case is about: the first error (or warning) of its name. */
  record?: Record<string, any>;
  /** For the example of each error name: its record as the text log prints it, from a run without the JSON log. */
  text?: string[];
}

/** The fixture root as shown in docs/errors.md. */
export const shownRoot = "/home/me/drop";

/**
 * Runs every case with the JSON log, then each error name's example again with the text log, for docs/errors.md
 * (cases are independent, so a few at a time).
 */
export async function runCases(list: CatalogueCase[] = cases, concurrency = 4): Promise<CaseResult[]> {
  const results: CaseResult[] = new Array(list.length);
  const examples = new Set(exampleCases(list));
  const jobs = [...list.map((c, i) => ({ c, i, text: false })), ...list.flatMap((c, i) => (examples.has(c) ? [{ c, i, text: true }] : []))];
  const texts = new Map<number, string[]>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const { c, i, text } = jobs[next++]!;
      if (text) texts.set(i, textRecord((await runCase(c, "text")).stderr, c.name));
      else results[i] = await runCase(c, "json");
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  for (const [i, text] of texts) results[i]!.text = text;
  return results;
}

/** The case shown as the example of each error name: the one marked, else the first. */
export function exampleCases(list: CatalogueCase[] = cases): CatalogueCase[] {
  const names = [...new Set(list.map((c) => c.name))].filter((n) => n !== "warning");
  return names.map((n) => list.find((c) => c.name === n && c.example) ?? list.find((c) => c.name === n)!);
}

/**
 * Runs one case. With the JSON log, `--log-format=json` is added, or `DROPKIT_LOG_FORMAT=json` when the case gives
 * a `--log-format` of its own; with the text log, the case runs as written (stderr is no terminal: no colour).
 */
async function runCase(c: CatalogueCase, log: "json" | "text"): Promise<CaseResult> {
  const root = fixture(c.files ?? {});
  for (const [name, bytes] of Object.entries(c.bytes ?? {})) fs.writeFileSync(path.join(root, name), bytes);
  for (const [name, target] of Object.entries(c.links ?? {})) fs.symlinkSync(target, path.join(root, name));
  for (const [name, mode] of Object.entries(c.modes ?? {})) fs.chmodSync(path.join(root, name), mode);
  const team = c.shared ? teamGroup() : null;
  for (const name of c.shared ?? []) {
    if (team) fs.chownSync(path.join(root, name), 0, team.gid);
    else fs.chmodSync(path.join(root, name), fs.statSync(path.join(root, name)).mode | 0o002);
  }
  const cwd = path.join(root, c.cwd ?? ".");
  fs.mkdirSync(cwd, { recursive: true });
  const ownFormat = c.args.some((a) => a.startsWith("--log-format"));
  const args = log === "text" || ownFormat ? c.args : [...c.args, "--log-format=json"];
  const jsonLog = log === "json" && ownFormat ? { DROPKIT_LOG_FORMAT: "json" } : {};
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root, GIT_CEILING_DIRECTORIES: path.dirname(root), ...jsonLog, ...c.env };
  const { status, stderr } = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [cliPath, ...args], { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (d: string) => (err += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ status: code, stderr: err });
    });
  });
  // The fixture root and the time of the run would make docs/errors.md differ on every run.
  // A lock held by this very process names its id and the host: shown as fixed values.
  const shown = stderr
    .split(root)
    .join(shownRoot)
    .replace(/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z/g, "<time>")
    .split(`process ${process.pid} on host `)
    .join(`process ${shownPid} on host `)
    .split(`on host \\"${os.hostname()}\\"`)
    .join('on host \\"build-host\\"')
    .split(`on host "${os.hostname()}"`)
    .join('on host "build-host"');
  const records: Array<Record<string, any>> = [];
  for (const line of shown.split("\n")) {
    if (line.trim() === "") continue;
    try {
      records.push(JSON.parse(line) as Record<string, any>);
    } catch {
      records.push({ event: "text", line });
    }
  }
  const record =
    c.name === "warning"
      ? records.find((r) => r.event === "warning" && c.place.every((p) => whereOf(r).includes(p.replace("<root>", shownRoot))))
      : records.find((r) => r.event === "error" && r.name === c.name);
  return { status, stderr: shown, records, record };
}

/** The lines of the text log's first error record named `name` (its line, then the lines indented under it). */
function textRecord(stderr: string, name: string): string[] {
  const lines = stderr.split("\n");
  const start = lines.findIndex((l) => l.startsWith(`error     ${name} `));
  if (start < 0) return [];
  let end = start + 1;
  while (end < lines.length && lines[end]!.startsWith(" ".repeat(10))) end++;
  return lines.slice(start, end);
}

/** Where a record's text names places: its message and its source. */
export function whereOf(record: Record<string, any>): string {
  return `${String(record.message ?? "")}\n${String(record.source ?? "")}`;
}

// --- docs/errors.md ---

/** docs/errors.md from the table and what the cases printed. */
export function renderErrorsDoc(results: CaseResult[]): string {
  const out: string[] = [
    "# Errors",
    "",
    "<!-- Generated by `npm run docs:errors` from test/system/catalogue.ts, the bad-input catalogue that test/system/catalogue.test.ts runs",
    "     against the built CLI; the test fails when this file is out of date. Do not edit by hand. -->",
    "",
    "Every error dropkit reports, with its exit code, what causes it, how to fix it, and real messages from the",
    `bad-input catalogue (${cases.length} cases, run in CI by \`test/system/catalogue.test.ts\`; paths shown under \`${shownRoot}\`).`,
    "In the text log each message is followed by `at <source>` (a `file:line:column`, a flag, a variable or the",
    "argument) and, for a file, the offending line with a caret, or for a command line the parser rejects, the command's",
    "usage line; each example below is the text log of a real run. With `--log-format=json` each error is one `error`",
    "record (SPEC section 7), the message and `source` as in the tables; a problem the config's checks found also has a",
    "`code` that says which one it is ([Codes](#codes)), for programs to match instead of the message.",
    "",
    "| exit | name | when |",
    "|---|---|---|",
  ];
  const names = Object.keys(errorDocs) as Array<keyof typeof errorDocs>;
  for (const name of names) out.push(`| ${errorDocs[name].exit} | [${name}](#${name.toLowerCase()}) | ${errorDocs[name].when} |`);
  out.push(
    "",
    "A run that can go on reports a `warning` record instead, and exits as it would have; those cases are listed at the end.",
    "",
  );
  for (const name of names) {
    const doc = errorDocs[name];
    const mine = cases.map((c, i) => ({ c, r: results[i]! })).filter(({ c }) => c.name === name);
    out.push(`## ${name}`, "", `Exit ${doc.exit}: ${doc.when}.`, "", `**Fix:** ${doc.fix}`, "");
    const example = mine.find(({ r }) => r.text !== undefined);
    if (example) {
      const shown = example.r.text!.length > 0 ? example.r.text! : ["(no record)"];
      out.push(
        `Example (${example.c.input}, ${example.c.title}), as the text log prints it:`,
        "",
        "```console",
        `$ ${command(example.c)}`,
        ...shown,
        "```",
        "",
      );
    }
    if (mine.length > 0) {
      out.push("| input | case | code | message | at |", "|---|---|---|---|---|");
      for (const { c, r } of mine)
        out.push(
          `| ${c.input} | ${cell(c.title)} | ${codeCell(r.record)} | ${cell(String(r.record?.message ?? "(no record)"))} | ` +
            `${cell(String(r.record?.source ?? ""))} |`,
        );
      out.push("");
    }
  }
  const warnings = cases.map((c, i) => ({ c, r: results[i]! })).filter(({ c }) => c.name === "warning");
  out.push(
    "## Warnings",
    "",
    "Problems that do not stop the run: the run goes on and exits as it would have.",
    "",
    "| input | case | code | message |",
    "|---|---|---|---|",
  );
  for (const { c, r } of warnings)
    out.push(`| ${c.input} | ${cell(c.title)} | ${codeCell(r.record)} | ${cell(String(r.record?.message ?? "(no record)"))} |`);
  out.push("", ...codesSection(results));
  return out.join("\n");
}

/**
 * The Codes section: every member of the core's `Code` enum with its doc comment, and the records of the catalogue that
 * carry it (by error name, or `warning`). A code no case reaches says so: the request's codes are the host's bugs.
 */
function codesSection(results: CaseResult[]): string[] {
  const seen = new Map<string, Set<string>>();
  for (const r of results)
    for (const record of r.records)
      if (typeof record.code === "string" && (record.event === "error" || record.event === "warning"))
        seen.set(record.code, (seen.get(record.code) ?? new Set()).add(record.event === "error" ? String(record.name) : "warning"));
  const out = [
    "## Codes",
    "",
    "Each problem the config's checks find (in the core: a config, a preset, a variable, a flag's value, the drop's",
    "names) has a `code` beside its `name`: the name is the class of error and gives the exit code, the code says which",
    "problem it is. Codes are stable: match them, not the message, whose words may change. The JSON log's `error` and",
    "`warning` records carry them, as do the core's answers (docs/abi.md) and `DropkitError.diagnostics`. Errors found",
    "outside those checks (a file that cannot be read, a hook that fails) have none.",
    "",
    "| code | what | reported as |",
    "|---|---|---|",
  ];
  for (const { code, doc } of coreCodes()) {
    const names = [...(seen.get(code) ?? [])].sort();
    out.push(`| \`${code}\` | ${cell(doc)} | ${names.length > 0 ? names.join(", ") : "(no catalogue case)"} |`);
  }
  out.push("");
  return out;
}

/** A record's code, as a table cell. */
function codeCell(record: Record<string, any> | undefined): string {
  return typeof record?.code === "string" ? `\`${record.code}\`` : "";
}

function command(c: CatalogueCase): string {
  const env = Object.entries(c.env ?? {})
    .map(([k, v]) => `${k}=${/^[\w./,-]*$/.test(v) ? v : `'${v}'`} `)
    .join("");
  const args = c.args.map((a) => (/^[\w./=-]*$/.test(a) ? a : `'${a}'`)).join(" ");
  return `${env}dropkit ${args}`;
}

function cell(text: string): string {
  // Control characters (a NUL in a path value) are shown escaped, as in JSON.
  return text
    .replace(/\|/g, "\\|")
    .replace(/\n/g, " ")
    .replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
