// A layer of the merge (flags, environment, config, a preset, defaults): what it sets for each leaf, and where from.
//
// A layer is a few flat tables indexed by leaf: values are byte spans (into the request, a decoded text, or a
// resolved path), so that setting one makes no string.

import { Source } from "../schema/valuesource";
import { Items } from "./listitems";
import { Span } from "../json/span";
import { LeafId } from "../schema/schema";
import { LayerKind } from "./precedence";

/** Everything one layer sets. */
export class Layer {
  kind: LayerKind;
  /** The preset's name, for preset layers. */
  label: Span = 0;
  /** Relative paths in this layer resolve against this directory. */
  baseDir: Span;
  /** Bit `leaf` set when the layer sets the leaf. */
  sets: i32 = 0;
  /** Scalars: the value (booleans: 1 for true, 0 for false). */
  values: StaticArray<Span> = new StaticArray<Span>(LeafId.Count);
  /** The flag, variable, position, file or preset that set each leaf. */
  sources: StaticArray<Source | null> = new StaticArray<Source | null>(LeafId.Count);
  lists: StaticArray<Items | null> = new StaticArray<Items | null>(LeafId.Count);
  /** Whether this is a bundled preset's layer: its module globs are dropkit's, not the user's, and stay quiet when they match nothing. */
  bundled: bool = false;
  /** Preset layers: the file globs that make auto-detect pick the preset; null when it has none. */
  detect: Array<string> | null = null;

  constructor(kind: LayerKind, baseDir: Span) {
    this.kind = kind;
    this.baseDir = baseDir;
  }

  @inline has(leaf: LeafId): bool {
    return (this.sets & (1 << leaf)) != 0;
  }

  @inline value(leaf: LeafId): Span {
    return unchecked(this.values[leaf]);
  }

  @inline flag(leaf: LeafId): bool {
    return unchecked(this.values[leaf]) != 0;
  }

  @inline source(leaf: LeafId): Source {
    return unchecked(this.sources[leaf])!;
  }

  @inline list(leaf: LeafId): Items {
    return unchecked(this.lists[leaf])!;
  }

  /** Records a scalar setting. */
  setValue(leaf: LeafId, value: Span, source: Source): void {
    this.sets |= 1 << leaf;
    unchecked((this.values[leaf] = value));
    unchecked((this.sources[leaf] = source));
  }

  setFlag(leaf: LeafId, value: bool, source: Source): void {
    this.setValue(leaf, value ? 1 : 0, source);
  }

  /**
   * Records a list, or adds its items to what the layer already holds for it (the `exclude` shorthand next to
   * `modules.exclude`): the setting keeps the source of the first list.
   */
  addList(leaf: LeafId, items: Items, source: Source): void {
    const list = unchecked(this.lists[leaf]);
    if (list == null) {
      this.sets |= 1 << leaf;
      unchecked((this.lists[leaf] = items));
      unchecked((this.sources[leaf] = source));
    } else {
      list.addAll(items, this.kind);
    }
  }

  /** Sets an empty list (a default). */
  setEmptyList(leaf: LeafId, source: Source): void {
    this.sets |= 1 << leaf;
    unchecked((this.lists[leaf] = NO_ITEMS));
    unchecked((this.sources[leaf] = source));
  }
}

// The defaults' empty lists: shared, as nothing adds to the defaults layer.
const NO_ITEMS = new Items(LayerKind.Default);
