// The language server's diagnostics: a config's text judged as `dropkit config` judges its file, and as `create` would judge its drop.

import path from "node:path";
import { pathToFileURL } from "node:url";
import { type Diagnostic, DiagnosticSeverity, type DiagnosticRelatedInformation, type Range } from "vscode-languageserver/node";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { scanArchives } from "../archives/scan.js";
import { dropkitKeyInText } from "../config/dropkitkey.js";
import { planWarnings } from "../core/decisions.js";
import type { CoreDiagnostic, CoreWarning, ResolveDone } from "../core/protocol.js";
import { DropkitError, type Diagnostic as HostDiagnostic } from "../errors.js";
import { tooLarge } from "../files/judged.js";
import { limits } from "../files/limits.js";
import type { ServerContext } from "./context.js";
import { resolveText } from "./resolve.js";
import { configRefusal } from "./trust.js";

/** The configs the server judges: the JSON forms discovery reads. `.ts`/`.js` configs are never evaluated (they get none). */
export type ServedFormat = "json" | "package.json";

/** The form of the config at `file`, or undefined for a file the server does not judge. */
export function servedFormat(file: string): ServedFormat | undefined {
  const name = path.basename(file);
  return name === "package.json" ? "package.json" : name === "dropkit.config.json" ? "json" : undefined;
}

/** A document's verdict: what the editor shows, and the core's answer (absent when the text never reached the core). */
export interface Judgement {
  diagnostics: Diagnostic[];
  answer?: ResolveDone;
}

/**
 * Judges a config document at `file`: a package.json without a `dropkit` key, nothing; a file on disk that `dropkit
 * config` would refuse (`configRefusal`: UntrustedFile, 77), the CLI's error first, then the text's own problems alone
 * (no preset file read, nothing of `create`'s: the CLI reads nothing of it); over the CLI's size limit, the CLI's
 * ConfigLoadError; else every problem `dropkit config` run in the config's folder reports (its preset files read as it
 * reads them), then, when there are none, what `dropkit create` would add there with the folder's archives (a theme no
 * archive has, the plan's warnings) as warnings that say so.
 */
export async function judgeDocument(
  document: TextDocument,
  file: string,
  format: ServedFormat,
  context: ServerContext,
): Promise<Judgement> {
  const text = document.getText();
  const place = placer(document, file);
  const bytes = Buffer.byteLength(text, "utf8");
  // Discovery's rule (src/config/discovery.ts): a package.json over the limit counts when it mentions dropkit anywhere.
  if (format === "package.json" && !(bytes > limits.fileBytes ? text.includes('"dropkit"') : dropkitKeyInText(text)))
    return { diagnostics: [] };
  // Judged before its size, as the CLI judges the opened file before it reads a byte.
  const refusal = configRefusal(file, context.env);
  const refused = refusal ? refusal.diagnostics.map((d) => place.host(d)) : [];
  if (bytes > limits.fileBytes) return { diagnostics: [...refused, ...tooLargeProblems(file, bytes).map((d) => place.host(d))] };
  const config = { source: file, format, text };
  if (refusal) return { diagnostics: [...refused, ...ownProblems(context, config, place)] };
  const cwd = path.dirname(file);
  let answer: ResolveDone;
  try {
    answer = await resolveText(context, { cwd, config });
  } catch (error) {
    if (!(error instanceof DropkitError)) throw error;
    // A preset file that cannot be loaded: the CLI stops there too.
    return { diagnostics: error.diagnostics.map((d) => place.host(d)) };
  }
  const diagnostics = [
    ...answer.errors.map((e) => place.problem(e, DiagnosticSeverity.Error, "")),
    ...answer.warnings.map((w) => place.warning(w, "")),
  ];
  if (answer.ok) diagnostics.push(...(await createOnly(context, cwd, config, place)));
  return { diagnostics, answer };
}

// --- helpers ---

/** The problems of a config's text alone, as the core validates it: its syntax and schema, no preset file and no variable. */
function ownProblems(context: ServerContext, config: { source: string; format: ServedFormat; text: string }, place: Placer): Diagnostic[] {
  const checked = context.core.validateConfig(config.text, { format: config.format, source: config.source, kind: "config" });
  return [
    ...checked.errors.map((e) => place.problem(e, DiagnosticSeverity.Error, "")),
    ...checked.warnings.map((w) => place.warning(w, "")),
  ];
}

/** What `create` would add in the config's folder: a theme no archive has, the plan's warnings; none in a folder without archives. */
async function createOnly(
  context: ServerContext,
  cwd: string,
  config: { source: string; format: ServedFormat; text: string },
  place: Placer,
): Promise<Diagnostic[]> {
  let archives: string[];
  try {
    archives = await scanArchives(cwd);
  } catch {
    return [];
  }
  if (archives.length === 0) return [];
  const planned = await resolveText(context, { cwd, config, archives });
  const note = "Only `dropkit create` checks this, with the archives in this folder: ";
  return [
    ...planned.errors.filter((e) => e.name === "ThemeNotFound").map((e) => place.problem(e, DiagnosticSeverity.Warning, note)),
    ...planWarnings(planned).map((w) => place.warning(w, note)),
  ];
}

/** The core's problem with what it may carry beside the fields every host reads. */
type Problem = CoreDiagnostic & { code?: string; suggestion?: string; expected?: string[] };

interface Placer {
  problem(problem: Problem, severity: DiagnosticSeverity, prefix: string): Diagnostic;
  warning(warning: CoreWarning, prefix: string): Diagnostic;
  host(problem: HostDiagnostic): Diagnostic;
}

/** Places the core's and the host's problems in `document` (the file at `file`); one in another file goes at its start, with a link there. */
function placer(document: TextDocument, file: string): Placer {
  const start: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const rangeOf = (p: { file?: string; line?: number; column?: number; offset?: number; length?: number }): Range => {
    if (p.file !== undefined && p.file !== file) return start;
    if (p.offset !== undefined) return { start: document.positionAt(p.offset), end: document.positionAt(p.offset + (p.length ?? 0)) };
    if (p.line !== undefined) {
      const at = { line: p.line - 1, character: (p.column ?? 1) - 1 };
      return { start: at, end: at };
    }
    return start;
  };
  const elsewhere = (p: { file?: string; line?: number; column?: number }, message: string): DiagnosticRelatedInformation[] => {
    if (p.file === undefined || p.file === file) return [];
    const at = { line: (p.line ?? 1) - 1, character: (p.column ?? 1) - 1 };
    return [{ location: { uri: pathToFileURL(p.file).href, range: { start: at, end: at } }, message }];
  };
  return {
    problem(problem, severity, prefix) {
      const range = rangeOf(problem);
      const here = { uri: document.uri, range };
      const related: DiagnosticRelatedInformation[] = elsewhere(problem, problem.message);
      if (problem.suggestion !== undefined)
        related.push({ location: here, message: `Did you mean ${JSON.stringify(problem.suggestion)}?` });
      if (problem.expected !== undefined && problem.expected.length > 0)
        related.push({
          location: here,
          message: `${problem.code === "NotOneOf" ? "Choices" : "Accepted keys"}: ${problem.expected.join(", ")}`,
        });
      return {
        range,
        severity,
        code: problem.code ?? problem.name,
        source: "dropkit",
        message: prefix + problem.message,
        ...(related.length > 0 ? { relatedInformation: related } : {}),
      };
    },
    warning(warning, prefix) {
      const at = positionIn(warning.source, file);
      const range = at === undefined ? start : rangeOf({ line: at.line, column: at.column });
      return {
        range,
        severity: DiagnosticSeverity.Warning,
        code: warning.code ?? "Warning",
        source: "dropkit",
        message: prefix + warning.message,
      };
    },
    host(problem) {
      const related = elsewhere(problem, problem.message);
      return {
        range: rangeOf(problem),
        severity: DiagnosticSeverity.Error,
        code: problem.name,
        source: "dropkit",
        message: problem.message,
        ...(related.length > 0 ? { relatedInformation: related } : {}),
      };
    },
  };
}

/** The CLI's ConfigLoadError for a config of `bytes` over the limit (src/files/judged.ts). */
function tooLargeProblems(file: string, bytes: number): HostDiagnostic[] {
  try {
    tooLarge(file, "config", bytes);
  } catch (error) {
    if (error instanceof DropkitError) return error.diagnostics;
    throw error;
  }
}

/** The line and column of a `file:line:column` source in `file`, or undefined for a source elsewhere. */
function positionIn(source: string, file: string): { line: number; column: number } | undefined {
  if (!source.startsWith(file + ":")) return undefined;
  const match = /^(\d+):(\d+)$/.exec(source.slice(file.length + 1));
  return match ? { line: Number(match[1]), column: Number(match[2]) } : undefined;
}
