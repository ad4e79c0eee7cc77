// The protocol between a host and the core (SPEC section 11, docs/abi.md): the dk_* exports, and the requests and
// answers as JSON values. Types only: src/core/host.ts speaks it.

import type { ResolvedConfig } from "./configtypes.js";
import type { WasmMemory } from "./wasmtypes.js";

/** What `callBytes` returns: the ABI status (0 handled, 1 not JSON or not an object, 2 not a valid request) and the response. */
export interface RawResponse {
  status: number;
  /** The response bytes as the core wrote them (a copy: the module's own are valid only until its next call). */
  bytes: Uint8Array;
}

export interface AbiCore {
  /** `dk_abi_version()` of the module. */
  readonly abiVersion: number;
  /** The status of the last request: 0 handled, 1 not JSON or not an object, 2 JSON but not a valid request. */
  readonly lastStatus: number;
  /** Sends one request (an object is sent as JSON, a string as is) and returns the parsed response. */
  call<T = Record<string, unknown>>(request: object | string): T;
  /** Sends request text; returns the response text exactly as the core wrote it. */
  callText(text: string): string;
  /** Sends raw request bytes (which need not be valid UTF-8). */
  callBytes(request: Uint8Array): RawResponse;
}

/** The exports of the dk_* ABI (SPEC section 11): every host calls these, dropkit's own loader-based binding too. */
export interface AbiExports {
  memory: WasmMemory;
  dk_abi_version(): number;
  dk_alloc(len: number): number;
  dk_free(ptr: number): void;
  dk_call(ptr: number, len: number): number;
  dk_out_ptr(): number;
  dk_out_len(): number;
}

/**
 * What a problem or warning of the core is, by the core's `Code` enum (docs/errors.md lists them, docs/abi.md says where
 * they are written): hosts and tests tell problems apart by it, never by their words. test/unit/codes.test.ts fails
 * when this list and the core's enum differ.
 */
export type ProblemCode =
  | "EmptyText"
  | "TrailingText"
  | "ExpectedValue"
  | "ExpectedKey"
  | "TrailingComma"
  | "ExpectedColon"
  | "ExpectedComma"
  | "UnterminatedString"
  | "ControlCharacter"
  | "InvalidEscape"
  | "InvalidUnicodeEscape"
  | "InvalidUtf8"
  | "InvalidNumber"
  | "TooDeep"
  | "PackageNotObject"
  | "DuplicateKey"
  | "NotObject"
  | "UnknownKey"
  | "NotInPreset"
  | "WrongType"
  | "NotOneOf"
  | "SchemaVersion"
  | "EmptyValue"
  | "BlankTheme"
  | "ThemePath"
  | "NulCharacter"
  | "GlobPath"
  | "GlobStar"
  | "CacheFileDirectory"
  | "HookTimeout"
  | "MoreProblems"
  | "PresetNotFound"
  | "PresetFileNotFound"
  | "ThemeNotFound"
  | "RequestNotJson"
  | "RequestNotObject"
  | "BadRequest"
  | WarningCode;

/** A problem the core reports (SPEC section 7 names, 1-based positions in UTF-16 code units). */
export interface CoreDiagnostic {
  /** The class of the problem, which gives the exit code. */
  name: "SchemaValidationError" | "ConfigSyntaxError" | "UsageError" | "PresetNotFound" | "ThemeNotFound" | "RequestError";
  /**
   * What the problem is, one of several under a name (`UnknownKey`, `WrongType`, ... under SchemaValidationError): on
   * every problem of the core; absent on the host's own that take this shape (the playground's).
   */
  code?: ProblemCode;
  exitCode: number;
  /** Dotted key path such as `modules.include[2]`, or "". */
  path: string;
  /** `file:line:column`, a file, a flag, a variable or a preset name. */
  source: string;
  message: string;
  /** Present when the problem has a position in a text. */
  file?: string;
  line?: number;
  column?: number;
  /** UTF-16 offset of the offending span in the text, and its length. */
  offset?: number;
  length?: number;
  /** The did-you-mean, when there is one: a key, a value, a preset or a theme name (as the message quotes it). */
  suggestion?: string;
  /** UnknownKey: the keys accepted where the key is; NotOneOf: the choices. */
  expected?: string[];
  /** A flag's or variable's value, or a preset or theme name, as found: what a fix replaces. */
  found?: string;
}

/** What a core warning is about (docs/abi.md, "Warnings"): hosts and tests tell warnings apart by it, not by their words. */
export type WarningCode = "UnknownVariable" | "GlobUnmatched" | "OnlySelectsNone" | "NameClash";

export interface CoreWarning {
  message: string;
  source: string;
  /** Set on every warning of the core; absent on the host's own. */
  code?: WarningCode;
  /** GlobUnmatched, OnlySelectsNone: the list (`modules.only`, `modules.include`, `modules.exclude`). */
  key?: string;
  /** GlobUnmatched: the glob as written. */
  glob?: string;
  /** NameClash: the archives of one name, in file-name order, and the one the plan uses. */
  files?: string[];
  used?: string;
  /** GlobUnmatched, UnknownVariable: the did-you-mean, when there is one (a glob, a module name or a variable). */
  suggestion?: string;
}

export type Layer = "cli" | "env" | "config" | "preset" | "default";

/** The resolved config, every field of SPEC section 2 with defaults filled in and paths absolute: generated from the core's table. */
export type { ResolvedConfig };

export interface Origin {
  layer: Layer;
  source: string;
}

/** A leaf's origin in a resolve answer; a union list's also has one origin per item of the list in `config`. */
export interface LeafOrigin extends Origin {
  entries?: Origin[];
}

/** Where a config or preset comes from: JSON text (with positions) or a value a host evaluated. */
export type SourceInput =
  | { source: string; format: "json" | "package.json"; text: string }
  | { source: string; format: "value"; value: unknown };

export type PresetFileInput = SourceInput & { ref?: string; name?: string };

export interface ResolveRequest {
  cwd: string;
  flags?: { theme?: string; exclude?: string[]; preset?: string[]; logFormat?: string; config?: string };
  env?: Record<string, string>;
  config?: SourceInput | null;
  presetFiles?: PresetFileInput[];
  presetNames?: string[];
  detected?: Record<string, string | null>;
  files?: string[];
  archives?: string[];
  /**
   * Ask for `explain` in the answer (every layer that set each key): only `dropkit config --explain` needs it. A key
   * asks for that key's chain alone, and an unknown one is a UsageError with the did-you-mean.
   */
  explain?: boolean | string;
}

export interface PresetChoice {
  name: string;
  source: string;
  reason: string;
  glob?: string;
}

export interface ModuleDecision {
  name: string;
  file: string;
  selected: boolean;
  reason: string;
  glob?: string;
  layer?: Layer;
  source?: string;
}

export interface Plan {
  /** `name`: the theme as the state file keeps it (the archive's theme name, or the path of one outside the drop), or null. */
  theme: { file: string | null; path: string | null; name: string | null; reason: string; alternatives: string[] };
  modules: string[];
  excluded: string[];
  decisions: ModuleDecision[];
}

interface Staged {
  ok: boolean;
  logFormat?: "text" | "json";
  errors?: CoreDiagnostic[];
  warnings: CoreWarning[];
}

/**
 * The final answer (docs/abi.md, "The answer"). With problems (`ok: false`) it still has `config` and `origins`
 * for what the valid values give, and `invalid` names the leaves the problems are about. Decision records are
 * derived from `config` and `origins` (src/core/decisions.ts).
 */
export interface ResolveDone extends Staged {
  stage: "done";
  errors: CoreDiagnostic[];
  /** The per-hook timeout `DROPKIT_HOOK_TIMEOUT` sets, in ms; absent when it is unset or empty (the host's default). */
  hookTimeoutMs?: number;
  config?: ResolvedConfig;
  /** Every leaf's origin, in the order of SPEC section 2. */
  origins?: Record<string, LeafOrigin>;
  /** Only with problems: the dotted keys of the leaves they are about. */
  invalid?: string[];
  /** Only when the request asked for it (`explain: true`, or one key). */
  explain?: Record<string, Array<{ value: unknown } & Origin>>;
  /** Absent when the presets could not be worked out (problems came first, and files would have had to be loaded). */
  presets?: { mode: "auto" | "list"; applied: PresetChoice[]; skipped: PresetChoice[] };
  plan?: Plan;
}

export interface ResolveNeedsPresets extends Staged {
  stage: "presets";
  needs: { mode: "auto" | "list"; presets: Array<{ ref: string; kind: "path" | "name" }>; searchPath: string[] };
}

export interface ResolveNeedsDetect extends Staged {
  stage: "detect";
  needs: { detect: Array<{ id: string; name: string; globs: string[] }> };
}

export type ResolveResponse = ResolveDone | ResolveNeedsPresets | ResolveNeedsDetect;

export interface ValidateResponse {
  ok: boolean;
  config?: unknown;
  errors: CoreDiagnostic[];
  warnings: CoreWarning[];
}

export interface BundledPreset {
  name: string;
  preset: Record<string, unknown>;
  detect: string[] | null;
}

/** Which rules of SPEC section 2 a leaf's values follow (docs/abi.md, `schema`). */
export type LeafTypeName = "schema" | "theme" | "globs" | "presets" | "paths" | "path" | "file" | "enum" | "bool";

/** One leaf of the resolved config, as the `schema` op describes it. */
export interface SchemaLeaf {
  /** The dotted key: `hooks.onFailure`. */
  key: string;
  type: LeafTypeName;
  /** The variable that sets it, or null. */
  env: string | null;
  /** The values an enum takes (empty for the other types). */
  choices: string[];
  /** The default as a JSON value; null when there is none (`presets`: omitted means auto-detect). */
  default: unknown;
  /** `union`: the entries of every layer; `replace`: the value of the highest layer that sets it. */
  merge: "union" | "replace";
  description: string;
  /** The values editors offer, with what each means: an enum's choices, or the usual ones. */
  values: Array<{ value: string | boolean; description: string }>;
}

/** One top-level key of a config or a preset, as the `schema` op describes it. */
export interface SchemaKey {
  key: string;
  /** A leaf, a group of leaves (`hooks`), `$schema`, a shorthand for a leaf (`exclude`) or a preset's `detect`. */
  kind: "leaf" | "group" | "schemaUrl" | "shorthand" | "detect";
  /** Whether a config, and a preset, may hold it. */
  config: boolean;
  preset: boolean;
  /** A leaf's or a shorthand's: the dotted key of the leaf it sets. */
  leaf?: string;
  description: string;
}

/** The `schema` op's answer: the core's table of leaves and keys. */
export interface SchemaResponse {
  ok: true;
  leaves: SchemaLeaf[];
  keys: SchemaKey[];
}
