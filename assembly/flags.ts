// The flags layer: the CLI flags of a resolve request (SPEC section 4), checked as the CLI's usage errors.

import { Diagnostic, USAGE_ERROR } from "./diagnostic";
import { LAYER_CLI, Layer } from "./layer";
import { LEAF_EXCLUDE, LEAF_LOG_FORMAT, LEAF_PRESETS, LEAF_THEME, LEAVES, checkText, normalizeValue } from "./schema";
import { KIND_ARRAY, KIND_NULL, KIND_OBJECT, KIND_STRING, Tape } from "./tape";
import { itemPath } from "./text";

/** Reads `flags` (node `node` of the request, -1 when absent): bad values are UsageErrors, a malformed field a problem of the request. */
export function readFlags(req: Tape, node: i32, cwd: string, errors: Array<Diagnostic>, problems: Array<string>): Layer {
  const layer = new Layer(LAYER_CLI, cwd);
  if (node < 0 || req.kind(node) == KIND_NULL) return layer;
  if (req.kind(node) != KIND_OBJECT) {
    problems.push("flags must be an object");
    return layer;
  }
  const end = req.next(node);
  for (let k = node + 1; k < end; k = req.next(k + 1)) {
    const value = k + 1;
    if (req.equals(k, "theme")) {
      flagText(req, layer, LEAF_THEME, "--theme", value, errors, problems);
    } else if (req.equals(k, "logFormat")) {
      flagText(req, layer, LEAF_LOG_FORMAT, "--log-format", value, errors, problems);
    } else if (req.equals(k, "exclude")) {
      flagList(req, layer, LEAF_EXCLUDE, "--exclude", value, errors, problems);
    } else if (req.equals(k, "preset")) {
      flagList(req, layer, LEAF_PRESETS, "--preset", value, errors, problems);
    } else if (!req.equals(k, "config")) {
      problems.push("flags." + req.text(k) + " is not a flag: expected theme, exclude, preset, logFormat or config");
    }
  }
  return layer;
}

function flagText(req: Tape, layer: Layer, leaf: i32, flag: string, value: i32, errors: Array<Diagnostic>, problems: Array<string>): void {
  if (req.kind(value) == KIND_NULL) return;
  if (req.kind(value) != KIND_STRING) {
    problems.push("flags value for " + flag + " must be a string");
    return;
  }
  const text = req.text(value);
  const problem = checkText(leaf, text);
  if (problem.length > 0) {
    errors.push(Diagnostic.invalid(USAGE_ERROR, LEAVES[leaf].key, "for " + flag, problem, text, flag));
    return;
  }
  layer.setText(leaf, normalizeValue(leaf, text, layer.baseDir), flag);
}

function flagList(req: Tape, layer: Layer, leaf: i32, flag: string, value: i32, errors: Array<Diagnostic>, problems: Array<string>): void {
  if (req.kind(value) == KIND_NULL) return;
  const items = stringList(req, value, "flags value for " + flag, problems);
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

/** The strings of array node `node` of a request; anything else is a problem of the request (named `what`). */
export function stringList(req: Tape, node: i32, what: string, problems: Array<string>): Array<string> {
  const out = new Array<string>();
  if (req.kind(node) != KIND_ARRAY) {
    problems.push(what + " must be an array of strings");
    return out;
  }
  const end = req.next(node);
  for (let item = node + 1, i = 0; item < end; item = req.next(item), i++) {
    if (req.kind(item) != KIND_STRING) {
      problems.push(itemPath(what, i) + " must be a string");
      continue;
    }
    out.push(req.text(item));
  }
  return out;
}
