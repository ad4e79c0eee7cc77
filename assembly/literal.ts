// String literals, decoded on demand from one UTF-8 blob that scripts/literals.mjs (an asc transform) builds.

// Filled in at compile time: per literal, a length byte and then its UTF-8 bytes, two bytes to a code unit.
const BLOB: string = "";

/** The literal at `offset` in the blob. The transform rewrites every string literal in assembly/ to a call of this. */
@global export function __literal(offset: i32): string {
  const p = changetype<usize>(BLOB) + <usize>offset;
  return String.UTF8.decodeUnsafe(p + 1, <usize>load<u8>(p));
}
