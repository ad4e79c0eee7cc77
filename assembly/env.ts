// The environment layer: DROPKIT_* variables parsed into settings (SPEC section 4).

import { Diagnostic, MAX_LISTED_PROBLEMS, SCHEMA_ERROR, Warning, warning } from "./diagnostic";
import { Items } from "./items";
import { LAYER_ENV, Layer } from "./layer";
import { LEAVES, TYPE_BOOL, TYPE_SCHEMA, checkSpan, normalizeValue } from "./schema";
import { Source } from "./source";
import { Span, byteOf, sameSpan, spanIs, spanIsIgnoreCase, spanLen, spanText, spansOf, startsWithAscii, subSpan, trimSpan } from "./span";
import { suggest } from "./suggest";
import { KIND_NULL, KIND_OBJECT, KIND_STRING, Tape } from "./tape";
import { format, intText, itemPath, words } from "./text";

/** Variables the host reads itself; the core knows them so that it does not warn about them. */
export const HOST_VARIABLES: Array<string> = words("DROPKIT_CONFIG DROPKIT_HOOK_TIMEOUT DROPKIT_DEBUG DROPKIT_SAFE_DIRECTORIES");
const HOST_SPANS = spansOf(HOST_VARIABLES);

/** Every variable dropkit reads, for suggestions. */
function knownVariables(): Array<string> {
  const names = new Array<string>();
  for (let i = 0; i < LEAVES.length; i++) if (LEAVES[i].env.length > 0) names.push(LEAVES[i].env);
  for (let i = 0; i < HOST_VARIABLES.length; i++) names.push(HOST_VARIABLES[i]);
  return names;
}

/**
 * Builds the environment layer from `env` (node `node` of the request, -1 when absent): variable names to raw
 * strings, of which only DROPKIT_* ones are looked at. A value that is not a string is a problem of the request.
 */
export function readEnvironment(
  req: Tape, node: i32, cwd: Span, errors: Array<Diagnostic>, warnings: Array<Warning>, problems: Array<string>,
): Layer {
  const layer = new Layer(LAYER_ENV, cwd);
  if (node < 0 || req.kind(node) == KIND_NULL) return layer;
  if (req.kind(node) != KIND_OBJECT) {
    problems.push("env must be an object of variable names to string values");
    return layer;
  }
  // Unknown variables past the first MAX_LISTED_PROBLEMS are counted, not described: each suggestion costs.
  let named = 0;
  let unnamed = 0;
  const end = req.next(node);
  for (let k = node + 1; k < end; k = req.next(k + 1)) {
    if (req.kind(k + 1) != KIND_STRING) {
      problems.push("env." + req.text(k) + " must be a string");
      continue;
    }
    const name = req.span(k);
    if (!startsWithAscii(name, "DROPKIT_")) continue;
    const leaf = leafOf(name);
    if (leaf >= 0) {
      readVariable(layer, leaf, name, req.span(k + 1), errors);
    } else if (isHostVariable(name)) {
      continue;
    } else if (named++ >= MAX_LISTED_PROBLEMS) {
      unnamed++;
    } else {
      const text = spanText(name);
      const known = knownVariables();
      const close = suggest(text, known);
      warnings.push(warning(
        format(
          "Unknown environment variable % is ignored.% dropkit reads: %.",
          text, close.length > 0 ? " Did you mean " + close + "?" : "", known.join(", "),
        ),
        text,
      ));
    }
  }
  if (unnamed > 0) warnings.push(warning(format("% more unknown DROPKIT_* variables are ignored (not listed one by one).", intText(unnamed)), "environment"));
  return layer;
}

function readVariable(layer: Layer, leaf: i32, name: Span, raw: Span, errors: Array<Diagnostic>): void {
  const def = unchecked(LEAVES[leaf]);
  const source = new Source(name);
  if (def.isList()) {
    // Lists: comma-separated, blanks trimmed, empty items dropped; an empty variable is an empty list.
    const items = new Items(LAYER_ENV);
    let ok = true;
    // The index of an item among the non-empty ones, valid or not, for the path of a problem.
    let index = 0;
    const n = spanLen(raw);
    for (let start = 0; start <= n; ) {
      let end = start;
      while (end < n && byteOf(raw, end) != 0x2c) end++;
      const item = trimSpan(subSpan(raw, start, end - start));
      start = end + 1;
      if (spanLen(item) == 0) continue;
      const problem = checkSpan(leaf, item);
      if (problem.length > 0) {
        errors.push(invalid(itemPath(def.key, index++), name, problem, item));
        ok = false;
        continue;
      }
      index++;
      items.add(normalizeValue(leaf, item, layer.baseDir), source);
    }
    if (ok) layer.addList(leaf, items, source);
    return;
  }
  // Scalars: an empty variable counts as unset.
  const value = trimSpan(raw);
  if (spanLen(value) == 0) return;
  if (def.type == TYPE_BOOL) {
    if (spanIsIgnoreCase(value, "true") || spanIs(value, "1") || spanIsIgnoreCase(value, "yes")) layer.setFlag(leaf, true, source);
    else if (spanIsIgnoreCase(value, "false") || spanIs(value, "0") || spanIsIgnoreCase(value, "no")) layer.setFlag(leaf, false, source);
    else errors.push(invalid(def.key, name, "expected true, false, 1, 0, yes or no", value));
    return;
  }
  if (def.type == TYPE_SCHEMA) return;
  const problem = checkSpan(leaf, value);
  if (problem.length > 0) {
    errors.push(invalid(def.key, name, problem, value));
    return;
  }
  layer.setValue(leaf, normalizeValue(leaf, value, layer.baseDir), source);
}

/** A bad value of a variable: a SchemaValidationError whose source is the variable. */
function invalid(path: string, name: Span, problem: string, value: Span): Diagnostic {
  const variable = spanText(name);
  return Diagnostic.invalid(SCHEMA_ERROR, path, "in " + variable, problem, spanText(value), variable);
}

function leafOf(name: Span): i32 {
  for (let i = 0; i < LEAVES.length; i++) if (sameSpan(name, unchecked(LEAVES[i]).envName)) return i;
  return -1;
}

function isHostVariable(name: Span): bool {
  for (let i = 0; i < HOST_SPANS.length; i++) if (sameSpan(name, unchecked(HOST_SPANS[i]))) return true;
  return false;
}
