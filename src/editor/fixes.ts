// Quick fixes: every "did you mean" of the core (keys, enum values, preset and theme names, variable names) as an edit of the input it came from,
// offered only when it is safe: tried on a copy of the inputs, it must not add a problem.

import type { CoreDiagnostic, CoreWarning } from "../core/protocol.js";
import { propertySpan } from "./jsontext.js";

/** Where a fix writes: a span of a text (the editor or a preset file), a variable, or a flag field. */
export type FixEdit =
  | { target: "text"; file: string; from: number; to: number; expect: string; insert: string }
  | { target: "env"; name: string; rename?: string; found?: string; value?: string }
  | { target: "flag"; flag: string; value: string };

export interface Fix {
  /** The button's name: what it does, `Use "theme"`, `Remove "thme"`. */
  label: string;
  edit: FixEdit;
}

/**
 * The fix for a problem or a warning, when the core suggested something (its `suggestion`) and the page can tell where
 * the wrong text is: the fix follows the problem's code and fields, never its message's words. `textOf` gives the
 * current text of a simulated file (the editor's, a preset file's); `setVariables`, the variables the environment sets.
 */
function fixFor(
  problem: CoreDiagnostic | CoreWarning,
  textOf: (file: string) => string | undefined,
  setVariables: ReadonlySet<string> = new Set(),
): Fix | undefined {
  const suggestion = problem.suggestion;
  if (!suggestion) return undefined;
  const label = `Use "${suggestion}"`;
  const located = locate(problem, textOf);
  if (located && located.to > located.from) {
    const insert = JSON.stringify(suggestion);
    return { label, edit: { target: "text", ...located, insert } };
  }
  const source = problem.source;
  if (source.startsWith("DROPKIT_")) {
    // An unknown variable's warning suggests a name; an invalid value's error, a value.
    // A rename to a variable that is already set would override what the user set there: no fix then.
    if (problem.code === "UnknownVariable")
      return setVariables.has(suggestion) ? undefined : { label, edit: { target: "env", name: source, rename: suggestion } };
    const found = (problem as CoreDiagnostic).found;
    return found === undefined ? undefined : { label, edit: { target: "env", name: source, found, value: suggestion } };
  }
  if (source === "--theme" || source === "--log-format") return { label, edit: { target: "flag", flag: source, value: suggestion } };
  return undefined;
}

/**
 * The fixes that could mend a problem, the preferred first: the did-you-mean, and for an unknown key, removing the
 * property (when the key it means is set already, the rename would make a duplicate; removing it is then the fix).
 */
export function candidatesFor(
  problem: CoreDiagnostic | CoreWarning,
  textOf: (file: string) => string | undefined,
  setVariables: ReadonlySet<string> = new Set(),
): Fix[] {
  const fix = fixFor(problem, textOf, setVariables);
  if (fix?.edit.target !== "text" || problem.code !== "UnknownKey") return fix ? [fix] : [];
  const edit = fix.edit;
  const text = textOf(edit.file)!;
  if (!/^\s*:/.test(text.slice(edit.to, edit.to + 40))) return [fix];
  const span = propertySpan(text, edit.from);
  if (!span) return [fix];
  const removal: Fix = {
    label: `Remove ${edit.expect}`,
    edit: { target: "text", file: edit.file, from: span.from, to: span.to, expect: text.slice(span.from, span.to), insert: "" },
  };
  return [fix, removal];
}

/** A text with a fix's edit spliced in; undefined when the span no longer holds what the fix expects (the fix is then stale). */
export function applyToText(text: string, edit: Extract<FixEdit, { target: "text" }>): string | undefined {
  return text.slice(edit.from, edit.to) === edit.expect ? text.slice(0, edit.from) + edit.insert + text.slice(edit.to) : undefined;
}

/** What a fix's safety is judged on: the config file read (its path, whether it is read, its name) and the problems. */
export interface Judged {
  /** The config's absolute path. */
  source: string;
  /** Whether dropkit reads that file as the config (a package.json without a `dropkit` key is passed over). */
  read: boolean;
  /** The config file's name, or null for none. */
  file: string | null;
  problems: CoreDiagnostic[];
}

/**
 * Whether a fix is safe: with it applied, the input it edits has no problem it did not have. Only the problems of that
 * input count (the text it edits, the variable, the flag): a problem elsewhere that the fixed one hid (a preset file the
 * config's schema problem kept from loading) is the user's, not the fix's. They compare by name and key path (positions
 * move with the edit); a fix of a problem must leave fewer there, a fix of a warning no more. A fix that changes which
 * file dropkit reads (a package.json's `dropkit` key spelt right) is judged by the count alone, its paths being another
 * file's; one that makes dropkit read a file it passed over shows that file's problems, which are the user's own.
 */
export function isSafe(before: Judged, after: Judged, fix: Fix, fixesProblem: boolean): boolean {
  const edit = fix.edit;
  const fileOf = (p: CoreDiagnostic) => p.file ?? p.source.replace(/:\d+:\d+$/, "");
  const config = edit.target === "text" && edit.file === before.source;
  const at = (p: CoreDiagnostic) =>
    edit.target === "text"
      ? fileOf(p) === edit.file || (config && fileOf(p) === after.source)
      : edit.target === "env"
        ? p.source === edit.name || p.source === edit.rename
        : p.source === edit.flag;
  const was = before.problems.filter(at);
  const now = after.problems.filter(at);
  if (config && !before.read && after.read) return true;
  if (fixesProblem ? now.length >= was.length : now.length > was.length) return false;
  if (config && before.file !== after.file) return true;
  const pool = new Map<string, number>();
  const id = (p: CoreDiagnostic) => `${p.name}\u0000${p.path}`;
  for (const p of was) pool.set(id(p), (pool.get(id(p)) ?? 0) + 1);
  for (const p of now) {
    const left = pool.get(id(p)) ?? 0;
    if (left === 0) return false;
    pool.set(id(p), left - 1);
  }
  return true;
}

/**
 * The span of the wrong key or value in its text: the core's offset and length, or, for problems found
 * after parsing (an unknown preset, a missing theme), the JSON string that starts at `file:line:column`.
 * Empty for a problem at one point.
 */
export function locate(
  problem: CoreDiagnostic | CoreWarning,
  textOf: (file: string) => string | undefined,
): { file: string; from: number; to: number; expect: string } | undefined {
  const diagnostic = problem as Partial<CoreDiagnostic>;
  const match = /^(.*):(\d+):(\d+)$/.exec(problem.source);
  const file = diagnostic.file ?? match?.[1];
  const text = file === undefined ? undefined : textOf(file);
  if (file === undefined || text === undefined) return undefined;
  let from = diagnostic.offset;
  let to = from === undefined ? undefined : from + (diagnostic.length ?? 0);
  if (from === undefined && match) {
    from = offsetOf(text, Number(match[2]), Number(match[3]));
    to = from === undefined ? undefined : stringEnd(text, from);
  }
  if (from === undefined || to === undefined) return undefined;
  // A problem at the end of the text (an unterminated document) points just past it.
  from = Math.min(from, text.length);
  to = Math.min(Math.max(to, from), text.length);
  return { file, from, to, expect: text.slice(from, to) };
}

/** The UTF-16 offset of a 1-based line and column (the core's columns count UTF-16 code units). */
export function offsetOf(text: string, line: number, column: number): number | undefined {
  let at = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf("\n", at);
    if (next < 0) return undefined;
    at = next + 1;
  }
  const offset = at + column - 1;
  return offset <= text.length ? offset : undefined;
}

/** The end of the JSON string starting at `from` (after its closing quote), or undefined if none starts there. */
function stringEnd(text: string, from: number): number | undefined {
  if (text[from] !== '"') return undefined;
  for (let i = from + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
    else if (text[i] === "\n") return undefined;
  }
  return undefined;
}

/** The environment text (`NAME=value` lines) with one variable's value item replaced, or the variable renamed. */
export function applyToEnv(env: string, edit: Extract<FixEdit, { target: "env" }>): string {
  return env
    .split("\n")
    .map((line) => {
      const match = /^(\s*(?:export\s+)?)([A-Za-z_][A-Za-z0-9_]*)(\s*=)(.*)$/.exec(line);
      if (!match || match[2] !== edit.name) return line;
      const [, lead, , eq, value] = match;
      if (edit.rename) return `${lead}${edit.rename}${eq}${value}`;
      // Lists are comma-separated: only the wrong item changes, with its blanks and quotes.
      const items = value!
        .split(",")
        .map((item) => item.replace(new RegExp(`^(\\s*["']?)${escapeRegExp(edit.found!)}(["']?\\s*)$`), `$1${edit.value}$2`));
      return `${lead}${edit.name}${eq}${items.join(",")}`;
    })
    .join("\n");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
