// Config and preset sources: JSON text, the `dropkit` key of package.json, or a value a host evaluated.

import { Diagnostic, MAX_LISTED_PROBLEMS, SCHEMA_ERROR, SYNTAX_ERROR } from "./diagnostic";
import { JsonNode, KIND_OBJECT, KIND_STRING, parseJsonString, stringField } from "./json";
import { MSG_PACKAGE_NOT_OBJECT } from "./messages";
import { DocContext, Layer, readDocument } from "./schema";
import { format, foundText, intText } from "./text";

export const FORMAT_JSON = "json";
export const FORMAT_PACKAGE = "package.json";
export const FORMAT_VALUE = "value";

/** A source parsed and ready to validate: a DocContext with its node (one class, not a subclass too). */
export type Document = DocContext;

/** Parses `text` in `format` ("json" or "package.json") from `file`; problems go to the context. */
export function parseDocument(text: string, format: string, file: string, doc: i32): Document {
  const d = new DocContext();
  d.file = file;
  d.doc = doc;
  const packageJson = format == FORMAT_PACKAGE;
  // Only duplicates inside the `dropkit` key of a package.json are dropkit's business.
  const parsed = parseJsonString(text, packageJson ? "dropkit" : "");
  const syntax = parsed.syntaxError;
  if (syntax != null) {
    d.errors.push(problemDiagnostic(syntax, file, ""));
    return d;
  }
  const root = parsed.value!;
  if (packageJson && root.kind != KIND_OBJECT) {
    d.errors.push(Diagnostic.at(SYNTAX_ERROR, "", foundText(MSG_PACKAGE_NOT_OBJECT, root), file, root));
    return d;
  }
  // In a package.json, paths are relative to the `dropkit` key.
  for (let i = 0; i < parsed.duplicates.length; i++) {
    const p = parsed.duplicates[i];
    d.errors.push(problemDiagnostic(p, file, packageJson && p.path != "dropkit" ? "dropkit" : ""));
  }
  d.unlisted = parsed.unlisted;
  if (!packageJson) {
    d.node = root;
    return d;
  }
  const value = root.get("dropkit");
  if (value == null) d.absent = true;
  d.node = value;
  return d;
}

/** Wraps a value that a host evaluated (a .ts or .js config): validated the same, without positions. */
export function valueDocument(value: JsonNode, file: string, doc: i32): Document {
  const d = new DocContext();
  d.file = file;
  d.doc = doc;
  d.positions = false;
  d.node = value;
  return d;
}

/**
 * Reads a source object of a request: `{"source", "format", "text"}` or `{"source", "format":"value", "value"}`.
 * Returns null and records a problem when the object itself is malformed.
 */
export function sourceDocument(src: JsonNode, doc: i32, fallbackName: string, problems: Array<string>, where: string): Document | null {
  if (src.kind != KIND_OBJECT) {
    problems.push(where + " must be an object with source, format and text (or value)");
    return null;
  }
  const file = stringField(src, "source", fallbackName);
  const format = stringField(src, "format", FORMAT_JSON);
  if (format == FORMAT_VALUE) {
    const value = src.get("value");
    if (value == null) {
      problems.push(where + ".value is missing (format \"value\")");
      return null;
    }
    return valueDocument(value, file, doc);
  }
  if (format != FORMAT_JSON && format != FORMAT_PACKAGE) {
    problems.push(where + ".format must be \"json\", \"package.json\" or \"value\"");
    return null;
  }
  const textNode = src.get("text");
  if (textNode == null || textNode.kind != KIND_STRING) {
    problems.push(where + ".text must be a string");
    return null;
  }
  return parseDocument(textNode.text, format, file, doc);
}

/** Validates a parsed document into `layer` (a document that did not parse has no node, and sets nothing). */
export function readInto(d: Document, layer: Layer): Layer {
  const node = d.node;
  if (node != null) readDocument(node, d, layer);
  sortByPosition(d.errors);
  listUnlisted(d);
  return layer;
}

/** Ends a document's problems with how many more were found but not listed, when any were. */
export function listUnlisted(d: Document): void {
  if (d.unlisted == 0) return;
  const message = format("% more problems in % are not listed (only the first % of a file are): fix these and run again to see the rest.", intText(d.unlisted), d.file, intText(MAX_LISTED_PROBLEMS));
  d.errors.push(Diagnostic.from(SCHEMA_ERROR, "", message, d.file));
}

function problemDiagnostic(p: Diagnostic, file: string, strip: string): Diagnostic {
  let path = p.path;
  if (strip.length > 0) path = path.slice(strip.length + (path.charCodeAt(strip.length) == 0x2e ? 1 : 0));
  return Diagnostic.at(p.name, path, p.message, file, p);
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
