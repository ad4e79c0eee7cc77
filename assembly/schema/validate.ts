// The strict validator: a parsed config or preset checked against the schema, into a layer or only for its problems.
//
// It reads the tape directly: keys are matched against the schema's names byte for byte, values are checked
// on their bytes, and a string is made only for a value that goes into a layer or into a message. So
// `validate`, which keeps no layer, makes no string for a valid config however large.

import { Code, Diagnostic, MAX_LISTED_PROBLEMS, SCHEMA_ERROR, sortByPosition } from "./diagnostic";
import { Items } from "../resolve/listitems";
import { Document, DocumentKind, foundText } from "./document";
import { Layer } from "../resolve/layer";
import { MSG_DETECT_EMPTY, MSG_NOT_OBJECT, MSG_NUL, MSG_PRESET_ONLY_KEY, MSG_SCHEMA_VALUE } from "./messages";
import {
  CONFIG_KEYS,
  IN_CONFIG,
  IN_PRESET,
  LEAVES,
  LeafId,
  LeafType,
  PRESET_KEYS,
  TOP,
  TOP_KEY_SPANS,
  TopEntry,
  TopKind,
  checkSpan,
  checked,
  hasNul,
  isExactlyOne,
  normalizeValue,
} from "./schema";
import { Source } from "./valuesource";
import { Span, sameSpan } from "../json/span";
import { quoted, suggest } from "./suggest";
import { JsonKind, Tape, valuePtr } from "../json/tape";
import { capitalize, format, intText, itemPath, quoteList } from "../json/strings";

/** Validates a document, recording what it sets into `layer` (none: only the problems); problems go to `doc.errors`. */
export function readDocument(doc: Document, layer: Layer | null): void {
  const tape = doc.tape!;
  const node = doc.node;
  const preset = doc.kind == DocumentKind.Preset;
  if (tape.kind(node) != JsonKind.Object) {
    error(doc, "", node, MSG_NOT_OBJECT + (preset ? " (a preset)" : ""), Code.NotObject);
    return;
  }
  const end = tape.next(node);
  for (let k = node + 1; k < end; k = tape.next(k + 1)) {
    const v = k + 1;
    const key = keyIndex(tape, k, TOP_KEY_SPANS);
    const accepted = key >= 0 && (unchecked(TOP[key]).documents & (preset ? IN_PRESET : IN_CONFIG)) != 0;
    if (!accepted) {
      const name = tape.text(k);
      if (preset && key >= 0) errorAtKey(doc, Code.NotInPreset, name, k, format('"%" %.', name, MSG_PRESET_ONLY_KEY));
      else unknownKey(doc, "", name, k, preset ? PRESET_KEYS : CONFIG_KEYS);
      continue;
    }
    const entry = unchecked(TOP[key]);
    if (entry.kind == TopKind.SchemaUrl) {
      if (tape.kind(v) != JsonKind.String) error(doc, "$schema", v, "$schema must be a string (the URL or path of the JSON Schema)");
    } else if (entry.kind == TopKind.Detect) {
      readDetect(doc, layer, v);
    } else if (entry.kind == TopKind.Group) {
      readGroup(doc, layer, entry, v);
    } else if (unchecked(LEAVES[entry.leaf]).type == LeafType.Schema) {
      if (tape.kind(v) != JsonKind.Number || !isExactlyOne(tape.ptr + <usize>tape.start(v), tape.end(v) - tape.start(v))) {
        error(doc, "schema", v, MSG_SCHEMA_VALUE, Code.SchemaVersion);
      } else if (layer != null) {
        layer.setValue(LeafId.Schema, LEAVES[LeafId.Schema].defaultValue, source(doc, v));
      }
    } else {
      readLeaf(doc, layer, entry.leaf, entry.key, v);
    }
  }
}

/** A group (`hooks`): an object whose keys are leaves. Every unknown key is reported, then the known ones are read. */
function readGroup(doc: Document, layer: Layer | null, group: TopEntry, value: i32): void {
  const tape = doc.tape!;
  const path = group.key;
  const names = group.names;
  const spans = group.nameSpans;
  if (tape.kind(value) != JsonKind.Object) {
    error(doc, path, value, path + " must be an object with the keys " + quoteList(names));
    return;
  }
  const end = tape.next(value);
  for (let k = value + 1; k < end; k = tape.next(k + 1)) {
    if (keyIndex(tape, k, spans) < 0) unknownKey(doc, path, tape.text(k), k, names);
  }
  const first = group.leaf;
  for (let k = value + 1; k < end; k = tape.next(k + 1)) {
    const index = keyIndex(tape, k, spans);
    if (index < 0) continue;
    const leaf = first + index;
    readLeaf(doc, layer, leaf, unchecked(LEAVES[leaf]).key, k + 1);
  }
}

/** A leaf's value, at the top level or in its group: `path` is the key it was written under (`exclude` for the shorthand). */
function readLeaf(doc: Document, layer: Layer | null, leaf: LeafId, path: string, value: i32): void {
  const def = unchecked(LEAVES[leaf]);
  if (def.type == LeafType.Theme) readTheme(doc, layer, value);
  else if (def.isList()) readStringList(doc, layer, leaf, path, value);
  else readScalar(doc, layer, leaf, value);
}

function readTheme(doc: Document, layer: Layer | null, value: i32): void {
  const tape = doc.tape!;
  if (tape.kind(value) != JsonKind.String) {
    error(doc, "theme", value, 'theme must be a string ("auto", "none", a theme name or a path ending in .zip)');
    return;
  }
  const text = tape.span(value);
  const problem = checkSpan(LeafId.Theme, text);
  if (problem.length > 0) {
    checkError(doc, LeafId.Theme, "theme", value, capitalize(problem));
    return;
  }
  if (layer != null) layer.setValue(LeafId.Theme, normalizeValue(LeafId.Theme, text, layer.baseDir), source(doc, value));
}

function readScalar(doc: Document, layer: Layer | null, leaf: LeafId, value: i32): void {
  const tape = doc.tape!;
  const def = unchecked(LEAVES[leaf]);
  const path = def.key;
  const kind = tape.kind(value);
  if (def.type == LeafType.Bool) {
    if (kind != JsonKind.Bool) error(doc, path, value, path + " must be true or false");
    else if (layer != null) layer.setFlag(leaf, tape.isTrue(value), source(doc, value));
    return;
  }
  if (kind != JsonKind.String) {
    error(doc, path, value, path + " must be " + (def.type == LeafType.Enum ? "one of " + quoteList(def.choices) : "a string (a path)"));
    return;
  }
  const text = tape.span(value);
  const problem = checkSpan(leaf, text);
  if (problem.length > 0) {
    checkError(doc, leaf, path, value, path + ": " + problem);
    return;
  }
  if (layer != null) layer.setValue(leaf, normalizeValue(leaf, text, layer.baseDir), source(doc, value));
}

function readStringList(doc: Document, layer: Layer | null, leaf: LeafId, path: string, value: i32): void {
  const tape = doc.tape!;
  const type = unchecked(LEAVES[leaf]).type;
  if (tape.kind(value) != JsonKind.Array) {
    const what = type == LeafType.Globs ? "module globs" : type == LeafType.Paths ? "directory paths" : "preset names or paths";
    error(doc, path, value, path + " must be an array of " + what);
    return;
  }
  const items = layer != null ? new Items(layer.kind) : null;
  let ok = true;
  const end = tape.next(value);
  for (let item = value + 1, i = 0; item < end; item = tape.next(item), i++) {
    const isString = tape.kind(item) == JsonKind.String;
    const text = isString ? tape.span(item) : 0;
    const problem = isString ? checkSpan(leaf, text) : "";
    if (!isString || problem.length > 0) {
      // The item's path is made only for a problem: most items have none.
      const at = itemPath(path, i);
      if (isString) checkError(doc, leaf, at, item, at + ": " + problem);
      else error(doc, at, item, at + " must be a string");
      ok = false;
      continue;
    }
    if (items != null) items.add(normalizeValue(leaf, text, layer!.baseDir), source(doc, item));
  }
  if (ok && items != null) layer!.addList(leaf, items, source(doc, value));
}

function readDetect(doc: Document, layer: Layer | null, value: i32): void {
  const tape = doc.tape!;
  if (tape.kind(value) != JsonKind.Array) {
    error(doc, "detect", value, 'detect must be an array of file globs (such as "*.zip")');
    return;
  }
  const globs = new Array<string>();
  const end = tape.next(value);
  for (let item = value + 1, i = 0; item < end; item = tape.next(item), i++) {
    const n = tape.kind(item) == JsonKind.String ? tape.bytes(item) : 0;
    const empty = n == 0;
    if (empty || hasNul(valuePtr, n)) {
      const at = itemPath("detect", i);
      const message = empty ? format("%: % and must be a string", at, MSG_DETECT_EMPTY) : at + ": a detect glob" + MSG_NUL;
      error(doc, at, item, message, empty ? Code.EmptyValue : Code.NulCharacter);
      continue;
    }
    if (layer != null) globs.push(tape.text(item));
  }
  if (layer != null) layer.detect = globs;
}

/** The index in `names` of key node `k`'s value, matched on its bytes, or -1. */
function keyIndex(tape: Tape, k: i32, names: Array<Span>): i32 {
  const key = tape.span(k);
  for (let i = 0, n = names.length; i < n; i++) if (sameSpan(unchecked(names[i]), key)) return i;
  return -1;
}

function unknownKey(doc: Document, parent: string, key: string, k: i32, accepted: Array<string>): void {
  // Asked first: the suggestion is the costly part.
  if (!doc.hasRoom()) return;
  const path = parent.length > 0 ? parent + "." + key : key;
  const where = parent.length > 0 ? "in " + parent : doc.inPackage ? "in package.json's dropkit object" : "at the top level";
  const shown = new Array<string>();
  for (let i = 0; i < accepted.length; i++) if (accepted[i] != "$schema") shown.push(accepted[i]);
  const suggestion = suggest(key, shown);
  const message = format('Unknown key "%" %.% Accepted keys: %.', key, where, quoted(suggestion), shown.join(", "));
  const d = push(doc, Code.UnknownKey, path, k, message);
  d.suggestion = suggestion;
  d.expected = shown;
}

/**
 * Reports a value that is wrong: `message`, then what the value is (", found the number 3."), as `code` (most such
 * problems are of the value's JSON type). Null past the problems a document lists.
 */
function error(doc: Document, path: string, node: i32, message: string, code: Code = Code.WrongType): Diagnostic | null {
  return doc.hasRoom() ? push(doc, code, path, node, foundText(message, doc.tape!, node)) : null;
}

/** Reports what the check of `leaf`'s value at node `node` found, with that check's code and did-you-mean. */
function checkError(doc: Document, leaf: LeafId, path: string, node: i32, message: string): void {
  const d = error(doc, path, node, message);
  if (d != null) checked(d, leaf);
}

/** Reports a problem at key node `node`. */
function errorAtKey(doc: Document, code: Code, path: string, node: i32, message: string): void {
  if (doc.hasRoom()) push(doc, code, path, node, message);
}

/** Adds a problem at node `node` (a key or a value), with the node's position when the document has positions. */
function push(doc: Document, code: Code, path: string, node: i32, message: string): Diagnostic {
  const tape = doc.tape!;
  const d = Diagnostic.at(SCHEMA_ERROR, code, path, message, doc.file, doc.positions(), tape.start(node), tape.end(node));
  doc.errors.push(d);
  return d;
}

/** Where value `node` was set. */
function source(doc: Document, node: i32): Source {
  return doc.sourceAt(doc.tape!.start(node));
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
    intText(d.unlisted),
    d.file,
    intText(MAX_LISTED_PROBLEMS),
  );
  d.errors.push(Diagnostic.from(SCHEMA_ERROR, Code.MoreProblems, "", message, d.file));
}
