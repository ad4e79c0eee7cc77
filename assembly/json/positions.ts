// Line, column and UTF-16 offset of a byte of a text, worked out only when a problem or a source asks for one.
//
// The parser keeps byte offsets only: most texts have no problem, and counting lines and UTF-16 columns for
// every value would cost more than the parse. Lookups come mostly in increasing order (a document is read
// from top to bottom), so a cursor moves forward; it leaves a mark every STRIDE bytes, so that a lookup
// behind it (the first of two duplicate keys) starts from the nearest mark instead of the top.

import { LINE_FEED } from "./chars";
import { unitsOfByte } from "./utf8";

const STRIDE = 1024;

/** Positions in one text: `locate(at)` sets `line`, `column` (1-based) and `offset` (0-based, UTF-16 units). */
export class Positions {
  ptr: usize;
  len: i32;
  /** Where the content starts: past a byte-order mark, which counts in offsets but is not a column. */
  begin: i32;
  pos: i32 = 0;
  line: i32 = 1;
  column: i32 = 1;
  offset: i32 = 0;
  /** (pos, line, column, offset) every STRIDE bytes of what the cursor has passed. */
  marks: Array<i32> = new Array<i32>();
  /** How far the cursor has been: marks cover the text up to here. */
  reached: i32 = 0;

  constructor(ptr: usize, len: i32) {
    this.ptr = ptr;
    this.len = len;
    this.begin = hasByteOrderMark(ptr, len) ? 3 : 0;
    this.restart();
  }

  /** Moves to byte `at` of the text (at most its length). */
  locate(at: i32): void {
    at = max(at, this.begin);
    if (at < this.pos) this.jumpBack(at);
    const ptr = this.ptr;
    let pos = this.pos;
    let line = this.line;
    let column = this.column;
    let offset = this.offset;
    while (pos < at) {
      // A stretch up to the next mark to leave (or to `at`), in a loop that does nothing else.
      let stop = at;
      if (pos >= this.reached) {
        if (pos % STRIDE == 0) this.mark(pos, line, column, offset);
        stop = min(at, pos - (pos % STRIDE) + STRIDE);
      }
      // Eight ASCII bytes at a time: the line breaks among them counted at once, the column set from the last
      // one; a word with other bytes goes byte by byte.
      for (; pos + 8 <= stop; pos += 8) {
        const x = load<u64>(ptr + <usize>pos);
        if ((x & 0x8080808080808080) != 0) break;
        const y = x ^ (0x0101010101010101 * LINE_FEED);
        // Bit 7 set exactly in the bytes that are zero in `y`: the line breaks (no carry crosses a byte).
        const breaks = ~(((y & 0x7f7f7f7f7f7f7f7f) + 0x7f7f7f7f7f7f7f7f) | y) & 0x8080808080808080;
        offset += 8;
        if (breaks == 0) {
          column += 8;
        } else {
          line += <i32>popcnt(breaks);
          column = 8 - <i32>((63 - clz(breaks)) >> 3);
        }
      }
      const next = min(stop, pos + 8);
      for (; pos < next; pos++) {
        const b = <u32>load<u8>(ptr + <usize>pos);
        if (b == LINE_FEED) {
          line++;
          column = 1;
          offset++;
        } else {
          const units = unitsOfByte(b);
          column += units;
          offset += units;
        }
      }
    }
    this.pos = pos;
    this.line = line;
    this.column = column;
    this.offset = offset;
    if (pos > this.reached) this.reached = pos;
  }

  /** The UTF-16 offset of byte `at`. */
  offsetOf(at: i32): i32 {
    this.locate(at);
    return this.offset;
  }

  private restart(): void {
    this.pos = this.begin;
    this.line = 1;
    this.column = 1;
    this.offset = this.begin > 0 ? 1 : 0;
  }

  private mark(pos: i32, line: i32, column: i32, offset: i32): void {
    const marks = this.marks;
    marks.push(pos);
    marks.push(line);
    marks.push(column);
    marks.push(offset);
  }

  /** Puts the cursor on the last mark at or before `at`, or at the start. */
  private jumpBack(at: i32): void {
    const marks = this.marks;
    let lo = 0;
    let hi = (marks.length >> 2) - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (unchecked(marks[mid << 2]) <= at) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    if (found < 0) {
      this.restart();
      return;
    }
    const m = found << 2;
    this.pos = unchecked(marks[m]);
    this.line = unchecked(marks[m + 1]);
    this.column = unchecked(marks[m + 2]);
    this.offset = unchecked(marks[m + 3]);
  }
}

export function hasByteOrderMark(ptr: usize, len: i32): bool {
  return len >= 3 && load<u8>(ptr) == 0xef && load<u8>(ptr + 1) == 0xbb && load<u8>(ptr + 2) == 0xbf;
}
