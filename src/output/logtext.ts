// The text form of the decisions log's records: one line per event, the names listed by the first few, and a code frame under an error.

import { readFileSync } from "node:fs";
import { escapeControls } from "./controls.js";
import { formatValue } from "./table.js";

/** The events of SPEC section 7, and `hook-output`: one line a hook printed, in the JSON log. */
export type LogEvent = "config" | "preset" | "decision" | "plan" | "hook" | "hook-output" | "state" | "warning" | "error";

/** One record; `event` says which, the other fields depend on it. */
export interface LogRecord {
  event: LogEvent;
  [field: string]: unknown;
}

/** Where an error is, for its code frame: the file, the 1-based line and column, and the span's length in UTF-16 code units. */
export interface FramedProblem {
  file?: string;
  line?: number;
  column?: number;
  length?: number;
}

/** Width of the event column in text mode: the longest event name plus two spaces. */
export const labelWidth = 10;

/** The colours of the text log, by what they mark. */
export const ansi = { red: "31", yellow: "33", green: "32", cyan: "36", dim: "2", bold: "1" } as const;

/** Colours `text` (or leaves it as it is, without colour). */
export type Paint = (text: string, style: keyof typeof ansi) => string;

/** The text form of each event. */
export function describeRecord(r: LogRecord, paint: Paint): string {
  switch (r.event) {
    case "config":
      return describeConfig(r, paint);
    case "preset": {
      const glob = r.glob ? ` (glob ${String(r.glob)})` : "";
      return `${String(r.name)} ${String(r.status)}: ${String(r.reason)}${glob}${paint(` [${String(r.source)}]`, "dim")}`;
    }
    case "decision":
      return `${String(r.key)}  ${formatValue(r.value)}  ${String(r.layer)}  ${String(r.source)}`;
    case "plan":
      return describePlan(r, paint);
    case "hook-output":
      return `${String(r.phase)} ${String(r.file)} ${String(r.stream)}: ${String(r.text)}`;
    case "hook": {
      const time =
        r.status === "ok" || r.status === "failed" || r.status === "timed-out" ? paint(` (${String(r.durationMs)} ms)`, "dim") : "";
      const message = r.message ? `: ${String(r.message)}` : "";
      return `${String(r.phase)} ${String(r.file)} ${String(r.status)}${message}${time}`;
    }
    case "state":
      return describeState(r, paint);
    case "warning":
      return String(r.message);
    case "error": {
      const where = r.source ? `\n${" ".repeat(labelWidth)}${paint(`at ${String(r.source)}`, "dim")}` : "";
      return `${paint(String(r.name), "bold")} (exit ${String(r.exitCode)}): ${String(r.message)}${where}`;
    }
  }
}

/** How many names a text line lists before it says how many more there are. */
const maxListed = 20;

/** The first `max` names and how many more: `a, b, c and 9997 more`; all of them when there are few. */
export function listSome(names: string[], max: number): string {
  if (names.length <= max) return names.join(", ");
  return `${names.slice(0, max).join(", ")} and ${names.length - max} more`;
}

/**
 * The offending line of the file with a caret (or an underline of the span) under the column.
 * Tabs before the column are copied into the marker line so that the caret lines up in any terminal.
 */
export function codeFrame(p: FramedProblem, paint: Paint): string {
  if (!p.file || !p.line) return "";
  let text: string;
  try {
    text = readFileSync(p.file, "utf8");
  } catch {
    // The file may be gone or unreadable by now; the message alone still says what is wrong.
    return "";
  }
  const lines = text.split(/\r\n|\r|\n/);
  let source = lines[p.line - 1];
  if (source === undefined) return "";
  if (p.line === 1 && source.charCodeAt(0) === 0xfeff) source = source.slice(1);
  const gutter = String(p.line);
  const indent = " ".repeat(labelWidth);
  // The file's text is escaped like any record (tabs kept for the caret line), and the carets measured on it.
  const shown = (text: string): string => escapeControls(text, true);
  let frame = `${indent}${paint(`${gutter} |`, "dim")} ${shown(source)}\n`;
  if (p.column !== undefined && p.column >= 1) {
    const before = shown(source.slice(0, p.column - 1)).replace(/[^\t]/g, " ");
    const span = Math.max(1, Math.min(p.length ?? 1, source.length - (p.column - 1)));
    const width = Math.max(1, shown(source.slice(p.column - 1, p.column - 1 + span)).length);
    frame += `${indent}${paint(`${" ".repeat(gutter.length)} |`, "dim")} ${before}${paint("^".repeat(width), "red")}\n`;
  }
  return frame;
}

// --- helpers ---

function describeConfig(r: LogRecord, paint: Paint): string {
  const searched = (r.searched as string[] | undefined) ?? [];
  const stop = r.stop as { dir: string; reason: string } | undefined;
  // An untrusted working directory is not searched at all.
  const walk = `${searched.length > 0 ? `searched ${searched.join(", ")}` : "searched nothing"}; stopped: ${stop?.reason ?? "?"} at ${stop?.dir ?? "?"}`;
  switch (r.via) {
    case "none":
      return `no config file, using defaults${paint(` (${walk})`, "dim")}`;
    case "flag":
      return `${String(r.file)}${paint(" (from --config)", "dim")}`;
    case "env":
      return `${String(r.file)}${paint(" (from DROPKIT_CONFIG)", "dim")}`;
    default:
      return `${String(r.file)}${paint(` (found by discovery; ${walk})`, "dim")}`;
  }
}

function describePlan(r: LogRecord, paint: Paint): string {
  switch (r.item) {
    case "theme": {
      const alternatives = (r.alternatives as string[] | undefined) ?? [];
      const also = alternatives.length > 0 ? `; alternatives: ${alternatives.join(", ")}` : "";
      return `theme ${r.value === null ? "(none)" : String(r.value)}: ${String(r.reason)}${also}`;
    }
    case "module": {
      const mark = r.selected ? paint("+", "green") : paint("-", "red");
      return `module ${mark} ${String(r.name)}: ${String(r.reason)}`;
    }
    case "modules": {
      // Text mode's stand-in for many `module` records with one reason (see logPlan in src/cli/commands/create.ts).
      const mark = r.selected ? paint("+", "green") : paint("-", "red");
      const names = r.names as string[];
      return `modules ${mark} ${names.length}: ${String(r.reason)}${paint(` (${listSome(names, 3)})`, "dim")}`;
    }
    default: {
      const modules = listSome(r.modules as string[], maxListed) || "(none)";
      return `summary: theme ${r.theme === null ? "(none)" : String(r.theme)}; modules ${modules}`;
    }
  }
}

function describeState(r: LogRecord, paint: Paint): string {
  if (r.action === "cache") {
    const hashed = (r.hashed as string[]).length;
    const reused = (r.reused as string[]).length;
    // Archives whose fingerprint was reused but whose zip records were read (a cache from before the check).
    const checkedOnly = ((r.checked as string[] | undefined) ?? []).length - hashed;
    const checked = checkedOnly > 0 ? ` (${checkedOnly} checked as zips)` : "";
    const aside = r.movedAside ? `, the unusable file moved to ${String(r.movedAside)}` : "";
    const unchanged = r.written === false ? paint(" (unchanged, not rewritten)", "dim") : "";
    return `cache ${String(r.file)}: ${hashed} archive${hashed === 1 ? "" : "s"} hashed, ${reused} reused${checked}${aside}${unchanged}`;
  }
  if (r.action === "waiting") {
    const h = r.holder as { pid: number; hostname: string; startedAt: string } | null;
    return `waiting for the lock ${String(r.file)}${h ? `, held by process ${h.pid} on host "${h.hostname}" since ${h.startedAt}` : ""}`;
  }
  if (r.action === "dry-run") {
    const plan = r.plan as { theme: string | null; modules: string[] };
    const what = paint(` (theme ${plan.theme ?? "none"}; modules ${listSome(plan.modules, maxListed) || "none"})`, "dim");
    return `dry run: nothing written; ${String(r.file)} would hold this plan${what}`;
  }
  if (r.action === "restored") return `restored ${String(r.file)} as it was before this run, which failed`;
  if (r.action === "removed") return `removed ${String(r.file)}, written by this run, which failed (there was none before)`;
  const plan = r.plan as { theme: string | null; modules: string[] } | undefined;
  const summary = plan ? paint(` (theme ${plan.theme ?? "none"}; modules ${listSome(plan.modules, maxListed) || "none"})`, "dim") : "";
  const lifted = r.lifted ? `, lifted from the legacy shape (original kept as ${String(r.legacyCopy)})` : "";
  const aside = r.movedAside ? `, the unusable file moved to ${String(r.movedAside)}` : "";
  return `${String(r.action)} ${String(r.file)}${lifted}${aside}${summary}`;
}
