// Byte strings: WTF-8 bytes in memory as one u64 (where they start, how many), so that values, names and paths
// are read, kept, compared and written without an object or a UTF-16 copy each.
//
// A span points into a request, a text decoded from one, or bytes the core made (a resolved path); they live as
// long as the call (abi/heap.ts), or for good when made at start. Strings are made of spans only for messages.

import { isSpace } from "~lib/util/string";
import { UPPER_A } from "./chars";
import { encodeText, specialBytes, writeEscaped } from "./escape";
import { decodeText, isContinuation, maxBytes, unitAt } from "./utf8";

/** `spanLen` bytes at `spanPtr`. */
export type Span = u64;

@inline export function span(ptr: usize, len: i32): Span {
  return (<u64>len << 32) | <u64>ptr;
}

@inline export function spanPtr(s: Span): usize {
  return <usize>(s & 0xffffffff);
}

@inline export function spanLen(s: Span): i32 {
  return <i32>(s >> 32);
}

/** `len` bytes of `s` from byte `from` on. */
@inline export function subSpan(s: Span, from: i32, len: i32): Span {
  return span(spanPtr(s) + <usize>from, len);
}

/** The WTF-8 bytes of `s`, in a new block: names known at start, and the rare value made as a string. */
export function spanOf(s: string): Span {
  const p = __alloc(<usize>max(maxBytes(s), 1));
  return span(p, encodeText(s, p));
}

/** `spanOf` of each name. */
export function spansOf(names: Array<string>): Array<Span> {
  const out = new Array<Span>(names.length);
  for (let i = 0; i < names.length; i++) out[i] = spanOf(names[i]);
  return out;
}

/** The bytes of a fixed text as a JSON string holds them (escaped), made at start: see `JsonWriter.escapedPart`. */
export function escapedSpanOf(s: string): Span {
  const p = __alloc(<usize>max(s.length * 6, 1));
  return span(p, <i32>(writeEscaped(s, p) - p));
}

/** Whether a JSON string holds the bytes as they are: printable ASCII without a quote or a backslash. */
export function isPlain(s: Span): bool {
  const p = spanPtr(s);
  const n = spanLen(s);
  let i = 0;
  for (; i + 8 <= n; i += 8) if (specialBytes(load<u64>(p + <usize>i)) != 0) return false;
  for (; i < n; i++) if (specialBytes(<u64>load<u8>(p + <usize>i)) & 0x80) return false;
  return true;
}

/** The string of a span, for messages. */
export function spanText(s: Span): string {
  return decodeText(spanPtr(s), spanLen(s));
}

@inline export function byteOf(s: Span, i: i32): u32 {
  return <u32>load<u8>(spanPtr(s) + <usize>i);
}

/** Whether two spans have the same bytes: small enough to be copied into its callers, where most calls end at the lengths. */
export function sameSpan(a: Span, b: Span): bool {
  const n = spanLen(a);
  return n == spanLen(b) && (a == b || sameBytes(spanPtr(a), spanPtr(b), n));
}

/**
 * Copies `n` bytes from `from` to `to` (apart): most copies are a key, a short string or a path's segment, and words
 * by hand, the last one overlapping the one before it, cost less than memory.copy (a call in most engines).
 */
export function copyBytes(to: usize, from: usize, n: i32): void {
  const m = <usize>n;
  if (m > 64) {
    memory.copy(to, from, m);
  } else if (m >= 8) {
    for (let i: usize = 0; i + 8 < m; i += 8) store<u64>(to + i, load<u64>(from + i));
    store<u64>(to + m - 8, load<u64>(from + m - 8));
  } else if (m >= 4) {
    store<u32>(to, load<u32>(from));
    store<u32>(to + m - 4, load<u32>(from + m - 4));
  } else {
    for (let i: usize = 0; i < m; i++) store<u8>(to + i, load<u8>(from + i));
  }
}

/** Whether the `n` bytes at `a` and at `b` are the same: eight at a time, as most values are short. */
export function sameBytes(a: usize, b: usize, n: i32): bool {
  let i = 0;
  for (; i + 8 <= n; i += 8) if (load<u64>(a + <usize>i) != load<u64>(b + <usize>i)) return false;
  for (; i < n; i++) if (load<u8>(a + <usize>i) != load<u8>(b + <usize>i)) return false;
  return true;
}

/**
 * Whether the string of `s` starts with the string of `prefix`, code unit by code unit. That is a byte prefix,
 * but for one case: `prefix` ends in a lone high surrogate that `s` pairs with a low one (a four-byte sequence),
 * which compares as strings.
 */
export function startsWithUnits(s: Span, prefix: Span): bool {
  const n = spanLen(prefix);
  if (spanLen(s) >= n && sameBytes(spanPtr(s), spanPtr(prefix), n)) return true;
  if (n < 3 || byteOf(prefix, n - 3) != 0xed || (byteOf(prefix, n - 2) & 0xf0) != 0xa0) return false;
  return spanText(s).startsWith(spanText(prefix));
}

/** Whether the bytes of `s` are the ASCII `ascii`. */
export function spanIs(s: Span, ascii: string): bool {
  return spanLen(s) == ascii.length && hasAsciiAt(s, 0, ascii, false);
}

/** Whether the bytes of `s` are the lower-case ASCII `ascii`, in any letter case. */
export function spanIsIgnoreCase(s: Span, ascii: string): bool {
  return spanLen(s) == ascii.length && hasAsciiAt(s, 0, ascii, true);
}

export function startsWithAscii(s: Span, prefix: string): bool {
  return spanLen(s) >= prefix.length && hasAsciiAt(s, 0, prefix, false);
}

/** Whether `s` ends with the lower-case ASCII `suffix`, in any letter case when `ignoreCase`. */
export function endsWithAscii(s: Span, suffix: string, ignoreCase: bool = false): bool {
  const at = spanLen(s) - suffix.length;
  return at >= 0 && hasAsciiAt(s, at, suffix, ignoreCase);
}

function hasAsciiAt(s: Span, at: i32, ascii: string, ignoreCase: bool): bool {
  const p = spanPtr(s) + <usize>at;
  for (let i = 0, n = ascii.length; i < n; i++) {
    let c = <i32>load<u8>(p + <usize>i);
    if (ignoreCase && <u32>(c - UPPER_A) < 26) c += 32;
    if (c != unitAt(ascii, i)) return false;
  }
  return true;
}

/** `s` without the white space at its ends that String#trim removes: ASCII and Unicode spaces alike. */
export function trimSpan(s: Span): Span {
  let from = 0;
  let to = spanLen(s);
  while (from < to) {
    const n = spaceAt(s, from);
    if (n == 0) break;
    from += n;
  }
  while (to > from) {
    // The last character starts at the last byte that does not continue a sequence.
    let at = to - 1;
    while (at > from && isContinuation(byteOf(s, at))) at--;
    if (spaceAt(s, at) == 0) break;
    to = at;
  }
  return subSpan(s, from, to - from);
}

/** Whether `s` is not empty and holds only the white space `trimSpan` removes. */
export function isBlank(s: Span): bool {
  return spanLen(s) > 0 && spanLen(trimSpan(s)) == 0;
}

/** The length of the character at byte `at` of `s` when it is white space; else 0. Every space is in the BMP. */
function spaceAt(s: Span, at: i32): i32 {
  const b = byteOf(s, at);
  if (b < 0x80) return isSpace(b) ? 1 : 0;
  if (b >= 0xf0) return 0;
  const two = b < 0xe0;
  const c = two
    ? ((b & 0x1f) << 6) | (byteOf(s, at + 1) & 0x3f)
    : ((b & 0x0f) << 12) | ((byteOf(s, at + 1) & 0x3f) << 6) | (byteOf(s, at + 2) & 0x3f);
  return isSpace(c) ? (two ? 2 : 3) : 0;
}

/**
 * Orders two spans as their strings' code units (the order every host's sort uses). UTF-8's byte order is code
 * point order, which is that order except where a four-byte sequence (a surrogate pair in UTF-16) meets a code
 * point from U+D000 up: those few compare as strings.
 */
// @noinline for speed: module selection sorts thousands of names with it, and a copy inlined into the sort runs
// slower than the call (docs/performance.md#the-builds-transform).
@noinline export function compareSpans(a: Span, b: Span): i32 {
  const pa = spanPtr(a);
  const pb = spanPtr(b);
  const na = spanLen(a);
  const nb = spanLen(b);
  const n = min(na, nb);
  let i = 0;
  while (i + 8 <= n && load<u64>(pa + <usize>i) == load<u64>(pb + <usize>i)) i += 8;
  while (i < n && load<u8>(pa + <usize>i) == load<u8>(pb + <usize>i)) i++;
  if (i == n) return na - nb;
  const x = <i32>load<u8>(pa + <usize>i);
  const y = <i32>load<u8>(pb + <usize>i);
  if ((x >= 0xf0 && y >= 0xed) || (y >= 0xf0 && x >= 0xed)) {
    const s = spanText(a);
    const t = spanText(b);
    return s < t ? -1 : s == t ? 0 : 1;
  }
  return x - y;
}

/** The indices of `spans` in `compareSpans` order, equal ones in their original order (a bottom-up merge sort). */
export function sortedOrder(spans: Array<Span>): Array<i32> {
  const n = spans.length;
  let order = new Array<i32>(n);
  let next = new Array<i32>(n);
  for (let i = 0; i < n; i++) unchecked(order[i] = i);
  for (let width = 1; width < n; width <<= 1) {
    for (let lo = 0; lo < n; lo += width << 1) {
      const mid = min<i32>(lo + width, n);
      const hi = min<i32>(lo + (width << 1), n);
      let a = lo;
      let b = mid;
      for (let k = lo; k < hi; k++) {
        // Take from the right run only when strictly smaller, so that equal names keep their order.
        if (a < mid && (b >= hi || compareSpans(unchecked(spans[order[b]]), unchecked(spans[order[a]])) >= 0)) {
          unchecked(next[k] = order[a++]);
        } else {
          unchecked(next[k] = order[b++]);
        }
      }
    }
    const t = order;
    order = next;
    next = t;
  }
  return order;
}

/** FNV-1a over `n` bytes. */
export function hashBytes(p: usize, n: i32): u32 {
  let h: u32 = 0x811c9dc5;
  for (let i = 0; i < n; i++) h = (h ^ <u32>load<u8>(p + <usize>i)) * 0x01000193;
  return h;
}
