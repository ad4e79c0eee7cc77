// The seven questions of `dropkit init`, asked on the terminal with @clack/prompts (loaded only here, only for init).

import { styleText } from "node:util";
import type { Core } from "../core/host.js";
import type { ResolvedConfig } from "../core/protocol.js";
import type { InitAnswers, Survey } from "../config/starter.js";
import { escapeControls } from "../output/controls.js";

/** The terminal to ask on: prompts draw on stderr, so that stdout keeps only data a user asked for. */
export interface PromptIO {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream;
  /** Aborting it cancels the open question (SIGTERM or SIGHUP while a question waits; see `trapSignals`). */
  signal?: AbortSignal;
}

/** Where the questions start: the defaults (from flags, or the built-in ones) and what they depend on. */
export interface AskOptions {
  survey: Survey;
  defaults: Pick<InitAnswers, "theme" | "presets" | "exclude" | "only">;
  /** The last three questions' starting values set by a config inherited from above; the rest start from `baseline`. */
  startFrom: Partial<Pick<InitAnswers, "onFailure" | "cacheEnabled" | "logFormat">>;
  /** Where a default that the folder does not offer came from (a flag, or the inherited config), as its hint. */
  originOf: (question: "theme" | "presets" | "exclude" | "only", value: string) => string;
  /** What presets and defaults give for a presets answer; the last three questions start from it. */
  baseline: (presets: InitAnswers["presets"]) => Promise<ResolvedConfig>;
  /** What is wrong with a typed theme (its value, or a name the folder does not hold), or `undefined`. */
  checkTheme: (theme: string) => string | undefined;
  core: Core;
  io: PromptIO;
}

/** The value of the theme option that asks for a name or path by hand. */
const otherTheme = "\u0000other";

/** The value of the auto-detect option of the presets question. */
const autoPresets = "\u0000auto";

/**
 * Asks the seven questions of SPEC section 6 in order, each with the folder's choices, a default and a
 * short hint. Returns the answers, or `null` when the user cancelled (Ctrl-C or Escape) at any prompt,
 * after saying that nothing was written.
 */
export async function askAll(options: AskOptions): Promise<InitAnswers | null> {
  const p = await import("@clack/prompts");
  const { survey, defaults, core, startFrom, originOf } = options;
  const io = { input: options.io.input as NodeJS.ReadStream, output: options.io.output as NodeJS.WriteStream, signal: options.io.signal };
  const cancelled = (value: unknown): value is symbol => {
    if (!p.isCancel(value)) return false;
    p.cancel("Cancelled: nothing was written.", io);
    return true;
  };

  p.intro("dropkit init: 7 questions for dropkit.config.json", io);

  // 1. theme
  const themeOptions: Array<{ value: string; label: string; hint?: string }> = [
    { value: "auto", label: "auto", hint: autoThemeHint(survey) },
    ...survey.themes.map((t) => ({ value: t.name, label: t.name, hint: t.file })),
    { value: "none", label: "none", hint: "no theme" },
  ];
  if (!themeOptions.some((o) => o.value === defaults.theme))
    themeOptions.push({ value: defaults.theme, label: defaults.theme, hint: originOf("theme", defaults.theme) });
  themeOptions.push({ value: otherTheme, label: "other…", hint: "type a theme name or a path to a .zip" });
  let theme: string | symbol = await p.select({
    ...io,
    message: hinted("Theme", "which theme archive create uses"),
    options: visible(themeOptions),
    initialValue: defaults.theme,
  });
  if (cancelled(theme)) return null;
  if (theme === otherTheme) {
    theme = await p.text({
      ...io,
      message: hinted("Theme name or .zip path", "e.g. ocean, or ../themes/ocean-theme.zip"),
      validate: (value) => (value ? options.checkTheme(value) : "Type a theme name or a path ending in .zip."),
    });
    if (cancelled(theme)) return null;
  }

  // 2. presets
  const presetOptions = [
    { value: autoPresets, label: "auto-detect", hint: "default: every preset whose detect globs match this folder" },
    ...survey.bundledPresets.map((b) => ({ value: b.name, label: b.name, hint: `bundled: ${b.summary}` })),
    ...survey.localPresets.map((l) => ({ value: l.name, label: l.name, hint: l.file })),
  ];
  const presetDefaults = defaults.presets === "auto" ? [autoPresets] : defaults.presets;
  for (const name of presetDefaults) {
    if (!presetOptions.some((o) => o.value === name)) presetOptions.push({ value: name, label: name, hint: originOf("presets", name) });
  }
  const pickedPresets = await p.multiselect({
    ...io,
    message: hinted("Presets", "nothing picked = no presets; named presets replace auto-detect"),
    options: visible(presetOptions),
    initialValues: presetDefaults,
    required: false,
  });
  if (cancelled(pickedPresets)) return null;
  // In the order shown (bundled, then local, as auto-detect applies them), not the order they were picked in.
  const named = inOptionOrder(presetOptions, pickedPresets).filter((v) => v !== autoPresets);
  const presets: InitAnswers["presets"] = pickedPresets.includes(autoPresets) && named.length === 0 ? "auto" : named;
  if (pickedPresets.includes(autoPresets) && named.length > 0)
    p.log.info(`auto-detect left out: ${escapeControls(named.join(", "))} replace${named.length === 1 ? "s" : ""} it.`, io);
  const baseline = await options.baseline(presets);

  // 3. and 4. modules
  const fromPresets = baseline.modules.exclude.length > 0 ? `; presets already exclude ${baseline.modules.exclude.join(", ")}` : "";
  const exclude = await askModules(
    p,
    io,
    survey,
    core,
    "exclude",
    hinted("Modules to exclude", `nothing picked = keep every module${fromPresets}`),
    defaults.exclude,
    originOf,
  );
  if (cancelled(exclude)) return null;
  const only = await askModules(
    p,
    io,
    survey,
    core,
    "only",
    hinted("Only these modules", "nothing picked = every module is considered"),
    defaults.only,
    originOf,
  );
  if (cancelled(only)) return null;

  // 5. hooks.onFailure
  const onFailure = await p.select({
    ...io,
    message: hinted("When a hook script fails", "hooks.onFailure"),
    options: [
      { value: "continue" as const, label: "continue", hint: "a warning, and the run goes on" },
      { value: "fail" as const, label: "fail", hint: "the run stops with exit 1" },
    ],
    initialValue: startFrom.onFailure ?? baseline.hooks.onFailure,
  });
  if (cancelled(onFailure)) return null;

  // 6. cache.enabled
  const cacheEnabled = await p.confirm({
    ...io,
    message: hinted("Cache archive fingerprints?", "re-runs hash only changed archives"),
    initialValue: startFrom.cacheEnabled ?? baseline.cache.enabled,
  });
  if (cancelled(cacheEnabled)) return null;

  // 7. log.format
  const logFormat = await p.select({
    ...io,
    message: hinted("Decisions log format", "log.format, on stderr"),
    options: [
      { value: "text" as const, label: "text", hint: "aligned lines for people" },
      { value: "json" as const, label: "json", hint: "one JSON object per line, for CI" },
    ],
    initialValue: startFrom.logFormat ?? baseline.log.format,
  });
  if (cancelled(logFormat)) return null;

  p.outro("Answers checked; writing dropkit.config.json.", io);
  return { theme, presets, exclude, only, onFailure, cacheEnabled, logFormat };
}

// --- helpers ---

type Clack = typeof import("@clack/prompts");
type IO = { input: NodeJS.ReadStream; output: NodeJS.WriteStream; signal?: AbortSignal };

/**
 * A module-list question: a searchable multi-select over the folder's modules and their prefix globs,
 * or, in a folder with no modules yet, a line of comma-separated globs checked by the core.
 */
async function askModules(
  p: Clack,
  io: IO,
  survey: Survey,
  core: Core,
  key: "exclude" | "only",
  message: string,
  initial: string[],
  originOf: AskOptions["originOf"],
): Promise<string[] | symbol> {
  if (survey.modules.length === 0) {
    const typed = await p.text({
      ...io,
      message: `${message} ${styleText("dim", "(no modules here yet: comma-separated globs such as test-*)")}`,
      initialValue: initial.join(", "),
      validate: (value) => problemWith(core, { modules: { [key]: splitList(value ?? "") } }),
    });
    return p.isCancel(typed) ? typed : splitList(typed);
  }
  const options = [
    ...survey.modules.map((name) => ({ value: name, label: name, hint: `${name}.zip` })),
    ...survey.globs.map((g) => ({ value: g.glob, label: g.glob, hint: `matches ${g.matches.join(", ")}` })),
  ];
  for (const glob of initial) {
    if (!options.some((o) => o.value === glob)) options.push({ value: glob, label: glob, hint: originOf(key, glob) });
  }
  const picked = await p.autocompleteMultiselect({ ...io, message, options: visible(options), initialValues: initial, required: false });
  // The file lists modules in the order shown, whatever order they were picked in.
  return p.isCancel(picked) ? picked : inOptionOrder(options, picked);
}

/** The options as shown: labels and hints come from file names, which may hold control characters (see `escapeControls`). */
function visible<T extends { label: string; hint?: string }>(options: T[]): T[] {
  return options.map((o) => ({ ...o, label: escapeControls(o.label), ...(o.hint === undefined ? {} : { hint: escapeControls(o.hint) }) }));
}

function inOptionOrder<T>(options: Array<{ value: T }>, picked: T[]): T[] {
  return options.map((o) => o.value).filter((v) => picked.includes(v));
}

/** The message with a short dim hint after it. */
function hinted(message: string, hint: string): string {
  return `${message} ${styleText("dim", `· ${hint}`)}`;
}

/** What `auto` would pick in this folder, in words. */
function autoThemeHint(survey: Survey): string {
  const [first, ...rest] = survey.themes;
  if (!first) return "default: the only theme archive, or the first by name (none here yet)";
  return rest.length === 0 ? `default: picks ${first.file}` : `default: picks ${first.file}, the first of ${survey.themes.length} by name`;
}

/** The core's first complaint about a partial config, or `undefined` when it is valid. */
function problemWith(core: Core, partial: object): string | undefined {
  const checked = core.validateConfig(JSON.stringify(partial), { source: "answer" });
  return checked.ok ? undefined : checked.errors[0]!.message;
}

function splitList(value: string): string[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}
