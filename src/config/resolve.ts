// The config pipeline: discovery, loading the file, and the core's staged resolve.
// It answers the resolve's presets stage (src/config/presetfiles.ts) and detect stage (src/config/detect.ts).

import path from "node:path";
import { CoreTrap, type Core } from "../core/host.js";
import type { CoreWarning, ResolveDone, ResolveNeedsDetect, ResolveNeedsPresets, ResolveRequest, SourceInput } from "../core/protocol.js";
import { loadCore } from "../core/node.js";
import { detectPresets, isTopLevelGlob, listTopLevelFiles } from "./detect.js";
import { locateConfig, type Discovery } from "./discovery.js";
import { workingDirectory } from "../files/fsutil.js";
import { chargeBudget, type ReadBudget } from "../files/limits.js";
import type { FolderListing } from "../files/listing.js";
import { loadConfigFile, sourceInputOf } from "./loader.js";
import { placeValueErrors } from "./valuepositions.js";
import { nearMissWarning, unreadFormatHint } from "./lookalikes.js";
import { loadPresets } from "./presetfiles.js";
import { trustPolicy, trustScope, type TrustScope } from "../files/trust.js";
import type { Env } from "../types.js";

/** The CLI flags that take part in the merge (layer 1), as given. */
export interface ConfigFlags {
  config?: string;
  theme?: string;
  exclude?: string[];
  preset?: string[];
  logFormat?: string;
}

/** Options for `loadConfig`. */
export interface LoadConfigOptions {
  /**
   * The working directory (the drop): where discovery starts, and what relative paths from flags and variables
   * resolve against.
   * @default process.cwd()
   */
  cwd?: string;
  /** The environment: every `DROPKIT_*` variable goes to the core raw. @default process.env */
  env?: Env;
  /** CLI flags (layer 1). @default {} */
  flags?: ConfigFlags;
  /** The core to use (from `dropkit/core`'s `createCore`). @default the process-wide core */
  core?: Core;
  /** Ask the core for `explain` (every layer that set each key), as `dropkit config --explain` does. @default false */
  explain?: boolean;
}

/** The CLI's options: the library's, and a listing shared across one run's steps (never part of the public API). */
export interface RunOptions extends LoadConfigOptions {
  /** A listing of `cwd` that discovery and detection fill, for the run's later steps to use or forget. @default none: listed here */
  listing?: FolderListing;
  /** The key of `config --explain`: the core checks it (an unknown key is a UsageError) and answers with its chain alone. */
  explainKey?: string;
}

/**
 * What answers the core's presets stage: loads the preset files it needs (`loadPresets`). Written out rather than
 * `typeof loadPresets`, so that the library's declarations do not reach the file readers' Node types.
 */
export type PresetStage = (
  needs: ResolveNeedsPresets["needs"],
  warnings: CoreWarning[],
  budget: { used: number },
  trust: TrustScope,
  texts?: Map<string, string>,
) => Promise<Pick<ResolveRequest, "presetFiles" | "presetNames">>;

/** The resolved config and how it came about. */
export interface LoadConfigResult extends ResolveDone {
  /** Which config file was used, how it was found, and which directories were searched. */
  discovery: Discovery;
  /**
   * The complete request that produced this answer (preset files and detect answers included), so that
   * a later call can add `archives` without looking anything up again.
   */
  request: ResolveRequest;
}

/**
 * Resolves the config: finds the file (SPEC section 3), loads it (JSON text goes to the core as is, so
 * that problems have positions; `.ts`/`.js` are evaluated), then runs the core's staged resolve,
 * loading preset files and answering auto-detect on the way (docs/abi.md, "Stages"). Top-level detect
 * globs (`*.zip`) are answered with a listing of `cwd` that the core matches; deeper ones with tinyglobby.
 *
 * Problems in the inputs come back as `ok: false` with every problem in `errors`; problems the host
 * meets before the core can look (a missing `--config` path, a config that throws) are thrown.
 *
 * @throws DropkitError `ConfigNotFound` (66), `ConfigLoadError`/`ConfigSyntaxError`/`SchemaValidationError`
 *   (65) for a config or preset file that cannot be loaded (all preset files' problems together); `UntrustedFile`
 *   (77) for a config or preset file that another user owns or could have written (src/files/trust.ts).
 * @throws CoreTrap when the core fails (a bug).
 */
export async function loadConfig(options: RunOptions = {}): Promise<LoadConfigResult> {
  const cwd = path.resolve(options.cwd ?? workingDirectory(options.env ?? process.env));
  const env = options.env ?? process.env;
  const flags = options.flags ?? {};
  const core = options.core ?? loadCore();
  // Compiled while the config is found and read, when no answer is at hand: its first request comes after.
  void core.prepare();
  const { judged, ...discovery } = await locateConfig(cwd, env, flags.config, options.listing);
  const hostWarnings: CoreWarning[] = [];
  if (discovery.shadowed.length > 0) {
    const names = discovery.shadowed.map((f) => path.basename(f) + (path.basename(f) === "package.json" ? " (dropkit key)" : ""));
    hostWarnings.push({
      message:
        `${discovery.file} is used; ${names.join(" and ")} in the same directory ` +
        `${discovery.shadowed.length > 1 ? "are" : "is"} ignored. Keep one config form to avoid surprises.`,
      source: discovery.file!,
    });
  }
  for (const miss of discovery.nearMisses) hostWarnings.push({ message: nearMissWarning(miss, cwd), source: miss.file });
  for (const refused of discovery.untrusted) hostWarnings.push({ message: refused.message, source: refused.file });
  const request: ResolveRequest = { cwd, flags: coreFlags(flags), env: dropkitVariables(env) };
  if (options.explainKey !== undefined) request.explain = options.explainKey;
  else if (options.explain) request.explain = true;
  // The config and the preset files together are held to limits.totalBytes.
  const budget: ReadBudget = { used: 0 };
  // The text of each .ts/.js file, to place its data's problems where their keys are written (src/config/valuepositions.ts).
  const texts = new Map<string, string>();
  if (judged && discovery.format) {
    request.config = sourceInputOf(judged.path, await loadConfigFile(judged, discovery.format, budget));
    if (request.config.format === "value") texts.set(judged.path, new TextDecoder().decode(judged.bytes));
  }
  const done = await resolveStaged(core, request, trustScope(env, discovery), hostWarnings, budget, options.listing, texts);
  done.errors = placeValueErrors(done.errors, texts);
  // A YAML (or TOML, INI) file given as the config fails as JSON: the error says why.
  const hint = discovery.file ? unreadFormatHint(discovery.file) : "";
  if (hint)
    done.errors = done.errors.map((e) =>
      e.name === "ConfigSyntaxError" && e.file === discovery.file
        ? { ...e, message: `${e.message}${/[.!?]$/.test(e.message) ? "" : "."}${hint}` }
        : e,
    );
  return { ...done, warnings: [...hostWarnings, ...done.warnings], discovery, request };
}

/**
 * Resolves again with the drop's archives, to get the `plan` (theme and modules). Reuses the preset
 * files and detect answers of `loaded`, so the plan is made with exactly the config that was logged.
 *
 * @param loaded - The result of `loadConfig`.
 * @param archives - The `*.zip` names in the working directory, as `scanArchives` returns them.
 */
export async function planDrop(loaded: LoadConfigResult, archives: string[], core: Core = loadCore()): Promise<ResolveDone> {
  // The preset files were loaded (and checked) by loadConfig: the request carries them, so no stage asks again.
  return resolveStaged(core, { ...loaded.request, archives }, trustScope({}, null), []);
}

/**
 * Resolves a config that exists only in memory (for `init`, before its file is written): no discovery,
 * the given source as the config layer, then presets and defaults exactly as `loadConfig` would.
 *
 * @param options - `cwd`, the config `source` (`null` for none), and optionally `env`, `flags` and the drop's `archives`
 *   (for a `plan`).
 * @throws DropkitError for a preset file that cannot be loaded (as `loadConfig`).
 */
export async function resolveSource(options: {
  cwd: string;
  source: SourceInput | null;
  env?: Env;
  flags?: ConfigFlags;
  archives?: string[];
  core?: Core;
  /** What answers the presets stage: the language server keeps preset files while they are unchanged. @default loadPresets */
  presets?: PresetStage;
  /** Ask the core for `explain`: every layer that set each key (`true`), or one key's, checked (as `dropkit config --explain`). */
  explain?: boolean | string;
}): Promise<ResolveDone> {
  const request: ResolveRequest = {
    cwd: path.resolve(options.cwd),
    flags: coreFlags(options.flags ?? {}),
    env: dropkitVariables(options.env ?? {}),
  };
  if (options.source) request.config = options.source;
  if (options.archives) request.archives = options.archives;
  if (options.explain !== undefined && options.explain !== false) request.explain = options.explain;
  const trust = { policy: trustPolicy(options.env ?? {}), fence: null };
  // The config's own bytes count toward the resolve's total, as `loadConfig` charges its file: a config and preset files
  // that dropkit config refuses together are refused here too (the language server resolves an editor's text so).
  const budget: ReadBudget = { used: 0 };
  if (options.source) chargeBudget(budget, options.source.source, sourceBytes(options.source));
  return resolveStaged(options.core ?? loadCore(), request, trust, [], budget, undefined, undefined, options.presets);
}

// --- helpers ---

/** Calls the core until it is done, answering its `presets` and `detect` stages. */
async function resolveStaged(
  core: Core,
  request: ResolveRequest,
  trust: TrustScope,
  hostWarnings: CoreWarning[],
  budget: ReadBudget = { used: 0 },
  listing?: FolderListing,
  texts?: Map<string, string>,
  presets: PresetStage = loadPresets,
): Promise<ResolveDone> {
  // Three stages at most; a fourth request means the core and the host disagree about the protocol.
  for (let round = 0; round < 4; round++) {
    const response = core.resolveLayers(request);
    if (response.stage === "done") return response;
    if (response.stage === "presets" && request.presetFiles === undefined) {
      Object.assign(request, await presets((response as ResolveNeedsPresets).needs, hostWarnings, budget, trust, texts));
    } else if (response.stage === "detect" && request.detected === undefined && request.files === undefined) {
      const candidates = (response as ResolveNeedsDetect).needs.detect;
      const files = candidates.every((c) => c.globs.every(isTopLevelGlob)) ? listTopLevelFiles(request.cwd, listing) : null;
      if (files) request.files = files;
      else request.detected = await detectPresets(request.cwd, candidates);
    } else {
      throw new CoreTrap(`the core asked for stage "${response.stage}" again after it was answered`);
    }
  }
  throw new CoreTrap("the core did not finish resolving after every stage was answered");
}

/** The flags the core merges; `--config` is the host's business. */
function coreFlags(flags: ConfigFlags): NonNullable<ResolveRequest["flags"]> {
  const out: NonNullable<ResolveRequest["flags"]> = {};
  if (flags.theme !== undefined) out.theme = flags.theme;
  if (flags.exclude !== undefined) out.exclude = flags.exclude;
  if (flags.preset !== undefined) out.preset = flags.preset;
  if (flags.logFormat !== undefined) out.logFormat = flags.logFormat;
  return out;
}

/** Every `DROPKIT_*` variable, raw: the core parses them and warns about unknown ones. */
function dropkitVariables(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith("DROPKIT_") && value !== undefined) out[name] = value;
  }
  return out;
}

/** A config's bytes as the read budget counts them: its text's UTF-8, or the JSON text of its data (as `toJsonValue`). */
function sourceBytes(source: SourceInput): number {
  return Buffer.byteLength(source.format === "value" ? JSON.stringify(source.value) : source.text);
}
