// The 5-layer merge of SPEC section 4: the winner of every leaf, union lists, and the override chain.

import { LAYER_DEFAULT, Layer, Setting } from "./layer";
import { LEAF_PRESETS, LEAVES, TYPE_BOOL, TYPE_PATH, TYPE_SCHEMA, normalizeValue } from "./schema";

/** One entry of a union list, with where it came from. */
export class Entry {
  constructor(public value: string, public layer: string, public source: string) {}
}

/** One layer's link in a leaf's override chain: what it set, and where. */
export class Link {
  constructor(public layer: string, public source: string, public setting: Setting) {}
}

// Leaves that are not union lists share this empty list of entries; union lists get their own.
const NO_ENTRIES = new Array<Entry>();

/** The merged result for one leaf. */
export class Resolved {
  leaf: i32 = 0;
  /** The winning layer: for union lists, the highest layer that contributed an entry. */
  layer: string = LAYER_DEFAULT;
  source: string = "default";
  /** The winning value (scalars and replaced lists). */
  setting: Setting | null = null;
  /** Union lists: every entry, lowest layer first, without duplicates. */
  entries: Array<Entry> = NO_ENTRIES;
  /** Every layer that set the leaf, highest first. */
  chain: Array<Link> = new Array<Link>();

  /** The value as a list (union lists: the entries). */
  list(): Array<string> {
    if (LEAVES[this.leaf].isUnion()) {
      const out = new Array<string>();
      for (let i = 0; i < this.entries.length; i++) out.push(this.entries[i].value);
      return out;
    }
    const s = this.setting;
    return s == null ? new Array<string>() : s.list;
  }

  text(): string {
    const s = this.setting;
    return s == null ? "" : s.str;
  }

  flag(): bool {
    const s = this.setting;
    return s != null && s.flag;
  }
}

/** The defaults layer: every leaf but `presets` (whose absence means auto-detect). */
export function defaultLayer(cwd: string): Layer {
  const layer = new Layer(LAYER_DEFAULT, cwd);
  for (let i = 0; i < LEAVES.length; i++) {
    const leaf = LEAVES[i];
    if (i == LEAF_PRESETS) continue;
    if (leaf.isList()) layer.addList(i, new Array<string>(), new Array<string>(), "default");
    else if (leaf.type == TYPE_BOOL) layer.setFlag(i, leaf.defaultText == "true", "default");
    else if (leaf.type == TYPE_PATH) layer.setText(i, normalizeValue(i, leaf.defaultText, cwd), "default");
    else if (leaf.type == TYPE_SCHEMA) layer.setText(i, "1", "default");
    else layer.setText(i, leaf.defaultText, "default");
  }
  return layer;
}

/** Merges layers given highest first. */
export function mergeLayers(layers: Array<Layer>): Array<Resolved> {
  const out = new Array<Resolved>(LEAVES.length);
  for (let i = 0; i < LEAVES.length; i++) out[i] = mergeLeaf(layers, i);
  return out;
}

/** Merges one leaf over layers given highest first. */
export function mergeLeaf(layers: Array<Layer>, leaf: i32): Resolved {
  const r = new Resolved();
  r.leaf = leaf;
  for (let i = 0; i < layers.length; i++) {
    const s = layers[i].get(leaf);
    if (s != null) r.chain.push(new Link(layers[i].name, s.source, s));
  }
  if (!LEAVES[leaf].isUnion()) {
    if (r.chain.length > 0) {
      const top = r.chain[0];
      r.layer = top.layer;
      r.source = top.source;
      r.setting = top.setting;
    }
    return r;
  }
  // Union: lowest layer first, each entry once, keeping the origin of its first appearance.
  r.entries = new Array<Entry>();
  let contributor: Link | null = null;
  const seen = new Set<string>();
  for (let i = r.chain.length - 1; i >= 0; i--) {
    const link = r.chain[i];
    const s = link.setting;
    if (s.list.length > 0) contributor = link;
    for (let j = 0; j < s.list.length; j++) {
      const value = s.list[j];
      if (seen.has(value)) continue;
      seen.add(value);
      r.entries.push(new Entry(value, link.layer, s.sources[j]));
    }
  }
  if (contributor == null && r.chain.length > 0) contributor = r.chain[0];
  if (contributor != null) {
    r.layer = contributor.layer;
    r.source = contributor.source;
    r.setting = contributor.setting;
  }
  return r;
}
