// A parsed JSON text as a flat tape of nodes that point into the text: nothing is decoded until it is read.
//
// A node is four words: its kind (with two flags), where it starts and ends in the text (byte offsets), and
// the index of the node after it and everything inside it, so that a reader skips a value in one step. An
// array's items follow it; an object's members follow it as key, value, key, value. Scalars need no list of
// their own, strings stay bytes of the text until someone reads them, and a string without escapes is its
// own bytes, so that the writer copies it through.

import { encodeText, unescapeInto } from "./escape";
import { Span, span } from "./span";
import { decodeText, maxBytes, newString, unitAt } from "./utf8";

/** What a node is: one of the six kinds of JSON value, in the low byte of its first word. */
export enum JsonKind {
  Null = 0,
  Bool = 1,
  Number = 2,
  String = 3,
  Array = 4,
  Object = 5,
}

/** Bits above the kind in a node's first word. */
export enum NodeFlag {
  /** A string with at least one escape: its value differs from its bytes. */
  Escaped = 0x100,
  /** A boolean that is `true`. */
  True = 0x200,
}

const NODE_BYTES: usize = 16;

export class Tape {
  /** The JSON text: UTF-8 bytes that must stay alive as long as the tape. */
  ptr: usize;
  len: i32;
  nodes: usize = 0;
  count: i32 = 0;
  capacity: i32 = 0;

  constructor(ptr: usize, len: i32, capacity: i32) {
    this.ptr = ptr;
    this.len = len;
    this.capacity = max(capacity, 4);
    this.nodes = __alloc(<usize>this.capacity * NODE_BYTES);
  }

  /** Appends a node; its end and the index after it are set when it is complete (`close`). Returns its index. */
  @inline add(kindAndFlags: i32, start: i32, end: i32): i32 {
    const i = this.count;
    if (i == this.capacity) {
      // The tape is usually the newest block of the heap while a text is parsed, so this grows in place:
      // by half, so that it never holds much more than the text needs.
      this.capacity = i + (i >> 1);
      this.nodes = __realloc(this.nodes, <usize>this.capacity * NODE_BYTES);
    }
    const at = this.nodes + <usize>i * NODE_BYTES;
    store<i32>(at, kindAndFlags);
    store<i32>(at, start, 4);
    store<i32>(at, end, 8);
    store<i32>(at, i + 1, 12);
    this.count = i + 1;
    return i;
  }

  /** Completes a container: where it ends in the text, and that everything added since is inside it. */
  close(i: i32, end: i32): void {
    const at = this.nodes + <usize>i * NODE_BYTES;
    store<i32>(at, end, 8);
    store<i32>(at, this.count, 12);
  }

  @inline kind(i: i32): JsonKind {
    return load<i32>(this.nodes + <usize>i * NODE_BYTES) & 0xff;
  }

  @inline isEscaped(i: i32): bool {
    return (load<i32>(this.nodes + <usize>i * NODE_BYTES) & NodeFlag.Escaped) != 0;
  }

  @inline isTrue(i: i32): bool {
    return (load<i32>(this.nodes + <usize>i * NODE_BYTES) & NodeFlag.True) != 0;
  }

  @inline start(i: i32): i32 {
    return load<i32>(this.nodes + <usize>i * NODE_BYTES, 4);
  }

  @inline end(i: i32): i32 {
    return load<i32>(this.nodes + <usize>i * NODE_BYTES, 8);
  }

  /** The index after node `i` and everything inside it: its next sibling, or past its parent's end. */
  @inline next(i: i32): i32 {
    return load<i32>(this.nodes + <usize>i * NODE_BYTES, 12);
  }

  /** Whether an array or object has nothing inside. */
  @inline isEmpty(i: i32): bool {
    return this.next(i) == i + 1;
  }

  // --- strings ---

  /** Where a string's bytes (between its quotes) start, and how many there are. */
  @inline bodyPtr(i: i32): usize {
    return this.ptr + <usize>this.start(i) + 1;
  }

  @inline bodyLen(i: i32): i32 {
    return this.end(i) - this.start(i) - 2;
  }

  /** A string node's value as a string. */
  text(i: i32): string {
    if (!this.isEscaped(i)) return decodeText(this.bodyPtr(i), this.bodyLen(i));
    return unescapeToString(this.bodyPtr(i), this.bodyLen(i));
  }

  /** A number node's text, exactly as written. */
  numberText(i: i32): string {
    const n = this.end(i) - this.start(i);
    const out = newString(n);
    const from = this.ptr + <usize>this.start(i);
    for (let k = 0; k < n; k++) store<u16>(changetype<usize>(out) + ((<usize>k) << 1), load<u8>(from + <usize>k));
    return out;
  }

  /**
   * A string node's value as WTF-8 bytes: its own bytes when it has no escape, otherwise decoded into a new
   * buffer. Sets `valuePtr` and returns the length.
   */
  bytes(i: i32): i32 {
    if (!this.isEscaped(i)) {
      valuePtr = this.bodyPtr(i);
      return this.bodyLen(i);
    }
    const len = this.bodyLen(i);
    // An escape is never shorter than what it stands for, so the decoded bytes fit in as many.
    const to = __alloc(<usize>max(len, 1));
    const n = unescapeInto(this.bodyPtr(i), len, to);
    // Give back what the escapes saved: the buffer is the newest block, so this shrinks it in place.
    valuePtr = __realloc(to, <usize>max(n, 1));
    return n;
  }

  /** A string node's value as a span: its own bytes when it has no escape (see `bytes`). */
  span(i: i32): Span {
    const n = this.bytes(i);
    return span(valuePtr, n);
  }

  /** Whether a string node's value is `name`, compared on bytes without making a string. */
  equals(i: i32, name: string): bool {
    const n = this.bytes(i);
    const p = valuePtr;
    const units = name.length;
    // Every code unit takes at least a byte; an ASCII name (the keys of the schema and of requests) one each.
    if (n < units) return false;
    if (n == units) {
      for (let k = 0; k < n; k++) {
        const c = unitAt(name, k);
        if (c >= 0x80 || <i32>load<u8>(p + <usize>k) != c) return false;
      }
      return true;
    }
    let ascii = true;
    for (let k = 0; k < units; k++) if (unitAt(name, k) >= 0x80) ascii = false;
    if (ascii) return false;
    const bytes = __alloc(<usize>maxBytes(name));
    const m = encodeText(name, bytes);
    return m == n && memory.compare(p, bytes, <usize>n) == 0;
  }

  /** The first member of object `obj` named `name`, or -1. */
  member(obj: i32, name: string): i32 {
    const end = this.next(obj);
    for (let k = obj + 1; k < end; k = this.next(k + 1)) {
      if (this.equals(k, name)) return k + 1;
    }
    return -1;
  }

  /** The string member `name` of object `obj`, or `fallback` when it is missing or not a string. */
  stringMember(obj: i32, name: string, fallback: string): string {
    const m = this.member(obj, name);
    return m >= 0 && this.kind(m) == JsonKind.String ? this.text(m) : fallback;
  }

  /** The string member `name` of object `obj` as a span, or `fallback` when it is missing or not a string. */
  spanMember(obj: i32, name: string, fallback: Span): Span {
    const m = this.member(obj, name);
    return m >= 0 && this.kind(m) == JsonKind.String ? this.span(m) : fallback;
  }
}

/** Where `Tape.bytes` left a value's bytes. */
export let valuePtr: usize = 0;

/** Decodes a string body with escapes straight into a string. */
function unescapeToString(from: usize, len: i32): string {
  const bytes = __alloc(<usize>max(len, 1));
  return decodeText(bytes, unescapeInto(from, len, bytes));
}
