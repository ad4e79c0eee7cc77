// The 5-layer merge of SPEC section 4: the layer that wins every leaf, and the entries of the union lists.

import { Items } from "./listitems";
import { Layer } from "./layer";
import { LayerKind } from "./precedence";
import { LEAVES, LeafId, LeafType, normalizeValue } from "../schema/schema";
import { DEFAULT_SOURCE, Source } from "../schema/valuesource";
import { Span } from "../json/span";

/** The defaults layer: every leaf but `presets` (whose absence means auto-detect). */
export function defaultLayer(cwd: Span): Layer {
  const layer = new Layer(LayerKind.Default, cwd);
  for (let i = 0; i < LeafId.Count; i++) {
    const leaf = unchecked(LEAVES[i]);
    if (i == LeafId.Presets) continue;
    if (leaf.isList()) layer.setEmptyList(i, DEFAULT_SOURCE);
    else if (leaf.type == LeafType.Bool) layer.setFlag(i, leaf.defaultText == "true", DEFAULT_SOURCE);
    else if (leaf.type == LeafType.Path || leaf.type == LeafType.File)
      layer.setValue(i, normalizeValue(i, leaf.defaultValue, cwd), DEFAULT_SOURCE);
    else layer.setValue(i, leaf.defaultValue, DEFAULT_SOURCE);
  }
  return layer;
}

/** The highest of `layers` (given highest first) that sets `leaf`, or null. */
export function topLayer(layers: Array<Layer>, leaf: LeafId): Layer | null {
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
  winners: StaticArray<Layer | null> = new StaticArray<Layer | null>(LeafId.Count);
  /** Union lists: every entry, lowest layer first, without duplicates (the origin of an entry is where it first came in). */
  entries: StaticArray<Items | null> = new StaticArray<Items | null>(LeafId.Count);

  constructor(layers: Array<Layer>) {
    this.layers = layers;
    for (let leaf = 0; leaf < LeafId.Count; leaf++) {
      if (unchecked(LEAVES[leaf]).isUnion()) this.union(leaf);
      else unchecked((this.winners[leaf] = topLayer(layers, leaf)));
    }
  }

  @inline winner(leaf: LeafId): Layer | null {
    return unchecked(this.winners[leaf]);
  }

  /** A union list's entries. */
  @inline entriesOf(leaf: LeafId): Items {
    return unchecked(this.entries[leaf])!;
  }

  /** A scalar leaf's value (an empty span when nothing sets it). */
  value(leaf: LeafId): Span {
    const layer = this.winner(leaf);
    return layer != null ? layer.value(leaf) : 0;
  }

  /** The source of a leaf's value. */
  source(leaf: LeafId): Source {
    const layer = this.winner(leaf);
    return layer != null ? layer.source(leaf) : DEFAULT_SOURCE;
  }

  private union(leaf: LeafId): void {
    const entries = new Items(LayerKind.Default);
    const layers = this.layers;
    let contributor: Layer | null = null;
    for (let i = layers.length - 1; i >= 0; i--) {
      const layer = unchecked(layers[i]);
      if (!layer.has(leaf) || layer.list(leaf).length == 0) continue;
      contributor = layer;
      entries.addAll(layer.list(leaf), layer.kind);
    }
    unchecked((this.entries[leaf] = entries));
    unchecked((this.winners[leaf] = contributor != null ? contributor : topLayer(layers, leaf)));
  }
}

/** The --exclude flag's globs, which win over every other layer in module selection. */
export function flagEntries(cli: Layer, leaf: LeafId): Items {
  return cli.has(leaf) ? cli.list(leaf) : new Items(LayerKind.Cli);
}
