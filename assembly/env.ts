// The environment layer: DROPKIT_* variables parsed into settings (SPEC section 4).

import { Diagnostic, MAX_LISTED_PROBLEMS, SCHEMA_ERROR, Warning, warning } from "./diagnostic";
import { LAYER_ENV, Layer } from "./layer";
import { LEAVES, TYPE_BOOL, TYPE_SCHEMA, checkText, normalizeValue } from "./schema";
import { suggest } from "./suggest";
import { asciiLower, format, intText, itemPath, words } from "./text";

/** Variables the host reads itself; the core knows them so that it does not warn about them. */
export const HOST_VARIABLES: Array<string> = words("DROPKIT_CONFIG DROPKIT_HOOK_TIMEOUT DROPKIT_DEBUG");

/** Every variable dropkit reads, for suggestions. */
function knownVariables(): Array<string> {
  const names = new Array<string>();
  for (let i = 0; i < LEAVES.length; i++) if (LEAVES[i].env.length > 0) names.push(LEAVES[i].env);
  for (let i = 0; i < HOST_VARIABLES.length; i++) names.push(HOST_VARIABLES[i]);
  return names;
}

/** Builds the environment layer from variable names and values (only DROPKIT_* ones are looked at). */
export function readEnvironment(names: Array<string>, values: Array<string>, cwd: string, errors: Array<Diagnostic>, warnings: Array<Warning>): Layer {
  const layer = new Layer(LAYER_ENV, cwd);
  // Unknown variables past the first MAX_LISTED_PROBLEMS are counted, not described: each suggestion costs.
  let named = 0;
  let unnamed = 0;
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    if (!name.startsWith("DROPKIT_")) continue;
    const leaf = leafOf(name);
    if (leaf >= 0) {
      readVariable(layer, leaf, name, values[i], errors);
    } else if (HOST_VARIABLES.includes(name)) {
      continue;
    } else if (named++ >= MAX_LISTED_PROBLEMS) {
      unnamed++;
    } else {
      const known = knownVariables();
      const close = suggest(name, known);
      warnings.push(warning(
        format(
          "Unknown environment variable % is ignored.% dropkit reads: %.",
          name, close.length > 0 ? " Did you mean " + close + "?" : "", known.join(", "),
        ),
        name,
      ));
    }
  }
  if (unnamed > 0) warnings.push(warning(format("% more unknown DROPKIT_* variables are ignored (not listed one by one).", intText(unnamed)), "environment"));
  return layer;
}

function readVariable(layer: Layer, leaf: i32, name: string, raw: string, errors: Array<Diagnostic>): void {
  const def = LEAVES[leaf];
  if (def.isList()) {
    // Lists: comma-separated, blanks trimmed, empty items dropped; an empty variable is an empty list.
    const parts = raw.split(",");
    const values = new Array<string>();
    const sources = new Array<string>();
    let ok = true;
    // The index of an item among the non-empty ones, valid or not, for the path of a problem.
    let index = 0;
    for (let i = 0; i < parts.length; i++) {
      const item = parts[i].trim();
      if (item.length == 0) continue;
      const problem = checkText(leaf, item);
      if (problem.length > 0) {
        errors.push(Diagnostic.invalid(SCHEMA_ERROR, itemPath(def.key, index++), "in " + name, problem, item, name));
        ok = false;
        continue;
      }
      index++;
      values.push(normalizeValue(leaf, item, layer.baseDir));
      sources.push(name);
    }
    if (ok) layer.addList(leaf, values, sources, name);
    return;
  }
  // Scalars: an empty variable counts as unset.
  const value = raw.trim();
  if (value.length == 0) return;
  if (def.type == TYPE_BOOL) {
    const lower = asciiLower(value);
    if (lower == "true" || lower == "1" || lower == "yes") layer.setFlag(leaf, true, name);
    else if (lower == "false" || lower == "0" || lower == "no") layer.setFlag(leaf, false, name);
    else errors.push(Diagnostic.invalid(SCHEMA_ERROR, def.key, "in " + name, "expected true, false, 1, 0, yes or no", value, name));
    return;
  }
  if (def.type == TYPE_SCHEMA) return;
  const problem = checkText(leaf, value);
  if (problem.length > 0) {
    errors.push(Diagnostic.invalid(SCHEMA_ERROR, def.key, "in " + name, problem, value, name));
    return;
  }
  layer.setText(leaf, normalizeValue(leaf, value, layer.baseDir), name);
}

function leafOf(name: string): i32 {
  for (let i = 0; i < LEAVES.length; i++) if (LEAVES[i].env == name) return i;
  return -1;
}
