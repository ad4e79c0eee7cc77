// Presets (SPEC section 5): the bundled ones, preset files a host loaded, the listed presets and auto-detect.

import { Diagnostic, PRESET_NOT_FOUND } from "./diagnostic";
import { readInto, sourceDocument, valueDocument } from "./document";
import { stringList } from "./flags";
import { matchFile } from "./glob";
import { LAYER_PRESET, Layer } from "./layer";
import { parseJson } from "./parser";
import { basenameOf, dirnameOf, isAbsolutePath } from "./paths";
import { isPresetPath } from "./schema";
import { didYouMean } from "./suggest";
import { KIND_ARRAY, KIND_NULL, KIND_OBJECT, KIND_STRING, Tape } from "./tape";
import { format, itemPath, sortedOrder, words } from "./text";
import { encodeText } from "./escape";
import { maxBytes } from "./utf8";
import { DOC_PRESET } from "./validate";

/** The bundled presets, as JSON text: the same validator checks them as users' presets. */
export const BUNDLED_NAMES: Array<string> = words("none standard");
const BUNDLED_TEXTS: Array<string> = [
  "{}",
  "{\"modules\":{\"exclude\":[\"test-*\",\"dev-*\"]},\"hooks\":{\"onFailure\":\"fail\"},\"detect\":[\"*.zip\"]}",
];

// Parsed once per instance, at start: what a call allocates does not outlive it (heap.ts), and the validator
// only reads these (a bundled preset has no positions, so nothing is made on them later).
const bundledTapes = new Array<Tape>();
for (let i = 0; i < BUNDLED_TEXTS.length; i++) {
  const text = BUNDLED_TEXTS[i];
  const bytes = __alloc(<usize>maxBytes(text));
  bundledTapes.push(parseJson(bytes, encodeText(text, bytes)).tape);
}

/** The parsed JSON of a bundled preset (its root is node 0). */
export function bundledTape(name: string): Tape {
  return bundledTapes[BUNDLED_NAMES.indexOf(name)];
}

/** The layer a bundled preset sets; its values' source is the preset's name. */
export function bundledLayer(name: string, cwd: string): Layer {
  const layer = presetLayer(name, cwd);
  readInto(valueDocument(bundledTape(name), 0, name, DOC_PRESET), layer);
  return layer;
}

/** A preset considered for the merge: its layer, where it comes from (its id in auto-detect answers), and why it applies or not. */
export class PresetChoice {
  constructor(public layer: Layer, public source: string, public reason: string) {}
  /** The detect glob that matched, for auto-detect. */
  glob: string = "";
}

/** The preset files of a request: each must be an object with a string `source`. */
export class PresetFiles {
  constructor(public req: Tape, public nodes: Array<i32>) {}

  source(i: i32): string {
    return this.req.stringMember(this.nodes[i], "source", "");
  }

  /** The preset's name: `name`, or the file's base name without its extension. */
  name(i: i32): string {
    return this.req.stringMember(this.nodes[i], "name", stripExtension(basenameOf(this.source(i))));
  }

  /** Validates preset file `i` into a new preset layer; its problems go to `errors`. */
  read(i: i32, cwd: string, errors: Array<Diagnostic>): Layer {
    const source = this.source(i);
    const layer = presetLayer(this.name(i), baseDirOf(source, cwd));
    const doc = sourceDocument(this.req, this.nodes[i], DOC_PRESET, source, new Array<string>(), "presetFiles[]");
    if (doc == null) return layer;
    readInto(doc, layer);
    for (let j = 0; j < doc.errors.length; j++) errors.push(doc.errors[j]);
    return layer;
  }
}

/** Reads `presetFiles` (node `node` of the request, -1 when absent). */
export function readPresetFiles(req: Tape, node: i32, problems: Array<string>): PresetFiles {
  const out = new Array<i32>();
  if (node >= 0 && req.kind(node) != KIND_NULL) {
    if (req.kind(node) != KIND_ARRAY) {
      problems.push("presetFiles must be an array");
    } else {
      const end = req.next(node);
      for (let item = node + 1, i = 0; item < end; item = req.next(item), i++) {
        const source = req.kind(item) == KIND_OBJECT ? req.member(item, "source") : -1;
        if (source < 0 || req.kind(source) != KIND_STRING) {
          problems.push(itemPath("presetFiles", i) + ".source must be a string");
          continue;
        }
        out.push(item);
      }
    }
  }
  return new PresetFiles(req, out);
}

/** Every preset name there is, for suggestions: the bundled ones, `presetNames`, and the files' names. */
export function availableNames(req: Tape, node: i32, files: PresetFiles): Array<string> {
  const names = BUNDLED_NAMES.slice();
  if (node >= 0 && req.kind(node) == KIND_ARRAY) {
    const end = req.next(node);
    for (let item = node + 1; item < end; item = req.next(item)) {
      if (req.kind(item) != KIND_STRING) continue;
      const name = req.text(item);
      if (!names.includes(name)) names.push(name);
    }
  }
  for (let i = 0; i < files.nodes.length; i++) {
    const name = files.name(i);
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * Applies the listed preset `entry` (set by `source`): the file the host loaded for it, else a bundled preset
 * of that name, else PresetNotFound with the available names.
 */
export function applyListed(entry: string, source: string, files: PresetFiles, available: Array<string>, cwd: string, applied: Array<PresetChoice>, errors: Array<Diagnostic>): void {
  const reason = "listed in presets (" + source + ")";
  for (let i = 0; i < files.nodes.length; i++) {
    if (files.req.stringMember(files.nodes[i], "ref", "") == entry) {
      applied.push(new PresetChoice(files.read(i, cwd, errors), files.source(i), reason));
      return;
    }
  }
  if (isPresetPath(entry)) {
    errors.push(Diagnostic.from(PRESET_NOT_FOUND, "presets", format("Preset file not found: %. Check the path, or name a preset: %.", entry, available.join(", ")), source));
    return;
  }
  if (BUNDLED_NAMES.includes(entry)) {
    applied.push(new PresetChoice(bundledLayer(entry, cwd), entry, reason));
    return;
  }
  errors.push(Diagnostic.from(PRESET_NOT_FOUND, "presets",
    format("Unknown preset \"%\".% Available presets: %.", entry, didYouMean(entry, available), available.join(", ")), source));
}

/** The auto-detect candidates: every bundled preset, then every preset file in name order. */
export function candidates(files: PresetFiles, cwd: string, errors: Array<Diagnostic>): Array<PresetChoice> {
  const out = new Array<PresetChoice>();
  for (let i = 0; i < BUNDLED_NAMES.length; i++) out.push(new PresetChoice(bundledLayer(BUNDLED_NAMES[i], cwd), BUNDLED_NAMES[i], ""));
  const names = new Array<string>();
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
  req: Tape, detected: i32, filesNode: i32, choices: Array<PresetChoice>, applied: Array<PresetChoice>,
  skipped: Array<PresetChoice>, problems: Array<string>,
): bool {
  const files = filesNode >= 0 ? stringList(req, filesNode, "files", problems) : new Array<string>();
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
    if (detected >= 0 && req.kind(detected) == KIND_OBJECT) {
      const answer = req.member(detected, c.source);
      if (answer >= 0 && req.kind(answer) == KIND_STRING) glob = req.text(answer);
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

function presetLayer(name: string, dir: string): Layer {
  const layer = new Layer(LAYER_PRESET, dir);
  layer.label = name;
  return layer;
}

/** The directory of `file` when it is absolute: relative paths in it resolve there; else `fallback`. */
export function baseDirOf(file: string, fallback: string): string {
  return isAbsolutePath(file) ? dirnameOf(file) : fallback;
}

function stripExtension(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}
