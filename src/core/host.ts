// The boundary to the wasm core for the rest of the host: instantiates it (through the loader) and calls it with src/core/abi.ts's byte ABI. Browser-safe.

import { instantiateSync } from "@assemblyscript/loader";
import { type AbiExports, callExportsText, CoreTrap } from "./abi.js";
import type { WasmBytes, WasmModule } from "./wasmtypes.js";

/** Thrown when the core traps or answers with something unreadable: a bug, exit 70. The same class as `dropkit/abi`'s. */
export { CoreTrap };
/** Decision records and list entries from a resolve answer (`config` + `origins`). */
export { deriveDecisions, deriveListEntries, type Decision, type ListEntry } from "./decisions.js";

/** A problem the core reports (SPEC section 7 names, 1-based positions in UTF-16 code units). */
export interface CoreDiagnostic {
  name: "SchemaValidationError" | "ConfigSyntaxError" | "UsageError" | "PresetNotFound" | "ThemeNotFound" | "RequestError";
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
}

export interface CoreWarning {
  message: string;
  source: string;
}

export type Layer = "cli" | "env" | "config" | "preset" | "default";

/** The resolved config: every field of SPEC section 2, defaults filled in, paths absolute. */
export interface ResolvedConfig {
  schema: 1;
  theme: string;
  modules: { include: string[]; exclude: string[]; only: string[] };
  presets: string[];
  presetsSearchPath: string[];
  hooks: { initScriptsDir: string; postScriptsDir: string; onFailure: "continue" | "fail" };
  cache: { file: string; enabled: boolean };
  log: { format: "text" | "json" };
}

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

const decoder = new TextDecoder();

/** One instance of the core. A trap discards the instance; the next call makes a fresh one. */
export class Core {
  readonly module: WasmModule;
  private exports: AbiExports | null = null;

  constructor(source: WasmModule | WasmBytes) {
    this.module = source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source);
  }

  /** Sends one request object and returns the parsed response, with the ABI status. */
  request<T>(req: object): { status: number; response: T } {
    // The loader instantiates the module; the binding then speaks the same byte ABI as every other host, on the
    // instance's own exports (the loader's wrappers would add a call and an arguments array to each of the five).
    const exports = this.exports ?? (this.exports = instantiateSync(this.module, {}).instance.exports as unknown as AbiExports);
    let text: string;
    let status: number;
    try {
      const answer = callExportsText(exports, JSON.stringify(req));
      status = answer.status;
      // Decoding the view copies it: no slice first.
      text = decoder.decode(answer.view);
    } catch (error) {
      // After a trap the instance's state is unknown: drop it, as SPEC section 11 asks of every host.
      this.exports = null;
      if (error instanceof CoreTrap) throw error;
      throw new CoreTrap(`the core trapped: ${(error as Error).message}`, { cause: error });
    }
    try {
      return { status, response: JSON.parse(text) as T };
    } catch (error) {
      throw new CoreTrap("the core answered with text that is not JSON", { cause: error });
    }
  }

  /** Validates one config (or preset) text: all problems at once, with positions. */
  validateConfig(
    text: string,
    options: { format?: "json" | "package.json"; source?: string; kind?: "config" | "preset" } = {},
  ): ValidateResponse {
    return this.expect<ValidateResponse>({ op: "validate", text, ...options });
  }

  /** Merges the layers (SPEC section 4); may ask for preset files or detect answers first (see docs/abi.md). */
  resolveLayers(request: ResolveRequest): ResolveResponse {
    return this.expect<ResolveResponse>({ op: "resolve", ...request });
  }

  /** The bundled presets. */
  listPresets(): BundledPreset[] {
    return this.expect<{ presets: BundledPreset[] }>({ op: "presets" }).presets;
  }

  /** The JSON parser alone: the value, or the syntax error with its position. */
  parseJson(text: string): { ok: boolean; value?: unknown; errors: CoreDiagnostic[] } {
    return this.expect({ op: "parse", text });
  }

  /** The did-you-mean of every dropkit message: the candidate closest to `name`, when one is close enough. */
  suggest(name: string, candidates: string[]): string | undefined {
    return this.expect<{ suggestion: string | null }>({ op: "suggest", name, candidates }).suggestion ?? undefined;
  }

  private expect<T>(req: object): T {
    const { status, response } = this.request<T & { errors?: CoreDiagnostic[] }>(req);
    if (status !== 0) {
      // A request the core cannot read is the host's bug, never the user's.
      throw new CoreTrap(`the core rejected a request: ${response.errors?.[0]?.message ?? "status " + status}`);
    }
    return response;
  }
}

/** Makes a core from the module's bytes or a compiled module. */
export function createCore(source: WasmModule | WasmBytes): Core {
  return new Core(source);
}
