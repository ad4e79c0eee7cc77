// JSON string escaping as JSON.stringify does it, from a string or from a parsed string's escapes.
//
// \" \\ \b \f \n \r \t for those characters, lower-case \u00XX for the other control characters, a lone
// surrogate as its \uXXXX escape (UTF-8 cannot carry it), and everything else as its UTF-8 bytes, `/` and
// U+2028 included. So a host that parses an answer and writes it again with JSON.stringify gets the very
// same bytes, which is how the golden vectors compare answers.

import { BACKSLASH, BACKSLASH_U, CASE_BIT, DIGIT_0, DIGIT_9, LOWER_A, LOWER_U, QUOTE, SLASH, SPACE } from "./chars";
import { encodePair, encodeUnit, lowSurrogateAfter } from "./utf8";

/** Writes `s` escaped at `p` (room for six bytes per code unit); returns where it stopped. */
export function writeEscaped(s: string, p: usize): usize {
  return writeUnits(s, p, true);
}

/** Writes `s` as WTF-8 at `to`, nothing escaped (room for `maxBytes(s)`); returns the number of bytes written. */
export function encodeText(s: string, to: usize): i32 {
  return <i32>(writeUnits(s, to, false) - to);
}

// One in each of four UTF-16 code units of a u64: times a character, that character four times.
const UNIT_ONES: u64 = 0x0001000100010001;

/** Writes the code units of `s` at `p`, as JSON string content (`json`) or as they are; returns where it stopped. */
function writeUnits(s: string, p: usize, json: bool): usize {
  const n = s.length;
  const chars = changetype<usize>(s);
  for (let i = 0; i < n; i++) {
    // Most of an answer is plain ASCII: four code units at a time while all four stand for themselves.
    while (i + 4 <= n) {
      const u = load<u64>(chars + (<usize>i << 1));
      const q = u ^ (UNIT_ONES * QUOTE);
      const b = u ^ (UNIT_ONES * BACKSLASH);
      // Every unit below 0x80 and at least 0x20 (0x60 added sets its bit 7), and none a quote or a backslash.
      if ((u & 0xff80ff80ff80ff80) != 0 || (~(u + 0x0060006000600060) & 0x0080008000800080) != 0) break;
      if ((((q - UNIT_ONES) & ~q) | ((b - UNIT_ONES) & ~b)) & 0x8000800080008000) break;
      store<u32>(p, <u32>((u & 0xff) | ((u >> 8) & 0xff00) | ((u >> 16) & 0xff0000) | ((u >> 24) & 0xff000000)));
      p += 4;
      i += 4;
    }
    if (i >= n) break;
    const c = <u32>load<u16>(chars + (<usize>i << 1));
    if (c - SPACE < 0x60 && c != QUOTE && c != BACKSLASH) {
      // The tail of a short ASCII string, one unit that stands for itself.
      store<u8>(p++, <u8>c);
      continue;
    }
    const low = lowSurrogateAfter(chars, i, n);
    if (low != 0) {
      p = encodePair(p, c, low);
      i++;
    } else {
      p = json ? writeUnit(p, c) : encodeUnit(p, c);
    }
  }
  return p;
}

/**
 * Writes WTF-8 bytes (`n` at `from`) as JSON string content at `p`, the way `writeEscaped` writes the string they
 * stand for; returns where it stopped. The output needs room for six bytes per byte (a control character
 * becomes six) and eight more: bytes are stored eight at a time.
 */
export function writeEscapedBytes(from: usize, n: i32, p: usize): usize {
  const end = from + <usize>n;
  let q = from;
  while (q < end) {
    // Eight bytes at a time up to the first that needs a look: below 0x20, a quote, a backslash, not ASCII.
    // Storing all eight is safe: the output has room for them.
    let special: u64 = 0;
    while (q + 8 <= end) {
      const x = load<u64>(q);
      store<u64>(p, x);
      special = specialBytes(x);
      if (special != 0) break;
      p += 8;
      q += 8;
    }
    if (special == 0) {
      if (q >= end) break;
      // The last few: the top of the word that ends with them (read from before `q`), shifted down.
      const left = end - q;
      const x = end >= 8 ? load<u64>(end - 8) >> ((8 - left) << 3) : <u64>load<u8>(q);
      const avail = end >= 8 ? left : 1;
      store<u64>(p, x);
      special = specialBytes(x) & (<u64>-1 >> ((8 - avail) << 3));
      if (special == 0) {
        p += avail;
        q += avail;
        continue;
      }
    }
    const k = <usize>(ctz(special) >> 3);
    p += k;
    q += k;
    const b = <u32>load<u8>(q);
    if (b < 0x80) {
      p = writeUnit(p, b);
      q++;
    } else if (b == 0xed && <u32>load<u8>(q + 1) >= 0xa0) {
      // A lone surrogate, which only WTF-8 carries: its escape, as for a string.
      p = hexEscape(p, 0xd000 | ((<u32>load<u8>(q + 1) & 0x3f) << 6) | (<u32>load<u8>(q + 2) & 0x3f));
      q += 3;
    } else {
      // Any other sequence stands for itself.
      const len: usize = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      for (let i: usize = 0; i < len; i++) store<u8>(p + i, load<u8>(q + i));
      p += len;
      q += len;
    }
  }
  return p;
}

// Eight bytes at a time: bit 7 of each byte of the result is set where that byte is below 0x20, a quote, a
// backslash, or not ASCII (and possibly in bytes above such a one, never below); zero when all eight are plain
// characters of a JSON string.
const ONES: u64 = 0x0101010101010101;
const HIGHS: u64 = 0x8080808080808080;

@inline export function specialBytes(x: u64): u64 {
  const quote = x ^ (ONES * QUOTE);
  const backslash = x ^ (ONES * BACKSLASH);
  return (x | ((x - ONES * SPACE) & ~x) | ((quote - ONES) & ~quote) | ((backslash - ONES) & ~backslash)) & HIGHS;
}

/**
 * Writes the parsed string of `n` bytes at `from` (quotes included) at `p`, its escapes written the way
 * `writeEscaped` would write the string they stand for; returns where it stopped. Never longer than `n`.
 */
export function writeUnescaped(from: usize, n: i32, p: usize): usize {
  store<u8>(p, QUOTE);
  p = walkEscapes(from + 1, n - 2, p + 1, true);
  store<u8>(p, QUOTE);
  return p + 1;
}

/**
 * Decodes the escapes of a parsed string's body (`len` bytes at `from`, checked by the scanner) into WTF-8 at
 * `to`; returns the length. Escaped surrogates that make a pair become its four bytes.
 */
export function unescapeInto(from: usize, len: i32, to: usize): i32 {
  return <i32>(walkEscapes(from, len, to, false) - to);
}

/**
 * Walks a parsed string's body, copying what is not an escape and writing what each escape stands for:
 * as its value's bytes, or (`json`) as `writeEscaped` writes that value. Returns where it stopped; the output
 * never runs ahead of the input, so it fits in as many bytes.
 */
function walkEscapes(from: usize, len: i32, to: usize, json: bool): usize {
  const end = from + <usize>len;
  let p = from;
  let q = to;
  while (p < end) {
    // Eight bytes at a time up to the next backslash. Storing all eight is safe: since the output never runs
    // ahead of the input, eight bytes at `q` stay inside the output while eight remain at `p`.
    while (p + 8 <= end) {
      const x = load<u64>(p);
      store<u64>(q, x);
      const y = x ^ (ONES * BACKSLASH);
      const backslash = (y - ONES) & ~y & HIGHS;
      if (backslash != 0) {
        const k = <usize>(ctz(backslash) >> 3);
        p += k;
        q += k;
        break;
      }
      p += 8;
      q += 8;
    }
    if (p >= end) break;
    const b = <u32>load<u8>(p);
    if (b != BACKSLASH) {
      store<u8>(q++, <u8>b);
      p++;
      continue;
    }
    const e = <u32>load<u8>(p + 1);
    if (e != LOWER_U) {
      // In JSON, \/ stands for a slash, which JSON.stringify does not escape; the other short escapes stay.
      if (!json) store<u8>(q++, <u8>escapedUnit(e));
      else if (e == SLASH) store<u8>(q++, SLASH);
      else q = shortEscape(q, e);
      p += 2;
      continue;
    }
    const unit = hex4(p + 2);
    p += 6;
    const low = unit >= 0xd800 && unit <= 0xdbff ? escapedLowSurrogate(p, end) : 0;
    if (low != 0) {
      q = encodePair(q, unit, low);
      p += 6;
    } else {
      q = json ? writeUnit(q, unit) : encodeUnit(q, unit);
    }
  }
  return q;
}

// JSON's two-character escapes as two tables made at start: the unit each letter stands for (-1 for `u` and
// for what is no escape), and the letter that escapes each control character that has one (0 for none).
const UNIT_OF_LETTER = new StaticArray<i32>(128);
const LETTER_OF_CONTROL = new StaticArray<u8>(32);
for (let c = 0; c < 128; c++) unchecked(UNIT_OF_LETTER[c] = c == QUOTE || c == BACKSLASH || c == SLASH ? c : -1);
const SHORT_ESCAPES = "n\nt\tr\rb\bf\f";
for (let i = 0; i < SHORT_ESCAPES.length; i += 2) {
  const letter = SHORT_ESCAPES.charCodeAt(i);
  const unit = SHORT_ESCAPES.charCodeAt(i + 1);
  UNIT_OF_LETTER[letter] = unit;
  LETTER_OF_CONTROL[unit] = <u8>letter;
}

/** The code unit a two-character escape stands for (`n` for \n), or -1 for `u` and for what is no escape. */
export function escapedUnit(e: u32): i32 {
  return e < 128 ? unchecked(UNIT_OF_LETTER[e]) : -1;
}

/** The value of the four hexadecimal digits at `p` (the scanner checked them). */
function hex4(p: usize): u32 {
  let v: u32 = 0;
  for (let k: usize = 0; k < 4; k++) {
    const c = <u32>load<u8>(p + k);
    v = (v << 4) | (c <= DIGIT_9 ? c - DIGIT_0 : (c | CASE_BIT) - LOWER_A + 10);
  }
  return v;
}

/** The low surrogate escaped at `p` (\uDC00 to \uDFFF, before `end`), which pairs with a high one just before it; or 0. */
function escapedLowSurrogate(p: usize, end: usize): u32 {
  if (p + 6 > end || load<u8>(p) != BACKSLASH || load<u8>(p + 1) != LOWER_U) return 0;
  const low = hex4(p + 2);
  return low >= 0xdc00 && low <= 0xdfff ? low : 0;
}

/** Writes one code unit that is not half of a pair; returns where it stopped. */
function writeUnit(p: usize, c: u32): usize {
  if (c >= SPACE && c != QUOTE && c != BACKSLASH && (c < 0xd800 || c > 0xdfff)) return encodeUnit(p, c);
  if (c == QUOTE || c == BACKSLASH) return shortEscape(p, c);
  const letter = c < SPACE ? <u32>unchecked(LETTER_OF_CONTROL[c]) : 0;
  return letter != 0 ? shortEscape(p, letter) : hexEscape(p, c);
}

/** Writes a backslash and `letter` at `p`. */
function shortEscape(p: usize, letter: u32): usize {
  store<u16>(p, <u16>(BACKSLASH | (letter << 8)));
  return p + 2;
}

/** Writes the lower-case \uXXXX escape of `c` at `p`; returns where it stopped. */
function hexEscape(p: usize, c: u32): usize {
  store<u16>(p, BACKSLASH_U);
  p += 2;
  for (let shift = 12; shift >= 0; shift -= 4) {
    const h = (c >> shift) & 0xf;
    store<u8>(p++, <u8>(h < 10 ? DIGIT_0 + h : LOWER_A + h - 10));
  }
  return p;
}
