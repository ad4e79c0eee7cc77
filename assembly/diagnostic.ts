// Problems and warnings as the core reports them: never thrown, always returned.

import { Span } from "./json";
import { format, positionText } from "./text";

export const SCHEMA_ERROR = "SchemaValidationError";
export const SYNTAX_ERROR = "ConfigSyntaxError";
export const USAGE_ERROR = "UsageError";
export const PRESET_NOT_FOUND = "PresetNotFound";
export const THEME_NOT_FOUND = "ThemeNotFound";
export const REQUEST_ERROR = "RequestError";

/**
 * At most this many problems of one document are listed; the rest are only counted, never built, so that a
 * huge file of bad values costs bounded memory and output (docs/abi.md).
 */
export const MAX_LISTED_PROBLEMS: i32 = 100;

/** One problem: what, where (path, file position or flag or variable) and how to fix it. */
export class Diagnostic extends Span {
  name: string = SCHEMA_ERROR;
  /** Dotted key path such as `modules.include[2]`; "" when the problem is not about one value. */
  path: string = "";
  /** `file:line:column`, a file, a flag (`--theme`), a variable (`DROPKIT_THEME`) or a preset. */
  source: string = "";
  /** The file the position is in, or "". */
  file: string = "";
  /** Whether the span (inherited) is a position in `file`. */
  hasPosition: bool = false;
  message: string = "";

  static at(name: string, path: string, message: string, file: string, span: Span | null): Diagnostic {
    const d = new Diagnostic();
    d.name = name;
    d.path = path;
    d.message = message;
    d.file = file;
    if (span != null) {
      d.hasPosition = true;
      d.copySpan(span);
      d.source = positionText(file, span.line, span.column);
    } else {
      d.source = file;
    }
    return d;
  }

  static from(name: string, path: string, message: string, source: string): Diagnostic {
    const d = new Diagnostic();
    d.name = name;
    d.path = path;
    d.message = message;
    d.source = source;
    return d;
  }

  /**
   * A bad value of a flag or variable: `Invalid value for --theme: <problem>, found "x".` (`where` is
   * "for --theme" or "in DROPKIT_THEME"); the flag or variable is the source.
   */
  static invalid(name: string, path: string, where: string, problem: string, value: string, source: string): Diagnostic {
    return Diagnostic.from(name, path, format("Invalid value %: %, found \"%\".", where, problem, value), source);
  }

  exitCode(): i32 {
    return exitCodeOf(this.name);
  }
}

/** A warning is a Diagnostic of which only the message and source are reported: no class or list type of its own. */
export type Warning = Diagnostic;

export function warning(message: string, source: string): Warning {
  return Diagnostic.from(SCHEMA_ERROR, "", message, source);
}

export function exitCodeOf(name: string): i32 {
  if (name == USAGE_ERROR) return 64;
  if (name == SCHEMA_ERROR || name == SYNTAX_ERROR) return 65;
  if (name == THEME_NOT_FOUND) return 66;
  if (name == PRESET_NOT_FOUND) return 67;
  return 70;
}
