// The library behind the package entry: `loadConfig` and `validateConfig` as a program calls them, every failure a DropkitError.

import { stat } from "node:fs/promises";
import path from "node:path";
import { loadConfig as resolveConfig, type LoadConfigOptions as ResolveOptions } from "./config/resolve.js";
import { CoreTrap, type Core } from "./core/host.js";
import type { CoreDiagnostic, CoreWarning, LeafOrigin, Origin, PresetChoice, ResolvedConfig } from "./core/protocol.js";
import { coreAt, loadCore, type FileUrl } from "./core/node.js";
import { deriveListEntries } from "./core/decisions.js";
import type { Discovery } from "./config/discovery.js";
import { DropkitError, type Diagnostic, type ErrorName } from "./errors.js";
import type { DropkitConfig } from "./types.js";

export type { FileUrl };

/** Options for `loadConfig`. */
export interface LoadConfigOptions extends ResolveOptions {
  /**
   * Where dropkit's core, dropkit.wasm, is: a path (resolved against the process's working directory) or a `file:` URL.
   * For a program's bundle whose module is elsewhere than beside it; `core` wins over it.
   * @default the installed module: docs/library.md, "Bundling for Node"
   */
  wasm?: string | FileUrl;
}

/** The resolved config and how it came about: what `dropkit config --json` prints, and more. */
export interface LoadConfigResult {
  /** Every field of the config, defaults filled in, paths absolute. */
  config: ResolvedConfig;
  /**
   * The layer (`cli`, `env`, `config`, `preset`, `default`) and source of every leaf, by dotted key; the module
   * lists' also have `entries`, each item's origin in the order of the list.
   */
  origins: Record<string, LeafOrigin>;
  /** For the union lists (`modules.include`, `.exclude`, `.only`): each entry with its own layer and source. */
  entries: Record<string, Array<{ value: string } & Origin>>;
  /** The presets applied and skipped, and whether they were listed or auto-detected. */
  presets: { mode: "auto" | "list"; applied: PresetChoice[]; skipped: PresetChoice[] };
  /** What the CLI logs as warnings: unknown `DROPKIT_*` variables, shadowed or ignored config files, and so on. */
  warnings: CoreWarning[];
  /** Which config file was used, how it was found, and which directories were searched. */
  discovery: Discovery;
  /** With `explain: true`: every layer that set each key, the winner first. */
  explain?: Record<string, Array<{ value: unknown } & Origin>>;
  /** The per-hook timeout `DROPKIT_HOOK_TIMEOUT` sets, in ms, when it is set (the core checks it); absent, hooks get 60 s. */
  hookTimeoutMs?: number;
}

/** Options for `validateConfig`. */
export interface ValidateConfigOptions {
  /** `json` for a config text, `package.json` for a whole package.json whose `dropkit` key is the config. @default "json" */
  format?: "json" | "package.json";
  /** The name used in problems' `source` (`<source>:line:column`), usually the file's path. @default "<input>" */
  source?: string;
  /** `preset` to check a preset file's text (which also accepts `detect`). @default "config" */
  kind?: "config" | "preset";
  /** As `loadConfig`'s: where dropkit.wasm is. @default the installed module */
  wasm?: string | FileUrl;
  /** The core to use (from `dropkit/core`'s `openCore`); wins over `wasm`. @default one core per process */
  core?: Core;
}

/** A valid config text: its value, and any warnings. */
export interface ValidateConfigResult {
  /** The config as written (no defaults filled in); `null` for a package.json without a `dropkit` key. */
  config: DropkitConfig | null;
  warnings: CoreWarning[];
}

/**
 * Resolves the config exactly as `dropkit config` does: discovery from `cwd`, loading the file, presets, and
 * the five layers. See docs/library.md.
 *
 * @throws DropkitError for every failure, with all problems in `diagnostics`: `ConfigNotFound` (66),
 *   `ConfigSyntaxError`, `ConfigLoadError`, `SchemaValidationError` (65), `PresetNotFound` (67), `UsageError`
 *   (64, a bad flag value), `IOError` (74, `cwd` is not an existing folder, or a piece of dropkit
 *   the program cannot find: dropkit.wasm, jiti; docs/library.md, "Bundling for Node"), `InternalError` (70, a bug in dropkit).
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadConfigResult> {
  if (options.cwd !== undefined) await requireFolder(path.resolve(options.cwd));
  let loaded;
  try {
    const { wasm, ...rest } = options;
    loaded = await resolveConfig(rest.core === undefined && wasm !== undefined ? { ...rest, core: coreAt(wasm) } : rest);
  } catch (error) {
    throw asDropkitError(error);
  }
  if (!loaded.ok) throw new DropkitError(loaded.errors.map(fromCore));
  const result: LoadConfigResult = {
    config: loaded.config!,
    origins: loaded.origins!,
    entries: deriveListEntries(loaded),
    presets: loaded.presets!,
    warnings: loaded.warnings,
    discovery: loaded.discovery,
  };
  if (loaded.explain) result.explain = loaded.explain;
  if (loaded.hookTimeoutMs !== undefined) result.hookTimeoutMs = loaded.hookTimeoutMs;
  return result;
}

/**
 * Validates one config text with the same core as the CLI, without loading any file: every problem at once,
 * with 1-based line and column.
 *
 * @throws DropkitError `ConfigSyntaxError` or `SchemaValidationError` (65), with every problem in `diagnostics`;
 *   `IOError` (74) when dropkit.wasm cannot be found (docs/library.md, "Bundling for Node").
 */
export function validateConfig(text: string, options: ValidateConfigOptions = {}): ValidateConfigResult {
  let checked;
  try {
    const { wasm, core, ...request } = options;
    checked = (core ?? (wasm === undefined ? loadCore() : coreAt(wasm))).validateConfig(text, request);
  } catch (error) {
    throw asDropkitError(error);
  }
  if (!checked.ok) throw new DropkitError(checked.errors.map(fromCore));
  return { config: (checked.config ?? null) as DropkitConfig | null, warnings: checked.warnings };
}

// --- helpers ---

/**
 * A `cwd` that does not exist would otherwise resolve quietly (nothing found, defaults only). It is the folder
 * dropkit cannot read, as for `create` listing its archives: `IOError` (74).
 */
async function requireFolder(cwd: string): Promise<void> {
  let reason: string;
  try {
    if ((await stat(cwd)).isDirectory()) return;
    reason = "it is not a folder";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    reason = code === "ENOENT" || code === "ENOTDIR" ? "it does not exist" : `it cannot be read: ${code ?? String(error)}`;
  }
  throw new DropkitError({
    name: "IOError",
    message: `The working directory ${cwd} (the cwd option) cannot be used: ${reason}. Pass an existing folder.`,
    file: cwd,
    source: cwd,
  });
}

/** A core problem as a diagnostic; `RequestError` (the host's request was wrong) is dropkit's bug. */
function fromCore(d: CoreDiagnostic): Diagnostic {
  const name: ErrorName = d.name === "RequestError" ? "InternalError" : d.name;
  const out: Diagnostic = { name, code: d.code, message: d.message, path: d.path, source: d.source };
  if (d.file !== undefined) out.file = d.file;
  if (d.line !== undefined) out.line = d.line;
  if (d.column !== undefined) out.column = d.column;
  return out;
}

/** A failure of the core is dropkit's bug: an `InternalError` (70) carrying the trap as `cause`. Anything else passes. */
function asDropkitError(error: unknown): unknown {
  if (!(error instanceof CoreTrap)) return error;
  return new DropkitError(
    { name: "InternalError", message: `the wasm core failed: ${error.message}. This is a bug in dropkit: please report it.` },
    { cause: error },
  );
}
