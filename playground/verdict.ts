// The page's verdict is the CLI's: the file the text would be, the CLI's size limit and empty-file rule, and the exit codes.
// Those are what `dropkit config` and `dropkit create` would each exit with.

import { dropkitKeyInText, looksLikePackageJson } from "../src/config/dropkitkey.ts";
import type { CoreDiagnostic, CoreWarning } from "../src/core/protocol.ts";
import { exitCodes } from "../src/errors.ts";
import { limits, sizeText } from "../src/files/sizes.ts";
import { cwd, inFolder, lines, parseEnv, parseFlags } from "./layers.ts";
import type { PageInputs } from "./pageinputs.ts";
import { type Answer, resolveInputs } from "./resolve.ts";
import type { PageCore } from "./wasm.ts";

/** The CLI's limit on one config file, in bytes of UTF-8. */
export const fileBytes = limits.fileBytes;

/** The file the editor's text is judged as: the name it has in the simulated folder, or none ("read as: no config file"). */
export type ConfigFile = "dropkit.config.json" | "package.json";

/** A problem, and whether only `dropkit create` checks it (a theme archive the drop lacks, an empty drop). */
export interface Problem extends CoreDiagnostic {
  createOnly?: boolean;
}

/** A warning; `createOnly` for those of the plan (`dropkit config` makes none); `page` for the page's own notes, which the CLI does not print. */
export interface Note extends CoreWarning {
  createOnly?: boolean;
  page?: boolean;
}

/** What one command would exit with: its code and, when not 0, the name of the problem that decides it. */
export interface Exit {
  code: number;
  name?: string;
}

export interface Verdict {
  /** The file the text is, in /drop; null when the user chose "no config file". */
  file: ConfigFile | null;
  /** Whether the CLI reads that file as the config: a package.json without a top-level `dropkit` key is passed over. */
  read: boolean;
  /** The config's absolute path in the simulated folder (`/drop/dropkit.config.json`). */
  source: string;
  /** The text's size in bytes of UTF-8, as the file would hold it. */
  bytes: number;
  /** Whether the file is over the CLI's limit: nothing then resolves, as the CLI resolves nothing. */
  tooLarge: boolean;
  answer: Answer;
  /** In the CLI's order (its exit code is the first one's), create-only ones marked. */
  problems: Problem[];
  warnings: Note[];
  exit: { config: Exit; create: Exit };
  envNotes: string[];
  archiveNotes: string[];
}

/** How the page judges: whether to ask the core for every layer that set each key (the explain view, the override marks). */
export interface JudgeOptions {
  explain: boolean;
}

/** The warning codes of the plan, which only `create` makes (`planWarnings` in src/core/decisions.ts). */
const planCodes = new Set(["GlobUnmatched", "OnlySelectsNone", "NameClash"]);

/** Judges the page's inputs as the CLI would judge the same files in a folder: no DOM, so that fixes can be tried on a copy. */
export function judge(core: PageCore, state: PageInputs, options: JudgeOptions): Verdict {
  const file = fileOf(state);
  const source = `${cwd}/${file ?? "dropkit.config.json"}`;
  const text = state.config;
  const bytes = file ? utf8Length(text) : 0;
  const tooLarge = bytes > fileBytes;
  const env = parseEnv(state.env);
  const names = lines(state.archives);
  const archives = names.filter((n) => n.toLowerCase().endsWith(".zip") && !n.includes("/"));
  const presetFiles = state.presetFiles.filter((f) => f.path !== "").map((f) => ({ path: inFolder(f.path), text: f.text }));
  // Auto-detected from its `dropkit` key, a package.json is read (the scan found what discovery looks for).
  const read = file === "package.json" ? state.format === "auto" || packageJsonIsRead(text, tooLarge) : file !== null;
  const warnings: Note[] = [];
  const loadErrors: Problem[] = [];
  if (file === "package.json" && !read) warnings.push(...notReadNotes(text, source));
  if (read && tooLarge) loadErrors.push(tooLargeError(source, file === "package.json", bytes));
  let answer: Answer = { ok: false, errors: [], warnings: [], rows: [], partial: false };
  // Over the limit the CLI stops before the core sees the text, so the page resolves nothing either.
  if (loadErrors.length === 0) {
    answer = resolveInputs(core, {
      cwd,
      flags: parseFlags(state),
      env: env.vars,
      config: read ? { source, format: file === "package.json" ? "package.json" : "json", text } : null,
      presetFiles,
      // The folder as the CLI lists it for preset detection: the archives, the preset files and the config file itself.
      files: [...names, ...presetFiles.map((f) => f.path.slice(cwd.length + 1)), ...(file ? [file] : [])],
      archives,
      explain: options.explain,
    });
  }
  let near: Set<number> | undefined;
  const nearKey = (offset: number | undefined) =>
    offset !== undefined && (near ??= new Set(nearDropkitKeys(text).map((k) => k.from))).has(offset);
  const problems: Problem[] = [
    ...loadErrors,
    ...answer.errors.map((e): Problem => {
      if (e.name === "ThemeNotFound") return { ...e, createOnly: true };
      // An unknown top-level key near `dropkit` in a dropkit.config.json: a package.json's key, misspelt.
      if (file === "dropkit.config.json" && e.code === "UnknownKey" && !e.path.includes(".") && e.file === source && nearKey(e.offset))
        return {
          ...e,
          message: `${e.message} Did you mean "dropkit"? A package.json holds dropkit's settings under a "dropkit" key.`,
          suggestion: e.suggestion || "dropkit",
        };
      return { ...e };
    }),
  ];
  for (const w of answer.warnings) warnings.push(w.code !== undefined && planCodes.has(w.code) ? { ...w, createOnly: true } : w);
  const config = exitOf(problems.filter((p) => !p.createOnly));
  let create = config;
  if (config.code === 0) {
    // create's order (src/cli/commands/create.ts): the config's verdict, then an empty drop, then the plan's theme.
    if (archives.length === 0) problems.push(emptyDrop());
    else problems.push(...themePathProblems(answer, names));
    create = exitOf(problems.filter((p) => p.createOnly));
  }
  return {
    file,
    read,
    source,
    bytes,
    tooLarge,
    answer,
    problems,
    warnings,
    exit: { config, create },
    envNotes: env.notes,
    archiveNotes: names
      .filter((n) => !archives.includes(n))
      .map((n) => `${n}: not a .zip in the folder, so only preset detection sees it.`),
  };
}

/** The file the text is: the user's choice, or auto-detected (a top-level `dropkit` key makes a package.json, as nothing else does). */
function fileOf(state: PageInputs): ConfigFile | null {
  if (state.format === "none") return null;
  if (state.format === "json") return "dropkit.config.json";
  if (state.format === "package.json") return "package.json";
  return looksLikePackageJson(state.config) ? "package.json" : "dropkit.config.json";
}

/** The CLI's exit code for a list of problems: the first one's (src/cli/commands/base.ts, `reportProblems`), 0 for none. */
function exitOf(problems: Problem[]): Exit {
  const first = problems[0];
  return first ? { code: first.exitCode, name: first.name } : { code: 0 };
}

/**
 * Whether discovery takes a package.json as the config (src/config/discovery.ts, `readPackageJson`): it holds a
 * top-level `dropkit` key, or does not parse but mentions `"dropkit"`; one over the limit, when `"dropkit"` is anywhere in it.
 */
function packageJsonIsRead(text: string, tooLarge: boolean): boolean {
  if (!text.includes('"dropkit"')) return false;
  if (tooLarge) return true;
  // The one-pass scan answers the common case without building the document.
  if (looksLikePackageJson(text)) return true;
  // Otherwise the CLI's own rule (discovery), so that the two never differ.
  return dropkitKeyInText(text);
}

/** Bytes of UTF-8 for a text (a lone surrogate is written as U+FFFD, 3 bytes, as TextEncoder writes it). */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: two code units, four bytes.
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/** The CLI's ConfigLoadError for a config over the limit (src/files/judged.ts, `tooLarge`). */
function tooLargeError(source: string, packageJson: boolean, bytes: number): Problem {
  const hint = packageJson ? ", or move the dropkit key to a dropkit.config.json" : "";
  return {
    name: "ConfigLoadError" as CoreDiagnostic["name"],
    exitCode: exitCodes.ConfigLoadError,
    path: "",
    source,
    file: source,
    message:
      `The config ${source} is ${sizeText(bytes)}, over the limit of ${sizeText(fileBytes)} for a config file. ` +
      `A dropkit config is a few KB: check that this is the right file${hint}.`,
  };
}

/** The CLI's EmptyDrop (66) for a folder with no `*.zip` (src/cli/commands/create.ts, `emptyDrop`). */
function emptyDrop(): Problem {
  return {
    name: "EmptyDrop" as CoreDiagnostic["name"],
    exitCode: exitCodes.EmptyDrop,
    path: "",
    source: cwd,
    message:
      `No *.zip archive in ${cwd}, so there is no drop to create: nothing was written and no hook ran. ` +
      `Put the drop's theme and module archives in ${cwd}, or run dropkit in the folder that holds them.`,
    createOnly: true,
  };
}

/**
 * A theme given as a `.zip` path that is none of the drop's archives: create looks for the file itself
 * (src/config/themepath.ts), and the simulated folder holds only the names listed in it.
 */
function themePathProblems(answer: Answer, names: string[]): Problem[] {
  const theme = answer.plan?.theme;
  if (!theme || theme.path === null || theme.file !== null) return [];
  if (theme.path.startsWith(`${cwd}/`) && names.includes(theme.path.slice(cwd.length + 1))) return [];
  const origin = answer.rows.find((r) => r.key === "theme");
  return [
    {
      name: "ThemeNotFound",
      exitCode: exitCodes.ThemeNotFound,
      path: "theme",
      source: origin?.source ?? theme.path,
      message:
        `Theme archive ${theme.path} not found${origin ? ` (the theme set at ${origin.source})` : ""}. ` +
        `Check the theme path, or use a theme name or "auto".`,
      createOnly: true,
    },
  ];
}

/** The top-level keys of a text that are near `dropkit` (a letter case, a letter or two off): the key the user meant, most likely. */
function nearDropkitKeys(text: string): Array<{ key: string; from: number; to: number }> {
  const found: Array<{ key: string; from: number; to: number }> = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      const key = text.slice(i + 1, j);
      if (depth === 1 && /^\s*:/.test(text.slice(j + 1, j + 40)) && key !== "dropkit" && nearDropkit(key))
        found.push({ key, from: i, to: j + 1 });
      i = j;
    } else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
  }
  return found;
}

function nearDropkit(key: string): boolean {
  const folded = key.toLowerCase().replace(/[-_ ]/g, "");
  return folded === "dropkit" || (Math.abs(folded.length - 7) <= 2 && editDistance(folded, "dropkit") <= 2);
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/**
 * A package.json the CLI passes over (no top-level `dropkit` key): the page says so, as the CLI says nothing, and names
 * a near key (`dropKit`) with the did-you-mean that fixes it.
 */
function notReadNotes(text: string, source: string): Note[] {
  const near = nearDropkitKeys(text);
  if (near.length === 0)
    return [
      {
        message: `${source} has no top-level "dropkit" key, so dropkit does not read it: there is no config file, and the other layers decide.`,
        source,
        page: true,
      },
    ];
  return near.map(({ key, from }) => ({
    message: `${source} has no top-level "dropkit" key, so dropkit does not read it; it has "${key}". Did you mean "dropkit"?`,
    suggestion: "dropkit",
    source: `${source}:${lineColumn(text, from)}`,
    page: true,
  }));
}

/** `line:column` of an offset, as the core counts them: lines end at "\n" only, columns in UTF-16 code units. */
function lineColumn(text: string, offset: number): string {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return `${line}:${offset - start + 1}`;
}
