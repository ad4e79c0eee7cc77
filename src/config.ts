// The config pipeline: discovery, loading the file, preset files and auto-detect, and the core's staged resolve.

import { readdirSync } from "node:fs";
import path from "node:path";
import { CoreTrap, type Core, type CoreWarning, type PresetFileInput, type ResolveDone, type ResolveNeedsDetect, type ResolveNeedsPresets, type ResolveRequest, type SourceInput } from "./core.js";
import { loadCore } from "./core-node.js";
import { locateConfig, type Discovery } from "./discovery.js";
import { DropkitError, type Diagnostic } from "./errors.js";
import { isFile } from "./fsutil.js";
import type { FolderListing } from "./listing.js";
import { nearMissWarning } from "./lookalikes.js";
import type { ReadBudget } from "./limits.js";
import { loadConfigFile, loadPresetFile, type LoadedConfig } from "./loader.js";
import type { Env } from "./types.js";

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
  /** A listing of `cwd` shared with later steps of the run (create's archive scan); discovery and detection fill it. @default none: listed here */
  listing?: FolderListing;
}

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

/** The preset file extensions, in lookup order within one directory. */
const presetExtensions = [".ts", ".js", ".json"] as const;

/** Directories a detect glob never looks into: they are not part of the drop and can be huge. */
const detectIgnore = ["**/node_modules/**", "**/.git/**"];

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
 *   (65) for a config or preset file that cannot be loaded (all preset files' problems together).
 * @throws CoreTrap when the core fails (a bug).
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadConfigResult> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const env = options.env ?? process.env;
  const flags = options.flags ?? {};
  const core = options.core ?? loadCore();
  const discovery = await locateConfig(cwd, env, flags.config, options.listing);
  const hostWarnings: CoreWarning[] = [];
  if (discovery.shadowed.length > 0) {
    const names = discovery.shadowed.map((f) => path.basename(f) + (path.basename(f) === "package.json" ? " (dropkit key)" : ""));
    hostWarnings.push({
      message: `${discovery.file} is used; ${names.join(" and ")} in the same directory ${discovery.shadowed.length > 1 ? "are" : "is"} ignored. Keep one config form to avoid surprises.`,
      source: discovery.file!,
    });
  }
  for (const miss of discovery.nearMisses) hostWarnings.push({ message: nearMissWarning(miss, cwd), source: miss.file });
  const request: ResolveRequest = { cwd, flags: coreFlags(flags), env: dropkitVariables(env) };
  if (options.explain) request.explain = true;
  // The config and the preset files together are held to limits.totalBytes.
  const budget: ReadBudget = { used: 0 };
  if (discovery.file && discovery.format) {
    request.config = toSource(discovery.file, await loadConfigFile(discovery.file, discovery.format, "config", budget));
  }
  const done = await resolveStaged(core, request, hostWarnings, budget, options.listing);
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
  return resolveStaged(core, { ...loaded.request, archives }, []);
}

/**
 * Resolves a config that exists only in memory (for `init`, before its file is written): no discovery,
 * the given source as the config layer, then presets and defaults exactly as `loadConfig` would.
 *
 * @param options - `cwd`, the config `source` (`null` for none), and optionally `env` and `flags`.
 * @throws DropkitError for a preset file that cannot be loaded (as `loadConfig`).
 */
export async function resolveSource(options: { cwd: string; source: SourceInput | null; env?: Env; flags?: ConfigFlags; core?: Core }): Promise<ResolveDone> {
  const request: ResolveRequest = { cwd: path.resolve(options.cwd), flags: coreFlags(options.flags ?? {}), env: dropkitVariables(options.env ?? {}) };
  if (options.source) request.config = options.source;
  return resolveStaged(options.core ?? loadCore(), request, []);
}

// --- helpers ---

/** Calls the core until it is done, answering its `presets` and `detect` stages. */
async function resolveStaged(core: Core, request: ResolveRequest, hostWarnings: CoreWarning[], budget: ReadBudget = { used: 0 }, listing?: FolderListing): Promise<ResolveDone> {
  // Three stages at most; a fourth request means the core and the host disagree about the protocol.
  for (let round = 0; round < 4; round++) {
    const response = core.resolveLayers(request);
    if (response.stage === "done") return response;
    if (response.stage === "presets" && request.presetFiles === undefined) {
      Object.assign(request, await loadPresets((response as ResolveNeedsPresets).needs, hostWarnings, budget));
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

function toSource(file: string, loaded: LoadedConfig): SourceInput {
  return loaded.format === "value"
    ? { source: file, format: "value", value: loaded.value }
    : { source: file, format: loaded.format, text: loaded.text };
}

/**
 * Loads the preset files the core asked for: listed paths, listed names looked up in the search path
 * (first directory, then `.ts` before `.js` before `.json`, first found wins), or in auto mode every
 * preset file of the search path. A name that is not found is left out: the core then uses the
 * bundled preset of that name or reports PresetNotFound with suggestions from `presetNames`.
 */
async function loadPresets(needs: ResolveNeedsPresets["needs"], warnings: CoreWarning[], budget: ReadBudget): Promise<Pick<ResolveRequest, "presetFiles" | "presetNames">> {
  const available = listSearchPath(needs.searchPath, warnings);
  const wanted: Array<{ file: string; name: string; ref?: string }> = [];
  if (needs.mode === "auto") {
    for (const [name, file] of available) wanted.push({ file, name });
  } else {
    for (const { ref, kind } of needs.presets) {
      if (kind === "path") {
        if (isFile(ref)) wanted.push({ file: ref, name: presetName(ref), ref });
      } else {
        const file = available.get(ref);
        if (file) wanted.push({ file, name: ref, ref });
      }
    }
  }
  const presetFiles: PresetFileInput[] = [];
  const problems: Diagnostic[] = [];
  for (const { file, name, ref } of wanted) {
    try {
      const source = toSource(file, await loadPresetFile(file, budget));
      presetFiles.push({ ...source, name, ...(ref !== undefined ? { ref } : {}) });
    } catch (error) {
      if (!(error instanceof DropkitError)) throw error;
      problems.push(...error.diagnostics);
    }
  }
  // Every preset file's problems at once, not only the first file's.
  if (problems.length > 0) throw new DropkitError(problems);
  return { presetFiles, presetNames: [...available.keys()] };
}

/**
 * The preset files of the search path by name, in directory order then name order; the first file of a
 * name wins and later ones get a warning. A missing directory is a warning, not an error.
 */
function listSearchPath(dirs: string[], warnings: CoreWarning[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === "ENOENT" ? "does not exist" : code === "ENOTDIR" ? "is not a directory" : `cannot be read (${code ?? String(error)})`;
      warnings.push({ message: `The presets search path directory ${dir} ${why}; no presets are looked up there.`, source: dir });
      continue;
    }
    const candidates = names
      .filter((n) => presetExtensions.some((ext) => n.endsWith(ext)) && !n.endsWith(".d.ts") && !n.startsWith("."))
      .sort((a, b) => compareCodeUnits(presetName(a), presetName(b)) || extensionRank(a) - extensionRank(b));
    for (const entry of candidates) {
      const file = path.join(dir, entry);
      if (!isFile(file)) continue;
      const name = presetName(entry);
      const first = found.get(name);
      if (first) {
        warnings.push({ message: `The preset file ${file} is ignored: ${first} has the same name and comes first in the search path.`, source: file });
        continue;
      }
      found.set(name, file);
    }
  }
  return found;
}

/**
 * Answers auto-detect for globs that reach below the top level: for each candidate preset, the first of
 * its globs that matches a file in `cwd` (tinyglobby, loaded only now), or `null`.
 */
async function detectPresets(cwd: string, candidates: ResolveNeedsDetect["needs"]["detect"]): Promise<Record<string, string | null>> {
  const { glob } = await import("tinyglobby");
  const matches = new Map<string, boolean>();
  const detected: Record<string, string | null> = {};
  for (const { id, globs } of candidates) {
    let hit: string | null = null;
    for (const pattern of globs) {
      let matched = matches.get(pattern);
      if (matched === undefined) {
        const files = await glob([pattern], { cwd, onlyFiles: true, dot: false, expandDirectories: false, ignore: detectIgnore });
        matches.set(pattern, (matched = files.length > 0));
      }
      if (matched) {
        hit = pattern;
        break;
      }
    }
    detected[id] = hit;
  }
  return detected;
}

/**
 * Whether a detect glob looks only at the top level of the working directory and means the same to
 * tinyglobby and to the core's matcher: one path segment, no braces, extglobs, negation or escapes,
 * and no leading dot (neither side then matches dotfiles).
 */
function isTopLevelGlob(glob: string): boolean {
  return /^[^./\\{}()!@+][^/\\{}()!@+]*$/.test(glob);
}

/**
 * The non-hidden files directly in `cwd` (symbolic links to files included), for the core to match
 * against top-level detect globs: a directory listing is far cheaper than loading a glob library, and
 * it is the same matching the playground uses. `null` when the directory cannot be listed.
 */
function listTopLevelFiles(cwd: string, listing?: FolderListing): string[] | null {
  let entries;
  try {
    entries = listing?.covers(cwd) ? listing.read() : readdirSync(cwd, { withFileTypes: true });
  } catch {
    return null;
  }
  const files: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    if (entry.isFile() || (entry.isSymbolicLink() && isFile(path.join(cwd, entry.name)))) files.push(entry.name);
  }
  return files.sort(compareCodeUnits);
}

function presetName(file: string): string {
  const base = path.basename(file);
  const ext = presetExtensions.find((e) => base.endsWith(e));
  return ext ? base.slice(0, -ext.length) : base;
}

function extensionRank(file: string): number {
  return presetExtensions.findIndex((e) => file.endsWith(e));
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
