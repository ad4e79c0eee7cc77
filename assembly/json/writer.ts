// The JSON writer: UTF-8 bytes into one growing buffer, commas placed for the caller, parsed strings copied through,
// and a parsed value written back out (the answers of `validate` and `parse`, and the bundled presets).
//
// Strings are escaped as JSON.stringify escapes them (escape.ts). A parsed string without escapes is
// already in that form: it is copied as it is, bytes and quotes.

import { CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, DIGIT_0, OPEN_BRACE, OPEN_BRACKET, QUOTE, QUOTE_COLON } from "./chars";
import { writeEscaped, writeEscapedBytes, writeUnescaped } from "./escape";
import { Span, copyBytes, spanLen, spanOf, spanPtr } from "./span";
import { JsonKind, Tape } from "./tape";
import { digitCount } from "./strings";

export class JsonWriter {
  buf: usize;
  cap: i32;
  len: i32 = 0;
  // Whether the next item needs a comma before it: after a value, or after a closing bracket (which ends a value
  // too); not after an opening bracket or a key. So no stack of open containers is needed.
  comma: bool = false;

  /** A writer with room for `capacity` bytes before it grows (an answer that echoes a text: about its length). */
  constructor(capacity: i32 = 1024) {
    this.cap = max(capacity, 64);
    this.buf = __alloc(<usize>this.cap);
  }

  beginObject(): JsonWriter {
    return this.open(OPEN_BRACE);
  }

  endObject(): JsonWriter {
    return this.close(CLOSE_BRACE);
  }

  beginArray(): JsonWriter {
    return this.open(OPEN_BRACKET);
  }

  endArray(): JsonWriter {
    return this.close(CLOSE_BRACKET);
  }

  /** A member's key. `name` is ASCII with nothing to escape: every key the core writes is one of its own names. */
  key(name: string): JsonWriter {
    const n = name.length;
    this.reserve(n + 4);
    this.sep();
    const p = this.buf + <usize>this.len;
    store<u8>(p, QUOTE);
    narrow(name, p + 1);
    store<u16>(p + 1 + <usize>n, QUOTE_COLON);
    this.len += n + 3;
    this.comma = false;
    return this;
  }

  /**
   * Keys written often, pre-encoded by `keyBytes` (`"layer":`), or members ending in a key (`"layer":"cli","source":`):
   * as `key` does, the next value written is that key's.
   */
  keys(bytes: Span): JsonWriter {
    this.reserve(spanLen(bytes) + 1);
    this.sep();
    this.copy(spanPtr(bytes), spanLen(bytes));
    this.comma = false;
    return this;
  }

  /** A member with a string value. */
  field(name: string, value: string): JsonWriter {
    return this.key(name).string(value);
  }

  string(value: string): JsonWriter {
    this.openString();
    this.part(value);
    return this.closeString();
  }

  /** A member whose key is pre-encoded (see `keys`) and whose value is a string, from its WTF-8 bytes. */
  member(key: Span, value: Span): JsonWriter {
    const k = spanLen(key);
    const n = spanLen(value);
    this.reserve(k + n * 6 + 11);
    this.sep();
    this.copy(spanPtr(key), k);
    this.put(QUOTE);
    this.len = <i32>(writeEscapedBytes(spanPtr(value), n, this.buf + <usize>this.len) - this.buf);
    this.put(QUOTE);
    this.comma = true;
    return this;
  }

  /** A string value from its WTF-8 bytes. */
  spanString(value: Span): JsonWriter {
    const n = spanLen(value);
    this.reserve(n * 6 + 10);
    this.sep();
    this.put(QUOTE);
    this.len = <i32>(writeEscapedBytes(spanPtr(value), n, this.buf + <usize>this.len) - this.buf);
    this.put(QUOTE);
    this.comma = true;
    return this;
  }

  /** Strings of `spans`, as an array. */
  spanArray(values: Array<Span>): JsonWriter {
    this.beginArray();
    for (let i = 0, n = values.length; i < n; i++) this.spanString(unchecked(values[i]));
    return this.endArray();
  }

  // A string written in parts (a message with values in it): openString, any parts, closeString. Each part is
  // escaped as it is written, which is what escaping the whole string would give.

  openString(): JsonWriter {
    this.reserve(2);
    this.sep();
    this.put(QUOTE);
    return this;
  }

  closeString(): JsonWriter {
    this.reserve(1);
    this.put(QUOTE);
    this.comma = true;
    return this;
  }

  /** A part of a string, from a string. */
  part(s: string): JsonWriter {
    this.reserve(s.length * 6);
    this.len = <i32>(writeEscaped(s, this.buf + <usize>this.len) - this.buf);
    return this;
  }

  /** A part of a string that is already escaped (a fixed text, from `escapedSpanOf`). */
  escapedPart(bytes: Span): JsonWriter {
    this.reserve(spanLen(bytes));
    this.copy(spanPtr(bytes), spanLen(bytes));
    return this;
  }

  /** A part of a string, from WTF-8 bytes. */
  spanPart(s: Span): JsonWriter {
    const n = spanLen(s);
    this.reserve(n * 6 + 8);
    this.len = <i32>(writeEscapedBytes(spanPtr(s), n, this.buf + <usize>this.len) - this.buf);
    return this;
  }

  /** A part of a string: `:line:column`, the end of a source in a file. */
  positionPart(line: i32, column: i32): JsonWriter {
    this.reserve(22);
    this.put(COLON);
    this.digits(line);
    this.put(COLON);
    this.digits(column);
    return this;
  }

  /** Writes a non-negative number (an answer has no others: exit codes, positions, lengths). */
  int(value: i32): JsonWriter {
    this.reserve(11);
    this.sep();
    this.digits(value);
    this.comma = true;
    return this;
  }

  bool(value: bool): JsonWriter {
    return this.numberText(value ? "true" : "false");
  }

  null(): JsonWriter {
    return this.numberText("null");
  }

  /** Writes a number (or another bare word) from its JSON text, unchanged. */
  numberText(text: string): JsonWriter {
    const n = text.length;
    this.reserve(n + 1);
    this.sep();
    narrow(text, this.buf + <usize>this.len);
    this.len += n;
    this.comma = true;
    return this;
  }

  stringArray(values: Array<string>): JsonWriter {
    this.beginArray();
    for (let i = 0, n = values.length; i < n; i++) this.string(unchecked(values[i]));
    return this.endArray();
  }

  /**
   * A string of a parsed text, as a value or (`key`) a member's key: its own bytes when it has no escape, otherwise
   * its value re-escaped (an escape never grows when written again: at most as many bytes as the string's text).
   */
  parsedString(tape: Tape, i: i32, key: bool = false): JsonWriter {
    const start = tape.ptr + <usize>tape.start(i);
    const n = tape.end(i) - tape.start(i);
    this.reserve(n + 2);
    this.sep();
    if (!tape.isEscaped(i)) this.copy(start, n);
    else this.len = <i32>(writeUnescaped(start, n, this.buf + <usize>this.len) - this.buf);
    if (key) this.put(COLON);
    this.comma = !key;
    return this;
  }

  /** A number of a parsed text, exactly as written. */
  parsedNumber(tape: Tape, i: i32): JsonWriter {
    const n = tape.end(i) - tape.start(i);
    this.reserve(n + 1);
    this.sep();
    this.copy(tape.ptr + <usize>tape.start(i), n);
    this.comma = true;
    return this;
  }

  /** The bytes written so far, in place (they live as long as the call's heap). */
  ptr(): usize {
    return this.buf;
  }

  // --- bytes ---

  private open(bracket: u8): JsonWriter {
    this.reserve(2);
    this.sep();
    this.put(bracket);
    this.comma = false;
    return this;
  }

  private close(bracket: u8): JsonWriter {
    this.reserve(1);
    this.put(bracket);
    this.comma = true;
    return this;
  }

  /** A comma when the item to write follows another (room for it reserved by the caller). */
  @inline private sep(): void {
    if (this.comma) this.put(COMMA);
  }

  /** Copies `n` bytes (room reserved by the caller). */
  @inline private copy(from: usize, n: i32): void {
    const to = this.buf + <usize>this.len;
    // Most keys and fixed texts are 8 to 16 bytes: two words that overlap, without a call.
    if (n >= 8 && n <= 16) {
      store<u64>(to, load<u64>(from));
      store<u64>(to + <usize>n - 8, load<u64>(from + <usize>n - 8));
    } else {
      copyBytes(to, from, n);
    }
    this.len += n;
  }

  /** Writes a non-negative number's digits (room for ten reserved by the caller); lines and columns mostly have one or two. */
  private digits(value: i32): void {
    if (value < 100) {
      if (value >= 10) this.put(<u8>(DIGIT_0 + value / 10));
      this.put(<u8>(DIGIT_0 + (value % 10)));
      return;
    }
    const n = digitCount(value);
    this.len += n;
    let p = this.buf + <usize>this.len;
    do {
      store<u8>(--p, <u8>(DIGIT_0 + (value % 10)));
      value /= 10;
    } while (value > 0);
  }

  /** Writes one byte (room reserved by the caller). */
  @inline private put(b: u8): void {
    store<u8>(this.buf + <usize>this.len, b);
    this.len++;
  }

  /** Makes room for `extra` more bytes: for an answer about to echo a text of known length, at once. */
  @inline reserve(extra: i32): void {
    if (this.len + extra > this.cap) this.grow(extra);
  }

  /** At least doubles the buffer, so that growing stays linear. */
  private grow(extra: i32): void {
    this.cap = max<i32>(this.len + extra, this.cap << 1);
    this.buf = __realloc(this.buf, <usize>this.cap);
  }
}

/** `"name":` as bytes, for `JsonWriter.keys`: made at start for the keys an answer writes many times. */
export function keyBytes(name: string): Span {
  return spanOf('"' + name + '":');
}

/** Writes the ASCII string `s` at `p`, a byte per code unit: four at a time, then one by one. */
function narrow(s: string, p: usize): void {
  const n = s.length;
  const chars = changetype<usize>(s);
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const u = load<u64>(chars + ((<usize>i) << 1));
    store<u32>(p + <usize>i, <u32>((u & 0xff) | ((u >> 8) & 0xff00) | ((u >> 16) & 0xff0000) | ((u >> 24) & 0xff000000)));
  }
  for (; i < n; i++) store<u8>(p + <usize>i, <u8>load<u16>(chars + ((<usize>i) << 1)));
}

/**
 * Writes value `i` of `tape` as parsed (whitespace dropped, strings re-escaped, numbers as written); returns the index
 * after it.
 */
export function writeValue(w: JsonWriter, tape: Tape, i: i32): i32 {
  const kind = tape.kind(i);
  if (kind == JsonKind.String) {
    w.parsedString(tape, i);
    return i + 1;
  }
  if (kind == JsonKind.Number) {
    w.parsedNumber(tape, i);
    return i + 1;
  }
  if (kind == JsonKind.Bool) {
    w.bool(tape.isTrue(i));
    return i + 1;
  }
  if (kind == JsonKind.Null) {
    w.null();
    return i + 1;
  }
  const end = tape.next(i);
  if (kind == JsonKind.Array) {
    w.beginArray();
    for (let j = i + 1; j < end; ) j = writeValue(w, tape, j);
    w.endArray();
    return end;
  }
  w.beginObject();
  for (let j = i + 1; j < end; ) {
    w.parsedString(tape, j, true);
    j = writeValue(w, tape, j + 1);
  }
  w.endObject();
  return end;
}
