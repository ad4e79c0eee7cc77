// String literals, decoded on demand from one compressed blob that scripts/asc-literals (an asc transform) builds.

// Filled in at compile time, two bytes to a code unit: the offset of the table of dictionary words, the
// literals used most (their refs fit one byte), the table (offset: u16, length: u8), then the words and
// the other literals. Literals are ASCII and end with a zero byte; a byte 0x80 + i stands for word i.
const BLOB: string = "";

/**
 * Decoded literals by ref, each decoded once per instance, not at every use. The strings are pinned and
 * held by address, not as managed references: the collector at the end of each call then neither frees
 * nor marks them (marking some 300 strings on every call cost more than a small request itself). Open addressing with linear probing; the
 * transform checks that there are fewer distinct literals than half the slots, so probes stay short and
 * an empty slot (ref 0, which no literal has: its length is at least 1) is always found.
 */
const CACHE_BITS = 10;
const cacheRefs = new StaticArray<i32>(1 << CACHE_BITS);
const cacheStrings = new StaticArray<usize>(1 << CACHE_BITS);

/** The literal at offset `ref` of the blob. The transform rewrites every string literal in assembly/ to a call of this. */
@global export function __literal(ref: i32): string {
  let slot = (<u32>ref * 0x9e3779b1) >>> (32 - CACHE_BITS);
  while (true) {
    const cached = unchecked(cacheRefs[slot]);
    if (cached == ref) return changetype<string>(unchecked(cacheStrings[slot]));
    if (cached == 0) break;
    slot = (slot + 1) & ((1 << CACHE_BITS) - 1);
  }
  const start = changetype<usize>(BLOB) + <usize>ref;
  let end = start;
  while (load<u8>(end) != 0) end++;
  const out = changetype<string>(__new(<usize>expandedLength(start, end) << 1, idof<string>()));
  expand(start, end, changetype<usize>(out));
  unchecked(cacheRefs[slot] = ref);
  unchecked(cacheStrings[slot] = __pin(changetype<usize>(out)));
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
  return changetype<usize>(BLOB) + <usize>load<u8>(changetype<usize>(BLOB)) + (token - 0x80) * 3;
}

function wordAt(token: usize): usize {
  return changetype<usize>(BLOB) + <usize>load<u16>(tableEntry(token));
}
