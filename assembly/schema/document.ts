// Documents, the configs and presets the validator reads: from JSON text, the `dropkit` key of a package.json, or a
// value a host evaluated; where each of their values was set; and how a value is named in a message.

import { PERIOD } from "../json/chars";
import { Code, Diagnostic, MAX_LISTED_PROBLEMS, SYNTAX_ERROR } from "./diagnostic";
import { MSG_PACKAGE_NOT_OBJECT } from "./messages";
import { MAX_DEPTH, Parsed, parseJson } from "../json/parser";
import { Positions } from "../json/positions";
import { Source } from "./valuesource";
import { Span, isPlain, spanText } from "../json/span";
import { JsonKind, Tape, valuePtr } from "../json/tape";
import { clip, format, shown } from "../json/strings";

export const FORMAT_JSON = "json";
export const FORMAT_PACKAGE = "package.json";
export const FORMAT_VALUE = "value";

/**
 * Parses the WTF-8 text at `ptr` as `format` ("json" or "package.json") from `file`: the document is the
 * text's value, or its `dropkit` key. Problems the parser found go to the document's errors.
 */
export function parseDocument(ptr: usize, len: i32, format: string, name: Span, kind: DocumentKind): Document {
  const d = new Document(name, kind);
  const packageJson = format == FORMAT_PACKAGE;
  // Only duplicates inside the `dropkit` key of a package.json are dropkit's business.
  const parsed = parseJson(ptr, len, MAX_DEPTH, packageJson ? "dropkit" : "");
  const syntax = parsed.syntaxError;
  if (syntax != null) {
    d.errors.push(syntax.inFile(d.file, syntax.path));
    return d;
  }
  const tape = parsed.tape;
  const root = parsed.root;
  d.tape = tape;
  d.parsed = parsed;
  if (packageJson && tape.kind(root) != JsonKind.Object) {
    d.errors.push(
      Diagnostic.at(
        SYNTAX_ERROR,
        Code.PackageNotObject,
        "",
        foundText(MSG_PACKAGE_NOT_OBJECT, tape, root),
        d.file,
        d.positions(),
        tape.start(root),
        tape.end(root),
      ),
    );
    return d;
  }
  // In a package.json, paths are relative to the `dropkit` key.
  const duplicates = parsed.duplicates;
  for (let i = 0; i < duplicates.length; i++) {
    const path = duplicates[i].path;
    d.errors.push(
      duplicates[i].inFile(d.file, !packageJson || path == "dropkit" ? path : path.slice(path.charCodeAt(7) == PERIOD ? 8 : 7)),
    );
  }
  d.unlisted = parsed.unlisted;
  if (!packageJson) {
    d.node = root;
    return d;
  }
  d.node = tape.member(root, "dropkit");
  d.absent = d.node < 0;
  d.inPackage = true;
  return d;
}

/** A value that a host evaluated (a .ts or .js config), inside a request: validated the same, without positions. */
export function valueDocument(tape: Tape, node: i32, name: Span, kind: DocumentKind): Document {
  const d = new Document(name, kind);
  d.tape = tape;
  d.node = node;
  return d;
}

/**
 * Reads a source object of a request: `{"source", "format", "text"}` or `{"source", "format":"value", "value"}`.
 * Returns null and adds to `problems` when the object itself is malformed.
 */
export function sourceDocument(
  req: Tape,
  src: i32,
  kind: DocumentKind,
  fallbackName: Span,
  problems: Array<string>,
  where: string,
): Document | null {
  if (req.kind(src) != JsonKind.Object) {
    problems.push(where + " must be an object with source, format and text (or value)");
    return null;
  }
  const file = req.spanMember(src, "source", fallbackName);
  const format = req.stringMember(src, "format", FORMAT_JSON);
  if (format == FORMAT_VALUE) {
    const value = req.member(src, "value");
    if (value < 0) {
      problems.push(where + '.value is missing (format "value")');
      return null;
    }
    return valueDocument(req, value, file, kind);
  }
  if (format != FORMAT_JSON && format != FORMAT_PACKAGE) {
    problems.push(where + '.format must be "json", "package.json" or "value"');
    return null;
  }
  const text = req.member(src, "text");
  if (text < 0 || req.kind(text) != JsonKind.String) {
    problems.push(where + ".text must be a string");
    return null;
  }
  return textDocument(req, text, format, file, kind);
}

/** Parses the text of string node `text` of a request as a document. */
export function textDocument(req: Tape, text: i32, format: string, file: Span, kind: DocumentKind): Document {
  const len = req.bytes(text);
  return parseDocument(valuePtr, len, format, file, kind);
}

/** What kind of document a JSON value is validated as. */
export enum DocumentKind {
  Config = 0,
  Preset = 1,
}

/** A config or preset to validate: a value of a tape, where it comes from, and the problems found in it. */
export class Document {
  /** The file, or a name such as "<input>", as bytes. */
  name: Span;
  kind: DocumentKind;
  /** The parsed text, for positions; null for a value a host evaluated (a .ts or .js config), which has none. */
  parsed: Parsed | null = null;
  tape: Tape | null = null;
  /** The value to validate, or -1 when there is none (the text did not parse, or has no `dropkit` key). */
  node: i32 = -1;
  /** A package.json without a `dropkit` key: no config at all. */
  absent: bool = false;
  /** The `dropkit` object of a package.json, whose top level is not the file's: messages say so. */
  inPackage: bool = false;
  errors: Array<Diagnostic> = new Array<Diagnostic>();
  /** Problems found past MAX_LISTED_PROBLEMS: counted, never built. */
  unlisted: i32 = 0;
  private fileText: string | null = null;
  private fileSource: Source | null = null;
  // Whether the name is plain (see Source), worked out once for the sources of all its values: -1 until then.
  private plainName: i32 = -1;

  constructor(name: Span, kind: DocumentKind) {
    this.name = name;
    this.kind = kind;
  }

  /** The file's name as a string, for messages (made on first use). */
  get file(): string {
    let text = this.fileText;
    if (text == null) this.fileText = text = spanText(this.name);
    return text;
  }

  /** Where a value at byte `start` was set: its position, or the file for a document without positions. */
  sourceAt(start: i32): Source {
    const parsed = this.parsed;
    if (parsed == null) {
      let source = this.fileSource;
      if (source == null) this.fileSource = source = new Source(this.name);
      return source;
    }
    const lines = parsed.positions();
    lines.locate(start);
    if (this.plainName < 0) this.plainName = isPlain(this.name) ? 1 : 0;
    return new Source(this.name, lines.line, lines.column, this.plainName == 1);
  }

  /** Positions in the text, made only when a problem or a source asks (null without a text). */
  positions(): Positions | null {
    const parsed = this.parsed;
    return parsed != null ? parsed.positions() : null;
  }

  /** Whether one more problem may be listed; when not, it is counted instead (asked before building it). */
  hasRoom(): bool {
    if (this.errors.length < MAX_LISTED_PROBLEMS) return true;
    this.unlisted++;
    return false;
  }
}

/** `message`, then what value `node` is: "theme must be a string, found the number 3." */
export function foundText(message: string, tape: Tape, node: i32): string {
  return format("%, found %.", message, describe(tape, node));
}

/** A short description of what a JSON value is, for "found ..." in messages. */
export function describe(tape: Tape, node: i32): string {
  const kind = tape.kind(node);
  if (kind == JsonKind.Null) return "null";
  if (kind == JsonKind.Bool) return tape.isTrue(node) ? "true" : "false";
  if (kind == JsonKind.Number) return "the number " + tape.numberText(node);
  if (kind == JsonKind.String) {
    const text = tape.text(node);
    return text.length == 0 ? "an empty string" : 'the string "' + shown(clip(text)) + '"';
  }
  if (kind == JsonKind.Array) return tape.isEmpty(node) ? "an empty array" : "an array";
  return "an object";
}
