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

/** What a warning is about, for hosts and tests to tell warnings apart without reading their words (docs/abi.md). */
export enum WarningCode {
  /** A warning without a code: the host reads only its message and source. */
  None = 0,
  /** An unknown DROPKIT_* variable. */
  UnknownVariable = 1,
  /** A module glob the user wrote that matches no module archive of the drop. */
  GlobUnmatched = 2,
  /** modules.only matches none of the drop's modules. */
  OnlySelectsNone = 3,
  /** Two archives of one kind whose names differ only in letter case. */
  NameClash = 4,
}

/** The codes' names in the answer, by WarningCode. */
const WARNING_CODES: Array<string> = ["", "UnknownVariable", "GlobUnmatched", "OnlySelectsNone", "NameClash"];

export function warningCodeName(code: WarningCode): string {
  return unchecked(WARNING_CODES[code]);
}

/** One problem: what, where (a path, a position in a file, a flag or a variable) and how to fix it. */
export class Diagnostic {
  name: string = SCHEMA_ERROR;
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
  // A warning's fields besides its message and source, each written only when set (docs/abi.md, "Warnings").
  code: WarningCode = WarningCode.None;
  /** The list a module glob is in (`modules.exclude`). */
  key: string = "";
  glob: string = "";
  /** The did-you-mean, as it would be written. */
  suggestion: string = "";
  /** The archives of one name, and the one the plan uses. */
  files: Array<string> | null = null;
  used: string = "";

  /** A problem at bytes `start` to `end` of a text (at `positions`), or without a position when that is null. */
  static at(name: string, path: string, message: string, file: string, positions: Positions | null, start: i32, end: i32): Diagnostic {
    const d = new Diagnostic();
    d.name = name;
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

  static from(name: string, path: string, message: string, source: string): Diagnostic {
    const d = new Diagnostic();
    d.name = name;
    d.path = path;
    d.message = message;
    d.source = source;
    return d;
  }

  /**
   * A bad value of a flag or variable: `Invalid value for --theme: <problem>, found "x".` (`where` is
   * "for --theme" or "in DROPKIT_THEME"); the flag or variable is the source.
   */
  static invalid(name: string, path: string, where: string, problem: string, value: string, source: string): Diagnostic {
    return Diagnostic.from(name, path, format('Invalid value %: %, found "%".', where, problem, shown(value)), source);
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
    const d = Diagnostic.from(this.name, path, this.message, file);
    d.place(file, this.line, this.column, this.offset, this.end);
    return d;
  }

  exitCode(): i32 {
    return exitCodeOf(this.name);
  }
}

/** A warning is a Diagnostic of which only the message and source are reported. */
export type Warning = Diagnostic;

export function warning(message: string, source: string, code: WarningCode = WarningCode.None): Warning {
  const w = Diagnostic.from(SCHEMA_ERROR, "", message, source);
  w.code = code;
  return w;
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
  w.endObject();
}

export function writeWarnings(w: JsonWriter, list: Array<Warning>): void {
  w.key("warnings").beginArray();
  for (let i = 0; i < list.length; i++) {
    w.beginObject();
    const d = list[i];
    w.field("message", d.message);
    w.field("source", d.source);
    if (d.code != WarningCode.None) w.field("code", warningCodeName(d.code));
    if (d.key.length > 0) w.field("key", d.key);
    if (d.glob.length > 0) w.field("glob", d.glob);
    const files = d.files;
    if (files != null) w.key("files").stringArray(files).field("used", d.used);
    if (d.suggestion.length > 0) w.field("suggestion", d.suggestion);
    w.endObject();
  }
  w.endArray();
}
