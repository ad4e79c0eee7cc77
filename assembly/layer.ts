// A layer of the merge (flags, environment, config, a preset, defaults): what it sets for each leaf, and where from.

import { LEAVES } from "./schema";

export const LAYER_CLI = "cli";
export const LAYER_ENV = "env";
export const LAYER_CONFIG = "config";
export const LAYER_PRESET = "preset";
export const LAYER_DEFAULT = "default";

// Scalar settings share these empty lists (nothing adds to them); list settings get their own (`addList`).
const NO_STRINGS = new Array<string>();

/** A value that one layer sets for one leaf, with where it came from. */
export class Setting {
  leaf: i32 = 0;
  /** Scalars: the value (booleans as "true" or "false"). */
  str: string = "";
  flag: bool = false;
  list: Array<string> = NO_STRINGS;
  /** Lists: the source of each entry. */
  sources: Array<string> = NO_STRINGS;
  /** The flag, variable, `file:line:column`, file or preset that set it. */
  source: string = "";
}

/** Everything one layer sets. */
export class Layer {
  name: string;
  /** The preset's name, for preset layers. */
  label: string = "";
  /** Relative paths in this layer resolve against this directory. */
  baseDir: string;
  settings: StaticArray<Setting | null> = new StaticArray<Setting | null>(LEAVES.length);
  /** Preset layers: the file globs that make auto-detect pick the preset; null when it has none. */
  detect: Array<string> | null = null;

  constructor(name: string, baseDir: string) {
    this.name = name;
    this.baseDir = baseDir;
  }

  get(leaf: i32): Setting | null {
    return unchecked(this.settings[leaf]);
  }

  /** Records a scalar setting. */
  setText(leaf: i32, value: string, source: string): Setting {
    const s = new Setting();
    s.leaf = leaf;
    s.str = value;
    s.source = source;
    unchecked(this.settings[leaf] = s);
    return s;
  }

  setFlag(leaf: i32, value: bool, source: string): Setting {
    const s = this.setText(leaf, value ? "true" : "false", source);
    s.flag = value;
    return s;
  }

  /** Records a list, or for union lists adds to what the layer already holds (the `exclude` shorthand), without duplicates. */
  addList(leaf: i32, values: Array<string>, sources: Array<string>, source: string): Setting {
    let s = unchecked(this.settings[leaf]);
    if (s == null) {
      s = new Setting();
      s.leaf = leaf;
      s.source = source;
      s.list = new Array<string>();
      s.sources = new Array<string>();
      unchecked(this.settings[leaf] = s);
    }
    if (values.length == 0) return s;
    // A set, not list.includes: a config may hold tens of thousands of globs.
    const seen = new Set<string>();
    for (let i = 0; i < s.list.length; i++) seen.add(s.list[i]);
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (seen.has(value)) continue;
      seen.add(value);
      s.list.push(value);
      s.sources.push(sources[i]);
    }
    return s;
  }
}
