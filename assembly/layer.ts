// A layer of the merge (flags, environment, config, a preset, defaults): what it sets for each leaf, and where from.
//
// A layer is a few flat tables indexed by leaf: values are byte spans (into the request, a decoded text, or a
// resolved path), so that setting one makes no string.

import { Source } from "./source";
import { Items } from "./items";
import { Span, spanOf } from "./span";
import { LEAF_COUNT } from "./schema";
import { words } from "./text";

export const LAYER_CLI: i32 = 0;
export const LAYER_ENV: i32 = 1;
export const LAYER_CONFIG: i32 = 2;
export const LAYER_PRESET: i32 = 3;
export const LAYER_DEFAULT: i32 = 4;

/** The layers' names, by LAYER_*, as messages and answers name them. */
export const LAYER_NAMES: Array<string> = words("cli env config preset default");
const LAYER_SPANS = new StaticArray<Span>(LAYER_NAMES.length);
for (let i = 0; i < LAYER_NAMES.length; i++) LAYER_SPANS[i] = spanOf(LAYER_NAMES[i]);

/** A layer's name as bytes. */
export function layerName(kind: i32): Span {
  return unchecked(LAYER_SPANS[kind]);
}

/** Everything one layer sets. */
export class Layer {
  kind: i32;
  /** The preset's name, for preset layers. */
  label: Span = 0;
  /** Relative paths in this layer resolve against this directory. */
  baseDir: Span;
  /** Bit `leaf` set when the layer sets the leaf. */
  sets: i32 = 0;
  /** Scalars: the value (booleans: 1 for true, 0 for false). */
  values: StaticArray<Span> = new StaticArray<Span>(LEAF_COUNT);
  /** The flag, variable, position, file or preset that set each leaf. */
  sources: StaticArray<Source | null> = new StaticArray<Source | null>(LEAF_COUNT);
  lists: StaticArray<Items | null> = new StaticArray<Items | null>(LEAF_COUNT);
  /** Preset layers: the file globs that make auto-detect pick the preset; null when it has none. */
  detect: Array<string> | null = null;

  constructor(kind: i32, baseDir: Span) {
    this.kind = kind;
    this.baseDir = baseDir;
  }

  @inline has(leaf: i32): bool {
    return (this.sets & (1 << leaf)) != 0;
  }

  @inline value(leaf: i32): Span {
    return unchecked(this.values[leaf]);
  }

  @inline flag(leaf: i32): bool {
    return unchecked(this.values[leaf]) != 0;
  }

  @inline source(leaf: i32): Source {
    return unchecked(this.sources[leaf])!;
  }

  @inline list(leaf: i32): Items {
    return unchecked(this.lists[leaf])!;
  }

  /** Records a scalar setting. */
  setValue(leaf: i32, value: Span, source: Source): void {
    this.sets |= 1 << leaf;
    unchecked(this.values[leaf] = value);
    unchecked(this.sources[leaf] = source);
  }

  setFlag(leaf: i32, value: bool, source: Source): void {
    this.setValue(leaf, value ? 1 : 0, source);
  }

  /**
   * Records a list, or adds its items to what the layer already holds for it (the `exclude` shorthand next to
   * `modules.exclude`): the setting keeps the source of the first list.
   */
  addList(leaf: i32, items: Items, source: Source): void {
    const list = unchecked(this.lists[leaf]);
    if (list == null) {
      this.sets |= 1 << leaf;
      unchecked(this.lists[leaf] = items);
      unchecked(this.sources[leaf] = source);
    } else {
      list.addAll(items, this.kind);
    }
  }

  /** Sets an empty list (a default). */
  setEmptyList(leaf: i32, source: Source): void {
    this.sets |= 1 << leaf;
    unchecked(this.lists[leaf] = NO_ITEMS);
    unchecked(this.sources[leaf] = source);
  }
}

// The defaults' empty lists: shared, as nothing adds to the defaults layer.
const NO_ITEMS = new Items(LAYER_DEFAULT);
