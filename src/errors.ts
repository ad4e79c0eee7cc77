// The error names and exit codes of SPEC section 8, and the error type the host throws.

/** Exit codes by error name (SPEC section 8). */
export const exitCodes = {
  HookFailed: 1,
  UsageError: 64,
  SchemaValidationError: 65,
  ConfigSyntaxError: 65,
  ConfigLoadError: 65,
  ConfigNotFound: 66,
  ThemeNotFound: 66,
  PresetNotFound: 67,
  InternalError: 70,
  // Not in SPEC section 8: `init` refusing to replace a config without --force (sysexits EX_CANTCREAT).
  ConfigExists: 73,
  IOError: 74,
  // Not in SPEC section 8: another create holds the folder's lock, or another program changed the state
  // file during the run; nothing was written, and running again later is the fix (sysexits EX_TEMPFAIL).
  StateConflict: 75,
} as const;

export type ErrorName = keyof typeof exitCodes;

/** One problem, as the core reports it and the decisions log prints it. */
export interface Diagnostic {
  name: ErrorName;
  message: string;
  /** Dotted key path such as `modules.include[2]`, when the problem is about a value. */
  path?: string;
  /** Where: `file:line:column`, a file, a flag (`--theme`) or a variable (`DROPKIT_THEME`). */
  source?: string;
  /** Absolute file the problem is in, when there is one (for code frames). */
  file?: string;
  line?: number;
  column?: number;
}

/** An expected failure: carries one or more diagnostics and the exit code to end with. */
export class DropkitError extends Error {
  readonly diagnostics: Diagnostic[];
  readonly exitCode: number;

  constructor(diagnostics: Diagnostic | Diagnostic[]) {
    const list = Array.isArray(diagnostics) ? diagnostics : [diagnostics];
    super(list.map((d) => d.message).join("\n"));
    this.name = list[0]?.name ?? "InternalError";
    this.diagnostics = list;
    this.exitCode = exitCodeOf(list);
  }
}

/** The exit code for a set of problems: the first one's, so the most specific cause wins. */
export function exitCodeOf(diagnostics: Diagnostic[]): number {
  const first = diagnostics[0];
  return first ? exitCodes[first.name] : 0;
}

/** Shorthand for a single-diagnostic error. */
export function fail(name: ErrorName, message: string, extra: Omit<Diagnostic, "name" | "message"> = {}): never {
  throw new DropkitError({ name, message, ...extra });
}
