// Writing resolve's answers: the final one (config, origins, invalid keys, explain, presets, plan) and the stages that ask the host for more.

import { Diagnostic, SYNTAX_ERROR, Warning } from "./diagnostic";
import { LAYER_DEFAULT } from "./layer";
import { Resolved } from "./merge";
import { PresetChoice } from "./presets";
import { beginStage, writeDiagnostics, writeSetting, writeWarnings } from "./response";
import { LEAF_PRESETS, LEAVES, isPresetPath } from "./schema";
import { Plan } from "./select";
import { JsonWriter } from "./writer";

// Each leaf's group ("" at the top level) and its name in the group, split once from the dotted keys.
const LEAF_GROUPS = new Array<string>();
const LEAF_NAMES = new Array<string>();
for (let i = 0; i < LEAVES.length; i++) {
  const key = LEAVES[i].key;
  const dot = key.indexOf(".");
  LEAF_GROUPS.push(dot < 0 ? "" : key.slice(0, dot));
  LEAF_NAMES.push(key.slice(dot + 1));
}

/**
 * Writes the answer after its opening: the config, every leaf's origin (with each union-list entry's),
 * the invalid keys, explain, the presets, the plan, errors and warnings. `applied` is null when the presets
 * could not be worked out (problems came first, and the host would have had to load files).
 */
export function writeResolved(
  w: JsonWriter, merged: Array<Resolved>, auto: bool, autoNames: Array<string>, applied: Array<PresetChoice> | null,
  skipped: Array<PresetChoice>, plan: Plan | null, errors: Array<Diagnostic>, warnings: Array<Warning>, explain: bool,
): void {
  // The config, nested by the dotted keys: `hooks.onFailure` is `onFailure` in the `hooks` object.
  w.key("config").beginObject();
  let group = "";
  for (let i = 0; i < LEAVES.length; i++) {
    const g = LEAF_GROUPS[i];
    if (g != group) {
      if (group.length > 0) w.endObject();
      if (g.length > 0) w.key(g).beginObject();
      group = g;
    }
    w.key(LEAF_NAMES[i]);
    writeValue(w, merged[i], auto, autoNames);
  }
  if (group.length > 0) w.endObject();
  w.endObject();

  // A decision record of SPEC section 7 is a leaf's value in `config` with its origin here: hosts derive them.
  w.key("origins").beginObject();
  for (let i = 0; i < LEAVES.length; i++) {
    w.key(LEAVES[i].key).beginObject();
    writeOrigin(w, merged[i], auto);
    if (LEAVES[i].isUnion()) {
      // One origin per entry of the list in `config`, in the same order.
      w.key("entries").beginArray();
      const entries = merged[i].entries;
      for (let j = 0; j < entries.length; j++) {
        w.beginObject();
        writeLayerSource(w, entries[j].layer, entries[j].source);
        w.endObject();
      }
      w.endArray();
    }
    w.endObject();
  }
  w.endObject();

  if (errors.length > 0) writeInvalid(w, errors);

  // Every layer that set each key, the winner first, with the values that were overridden: the largest
  // part of the answer, which only `dropkit config --explain` reads, so it is written only when asked for.
  if (explain) writeExplain(w, merged, auto, autoNames);

  if (applied != null) {
    w.key("presets").beginObject();
    w.field("mode", auto ? "auto" : "list");
    w.key("applied");
    writeApplied(w, applied);
    w.key("skipped");
    writeApplied(w, skipped);
    w.endObject();
  }

  if (plan != null) writePlan(w, plan);
  writeDiagnostics(w, "errors", errors);
  writeWarnings(w, warnings);
  w.endObject();
}

/**
 * `invalid`: the leaves that a problem is about, in the order of LEAVES. The value `config` shows for such
 * a key is what the other layers give meanwhile. A text that does not parse sets nothing and marks nothing.
 */
function writeInvalid(w: JsonWriter, errors: Array<Diagnostic>): void {
  w.key("invalid").beginArray();
  for (let i = 0; i < LEAVES.length; i++) {
    for (let j = 0; j < errors.length; j++) {
      if (errors[j].name != SYNTAX_ERROR && isAbout(errors[j].path, LEAVES[i].key)) {
        w.string(LEAVES[i].key);
        break;
      }
    }
  }
  w.endArray();
}

/** Whether a problem at `path` is about the leaf `key`: the leaf, an item of it, the group holding it, or the `exclude` shorthand. */
function isAbout(path: string, key: string): bool {
  if (key == "modules.exclude" && (path == "exclude" || path.startsWith("exclude["))) return true;
  if (path == key || (path.startsWith(key) && path.charCodeAt(key.length) == 0x5b)) return true;
  return path.length > 0 && path.length < key.length && key.startsWith(path) && key.charCodeAt(path.length) == 0x2e;
}

function writeExplain(w: JsonWriter, merged: Array<Resolved>, auto: bool, autoNames: Array<string>): void {
  w.key("explain").beginObject();
  for (let i = 0; i < LEAVES.length; i++) {
    w.key(LEAVES[i].key).beginArray();
    const chain = merged[i].chain;
    for (let j = 0; j < chain.length; j++) {
      w.beginObject();
      writeLayerSource(w, chain[j].layer, chain[j].source);
      w.key("value");
      writeSetting(w, i, chain[j].setting);
      w.endObject();
    }
    if (i == LEAF_PRESETS && auto) {
      w.beginObject();
      writeOrigin(w, merged[i], auto);
      w.key("value").stringArray(autoNames);
      w.endObject();
    }
    w.endArray();
  }
  w.endObject();
}

function writeValue(w: JsonWriter, r: Resolved, auto: bool, autoNames: Array<string>): void {
  if (r.leaf == LEAF_PRESETS && auto) {
    w.stringArray(autoNames);
    return;
  }
  if (LEAVES[r.leaf].isUnion()) {
    w.stringArray(r.list());
    return;
  }
  writeSetting(w, r.leaf, r.setting!);
}

function writeOrigin(w: JsonWriter, r: Resolved, auto: bool): void {
  const detected = r.leaf == LEAF_PRESETS && auto;
  writeLayerSource(w, detected ? LAYER_DEFAULT : r.layer, detected ? "auto-detect" : r.source);
}

/** The `"layer"` and `"source"` members that origins, entries, the explain chain and plan decisions share. */
function writeLayerSource(w: JsonWriter, layer: string, source: string): void {
  w.field("layer", layer);
  w.field("source", source);
}

function writeApplied(w: JsonWriter, list: Array<PresetChoice>): void {
  w.beginArray();
  for (let i = 0; i < list.length; i++) {
    const a = list[i];
    w.beginObject();
    w.field("name", a.layer.label);
    w.field("source", a.source);
    w.field("reason", a.reason);
    if (a.glob.length > 0) w.field("glob", a.glob);
    w.endObject();
  }
  w.endArray();
}

function writePlan(w: JsonWriter, plan: Plan): void {
  w.key("plan").beginObject();
  w.key("theme").beginObject();
  w.key("file");
  if (plan.themeFile.length > 0) w.string(plan.themeFile);
  else w.null();
  w.key("path");
  if (plan.themePath.length > 0) w.string(plan.themePath);
  else w.null();
  w.field("reason", plan.themeReason);
  w.key("alternatives").stringArray(plan.themeAlternatives);
  w.endObject();
  const selected = new Array<string>();
  const excluded = new Array<string>();
  for (let i = 0; i < plan.modules.length; i++) {
    if (plan.modules[i].selected) selected.push(plan.modules[i].name);
    else excluded.push(plan.modules[i].name);
  }
  w.key("modules").stringArray(selected);
  w.key("excluded").stringArray(excluded);
  w.key("decisions").beginArray();
  for (let i = 0; i < plan.modules.length; i++) {
    const d = plan.modules[i];
    w.beginObject();
    w.field("name", d.name);
    w.field("file", d.file);
    w.key("selected").bool(d.selected);
    w.field("reason", d.reason);
    if (d.glob.length > 0) {
      w.field("glob", d.glob);
      writeLayerSource(w, d.layer, d.source);
    }
    w.endObject();
  }
  w.endArray();
  w.endObject();
}

export function writeNeedPresets(w: JsonWriter, auto: bool, listed: Resolved, searchPath: Array<string>, logFormat: string, warnings: Array<Warning>): void {
  beginStage(w, true, "presets", logFormat);
  w.key("needs").beginObject();
  w.field("mode", auto ? "auto" : "list");
  w.key("presets").beginArray();
  const entries = listed.list();
  for (let i = 0; i < entries.length; i++) {
    w.beginObject();
    w.field("ref", entries[i]);
    w.field("kind", isPresetPath(entries[i]) ? "path" : "name");
    w.endObject();
  }
  w.endArray();
  w.key("searchPath").stringArray(searchPath);
  w.endObject();
  writeWarnings(w, warnings);
  w.endObject();
}

export function writeNeedDetect(w: JsonWriter, candidates: Array<PresetChoice>, logFormat: string, warnings: Array<Warning>): void {
  beginStage(w, true, "detect", logFormat);
  w.key("needs").beginObject();
  w.key("detect").beginArray();
  for (let i = 0; i < candidates.length; i++) {
    const detect = candidates[i].layer.detect;
    if (detect == null) continue;
    w.beginObject();
    w.field("id", candidates[i].source);
    w.field("name", candidates[i].layer.label);
    w.key("globs").stringArray(detect);
    w.endObject();
  }
  w.endArray();
  w.endObject();
  writeWarnings(w, warnings);
  w.endObject();
}
