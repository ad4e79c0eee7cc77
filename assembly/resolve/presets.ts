// Presets (SPEC section 5): the bundled ones, preset files a host loaded, the listed presets and auto-detect.

import { PERIOD } from "../json/chars";
import { Code, Diagnostic, PRESET_NOT_FOUND } from "../schema/diagnostic";
import { DocumentKind, sourceDocument, valueDocument } from "../schema/document";
import { spanList } from "./flags";
import { matchFile } from "./glob";
import { Layer } from "./layer";
import { LayerKind } from "./precedence";
import { parseJson } from "../json/parser";
import { basenameOf, dirnameOf, isAbsolutePath } from "./paths";
import { LeafId, isPresetPath, isZipPath } from "../schema/schema";
import { Source } from "../schema/valuesource";
import { Span, sameSpan, sortedOrder, spanLen, spanOf, spanPtr, spanText, subSpan } from "../json/span";
import { quoted, suggest } from "../schema/suggest";
import { JsonKind, Tape } from "../json/tape";
import { format, itemPath, words } from "../json/strings";
import { encodeText } from "../json/escape";
import { maxBytes } from "../json/utf8";
import { readInto } from "../schema/validate";

/** The bundled presets, as JSON text: the same validator checks them as users' presets. */
export const BUNDLED_NAMES: Array<string> = words("none standard");
const BUNDLED_TEXTS: Array<string> = ["{}", '{"modules":{"exclude":["test-*","dev-*"]},"hooks":{"onFailure":"fail"},"detect":["*.zip"]}'];

// Parsed and read once per instance, at start: what a call allocates does not outlive it (abi/heap.ts), and a call
// only reads these. A bundled preset has no positions, so nothing is made on them later; and a layer whose
// values do not depend on the working directory (no relative path in it) serves every call as it is.
const bundledSpans = new Array<Span>();
const bundledTapes = new Array<Tape>();
const bundledLayers = new Array<Layer>();
const bundledFixed = new Array<bool>();
for (let i = 0; i < BUNDLED_TEXTS.length; i++) {
  const text = BUNDLED_TEXTS[i];
  const bytes = __alloc(<usize>maxBytes(text));
  bundledSpans.push(spanOf(BUNDLED_NAMES[i]));
  bundledTapes.push(parseJson(bytes, encodeText(text, bytes)).tape);
  const layer = readBundled(i, 0);
  bundledLayers.push(layer);
  bundledFixed.push(
    !layer.has(LeafId.InitDir) &&
      !layer.has(LeafId.PostDir) &&
      !layer.has(LeafId.CacheFile) &&
      !(layer.has(LeafId.Theme) && isZipPath(layer.value(LeafId.Theme))),
  );
}

/** The parsed JSON of bundled preset `i` (its root is node 0). */
export function bundledTape(i: i32): Tape {
  return bundledTapes[i];
}

/** The index of the bundled preset named `name`, or -1. */
export function bundledIndex(name: Span): i32 {
  for (let i = 0; i < bundledSpans.length; i++) if (sameSpan(unchecked(bundledSpans[i]), name)) return i;
  return -1;
}

/** The layer bundled preset `i` sets; its values' source is the preset's name. */
export function bundledLayer(i: i32, cwd: Span): Layer {
  return unchecked(bundledFixed[i]) ? unchecked(bundledLayers[i]) : readBundled(i, cwd);
}

function readBundled(i: i32, cwd: Span): Layer {
  const layer = presetLayer(bundledSpans[i], cwd);
  layer.bundled = true;
  readInto(valueDocument(bundledTapes[i], 0, bundledSpans[i], DocumentKind.Preset), layer);
  return layer;
}

/** A preset considered for the merge: its layer, where it comes from (its id in auto-detect answers), and why it applies or not. */
export class PresetChoice {
  constructor(
    public layer: Layer,
    public source: Span,
    public reason: string,
  ) {}
  /** A listed preset: the source of its entry in `presets` (the reason is "listed in presets (source)"). */
  listedBy: Source | null = null;
  /** The detect glob that matched, for auto-detect. */
  glob: string = "";
}

/** The preset files of a request: each must be an object with a string `source`. */
export class PresetFiles {
  constructor(
    public req: Tape,
    public nodes: Array<i32>,
  ) {}

  source(i: i32): Span {
    return this.req.spanMember(this.nodes[i], "source", 0);
  }

  /** The preset's name: `name`, or the file's base name without its extension. */
  name(i: i32): Span {
    return this.req.spanMember(this.nodes[i], "name", stripExtension(basenameOf(this.source(i))));
  }

  /** Validates preset file `i` into a new preset layer; its problems go to `errors`. */
  read(i: i32, cwd: Span, errors: Array<Diagnostic>): Layer {
    const source = this.source(i);
    const layer = presetLayer(this.name(i), baseDirOf(source, cwd));
    const doc = sourceDocument(this.req, this.nodes[i], DocumentKind.Preset, source, new Array<string>(), "presetFiles[]");
    if (doc == null) return layer;
    readInto(doc, layer);
    for (let j = 0; j < doc.errors.length; j++) errors.push(doc.errors[j]);
    return layer;
  }
}

/** Reads `presetFiles` (node `node` of the request, -1 when absent). */
export function readPresetFiles(req: Tape, node: i32, problems: Array<string>): PresetFiles {
  const out = new Array<i32>();
  if (node >= 0 && req.kind(node) != JsonKind.Null) {
    if (req.kind(node) != JsonKind.Array) {
      problems.push("presetFiles must be an array");
    } else {
      const end = req.next(node);
      for (let item = node + 1, i = 0; item < end; item = req.next(item), i++) {
        const source = req.kind(item) == JsonKind.Object ? req.member(item, "source") : -1;
        if (source < 0 || req.kind(source) != JsonKind.String) {
          problems.push(itemPath("presetFiles", i) + ".source must be a string");
          continue;
        }
        out.push(item);
      }
    }
  }
  return new PresetFiles(req, out);
}

/**
 * Every preset name there is, for suggestions: the bundled ones, `presetNames` (node `node` of the request), and
 * the files' names. Worked out only for a preset that is not found.
 */
function availableNames(node: i32, files: PresetFiles): Array<string> {
  const req = files.req;
  const names = BUNDLED_NAMES.slice();
  if (node >= 0 && req.kind(node) == JsonKind.Array) {
    const end = req.next(node);
    for (let item = node + 1; item < end; item = req.next(item)) {
      if (req.kind(item) != JsonKind.String) continue;
      const name = req.text(item);
      if (!names.includes(name)) names.push(name);
    }
  }
  for (let i = 0; i < files.nodes.length; i++) {
    const name = spanText(files.name(i));
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * Applies the listed preset `entry` (set by `source`): the file the host loaded for it, else a bundled preset
 * of that name, else PresetNotFound with the available names (`presetNames` is node `namesNode` of the request).
 */
export function applyListed(
  entry: Span,
  source: Source,
  files: PresetFiles,
  namesNode: i32,
  cwd: Span,
  applied: Array<PresetChoice>,
  errors: Array<Diagnostic>,
): void {
  for (let i = 0; i < files.nodes.length; i++) {
    if (sameSpan(files.req.spanMember(files.nodes[i], "ref", 0), entry)) {
      add(applied, new PresetChoice(files.read(i, cwd, errors), files.source(i), ""), source);
      return;
    }
  }
  const bundled = isPresetPath(entry) ? -1 : bundledIndex(entry);
  if (bundled >= 0) {
    add(applied, new PresetChoice(bundledLayer(bundled, cwd), unchecked(bundledSpans[bundled]), ""), source);
    return;
  }
  const name = spanText(entry);
  const available = availableNames(namesNode, files);
  const isPath = isPresetPath(entry);
  const suggestion = isPath ? "" : suggest(name, available);
  const message = isPath
    ? format("Preset file not found: %. Check the path, or name a preset: %.", name, available.join(", "))
    : format('Unknown preset "%".% Available presets: %.', name, quoted(suggestion), available.join(", "));
  const d = Diagnostic.from(PRESET_NOT_FOUND, isPath ? Code.PresetFileNotFound : Code.PresetNotFound, "presets", message, source.text());
  d.suggestion = suggestion;
  d.found = name;
  errors.push(d);
}

function add(applied: Array<PresetChoice>, choice: PresetChoice, listedBy: Source): void {
  choice.listedBy = listedBy;
  applied.push(choice);
}

/** The auto-detect candidates: every bundled preset, then every preset file in name order. */
export function candidates(files: PresetFiles, cwd: Span, errors: Array<Diagnostic>): Array<PresetChoice> {
  const out = new Array<PresetChoice>();
  for (let i = 0; i < bundledSpans.length; i++) out.push(new PresetChoice(bundledLayer(i, cwd), bundledSpans[i], ""));
  const names = new Array<Span>();
  for (let i = 0; i < files.nodes.length; i++) names.push(files.name(i));
  const order = sortedOrder(names);
  for (let i = 0; i < order.length; i++) out.push(new PresetChoice(files.read(order[i], cwd, errors), files.source(order[i]), ""));
  return out;
}

/**
 * Auto-detect: a candidate applies when one of its detect globs matches a file. Answers come from `detected`
 * (id -> matching glob or null, from a host that globbed) or from `files` (matched here). Returns false when
 * neither is given and some candidate has globs to check.
 */
export function detectPresets(
  req: Tape,
  detected: i32,
  filesNode: i32,
  choices: Array<PresetChoice>,
  applied: Array<PresetChoice>,
  skipped: Array<PresetChoice>,
  problems: Array<string>,
): bool {
  const files = new Array<string>();
  if (filesNode >= 0) {
    const spans = spanList(req, filesNode, "files", problems);
    for (let i = 0; i < spans.length; i++) files.push(spanText(spans[i]));
  }
  if (problems.length > 0) return false;
  let pending = false;
  for (let i = 0; i < choices.length; i++) {
    const c = choices[i];
    const globs = c.layer.detect;
    if (globs == null) {
      c.reason = "no detect globs: applies only when listed in presets";
      skipped.push(c);
      continue;
    }
    let glob = "";
    if (detected >= 0 && req.kind(detected) == JsonKind.Object) {
      const answer = req.member(detected, spanText(c.source));
      if (answer >= 0 && req.kind(answer) == JsonKind.String) glob = req.text(answer);
    } else if (filesNode >= 0) {
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

function presetLayer(name: Span, dir: Span): Layer {
  const layer = new Layer(LayerKind.Preset, dir);
  layer.label = name;
  return layer;
}

/** The directory of `file` when it is absolute: relative paths in it resolve there; else `fallback`. */
export function baseDirOf(file: Span, fallback: Span): Span {
  return isAbsolutePath(file) ? dirnameOf(file) : fallback;
}

function stripExtension(name: Span): Span {
  let dot = spanLen(name) - 1;
  while (dot >= 0 && load<u8>(spanPtr(name) + <usize>dot) != PERIOD) dot--;
  return dot > 0 ? subSpan(name, 0, dot) : name;
}
