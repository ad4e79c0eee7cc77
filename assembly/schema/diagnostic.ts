// Problems and warnings as the core reports them (never thrown, always returned, all of them at once), and as a
// response writes them.

import { Positions } from "../json/positions";
import { format, positionText, shown } from "../json/strings";
import { JsonWriter } from "../json/writer";

export const SCHEMA_ERROR = "SchemaValidationError";
export const SYNTAX_ERROR = "ConfigSyntaxError";
export const USAGE_ERROR = "UsageError";
export const PRESET_NOT_FOUND = "PresetNotFound";
export const THEME_NOT_FOUND = "ThemeNotFound";
export const REQUEST_ERROR = "RequestError";

/**
 * At most this many problems of one document are listed; the rest are only counted, never built, so that a
 * huge file of bad values costs bounded memory and output (docs/abi.md).
 */
export const MAX_LISTED_PROBLEMS: i32 = 100;

/**
 * What a problem or warning is, for hosts and tests to tell them apart without reading their words (docs/abi.md): a
 * problem's `name` is its class (and exit code), its code says which problem of the class it is. Each member's doc
 * comment is its line in docs/errors.md (`npm run docs:errors`); test/unit/codes.test.ts holds this enum, CODE_NAMES,
 * src/core/protocol.ts and that page to one list.
 */
export enum Code {
  /** The text is empty, or only white space. */
  EmptyText,
  /** Text after the JSON value: a second value, or a stray character. */
  TrailingText,
  /** No JSON value where one must be: after a colon, a comma or an opening bracket. */
  ExpectedValue,
  /** No property name in double quotes where one must be (a name without quotes, or in single quotes). */
  ExpectedKey,
  /** A comma before a closing brace or bracket. */
  TrailingComma,
  /** No colon after a property name. */
  ExpectedColon,
  /** No comma (or closing brace or bracket) after a property value or an array item. */
  ExpectedComma,
  /** A string without its closing quote. */
  UnterminatedString,
  /** A control character (a tab, a line break) written raw in a string. */
  ControlCharacter,
  /** A backslash escape JSON does not have (`\q`). */
  InvalidEscape,
  /** A `\u` escape without four hexadecimal digits. */
  InvalidUnicodeEscape,
  /** Bytes that are not UTF-8. */
  InvalidUtf8,
  /** A number JSON does not allow: a leading zero, a lone minus, a trailing point, `NaN`. */
  InvalidNumber,
  /** Nesting deeper than a config ever is. */
  TooDeep,
  /** A package.json whose value is not an object. */
  PackageNotObject,
  /** A key set twice in one object: the message names the first one. */
  DuplicateKey,
  /** A config or preset that is not a JSON object. */
  NotObject,
  /** A key the schema does not have there (or a key `--explain` does not know); `expected` lists the keys. */
  UnknownKey,
  /** A key a preset may not hold (`schema`, `presets`, `presetsSearchPath`, `$schema`). */
  NotInPreset,
  /** A value of the wrong JSON type: a number for a string, a string for a list or an object. */
  WrongType,
  /** A value that is none of the key's choices; `expected` lists them, `suggestion` is the closest. */
  NotOneOf,
  /** `schema` is not the number 1. */
  SchemaVersion,
  /** An empty theme, module glob, preset name, path or detect glob. */
  EmptyValue,
  /** A theme of only white space. */
  BlankTheme,
  /** A theme path that does not end in `.zip` (a theme name has no slash). */
  ThemePath,
  /** A NUL character in a value that names files. */
  NulCharacter,
  /** A module glob with a slash: a module glob is a module's name, not a path. */
  GlobPath,
  /** A module glob with a `*` other than one at its end. */
  GlobStar,
  /** `cache.file` ending in a separator, which names a directory. */
  CacheFileDirectory,
  /** `DROPKIT_HOOK_TIMEOUT` not a positive number of seconds, or past the longest timeout. */
  HookTimeout,
  /** The count of a document's problems past those listed. */
  MoreProblems,
  /** A preset name that is neither bundled nor in the search path. */
  PresetNotFound,
  /** A preset path with no file. */
  PresetFileNotFound,
  /** A theme name no archive of the drop has. */
  ThemeNotFound,
  /** A request that is not JSON (a bug of the host: users never see it). */
  RequestNotJson,
  /** A request that is not a JSON object (a bug of the host). */
  RequestNotObject,
  /** A request with an unknown op or a field of the wrong shape (a bug of the host). */
  BadRequest,
  /** A warning: a `DROPKIT_*` variable dropkit does not read. */
  UnknownVariable,
  /** A warning: a module glob the user wrote matches no module archive of the drop. */
  GlobUnmatched,
  /** A warning: `modules.only` matches none of the drop's modules. */
  OnlySelectsNone,
  /** A warning: archives of one kind whose names differ only in letter case. */
  NameClash,
}

/** The codes' names in answers, by Code: written once here, the core keeps only the small number. */
const CODE_NAMES: Array<string> = [
  "EmptyText",
  "TrailingText",
  "ExpectedValue",
  "ExpectedKey",
  "TrailingComma",
  "ExpectedColon",
  "ExpectedComma",
  "UnterminatedString",
  "ControlCharacter",
  "InvalidEscape",
  "InvalidUnicodeEscape",
  "InvalidUtf8",
  "InvalidNumber",
  "TooDeep",
  "PackageNotObject",
  "DuplicateKey",
  "NotObject",
  "UnknownKey",
  "NotInPreset",
  "WrongType",
  "NotOneOf",
  "SchemaVersion",
  "EmptyValue",
  "BlankTheme",
  "ThemePath",
  "NulCharacter",
  "GlobPath",
  "GlobStar",
  "CacheFileDirectory",
  "HookTimeout",
  "MoreProblems",
  "PresetNotFound",
  "PresetFileNotFound",
  "ThemeNotFound",
  "RequestNotJson",
  "RequestNotObject",
  "BadRequest",
  "UnknownVariable",
  "GlobUnmatched",
  "OnlySelectsNone",
  "NameClash",
];

export function codeName(code: Code): string {
  return unchecked(CODE_NAMES[code]);
}

/** One problem: what, where (a path, a position in a file, a flag or a variable) and how to fix it. */
export class Diagnostic {
  name: string = SCHEMA_ERROR;
  code: Code = Code.NotObject;
  /** Dotted key path such as `modules.include[2]`; "" when the problem is not about one value. */
  path: string = "";
  /** `file:line:column`, a file, a flag (`--theme`), a variable (`DROPKIT_THEME`) or a preset. */
  source: string = "";
  /** The file the position is in, or "". */
  file: string = "";
  message: string = "";
  /** Whether the problem has a position in `file`: line and column 1-based, offsets in UTF-16 units. */
  hasPosition: bool = false;
  line: i32 = 0;
  column: i32 = 0;
  offset: i32 = 0;
  end: i32 = 0;
  /** The did-you-mean, as it would be written; "" for none. */
  suggestion: string = "";
  /** UnknownKey: the keys accepted where it is; NotOneOf: the choices. */
  expected: Array<string> | null = null;
  /** A flag's or variable's value, or a preset or theme name, as found: what a fix replaces. */
  found: string = "";
  // A warning's fields besides its message, source and code, each written only when set (docs/abi.md, "Warnings").
  /** The list a module glob is in (`modules.exclude`). */
  key: string = "";
  glob: string = "";
  /** The archives of one name, and the one the plan uses. */
  files: Array<string> | null = null;
  used: string = "";

  /** A problem at bytes `start` to `end` of a text (at `positions`), or without a position when that is null. */
  static at(
    name: string,
    code: Code,
    path: string,
    message: string,
    file: string,
    positions: Positions | null,
    start: i32,
    end: i32,
  ): Diagnostic {
    const d = new Diagnostic();
    d.name = name;
    d.code = code;
    d.path = path;
    d.message = message;
    d.file = file;
    if (positions != null) {
      positions.locate(start);
      d.place(file, positions.line, positions.column, positions.offset, positions.offsetOf(end));
    } else {
      d.source = file;
    }
    return d;
  }

  static from(name: string, code: Code, path: string, message: string, source: string): Diagnostic {
    const d = new Diagnostic();
    d.name = name;
    d.code = code;
    d.path = path;
    d.message = message;
    d.source = source;
    return d;
  }

  /**
   * A bad value of a flag or variable: `Invalid value for --theme: <problem>, found "x".` (`where` is
   * "for --theme" or "in DROPKIT_THEME"); the flag or variable is the source.
   */
  static invalid(name: string, code: Code, path: string, where: string, problem: string, value: string, source: string): Diagnostic {
    const d = Diagnostic.from(name, code, path, format('Invalid value %: %, found "%".', where, problem, shown(value)), source);
    d.found = value;
    return d;
  }

  /** Gives the problem its position in `file`. */
  place(file: string, line: i32, column: i32, offset: i32, end: i32): void {
    this.file = file;
    this.hasPosition = true;
    this.line = line;
    this.column = column;
    this.offset = offset;
    this.end = end;
    this.source = positionText(file, line, column);
  }

  /** The copy of this problem found in `file`, with `path` (a problem the parser found, before it knew the file). */
  inFile(file: string, path: string): Diagnostic {
    const d = Diagnostic.from(this.name, this.code, path, this.message, file);
    d.place(file, this.line, this.column, this.offset, this.end);
    return d;
  }

  exitCode(): i32 {
    return exitCodeOf(this.name);
  }
}

/** A warning is a Diagnostic of which only the message, source, code and the fields of its code are reported. */
export type Warning = Diagnostic;

export function warning(message: string, source: string, code: Code): Warning {
  return Diagnostic.from(SCHEMA_ERROR, code, "", message, source);
}

export function exitCodeOf(name: string): i32 {
  if (name == USAGE_ERROR) return 64;
  if (name == SCHEMA_ERROR || name == SYNTAX_ERROR) return 65;
  if (name == THEME_NOT_FOUND) return 66;
  if (name == PRESET_NOT_FOUND) return 67;
  return 70;
}

/** Orders problems by where they are in the file (insertion sort: lists are short, and it keeps ties in order). */
export function sortByPosition(list: Array<Diagnostic>): void {
  for (let i = 1; i < list.length; i++) {
    const d = list[i];
    let j = i - 1;
    while (j >= 0 && list[j].hasPosition && d.hasPosition && list[j].offset > d.offset) {
      list[j + 1] = list[j];
      j--;
    }
    list[j + 1] = d;
  }
}

/** Writes the problems as the array `key` of a response. */
export function writeDiagnostics(w: JsonWriter, key: string, list: Array<Diagnostic>): void {
  w.key(key).beginArray();
  for (let i = 0; i < list.length; i++) writeDiagnostic(w, list[i]);
  w.endArray();
}

function writeDiagnostic(w: JsonWriter, d: Diagnostic): void {
  w.beginObject();
  w.field("name", d.name);
  w.field("code", codeName(d.code));
  w.key("exitCode").int(d.exitCode());
  w.field("path", d.path);
  w.field("source", d.source);
  if (d.hasPosition) {
    w.field("file", d.file);
    w.key("line").int(d.line);
    w.key("column").int(d.column);
    w.key("offset").int(d.offset);
    // Every span is at least one unit long, so that an editor can always underline something.
    w.key("length").int(max<i32>(1, d.end - d.offset));
  }
  w.field("message", d.message);
  if (d.suggestion.length > 0) w.field("suggestion", d.suggestion);
  const expected = d.expected;
  if (expected != null) w.key("expected").stringArray(expected);
  if (d.found.length > 0) w.field("found", d.found);
  w.endObject();
}

export function writeWarnings(w: JsonWriter, list: Array<Warning>): void {
  w.key("warnings").beginArray();
  for (let i = 0; i < list.length; i++) {
    w.beginObject();
    const d = list[i];
    w.field("message", d.message);
    w.field("source", d.source);
    w.field("code", codeName(d.code));
    if (d.key.length > 0) w.field("key", d.key);
    if (d.glob.length > 0) w.field("glob", d.glob);
    const files = d.files;
    if (files != null) w.key("files").stringArray(files).field("used", d.used);
    if (d.suggestion.length > 0) w.field("suggestion", d.suggestion);
    w.endObject();
  }
  w.endArray();
}
