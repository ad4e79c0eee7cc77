// The resolve op: layers in, the resolved config with origins, presets and the plan out.

import { Diagnostic, PRESET_NOT_FOUND, SYNTAX_ERROR, USAGE_ERROR, Warning } from "./diagnostic";
import { Document, readInto, sourceDocument } from "./document";
import { readEnvironment } from "./env";
import { matchFile } from "./glob";
import { JsonNode, JsonWriter, KIND_ARRAY, KIND_BOOL, KIND_NULL, KIND_OBJECT, KIND_STRING, stringField } from "./json";
import { Entry, Resolved, defaultLayer, mergeLayers, mergeLeaf } from "./merge";
import { BUNDLED_NAMES, bundledLayer, presetLayer } from "./preset";
import { beginStage, writeDiagnostics, writeSetting, writeWarnings } from "./response";
import {
  DOC_CONFIG, DOC_PRESET, LAYER_CLI, LAYER_CONFIG, LAYER_DEFAULT, LEAF_EXCLUDE, LEAF_INCLUDE, LEAF_LOG_FORMAT,
  LEAF_ONLY, LEAF_PRESETS, LEAF_SEARCH_PATH, LEAF_THEME, LEAVES, Layer, checkText, isPresetPath, normalizeValue,
} from "./schema";
import { Plan, selectPlan } from "./select";
import { basenameOf, didYouMean, dirnameOf, format, hasPrefix, isAbsolutePath, itemPath, lastIndexOf, sortedOrder } from "./text";

/** A preset layer as a candidate: where it comes from (its id in `detected`), and why it applies or not. */
function candidate(layer: Layer, source: string, reason: string): Layer {
  layer.presetSource = source;
  layer.reason = reason;
  return layer;
}

// A preset file the host supplied is its request object, `{"source", "ref", "name", ...}` (source checked
// to be a string), read through the functions below: no class or list type of its own.
function fileSource(file: JsonNode): string {
  return stringField(file, "source", "");
}

function fileName(file: JsonNode): string {
  return stringField(file, "name", stripExtension(basenameOf(fileSource(file))));
}

/** Runs a resolve request, writing the response. Malformed requests add to `problems` and write nothing. */
export function resolveRequest(req: JsonNode, w: JsonWriter, problems: Array<string>): void {
  const cwdNode = req.get("cwd");
  if (cwdNode == null || cwdNode.kind != KIND_STRING || !isAbsolutePath(cwdNode.text)) {
    problems.push("cwd must be an absolute directory path");
    return;
  }
  const cwd = cwdNode.text;
  const explain = wantsExplain(req, problems);
  const errors = new Array<Diagnostic>();
  const warnings = new Array<Warning>();

  const cli = readFlags(req.get("flags"), cwd, errors, problems);
  const env = readEnvNode(req.get("env"), cwd, errors, warnings, problems);
  let config: Layer | null = null;
  const configNode = req.get("config");
  if (configNode != null && configNode.kind != KIND_NULL) {
    const doc = sourceDocument(configNode, DOC_CONFIG, "<config>", problems, "config");
    if (doc != null) {
      config = new Layer(LAYER_CONFIG, baseDirOf(doc.file, cwd));
      readInto(doc, config);
      for (let i = 0; i < doc.errors.length; i++) errors.push(doc.errors[i]);
      if (doc.absent) config = null;
    }
  }
  if (problems.length > 0) return;

  const upper = new Array<Layer>();
  upper.push(cli);
  upper.push(env);
  if (config != null) upper.push(config);
  const defaults = defaultLayer(cwd);
  // The log format is needed to report errors, so it is worked out from whatever layers did parse; a
  // preset never decides how problems (its own among them) are reported.
  const logLayers = copyOf(upper);
  logLayers.push(defaults);
  const logFormat = mergeLeaf(logLayers, LEAF_LOG_FORMAT).text();

  // Presets: the list comes from flags, environment or config; presets cannot name presets. With problems
  // already found, the core never asks the host for more: it answers with what it can work out alone.
  const listed = mergeLeaf(upper, LEAF_PRESETS);
  const auto = listed.chain.length == 0;
  const searchPath = mergeLeaf(upper, LEAF_SEARCH_PATH).list();
  const entries = listed.list();
  const filesNode = req.get("presetFiles");
  const needFiles = filesNode == null && (searchPath.length > 0 || hasPathEntry(entries));
  if (needFiles && errors.length == 0) {
    writeNeedPresets(w, auto, listed, searchPath, logFormat, warnings);
    return;
  }
  // Once inputs have problems, a malformed field further on is left unused rather than refused: the answer
  // is then about those problems (status 0), as it was before the core went on past them.
  let later = errors.length > 0 ? new Array<string>() : problems;
  const files = readPresetFiles(filesNode, later);
  const available = availableNames(req.get("presetNames"), files);
  if (problems.length > 0) return;

  const applied = new Array<Layer>();
  const skipped = new Array<Layer>();
  let presetsKnown = !needFiles && later.length == 0;
  if (presetsKnown && !auto) {
    const s = listed.setting!;
    for (let i = 0; i < s.list.length; i++) applyListed(s.list[i], s.sources[i], files, available, cwd, applied, errors);
  } else if (presetsKnown) {
    const candidates = new Array<Layer>();
    for (let i = 0; i < BUNDLED_NAMES.length; i++) {
      const name = BUNDLED_NAMES[i];
      candidates.push(candidate(bundledLayer(name, cwd), name, ""));
    }
    const names = new Array<string>();
    for (let i = 0; i < files.length; i++) names.push(fileName(files[i]));
    const order = sortedOrder(names);
    for (let i = 0; i < order.length; i++) {
      const file = files[order[i]];
      const source = fileSource(file);
      candidates.push(candidate(readPresetFile(file, cwd, errors), source, ""));
    }
    later = errors.length > 0 ? new Array<string>() : problems;
    if (!detectPresets(req, candidates, applied, skipped, later)) {
      if (problems.length > 0) return;
      if (errors.length == 0) {
        writeNeedDetect(w, candidates, logFormat, warnings);
        return;
      }
      // Detection needs the host, which is not asked while there are problems: no preset applies.
      presetsKnown = false;
      applied.length = 0;
      skipped.length = 0;
    }
  }
  const inputErrors = errors.length;

  // All layers, highest first: flags, environment, config, presets (later ones win), defaults.
  const layers = copyOf(upper);
  for (let i = applied.length - 1; i >= 0; i--) layers.push(applied[i]);
  layers.push(defaults);
  const merged = mergeLayers(layers);

  let plan: Plan | null = null;
  const archivesNode = req.get("archives");
  later = errors.length > 0 ? new Array<string>() : problems;
  const archives = archivesNode != null && archivesNode.kind != KIND_NULL ? stringList(archivesNode, "archives", later) : null;
  if (problems.length > 0) return;
  if (archives != null && later.length == 0) {
    plan = selectPlan(
      archives, merged[LEAF_THEME].text(), merged[LEAF_THEME].source, cwd,
      merged[LEAF_ONLY].entries, merged[LEAF_EXCLUDE].entries, merged[LEAF_INCLUDE].entries, flagExcludes(cli),
    );
    for (let i = 0; i < plan.errors.length; i++) errors.push(plan.errors[i]);
  }

  const presetNames = new Array<string>();
  if (auto) for (let i = 0; i < applied.length; i++) presetNames.push(applied[i].label);
  beginStage(w, errors.length == 0, "done", inputErrors > 0 ? logFormat : merged[LEAF_LOG_FORMAT].text());
  writeResolved(w, merged, auto, presetNames, presetsKnown ? applied : null, skipped, plan, errors, warnings, explain);
}

/**
 * Writes the answer after its opening: the config, every leaf's origin (with each union-list entry's),
 * the invalid keys, explain, the presets, the plan, errors and warnings. `applied` is null when the presets
 * could not be worked out (problems came first, and the host would have had to load files).
 */
function writeResolved(
  w: JsonWriter, merged: Array<Resolved>, auto: bool, autoNames: Array<string>, applied: Array<Layer> | null,
  skipped: Array<Layer>, plan: Plan | null, errors: Array<Diagnostic>, warnings: Array<Warning>, explain: bool,
): void {
  // The config, nested by the dotted keys.
  w.key("config").beginObject();
  let group = "";
  for (let i = 0; i < LEAVES.length; i++) {
    const key = LEAVES[i].key;
    const dot = key.indexOf(".");
    const g = dot < 0 ? "" : key.slice(0, dot);
    if (g != group) {
      if (group.length > 0) w.endObject();
      if (g.length > 0) w.key(g).beginObject();
      group = g;
    }
    w.key(dot < 0 ? key : key.slice(dot + 1));
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
  if (key == "modules.exclude" && (path == "exclude" || hasPrefix(path, "exclude["))) return true;
  if (path == key || (hasPrefix(path, key) && path.charCodeAt(key.length) == 0x5b)) return true;
  return path.length > 0 && path.length < key.length && hasPrefix(key, path) && key.charCodeAt(path.length) == 0x2e;
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
      writeSetting(w, i, chain[j].setting!);
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

function writeApplied(w: JsonWriter, list: Array<Layer>): void {
  w.beginArray();
  for (let i = 0; i < list.length; i++) {
    const a = list[i];
    w.beginObject();
    w.field("name", a.label);
    w.field("source", a.presetSource);
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

function writeNeedPresets(w: JsonWriter, auto: bool, listed: Resolved, searchPath: Array<string>, logFormat: string, warnings: Array<Warning>): void {
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

function writeNeedDetect(w: JsonWriter, candidates: Array<Layer>, logFormat: string, warnings: Array<Warning>): void {
  beginStage(w, true, "detect", logFormat);
  w.key("needs").beginObject();
  w.key("detect").beginArray();
  for (let i = 0; i < candidates.length; i++) {
    const detect = candidates[i].detect;
    if (detect == null) continue;
    w.beginObject();
    w.field("id", candidates[i].presetSource);
    w.field("name", candidates[i].label);
    w.key("globs").stringArray(detect);
    w.endObject();
  }
  w.endArray();
  w.endObject();
  writeWarnings(w, warnings);
  w.endObject();
}

/**
 * Auto-detect: a candidate applies when one of its detect globs matches a file. Answers come from
 * `detected` (id -> matching glob or null, from a host that globbed) or from `files` (matched here).
 * Returns false when neither is given and some candidate has globs to check.
 */
function detectPresets(req: JsonNode, candidates: Array<Layer>, applied: Array<Layer>, skipped: Array<Layer>, problems: Array<string>): bool {
  const detected = req.get("detected");
  const filesNode = req.get("files");
  const files = filesNode != null ? stringList(filesNode, "files", problems) : new Array<string>();
  if (problems.length > 0) return false;
  let pending = false;
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i];
    const globs = c.detect;
    if (globs == null) {
      c.reason = "no detect globs: applies only when listed in presets";
      skipped.push(c);
      continue;
    }
    let glob = "";
    if (detected != null && detected.kind == KIND_OBJECT) {
      const answer = detected.get(c.presetSource);
      if (answer != null && answer.kind == KIND_STRING) glob = answer.text;
    } else if (filesNode != null) {
      glob = firstMatch(globs, files);
    } else {
      pending = true;
      continue;
    }
    if (glob.length > 0) {
      c.reason = "detected: " + glob + " matched a file in the working directory";
      c.glob = glob;
      applied.push(c);
    } else {
      c.reason = "not detected: no file matched " + globs.join(", ");
      skipped.push(c);
    }
  }
  return !pending;
}

function firstMatch(globs: Array<string>, files: Array<string>): string {
  for (let i = 0; i < globs.length; i++) {
    for (let j = 0; j < files.length; j++) if (matchFile(globs[i], files[j])) return globs[i];
  }
  return "";
}

function applyListed(
  entry: string, source: string, files: Array<JsonNode>, available: Array<string>, cwd: string,
  applied: Array<Layer>, errors: Array<Diagnostic>,
): void {
  for (let i = 0; i < files.length; i++) {
    if (stringField(files[i], "ref", "") == entry) {
      const layer = readPresetFile(files[i], cwd, errors);
      const file = fileSource(files[i]);
      applied.push(candidate(layer, file, "listed in presets (" + source + ")"));
      return;
    }
  }
  if (isPresetPath(entry)) {
    errors.push(Diagnostic.from(PRESET_NOT_FOUND, "presets", format("Preset file not found: %. Check the path, or name a preset: %.", entry, available.join(", ")), source));
    return;
  }
  if (BUNDLED_NAMES.includes(entry)) {
    applied.push(candidate(bundledLayer(entry, cwd), entry, "listed in presets (" + source + ")"));
    return;
  }
  errors.push(Diagnostic.from(PRESET_NOT_FOUND, "presets",
    format("Unknown preset \"%\".% Available presets: %.", entry, didYouMean(entry, available), available.join(", ")), source));
}

function readPresetFile(file: JsonNode, cwd: string, errors: Array<Diagnostic>): Layer {
  const problems = new Array<string>();
  const source = fileSource(file);
  const layer = presetLayer(fileName(file), baseDirOf(source, cwd));
  const doc: Document | null = sourceDocument(file, DOC_PRESET, source, problems, "presetFiles[]");
  if (doc == null) return layer;
  readInto(doc, layer);
  for (let i = 0; i < doc.errors.length; i++) errors.push(doc.errors[i]);
  return layer;
}

function readPresetFiles(node: JsonNode | null, problems: Array<string>): Array<JsonNode> {
  const out = new Array<JsonNode>();
  if (node == null || node.kind == KIND_NULL) return out;
  if (node.kind != KIND_ARRAY) {
    problems.push("presetFiles must be an array");
    return out;
  }
  for (let i = 0; i < node.items.length; i++) {
    const item = node.items[i];
    const source = item.kind == KIND_OBJECT ? item.get("source") : null;
    if (source == null || source.kind != KIND_STRING) {
      problems.push(itemPath("presetFiles", i) + ".source must be a string");
      continue;
    }
    out.push(item);
  }
  return out;
}

function availableNames(node: JsonNode | null, files: Array<JsonNode>): Array<string> {
  const names = copyOf(BUNDLED_NAMES);
  if (node != null && node.kind == KIND_ARRAY) {
    for (let i = 0; i < node.items.length; i++) {
      const item = node.items[i];
      if (item.kind == KIND_STRING && !names.includes(item.text)) names.push(item.text);
    }
  }
  for (let i = 0; i < files.length; i++) {
    const name = fileName(files[i]);
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

function readFlags(node: JsonNode | null, cwd: string, errors: Array<Diagnostic>, problems: Array<string>): Layer {
  const layer = new Layer(LAYER_CLI, cwd);
  if (node == null || node.kind == KIND_NULL) return layer;
  if (node.kind != KIND_OBJECT) {
    problems.push("flags must be an object");
    return layer;
  }
  for (let i = 0; i < node.keys.length; i++) {
    const key = node.keys[i].text;
    const value = node.items[i];
    if (key == "theme") {
      flagText(layer, LEAF_THEME, "--theme", value, errors, problems);
    } else if (key == "logFormat") {
      flagText(layer, LEAF_LOG_FORMAT, "--log-format", value, errors, problems);
    } else if (key == "exclude") {
      flagList(layer, LEAF_EXCLUDE, "--exclude", value, errors, problems);
    } else if (key == "preset") {
      flagList(layer, LEAF_PRESETS, "--preset", value, errors, problems);
    } else if (key != "config") {
      problems.push("flags." + key + " is not a flag: expected theme, exclude, preset, logFormat or config");
    }
  }
  return layer;
}

function flagText(layer: Layer, leaf: i32, flag: string, value: JsonNode, errors: Array<Diagnostic>, problems: Array<string>): void {
  if (value.kind == KIND_NULL) return;
  if (value.kind != KIND_STRING) {
    problems.push("flags value for " + flag + " must be a string");
    return;
  }
  const problem = checkText(leaf, value.text);
  if (problem.length > 0) {
    errors.push(Diagnostic.invalid(USAGE_ERROR, LEAVES[leaf].key, "for " + flag, problem, value.text, flag));
    return;
  }
  layer.setText(leaf, normalizeValue(leaf, value.text, layer.baseDir), flag);
}

function flagList(layer: Layer, leaf: i32, flag: string, value: JsonNode, errors: Array<Diagnostic>, problems: Array<string>): void {
  if (value.kind == KIND_NULL) return;
  const items = stringList(value, "flags value for " + flag, problems);
  const values = new Array<string>();
  const sources = new Array<string>();
  for (let i = 0; i < items.length; i++) {
    const problem = checkText(leaf, items[i]);
    if (problem.length > 0) {
      errors.push(Diagnostic.invalid(USAGE_ERROR, LEAVES[leaf].key, "for " + flag, problem, items[i], flag));
      continue;
    }
    values.push(normalizeValue(leaf, items[i], layer.baseDir));
    sources.push(flag);
  }
  // An empty --preset list is not a list at all: the flag was not given.
  if (values.length > 0) layer.addList(leaf, values, sources, flag);
}

function readEnvNode(node: JsonNode | null, cwd: string, errors: Array<Diagnostic>, warnings: Array<Warning>, problems: Array<string>): Layer {
  const names = new Array<string>();
  const values = new Array<string>();
  if (node != null && node.kind == KIND_OBJECT) {
    for (let i = 0; i < node.keys.length; i++) {
      const v = node.items[i];
      if (v.kind != KIND_STRING) {
        problems.push("env." + node.keys[i].text + " must be a string");
        continue;
      }
      names.push(node.keys[i].text);
      values.push(v.text);
    }
  } else if (node != null && node.kind != KIND_NULL) {
    problems.push("env must be an object of variable names to string values");
  }
  return readEnvironment(names, values, cwd, errors, warnings);
}

/** The --exclude flag's globs, which win over every other layer in module selection. */
function flagExcludes(cli: Layer): Array<Entry> {
  const list = new Array<Entry>();
  const s = cli.get(LEAF_EXCLUDE);
  if (s == null) return list;
  for (let i = 0; i < s.list.length; i++) list.push(new Entry(s.list[i], LAYER_CLI, s.sources[i], null));
  return list;
}

/** Whether the request asks for `explain` (`"explain": true`); any other value than a boolean is malformed. */
function wantsExplain(req: JsonNode, problems: Array<string>): bool {
  const node = req.get("explain");
  if (node == null || node.kind == KIND_NULL) return false;
  if (node.kind != KIND_BOOL) problems.push("explain must be true or false");
  return node.flag;
}

function hasPathEntry(entries: Array<string>): bool {
  for (let i = 0; i < entries.length; i++) if (isPresetPath(entries[i])) return true;
  return false;
}

function stringList(node: JsonNode, what: string, problems: Array<string>): Array<string> {
  const out = new Array<string>();
  if (node.kind != KIND_ARRAY) {
    problems.push(what + " must be an array of strings");
    return out;
  }
  for (let i = 0; i < node.items.length; i++) {
    if (node.items[i].kind != KIND_STRING) {
      problems.push(itemPath(what, i) + " must be a string");
      continue;
    }
    out.push(node.items[i].text);
  }
  return out;
}

function baseDirOf(file: string, fallback: string): string {
  return isAbsolutePath(file) ? dirnameOf(file) : fallback;
}

function stripExtension(name: string): string {
  const dot = lastIndexOf(name, 0x2e);
  return dot > 0 ? name.slice(0, dot) : name;
}

/** A copy of `list`: a loop of pushes costs less code than Array#slice. */
function copyOf<T>(list: Array<T>): Array<T> {
  const copy = new Array<T>();
  for (let i = 0; i < list.length; i++) copy.push(list[i]);
  return copy;
}
