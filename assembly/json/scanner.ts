// JSON tokens over UTF-8 bytes: where whitespace, a string, a number or a literal ends, and what is wrong with one.
//
// No allocation and no positions: the scanner answers byte offsets, and the parser turns the rare problem
// into a message with a line and a column. A scan that fails returns -1 and leaves what and where in
// `scanProblem` and `scanAt` (globals: out-parameters without an object per token).

import {
  BACKSLASH, CARRIAGE_RETURN, CASE_BIT, DELETE, DIGIT_0, LINE_FEED, LOWER_A, LOWER_E, LOWER_U, MINUS, PERIOD, PLUS, QUOTE, SLASH,
  SPACE, STAR, TAB, UNDERSCORE,
} from "./chars";
import { escapedUnit, specialBytes } from "./escape";
import { unitAt } from "./utf8";

/** What a failed scan found wrong. */
export enum ScanProblem {
  Unterminated = 1,
  Control = 2,
  Escape = 3,
  UnicodeEscape = 4,
  Utf8 = 5,
  Number = 6,
}

/** What the last failed scan found wrong (a ScanProblem). */
export let scanProblem: ScanProblem = 0;
/** Where: the byte that is wrong (for an unterminated string, its opening quote). */
export let scanAt: i32 = 0;
/** Whether the last string scanned has an escape. */
export let scanEscaped: bool = false;

/** The offset of the first byte from `pos` on that is not JSON whitespace. */
export function skipSpace(ptr: usize, len: i32, pos: i32): i32 {
  // Compact JSON (every request) has no white space: one comparison settles it.
  if (pos < len && load<u8>(ptr + <usize>pos) > SPACE) return pos;
  while (pos < len) {
    const c = load<u8>(ptr + <usize>pos);
    if (c != SPACE && c != LINE_FEED && c != CARRIAGE_RETURN && c != TAB) break;
    pos++;
  }
  return pos;
}

/**
 * Scans the string whose opening quote is at `pos`: returns the offset after its closing quote, or -1 for an
 * unterminated string, a control character, a bad escape or bytes that are not UTF-8 (the first of them, as
 * a reader meets them). Sets `scanEscaped`.
 */
export function scanString(ptr: usize, len: i32, pos: i32): i32 {
  let p = pos + 1;
  let escaped = false;
  while (true) {
    // Most of a string is plain ASCII: eight bytes at a time, then straight to the first that needs a look
    // (the lowest marked byte: the arithmetic can mark a byte above a special one, never below).
    while (p + 8 <= len) {
      const special = specialBytes(load<u64>(ptr + <usize>p));
      if (special != 0) {
        p += <i32>(ctz(special) >> 3);
        break;
      }
      p += 8;
    }
    if (p >= len) break;
    const b = <u32>load<u8>(ptr + <usize>p);
    if (b == QUOTE) {
      scanEscaped = escaped;
      return p + 1;
    }
    if (b == BACKSLASH) {
      escaped = true;
      const e = p + 1 < len ? <u32>load<u8>(ptr + <usize>p + 1) : 0;
      if (escapedUnit(e) >= 0) {
        p += 2;
      } else if (e == LOWER_U && isHex4(ptr, len, p + 2)) {
        p += 6;
      } else {
        return fail(e == LOWER_U ? ScanProblem.UnicodeEscape : ScanProblem.Escape, p);
      }
    } else if (b < SPACE) {
      return fail(ScanProblem.Control, p);
    } else if (b >= 0x80) {
      const n = utf8Length(ptr, len, p);
      if (n < 0) return fail(ScanProblem.Utf8, p);
      p += n;
    } else {
      p++;
    }
  }
  return fail(ScanProblem.Unterminated, pos);
}

/**
 * Scans the number at `pos` (a minus or a digit): returns the offset after it, or -1 with the first byte
 * that breaks JSON's number grammar, a number running into a letter or digit ("01", "1x") included.
 */
export function scanNumber(ptr: usize, len: i32, pos: i32): i32 {
  let p = pos;
  if (byteAt(ptr, len, p) == MINUS) p++;
  if (!isDigit(byteAt(ptr, len, p))) return fail(ScanProblem.Number, p);
  p = byteAt(ptr, len, p) == DIGIT_0 ? p + 1 : digits(ptr, len, p);
  if (byteAt(ptr, len, p) == PERIOD) {
    if (!isDigit(byteAt(ptr, len, ++p))) return fail(ScanProblem.Number, p);
    p = digits(ptr, len, p);
  }
  if ((byteAt(ptr, len, p) | CASE_BIT) == LOWER_E) {
    const sign = byteAt(ptr, len, ++p);
    if (sign == PLUS || sign == MINUS) p++;
    if (!isDigit(byteAt(ptr, len, p))) return fail(ScanProblem.Number, p);
    p = digits(ptr, len, p);
  }
  if (isWordByte(byteAt(ptr, len, p))) return fail(ScanProblem.Number, p);
  return p;
}

/** Whether the literal `word` (true, false, null) stands at `pos`, not running into a letter or digit. */
export function isWordAt(ptr: usize, len: i32, pos: i32, word: string): bool {
  const n = word.length;
  if (pos + n > len) return false;
  for (let i = 0; i < n; i++) {
    if (<i32>load<u8>(ptr + <usize>(pos + i)) != unitAt(word, i)) return false;
  }
  return !isWordByte(byteAt(ptr, len, pos + n));
}

/** What stands at `pos`, for "found ..." in messages. */
export function describeAt(ptr: usize, len: i32, pos: i32): string {
  if (pos >= len) return "the end of the text";
  const c = load<u8>(ptr + <usize>pos);
  // A comment is the likeliest slip of someone used to JSONC: say where comments can go.
  if (c == SLASH) {
    const next = byteAt(ptr, len, pos + 1);
    if (next == SLASH || next == STAR)
      return "a comment ('" + (next == SLASH ? "//" : "/*") + "'): JSON has none; write comments in a dropkit.config.ts, or remove them";
  }
  if (c > SPACE && c < DELETE) return "'" + String.fromCharCode(c) + "'";
  if (c == SPACE) return "a space";
  if (c < SPACE) return "a control character";
  return "a non-ASCII character";
}

/** The byte at `i`, or 0 past the end (which is no digit, sign, quote or bracket: no separate end checks). */
@inline export function byteAt(ptr: usize, len: i32, i: i32): u32 {
  return i < len ? <u32>load<u8>(ptr + <usize>i) : 0;
}

@inline export function isDigit(c: u32): bool {
  return c - DIGIT_0 < 10;
}

function digits(ptr: usize, len: i32, p: i32): i32 {
  while (isDigit(byteAt(ptr, len, p))) p++;
  return p;
}

export function isWordByte(c: u32): bool {
  return isDigit(c) || (c | CASE_BIT) - LOWER_A < 26 || c == PERIOD || c == UNDERSCORE;
}

function isHex4(ptr: usize, len: i32, p: i32): bool {
  if (p + 4 > len) return false;
  for (let i = 0; i < 4; i++) {
    const c = <u32>load<u8>(ptr + <usize>(p + i));
    if (!isDigit(c) && (c | CASE_BIT) - LOWER_A >= 6) return false;
  }
  return true;
}

/**
 * The length of the multi-byte UTF-8 sequence at `p`, or -1 when it is not one: a bad lead or continuation
 * byte, a sequence cut by the end, an overlong form, a surrogate, or a code point past U+10FFFF.
 */
function utf8Length(ptr: usize, len: i32, p: i32): i32 {
  const b0 = <u32>load<u8>(ptr + <usize>p);
  let need: i32;
  let cp: u32;
  let min: u32;
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
    const b = <u32>load<u8>(ptr + <usize>(p + i));
    if ((b & 0xc0) != 0x80) return -1;
    cp = (cp << 6) | (b & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return -1;
  return need + 1;
}

function fail(problem: ScanProblem, at: i32): i32 {
  scanProblem = problem;
  scanAt = at;
  return -1;
}
