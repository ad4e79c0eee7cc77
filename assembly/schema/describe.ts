// The `schema` op's answer: the schema's own table (LEAVES and TOP) as data, which hosts generate their descriptions from.

import { JsonWriter } from "../json/writer";
import { IN_CONFIG, IN_PRESET, LEAF_TYPE_NAMES, LEAVES, LeafType, TOP, TOP_KIND_NAMES, TopKind } from "./schema";

/** Writes every leaf (key, type, variable, choices, default, merge policy, description, values) and every top-level key. */
export function writeSchema(w: JsonWriter): void {
  w.beginObject();
  w.key("ok").bool(true);
  w.key("leaves").beginArray();
  for (let i = 0; i < LEAVES.length; i++) {
    const leaf = unchecked(LEAVES[i]);
    w.beginObject();
    w.field("key", leaf.key);
    w.field("type", LEAF_TYPE_NAMES[leaf.type]);
    w.key("env");
    if (leaf.env.length > 0) w.string(leaf.env);
    else w.null();
    w.key("choices").stringArray(leaf.choices);
    w.key("default");
    // The defaults layer leaves `presets` unset, which means auto-detect (merge.ts): it has no default value.
    if (leaf.type == LeafType.Presets) w.null();
    else if (leaf.isList()) w.beginArray().endArray();
    else if (leaf.type == LeafType.Schema) w.numberText(leaf.defaultText);
    else if (leaf.type == LeafType.Bool) w.bool(leaf.defaultText == "true");
    else w.string(leaf.defaultText);
    w.field("merge", leaf.isUnion() ? "union" : "replace");
    w.field("description", leaf.description);
    w.key("values").beginArray();
    for (let v = 0; v < leaf.values.length; v += 2) {
      w.beginObject().key("value");
      if (leaf.type == LeafType.Bool) w.bool(leaf.values[v] == "true");
      else w.string(leaf.values[v]);
      w.field("description", leaf.values[v + 1]).endObject();
    }
    w.endArray().endObject();
  }
  w.endArray();
  w.key("keys").beginArray();
  for (let i = 0; i < TOP.length; i++) {
    const entry = unchecked(TOP[i]);
    w.beginObject();
    w.field("key", entry.key);
    w.field("kind", TOP_KIND_NAMES[entry.kind]);
    w.key("config").bool((entry.documents & IN_CONFIG) != 0);
    w.key("preset").bool((entry.documents & IN_PRESET) != 0);
    const sets = entry.kind == TopKind.Leaf || entry.kind == TopKind.Shorthand;
    if (sets) w.field("leaf", unchecked(LEAVES[entry.leaf]).key);
    w.field("description", entry.kind == TopKind.Leaf ? unchecked(LEAVES[entry.leaf]).description : entry.description);
    w.endObject();
  }
  w.endArray();
  w.endObject();
}
