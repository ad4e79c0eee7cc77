// The strict validator: a parsed config or preset checked against the schema, into a layer or only for its problems.
//
// It reads the tape directly: keys are matched against the schema's names byte for byte, values are checked
// on their bytes, and a string is made only for a value that goes into a layer or into a message. So
// `validate`, which keeps no layer, makes no string for a valid config however large.

import { Diagnostic, MAX_LISTED_PROBLEMS, SCHEMA_ERROR } from "./diagnostic";
import { Layer } from "./layer";
import { MSG_DETECT_EMPTY, MSG_NOT_OBJECT, MSG_NUL, MSG_PRESET_ONLY_KEY, MSG_SCHEMA_VALUE } from "./messages";
import { Parsed } from "./parser";
import { Positions } from "./positions";
import {
  CONFIG_KEYS, GROUP_KEYS, KEY_DETECT, KEY_EXCLUDE, KEY_PRESETS, KEY_SCHEMA, KEY_SCHEMA_URL, KEY_SEARCH_PATH, KEY_THEME,
  LEAF_EXCLUDE, LEAF_PRESETS, LEAF_SCHEMA, LEAF_SEARCH_PATH, LEAF_THEME, LEAVES, PRESET_KEYS, TOP_KEYS, TYPE_BOOL,
  TYPE_ENUM, TYPE_GLOBS, TYPE_PATHS, checkBytes, groupFirstLeaf, groupOf, hasNul, isExactlyOne, normalizeValue, sameAscii,
} from "./schema";
import { didYouMean } from "./suggest";
import { KIND_ARRAY, KIND_BOOL, KIND_NULL, KIND_NUMBER, KIND_OBJECT, KIND_STRING, Tape, valuePtr } from "./tape";
import { capitalize, clip, format, itemPath, positionText, quoteList } from "./text";

/** What kind of document a JSON value is validated as. */
export const DOC_CONFIG: i32 = 0;
export const DOC_PRESET: i32 = 1;

/** A config or preset to validate: a value of a tape, where it comes from, and the problems found in it. */
export class Document {
  /** The file, or a name such as "<input>". */
  file: string = "<input>";
  kind: i32 = DOC_CONFIG;
  /** The parsed text, for positions; null for a value a host evaluated (a .ts or .js config), which has none. */
  parsed: Parsed | null = null;
  tape: Tape | null = null;
  /** The value to validate, or -1 when there is none (the text did not parse, or has no `dropkit` key). */
  node: i32 = -1;
  /** A package.json without a `dropkit` key: no config at all. */
  absent: bool = false;
  errors: Array<Diagnostic> = new Array<Diagnostic>();
  /** Problems found past MAX_LISTED_PROBLEMS: counted, never built. */
  unlisted: i32 = 0;

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

/** Validates a document, recording what it sets into `layer` (none: only the problems); problems go to `doc.errors`. */
export function readDocument(doc: Document, layer: Layer | null): void {
  const tape = doc.tape!;
  const node = doc.node;
  const preset = doc.kind == DOC_PRESET;
  if (tape.kind(node) != KIND_OBJECT) {
    error(doc, "", node, MSG_NOT_OBJECT + (preset ? " (a preset)" : ""));
    return;
  }
  const end = tape.next(node);
  for (let k = node + 1; k < end; k = tape.next(k + 1)) {
    const v = k + 1;
    const key = keyIndex(tape, k, TOP_KEYS);
    const accepted = key >= 0 && (preset ? isPresetKey(key) : key != KEY_DETECT);
    if (!accepted) {
      const name = tape.text(k);
      if (preset && key >= 0) errorAtKey(doc, name, k, format("\"%\" %.", name, MSG_PRESET_ONLY_KEY));
      else unknownKey(doc, "", name, k, preset ? PRESET_KEYS : CONFIG_KEYS);
      continue;
    }
    if (key == KEY_SCHEMA_URL) {
      if (tape.kind(v) != KIND_STRING) error(doc, "$schema", v, "$schema must be a string (the URL or path of the JSON Schema)");
    } else if (key == KEY_SCHEMA) {
      if (tape.kind(v) != KIND_NUMBER || !isExactlyOne(tape.ptr + <usize>tape.start(v), tape.end(v) - tape.start(v))) {
        error(doc, "schema", v, MSG_SCHEMA_VALUE);
      } else if (layer != null) {
        layer.setText(LEAF_SCHEMA, "1", source(doc, v));
      }
    } else if (key == KEY_THEME) {
      readTheme(doc, layer, v);
    } else if (key == KEY_EXCLUDE) {
      readStringList(doc, layer, LEAF_EXCLUDE, "exclude", v);
    } else if (key == KEY_PRESETS) {
      readStringList(doc, layer, LEAF_PRESETS, "presets", v);
    } else if (key == KEY_SEARCH_PATH) {
      readStringList(doc, layer, LEAF_SEARCH_PATH, "presetsSearchPath", v);
    } else if (key == KEY_DETECT) {
      readDetect(doc, layer, v);
    } else {
      readGroup(doc, layer, key, v);
    }
  }
}

/** Only what a preset may hold: theme, modules, exclude, hooks, cache, log and detect. */
function isPresetKey(key: i32): bool {
  return key != KEY_SCHEMA_URL && key != KEY_SCHEMA && key != KEY_PRESETS && key != KEY_SEARCH_PATH;
}

/** modules, hooks, cache and log: objects whose keys are leaves. Every unknown key is reported, then the known ones are read. */
function readGroup(doc: Document, layer: Layer | null, key: i32, value: i32): void {
  const tape = doc.tape!;
  const path = TOP_KEYS[key];
  const group = groupOf(key);
  const names = GROUP_KEYS[group];
  if (tape.kind(value) != KIND_OBJECT) {
    error(doc, path, value, path + " must be an object with the keys " + quoteList(names));
    return;
  }
  const end = tape.next(value);
  for (let k = value + 1; k < end; k = tape.next(k + 1)) {
    if (keyIndex(tape, k, names) < 0) unknownKey(doc, path, tape.text(k), k, names);
  }
  const first = groupFirstLeaf(group);
  for (let k = value + 1; k < end; k = tape.next(k + 1)) {
    const index = keyIndex(tape, k, names);
    if (index < 0) continue;
    const leaf = first + index;
    if (LEAVES[leaf].type == TYPE_GLOBS) readStringList(doc, layer, leaf, LEAVES[leaf].key, k + 1);
    else readScalar(doc, layer, leaf, k + 1);
  }
}

function readTheme(doc: Document, layer: Layer | null, value: i32): void {
  const tape = doc.tape!;
  if (tape.kind(value) != KIND_STRING) {
    error(doc, "theme", value, "theme must be a string (\"auto\", \"none\", a theme name or a path ending in .zip)");
    return;
  }
  const problem = checkNode(tape, LEAF_THEME, value);
  if (problem.length > 0) {
    error(doc, "theme", value, capitalize(problem));
    return;
  }
  if (layer != null) layer.setText(LEAF_THEME, normalizeValue(LEAF_THEME, tape.text(value), layer.baseDir), source(doc, value));
}

function readScalar(doc: Document, layer: Layer | null, leaf: i32, value: i32): void {
  const tape = doc.tape!;
  const def = LEAVES[leaf];
  const path = def.key;
  const kind = tape.kind(value);
  if (def.type == TYPE_BOOL) {
    if (kind != KIND_BOOL) error(doc, path, value, path + " must be true or false");
    else if (layer != null) layer.setFlag(leaf, tape.isTrue(value), source(doc, value));
    return;
  }
  if (kind != KIND_STRING) {
    error(doc, path, value, path + " must be " + (def.type == TYPE_ENUM ? "one of " + quoteList(def.choices) : "a string (a path)"));
    return;
  }
  const problem = checkNode(tape, leaf, value);
  if (problem.length > 0) {
    error(doc, path, value, path + ": " + problem);
    return;
  }
  if (layer != null) layer.setText(leaf, normalizeValue(leaf, tape.text(value), layer.baseDir), source(doc, value));
}

function readStringList(doc: Document, layer: Layer | null, leaf: i32, path: string, value: i32): void {
  const tape = doc.tape!;
  const type = LEAVES[leaf].type;
  if (tape.kind(value) != KIND_ARRAY) {
    const what = type == TYPE_GLOBS ? "module globs" : type == TYPE_PATHS ? "directory paths" : "preset names or paths";
    error(doc, path, value, path + " must be an array of " + what);
    return;
  }
  const keep = layer != null;
  const values = keep ? new Array<string>() : null;
  const sources = keep ? new Array<string>() : null;
  let ok = true;
  const end = tape.next(value);
  for (let item = value + 1, i = 0; item < end; item = tape.next(item), i++) {
    const isString = tape.kind(item) == KIND_STRING;
    const problem = isString ? checkNode(tape, leaf, item) : "";
    if (!isString || problem.length > 0) {
      // The item's path is made only for a problem: most items have none.
      const at = itemPath(path, i);
      error(doc, at, item, at + (isString ? ": " + problem : " must be a string"));
      ok = false;
      continue;
    }
    if (keep) {
      values!.push(normalizeValue(leaf, tape.text(item), layer!.baseDir));
      sources!.push(source(doc, item));
    }
  }
  if (ok && keep) layer!.addList(leaf, values!, sources!, source(doc, value));
}

function readDetect(doc: Document, layer: Layer | null, value: i32): void {
  const tape = doc.tape!;
  if (tape.kind(value) != KIND_ARRAY) {
    error(doc, "detect", value, "detect must be an array of file globs (such as \"*.zip\")");
    return;
  }
  const globs = new Array<string>();
  const end = tape.next(value);
  for (let item = value + 1, i = 0; item < end; item = tape.next(item), i++) {
    const n = tape.kind(item) == KIND_STRING ? tape.bytes(item) : 0;
    const empty = n == 0;
    if (empty || hasNul(valuePtr, n)) {
      const at = itemPath("detect", i);
      error(doc, at, item, empty ? format("%: % and must be a string", at, MSG_DETECT_EMPTY) : at + ": a detect glob" + MSG_NUL);
      continue;
    }
    if (layer != null) globs.push(tape.text(item));
  }
  if (layer != null) layer.detect = globs;
}

/** What is wrong with string node `node` as a value of `leaf`, or "". */
function checkNode(tape: Tape, leaf: i32, node: i32): string {
  const n = tape.bytes(node);
  return checkBytes(leaf, valuePtr, n);
}

/** The index in `names` of key node `k`'s value, matched on its bytes, or -1. */
function keyIndex(tape: Tape, k: i32, names: Array<string>): i32 {
  const n = tape.bytes(k);
  const p = valuePtr;
  for (let i = 0; i < names.length; i++) if (sameAscii(p, n, unchecked(names[i]))) return i;
  return -1;
}

function unknownKey(doc: Document, parent: string, key: string, k: i32, accepted: Array<string>): void {
  // Asked first: the suggestion is the costly part.
  if (!doc.hasRoom()) return;
  const path = parent.length > 0 ? parent + "." + key : key;
  const where = parent.length > 0 ? "in " + parent : "at the top level";
  const shown = new Array<string>();
  for (let i = 0; i < accepted.length; i++) if (accepted[i] != "$schema") shown.push(accepted[i]);
  push(doc, path, k, format("Unknown key \"%\" %.% Accepted keys: %.", key, where, didYouMean(key, shown), shown.join(", ")));
}

/** Reports a value that is wrong: `message`, then what the value is (", found the number 3."). */
function error(doc: Document, path: string, node: i32, message: string): void {
  if (doc.hasRoom()) push(doc, path, node, foundText(message, doc.tape!, node));
}

/** `message`, then what value `node` is: "theme must be a string, found the number 3." */
export function foundText(message: string, tape: Tape, node: i32): string {
  return format("%, found %.", message, describe(tape, node));
}

/** Reports a problem at key node `node`. */
function errorAtKey(doc: Document, path: string, node: i32, message: string): void {
  if (doc.hasRoom()) push(doc, path, node, message);
}

/** Adds a problem at node `node` (a key or a value), with the node's position when the document has positions. */
function push(doc: Document, path: string, node: i32, message: string): void {
  const tape = doc.tape!;
  doc.errors.push(Diagnostic.at(SCHEMA_ERROR, path, message, doc.file, doc.positions(), tape.start(node), tape.end(node)));
}

/** Where a value was set: `file:line:column`, or the file for a document without positions. */
function source(doc: Document, node: i32): string {
  const lines = doc.positions();
  if (lines == null) return doc.file;
  lines.locate(doc.tape!.start(node));
  return positionText(doc.file, lines.line, lines.column);
}

/** A short description of what a JSON value is, for "found ..." in messages. */
export function describe(tape: Tape, node: i32): string {
  const kind = tape.kind(node);
  if (kind == KIND_NULL) return "null";
  if (kind == KIND_BOOL) return tape.isTrue(node) ? "true" : "false";
  if (kind == KIND_NUMBER) return "the number " + tape.numberText(node);
  if (kind == KIND_STRING) {
    const text = tape.text(node);
    return text.length == 0 ? "an empty string" : "the string \"" + clip(text) + "\"";
  }
  if (kind == KIND_ARRAY) return tape.isEmpty(node) ? "an empty array" : "an array";
  return "an object";
}
