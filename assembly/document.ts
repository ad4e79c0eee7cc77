// Config and preset sources: JSON text, the `dropkit` key of a package.json, or a value a host evaluated.

import { Diagnostic, MAX_LISTED_PROBLEMS, SCHEMA_ERROR, SYNTAX_ERROR, sortByPosition } from "./diagnostic";
import { Layer } from "./layer";
import { MSG_PACKAGE_NOT_OBJECT } from "./messages";
import { MAX_DEPTH, parseJson } from "./parser";
import { KIND_OBJECT, KIND_STRING, Tape, valuePtr } from "./tape";
import { format, intText } from "./text";
import { Document, foundText, readDocument } from "./validate";

export const FORMAT_JSON = "json";
export const FORMAT_PACKAGE = "package.json";
export const FORMAT_VALUE = "value";

/**
 * Parses the WTF-8 text at `ptr` as `format` ("json" or "package.json") from `file`: the document is the
 * text's value, or its `dropkit` key. Problems the parser found go to the document's errors.
 */
export function parseDocument(ptr: usize, len: i32, format: string, file: string, kind: i32): Document {
  const d = new Document();
  d.file = file;
  d.kind = kind;
  const packageJson = format == FORMAT_PACKAGE;
  // Only duplicates inside the `dropkit` key of a package.json are dropkit's business.
  const parsed = parseJson(ptr, len, MAX_DEPTH, packageJson ? "dropkit" : "");
  const syntax = parsed.syntaxError;
  if (syntax != null) {
    d.errors.push(syntax.inFile(file, syntax.path));
    return d;
  }
  const tape = parsed.tape;
  const root = parsed.root;
  d.tape = tape;
  d.parsed = parsed;
  if (packageJson && tape.kind(root) != KIND_OBJECT) {
    d.errors.push(Diagnostic.at(SYNTAX_ERROR, "", foundText(MSG_PACKAGE_NOT_OBJECT, tape, root), file, d.positions(), tape.start(root), tape.end(root)));
    return d;
  }
  // In a package.json, paths are relative to the `dropkit` key.
  const duplicates = parsed.duplicates;
  for (let i = 0; i < duplicates.length; i++) {
    const path = duplicates[i].path;
    d.errors.push(duplicates[i].inFile(file, !packageJson || path == "dropkit" ? path : path.slice(path.charCodeAt(7) == 0x2e ? 8 : 7)));
  }
  d.unlisted = parsed.unlisted;
  if (!packageJson) {
    d.node = root;
    return d;
  }
  d.node = tape.member(root, "dropkit");
  d.absent = d.node < 0;
  return d;
}

/** A value that a host evaluated (a .ts or .js config), inside a request: validated the same, without positions. */
export function valueDocument(tape: Tape, node: i32, file: string, kind: i32): Document {
  const d = new Document();
  d.file = file;
  d.kind = kind;
  d.tape = tape;
  d.node = node;
  return d;
}

/**
 * Reads a source object of a request: `{"source", "format", "text"}` or `{"source", "format":"value", "value"}`.
 * Returns null and adds to `problems` when the object itself is malformed.
 */
export function sourceDocument(req: Tape, src: i32, kind: i32, fallbackName: string, problems: Array<string>, where: string): Document | null {
  if (req.kind(src) != KIND_OBJECT) {
    problems.push(where + " must be an object with source, format and text (or value)");
    return null;
  }
  const file = req.stringMember(src, "source", fallbackName);
  const format = req.stringMember(src, "format", FORMAT_JSON);
  if (format == FORMAT_VALUE) {
    const value = req.member(src, "value");
    if (value < 0) {
      problems.push(where + ".value is missing (format \"value\")");
      return null;
    }
    return valueDocument(req, value, file, kind);
  }
  if (format != FORMAT_JSON && format != FORMAT_PACKAGE) {
    problems.push(where + ".format must be \"json\", \"package.json\" or \"value\"");
    return null;
  }
  const text = req.member(src, "text");
  if (text < 0 || req.kind(text) != KIND_STRING) {
    problems.push(where + ".text must be a string");
    return null;
  }
  return textDocument(req, text, format, file, kind);
}

/** Validates a parsed document into `layer` (or, with none, only for its problems), its problems in position order. */
export function readInto(d: Document, layer: Layer | null): void {
  if (d.node >= 0) readDocument(d, layer);
  sortByPosition(d.errors);
  listUnlisted(d);
}

/** Ends a document's problems with how many more were found but not listed, when any were. */
export function listUnlisted(d: Document): void {
  if (d.unlisted == 0) return;
  const message = format(
    "% more problems in % are not listed (only the first % of a file are): fix these and run again to see the rest.",
    intText(d.unlisted), d.file, intText(MAX_LISTED_PROBLEMS),
  );
  d.errors.push(Diagnostic.from(SCHEMA_ERROR, "", message, d.file));
}

/** Parses the text of string node `text` of a request as a document. */
export function textDocument(req: Tape, text: i32, format: string, file: string, kind: i32): Document {
  const len = req.bytes(text);
  return parseDocument(valuePtr, len, format, file, kind);
}
