// Names of archives, themes and modules, and module globs, compared without regard to ASCII letter case (SPEC section 6,
// turn 4): folded copies to compare and index, while the plan keeps each file's own spelling.

import { CASE_BIT, LOWER_A, UPPER_A } from "../json/chars";
import { Span, byteOf, hashBytes, sameSpan, span, spanLen, spanPtr } from "../json/span";

/** `s` with its ASCII upper-case letters in lower case: `s` itself when it has none (most names), else a copy. */
// @noinline for size: every glob list, the module names and the glob check call it.
@noinline export function foldSpan(s: Span): Span {
  const n = spanLen(s);
  const p = spanPtr(s);
  let i = 0;
  while (i < n && <u32>(<i32>load<u8>(p + <usize>i) - UPPER_A) >= 26) i++;
  if (i == n) return s;
  const q = __alloc(<usize>n);
  for (let j = 0; j < n; j++) {
    const c = <i32>load<u8>(p + <usize>j);
    store<u8>(q + <usize>j, <u8>(<u32>(c - UPPER_A) < 26 ? c | CASE_BIT : c));
  }
  return span(q, n);
}

/** Whether two spans are the same bytes once ASCII letters are folded to lower case. */
// @noinline for size: called from several places of the theme's choice.
@noinline export function sameIgnoringCase(a: Span, b: Span): bool {
  const n = spanLen(a);
  if (spanLen(b) != n) return false;
  for (let i = 0; i < n; i++) {
    const x = byteOf(a, i);
    const y = byteOf(b, i);
    if (x != y && ((x | CASE_BIT) != (y | CASE_BIT) || (x | CASE_BIT) - LOWER_A >= 26)) return false;
  }
  return true;
}

/**
 * Folded names to the index of the first one added: open addressing, at most half full. A drop of thousands of modules
 * finds each name's twin (or each glob's entry) in one probe rather than a scan.
 */
export class NameIndex {
  private keys: StaticArray<Span>;
  // A slot holds an index + 1, or 0 when it is empty.
  private slots: StaticArray<i32>;

  constructor(count: i32) {
    let size = 16;
    while (size < count << 1) size <<= 1;
    this.keys = new StaticArray<Span>(size);
    this.slots = new StaticArray<i32>(size);
  }

  /** Adds `folded` as index `i` unless it is there; returns the index it has (the first one added). */
  add(folded: Span, i: i32): i32 {
    const slot = this.probe(folded, hashBytes(spanPtr(folded), spanLen(folded)));
    const held = unchecked(this.slots[slot]);
    if (held != 0) return held - 1;
    unchecked(this.keys[slot] = folded);
    unchecked(this.slots[slot] = i + 1);
    return i;
  }

  /** The index of `folded`, or -1. */
  find(folded: Span): i32 {
    return this.findHashed(folded, hashBytes(spanPtr(folded), spanLen(folded)));
  }

  /** `find` with the hash (`hashBytes` of the name) given: a caller that looks up every prefix of a name extends it byte by byte. */
  @inline findHashed(folded: Span, hash: u32): i32 {
    return unchecked(this.slots[this.probe(folded, hash)]) - 1;
  }

  private probe(folded: Span, hash: u32): i32 {
    const mask = this.slots.length - 1;
    let slot = <i32>hash & mask;
    while (unchecked(this.slots[slot]) != 0 && !sameSpan(unchecked(this.keys[slot]), folded)) slot = (slot + 1) & mask;
    return slot;
  }
}
