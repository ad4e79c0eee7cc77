// The items of a list: values (byte spans) without duplicates, each with where it was set and by which layer.
//
// An item is sixteen bytes of one growing block (its value, its source, its layer) rather than an entry in three
// arrays: a list costs two allocations, and adding to it no call to grow an array.

import { LayerKind } from "./precedence";
import { Source } from "../schema/valuesource";
import { Span, hashBytes, sameSpan, spanLen, spanPtr } from "../json/span";

const ITEM_BYTES: usize = 16;
/** Up to this many items a list compares a new one with each of them; past it, it keeps a hash index. */
const LINEAR_ITEMS = 16;

export class Items {
  /** The layer (a LayerKind) of a list one layer sets; a merged list keeps each item's own. */
  kind: LayerKind;
  length: i32 = 0;
  private items: usize = 0;
  private capacity: i32 = 0;
  // Open addressing: a slot holds an item's index + 1, or 0 when it is empty; null while the list is short.
  private slots: StaticArray<i32> | null = null;

  constructor(kind: LayerKind) {
    this.kind = kind;
  }

  @inline value(i: i32): Span {
    return load<u64>(this.items + <usize>i * ITEM_BYTES);
  }

  @inline source(i: i32): Source {
    return changetype<Source>(load<usize>(this.items + <usize>i * ITEM_BYTES, 8));
  }

  /** The layer item `i` came from. */
  @inline layerOf(i: i32): LayerKind {
    return load<i32>(this.items + <usize>i * ITEM_BYTES, 12);
  }

  /** The values, as an array (for the few places that want one). */
  values(): Array<Span> {
    const out = new Array<Span>(this.length);
    for (let i = 0, n = this.length; i < n; i++) unchecked((out[i] = this.value(i)));
    return out;
  }

  /**
   * Adds an item (set by `layer`, by default the list's own) unless the list has its value: the first one stays,
   * with its source. Returns whether it was added.
   */
  add(value: Span, source: Source, layer: LayerKind = -1): bool {
    const slots = this.slots;
    let slot = -1;
    if (slots == null) {
      for (let i = 0, n = this.length; i < n; i++) if (sameSpan(this.value(i), value)) return false;
    } else {
      slot = this.probe(slots, value);
      if (unchecked(slots[slot]) != 0) return false;
    }
    const i = this.length;
    if (i == this.capacity) {
      // The list is often the newest block of the heap, so this grows in place.
      this.capacity = max(8, i << 1);
      const bytes = <usize>this.capacity * ITEM_BYTES;
      this.items = this.items == 0 ? __alloc(bytes) : __realloc(this.items, bytes);
    }
    const at = this.items + <usize>i * ITEM_BYTES;
    store<u64>(at, value);
    store<usize>(at, changetype<usize>(source), 8);
    store<i32>(at, layer < 0 ? this.kind : layer, 12);
    this.length = i + 1;
    if (slots != null) {
      unchecked((slots[slot] = i + 1));
      // At most half full, so that probes stay short.
      if ((i + 1) << 1 > slots.length) this.reindex(slots.length << 1);
    } else if (i + 1 > LINEAR_ITEMS) {
      this.reindex(64);
    }
    return true;
  }

  /** Whether the list keeps a hash index (past LINEAR_ITEMS items), so that `indexOf` is one probe, not a scan. */
  @inline get indexed(): bool {
    return this.slots != null;
  }

  /** The index of the item whose value is `value`, or -1: by the hash index past LINEAR_ITEMS items. */
  indexOf(value: Span): i32 {
    const slots = this.slots;
    if (slots == null) {
      for (let i = 0, n = this.length; i < n; i++) if (sameSpan(this.value(i), value)) return i;
      return -1;
    }
    return unchecked(slots[this.probe(slots, value)]) - 1;
  }

  /** The slot of the hash index that holds `value`'s item, or the empty slot where it would go. */
  @inline private probe(slots: StaticArray<i32>, value: Span): i32 {
    const mask = slots.length - 1;
    let slot = <i32>hashBytes(spanPtr(value), spanLen(value)) & mask;
    for (let k = unchecked(slots[slot]); k != 0; k = unchecked(slots[slot])) {
      if (sameSpan(this.value(k - 1), value)) break;
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  /** Adds every item of `other` that this list does not have, as set by layer `layer`. */
  addAll(other: Items, layer: LayerKind): void {
    for (let i = 0, n = other.length; i < n; i++) this.add(other.value(i), other.source(i), layer);
  }

  private reindex(size: i32): void {
    const slots = new StaticArray<i32>(size);
    const mask = size - 1;
    for (let k = 0, n = this.length; k < n; k++) {
      const value = this.value(k);
      let i = <i32>hashBytes(spanPtr(value), spanLen(value)) & mask;
      while (unchecked(slots[i]) != 0) i = (i + 1) & mask;
      unchecked((slots[i] = k + 1));
    }
    this.slots = slots;
  }
}
