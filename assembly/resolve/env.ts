// The environment layer: DROPKIT_* variables parsed into settings (SPEC section 4).

import { COMMA, DIGIT_0, DIGIT_5, PERIOD } from "../json/chars";
import { Code, Diagnostic, MAX_LISTED_PROBLEMS, SCHEMA_ERROR, Warning, warning } from "../schema/diagnostic";
import { Items } from "./listitems";
import { Layer } from "./layer";
import { LayerKind } from "./precedence";
import { LEAVES, LeafId, LeafType, checkSpan, checked, normalizeValue } from "../schema/schema";
import { isDigit } from "../json/scanner";
import { Source } from "../schema/valuesource";
import {
  Span,
  byteOf,
  sameSpan,
  spanIs,
  spanIsIgnoreCase,
  spanLen,
  spanText,
  spansOf,
  startsWithAscii,
  subSpan,
  trimSpan,
} from "../json/span";
import { suggest } from "../schema/suggest";
import { JsonKind, Tape } from "../json/tape";
import { format, intText, itemPath, words } from "../json/strings";

/** Variables the host reads itself; the core knows them so that it does not warn about them. */
export const HOST_VARIABLES: Array<string> = words("DROPKIT_CONFIG DROPKIT_HOOK_TIMEOUT DROPKIT_DEBUG DROPKIT_SAFE_DIRECTORIES");
const HOST_SPANS = spansOf(HOST_VARIABLES);
const HOOK_TIMEOUT = HOST_SPANS[1];

/** The longest hook timeout: what a host's timer holds (2^31 - 1 ms, as Node's setTimeout). */
const MAX_HOOK_TIMEOUT_MS: i64 = 2147483647;

/**
 * What the environment sets besides the config's leaves: DROPKIT_HOOK_TIMEOUT, whose value rule is the core's
 * (so that every command meets the same verdict) while the host runs the hooks.
 */
export class HostSettings {
  /** The per-hook timeout in ms; -1 when the variable is unset or empty (the host's default applies). */
  hookTimeoutMs: i32 = -1;
}

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
  req: Tape,
  node: i32,
  cwd: Span,
  errors: Array<Diagnostic>,
  warnings: Array<Warning>,
  problems: Array<string>,
  host: HostSettings,
): Layer {
  const layer = new Layer(LayerKind.Env, cwd);
  if (node < 0 || req.kind(node) == JsonKind.Null) return layer;
  if (req.kind(node) != JsonKind.Object) {
    problems.push("env must be an object of variable names to string values");
    return layer;
  }
  // Unknown variables past the first MAX_LISTED_PROBLEMS are counted, not described: each suggestion costs.
  let named = 0;
  let unnamed = 0;
  const end = req.next(node);
  for (let k = node + 1; k < end; k = req.next(k + 1)) {
    if (req.kind(k + 1) != JsonKind.String) {
      problems.push("env." + req.text(k) + " must be a string");
      continue;
    }
    const name = req.span(k);
    if (!startsWithAscii(name, "DROPKIT_")) continue;
    const leaf = leafOf(name);
    if (leaf >= 0) {
      readVariable(layer, leaf, name, req.span(k + 1), errors);
    } else if (isHostVariable(name)) {
      if (sameSpan(name, HOOK_TIMEOUT)) readHookTimeout(req.span(k + 1), host, errors);
    } else if (named++ >= MAX_LISTED_PROBLEMS) {
      unnamed++;
    } else {
      const text = spanText(name);
      const known = knownVariables();
      const near = nearVariables(text, known);
      const hint = near.length == 0 ? "" : format(" Did you mean %?", (near.length > 1 ? "one of " : "") + near.join(", "));
      const w = warning(
        format("Unknown environment variable % is ignored.% dropkit reads: %.", text, hint, known.join(", ")),
        text,
        Code.UnknownVariable,
      );
      if (near.length == 1) w.suggestion = near[0];
      warnings.push(w);
    }
  }
  if (unnamed > 0) {
    const more = format("% more unknown DROPKIT_* variables are ignored (not listed one by one).", intText(unnamed));
    warnings.push(warning(more, "environment", Code.UnknownVariable));
  }
  return layer;
}

/**
 * The variables an unknown one may mean. A near name users reach for first (NEAR_NAMES) means its variable. A name that
 * stops short of known ones (`DROPKIT_CACHE`) means one of them: several are no single guess. Otherwise the closest name
 * by edit distance over the part after `DROPKIT_`: the shared prefix must not make `DROPKIT_CACHE` look close to
 * `DROPKIT_THEME`.
 */
function nearVariables(name: string, known: Array<string>): Array<string> {
  const out = new Array<string>();
  for (let i = 0; i < NEAR_NAMES.length; i += 2) {
    if (name == NEAR_NAMES[i]) {
      out.push(NEAR_NAMES[i + 1]);
      return out;
    }
  }
  for (let i = 0; i < known.length; i++) if (known[i].startsWith(name + "_")) out.push(known[i]);
  if (out.length > 0) return out;
  const tails = new Array<string>();
  for (let i = 0; i < known.length; i++) tails.push(known[i].slice(PREFIX.length));
  const close = suggest(name.slice(PREFIX.length), tails);
  if (close.length > 0) out.push(PREFIX + close);
  return out;
}

const PREFIX = "DROPKIT_";

/**
 * The names users reach for first, each before the variable it means (issue 35): the flag's word (`--exclude`), or the
 * singular, rather than the config's path. They are too many edits away for the general rule, so they are named.
 */
const NEAR_NAMES: Array<string> = words(
  "DROPKIT_EXCLUDE DROPKIT_MODULES_EXCLUDE DROPKIT_INCLUDE DROPKIT_MODULES_INCLUDE DROPKIT_ONLY DROPKIT_MODULES_ONLY DROPKIT_PRESET DROPKIT_PRESETS",
);

function readVariable(layer: Layer, leaf: LeafId, name: Span, raw: Span, errors: Array<Diagnostic>): void {
  const def = unchecked(LEAVES[leaf]);
  const source = new Source(name);
  if (def.isList()) {
    // Lists: comma-separated, blanks trimmed, empty items dropped; an empty variable is an empty list.
    const items = new Items(LayerKind.Env);
    let ok = true;
    // The index of an item among the non-empty ones, valid or not, for the path of a problem.
    let index = 0;
    const n = spanLen(raw);
    for (let start = 0; start <= n; ) {
      let end = start;
      while (end < n && byteOf(raw, end) != COMMA) end++;
      const item = trimSpan(subSpan(raw, start, end - start));
      start = end + 1;
      if (spanLen(item) == 0) continue;
      const problem = checkSpan(leaf, item);
      if (problem.length > 0) {
        errors.push(checked(invalid(itemPath(def.key, index++), name, problem, item), leaf));
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
  if (def.type == LeafType.Bool) {
    if (spanIsIgnoreCase(value, "true") || spanIs(value, "1") || spanIsIgnoreCase(value, "yes")) layer.setFlag(leaf, true, source);
    else if (spanIsIgnoreCase(value, "false") || spanIs(value, "0") || spanIsIgnoreCase(value, "no")) layer.setFlag(leaf, false, source);
    else errors.push(invalid(def.key, name, "expected true, false, 1, 0, yes or no", value, Code.NotOneOf));
    return;
  }
  if (def.type == LeafType.Schema) return;
  const problem = checkSpan(leaf, value);
  if (problem.length > 0) {
    errors.push(checked(invalid(def.key, name, problem, value), leaf));
    return;
  }
  layer.setValue(leaf, normalizeValue(leaf, value, layer.baseDir), source);
}

/**
 * DROPKIT_HOOK_TIMEOUT: seconds, decimals allowed (`120`, `1.5`), blanks around them trimmed; empty means unset. Anything
 * else, and a value that rounds to 0 ms or past what a timer holds, is a SchemaValidationError naming the variable.
 */
function readHookTimeout(raw: Span, host: HostSettings, errors: Array<Diagnostic>): void {
  const value = trimSpan(raw);
  if (spanLen(value) == 0) return;
  const ms = timeoutMs(value);
  if (ms > 0) {
    host.hookTimeoutMs = <i32>ms;
    return;
  }
  const variable = spanText(HOOK_TIMEOUT);
  errors.push(
    Diagnostic.from(
      SCHEMA_ERROR,
      Code.HookTimeout,
      "",
      format(
        '% must be a positive number of seconds up to %, e.g. 120; got "%".',
        variable,
        intText(<i32>(MAX_HOOK_TIMEOUT_MS / 1000)),
        spanText(raw),
      ),
      variable,
    ),
  );
}

/** Digits with an optional fraction (`1.5`), as ms rounded half up; -1 for any other text or past the longest timeout. */
function timeoutMs(value: Span): i64 {
  const n = spanLen(value);
  let ms: i64 = 0;
  let i = 0;
  for (; i < n && isDigit(byteOf(value, i)); i++) {
    ms = ms * 10 + <i64>(byteOf(value, i) - DIGIT_0) * 1000;
    if (ms > MAX_HOOK_TIMEOUT_MS) return -1;
  }
  if (i == 0) return -1;
  if (i == n) return ms;
  if (byteOf(value, i) != PERIOD || i + 1 == n) return -1;
  // The fraction: three digits of ms, the fourth rounds, the rest only have to be digits.
  let scale: i64 = 100;
  for (let j = i + 1; j < n; j++) {
    const c = byteOf(value, j);
    if (!isDigit(c)) return -1;
    if (scale > 0) ms += <i64>(c - DIGIT_0) * scale;
    else if (j == i + 4 && c >= DIGIT_5) ms++;
    scale /= 10;
  }
  return ms > MAX_HOOK_TIMEOUT_MS ? -1 : ms;
}

/** A bad value of a variable: a SchemaValidationError whose source is the variable (its code the check's, given by `checked`). */
function invalid(path: string, name: Span, problem: string, value: Span, code: Code = Code.EmptyValue): Diagnostic {
  const variable = spanText(name);
  return Diagnostic.invalid(SCHEMA_ERROR, code, path, "in " + variable, problem, spanText(value), variable);
}

function leafOf(name: Span): i32 {
  for (let i = 0; i < LEAVES.length; i++) if (sameSpan(name, unchecked(LEAVES[i]).envName)) return i;
  return -1;
}

function isHostVariable(name: Span): bool {
  for (let i = 0; i < HOST_SPANS.length; i++) if (sameSpan(name, unchecked(HOST_SPANS[i]))) return true;
  return false;
}
