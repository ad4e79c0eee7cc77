// The page's one reader of the core's `resolve` answer: runs the staged request on the simulated folder and turns the answer into rows.

import type { CoreDiagnostic, CoreWarning, Plan, PresetChoice, ResolveDone, ResolveRequest, ResolvedConfig } from "../src/core.ts";
import { leafKeys } from "./schema.ts";
import type { PageCore } from "./wasm.ts";

/** A preset file in the simulated folder: an absolute path and its JSON text. */
export interface SimulatedFile {
  path: string;
  text: string;
}

export interface Inputs extends Omit<ResolveRequest, "presetFiles" | "presetNames" | "detected"> {
  /** The preset files of the simulated folder (JSON only: the page cannot run `.ts`/`.js`). */
  presetFiles: SimulatedFile[];
}

/** One origin: the layer and the flag, variable, `file:line:column`, preset or `default` that set a value. */
export interface Origin {
  layer: string;
  source: string;
}

/** One entry of a union list (`modules.*`) with its own origin. */
export interface Entry extends Origin {
  value: string;
}

/** One leaf of the resolved config: a decision record (SPEC section 7), plus what the page marks. */
export interface Row extends Origin {
  key: string;
  value: unknown;
  /** Set for the union lists: each entry with its origin. */
  entries?: Entry[];
  /** The key has a problem: its value is what still resolved (a lower layer's), or missing. */
  invalid: boolean;
  /** The core gave no value for the key. */
  missing: boolean;
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
  /** Every leaf the core resolved, in the schema's order; empty when nothing resolved. */
  rows: Row[];
  /** Whether the answer carries a resolved config although it has problems. */
  partial: boolean;
  /** Per key, every layer that set it, winner first: only when the inputs asked for `explain`. */
  explain?: Record<string, Step[]>;
  presets?: { mode: "auto" | "list"; applied: PresetChoice[]; skipped: PresetChoice[] };
  plan?: Plan;
}

/** Resolves the inputs, answering the core's `presets` stage from the simulated folder (docs/abi.md, "Stages"). */
export function resolveInputs(core: PageCore, inputs: Inputs): Answer {
  const { presetFiles: simulated, ...rest } = inputs;
  const request: ResolveRequest = { ...rest };
  // Two calls at most: the page sends `files`, so the core never needs the `detect` stage.
  for (let round = 0; round < 3; round++) {
    const response = core.resolveLayers(request);
    if (response.stage === "done") return readAnswer(response);
    if (response.stage !== "presets" || request.presetFiles) throw new Error(`the core asked for stage "${response.stage}" after it was answered`);
    Object.assign(request, findPresets(response.needs, simulated));
  }
  throw new Error("the core did not finish resolving after every stage was answered");
}

/**
 * The preset files the core asked for, as the CLI finds them on disk (src/config.ts): listed paths, listed
 * names as `<name>.json` in the search path directories in order, or in auto mode every `.json` file there.
 */
function findPresets(needs: { mode: "auto" | "list"; presets: Array<{ ref: string; kind: "path" | "name" }>; searchPath: string[] }, files: SimulatedFile[]): Pick<ResolveRequest, "presetFiles" | "presetNames"> {
  const byName = new Map<string, SimulatedFile>();
  for (const dir of needs.searchPath) {
    const inDir = files.filter((f) => f.path.startsWith(dir.replace(/\/$/, "") + "/") && !f.path.slice(dir.length + 1).includes("/") && f.path.endsWith(".json"));
    for (const file of inDir.sort((a, b) => (a.path < b.path ? -1 : 1))) {
      const name = baseName(file.path);
      if (!byName.has(name)) byName.set(name, file);
    }
  }
  const source = (file: SimulatedFile, name: string, ref?: string) => ({ source: file.path, format: "json" as const, text: file.text, name, ...(ref !== undefined ? { ref } : {}) });
  const presetFiles =
    needs.mode === "auto"
      ? [...byName].map(([name, file]) => source(file, name))
      : needs.presets.flatMap(({ ref, kind }) => {
          const file = kind === "path" ? files.find((f) => f.path === ref) : byName.get(ref);
          return file ? [source(file, kind === "path" ? baseName(file.path) : ref, ref)] : [];
        });
  return { presetFiles, presetNames: [...byName.keys()] };
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1).replace(/\.json$/, "");
}

/**
 * The answer as the core writes it, in both shapes of docs/abi.md's history: list entries' origins in a
 * top-level `entries` (values included), or in `origins[key].entries` (paired with `config`'s items by
 * index); the invalid leaves said by the core in `invalid`, or worked out here from the problems' paths.
 */
type CoreAnswer = Omit<ResolveDone, "origins" | "entries"> & { origins?: Record<string, Origin & { entries?: Origin[] }>; entries?: Record<string, Entry[]>; invalid?: string[] };

/** The page's view of a finished answer: decision rows from `config` + `origins`, never a list of the core's. */
function readAnswer(done: CoreAnswer): Answer {
  const invalid = new Set(done.invalid ?? invalidKeys(done.errors));
  const rows = done.config && done.origins ? decisionRows(done.config, done.origins, done.entries ?? {}, invalid) : [];
  const union = new Set(rows.filter((r) => r.entries).map((r) => r.key));
  const explain = done.explain
    ? Object.fromEntries(Object.entries(done.explain).map(([key, chain]) => [key, chain.map((step, i): Step => ({ ...step, status: union.has(key) ? "merged" : i === 0 ? "wins" : "overridden" }))]))
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
 * The decision records of an answer (SPEC section 7): one per leaf of `config`, with its origin, in the
 * schema's order; union lists carry their entries. A leaf with a problem is kept and marked, with
 * whatever value still resolved, so that a config with problems still shows everything else.
 */
export function decisionRows(config: ResolvedConfig, origins: Record<string, Origin & { entries?: Origin[] }>, entries: Record<string, Entry[]>, invalid: Set<string>): Row[] {
  const keys = leafKeys();
  for (const key of Object.keys(origins)) if (!keys.includes(key)) keys.push(key);
  const rows: Row[] = [];
  for (const key of keys) {
    const value = key.split(".").reduce<unknown>((at, part) => (at !== null && typeof at === "object" ? (at as Record<string, unknown>)[part] : undefined), config);
    const origin = origins[key];
    if (value === undefined || !origin) {
      if (invalid.has(key)) rows.push({ key, value: undefined, layer: "", source: "", invalid: true, missing: true });
      continue;
    }
    const listed = origin.entries && Array.isArray(value)
      ? origin.entries.map((o, i): Entry => ({ value: String(value[i]), layer: o.layer, source: o.source }))
      : Object.hasOwn(entries, key) ? entries[key] : undefined;
    rows.push({ key, value, layer: origin.layer, source: origin.source, invalid: invalid.has(key), missing: false, ...(listed ? { entries: listed } : {}) });
  }
  return rows;
}

/** The leaves that problems are about: `modules.include[2]` is about `modules.include`, the `exclude` shorthand about `modules.exclude`. */
export function invalidKeys(errors: CoreDiagnostic[]): Set<string> {
  const leaves = new Set(leafKeys());
  const keys = new Set<string>();
  for (const error of errors) {
    let key = error.path.replace(/\[.*$/, "");
    if (key === "exclude") key = "modules.exclude";
    while (key !== "" && !leaves.has(key)) key = key.includes(".") ? key.slice(0, key.lastIndexOf(".")) : "";
    if (key !== "") keys.add(key);
  }
  return keys;
}
