// The resolve op: every layer read, the presets worked out (or asked for), the layers merged, the plan made.
//
// Its stages (docs/abi.md): a host that has not sent the preset files or the auto-detect answers the merge
// needs is asked for them first. Once an input has a problem, the core asks for nothing more: it answers at
// once with every problem and with what the valid values give.

import { Code, Diagnostic, USAGE_ERROR, Warning } from "../schema/diagnostic";
import { DocumentKind, sourceDocument } from "../schema/document";
import { HostSettings, readEnvironment } from "./env";
import { readFlags, spanList } from "./flags";
import { Layer } from "./layer";
import { LayerKind } from "./precedence";
import { Merged, defaultLayer, flagEntries, topLayer } from "./merge";
import { PresetChoice, applyListed, baseDirOf, candidates, detectPresets, readPresetFiles } from "./presets";
import { isAbsolutePath } from "./paths";
import { beginStage, writeNeedDetect, writeNeedPresets, writeResolved } from "./response";
import { LEAVES, LeafId, isPresetPath } from "../schema/schema";
import { Plan, selectPlan } from "./select";
import { Span, spanOf } from "../json/span";
import { quoted, suggest } from "../schema/suggest";
import { JsonKind, Tape } from "../json/tape";
import { format } from "../json/strings";
import { readInto } from "../schema/validate";
import { JsonWriter } from "../json/writer";

/** The name of a config source without one. */
const CONFIG_NAME = spanOf("<config>");
const NO_SPANS = new Array<Span>();

/** Runs a resolve request (object node `req` of `tape`), writing the answer. A malformed request adds to `problems` and writes nothing. */
export function resolveRequest(tape: Tape, req: i32, w: JsonWriter, problems: Array<string>): void {
  const cwdNode = tape.member(req, "cwd");
  const cwd = cwdNode >= 0 && tape.kind(cwdNode) == JsonKind.String ? tape.span(cwdNode) : 0;
  if (!isAbsolutePath(cwd)) {
    problems.push("cwd must be an absolute directory path");
    return;
  }
  const explainNode = explainOf(tape, req, problems);
  const errors = new Array<Diagnostic>();
  const warnings = new Array<Warning>();

  const cli = readFlags(tape, tape.member(req, "flags"), cwd, errors, problems);
  // The key of `--explain` is checked with the flags: an unknown one is their kind of problem, a UsageError.
  const explain = explainedLeaf(tape, explainNode, errors);
  const host = new HostSettings();
  const env = readEnvironment(tape, tape.member(req, "env"), cwd, errors, warnings, problems, host);
  let config: Layer | null = null;
  const configNode = tape.member(req, "config");
  if (configNode >= 0 && tape.kind(configNode) != JsonKind.Null) {
    const doc = sourceDocument(tape, configNode, DocumentKind.Config, CONFIG_NAME, problems, "config");
    if (doc != null) {
      config = new Layer(LayerKind.Config, baseDirOf(doc.name, cwd));
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
  const logLayer = topLayer(upper, LeafId.LogFormat);
  const logFormat = (logLayer != null ? logLayer : defaults).value(LeafId.LogFormat);

  // Presets: the list comes from flags, environment or config; presets cannot name presets.
  const listed = topLayer(upper, LeafId.Presets);
  const auto = listed == null;
  const listedNames = listed != null ? listed.list(LeafId.Presets).values() : NO_SPANS;
  const searchLayer = topLayer(upper, LeafId.SearchPath);
  const searchPath = searchLayer != null ? searchLayer.list(LeafId.SearchPath).values() : NO_SPANS;
  const filesNode = tape.member(req, "presetFiles");
  const needFiles = filesNode < 0 && (searchPath.length > 0 || hasPathEntry(listedNames));
  if (needFiles && errors.length == 0) {
    writeNeedPresets(w, auto, listedNames, searchPath, logFormat, warnings);
    return;
  }
  // Once inputs have problems, a malformed field further on is left unused rather than refused: the answer
  // is about those problems (status 0), as it was before the core went on past them.
  let later = errors.length > 0 ? new Array<string>() : problems;
  const files = readPresetFiles(tape, filesNode, later);
  if (problems.length > 0) return;

  const applied = new Array<PresetChoice>();
  const skipped = new Array<PresetChoice>();
  let presetsKnown = !needFiles && later.length == 0;
  if (presetsKnown && !auto) {
    const list = listed!.list(LeafId.Presets);
    const namesNode = tape.member(req, "presetNames");
    for (let i = 0; i < list.length; i++) applyListed(list.value(i), list.source(i), files, namesNode, cwd, applied, errors);
  } else if (presetsKnown) {
    const choices = candidates(files, cwd, errors);
    later = errors.length > 0 ? new Array<string>() : problems;
    if (!detectPresets(tape, tape.member(req, "detected"), tape.member(req, "files"), choices, applied, skipped, later)) {
      if (problems.length > 0) return;
      if (errors.length == 0) {
        writeNeedDetect(w, choices, logFormat, warnings);
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
  const layers = upper.slice();
  for (let i = applied.length - 1; i >= 0; i--) layers.push(unchecked(applied[i]).layer);
  layers.push(defaults);
  const merged = new Merged(layers);

  let plan: Plan | null = null;
  const archivesNode = tape.member(req, "archives");
  later = errors.length > 0 ? new Array<string>() : problems;
  const archives = archivesNode >= 0 && tape.kind(archivesNode) != JsonKind.Null ? spanList(tape, archivesNode, "archives", later) : null;
  if (problems.length > 0) return;
  if (archives != null && later.length == 0) {
    plan = selectPlan(archives, merged, flagEntries(cli, LeafId.Exclude), cwd);
    for (let i = 0; i < plan.errors.length; i++) errors.push(plan.errors[i]);
    for (let i = 0; i < plan.warnings.length; i++) warnings.push(plan.warnings[i]);
  }

  const presetNames = new Array<Span>();
  if (auto) for (let i = 0; i < applied.length; i++) presetNames.push(applied[i].layer.label);
  beginStage(w, errors.length == 0, "done", inputErrors > 0 ? logFormat : merged.value(LeafId.LogFormat));
  if (host.hookTimeoutMs > 0) w.key("hookTimeoutMs").int(host.hookTimeoutMs);
  writeResolved(w, {
    merged: merged,
    auto: auto,
    autoNames: presetNames,
    applied: presetsKnown ? applied : null,
    skipped: skipped,
    plan: plan,
    errors: errors,
    warnings: warnings,
    explain: explain,
  });
}

/** The request's `explain` when it asks for one (`true`, or a key as a string), else -1; any other value is malformed. */
function explainOf(tape: Tape, req: i32, problems: Array<string>): i32 {
  const node = tape.member(req, "explain");
  if (node < 0) return -1;
  const kind = tape.kind(node);
  if (kind == JsonKind.String) return node;
  if (kind != JsonKind.Bool && kind != JsonKind.Null) problems.push("explain must be true, false or a key");
  return tape.isTrue(node) ? node : -1;
}

/**
 * Which chains the answer's `explain` holds: every key's (`LeafId.Count`) for `true`, one key's for its name, none (-1).
 * A name that is no key is a UsageError at `--explain`, with the did-you-mean and the keys, as `dropkit config` reports it.
 */
function explainedLeaf(tape: Tape, node: i32, errors: Array<Diagnostic>): i32 {
  if (node < 0) return -1;
  if (tape.kind(node) != JsonKind.String) return LeafId.Count;
  const key = tape.text(node);
  const keys = new Array<string>(LeafId.Count);
  for (let i = 0; i < LeafId.Count; i++) {
    if (LEAVES[i].key == key) return i;
    keys[i] = LEAVES[i].key;
  }
  const suggestion = suggest(key, keys);
  const message = format('Unknown key "%" for --explain.% Keys: %.', key, quoted(suggestion), keys.join(", "));
  const d = Diagnostic.from(USAGE_ERROR, Code.UnknownKey, "", message, "--explain");
  d.suggestion = suggestion;
  d.expected = keys;
  errors.push(d);
  return -1;
}

function hasPathEntry(entries: Array<Span>): bool {
  for (let i = 0; i < entries.length; i++) if (isPresetPath(unchecked(entries[i]))) return true;
  return false;
}
