// Decision records (SPEC section 7) derived from the core's resolve answer: a leaf's value in `config` with its origin. Browser-safe.

import type { CoreWarning, Origin, ResolvedConfig, WarningCode } from "./protocol.js";

/** One leaf of the resolved config with the layer and source that set it: a `decision` record of the log. */
export interface Decision extends Origin {
  /** The dotted key, such as `hooks.onFailure`. */
  key: string;
  value: unknown;
}

/** One item of a union list (`modules.*`) with its own origin. */
export interface ListEntry extends Origin {
  value: string;
}

/** The parts of a resolve answer that decisions come from. */
export interface Resolution {
  config?: ResolvedConfig;
  origins?: Record<string, Origin & { entries?: Origin[] }>;
}

/**
 * One decision per leaf, in the order of `origins` (the order of SPEC section 2): the core does not repeat them,
 * since each is a value of `config` with its origin. Empty when the answer has no config.
 */
export function deriveDecisions(answer: Resolution): Decision[] {
  const { config, origins } = answer;
  if (!config || !origins) return [];
  return Object.entries(origins).map(([key, origin]) => ({ key, value: valueAt(config, key), layer: origin.layer, source: origin.source }));
}

/** Every union list's items, each with its own origin: `origins[key].entries` beside the list in `config`. */
export function deriveListEntries(answer: Resolution): Record<string, ListEntry[]> {
  const out: Record<string, ListEntry[]> = {};
  const { config, origins } = answer;
  if (!config || !origins) return out;
  for (const [key, origin] of Object.entries(origins)) {
    const values = valueAt(config, key);
    // A partial answer (with problems) may lack a list that could not be resolved.
    if (!origin.entries || !Array.isArray(values)) continue;
    out[key] = origin.entries.map((e, i) => ({ value: String(values[i]), layer: e.layer, source: e.source }));
  }
  return out;
}

/** The value at a dotted key of the config (`hooks.onFailure`); undefined where a partial answer has none. */
export function valueAt(config: ResolvedConfig, key: string): unknown {
  let value: unknown = config;
  for (const part of key.split("."))
    value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[part] : undefined;
  return value;
}

/** The codes of the warnings a plan adds: about the drop's archives and the module globs, not the layers. */
const planCodes: ReadonlySet<WarningCode> = new Set<WarningCode>(["GlobUnmatched", "OnlySelectsNone", "NameClash"]);

/**
 * The warnings of an answer that its plan added (an unmatched module glob, an `only` that selects nothing, a name two
 * archives share). A host that resolves once without the archives (and logs that answer's warnings) and again with
 * them logs these from the second answer: the others it holds again are the first one's.
 */
export function planWarnings(answer: { warnings: CoreWarning[] }): CoreWarning[] {
  return answer.warnings.filter((w) => w.code !== undefined && planCodes.has(w.code));
}
