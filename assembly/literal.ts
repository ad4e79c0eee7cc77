// String literals, decoded on demand from one compressed blob that scripts/asc-literals (an asc transform) builds.

// Filled in at compile time, two bytes to a code unit: the offset of the table of dictionary words, the
// literals used most (their refs fit one byte), the table (offset: u16, length: u8), then the words and
// the other literals. Literals are ASCII and end with a zero byte; a byte 0x80 + i stands for word i.
const BLOB: string = "";

// Filled in at compile time: the bytes every literal takes decoded, with its object header and padding.
const ARENA_BYTES: i32 = 0;

// A managed object's header before its payload: the block's 4 bytes and the object's 16.
const OBJECT_HEADER: usize = 20;

// Decoded literals live in an arena made at start, below the heap that each dk_call reuses (heap.ts),
// so that one decoded in a call outlives it.
let arenaNext: usize = align16(changetype<usize>(new StaticArray<u8>(ARENA_BYTES)) + OBJECT_HEADER);

// Decoded literals by ref, each decoded once per instance, not at every use. A ref is an offset in the blob,
// below 8,192 (the transform checks), so the table is indexed by it directly: no hashing, no probing.
const MAX_REFS = 8192;
const cache = new StaticArray<usize>(MAX_REFS);

/** The literal at offset `ref` of the blob. The transform rewrites every string literal in assembly/ to a call of this. */
@global export function __literal(ref: i32): string {
  const cached = unchecked(cache[ref]);
  if (cached != 0) return changetype<string>(cached);
  const start = changetype<usize>(BLOB) + <usize>ref;
  let end = start;
  while (load<u8>(end) != 0) end++;
  // A string object by hand: its runtime id and byte length are all a string needs (std's rt/common.ts).
  const out = arenaNext;
  const size = <usize>expandedLength(start, end) << 1;
  store<u32>(out - 8, idof<string>());
  store<u32>(out - 4, <u32>size);
  expand(start, end, out);
  arenaNext = align16(out + size + OBJECT_HEADER);
  unchecked(cache[ref] = out);
  return changetype<string>(out);
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
  return changetype<usize>(BLOB) + <usize>load<u8>(changetype<usize>(BLOB)) + (token - 0x80) * 3;
}

function wordAt(token: usize): usize {
  return changetype<usize>(BLOB) + <usize>load<u16>(tableEntry(token));
}

function align16(at: usize): usize {
  return (at + 15) & ~15;
}
