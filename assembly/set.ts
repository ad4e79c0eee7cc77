// A set of strings: the two operations the core needs from Set<string>, in a fraction of its code.

/** Strings in the order they were added, with `has` and `add` in constant time. */
export class StringSet {
  /** The strings, in the order they were added. */
  values: Array<string> = new Array<string>();
  // Open addressing with linear probing: a slot holds a value's index + 1, or 0 when it is empty.
  slots: StaticArray<i32> = new StaticArray<i32>(16);

  has(s: string): bool {
    return unchecked(this.slots[this.find(s)]) != 0;
  }

  /** Adds `s` unless the set holds it already; returns whether it was added. */
  add(s: string): bool {
    const slot = this.find(s);
    if (unchecked(this.slots[slot]) != 0) return false;
    this.values.push(s);
    unchecked(this.slots[slot] = this.values.length);
    // At most three quarters full, so that probes stay short.
    if (this.values.length << 2 > this.slots.length * 3) this.grow();
    return true;
  }

  /** The slot that holds `s`, or the empty slot where it belongs. */
  find(s: string): i32 {
    const mask = this.slots.length - 1;
    let i = hash(s) & mask;
    while (true) {
      const k = unchecked(this.slots[i]);
      if (k == 0 || unchecked(this.values[k - 1]) == s) return i;
      i = (i + 1) & mask;
    }
  }

  grow(): void {
    const slots = new StaticArray<i32>(this.slots.length << 1);
    const mask = slots.length - 1;
    for (let k = 1, n = this.values.length; k <= n; k++) {
      let i = hash(unchecked(this.values[k - 1])) & mask;
      while (unchecked(slots[i]) != 0) i = (i + 1) & mask;
      unchecked(slots[i] = k);
    }
    this.slots = slots;
  }
}

/** FNV-1a over the UTF-16 code units. */
function hash(s: string): i32 {
  let h: u32 = 0x811c9dc5;
  for (let i = 0, n = s.length; i < n; i++) h = (h ^ <u32>s.charCodeAt(i)) * 0x01000193;
  return <i32>h;
}
