// The decisions log on stderr (SPEC section 7): one record per line, as aligned text or as NDJSON, written at once.

import type { Diagnostic } from "../errors.js";
import { escapeControls, escapeDeep, jsonLine } from "./controls.js";
import { ansi, codeFrame, describeRecord, labelWidth, type LogEvent, type LogRecord } from "./logtext.js";
import { alignColumns, formatValue } from "./table.js";

// Pure and shared with the browser playground, so they live in table.ts; re-exported for existing callers.
export { alignColumns, formatValue };
export type { LogEvent, LogRecord } from "./logtext.js";

/** How records are written: aligned lines for people, or one JSON object per line. */
export type LogFormat = "text" | "json";

/** A problem to report: the fields of an `error` record, plus what a code frame needs. */
export interface Problem extends Omit<Diagnostic, "name"> {
  /** An error name of SPEC section 8, or one the core reports (`RequestError` never reaches users). */
  name: string;
  exitCode: number;
  /** Length of the offending span, in UTF-16 code units, for the underline of the code frame. */
  length?: number;
  /** The command's usage line, printed under a usage error in the text log (not a field of the JSON record). */
  usage?: string;
}

/** Where a log writes, and whether it may use colour. */
export interface LogTarget {
  write(text: string): unknown;
  isTTY?: boolean;
}

/**
 * The decisions log. Writes each record at once (stderr is synchronous for files and pipes), so the
 * log is complete even when the run stops. The format can change after construction, because the
 * config (`log.format`) is only known once it is resolved.
 */
export class DecisionLog {
  format: LogFormat;
  /** Every warning written so far, in order, with its code when it has one: what `create --strict` turns into an error. */
  readonly warned: Array<{ code?: string; message: string }> = [];
  /**
   * `--quiet`: only `warning` and `error` records are written (and `hook-output`, which is what a hook printed, as the
   * text log leaves it on stderr); the others are dropped, in both formats.
   */
  readonly quiet: boolean;
  private readonly target: LogTarget;
  private readonly color: boolean;

  /**
   * @param format - The initial format; see `earlyLogFormat`.
   * @param target - Where to write. @default process.stderr
   * @param env - Read for `NO_COLOR`. @default process.env
   * @param quiet - Warnings and errors only. @default false
   */
  constructor(format: LogFormat, target: LogTarget = process.stderr, env: NodeJS.ProcessEnv = process.env, quiet = false) {
    this.format = format;
    this.target = target;
    this.color = shouldColor(target, env);
    this.quiet = quiet;
  }

  /** Writes one record (with `quiet`, only those it keeps). */
  write(record: LogRecord): void {
    if (record.event === "warning")
      this.warned.push({ ...(typeof record.code === "string" ? { code: record.code } : {}), message: String(record.message) });
    else if (this.quiet && record.event !== "error" && record.event !== "hook-output") return;
    this.target.write(this.format === "json" ? jsonLine(record) : this.render(record));
  }

  /** Writes a warning record. */
  warn(message: string, source?: string): void {
    this.write({ event: "warning", message, ...(source ? { source } : {}) });
  }

  /**
   * Writes a warning of the core with its fields (`code`, `key`, `glob`, `files`, `used`, `suggestion`; docs/abi.md,
   * "Warnings"), which the JSON log keeps so that a CI job can tell warnings apart; the text log shows the message.
   */
  coreWarning(warning: { message: string; source?: string }): void {
    const { message, source, ...fields } = warning;
    this.write({ event: "warning", message, ...(source ? { source } : {}), ...fields });
  }

  /** Writes one `error` record per problem, in the order given (all problems at once). */
  errors(problems: Problem[]): void {
    for (const p of problems) {
      const record: LogRecord = {
        event: "error",
        name: p.name,
        ...(p.code !== undefined ? { code: p.code } : {}),
        exitCode: p.exitCode,
        path: p.path ?? "",
        source: p.source ?? "",
        message: p.message,
      };
      if (p.file !== undefined) record.file = p.file;
      if (p.line !== undefined) record.line = p.line;
      if (p.column !== undefined) record.column = p.column;
      if (this.format === "json") {
        this.target.write(jsonLine(record));
      } else {
        const usage = p.usage ? `${" ".repeat(labelWidth)}${this.paint(`usage: ${escapeControls(p.usage)}`, "dim")}\n` : "";
        this.target.write(this.render(record) + codeFrame(p, this.paint.bind(this)) + usage);
      }
    }
  }

  /**
   * Writes one `decision` record per leaf. In text mode the columns are aligned over the whole batch,
   * which is why decisions are written together rather than one by one.
   */
  decisions(decisions: Array<{ key: string; value: unknown; layer: string; source: string }>): void {
    if (this.quiet) return;
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
 * Whether to colour: on a terminal that is not `TERM=dumb` (which shows escape sequences as text), or anywhere when
 * `FORCE_COLOR` is set (but "0" or "false" turn it off); never when `NO_COLOR` is set to anything but ""
 * (no-color.org), which wins over both.
 */
export function shouldColor(target: LogTarget, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR) return false;
  const force = forcedColor(env);
  if (force !== undefined) return force !== null;
  return target.isTTY === true && env.TERM !== "dumb";
}

/**
 * What `FORCE_COLOR` asks for, read once for the log and the help: undefined when it is unset or empty, null when it
 * turns colours off ("0" or "false"), else its value, trimmed and in lower case ("1", "2", "3", "true", ...).
 */
export function forcedColor(env: NodeJS.ProcessEnv): string | null | undefined {
  const force = env.FORCE_COLOR?.trim().toLowerCase();
  if (force === undefined || force === "") return undefined;
  return force === "0" || force === "false" ? null : force;
}
