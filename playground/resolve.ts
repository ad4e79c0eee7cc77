// The page's one reader of the core's `resolve` answer: runs the staged request on the simulated folder and turns the answer into rows.

import { deriveDecisions, deriveListEntries, type Decision, type ListEntry } from "../src/core/decisions.ts";
import type {
  CoreDiagnostic,
  CoreWarning,
  LeafOrigin,
  Origin,
  Plan,
  PresetChoice,
  ResolveDone,
  ResolveRequest,
  ResolvedConfig,
} from "../src/core/protocol.ts";
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

/** One leaf of the resolved config: a decision record (SPEC section 7), plus what the page marks. */
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
    if (response.stage !== "presets" || request.presetFiles)
      throw new Error(`the core asked for stage "${response.stage}" after it was answered`);
    Object.assign(request, findPresets(response.needs, simulated));
  }
  throw new Error("the core did not finish resolving after every stage was answered");
}

/**
 * The preset files the core asked for, as the CLI finds them on disk (src/config/presetfiles.ts): listed paths, listed
 * names as `<name>.json` in the search path directories in order, or in auto mode every `.json` file there.
 */
function findPresets(
  needs: { mode: "auto" | "list"; presets: Array<{ ref: string; kind: "path" | "name" }>; searchPath: string[] },
  files: SimulatedFile[],
): Pick<ResolveRequest, "presetFiles" | "presetNames"> {
  const byName = new Map<string, SimulatedFile>();
  for (const dir of needs.searchPath) {
    const inDir = files.filter(
      (f) => f.path.startsWith(dir.replace(/\/$/, "") + "/") && !f.path.slice(dir.length + 1).includes("/") && f.path.endsWith(".json"),
    );
    for (const file of inDir.sort((a, b) => (a.path < b.path ? -1 : 1))) {
      const name = baseName(file.path);
      if (!byName.has(name)) byName.set(name, file);
    }
  }
  const source = (file: SimulatedFile, name: string, ref?: string) => ({
    source: file.path,
    format: "json" as const,
    text: file.text,
    name,
    ...(ref !== undefined ? { ref } : {}),
  });
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

/** The page's view of a finished answer: decision rows from `config` + `origins`, never a list of the core's. */
function readAnswer(done: ResolveDone): Answer {
  const rows = done.config && done.origins ? decisionRows(done.config, done.origins, new Set(done.invalid ?? [])) : [];
  const union = new Set(rows.filter((r) => r.entries).map((r) => r.key));
  const explain = done.explain
    ? Object.fromEntries(
        Object.entries(done.explain).map(([key, chain]) => [
          key,
          chain.map((step, i): Step => ({ ...step, status: union.has(key) ? "merged" : i === 0 ? "wins" : "overridden" })),
        ]),
      )
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
