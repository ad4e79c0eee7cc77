// String literals, decoded on demand from one UTF-8 blob that scripts/asc-literals (an asc transform) builds.

// Filled in at compile time: the UTF-8 bytes of every literal, two bytes to a code unit.
const BLOB: string = "";

/** Where a literal is in the blob: `length * 8192 + offset`, as the transform writes it. */
const OFFSET_BITS = 13;

/** The literal `ref` points at. The transform rewrites every string literal in assembly/ to a call of this. */
@global export function __literal(ref: i32): string {
  const offset = ref & ((1 << OFFSET_BITS) - 1);
  return String.UTF8.decodeUnsafe(changetype<usize>(BLOB) + <usize>offset, <usize>(ref >>> OFFSET_BITS));
}
