// The JSON writer: UTF-8 bytes into one growing buffer, commas placed for the caller, parsed values copied through.
//
// Strings are escaped as JSON.stringify escapes them (escape.ts). A parsed string without escapes is
// already in that form: it is copied as it is, bytes and quotes.

import { writeEscaped, writeUnescaped } from "./escape";
import { KIND_ARRAY, KIND_BOOL, KIND_NULL, KIND_NUMBER, KIND_STRING, Tape } from "./tape";
import { digitCount } from "./text";

export class JsonWriter {
  buf: usize;
  cap: i32;
  len: i32 = 0;
  // One flag per open container (`depth` of them): whether the next item is its first.
  firsts: StaticArray<bool> = new StaticArray<bool>(16);
  depth: i32 = 0;
  afterKey: bool = false;

  /** A writer with room for `capacity` bytes before it grows (an answer that echoes a text: about its length). */
  constructor(capacity: i32 = 1024) {
    this.cap = max(capacity, 64);
    this.buf = __alloc(<usize>this.cap);
  }

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

  /** A member's key. `name` is ASCII with nothing to escape: every key the core writes is one of its own names. */
  @noinline key(name: string): JsonWriter {
    this.sep();
    const n = name.length;
    this.reserve(n + 3);
    const p = this.buf + <usize>this.len;
    store<u8>(p, 0x22);
    narrow(name, p + 1);
    store<u16>(p + 1 + <usize>n, 0x3a22);
    this.len += n + 3;
    this.afterKey = true;
    return this;
  }

  /** A member with a string value. */
  field(name: string, value: string): JsonWriter {
    return this.key(name).string(value);
  }

  string(value: string): JsonWriter {
    this.sep();
    this.quoted(value);
    return this;
  }

  /** Writes a non-negative number (an answer has no others: exit codes, positions, lengths). */
  int(value: i32): JsonWriter {
    this.sep();
    const n = digitCount(value);
    this.reserve(n);
    this.len += n;
    let p = this.buf + <usize>this.len;
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

  /** Writes a number from its JSON text, unchanged. */
  numberText(text: string): JsonWriter {
    this.sep();
    this.ascii(text);
    return this;
  }

  stringArray(values: Array<string>): JsonWriter {
    this.beginArray();
    for (let i = 0, n = values.length; i < n; i++) this.string(unchecked(values[i]));
    return this.endArray();
  }

  /** Writes parsed value `i` of `tape` back out (whitespace dropped, strings re-escaped); returns the index after it. */
  value(tape: Tape, i: i32): i32 {
    const kind = tape.kind(i);
    if (kind == KIND_STRING) {
      this.sep();
      this.stringNode(tape, i);
      return i + 1;
    }
    if (kind == KIND_NUMBER) {
      this.sep();
      this.copy(tape.ptr + <usize>tape.start(i), tape.end(i) - tape.start(i));
      return i + 1;
    }
    if (kind == KIND_BOOL) {
      this.bool(tape.isTrue(i));
      return i + 1;
    }
    if (kind == KIND_NULL) {
      this.null();
      return i + 1;
    }
    const end = tape.next(i);
    if (kind == KIND_ARRAY) {
      this.beginArray();
      for (let j = i + 1; j < end; ) j = this.value(tape, j);
      this.endArray();
      return end;
    }
    this.beginObject();
    for (let j = i + 1; j < end; ) {
      this.sep();
      this.stringNode(tape, j);
      this.byte(0x3a);
      this.afterKey = true;
      j = this.value(tape, j + 1);
    }
    this.endObject();
    return end;
  }

  /** Makes room for `extra` more bytes at once: an answer about to echo a text of known length. */
  expect(extra: i32): void {
    this.reserve(extra);
  }

  /** The bytes written so far, in place (they live as long as the call's heap). */
  ptr(): usize {
    return this.buf;
  }

  // --- bytes ---

  private open(bracket: u8): JsonWriter {
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

  private close(bracket: u8): JsonWriter {
    this.depth--;
    this.byte(bracket);
    return this;
  }

  private sep(): void {
    if (this.afterKey) {
      this.afterKey = false;
      return;
    }
    const n = this.depth;
    if (n == 0) return;
    if (unchecked(this.firsts[n - 1])) unchecked(this.firsts[n - 1] = false);
    else this.byte(0x2c);
  }

  /** A parsed string: its own bytes when it has no escape, otherwise its value re-escaped. */
  private stringNode(tape: Tape, i: i32): void {
    const start = tape.ptr + <usize>tape.start(i);
    const n = tape.end(i) - tape.start(i);
    if (!tape.isEscaped(i)) {
      this.copy(start, n);
      return;
    }
    // An escape never grows when written again: at most as many bytes as the string's text.
    this.reserve(n);
    this.len = <i32>(writeUnescaped(start, n, this.buf + <usize>this.len) - this.buf);
  }

  /** Writes `s` as a JSON string. */
  private quoted(s: string): void {
    // Room for the longest form of every code unit at once (six bytes for a \uXXXX escape): no check per byte.
    this.reserve(s.length * 6 + 2);
    const p = this.buf + <usize>this.len;
    store<u8>(p, 0x22);
    const end = writeEscaped(s, p + 1);
    store<u8>(end, 0x22);
    this.len = <i32>(end + 1 - this.buf);
  }

  private ascii(s: string): void {
    const n = s.length;
    this.reserve(n);
    narrow(s, this.buf + <usize>this.len);
    this.len += n;
  }

  private copy(from: usize, n: i32): void {
    this.reserve(n);
    let to = this.buf + <usize>this.len;
    this.len += n;
    if (n > 64) {
      memory.copy(to, from, <usize>n);
      return;
    }
    // Most copies are one short string or number: words by hand cost less than a call to memory.copy.
    const end = from + <usize>n;
    while (from + 8 <= end) {
      store<u64>(to, load<u64>(from));
      from += 8;
      to += 8;
    }
    while (from < end) store<u8>(to++, load<u8>(from++));
  }

  @inline private byte(b: u8): void {
    if (this.len == this.cap) this.reserve(1);
    store<u8>(this.buf + <usize>this.len, b);
    this.len++;
  }

  /** Makes room for `extra` more bytes: at least double the buffer, so that growing stays linear. */
  private reserve(extra: i32): void {
    const need = this.len + extra;
    if (need <= this.cap) return;
    this.cap = max<i32>(need, this.cap << 1);
    this.buf = __realloc(this.buf, <usize>this.cap);
  }
}

/** Writes the ASCII string `s` at `p`, a byte per code unit: four at a time, then one by one. */
function narrow(s: string, p: usize): void {
  const n = s.length;
  const chars = changetype<usize>(s);
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const u = load<u64>(chars + (<usize>i << 1));
    store<u32>(p + <usize>i, <u32>((u & 0xff) | ((u >> 8) & 0xff00) | ((u >> 16) & 0xff0000) | ((u >> 24) & 0xff000000)));
  }
  for (; i < n; i++) store<u8>(p + <usize>i, <u8>load<u16>(chars + (<usize>i << 1)));
}
