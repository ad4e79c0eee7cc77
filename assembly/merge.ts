// The 5-layer merge of SPEC section 4: the layer that wins every leaf, and the entries of the union lists.

import { LAYER_CLI, LAYER_DEFAULT, Layer, SpanList } from "./layer";
import { LEAF_COUNT, LEAF_PRESETS, LEAVES, TYPE_BOOL, TYPE_PATH, normalizeValue } from "./schema";
import { DEFAULT_SOURCE, Source } from "./source";
import { Span, SpanSet } from "./span";

/** The entries of a union list, lowest layer first, each with the layer (a LAYER_* kind) and the source that added it. */
export class Entries {
  values: Array<Span> = new Array<Span>();
  layers: Array<i32> = new Array<i32>();
  sources: Array<Source> = new Array<Source>();

  @inline get length(): i32 {
    return this.values.length;
  }

  /** Adds the items of `list`, set by a layer of kind `layer`. */
  addAll(list: SpanList, layer: i32): void {
    for (let i = 0, n = list.values.length; i < n; i++) {
      this.values.push(unchecked(list.values[i]));
      this.layers.push(layer);
      this.sources.push(unchecked(list.sources[i]));
    }
  }
}

/** The defaults layer: every leaf but `presets` (whose absence means auto-detect). */
export function defaultLayer(cwd: Span): Layer {
  const layer = new Layer(LAYER_DEFAULT, cwd);
  for (let i = 0; i < LEAF_COUNT; i++) {
    const leaf = unchecked(LEAVES[i]);
    if (i == LEAF_PRESETS) continue;
    if (leaf.isList()) layer.setEmptyList(i, DEFAULT_SOURCE);
    else if (leaf.type == TYPE_BOOL) layer.setFlag(i, leaf.defaultText == "true", DEFAULT_SOURCE);
    else if (leaf.type == TYPE_PATH) layer.setValue(i, normalizeValue(i, leaf.defaultValue, cwd), DEFAULT_SOURCE);
    else layer.setValue(i, leaf.defaultValue, DEFAULT_SOURCE);
  }
  return layer;
}

/** The highest of `layers` (given highest first) that sets `leaf`, or null. */
export function topLayer(layers: Array<Layer>, leaf: i32): Layer | null {
  for (let i = 0, n = layers.length; i < n; i++) if (unchecked(layers[i]).has(leaf)) return unchecked(layers[i]);
  return null;
}

/** The merge of layers given highest first. */
export class Merged {
  layers: Array<Layer>;
  /**
   * The layer each leaf's value and origin come from, or null when none sets it. For union lists, the highest
   * layer that contributed an entry (or, when none did, the highest that set the list).
   */
  winners: StaticArray<Layer | null> = new StaticArray<Layer | null>(LEAF_COUNT);
  /** Union lists: every entry, lowest layer first, without duplicates (the origin of an entry is where it first came in). */
  entries: StaticArray<Entries | null> = new StaticArray<Entries | null>(LEAF_COUNT);

  constructor(layers: Array<Layer>) {
    this.layers = layers;
    for (let leaf = 0; leaf < LEAF_COUNT; leaf++) {
      if (unchecked(LEAVES[leaf]).isUnion()) this.union(leaf);
      else unchecked(this.winners[leaf] = topLayer(layers, leaf));
    }
  }

  @inline winner(leaf: i32): Layer | null {
    return unchecked(this.winners[leaf]);
  }

  /** A union list's entries. */
  @inline entriesOf(leaf: i32): Entries {
    return unchecked(this.entries[leaf])!;
  }

  /** A scalar leaf's value (an empty span when nothing sets it). */
  value(leaf: i32): Span {
    const layer = this.winner(leaf);
    return layer != null ? layer.value(leaf) : 0;
  }

  /** The source of a leaf's value. */
  source(leaf: i32): Source {
    const layer = this.winner(leaf);
    return layer != null ? layer.source(leaf) : DEFAULT_SOURCE;
  }

  private union(leaf: i32): void {
    const entries = new Entries();
    const layers = this.layers;
    let contributor: Layer | null = null;
    let seen: SpanSet | null = null;
    for (let i = layers.length - 1; i >= 0; i--) {
      const layer = unchecked(layers[i]);
      if (!layer.has(leaf)) continue;
      const list = layer.list(leaf);
      const values = list.values;
      if (values.length == 0) continue;
      contributor = layer;
      // The first layer's items have no duplicates among themselves: a set is needed only from the second on.
      if (seen == null) {
        seen = new SpanSet();
        for (let j = 0; j < values.length; j++) seen.add(unchecked(values[j]));
        entries.addAll(list, layer.kind);
        continue;
      }
      for (let j = 0; j < values.length; j++) {
        if (!seen.add(unchecked(values[j]))) continue;
        entries.values.push(unchecked(values[j]));
        entries.layers.push(layer.kind);
        entries.sources.push(unchecked(list.sources[j]));
      }
    }
    unchecked(this.entries[leaf] = entries);
    unchecked(this.winners[leaf] = contributor != null ? contributor : topLayer(layers, leaf));
  }
}

/** The --exclude flag's globs, which win over every other layer in module selection. */
export function flagEntries(cli: Layer, leaf: i32): Entries {
  const entries = new Entries();
  if (cli.has(leaf)) entries.addAll(cli.list(leaf), LAYER_CLI);
  return entries;
}
