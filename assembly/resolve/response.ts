// The resolve op's responses: the final one (config, origins, invalid keys, explain, presets, plan) and the stages that
// ask the host for more.
//
// Everything is written from the merge's tables: values and sources as their bytes, and each reason as its
// sentence straight into the answer, so that no string is made for any of them.

import { OPEN_BRACKET, PERIOD } from "../json/chars";
import { Diagnostic, SYNTAX_ERROR, Warning, writeDiagnostics, writeWarnings } from "../schema/diagnostic";
import { LAYER_NAMES, LayerKind } from "./precedence";
import { Layer } from "./layer";
import { Items } from "./listitems";
import { Merged } from "./merge";
import { PresetChoice } from "./presets";
import { LEAVES, LeafId, LeafType, isPresetPath } from "../schema/schema";
import { writeListedReason, writeModuleReason, writeThemeReason } from "./reasons";
import { Plan } from "./select";
import { DEFAULT_SOURCE, Source } from "../schema/valuesource";
import { Span, spanLen, spanOf } from "../json/span";
import { JsonWriter, keyBytes } from "../json/writer";

// Each leaf's group ("" at the top level) and its name in the group, split once from the dotted keys; the keys an
// answer writes for every leaf, as bytes (`"hooks":`, `"onFailure":`, `"hooks.onFailure":`).
const LEAF_GROUPS = new Array<string>();
const GROUP_KEYS = new Array<Span>();
const NAME_KEYS = new Array<Span>();
const LEAF_KEYS = new Array<Span>();
for (let i = 0; i < LEAVES.length; i++) {
  const key = LEAVES[i].key;
  const dot = key.indexOf(".");
  LEAF_GROUPS.push(dot < 0 ? "" : key.slice(0, dot));
  GROUP_KEYS.push(dot < 0 ? 0 : keyBytes(key.slice(0, dot)));
  NAME_KEYS.push(keyBytes(key.slice(dot + 1)));
  LEAF_KEYS.push(keyBytes(key));
}

// `"layer":"cli","source":` for each layer: the two members every origin, entry and decision starts or ends with.
const LAYER_SOURCE = new Array<Span>();
for (let i = 0; i < LAYER_NAMES.length; i++) LAYER_SOURCE.push(spanOf('"layer":"' + LAYER_NAMES[i] + '","source":'));
const KEY_ENTRIES = keyBytes("entries");
const KEY_NAME = keyBytes("name");
const KEY_FILE = keyBytes("file");
const KEY_SELECTED = keyBytes("selected");
const KEY_REASON = keyBytes("reason");
const KEY_GLOB = keyBytes("glob");

/** The source of the `presets` leaf in auto mode. */
const AUTO_DETECT = new Source(spanOf("auto-detect"));

/** What the final answer of `resolve` is written from. */
export class Resolved {
  merged: Merged;
  /** Whether the presets were detected (no layer lists them); `autoNames` are then the ones applied. */
  auto: bool;
  autoNames: Array<Span>;
  /** null when the presets could not be worked out (problems came first, and the host would have had to load files). */
  applied: Array<PresetChoice> | null;
  skipped: Array<PresetChoice>;
  /** null when the request gives no archives. */
  plan: Plan | null;
  errors: Array<Diagnostic>;
  warnings: Array<Warning>;
  /** Which chains the answer's `explain` holds, which only `dropkit config --explain` reads: -1 none, `LeafId.Count` every key's, else one key's. */
  explain: i32;
}

/**
 * Writes the answer after its opening: the config, every leaf's origin (with each union-list entry's),
 * the invalid keys, explain, the presets, the plan, errors and warnings.
 */
export function writeResolved(w: JsonWriter, resolved: Resolved): void {
  const merged = resolved.merged;
  const auto = resolved.auto;
  const autoNames = resolved.autoNames;
  const errors = resolved.errors;
  // The config, nested by the dotted keys: `hooks.onFailure` is `onFailure` in the `hooks` object.
  w.key("config").beginObject();
  let group = "";
  for (let i = 0; i < LeafId.Count; i++) {
    const g = unchecked(LEAF_GROUPS[i]);
    if (g != group) {
      if (group.length > 0) w.endObject();
      if (g.length > 0) w.keys(unchecked(GROUP_KEYS[i])).beginObject();
      group = g;
    }
    w.keys(unchecked(NAME_KEYS[i]));
    writeValue(w, merged, i, auto, autoNames);
  }
  if (group.length > 0) w.endObject();
  w.endObject();

  // A decision record of SPEC section 7 is a leaf's value in `config` with its origin here: hosts derive them.
  w.key("origins").beginObject();
  for (let i = 0; i < LeafId.Count; i++) {
    w.keys(unchecked(LEAF_KEYS[i])).beginObject();
    writeOrigin(w, merged, i, auto);
    if (unchecked(LEAVES[i]).isUnion()) {
      // One origin per entry of the list in `config`, in the same order.
      w.keys(KEY_ENTRIES).beginArray();
      const entries = merged.entriesOf(i);
      for (let j = 0; j < entries.length; j++) {
        w.beginObject();
        writeLayerSource(w, entries.layerOf(j), entries.source(j));
        w.endObject();
      }
      w.endArray();
    }
    w.endObject();
  }
  w.endObject();

  if (errors.length > 0) writeInvalid(w, errors);

  // Every layer that set each key, the winner first, with the values that were overridden: the largest
  // part of the resolved, which only `dropkit config --explain` reads, so it is written only when asked for.
  if (resolved.explain >= 0) writeExplain(w, merged, auto, autoNames, resolved.explain);

  const applied = resolved.applied;
  if (applied != null) {
    w.key("presets").beginObject();
    w.field("mode", auto ? "auto" : "list");
    w.key("applied");
    writeApplied(w, applied);
    w.key("skipped");
    writeApplied(w, resolved.skipped);
    w.endObject();
  }

  const plan = resolved.plan;
  if (plan != null) writePlan(w, plan);
  writeDiagnostics(w, "errors", errors);
  writeWarnings(w, resolved.warnings);
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
  if (path == key || (path.startsWith(key) && path.charCodeAt(key.length) == OPEN_BRACKET)) return true;
  return path.length > 0 && path.length < key.length && key.startsWith(path) && key.charCodeAt(path.length) == PERIOD;
}

/** `explain`: the chain of leaf `only`, or of every leaf for `LeafId.Count`. */
function writeExplain(w: JsonWriter, merged: Merged, auto: bool, autoNames: Array<Span>, only: i32): void {
  w.key("explain").beginObject();
  const layers = merged.layers;
  const all = only == LeafId.Count;
  const first = all ? 0 : only;
  const end = all ? <i32>LeafId.Count : only + 1;
  for (let i = first; i < end; i++) {
    w.key(LEAVES[i].key).beginArray();
    for (let j = 0; j < layers.length; j++) {
      const layer = layers[j];
      if (!layer.has(i)) continue;
      w.beginObject();
      writeLayerSource(w, layer.kind, layer.source(i));
      w.key("value");
      writeSetting(w, i, layer);
      w.endObject();
    }
    if (i == LeafId.Presets && auto) {
      w.beginObject();
      writeOrigin(w, merged, i, auto);
      w.key("value").spanArray(autoNames);
      w.endObject();
    }
    w.endArray();
  }
  w.endObject();
}

function writeValue(w: JsonWriter, merged: Merged, leaf: LeafId, auto: bool, autoNames: Array<Span>): void {
  if (leaf == LeafId.Presets && auto) {
    w.spanArray(autoNames);
    return;
  }
  if (unchecked(LEAVES[leaf]).isUnion()) {
    writeValues(w, merged.entriesOf(leaf));
    return;
  }
  writeSetting(w, leaf, merged.winner(leaf)!);
}

function writeOrigin(w: JsonWriter, merged: Merged, leaf: LeafId, auto: bool): void {
  if (leaf == LeafId.Presets && auto) {
    writeLayerSource(w, LayerKind.Default, AUTO_DETECT);
    return;
  }
  const layer = merged.winner(leaf);
  writeLayerSource(w, layer != null ? layer.kind : LayerKind.Default, layer != null ? layer.source(leaf) : DEFAULT_SOURCE);
}

/** The `"layer"` and `"source"` members that origins, entries, the explain chain and plan decisions share. */
function writeLayerSource(w: JsonWriter, layer: LayerKind, source: Source): void {
  w.keys(unchecked(LAYER_SOURCE[layer]));
  source.write(w);
}

function writeApplied(w: JsonWriter, list: Array<PresetChoice>): void {
  w.beginArray();
  for (let i = 0; i < list.length; i++) {
    const a = unchecked(list[i]);
    w.beginObject();
    w.key("name").spanString(a.layer.label);
    w.key("source").spanString(a.source);
    w.key("reason");
    const listedBy = a.listedBy;
    if (listedBy != null) writeListedReason(w, listedBy);
    else w.string(a.reason);
    if (a.glob.length > 0) w.field("glob", a.glob);
    w.endObject();
  }
  w.endArray();
}

function writePlan(w: JsonWriter, plan: Plan): void {
  w.key("plan").beginObject();
  w.key("theme").beginObject();
  w.key("file");
  if (spanLen(plan.themeFile) > 0) w.spanString(plan.themeFile);
  else w.null();
  w.key("path");
  if (spanLen(plan.themePath) > 0) w.spanString(plan.themePath);
  else w.null();
  w.key("name");
  if (spanLen(plan.themeName) > 0) w.spanString(plan.themeName);
  else w.null();
  w.key("reason");
  writeThemeReason(w, plan);
  w.key("alternatives").spanArray(plan.themeAlternatives);
  w.endObject();
  w.key("modules").beginArray();
  const modules = plan.modules;
  for (let i = 0; i < modules.length; i++) if (unchecked(modules[i]).selected) w.spanString(unchecked(modules[i]).name);
  w.endArray();
  w.key("excluded").beginArray();
  for (let i = 0; i < modules.length; i++) if (!unchecked(modules[i]).selected) w.spanString(unchecked(modules[i]).name);
  w.endArray();
  w.key("decisions").beginArray();
  for (let i = 0; i < modules.length; i++) {
    const d = unchecked(modules[i]);
    w.beginObject();
    w.member(KEY_NAME, d.name).member(KEY_FILE, d.file);
    w.keys(KEY_SELECTED).bool(d.selected);
    w.keys(KEY_REASON);
    writeModuleReason(w, d);
    const source = d.source;
    if (source != null) {
      w.member(KEY_GLOB, d.glob);
      writeLayerSource(w, d.layer, source);
    }
    w.endObject();
  }
  w.endArray();
  w.endObject();
}

export function writeNeedPresets(
  w: JsonWriter,
  auto: bool,
  listed: Array<Span>,
  searchPath: Array<Span>,
  logFormat: Span,
  warnings: Array<Warning>,
): void {
  beginStage(w, true, "presets", logFormat);
  w.key("needs").beginObject();
  w.field("mode", auto ? "auto" : "list");
  w.key("presets").beginArray();
  for (let i = 0; i < listed.length; i++) {
    w.beginObject();
    w.key("ref").spanString(listed[i]);
    w.field("kind", isPresetPath(listed[i]) ? "path" : "name");
    w.endObject();
  }
  w.endArray();
  w.key("searchPath").spanArray(searchPath);
  w.endObject();
  writeWarnings(w, warnings);
  w.endObject();
}

export function writeNeedDetect(w: JsonWriter, candidates: Array<PresetChoice>, logFormat: Span, warnings: Array<Warning>): void {
  beginStage(w, true, "detect", logFormat);
  w.key("needs").beginObject();
  w.key("detect").beginArray();
  for (let i = 0; i < candidates.length; i++) {
    const detect = candidates[i].layer.detect;
    if (detect == null) continue;
    w.beginObject();
    w.key("id").spanString(candidates[i].source);
    w.key("name").spanString(candidates[i].layer.label);
    w.key("globs").stringArray(detect);
    w.endObject();
  }
  w.endArray();
  w.endObject();
  writeWarnings(w, warnings);
  w.endObject();
}

/** Writes one layer's value for a leaf, with the leaf's JSON type. */
function writeSetting(w: JsonWriter, leaf: LeafId, layer: Layer): void {
  const def = unchecked(LEAVES[leaf]);
  if (def.isList()) writeValues(w, layer.list(leaf));
  else if (def.type == LeafType.Bool) w.bool(layer.flag(leaf));
  else if (def.type == LeafType.Schema) w.numberText("1");
  else w.spanString(layer.value(leaf));
}

/** The values of a list, as an array of strings. */
function writeValues(w: JsonWriter, items: Items): void {
  w.beginArray();
  for (let i = 0, n = items.length; i < n; i++) w.spanString(items.value(i));
  w.endArray();
}

/** Opens a resolve answer: `{"ok":...,"stage":...,"logFormat":...` (every stage starts so). */
export function beginStage(w: JsonWriter, ok: bool, stage: string, logFormat: Span): void {
  w.beginObject();
  w.key("ok").bool(ok);
  w.field("stage", stage);
  if (spanLen(logFormat) > 0) w.key("logFormat").spanString(logFormat);
}
