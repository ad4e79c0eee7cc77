// The page's fixes applied: a fix's edit on the page's inputs (the editor's text, a preset file, a variable, a flag), and tried
// on a copy of them with the core (no DOM, so that a test can run them).

import { applyToEnv, applyToText, type Fix, isSafe } from "../src/editor/fixes.ts";
import { inFolder } from "./layers.ts";
import type { PageInputs } from "./pageinputs.ts";
import { judge, type Verdict } from "./verdict.ts";
import type { PageCore } from "./wasm.ts";

/** The `textOf` of the inputs: the current text of a simulated file, the config's (at `configSource`) or a preset file's. */
export function textsOf(state: PageInputs, configSource: string): (file: string) => string | undefined {
  return (file) => (file === configSource ? state.config : state.presetFiles.find((f) => inFolder(f.path) === file)?.text);
}

/** The inputs with a fix applied; undefined when the text it edits has changed since (the fix is then stale). */
export function applyToState(state: PageInputs, fix: Fix, configSource: string): PageInputs | undefined {
  const edit = fix.edit;
  if (edit.target === "env") return { ...state, env: applyToEnv(state.env, edit) };
  if (edit.target === "flag") return edit.flag === "--theme" ? { ...state, theme: edit.value } : { ...state, logFormat: edit.value };
  if (edit.file === configSource) {
    const config = applyToText(state.config, edit);
    return config === undefined ? undefined : { ...state, config };
  }
  const index = state.presetFiles.findIndex((f) => inFolder(f.path) === edit.file);
  const text = index < 0 ? undefined : applyToText(state.presetFiles[index]!.text, edit);
  if (text === undefined) return undefined;
  return { ...state, presetFiles: state.presetFiles.map((f, i) => (i === index ? { ...f, text } : f)) };
}

/** The inputs with a fix applied and their verdict, when the fix still applies and is safe (it adds no problem). */
export function tried(
  core: PageCore,
  fix: Fix,
  v: Verdict,
  state: PageInputs,
  fixesProblem: boolean,
): { state: PageInputs; verdict: Verdict } | undefined {
  const applied = applyToState(state, fix, v.source);
  if (!applied) return undefined;
  const after = judge(core, applied, { explain: false });
  return isSafe(v, after, fix, fixesProblem) ? { state: applied, verdict: after } : undefined;
}

/** A fix as a key of a set: the fixes found unsafe when pressed. */
export const fixKey = (fix: Fix): string => JSON.stringify(fix);

/**
 * The fix a problem or warning gets: the first candidate that is safe (tried on a copy of the inputs, it adds no
 * problem), or none. Once the run's budget is spent (`verify` says no), the first candidate, tried when it is pressed;
 * one found unsafe then (its key in `rejected`) is not offered again.
 */
export function offered(
  core: PageCore,
  candidates: Fix[],
  v: Verdict,
  state: PageInputs,
  fixesProblem: boolean,
  verify: () => boolean = () => true,
  rejected: ReadonlySet<string> = new Set(),
): Fix | undefined {
  for (const fix of candidates) {
    if (rejected.has(fixKey(fix))) continue;
    if (!verify()) return fix;
    if (tried(core, fix, v, state, fixesProblem)) return fix;
  }
  return undefined;
}
