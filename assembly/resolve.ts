// The resolve op: every layer read, the presets worked out (or asked for), the layers merged, the plan made.
//
// Its stages (docs/abi.md): a host that has not sent the preset files or the auto-detect answers the merge
// needs is asked for them first. Once an input has a problem, the core asks for nothing more: it answers at
// once with every problem and with what the valid values give.

import { Diagnostic, Warning } from "./diagnostic";
import { readInto, sourceDocument } from "./document";
import { readEnvironment } from "./env";
import { readFlags, stringList } from "./flags";
import { LAYER_CLI, LAYER_CONFIG, Layer } from "./layer";
import { Entry, defaultLayer, mergeLayers, mergeLeaf } from "./merge";
import { PresetChoice, applyListed, availableNames, baseDirOf, candidates, detectPresets, readPresetFiles } from "./presets";
import { isAbsolutePath } from "./paths";
import { writeNeedDetect, writeNeedPresets, writeResolved } from "./answer";
import { beginStage } from "./response";
import { LEAF_EXCLUDE, LEAF_INCLUDE, LEAF_LOG_FORMAT, LEAF_ONLY, LEAF_PRESETS, LEAF_SEARCH_PATH, LEAF_THEME, isPresetPath } from "./schema";
import { Plan, selectPlan } from "./select";
import { KIND_BOOL, KIND_NULL, KIND_OBJECT, KIND_STRING, Tape } from "./tape";
import { DOC_CONFIG } from "./validate";
import { JsonWriter } from "./writer";

/** Runs a resolve request (object node `req` of `tape`), writing the answer. A malformed request adds to `problems` and writes nothing. */
export function resolveRequest(tape: Tape, req: i32, w: JsonWriter, problems: Array<string>): void {
  const cwdNode = tape.member(req, "cwd");
  const cwd = cwdNode >= 0 && tape.kind(cwdNode) == KIND_STRING ? tape.text(cwdNode) : "";
  if (!isAbsolutePath(cwd)) {
    problems.push("cwd must be an absolute directory path");
    return;
  }
  const explain = wantsExplain(tape, req, problems);
  const errors = new Array<Diagnostic>();
  const warnings = new Array<Warning>();

  const cli = readFlags(tape, tape.member(req, "flags"), cwd, errors, problems);
  const env = readEnvLayer(tape, tape.member(req, "env"), cwd, errors, warnings, problems);
  let config: Layer | null = null;
  const configNode = tape.member(req, "config");
  if (configNode >= 0 && tape.kind(configNode) != KIND_NULL) {
    const doc = sourceDocument(tape, configNode, DOC_CONFIG, "<config>", problems, "config");
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
  const logLayers = upper.slice();
  logLayers.push(defaults);
  const logFormat = mergeLeaf(logLayers, LEAF_LOG_FORMAT).text();

  // Presets: the list comes from flags, environment or config; presets cannot name presets.
  const listed = mergeLeaf(upper, LEAF_PRESETS);
  const auto = listed.chain.length == 0;
  const searchPath = mergeLeaf(upper, LEAF_SEARCH_PATH).list();
  const filesNode = tape.member(req, "presetFiles");
  const needFiles = filesNode < 0 && (searchPath.length > 0 || hasPathEntry(listed.list()));
  if (needFiles && errors.length == 0) {
    writeNeedPresets(w, auto, listed, searchPath, logFormat, warnings);
    return;
  }
  // Once inputs have problems, a malformed field further on is left unused rather than refused: the answer
  // is about those problems (status 0), as it was before the core went on past them.
  let later = errors.length > 0 ? new Array<string>() : problems;
  const files = readPresetFiles(tape, filesNode, later);
  const available = availableNames(tape, tape.member(req, "presetNames"), files);
  if (problems.length > 0) return;

  const applied = new Array<PresetChoice>();
  const skipped = new Array<PresetChoice>();
  let presetsKnown = !needFiles && later.length == 0;
  if (presetsKnown && !auto) {
    const s = listed.setting!;
    for (let i = 0; i < s.list.length; i++) applyListed(s.list[i], s.sources[i], files, available, cwd, applied, errors);
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
  for (let i = applied.length - 1; i >= 0; i--) layers.push(applied[i].layer);
  layers.push(defaults);
  const merged = mergeLayers(layers);

  let plan: Plan | null = null;
  const archivesNode = tape.member(req, "archives");
  later = errors.length > 0 ? new Array<string>() : problems;
  const archives = archivesNode >= 0 && tape.kind(archivesNode) != KIND_NULL ? stringList(tape, archivesNode, "archives", later) : null;
  if (problems.length > 0) return;
  if (archives != null && later.length == 0) {
    plan = selectPlan(
      archives, merged[LEAF_THEME].text(), merged[LEAF_THEME].source, cwd,
      merged[LEAF_ONLY].entries, merged[LEAF_EXCLUDE].entries, merged[LEAF_INCLUDE].entries, flagExcludes(cli),
    );
    for (let i = 0; i < plan.errors.length; i++) errors.push(plan.errors[i]);
  }

  const presetNames = new Array<string>();
  if (auto) for (let i = 0; i < applied.length; i++) presetNames.push(applied[i].layer.label);
  beginStage(w, errors.length == 0, "done", inputErrors > 0 ? logFormat : merged[LEAF_LOG_FORMAT].text());
  writeResolved(w, merged, auto, presetNames, presetsKnown ? applied : null, skipped, plan, errors, warnings, explain);
}

/** The environment layer from `env` (node `node` of the request, -1 when absent): variable names to raw strings. */
function readEnvLayer(tape: Tape, node: i32, cwd: string, errors: Array<Diagnostic>, warnings: Array<Warning>, problems: Array<string>): Layer {
  const names = new Array<string>();
  const values = new Array<string>();
  if (node >= 0 && tape.kind(node) == KIND_OBJECT) {
    const end = tape.next(node);
    for (let k = node + 1; k < end; k = tape.next(k + 1)) {
      if (tape.kind(k + 1) != KIND_STRING) {
        problems.push("env." + tape.text(k) + " must be a string");
        continue;
      }
      names.push(tape.text(k));
      values.push(tape.text(k + 1));
    }
  } else if (node >= 0 && tape.kind(node) != KIND_NULL) {
    problems.push("env must be an object of variable names to string values");
  }
  return readEnvironment(names, values, cwd, errors, warnings);
}

/** The --exclude flag's globs, which win over every other layer in module selection. */
function flagExcludes(cli: Layer): Array<Entry> {
  const list = new Array<Entry>();
  const s = cli.get(LEAF_EXCLUDE);
  if (s == null) return list;
  for (let i = 0; i < s.list.length; i++) list.push(new Entry(s.list[i], LAYER_CLI, s.sources[i]));
  return list;
}

/** Whether the request asks for `explain` (`"explain": true`); any other value than a boolean is malformed. */
function wantsExplain(tape: Tape, req: i32, problems: Array<string>): bool {
  const node = tape.member(req, "explain");
  if (node < 0 || tape.kind(node) == KIND_NULL) return false;
  if (tape.kind(node) != KIND_BOOL) problems.push("explain must be true or false");
  return tape.isTrue(node);
}

function hasPathEntry(entries: Array<string>): bool {
  for (let i = 0; i < entries.length; i++) if (isPresetPath(entries[i])) return true;
  return false;
}
