// What `dropkit init` offers and writes: the folder's themes, modules and local presets, the configs it must not replace, and the minimal config text.

import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import type { Core } from "../core/host.js";
import type { CoreDiagnostic, Plan, ResolveDone, ResolvedConfig } from "../core/protocol.js";
import { loadConfig, resolveSource, type ConfigFlags, type LoadConfigResult } from "./resolve.js";
import { findConfig } from "./discovery.js";
import { DropkitError, type Diagnostic, type ErrorName } from "../errors.js";
import { isFile } from "../files/fsutil.js";

/** The file `init` writes, in the working directory. */
export const initFileName = "dropkit.config.json";

/** The schema the installed package ships, which `$schema` points at (relative, so the file works on every machine). */
const schemaInPackage = ["node_modules", "dropkit", "schema.json"] as const;

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
  $schema?: string;
  schema: 1;
  theme?: string;
  presets?: string[];
  presetsSearchPath?: string[];
  modules?: { include?: string[]; exclude?: string[]; only?: string[] };
  hooks?: { initScriptsDir?: string; postScriptsDir?: string; onFailure?: "continue" | "fail" };
  cache?: { file?: string; enabled?: boolean };
  log?: { format: "text" | "json" };
}

/**
 * The config that applies to the working directory today from a folder above it (a monorepo root's package.json or
 * dropkit.config.*). The new file shadows it (discovery stops at the nearest config), so init starts from its values:
 * `dropkit config` then resolves the same before and after `init --yes`.
 */
export interface Inherited {
  /** The config file, absolute. */
  file: string;
  /** What the seven prompts start from, as that file sets it; its paths rebased to the working directory. */
  answers: Partial<InitAnswers>;
  /** What it sets that no prompt asks about, copied into the new file; its paths rebased to the working directory. */
  carried: {
    include?: string[];
    presetsSearchPath?: string[];
    initScriptsDir?: string;
    postScriptsDir?: string;
    cacheFile?: string;
  };
}

/** How `dropkit config` resolves in the working directory before init writes: its verdict, and the config init inherits. */
export interface Before {
  done: ResolveDone;
  inherited: Inherited | null;
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
    // The core's naming (assembly/resolve/select.ts, isThemeArchive): a theme archive ends in -theme.zip, in any letter case,
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
 * Resolves as `dropkit config` would in `cwd` before the file exists, with the environment and init's flags: invalid
 * variables get config's verdict (and exit code). Without a config in `cwd` itself, discovery runs and a config found
 * above is what init inherits; with one (init --force), that file is left out, as the new one replaces it.
 *
 * @throws DropkitError as `loadConfig` does (a config above that cannot be loaded or is not trusted).
 */
export async function resolveBefore(cwd: string, env: NodeJS.ProcessEnv, flags: ConfigFlags, ownConfig: boolean): Promise<Before> {
  if (ownConfig) return { done: await resolveSource({ cwd, source: null, env, flags }), inherited: null };
  // explain: each key's config-layer value, even where a variable or flag overrides it.
  const loaded = await loadConfig({ cwd, env, flags, explain: true });
  return { done: loaded, inherited: loaded.ok ? inheritedFrom(loaded, cwd) : null };
}

/**
 * The `presets` and `presetsSearchPath` keys for a presets answer. The search path starts from the inherited one;
 * `./presets` goes first in it when a local preset is picked by name, or with auto-detect when the folder has local
 * presets (else auto-detect would never see them), unless a config is inherited: auto-detect then stays as it was.
 */
export function presetKeys(
  presets: InitAnswers["presets"],
  survey: Survey,
  inherited: Inherited | null = null,
): Pick<InitConfig, "presets" | "presetsSearchPath"> {
  const local = new Set(survey.localPresets.map((p) => p.name));
  const needsLocal = presets === "auto" ? local.size > 0 && inherited === null : presets.some((name) => local.has(name));
  const carried = inherited?.carried.presetsSearchPath ?? [];
  const searchPath = needsLocal && !carried.includes(localPresetsDir) ? [localPresetsDir, ...carried] : carried;
  return {
    ...(presets === "auto" ? {} : { presets }),
    ...(searchPath.length > 0 ? { presetsSearchPath: searchPath } : {}),
  };
}

/**
 * What the config resolves to with only the presets answer: the presets' values over the built-in
 * defaults. The prompts after the presets one start from it, and a scalar answer equal to it is left
 * out of the file. The outer environment is left out: it is not part of the file.
 *
 * @throws DropkitError when a preset cannot be loaded or the core reports a problem.
 */
export async function baselineFor(
  cwd: string,
  presets: InitAnswers["presets"],
  survey: Survey,
  inherited: Inherited | null = null,
): Promise<ResolvedConfig> {
  const keys = presetKeys(presets, survey, inherited);
  const source =
    Object.keys(keys).length > 0 ? { source: path.join(cwd, initFileName), format: "value" as const, value: { schema: 1, ...keys } } : null;
  const done = await resolveSource({ cwd, source });
  throwIfFailed(done, path.join(cwd, initFileName));
  return done.config!;
}

/**
 * The config to write: `$schema` (when one was found), `schema`, what an inherited config sets that no prompt asks,
 * then only what the answers change. Scalars are written when they differ from `baseline` (presets and defaults);
 * module lists when they are not empty.
 */
export function buildConfig(
  answers: InitAnswers,
  survey: Survey,
  baseline: ResolvedConfig,
  extra: { schema?: string; inherited?: Inherited | null } = {},
): InitConfig {
  const carried = extra.inherited?.carried ?? {};
  const config: InitConfig = { ...(extra.schema === undefined ? {} : { $schema: extra.schema }), schema: 1 };
  if (answers.theme !== baseline.theme) config.theme = answers.theme;
  Object.assign(config, presetKeys(answers.presets, survey, extra.inherited ?? null));
  const modules: NonNullable<InitConfig["modules"]> = {};
  if (carried.include) modules.include = carried.include;
  if (answers.exclude.length > 0) modules.exclude = answers.exclude;
  if (answers.only.length > 0) modules.only = answers.only;
  if (Object.keys(modules).length > 0) config.modules = modules;
  const hooks: NonNullable<InitConfig["hooks"]> = {};
  if (carried.initScriptsDir) hooks.initScriptsDir = carried.initScriptsDir;
  if (carried.postScriptsDir) hooks.postScriptsDir = carried.postScriptsDir;
  if (answers.onFailure !== baseline.hooks.onFailure) hooks.onFailure = answers.onFailure;
  if (Object.keys(hooks).length > 0) config.hooks = hooks;
  const cache: NonNullable<InitConfig["cache"]> = {};
  if (carried.cacheFile) cache.file = carried.cacheFile;
  if (answers.cacheEnabled !== baseline.cache.enabled) cache.enabled = answers.cacheEnabled;
  if (Object.keys(cache).length > 0) config.cache = cache;
  if (answers.logFormat !== baseline.log.format) config.log = { format: answers.logFormat };
  return config;
}

/**
 * The `$schema` value: the relative path from `cwd` to `node_modules/dropkit/schema.json` in the nearest folder up
 * the tree that has one (a workspace installs dropkit at its root), looked for up to the repository root (the
 * folder holding `.git`); `undefined` when there is none, so that the file never points at nothing.
 */
export function findSchema(cwd: string): string | undefined {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const schema = path.join(dir, ...schemaInPackage);
    if (isFile(schema)) return relativeTo(cwd, schema);
    if (existsSync(path.join(dir, ".git")) || path.dirname(dir) === dir) return undefined;
  }
}

/**
 * What the prompts start from and the file keeps of the config that `loaded` found above `cwd`, or `null` when it
 * found none there. Its config-layer values are read from the explain chains (resolved: paths are absolute), and a
 * path inside the config's folder is written relative to `cwd`, so that it names the same file from the new config.
 */
export function inheritedFrom(loaded: LoadConfigResult, cwd: string): Inherited | null {
  const { file, via } = loaded.discovery;
  if (file === null || via !== "discovery" || path.dirname(file) === path.resolve(cwd)) return null;
  const base = path.dirname(file);
  const set = <T>(key: string): T | undefined => loaded.explain?.[key]?.find((l) => l.layer === "config")?.value as T | undefined;
  const rebase = (value: string): string => rebasePath(value, base, cwd);
  const list = (key: string, paths = false): string[] | undefined => {
    const value = set<string[]>(key);
    return value && value.length > 0 ? (paths ? value.map(rebase) : value) : undefined;
  };
  const scalar = (key: string): string | undefined => {
    const value = set<string>(key);
    return value === undefined ? undefined : rebase(value);
  };
  const presets = set<string[]>("presets");
  const answers: Partial<InitAnswers> = {
    theme: scalar("theme"),
    // An empty list is a choice (no presets), kept as such.
    presets: presets?.map(rebase),
    exclude: list("modules.exclude"),
    only: list("modules.only"),
    onFailure: set("hooks.onFailure"),
    cacheEnabled: set("cache.enabled"),
    logFormat: set("log.format"),
  };
  const carried: Inherited["carried"] = {
    include: list("modules.include"),
    presetsSearchPath: list("presetsSearchPath", true),
    initScriptsDir: scalar("hooks.initScriptsDir"),
    postScriptsDir: scalar("hooks.postScriptsDir"),
    cacheFile: scalar("cache.file"),
  };
  return { file, answers: withoutUndefined(answers), carried: withoutUndefined(carried) };
}

/** The warning that the new file will shadow the inherited config, and what init does about it. */
export function shadowsInherited(inherited: Inherited, file: string): string {
  const name = path.basename(inherited.file) === "package.json" ? `${inherited.file} (dropkit key)` : inherited.file;
  return (
    `${name} is the config for this folder now; ${file} will shadow it here (discovery stops at the nearest config), so its later ` +
    `changes will not apply here. init starts from its values, relative paths rebased, so nothing changes today; keep the two in step.`
  );
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
  inherited: Inherited | null = null,
): Promise<Plan> {
  // Local presets are found through the search path the file will hold, and no presets is an empty list in it (an empty
  // --preset list means none given): values init makes, never problems of their own.
  const { presetsSearchPath } = presetKeys(answers.presets, survey, inherited);
  const named = answers.presets !== "auto" && answers.presets.length > 0;
  const value = { ...(presetsSearchPath ? { presetsSearchPath } : {}), ...(answers.presets !== "auto" && !named ? { presets: [] } : {}) };
  const source = Object.keys(value).length > 0 ? { source: path.join(cwd, initFileName), format: "value" as const, value } : null;
  // A theme copied from the config above is not checked against this folder, as `config` does not check it: a new
  // sub-package may have no archives yet.
  const theme = inherited !== null && answers.theme === inherited.answers.theme ? undefined : answers.theme;
  const flags = { theme, exclude: answers.exclude, ...(named ? { preset: answers.presets as string[] } : {}) };
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
      ? { name: e.name, code: e.code, exitCode: e.exitCode, path: e.path, source: `${file} (not written)`, message: e.message }
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
    code: e.code,
    message: e.message,
    path: e.path,
    source: e.source,
    ...(e.file !== undefined ? { file: e.file, line: e.line, column: e.column } : {}),
  }));
  throw new DropkitError(diagnostics);
}

// --- helpers ---

/** An absolute path inside `base` (the inherited config's folder) as a path relative to `cwd`; anything else as it is. */
function rebasePath(value: string, base: string, cwd: string): string {
  if (!path.isAbsolute(value)) return value;
  const inside = path.relative(base, value);
  return inside.startsWith("..") || path.isAbsolute(inside) ? value : relativeTo(cwd, value);
}

/** `./x` or `../x`, with `/` on every platform: what a config file holds. */
function relativeTo(cwd: string, file: string): string {
  const relative = path.relative(path.resolve(cwd), file).split(path.sep).join("/");
  if (relative === "") return ".";
  return relative === ".." || relative.startsWith("../") ? relative : `./${relative}`;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

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
