// The intended differences between the reference core's answers and a rebuilt core's, as one function.
//
// Only `resolve`'s final answer (status 0, stage "done") changed shape, once, on purpose (docs/abi.md):
//
// 1. `decisions` left the answer: a decision record is a leaf's value in `config` with its origin in `origins`.
// 2. The top-level `entries` moved into `origins`: each union list's origin has `entries`, one
//    `{"layer","source"}` per item of the list in `config` (the value itself is in `config`).
// 3. An answer with problems (`ok: false`) has `invalid`: the leaves the problems are about.
// 4. An answer with problems found before the merge (the reference answered only `errors` and `warnings`)
//    now goes on as far as the core can without asking the host for more: it has `config`, `origins`,
//    `invalid`, `explain` (when asked), `presets` (when they could be worked out) and `plan` (when archives
//    were sent), and its `errors` may go on past the reference's with the problems found on the way: unknown
//    presets, problems of preset files, a theme that is not in the drop. The reference's errors come first,
//    unchanged, so the exit code (the first error's) is the same.

import { schemaLeaves } from "../src/core/schema-table.ts";

/** The leaves, in the order of the answer, and the union lists among them: the core's table. */
const leaves = schemaLeaves.map((leaf) => leaf.key);
const unionLists = new Set(schemaLeaves.filter((leaf) => leaf.merge === "union").map((leaf) => leaf.key));

interface Problem {
  name: string;
  path: string;
  source: string;
  file?: string;
}

/**
 * The answer a candidate core should give, from what the reference answered to the same request.
 *
 * @param request - The request text (bytes that are not UTF-8 are replaced, which changes no op).
 * @param status - The reference's status.
 * @param reference - The reference's answer.
 * @param candidate - The candidate's answer, for the parts the reference could not have given (change 4).
 * @returns The expected answer; or, when the candidate's new parts break a rule above, a text that says
 *   which, so that the comparison fails and shows it.
 */
export function expectedAnswer(request: string, status: number, reference: string, candidate: string): string {
  if (status !== 0) return reference;
  let req: Record<string, any>;
  try {
    req = JSON.parse(request);
  } catch {
    return reference;
  }
  if (req === null || typeof req !== "object" || req.op !== "resolve") return reference;
  const old = JSON.parse(reference) as Record<string, any>;
  if (old.stage !== "done") return reference;
  if (JSON.stringify(old) !== reference) return "the reference's answer does not round-trip through JSON: compare by hand";

  if (old.config !== undefined) {
    // A full answer: changes 1 to 3.
    const origins: Record<string, any> = {};
    for (const key of leaves) {
      origins[key] = unionLists.has(key)
        ? { ...old.origins[key], entries: old.entries[key].map((e: Record<string, string>) => ({ layer: e.layer, source: e.source })) }
        : old.origins[key];
    }
    const next: Record<string, any> = { ok: old.ok, stage: old.stage, logFormat: old.logFormat, config: old.config, origins };
    if (!old.ok) next.invalid = invalidKeys(old.errors);
    if (old.explain !== undefined) next.explain = old.explain;
    next.presets = old.presets;
    if (old.plan !== undefined) next.plan = old.plan;
    next.errors = old.errors;
    next.warnings = old.warnings;
    return JSON.stringify(next);
  }

  // An answer that stopped at its problems: change 4, checked on the candidate's answer.
  const got = JSON.parse(candidate) as Record<string, any>;
  if (got.ok !== false || !Array.isArray(got.errors)) return "the candidate answered ok where the reference had problems";
  const extra = got.errors.slice(old.errors.length) as Problem[];
  const presetSources = new Set(Array.isArray(req.presetFiles) ? req.presetFiles.map((f: { source?: unknown }) => f?.source) : []);
  for (const e of extra) {
    const allowed = e.name === "PresetNotFound" || e.name === "ThemeNotFound" || presetSources.has(e.file ?? e.source);
    if (!allowed) return `an error the reference did not report, of a kind change 4 does not allow: ${JSON.stringify(e)}`;
  }
  if (got.config === undefined || got.origins === undefined) return "the candidate's answer with problems has no config or origins";
  if (JSON.stringify(got.invalid) !== JSON.stringify(invalidKeys(got.errors)))
    return `invalid is not the leaves the problems are about: ${JSON.stringify(got.invalid)}`;
  if ((got.explain !== undefined) !== (req.explain === true)) return "explain is there without being asked for, or missing when asked for";
  const trimmed: Record<string, any> = {};
  for (const [key, value] of Object.entries(got)) {
    if (["config", "origins", "invalid", "explain", "presets", "plan"].includes(key)) continue;
    trimmed[key] = key === "errors" ? got.errors.slice(0, old.errors.length) : value;
  }
  return JSON.stringify(trimmed) === reference ? candidate : `the rest differs from the reference: ${JSON.stringify(trimmed)}`;
}

/** The leaves that problems are about (docs/abi.md): a problem's path is the leaf, one of its items, its group, or the `exclude` shorthand. */
export function invalidKeys(errors: Problem[]): string[] {
  return leaves.filter((key) => errors.some((e) => e.name !== "ConfigSyntaxError" && isAbout(e.path, key)));
}

function isAbout(path: string, key: string): boolean {
  if (key === "modules.exclude" && (path === "exclude" || path.startsWith("exclude["))) return true;
  if (path === key || path.startsWith(key + "[")) return true;
  return path.length > 0 && key.startsWith(path + ".");
}

/**
 * An answer without what issue 39 added to each problem (status 0 or not): the `code` after its `name`, and the
 * `suggestion`, `expected` and `found` after its `message`. Records made before then lack them, and an answer is the
 * same as such a record when it is once they are taken out; `uncoded` counts the problems that lack a code, which none
 * may. Only the `errors` arrays are read, as the core writes them (no whitespace; a value's own keys are elsewhere).
 */
export function withoutCodes(answer: string): { text: string; uncoded: number } {
  // The answer's own `errors` come after any value it echoes (a parse's `value`, a validate's `config`).
  const start = answer.lastIndexOf('"errors":[');
  if (start < 0) return { text: answer, uncoded: 0 };
  const from = start + '"errors":['.length;
  const to = arrayEnd(answer, from);
  const errors = answer.slice(from, to);
  const uncoded = (errors.match(/\{"name":"\w+","(?!code")/g) ?? []).length;
  const str = '"(?:[^"\\\\]|\\\\.)*"';
  const stripped = errors
    .replace(/(\{"name":"\w+"),"code":"\w+"/g, "$1")
    .replace(new RegExp(`,"suggestion":${str}(?=[,}])`, "g"), "")
    .replace(new RegExp(`,"expected":\\[(?:${str}(?:,${str})*)?\\](?=[,}])`, "g"), "")
    .replace(new RegExp(`,"found":${str}(?=\\})`, "g"), "");
  return { text: answer.slice(0, from) + stripped + answer.slice(to), uncoded };
}

/** The index of the `]` that closes the array whose items start at `from`, strings skipped. */
function arrayEnd(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (c === "[" || c === "{") depth++;
    else if ((c === "]" || c === "}") && --depth === 0) return i;
  }
  return text.length;
}
