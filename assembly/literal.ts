// String literals, decoded on demand from one compressed blob that scripts/asc-literals (an asc transform) builds.

// Filled in at compile time, two bytes to a code unit: a table of dictionary words (offset: u16, length:
// u8), then the words and the literals. Literals are ASCII; a byte 0x80 + i stands for word i.
const BLOB: string = "";

/** Where a literal is in the blob: `length * 8192 + offset`, as the transform writes it. */
const OFFSET_BITS = 13;

/** The literal `ref` points at. The transform rewrites every string literal in assembly/ to a call of this. */
@global export function __literal(ref: i32): string {
  const start = changetype<usize>(BLOB) + <usize>(ref & ((1 << OFFSET_BITS) - 1));
  const end = start + <usize>(ref >>> OFFSET_BITS);
  const out = changetype<string>(__new(<usize>expandedLength(start, end) << 1, idof<string>()));
  expand(start, end, changetype<usize>(out));
  return out;
}

/** The number of characters the encoded bytes from `start` to `end` stand for. */
function expandedLength(start: usize, end: usize): i32 {
  let n = 0;
  for (let p = start; p < end; p++) {
    const b = <usize>load<u8>(p);
    if (b < 0x80) {
      n++;
    } else {
      const word = wordAt(b);
      n += expandedLength(word, word + <usize>load<u8>(tableEntry(b), 2));
    }
  }
  return n;
}

/** Writes the characters the encoded bytes from `start` to `end` stand for at `out`; returns where it stopped. */
function expand(start: usize, end: usize, out: usize): usize {
  for (let p = start; p < end; p++) {
    const b = <usize>load<u8>(p);
    if (b < 0x80) {
      store<u16>(out, <u16>b);
      out += 2;
    } else {
      const word = wordAt(b);
      out = expand(word, word + <usize>load<u8>(tableEntry(b), 2), out);
    }
  }
  return out;
}

function tableEntry(token: usize): usize {
  return changetype<usize>(BLOB) + (token - 0x80) * 3;
}

function wordAt(token: usize): usize {
  return changetype<usize>(BLOB) + <usize>load<u16>(tableEntry(token));
}
