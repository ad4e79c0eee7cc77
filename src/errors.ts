// The error names and exit codes of SPEC section 8, and the error type the host throws.

import type { ProblemCode } from "./core/protocol.js";

/** Exit codes by error name (SPEC section 8). */
export const exitCodes = {
  HookFailed: 1,
  UsageError: 64,
  SchemaValidationError: 65,
  ConfigSyntaxError: 65,
  ConfigLoadError: 65,
  ArchiveInvalid: 65,
  // Not in SPEC section 8 by name: `create --strict` with a warning raised before the state is written (sysexits EX_DATAERR).
  StrictWarnings: 65,
  ConfigNotFound: 66,
  ThemeNotFound: 66,
  // SPEC section 8 (turn 4) leaves the name open: `create` in a folder with no `*.zip` (sysexits EX_NOINPUT).
  EmptyDrop: 66,
  PresetNotFound: 67,
  InternalError: 70,
  // Not in SPEC section 8: `init` refusing to replace a config without --force (sysexits EX_CANTCREAT).
  ConfigExists: 73,
  IOError: 74,
  // Not in SPEC section 8: another create holds the folder's lock, or another program changed the state
  // file during the run; nothing was written, and running again later is the fix (sysexits EX_TEMPFAIL).
  StateConflict: 75,
  // Not in SPEC section 8: a config, preset or hook that another user could have written, refused by the trust rule
  // of SPEC section 12 (sysexits EX_NOPERM: the user, not the input, must allow it).
  UntrustedFile: 77,
} as const;

export type ErrorName = keyof typeof exitCodes;

/** An error's stable `code`: `ERR_DROPKIT_` and its name's words in capitals (`ConfigNotFound` is `ERR_DROPKIT_CONFIG_NOT_FOUND`). */
export type ErrorCode = `ERR_DROPKIT_${Uppercase<string>}`;

/** One problem, as the core reports it and the decisions log prints it. */
export interface Diagnostic {
  name: ErrorName;
  /** What the problem is, for a problem the core found (`UnknownKey`, `WrongType`; docs/errors.md lists them); absent on the host's own. */
  code?: ProblemCode;
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

/** Marks dropkit's errors across copies of the package (a config's own dropkit and the running one): see `isDropkitError`. */
const brand = Symbol.for("dropkit.DropkitError");

/**
 * An expected failure: one or more problems, and the exit code the CLI ends with. `name`, `path` and `source`
 * are the first problem's; `diagnostics` holds every problem (all schema problems of a file at once).
 */
export class DropkitError extends Error {
  /** Every problem, in the order found. */
  readonly diagnostics: Diagnostic[];
  /** The exit code of the first problem (SPEC section 8). */
  readonly exitCode: number;
  /** The first problem's dotted key path, such as `modules.include[2]`; "" when it is not about one value. */
  readonly path: string;
  /** Where the first problem is: `file:line:column`, a file, a flag (`--theme`) or a variable (`DROPKIT_THEME`); "" when nowhere. */
  readonly source: string;
  /** The first problem's name as a stable code, for programs that test `error.code` (see `ErrorCode`). */
  readonly code: ErrorCode;
  /** The file the first problem is in, when there is one: absolute, or the `source` name given to `validateConfig`. */
  readonly file?: string;
  /** The first problem's 1-based line in `file`, when it has a position. */
  readonly line?: number;
  /** The first problem's 1-based column (UTF-16 code units), when it has a position. */
  readonly column?: number;

  constructor(diagnostics: Diagnostic | Diagnostic[], options?: { cause?: unknown }) {
    const list = Array.isArray(diagnostics) ? diagnostics : [diagnostics];
    super(list.map((d) => d.message).join("\n"), options);
    this.name = list[0]?.name ?? "InternalError";
    this.diagnostics = list;
    this.exitCode = exitCodeOf(list);
    this.path = list[0]?.path ?? "";
    this.source = list[0]?.source ?? "";
    this.code = errorCode(list[0]?.name ?? "InternalError");
    // The first problem's place, as `path` and `source` are its: the common case needs no look into `diagnostics`.
    const first = list[0];
    if (first?.file !== undefined) this.file = first.file;
    if (first?.line !== undefined) this.line = first.line;
    if (first?.column !== undefined) this.column = first.column;
  }
}
Object.defineProperty(DropkitError.prototype, brand, { value: true });

/**
 * Whether `value` is a `DropkitError`, also one thrown by another copy of the package (where `instanceof`
 * would say no).
 */
export function isDropkitError(value: unknown): value is DropkitError {
  return typeof value === "object" && value !== null && (value as { [brand]?: unknown })[brand] === true;
}

/** The stable code of an error name: `IOError` is `ERR_DROPKIT_IO_ERROR`, `ConfigNotFound` `ERR_DROPKIT_CONFIG_NOT_FOUND`. */
export function errorCode(name: ErrorName): ErrorCode {
  return `ERR_DROPKIT_${name.replace(/([a-z])([A-Z])|([A-Z])([A-Z][a-z])/g, "$1$3_$2$4").toUpperCase()}` as ErrorCode;
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
