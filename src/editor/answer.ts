// The core's finished `resolve` answer as editors show it: one row per leaf with its origin, and every layer that set a key.

import { deriveDecisions, deriveListEntries, type Decision, type ListEntry } from "../core/decisions.js";
import type { CoreDiagnostic, CoreWarning, LeafOrigin, Origin, Plan, PresetChoice, ResolveDone, ResolvedConfig } from "../core/protocol.js";

/** One leaf of the resolved config: a decision record (SPEC section 7), plus what an editor marks. */
export interface Row extends Decision {
  /** Set for the union lists: each entry with its origin. */
  entries?: ListEntry[];
  /** The key has a problem: its value is what applies meanwhile (the next layer down's). */
  invalid: boolean;
}

/** One layer that set a key, as `dropkit config --explain` lists it. */
export interface Step extends Origin {
  value: unknown;
  status: "wins" | "overridden" | "merged";
}

export interface Answer {
  ok: boolean;
  errors: CoreDiagnostic[];
  warnings: CoreWarning[];
  /** Every leaf the core resolved, in its order (SPEC section 2); empty when nothing resolved. */
  rows: Row[];
  /** Whether the answer carries a resolved config although it has problems. */
  partial: boolean;
  /** Per key, every layer that set it, winner first: only when the request asked for `explain`. */
  explain?: Record<string, Step[]>;
  presets?: { mode: "auto" | "list"; applied: PresetChoice[]; skipped: PresetChoice[] };
  plan?: Plan;
}

/**
 * Every layer that set a key, the winner first, each with its status: a union list (`modules.*`) merges them all; any
 * other key has one winner and the layers it overrides.
 */
export function stepsOf(chain: Array<Origin & { value: unknown }>, union: boolean): Step[] {
  return chain.map((step, i): Step => ({ ...step, status: union ? "merged" : i === 0 ? "wins" : "overridden" }));
}

/** An editor's view of a finished answer: decision rows from `config` + `origins`, never a list of the core's. */
export function readAnswer(done: ResolveDone): Answer {
  const rows = done.config && done.origins ? decisionRows(done.config, done.origins, new Set(done.invalid ?? [])) : [];
  const union = new Set(rows.filter((r) => r.entries).map((r) => r.key));
  const explain = done.explain
    ? Object.fromEntries(Object.entries(done.explain).map(([key, chain]) => [key, stepsOf(chain, union.has(key))]))
    : undefined;
  return {
    ok: done.ok,
    errors: done.errors,
    warnings: done.warnings,
    rows,
    partial: !done.ok && rows.length > 0,
    ...(explain ? { explain } : {}),
    ...(done.presets ? { presets: done.presets } : {}),
    ...(done.plan ? { plan: done.plan } : {}),
  };
}

/**
 * The decision records of an answer (SPEC section 7): one per leaf, its value in `config` and its origin,
 * in the order of `origins`; a union list's items paired with their origins (`origins[key].entries[i]`).
 * With problems, the core has left the invalid values out, so a leaf in `invalid` shows what applies meanwhile.
 */
export function decisionRows(config: ResolvedConfig, origins: Record<string, LeafOrigin>, invalid: Set<string>): Row[] {
  const answer = { config, origins };
  const lists = deriveListEntries(answer);
  return deriveDecisions(answer)
    .filter((d) => d.value !== undefined)
    .map((d) => ({ ...d, invalid: invalid.has(d.key), ...(lists[d.key] ? { entries: lists[d.key] } : {}) }));
}
