// The decisions log on stderr (SPEC section 7): one record per line, as aligned text or as NDJSON.

import { readFileSync } from "node:fs";
import type { Diagnostic } from "./errors.js";
import { alignColumns, formatValue } from "./table.js";

// Pure and shared with the browser playground, so they live in table.ts; re-exported for existing callers.
export { alignColumns, formatValue };

/** How records are written: aligned lines for people, or one JSON object per line. */
export type LogFormat = "text" | "json";

/** The events of SPEC section 7, and `hook-output`: one line a hook printed, in the JSON log. */
export type LogEvent = "config" | "preset" | "decision" | "plan" | "hook" | "hook-output" | "state" | "warning" | "error";

/** One record; `event` says which, the other fields depend on it. */
export interface LogRecord {
  event: LogEvent;
  [field: string]: unknown;
}

/** A problem to report: the fields of an `error` record, plus what a code frame needs. */
export interface Problem extends Omit<Diagnostic, "name"> {
  /** An error name of SPEC section 8, or one the core reports (`RequestError` never reaches users). */
  name: string;
  exitCode: number;
  /** Length of the offending span, in UTF-16 code units, for the underline of the code frame. */
  length?: number;
}

/** Where a log writes, and whether it may use colour. */
export interface LogTarget {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** Width of the event column in text mode: the longest event name plus two spaces. */
const labelWidth = 10;

const ansi = { red: "31", yellow: "33", green: "32", cyan: "36", dim: "2", bold: "1" } as const;

/**
 * What the text log never prints raw, because it would forge a line or drive the terminal: the C0 controls
 * (newline, ESC, ...), DEL, the C1 controls, the line and paragraph separators (U+2028, U+2029) and the bidi
 * controls that reorder what is shown (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069).
 */
const controls = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The same set minus C0, which `JSON.stringify` already escapes. */
const controlsJsonLeaves = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * The decisions log. Writes each record at once (stderr is synchronous for files and pipes), so the
 * log is complete even when the run stops. The format can change after construction, because the
 * config (`log.format`) is only known once it is resolved.
 */
export class DecisionLog {
  format: LogFormat;
  private readonly target: LogTarget;
  private readonly color: boolean;

  /**
   * @param format - The initial format; see `earlyLogFormat`.
   * @param target - Where to write. @default process.stderr
   * @param env - Read for `NO_COLOR`. @default process.env
   */
  constructor(format: LogFormat, target: LogTarget = process.stderr, env: NodeJS.ProcessEnv = process.env) {
    this.format = format;
    this.target = target;
    this.color = shouldColor(target, env);
  }

  /** Writes one record. */
  write(record: LogRecord): void {
    this.target.write(this.format === "json" ? jsonLine(record) : this.render(record));
  }

  /** Writes a warning record. */
  warn(message: string, source?: string): void {
    this.write({ event: "warning", message, ...(source ? { source } : {}) });
  }

  /** Writes one `error` record per problem, in the order given (all problems at once). */
  errors(problems: Problem[]): void {
    for (const p of problems) {
      const record: LogRecord = { event: "error", name: p.name, exitCode: p.exitCode, path: p.path ?? "", source: p.source ?? "", message: p.message };
      if (p.file !== undefined) record.file = p.file;
      if (p.line !== undefined) record.line = p.line;
      if (p.column !== undefined) record.column = p.column;
      if (this.format === "json") {
        this.target.write(jsonLine(record));
      } else {
        this.target.write(this.render(record) + codeFrame(p, this.paint.bind(this)));
      }
    }
  }

  /**
   * Writes one `decision` record per leaf. In text mode the columns are aligned over the whole batch,
   * which is why decisions are written together rather than one by one.
   */
  decisions(decisions: Array<{ key: string; value: unknown; layer: string; source: string }>): void {
    if (this.format === "json") {
      for (const d of decisions) this.write({ event: "decision", key: d.key, value: d.value, layer: d.layer, source: d.source });
      return;
    }
    const rows = decisions.map((d) => [d.key, formatValue(d.value), d.layer, d.source].map((cell) => escapeControls(cell)));
    for (const line of alignColumns(rows)) this.target.write(this.label("decision") + line + "\n");
  }

  /** Colours `text` when colour is on. */
  paint(text: string, style: keyof typeof ansi): string {
    return this.color ? `\u001b[${ansi[style]}m${text}\u001b[0m` : text;
  }

  private label(event: LogEvent): string {
    const padded = event.length < labelWidth ? event.padEnd(labelWidth) : `${event} `;
    const style = event === "error" ? "red" : event === "warning" ? "yellow" : "dim";
    return this.paint(padded, style);
  }

  /**
   * One text line (or a few, for errors) for a record. Every string of the record is escaped first (see
   * `escapeControls`): archive names, paths, messages quoting input all come from outside. The colours are
   * added after, so they are the only escape sequences the line holds.
   */
  private render(r: LogRecord): string {
    const safe = escapeDeep(r) as LogRecord;
    return this.label(safe.event) + describeRecord(safe, this.paint.bind(this)) + "\n";
  }
}

/**
 * The log format to use before the config is resolved (for problems found while loading it):
 * `--log-format`, then `DROPKIT_LOG_FORMAT`, then text. Invalid values are ignored here; the core
 * reports them.
 */
export function earlyLogFormat(flag: string | undefined, env: NodeJS.ProcessEnv): LogFormat {
  if (flag === "json" || flag === "text") return flag;
  const fromEnv = env.DROPKIT_LOG_FORMAT?.trim().toLowerCase();
  return fromEnv === "json" ? "json" : "text";
}

/**
 * Whether to colour: on a terminal, or anywhere when `FORCE_COLOR` is set (but "0" or "false" turn it off); never
 * when `NO_COLOR` is set to anything but "" (no-color.org), which wins over both.
 */
export function shouldColor(target: LogTarget, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force) return force !== "0" && force.toLowerCase() !== "false";
  return target.isTTY === true;
}

/**
 * `text` with every control character of the text log's list made visible: `\n`, `\r`, `\t`, `\xHH` for the
 * other C0 and C1 controls and DEL, `\uHHHH` for the separators and bidi controls. Backslashes are left as
 * they are: the text log is for people; the JSON log is exact.
 *
 * @param keepTabs - Leave tabs raw (a code frame's indentation, which the caret line copies). @default false
 */
export function escapeControls(text: string, keepTabs = false): string {
  return text.replace(controls, (c) => {
    if (c === "\t" && keepTabs) return c;
    if (c === "\n") return "\\n";
    if (c === "\r") return "\\r";
    if (c === "\t") return "\\t";
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/**
 * One NDJSON line. `JSON.stringify` escapes C0 but leaves DEL, C1, U+2028/U+2029 and the bidi controls raw;
 * they are written as `\uHHHH` too, which parses to the same string, so that a reader splitting lines on
 * more than "\n" (Python's `splitlines`) or a terminal showing the raw stream is not misled.
 */
export function jsonLine(record: object): string {
  return JSON.stringify(record).replace(controlsJsonLeaves, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) + "\n";
}

// --- helpers ---

/** `value` with every string in it (keys too) passed through `escapeControls`. */
function escapeDeep(value: unknown): unknown {
  if (typeof value === "string") return escapeControls(value);
  if (Array.isArray(value)) return value.map(escapeDeep);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [escapeControls(k), escapeDeep(v)]));
  }
  return value;
}

type Paint = (text: string, style: keyof typeof ansi) => string;

/** The text form of each event. */
function describeRecord(r: LogRecord, paint: Paint): string {
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
      const time = r.status === "ok" || r.status === "failed" || r.status === "timed-out" ? paint(` (${String(r.durationMs)} ms)`, "dim") : "";
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

function describeConfig(r: LogRecord, paint: Paint): string {
  const searched = (r.searched as string[] | undefined) ?? [];
  const stop = r.stop as { dir: string; reason: string } | undefined;
  const walk = `searched ${searched.join(", ")}; stopped: ${stop?.reason ?? "?"} at ${stop?.dir ?? "?"}`;
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
      // Text mode's stand-in for many `module` records with one reason (see logPlan in src/commands/create.ts).
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
  if (r.action === "restored") return `restored ${String(r.file)} as it was before this run, which failed`;
  if (r.action === "removed") return `removed ${String(r.file)}, written by this run, which failed (there was none before)`;
  const plan = r.plan as { theme: string | null; modules: string[] } | undefined;
  const summary = plan ? paint(` (theme ${plan.theme ?? "none"}; modules ${listSome(plan.modules, maxListed) || "none"})`, "dim") : "";
  const lifted = r.lifted ? `, lifted from the legacy shape (original kept as ${String(r.legacyCopy)})` : "";
  const aside = r.movedAside ? `, the unusable file moved to ${String(r.movedAside)}` : "";
  return `${String(r.action)} ${String(r.file)}${lifted}${aside}${summary}`;
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
function codeFrame(p: Problem, paint: Paint): string {
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
