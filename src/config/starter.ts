// What `dropkit init` offers and writes: the folder's themes, modules and local presets, the configs it must not replace, and the minimal config text.

import { readdirSync } from "node:fs";
import path from "node:path";
import type { Core } from "../core/host.js";
import type { CoreDiagnostic, Plan, ResolveDone, ResolvedConfig } from "../core/protocol.js";
import { resolveSource } from "./resolve.js";
import { findConfig } from "./discovery.js";
import { DropkitError, type Diagnostic, type ErrorName } from "../errors.js";
import { isFile } from "../files/fsutil.js";

/** The file `init` writes, in the working directory. */
export const initFileName = "dropkit.config.json";

/** Where `$schema` points: the schema the installed package ships, relative so the file works on every machine. */
export const schemaPointer = "./node_modules/dropkit/schema.json";

/** The folder holding local presets that `init` offers (and adds to `presetsSearchPath` when they are used). */
export const localPresetsDir = "./presets";

/** What the working directory holds, as `init` offers it. */
export interface Survey {
  /** Theme archives (`*-theme.zip`): the name a config uses, and the file. */
  themes: Array<{ name: string; file: string }>;
  /** Module names (every other `*.zip`, without `.zip`), by name. */
  modules: string[];
  /** Prefix globs shared by module names (`test-*` for `test-a`), with the modules each matches. */
  globs: Array<{ glob: string; matches: string[] }>;
  /** Bundled presets worth offering (not `none`, which an empty list already means), with what each sets. */
  bundledPresets: Array<{ name: string; summary: string }>;
  /** Preset files in `./presets`, one per name (`.ts` before `.js` before `.json`, as the lookup does). */
  localPresets: Array<{ name: string; file: string }>;
}

/** The answers to the seven prompts (SPEC section 6), in prompt order. */
export interface InitAnswers {
  theme: string;
  /** `"auto"`: leave `presets` out, so presets are auto-detected; a list (maybe empty) otherwise. */
  presets: "auto" | string[];
  exclude: string[];
  only: string[];
  onFailure: "continue" | "fail";
  cacheEnabled: boolean;
  logFormat: "text" | "json";
}

/** The config `init` writes: only keys that differ from what presets and defaults give, plus `$schema` and `schema`. */
export interface InitConfig {
  $schema: string;
  schema: 1;
  theme?: string;
  presets?: string[];
  presetsSearchPath?: string[];
  modules?: { exclude?: string[]; only?: string[] };
  hooks?: { onFailure: "continue" | "fail" };
  cache?: { enabled: boolean };
  log?: { format: "text" | "json" };
}

/**
 * Lists what the working directory offers: theme archives and modules from its `*.zip` files, prefix
 * globs over the module names, the bundled presets, and the preset files in `./presets`.
 *
 * @param cwd - The working directory.
 * @param archives - Its `*.zip` names, as `scanArchives` returns them.
 * @param core - The core, for the bundled presets.
 */
export function surveyFolder(cwd: string, archives: string[], core: Core): Survey {
  const themes: Survey["themes"] = [];
  const modules: string[] = [];
  for (const file of archives) {
    // The core's naming (assembly/select.ts, isThemeArchive): a theme archive ends in -theme.zip, in any letter case,
    // after a name that is not empty; "-theme.zip" alone is a module.
    const theme = /^(.+)-theme\.zip$/is.exec(file);
    if (theme) themes.push({ name: theme[1]!, file });
    else modules.push(file.replace(/\.zip$/i, ""));
  }
  const localPresets = listLocalPresets(cwd);
  const local = new Set(localPresets.map((p) => p.name));
  const bundledPresets = core
    .listPresets()
    // A local preset of the same name wins the lookup, so only the local one is offered.
    .filter((p) => p.name !== "none" && !local.has(p.name))
    .map((p) => ({ name: p.name, summary: describePreset(p.preset) }));
  return { themes, modules, globs: prefixGlobs(modules), bundledPresets, localPresets };
}

/**
 * The configs already in `cwd` itself, in discovery order (any of the four forms of SPEC section 3; a
 * `package.json` only with a `dropkit` key). A config in a parent directory does not count: the new
 * file takes its place for this folder.
 */
export async function existingConfigs(cwd: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const found = await findConfig(cwd, env);
  if (found.file === null || found.stop.dir !== path.resolve(cwd)) return [];
  return [found.file, ...found.shadowed];
}

/**
 * The `presets` and `presetsSearchPath` keys for a presets answer. `./presets` goes into the search path
 * when a local preset is picked by name, or with auto-detect when the folder has local presets (else
 * auto-detect would never see them).
 */
export function presetKeys(presets: InitAnswers["presets"], survey: Survey): Pick<InitConfig, "presets" | "presetsSearchPath"> {
  const local = new Set(survey.localPresets.map((p) => p.name));
  const needsLocal = presets === "auto" ? local.size > 0 : presets.some((name) => local.has(name));
  return {
    ...(presets === "auto" ? {} : { presets }),
    ...(needsLocal ? { presetsSearchPath: [localPresetsDir] } : {}),
  };
}

/**
 * What the config resolves to with only the presets answer: the presets' values over the built-in
 * defaults. The prompts after the presets one start from it, and a scalar answer equal to it is left
 * out of the file. The outer environment is left out: it is not part of the file.
 *
 * @throws DropkitError when a preset cannot be loaded or the core reports a problem.
 */
export async function baselineFor(cwd: string, presets: InitAnswers["presets"], survey: Survey): Promise<ResolvedConfig> {
  const keys = presetKeys(presets, survey);
  const source =
    Object.keys(keys).length > 0 ? { source: path.join(cwd, initFileName), format: "value" as const, value: { schema: 1, ...keys } } : null;
  const done = await resolveSource({ cwd, source });
  throwIfFailed(done, path.join(cwd, initFileName));
  return done.config!;
}

/**
 * The config to write: `$schema`, `schema`, then only what the answers change. Scalars are written when
 * they differ from `baseline` (presets and defaults); module lists when they are not empty.
 */
export function buildConfig(answers: InitAnswers, survey: Survey, baseline: ResolvedConfig): InitConfig {
  const config: InitConfig = { $schema: schemaPointer, schema: 1 };
  if (answers.theme !== baseline.theme) config.theme = answers.theme;
  Object.assign(config, presetKeys(answers.presets, survey));
  const modules: NonNullable<InitConfig["modules"]> = {};
  if (answers.exclude.length > 0) modules.exclude = answers.exclude;
  if (answers.only.length > 0) modules.only = answers.only;
  if (Object.keys(modules).length > 0) config.modules = modules;
  if (answers.onFailure !== baseline.hooks.onFailure) config.hooks = { onFailure: answers.onFailure };
  if (answers.cacheEnabled !== baseline.cache.enabled) config.cache = { enabled: answers.cacheEnabled };
  if (answers.logFormat !== baseline.log.format) config.log = { format: answers.logFormat };
  return config;
}

/**
 * Checks the theme, presets and modules-to-exclude answers as `config` and `create` check the same flags, before any
 * file text exists: through the core's resolve, as `--theme`, `--preset` and `--exclude` over the folder's archives.
 * So a bad value is a UsageError at the flag (64), a theme the folder does not hold ThemeNotFound (66) listing those
 * it does, and an unknown preset PresetNotFound (67) listing the available ones; the environment is left out, as it
 * is not part of the file. Returns the plan, for the host's check of a theme path outside the folder.
 *
 * @throws DropkitError with every problem, in the order config and create report them.
 */
export async function checkAnswers(
  cwd: string,
  answers: Pick<InitAnswers, "theme" | "presets" | "exclude">,
  survey: Survey,
  archives: string[],
): Promise<Plan> {
  // Local presets are found through the search path the file will hold, and no presets is an empty list in it (an empty
  // --preset list means none given): values init makes, never problems of their own.
  const { presetsSearchPath } = presetKeys(answers.presets, survey);
  const named = answers.presets !== "auto" && answers.presets.length > 0;
  const value = { ...(presetsSearchPath ? { presetsSearchPath } : {}), ...(answers.presets !== "auto" && !named ? { presets: [] } : {}) };
  const source = Object.keys(value).length > 0 ? { source: path.join(cwd, initFileName), format: "value" as const, value } : null;
  const flags = { theme: answers.theme, exclude: answers.exclude, ...(named ? { preset: answers.presets as string[] } : {}) };
  const done = await resolveSource({ cwd, source, flags, archives });
  throwIfFailed(done);
  return done.plan!;
}

/** What is wrong with a theme typed at the prompt, as `checkAnswers` would find it (the folder's archives included), or `undefined`. */
export function themeProblem(core: Core, cwd: string, archives: string[], theme: string): string | undefined {
  // As the file will hold it (relative paths against the folder). No presets: they cannot change the theme's verdict,
  // and without them the core needs no files.
  const source = { source: path.join(cwd, initFileName), format: "value" as const, value: { theme, presets: [] } };
  const done = core.resolveLayers({ cwd: path.resolve(cwd), config: source, archives });
  return done.stage === "done" && !done.ok ? done.errors[0]!.message : undefined;
}

/**
 * Problems found in the text of the file init is about to write, without a position: that file is not on disk (or
 * is the one being replaced), so no code frame may quote it.
 */
export function unwrittenProblems(errors: CoreDiagnostic[], file: string): CoreDiagnostic[] {
  return errors.map((e) =>
    e.file === file || e.source === file
      ? { name: e.name, exitCode: e.exitCode, path: e.path, source: `${file} (not written)`, message: e.message }
      : e,
  );
}

/** The file's text: two-space JSON with lists of strings kept on one line, and a final newline. */
export function renderConfig(config: InitConfig): string {
  return render(config, "") + "\n";
}

/** Turns a failed resolve into the error that reports every problem with its own exit code. */
export function throwIfFailed(done: ResolveDone, unwritten?: string): void {
  if (done.ok) return;
  const errors = unwritten === undefined ? done.errors : unwrittenProblems(done.errors, unwritten);
  const diagnostics: Diagnostic[] = errors.map((e) => ({
    // The core only reports names of SPEC section 8 for a resolve (RequestError would be a bug, thrown as such).
    name: e.name as ErrorName,
    message: e.message,
    path: e.path,
    source: e.source,
    ...(e.file !== undefined ? { file: e.file, line: e.line, column: e.column } : {}),
  }));
  throw new DropkitError(diagnostics);
}

// --- helpers ---

/** The preset files directly in `./presets`, one per name, in name order. */
function listLocalPresets(cwd: string): Survey["localPresets"] {
  let names: string[];
  try {
    names = readdirSync(path.join(cwd, localPresetsDir));
  } catch {
    // No presets folder (or an unreadable one): nothing local to offer.
    return [];
  }
  const extensions = [".ts", ".js", ".json"];
  const byName = new Map<string, { file: string; rank: number }>();
  for (const entry of names) {
    const rank = extensions.findIndex((ext) => entry.endsWith(ext));
    if (rank < 0 || entry.startsWith(".") || entry.endsWith(".d.ts")) continue;
    if (!isFile(path.join(cwd, localPresetsDir, entry))) continue;
    const name = entry.slice(0, -extensions[rank]!.length);
    const seen = byName.get(name);
    if (!seen || rank < seen.rank) byName.set(name, { file: `${localPresetsDir}/${entry}`, rank });
  }
  return [...byName.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, { file }]) => ({ name, file }));
}

/** `test-*` for every prefix up to a `-` or `_` that module names start with, and the names it matches. */
function prefixGlobs(modules: string[]): Survey["globs"] {
  const globs = new Map<string, string[]>();
  for (const name of modules) {
    const cut = name.search(/[-_]/);
    if (cut <= 0 || cut === name.length - 1) continue;
    const glob = `${name.slice(0, cut + 1)}*`;
    globs.set(glob, [...(globs.get(glob) ?? []), name]);
  }
  return [...globs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([glob, matches]) => ({ glob, matches }));
}

/** A bundled preset in a few words: each leaf it sets, and its detect globs. */
function describePreset(preset: Record<string, unknown>, prefix = ""): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(preset)) {
    if (key === "detect" && prefix === "") {
      parts.push(`detected by ${(value as string[]).join(", ")}`);
    } else if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      const inner = describePreset(value as Record<string, unknown>, `${prefix}${key}.`);
      if (inner !== "") parts.push(inner);
    } else {
      parts.push(`${prefix}${key} ${Array.isArray(value) ? value.join(", ") : String(value)}`);
    }
  }
  return parts.join("; ");
}

function render(value: unknown, indent: string): string {
  if (Array.isArray(value)) return `[${value.map((v) => JSON.stringify(v)).join(", ")}]`;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const inner = indent + "  ";
  const entries = Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${render(v, inner)}`);
  return `{\n${entries.join(",\n")}\n${indent}}`;
}
