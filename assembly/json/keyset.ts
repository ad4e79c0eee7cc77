// Object keys compared by value, and a set of them: how the parser finds duplicate keys without making strings.

import { hashBytes, sameBytes } from "./span";
import { Tape, valuePtr } from "./tape";

/** The keys of one object, each value kept with the node of its first occurrence. */
export class KeySet {
  tape: Tape;
  // Open addressing with linear probing: a slot holds a key's node + 1, or 0 when it is empty.
  slots: StaticArray<i32> = new StaticArray<i32>(64);
  size: i32 = 0;

  constructor(tape: Tape) {
    this.tape = tape;
  }

  /** Whether string nodes `a` and `b` have the same value (escapes resolved: "a" and "\u0061" are the same key). */
  static same(tape: Tape, a: i32, b: i32): bool {
    if (!tape.isEscaped(a) && !tape.isEscaped(b)) {
      const n = tape.bodyLen(a);
      return n == tape.bodyLen(b) && sameBytes(tape.bodyPtr(a), tape.bodyPtr(b), n);
    }
    const n = tape.bytes(a);
    const p = valuePtr;
    return n == tape.bytes(b) && sameBytes(p, valuePtr, n);
  }

  /** The first key of object `obj` before key node `key` with the same value, or -1: a scan, for objects of a few keys. */
  static firstBefore(tape: Tape, obj: i32, key: i32): i32 {
    // Keys without escapes differ by length or first byte far more often than not: settled without a call.
    const plain = !tape.isEscaped(key);
    const n = tape.bodyLen(key);
    const first = n > 0 ? load<u8>(tape.bodyPtr(key)) : 0;
    for (let k = obj + 1; k < key; k = tape.next(k + 1)) {
      if (plain && !tape.isEscaped(k) && (tape.bodyLen(k) != n || (n > 0 && load<u8>(tape.bodyPtr(k)) != first))) continue;
      if (KeySet.same(tape, k, key)) return k;
    }
    return -1;
  }

  /** A set of the keys of object `obj` before key node `key`, made once the object outgrows the scan. */
  static of(tape: Tape, obj: i32, key: i32): KeySet {
    const set = new KeySet(tape);
    for (let k = obj + 1; k < key; k = tape.next(k + 1)) set.addFirst(k);
    return set;
  }

  /** Adds key node `key` unless a key of the same value is there; returns that earlier key's node, or -1. */
  addFirst(key: i32): i32 {
    const tape = this.tape;
    const mask = this.slots.length - 1;
    let i = hashKey(tape, key) & mask;
    while (true) {
      const k = unchecked(this.slots[i]);
      if (k == 0) break;
      if (KeySet.same(tape, k - 1, key)) return k - 1;
      i = (i + 1) & mask;
    }
    unchecked((this.slots[i] = key + 1));
    // At most half full, so that probes stay short.
    if (++this.size << 1 > this.slots.length) this.grow();
    return -1;
  }

  private grow(): void {
    const old = this.slots;
    const slots = new StaticArray<i32>(old.length << 1);
    const mask = slots.length - 1;
    for (let j = 0; j < old.length; j++) {
      const k = unchecked(old[j]);
      if (k == 0) continue;
      let i = hashKey(this.tape, k - 1) & mask;
      while (unchecked(slots[i]) != 0) i = (i + 1) & mask;
      unchecked((slots[i] = k));
    }
    this.slots = slots;
  }
}

/** A key's hash, over its value's bytes. */
function hashKey(tape: Tape, key: i32): i32 {
  const n = tape.bytes(key);
  return <i32>hashBytes(valuePtr, n);
}
