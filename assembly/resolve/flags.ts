// The flags layer: the CLI flags of a resolve request (SPEC section 4), checked as the CLI's usage errors.

import { Code, Diagnostic, USAGE_ERROR } from "../schema/diagnostic";
import { Items } from "./listitems";
import { Layer } from "./layer";
import { LayerKind } from "./precedence";
import { LEAVES, LeafId, checkSpan, checked, normalizeValue } from "../schema/schema";
import { Source } from "../schema/valuesource";
import { Span, spanOf, spanText } from "../json/span";
import { JsonKind, Tape } from "../json/tape";
import { itemPath } from "../json/strings";

// Each flag is the source of what it sets.
const THEME_FLAG = new Source(spanOf("--theme"));
const LOG_FORMAT_FLAG = new Source(spanOf("--log-format"));
const EXCLUDE_FLAG = new Source(spanOf("--exclude"));
const PRESET_FLAG = new Source(spanOf("--preset"));

/** Reads `flags` (node `node` of the request, -1 when absent): bad values are UsageErrors, a malformed field a problem of the request. */
export function readFlags(req: Tape, node: i32, cwd: Span, errors: Array<Diagnostic>, problems: Array<string>): Layer {
  const layer = new Layer(LayerKind.Cli, cwd);
  if (node < 0 || req.kind(node) == JsonKind.Null) return layer;
  if (req.kind(node) != JsonKind.Object) {
    problems.push("flags must be an object");
    return layer;
  }
  const end = req.next(node);
  for (let k = node + 1; k < end; k = req.next(k + 1)) {
    const value = k + 1;
    if (req.equals(k, "theme")) {
      flagText(req, layer, LeafId.Theme, THEME_FLAG, value, errors, problems);
    } else if (req.equals(k, "logFormat")) {
      flagText(req, layer, LeafId.LogFormat, LOG_FORMAT_FLAG, value, errors, problems);
    } else if (req.equals(k, "exclude")) {
      flagList(req, layer, LeafId.Exclude, EXCLUDE_FLAG, value, errors, problems);
    } else if (req.equals(k, "preset")) {
      flagList(req, layer, LeafId.Presets, PRESET_FLAG, value, errors, problems);
    } else if (!req.equals(k, "config")) {
      problems.push("flags." + req.text(k) + " is not a flag: expected theme, exclude, preset, logFormat or config");
    }
  }
  return layer;
}

function flagText(
  req: Tape,
  layer: Layer,
  leaf: LeafId,
  flag: Source,
  value: i32,
  errors: Array<Diagnostic>,
  problems: Array<string>,
): void {
  if (req.kind(value) == JsonKind.Null) return;
  if (req.kind(value) != JsonKind.String) {
    problems.push("flags value for " + flag.text() + " must be a string");
    return;
  }
  const text = req.span(value);
  if (!checkFlag(leaf, flag, text, errors)) return;
  layer.setValue(leaf, normalizeValue(leaf, text, layer.baseDir), flag);
}

function flagList(
  req: Tape,
  layer: Layer,
  leaf: LeafId,
  flag: Source,
  value: i32,
  errors: Array<Diagnostic>,
  problems: Array<string>,
): void {
  if (req.kind(value) == JsonKind.Null) return;
  const items = spanList(req, value, "flags value for " + flag.text(), problems);
  const list = new Items(LayerKind.Cli);
  for (let i = 0; i < items.length; i++) {
    const item = unchecked(items[i]);
    if (checkFlag(leaf, flag, item, errors)) list.add(normalizeValue(leaf, item, layer.baseDir), flag);
  }
  // An empty --preset list is not a list at all: the flag was not given.
  if (list.length > 0) layer.addList(leaf, list, flag);
}

/** Checks a flag's value; a bad one is a UsageError. */
function checkFlag(leaf: LeafId, flag: Source, value: Span, errors: Array<Diagnostic>): bool {
  const problem = checkSpan(leaf, value);
  if (problem.length == 0) return true;
  const name = flag.text();
  errors.push(
    checked(Diagnostic.invalid(USAGE_ERROR, Code.EmptyValue, LEAVES[leaf].key, "for " + name, problem, spanText(value), name), leaf),
  );
  return false;
}

/** The strings of array node `node` of a request, as spans; anything else is a problem of the request (named `what`). */
export function spanList(req: Tape, node: i32, what: string, problems: Array<string>): Array<Span> {
  const out = new Array<Span>();
  if (req.kind(node) != JsonKind.Array) {
    problems.push(what + " must be an array of strings");
    return out;
  }
  const end = req.next(node);
  for (let item = node + 1, i = 0; item < end; item = req.next(item), i++) {
    if (req.kind(item) != JsonKind.String) {
      problems.push(itemPath(what, i) + " must be a string");
      continue;
    }
    out.push(req.span(item));
  }
  return out;
}
