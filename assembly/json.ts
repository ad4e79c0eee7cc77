// JSON over UTF-8 bytes: a strict parser that keeps every value's position, and a writer.

// A problem found while parsing (a syntax error or a duplicate key) is a Diagnostic without its file,
// which the document that parsed adds: no class of its own, nor a list type and a visitor for it.
import { Diagnostic, MAX_LISTED_PROBLEMS } from "./diagnostic";
import {
  MSG_BAD_ESCAPE, MSG_BAD_NUMBER, MSG_BAD_UNICODE_ESCAPE, MSG_BAD_UTF8, MSG_CONTROL_CHAR,
  MSG_EMPTY, MSG_EXPECTED_COLON, MSG_EXPECTED_COMMA_ARRAY, MSG_EXPECTED_COMMA_OBJECT,
  MSG_EXPECTED_KEY, MSG_EXPECTED_VALUE, MSG_TOO_DEEP, MSG_TRAILING, MSG_TRAILING_COMMA,
  MSG_UNTERMINATED_STRING,
} from "./messages";
import { StringSet } from "./set";
import { asciiText, charText, digitCount, format, intText } from "./text";

export const KIND_NULL: i32 = 0;
export const KIND_BOOL: i32 = 1;
export const KIND_NUMBER: i32 = 2;
export const KIND_STRING: i32 = 3;
export const KIND_ARRAY: i32 = 4;
export const KIND_OBJECT: i32 = 5;

/** Deepest nesting of arrays and objects the parser accepts; deeper input is an error, not a trap. */
export const MAX_DEPTH: i32 = 128;
/**
 * A request may nest this much deeper than a document: room for the envelope around a `value` source
 * (`presetFiles[i].value` starts at level 4), so that a value as deep as a JSON config may be is readable.
 */
export const REQUEST_ENVELOPE_DEPTH: i32 = 3;

/**
 * A stretch of the text: 1-based line and column of its start, columns and offsets in UTF-16 code units.
 * Values, keys and problems extend it rather than holding one: no separate object for every value.
 */
export class Span {
  line: i32 = 1;
  column: i32 = 1;
  offset: i32 = 0;
  end: i32 = 0;

  /** Takes the position of `from`. */
  copySpan(from: Span): void {
    this.line = from.line;
    this.column = from.column;
    this.offset = from.offset;
    this.end = from.end;
  }
}

/**
 * An object key with its own position: a string node (the name in `text`), so that keys need no class, list
 * type or visitor of their own.
 */
export type JsonKey = JsonNode;

// Scalars have no items or keys: they all share these two empty arrays, which nothing adds to.
const NO_ITEMS = new Array<JsonNode>();
const NO_KEYS = new Array<JsonKey>();

/** A parsed value. Numbers keep their source text so that nothing is rounded on the way out. */
export class JsonNode extends Span {
  kind: i32 = KIND_NULL;
  flag: bool = false;
  text: string = "";
  /** Arrays and objects get their own lists (`makeContainer`). */
  items: Array<JsonNode> = NO_ITEMS;
  keys: Array<JsonKey> = NO_KEYS;

  /** Makes this an empty array or object, with lists of its own to add to. */
  makeContainer(kind: i32): void {
    this.kind = kind;
    this.items = new Array<JsonNode>();
    if (kind == KIND_OBJECT) this.keys = new Array<JsonKey>();
  }

  /** The member named `name` of an object, or null. */
  get(name: string): JsonNode | null {
    const keys = this.keys;
    for (let i = 0, n = keys.length; i < n; i++) {
      if (keys[i].text == name) return this.items[i];
    }
    return null;
  }

  /** `get` of the literal at `ref`: the literals transform turns `node.get("name")` into this. */
  getAt(ref: i32): JsonNode | null {
    return this.get(__literal(ref));
  }

  /** The index of member `name` of an object, or -1. */
  indexOf(name: string): i32 {
    const keys = this.keys;
    for (let i = 0, n = keys.length; i < n; i++) {
      if (keys[i].text == name) return i;
    }
    return -1;
  }
}

/** The string member `key` of an object, or `fallback` when it is missing or not a string. */
export function stringField(node: JsonNode, key: string, fallback: string): string {
  const n = node.get(key);
  return n != null && n.kind == KIND_STRING ? n.text : fallback;
}

/**
 * What a parse gives: the parser itself (no separate object, and no base class of its own); callers read
 * its `value`, `syntaxError` and `duplicates`.
 */
export type ParseResult = Parser;

/** Parses `len` bytes of UTF-8 text at `ptr`, nested at most `maxDepth` deep. The bytes must stay alive during the call. */
export function parseJson(ptr: usize, len: i32, maxDepth: i32 = MAX_DEPTH): ParseResult {
  const parser = new Parser(ptr, len);
  parser.maxDepth = maxDepth;
  return parser.run();
}

/**
 * Parses a string, encoded to UTF-8 first (by the writer's encoder: one encoder in the module, not two).
 * With a `scope`, only duplicate keys inside that top-level key are recorded (package.json's `dropkit`).
 */
export function parseJsonString(text: string, scope: string = ""): ParseResult {
  const bytes = new JsonWriter();
  bytes.utf8(text, false);
  const parser = new Parser(changetype<usize>(bytes.buf), bytes.len);
  parser.scope = scope;
  return parser.run();
}

export class Parser {
  value: JsonNode | null = null;
  /** The syntax error, if any: parsing stops at the first one. */
  syntaxError: Diagnostic | null = null;
  /** Duplicate keys: parsing goes on past them, so all of them are found (the first MAX_LISTED_PROBLEMS listed). */
  duplicates: Array<Diagnostic> = new Array<Diagnostic>();
  /** Duplicate keys found past those listed. */
  unlisted: i32 = 0;
  /** When set, the top-level key outside which duplicates are not recorded. */
  scope: string = "";
  ptr: usize;
  len: i32;
  pos: i32 = 0;
  line: i32 = 1;
  column: i32 = 1;
  offset: i32 = 0;
  depth: i32 = 0;
  maxDepth: i32 = MAX_DEPTH;
  failed: bool = false;
  // The key path of the value being parsed, kept as segments so that it costs nothing until a problem needs it.
  pathKeys: Array<string> = new Array<string>();
  pathIndex: Array<i32> = new Array<i32>();
  // A growable UTF-16 buffer for strings with escapes (no quadratic concatenation), kept in the parser
  // rather than an object of its own: one class less in the module. A StaticArray, here and
  // in the writer: a typed array would bring its view object and methods along.
  units: StaticArray<u16> = new StaticArray<u16>(64);
  unitCount: i32 = 0;

  constructor(ptr: usize, len: i32) {
    this.ptr = ptr;
    this.len = len;
  }

  run(): ParseResult {
    // A byte-order mark is not content: skip it, but count it in offsets as editors do.
    if (this.len >= 3 && this.byte(0) == 0xef && this.byte(1) == 0xbb && this.byte(2) == 0xbf) {
      this.pos = 3;
      this.offset = 1;
    }
    this.skipSpace();
    if (this.pos >= this.len) {
      this.error(MSG_EMPTY);
      return this;
    }
    const value = this.parseValue();
    if (this.failed) return this;
    this.skipSpace();
    if (this.pos < this.len) {
      this.error(MSG_TRAILING + this.describeHere());
      return this;
    }
    this.value = value;
    return this;
  }

  parseValue(): JsonNode {
    const node = new JsonNode();
    node.line = this.line;
    node.column = this.column;
    node.offset = this.offset;
    const c = this.byte(this.pos);
    if (c == 0x7b || c == 0x5b) {
      this.container(node, c == 0x7b ? KIND_OBJECT : KIND_ARRAY);
    } else if (c == 0x22) {
      node.kind = KIND_STRING;
      node.text = this.string();
    } else if (c == 0x2d || (c >= 0x30 && c <= 0x39)) {
      this.number(node);
    } else if (this.word("true")) {
      node.kind = KIND_BOOL;
      node.flag = true;
    } else if (this.word("false")) {
      node.kind = KIND_BOOL;
    } else if (this.word("null")) {
      node.kind = KIND_NULL;
    } else {
      this.error(MSG_EXPECTED_VALUE + this.describeHere());
    }
    node.end = this.offset;
    return node;
  }

  /** An array or an object, from its opening bracket: one loop over the items serves both. */
  container(node: JsonNode, kind: i32): void {
    node.makeContainer(kind);
    if (!this.enter()) return;
    const isObject = kind == KIND_OBJECT;
    const close: u8 = isObject ? 0x7d : 0x5d;
    this.advance(1);
    this.skipSpace();
    // byte() is 0 past the end, which is no bracket, quote, colon or comma: no separate end checks.
    if (this.byte(this.pos) == close) {
      this.advance(1);
      this.leave();
      return;
    }
    const keys = node.keys;
    const items = node.items;
    let seen: StringSet | null = null;
    this.pathKeys.push("");
    this.pathIndex.push(isObject ? -1 : 0);
    const top = this.pathKeys.length - 1;
    while (true) {
      this.skipSpace();
      let key: JsonKey | null = null;
      if (isObject) {
        if (this.byte(this.pos) != 0x22) {
          this.error((keys.length > 0 && this.byte(this.pos) == 0x7d ? MSG_TRAILING_COMMA : MSG_EXPECTED_KEY) + this.describeHere());
          return;
        }
        const k = new JsonNode();
        k.kind = KIND_STRING;
        k.line = this.line;
        k.column = this.column;
        k.offset = this.offset;
        k.text = this.string();
        k.end = this.offset;
        if (this.failed) return;
        unchecked(this.pathKeys[top] = k.text);
        // Duplicate keys: a linear scan for small objects; once an object grows, a set rules most keys out
        // and only a duplicate pays for the scan (the set the merge uses too).
        let first: i32 = -1;
        if (seen == null && keys.length >= 16) {
          seen = new StringSet();
          for (let i = 0; i < keys.length; i++) seen.add(keys[i].text);
        }
        if (seen == null || seen.has(k.text)) {
          for (let i = 0; i < keys.length; i++) {
            if (keys[i].text == k.text) {
              first = i;
              break;
            }
          }
        }
        if (seen != null) seen.add(k.text);
        if (first >= 0) this.duplicate(k, keys[first]);
        this.skipSpace();
        if (this.byte(this.pos) != 0x3a) {
          this.error(MSG_EXPECTED_COLON + this.describeHere());
          return;
        }
        this.advance(1);
        this.skipSpace();
        key = k;
      }
      if (this.pos >= this.len) {
        this.error(MSG_EXPECTED_VALUE + this.describeHere());
        return;
      }
      if (!isObject) {
        if (items.length > 0 && this.byte(this.pos) == 0x5d) {
          this.error(MSG_TRAILING_COMMA + this.describeHere());
          return;
        }
        unchecked(this.pathIndex[top] = items.length);
      }
      const item = this.parseValue();
      if (this.failed) return;
      if (key != null) keys.push(key);
      items.push(item);
      this.skipSpace();
      const c = this.byte(this.pos);
      if (c == 0x2c) {
        this.advance(1);
        continue;
      }
      if (c == close) {
        this.advance(1);
        break;
      }
      this.error((isObject ? MSG_EXPECTED_COMMA_OBJECT : MSG_EXPECTED_COMMA_ARRAY) + this.describeHere());
      return;
    }
    this.pathKeys.pop();
    this.pathIndex.pop();
    this.leave();
  }

  enter(): bool {
    if (++this.depth > this.maxDepth) {
      this.error(MSG_TOO_DEEP);
      return false;
    }
    return true;
  }

  leave(): void {
    this.depth--;
  }

  /** Reads a string token at `pos` (which holds the opening quote) and returns its value. */
  string(): string {
    const startLine = this.line;
    const startColumn = this.column;
    const startOffset = this.offset;
    this.advance(1);
    const begin = this.pos;
    const ptr = this.ptr;
    const len = this.len;
    // Fast path: no escapes and plain ASCII, decoded straight from the input bytes.
    let p = begin;
    while (p < len && isPlainByte(load<u8>(ptr + <usize>p))) p++;
    if (p < len && load<u8>(ptr + <usize>p) == 0x22) {
      const n = p - begin;
      this.column += n + 1;
      this.offset += n + 1;
      this.pos = p + 1;
      return asciiText(ptr + <usize>begin, n);
    }
    // No string has more code units than bytes: with room for one unit a byte left, the loop over plain
    // ASCII and two-character escapes (most of a config sent inside a request) needs no capacity checks.
    this.unitCount = 0;
    if (this.units.length < len - begin) this.units = new StaticArray<u16>(len - begin);
    while (true) {
      const units = changetype<usize>(this.units);
      let q = this.pos;
      let n = this.unitCount;
      while (q < len) {
        const b = load<u8>(ptr + <usize>q);
        let unit: i32 = b;
        if (!isPlainByte(b)) {
          unit = b == 0x5c ? escapedUnit(this.byte(q + 1)) : -1;
          if (unit < 0) break;
          q++;
        }
        store<u16>(units + (<usize>n << 1), <u16>unit);
        n++;
        q++;
      }
      this.unitCount = n;
      // Every byte passed is a column of the text (an escape is two columns wide for its one unit).
      this.advance(q - this.pos);
      if (this.pos >= len) {
        this.errorAt(MSG_UNTERMINATED_STRING, startLine, startColumn, startOffset);
        return "";
      }
      const c = <u32>load<u8>(ptr + <usize>this.pos);
      if (c == 0x22) {
        this.advance(1);
        break;
      }
      if (c < 0x20) {
        this.error(MSG_CONTROL_CHAR);
        return "";
      }
      if (c == 0x5c) {
        if (!this.escape()) return "";
        continue;
      }
      const cp = this.utf8();
      if (cp < 0) {
        this.error(MSG_BAD_UTF8);
        return "";
      }
      if (cp >= 0x10000) {
        const v = cp - 0x10000;
        this.pushUnit(<u16>(0xd800 | (v >> 10)));
        this.pushUnit(<u16>(0xdc00 | (v & 0x3ff)));
      } else {
        this.pushUnit(<u16>cp);
      }
    }
    return String.UTF16.decodeUnsafe(changetype<usize>(this.units), <usize>this.unitCount << 1);
  }

  /** Appends a code unit: `string` made room for one a byte left, and no unit comes from less than a byte. */
  pushUnit(c: u16): void {
    unchecked(this.units[this.unitCount++] = c);
  }

  /** A \uXXXX escape at `pos` (`string` decodes the two-character ones itself), or the error for a bad one. */
  escape(): bool {
    if (this.byte(this.pos + 1) == 0x75) {
      let v: u32 = 0;
      for (let i = 0; i < 4; i++) {
        const h = this.pos + 2 + i < this.len ? hexValue(this.byte(this.pos + 2 + i)) : -1;
        if (h < 0) {
          this.error(MSG_BAD_UNICODE_ESCAPE);
          return false;
        }
        v = (v << 4) | <u32>h;
      }
      this.pushUnit(<u16>v);
      this.advance(6);
      return true;
    }
    this.error(MSG_BAD_ESCAPE);
    return false;
  }

  /** Decodes one multi-byte UTF-8 sequence at `pos`, advancing past it; -1 when it is not valid UTF-8. */
  utf8(): i32 {
    const len = this.len;
    const p = this.pos;
    const b0 = <u32>this.byte(p);
    let need: i32 = 0;
    let cp: u32 = 0;
    let min: u32 = 0;
    if (b0 >= 0xc2 && b0 <= 0xdf) {
      need = 1;
      cp = b0 & 0x1f;
      min = 0x80;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      need = 2;
      cp = b0 & 0x0f;
      min = 0x800;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      need = 3;
      cp = b0 & 0x07;
      min = 0x10000;
    } else {
      return -1;
    }
    for (let i = 1; i <= need; i++) {
      if (p + i >= len) return -1;
      const b = <u32>this.byte(p + i);
      if ((b & 0xc0) != 0x80) return -1;
      cp = (cp << 6) | (b & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return -1;
    this.pos = p + need + 1;
    const units: i32 = cp >= 0x10000 ? 2 : 1;
    this.column += units;
    this.offset += units;
    return <i32>cp;
  }

  number(node: JsonNode): void {
    node.kind = KIND_NUMBER;
    // byte() is 0 past the end, which is no digit, sign, dot or letter: no separate end checks.
    const begin = this.pos;
    let p = begin;
    if (this.byte(p) == 0x2d) p++;
    if (!isDigit(this.byte(p))) return this.badNumber(p);
    p = this.byte(p) == 0x30 ? p + 1 : this.digits(p);
    if (this.byte(p) == 0x2e) {
      if (!isDigit(this.byte(++p))) return this.badNumber(p);
      p = this.digits(p);
    }
    if ((this.byte(p) | 0x20) == 0x65) {
      const sign = this.byte(++p);
      if (sign == 0x2b || sign == 0x2d) p++;
      if (!isDigit(this.byte(p))) return this.badNumber(p);
      p = this.digits(p);
    }
    // A number runs straight into a letter or digit ("01", "1x"): report it as one bad token.
    if (isWordByte(this.byte(p))) return this.badNumber(p);
    node.text = asciiText(this.ptr + <usize>begin, p - begin);
    this.advance(p - begin);
  }

  /** The position after the digits that start at `p`. */
  digits(p: i32): i32 {
    while (isDigit(this.byte(p))) p++;
    return p;
  }

  badNumber(at: i32): void {
    this.advance(at - this.pos);
    this.error(MSG_BAD_NUMBER + this.describeHere());
  }

  word(w: string): bool {
    const n = w.length;
    if (this.pos + n > this.len) return false;
    for (let i = 0; i < n; i++) {
      if (<i32>this.byte(this.pos + i) != w.charCodeAt(i)) return false;
    }
    if (this.pos + n < this.len && isWordByte(this.byte(this.pos + n))) return false;
    this.advance(n);
    return true;
  }

  skipSpace(): void {
    const ptr = this.ptr;
    const len = this.len;
    let p = this.pos;
    while (p < len) {
      const c = load<u8>(ptr + <usize>p);
      if (c == 0x20 || c == 0x09 || c == 0x0d) {
        this.column++;
        this.offset++;
      } else if (c == 0x0a) {
        this.line++;
        this.column = 1;
        this.offset++;
      } else {
        break;
      }
      p++;
    }
    this.pos = p;
  }

  /** Moves over `n` single-unit ASCII bytes on the current line. */
  advance(n: i32): void {
    this.pos += n;
    this.column += n;
    this.offset += n;
  }

  byte(i: i32): u8 {
    return i < this.len ? load<u8>(this.ptr + <usize>i) : 0;
  }

  describeHere(): string {
    if (this.pos >= this.len) return "the end of the text";
    const c = <i32>this.byte(this.pos);
    if (c >= 0x21 && c < 0x7f) return "'" + charText(c) + "'";
    if (c == 0x20) return "a space";
    if (c < 0x20) return "a control character";
    return "a non-ASCII character";
  }

  error(message: string): void {
    this.errorAt(message, this.line, this.column, this.offset);
  }

  /** Records the syntax error at a position; its span runs from `offset` to where parsing stopped. */
  errorAt(message: string, line: i32, column: i32, offset: i32): void {
    if (this.failed) return;
    this.failed = true;
    const problem = new Diagnostic();
    problem.name = "ConfigSyntaxError";
    problem.path = this.currentPath();
    problem.line = line;
    problem.column = column;
    problem.offset = offset;
    problem.end = max<i32>(offset + 1, this.offset);
    problem.message = message;
    this.syntaxError = problem;
  }

  duplicate(key: JsonKey, first: JsonKey): void {
    if (this.scope.length > 0 && (this.pathKeys.length == 0 || this.pathIndex[0] >= 0 || this.pathKeys[0] != this.scope)) return;
    if (this.duplicates.length >= MAX_LISTED_PROBLEMS) {
      this.unlisted++;
      return;
    }
    const problem = new Diagnostic();
    problem.name = "SchemaValidationError";
    problem.path = this.currentPath();
    problem.copySpan(key);
    problem.message = format(
      "Duplicate key \"%\": it is also set at line %, column %. Keep one of them.", key.text, intText(first.line), intText(first.column),
    );
    this.duplicates.push(problem);
  }

  currentPath(): string {
    const parts = new Array<string>();
    const keys = this.pathKeys;
    const idx = this.pathIndex;
    for (let i = 0, n = keys.length; i < n; i++) {
      if (idx[i] < 0) {
        if (parts.length > 0) parts.push(".");
        parts.push(keys[i]);
      } else {
        parts.push("[" + intText(idx[i]) + "]");
      }
    }
    return parts.join("");
  }
}

/** Writes JSON as UTF-8 bytes into a growing buffer; commas are placed by the writer. */
export class JsonWriter {
  buf: StaticArray<u8> = new StaticArray<u8>(1024);
  len: i32 = 0;
  // One byte per open container (`depth` of them): whether the next item is its first. Grown like `buf`;
  // Array<bool> would bring its push and pop along.
  firsts: StaticArray<bool> = new StaticArray<bool>(16);
  depth: i32 = 0;
  afterKey: bool = false;

  beginObject(): JsonWriter {
    return this.open(0x7b);
  }

  endObject(): JsonWriter {
    return this.close(0x7d);
  }

  beginArray(): JsonWriter {
    return this.open(0x5b);
  }

  endArray(): JsonWriter {
    return this.close(0x5d);
  }

  open(bracket: u8): JsonWriter {
    this.sep();
    this.byte(bracket);
    const depth = this.depth;
    if (depth == this.firsts.length) {
      const next = new StaticArray<bool>(depth << 1);
      memory.copy(changetype<usize>(next), changetype<usize>(this.firsts), <usize>depth);
      this.firsts = next;
    }
    unchecked(this.firsts[depth] = true);
    this.depth = depth + 1;
    return this;
  }

  close(bracket: u8): JsonWriter {
    this.depth--;
    this.byte(bracket);
    return this;
  }

  key(name: string): JsonWriter {
    this.sep();
    this.quoted(name);
    this.byte(0x3a);
    this.afterKey = true;
    return this;
  }

  /** A member with a string value: `key(name).string(value)` in one call. */
  field(name: string, value: string): JsonWriter {
    return this.key(name).string(value);
  }

  /** `key` of the literal at `ref`: the literals transform turns `w.key("name")` into this (one call less a use). */
  keyAt(ref: i32): JsonWriter {
    return this.key(__literal(ref));
  }

  /** `field` of the literal at `ref`, as `keyAt`. */
  fieldAt(ref: i32, value: string): JsonWriter {
    return this.key(__literal(ref)).string(value);
  }

  string(value: string): JsonWriter {
    this.sep();
    this.quoted(value);
    return this;
  }

  /** Writes a non-negative number (a response has no others: exit codes, positions, lengths). */
  int(value: i32): JsonWriter {
    this.sep();
    const n = digitCount(value);
    this.reserve(n);
    this.len += n;
    let p = changetype<usize>(this.buf) + <usize>this.len;
    do {
      store<u8>(--p, <u8>(0x30 + value % 10));
      value /= 10;
    } while (value > 0);
    return this;
  }

  bool(value: bool): JsonWriter {
    this.sep();
    this.ascii(value ? "true" : "false");
    return this;
  }

  null(): JsonWriter {
    this.sep();
    this.ascii("null");
    return this;
  }

  /** Writes a number from its JSON source text, unchanged. */
  numberText(text: string): JsonWriter {
    this.sep();
    this.ascii(text);
    return this;
  }

  stringArray(values: Array<string>): JsonWriter {
    this.beginArray();
    for (let i = 0, n = values.length; i < n; i++) this.string(values[i]);
    return this.endArray();
  }

  /** Writes a parsed value back out. */
  node(node: JsonNode): JsonWriter {
    const kind = node.kind;
    if (kind == KIND_NULL) return this.null();
    if (kind == KIND_BOOL) return this.bool(node.flag);
    if (kind == KIND_NUMBER) return this.numberText(node.text);
    if (kind == KIND_STRING) return this.string(node.text);
    if (kind == KIND_ARRAY) {
      this.beginArray();
      for (let i = 0, n = node.items.length; i < n; i++) this.node(node.items[i]);
      return this.endArray();
    }
    this.beginObject();
    for (let i = 0, n = node.keys.length; i < n; i++) {
      this.key(node.keys[i].text);
      this.node(node.items[i]);
    }
    return this.endObject();
  }

  /** The bytes written so far, as a fresh buffer. */
  toBuffer(): ArrayBuffer {
    const out = new ArrayBuffer(this.len);
    memory.copy(changetype<usize>(out), changetype<usize>(this.buf), <usize>this.len);
    return out;
  }

  sep(): void {
    if (this.afterKey) {
      this.afterKey = false;
      return;
    }
    const n = this.depth;
    if (n == 0) return;
    if (unchecked(this.firsts[n - 1])) unchecked(this.firsts[n - 1] = false);
    else this.byte(0x2c);
  }

  quoted(s: string): void {
    this.byte(0x22);
    this.utf8(s, true);
    this.byte(0x22);
  }

  /**
   * Writes `s` as UTF-8: with `escape`, as the inside of a JSON string (a lone surrogate, which has no
   * UTF-8 form, as its \uXXXX escape, as JSON.stringify does); without, every code unit as it is, a lone
   * surrogate in the three-byte form String.UTF8.encode gives it (which the parser rejects).
   */
  utf8(s: string, escape: bool): void {
    const n = s.length;
    // Room for the longest form of every code unit at once (three bytes of UTF-8, six for a \uXXXX
    // escape), so that no byte needs a check.
    this.reserve(n * (escape ? 6 : 3));
    const chars = changetype<usize>(s);
    let p = changetype<usize>(this.buf) + <usize>this.len;
    for (let i = 0; i < n; i++) {
      // Most of a response is plain ASCII: four code units at a time while all four stand for themselves.
      while (i + 4 <= n) {
        const u = load<u64>(chars + (<usize>i << 1));
        const q = u ^ 0x0022002200220022;
        const b = u ^ 0x005c005c005c005c;
        // Every unit below 0x80 and at least 0x20 (0x60 added sets its bit 7), and none a quote or a backslash.
        if ((u & 0xff80ff80ff80ff80) != 0 || (~(u + 0x0060006000600060) & 0x0080008000800080) != 0) break;
        if ((((q - 0x0001000100010001) & ~q) | ((b - 0x0001000100010001) & ~b)) & 0x8000800080008000) break;
        store<u32>(p, <u32>((u & 0xff) | ((u >> 8) & 0xff00) | ((u >> 16) & 0xff0000) | ((u >> 24) & 0xff000000)));
        p += 4;
        i += 4;
      }
      if (i >= n) break;
      const c = <u32>load<u16>(chars + (<usize>i << 1));
      // Most characters stand for themselves: one test for them before the escapes.
      if (isPlainByte(c)) {
        store<u8>(p++, <u8>c);
        continue;
      }
      if (c < 0x80) {
        const k = escape ? escapeLetter(c) : -1;
        if (k >= 0) {
          store<u16>(p, <u16>(0x5c | (k << 8)));
          p += 2;
        } else if (escape && c < 0x20) {
          p = hexEscape(p, c);
        } else {
          store<u8>(p++, <u8>c);
        }
        continue;
      }
      if (c < 0x800) {
        store<u8>(p++, <u8>(0xc0 | (c >> 6)));
        store<u8>(p++, <u8>(0x80 | (c & 0x3f)));
        continue;
      }
      if (c >= 0xd800 && c <= 0xdfff) {
        const d = i + 1 < n ? <u32>load<u16>(chars + (<usize>(i + 1) << 1)) : 0;
        if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
          const cp = 0x10000 + (((c - 0xd800) << 10) | (d - 0xdc00));
          store<u8>(p++, <u8>(0xf0 | (cp >> 18)));
          store<u8>(p++, <u8>(0x80 | ((cp >> 12) & 0x3f)));
          store<u8>(p++, <u8>(0x80 | ((cp >> 6) & 0x3f)));
          store<u8>(p++, <u8>(0x80 | (cp & 0x3f)));
          i++;
          continue;
        }
        if (escape) {
          p = hexEscape(p, c);
          continue;
        }
      }
      store<u8>(p++, <u8>(0xe0 | (c >> 12)));
      store<u8>(p++, <u8>(0x80 | ((c >> 6) & 0x3f)));
      store<u8>(p++, <u8>(0x80 | (c & 0x3f)));
    }
    this.len = <i32>(p - changetype<usize>(this.buf));
  }

  ascii(s: string): void {
    this.utf8(s, false);
  }

  byte(b: u8): void {
    if (this.len == this.buf.length) this.grow();
    unchecked(this.buf[this.len++] = b);
  }

  grow(): void {
    this.reserve(1);
  }

  /** Makes room for `extra` more bytes: at least double the buffer, so that growing stays linear. */
  reserve(extra: i32): void {
    const need = this.len + extra;
    if (need <= this.buf.length) return;
    const next = new StaticArray<u8>(max<i32>(need, this.buf.length << 1));
    memory.copy(changetype<usize>(next), changetype<usize>(this.buf), <usize>this.len);
    this.buf = next;
  }
}

// JSON's two-character escapes, as comparisons rather than a search in a literal: these run once per
// escaped character, and a config arrives inside a request with every quote and newline escaped.

/** The code unit a two-character escape stands for (`n` for \n), or -1 for `u` and for what is no escape. */
function escapedUnit(e: u8): i32 {
  if (e == 0x22 || e == 0x5c || e == 0x2f) return e;
  if (e == 0x6e) return 0x0a;
  if (e == 0x74) return 0x09;
  if (e == 0x72) return 0x0d;
  if (e == 0x62) return 0x08;
  if (e == 0x66) return 0x0c;
  return -1;
}

/** The letter that escapes `c` in a JSON string (\" \\ \b \f \n \r \t; not \/, which JSON.stringify does not write), or -1. */
function escapeLetter(c: u32): i32 {
  if (c == 0x22 || c == 0x5c) return c;
  if (c == 0x0a) return 0x6e;
  if (c == 0x09) return 0x74;
  if (c == 0x0d) return 0x72;
  if (c == 0x08) return 0x62;
  if (c == 0x0c) return 0x66;
  return -1;
}

/** Writes the \uXXXX escape of `c` at `p`; returns where it stopped. */
function hexEscape(p: usize, c: u32): usize {
  store<u16>(p, 0x755c);
  p += 2;
  for (let shift = 12; shift >= 0; shift -= 4) {
    const h = (c >> shift) & 0xf;
    store<u8>(p++, <u8>(h < 10 ? 0x30 + h : 0x61 + h - 10));
  }
  return p;
}

/** A byte that stands for itself in a string: ASCII, not a quote, backslash or control character. */
function isPlainByte(c: u32): bool {
  return c >= 0x20 && c < 0x80 && c != 0x22 && c != 0x5c;
}

function isDigit(c: u8): bool {
  return c >= 0x30 && c <= 0x39;
}

function isWordByte(c: u8): bool {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c == 0x2e || c == 0x5f;
}

function hexValue(c: u8): i32 {
  if (c >= 0x30 && c <= 0x39) return <i32>c - 0x30;
  if (c >= 0x41 && c <= 0x46) return <i32>c - 0x41 + 10;
  if (c >= 0x61 && c <= 0x66) return <i32>c - 0x61 + 10;
  return -1;
}

/** Whether a JSON number's text denotes exactly 1 (as "1", "1.0", "10e-1" and "0.1e1" do), without rounding. */
export function isExactlyOne(text: string): bool {
  const n = text.length;
  // The mantissa's digits (without the dot) must be zeros and one 1: the number is then 10 to the power
  // (integer digits - position of the 1 - 1 + exponent), which is 1 when that is 0.
  let digits = 0;
  let integerDigits = 0;
  let one = -1;
  let fraction = false;
  let i = 0;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c == 0x2e) {
      fraction = true;
      continue;
    }
    if (c == 0x65 || c == 0x45) break;
    if (c != 0x30) {
      // A sign, a digit other than 0 and 1, or a second 1.
      if (c != 0x31 || one >= 0) return false;
      one = digits;
    }
    digits++;
    if (!fraction) integerDigits++;
  }
  if (one < 0) return false;
  let exp: i32 = 0;
  if (i < n) {
    i++;
    let sign: i32 = 1;
    if (text.charCodeAt(i) == 0x2b) i++;
    else if (text.charCodeAt(i) == 0x2d) {
      sign = -1;
      i++;
    }
    let e: i32 = 0;
    for (; i < n; i++) {
      e = e * 10 + (text.charCodeAt(i) - 0x30);
      if (e > 100000) return false;
    }
    exp = sign * e;
  }
  return integerDigits - one - 1 + exp == 0;
}
