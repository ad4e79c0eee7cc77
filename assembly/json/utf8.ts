// Between UTF-8 bytes and the UTF-16 strings of AssemblyScript, lone surrogates included.
//
// The core reads text as bytes and only makes strings of the values it keeps. A JSON string may hold an
// escaped lone surrogate ("\ud800"), which no UTF-8 can carry: such text travels as WTF-8, UTF-8 extended
// to encode a surrogate code unit in three bytes like any other BMP unit, and a high surrogate followed by a
// low one as the four bytes of their pair. So every UTF-16 string has exactly one byte form, and back.

/** A byte that continues a multi-byte sequence (10xxxxxx). */
@inline export function isContinuation(b: u32): bool {
  return (b & 0xc0) == 0x80;
}

/** How many UTF-16 units the sequence led by byte `b` stands for: 2 for a 4-byte lead, 0 for a continuation, else 1. */
@inline export function unitsOfByte(b: u32): i32 {
  return b < 0x80 ? 1 : b >= 0xf0 ? 2 : isContinuation(b) ? 0 : 1;
}

/** The number of UTF-16 units of the WTF-8 bytes at `ptr`. */
export function utf16Length(ptr: usize, len: i32): i32 {
  let n = 0;
  for (let i = 0; i < len; i++) n += unitsOfByte(load<u8>(ptr + <usize>i));
  return n;
}

/** Code unit `i` of `s`, which the caller knows is in range: a load, without String#charCodeAt's check and call. */
@inline export function unitAt(s: string, i: i32): i32 {
  return <i32>load<u16>(changetype<usize>(s) + (<usize>i << 1));
}

/** A new string of `n` code units, which the caller fills in. */
export function newString(n: i32): string {
  return changetype<string>(__new(<usize>n << 1, idof<string>()));
}

/** The string of the WTF-8 bytes at `ptr` (valid ones: the parser checked them, or this module wrote them). */
export function decodeText(ptr: usize, len: i32): string {
  const out = newString(utf16Length(ptr, len));
  let to = changetype<usize>(out);
  let i = 0;
  while (i < len) {
    const b = <u32>load<u8>(ptr + <usize>i);
    if (b < 0x80) {
      store<u16>(to, <u16>b);
      to += 2;
      i++;
      continue;
    }
    let cp: u32;
    if (b < 0xe0) {
      cp = ((b & 0x1f) << 6) | (<u32>load<u8>(ptr + <usize>i + 1) & 0x3f);
      i += 2;
    } else if (b < 0xf0) {
      cp = ((b & 0x0f) << 12) | ((<u32>load<u8>(ptr + <usize>i + 1) & 0x3f) << 6) | (<u32>load<u8>(ptr + <usize>i + 2) & 0x3f);
      i += 3;
    } else {
      cp = ((b & 0x07) << 18) | ((<u32>load<u8>(ptr + <usize>i + 1) & 0x3f) << 12) |
        ((<u32>load<u8>(ptr + <usize>i + 2) & 0x3f) << 6) | (<u32>load<u8>(ptr + <usize>i + 3) & 0x3f);
      i += 4;
      cp -= 0x10000;
      store<u16>(to, <u16>(0xd800 | (cp >> 10)));
      to += 2;
      cp = 0xdc00 | (cp & 0x3ff);
    }
    store<u16>(to, <u16>cp);
    to += 2;
  }
  return out;
}

/** The most bytes `s` takes as WTF-8 (escape.ts `encodeText`): three per code unit. */
@inline export function maxBytes(s: string): i32 {
  return s.length * 3;
}

/** When unit `i` of the `n` units at `chars` is a high surrogate followed by a low one, that low one; else 0. */
export function lowSurrogateAfter(chars: usize, i: i32, n: i32): u32 {
  const c = <u32>load<u16>(chars + (<usize>i << 1));
  if (c < 0xd800 || c > 0xdbff || i + 1 >= n) return 0;
  const d = <u32>load<u16>(chars + (<usize>(i + 1) << 1));
  return d >= 0xdc00 && d <= 0xdfff ? d : 0;
}

/** Writes the 4-byte form of a surrogate pair at `p`; returns where it stopped. */
export function encodePair(p: usize, high: u32, low: u32): usize {
  const cp = 0x10000 + (((high - 0xd800) << 10) | (low - 0xdc00));
  store<u8>(p, <u8>(0xf0 | (cp >> 18)));
  store<u8>(p + 1, <u8>(0x80 | ((cp >> 12) & 0x3f)));
  store<u8>(p + 2, <u8>(0x80 | ((cp >> 6) & 0x3f)));
  store<u8>(p + 3, <u8>(0x80 | (cp & 0x3f)));
  return p + 4;
}

/** Writes the 3-byte form of a unit from U+0800 up (a lone surrogate too) at `p`; returns where it stopped. */
export function encodeUnit3(p: usize, c: u32): usize {
  store<u8>(p, <u8>(0xe0 | (c >> 12)));
  store<u8>(p + 1, <u8>(0x80 | ((c >> 6) & 0x3f)));
  store<u8>(p + 2, <u8>(0x80 | (c & 0x3f)));
  return p + 3;
}

/** Writes any code unit below U+0800 (1 or 2 bytes) or from it up (3 bytes) at `p`; returns where it stopped. */
export function encodeUnit(p: usize, c: u32): usize {
  if (c < 0x80) {
    store<u8>(p, <u8>c);
    return p + 1;
  }
  if (c < 0x800) {
    store<u8>(p, <u8>(0xc0 | (c >> 6)));
    store<u8>(p + 1, <u8>(0x80 | (c & 0x3f)));
    return p + 2;
  }
  return encodeUnit3(p, c);
}
