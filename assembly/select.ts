// Theme choice and module selection over the archive names of a drop (SPEC section 6).

import { Diagnostic, THEME_NOT_FOUND } from "./diagnostic";
import { findModuleMatch } from "./glob";
import { Entry } from "./merge";
import { isZipPath } from "./schema";
import { basenameOf, dirnameOf, normalizePath } from "./paths";
import { didYouMean } from "./suggest";
import { endsWithIgnoreCase, format, intText, sortedOrder } from "./text";

export class ModuleDecision {
  name: string = "";
  file: string = "";
  selected: bool = false;
  /** Why, for the decisions log: e.g. `excluded by modules.exclude "test-*" (preset standard)`. */
  reason: string = "";
  glob: string = "";
  layer: string = "";
  source: string = "";
}

export class Plan {
  /** The chosen theme archive's file name in the drop, or "" (none, or a path outside the drop). */
  themeFile: string = "";
  /** The absolute path of a theme given as a path, for the host to check. */
  themePath: string = "";
  themeReason: string = "";
  themeAlternatives: Array<string> = new Array<string>();
  modules: Array<ModuleDecision> = new Array<ModuleDecision>();
  errors: Array<Diagnostic> = new Array<Diagnostic>();
}

/** Whether an archive is a theme archive: its name ends in "-theme.zip". */
export function isThemeArchive(file: string): bool {
  return endsWithIgnoreCase(file, "-theme.zip");
}

/** A module's name: its file name without ".zip". */
export function moduleName(file: string): string {
  return file.slice(0, file.length - 4);
}

/** Chooses the theme and the modules. `theme` is resolved (a zip path is absolute). */
export function selectPlan(
  archives: Array<string>, theme: string, themeSource: string, cwd: string,
  only: Array<Entry>, exclude: Array<Entry>, include: Array<Entry>, flagExclude: Array<Entry>,
): Plan {
  const plan = new Plan();
  const order = sortedOrder(archives);
  const files = new Array<string>();
  for (let i = 0; i < order.length; i++) files.push(archives[order[i]]);
  const themes = new Array<string>();
  for (let i = 0; i < files.length; i++) if (isThemeArchive(files[i])) themes.push(files[i]);
  chooseTheme(plan, files, themes, theme, themeSource, cwd);
  for (let i = 0; i < files.length; i++) {
    const file = files[i];
    if (isThemeArchive(file) || file == plan.themeFile || !endsWithIgnoreCase(file, ".zip")) continue;
    plan.modules.push(decideModule(file, only, exclude, include, flagExclude));
  }
  return plan;
}

function chooseTheme(plan: Plan, files: Array<string>, themes: Array<string>, theme: string, source: string, cwd: string): void {
  if (theme == "none") {
    plan.themeReason = "theme is \"none\"";
    return;
  }
  if (theme == "auto") {
    if (themes.length == 0) {
      plan.themeReason = "no theme archive (*-theme.zip) in the drop";
      return;
    }
    plan.themeFile = themes[0];
    if (themes.length == 1) {
      plan.themeReason = "the only theme archive";
    } else {
      plan.themeReason = "first of " + intText(themes.length) + " theme archives by name; set theme to choose another";
      for (let i = 1; i < themes.length; i++) plan.themeAlternatives.push(themes[i]);
    }
    return;
  }
  if (isZipPath(theme)) {
    plan.themePath = theme;
    plan.themeReason = "theme path " + theme;
    if (normalizePath(dirnameOf(theme)) == normalizePath(cwd)) {
      const base = basenameOf(theme);
      if (files.includes(base)) plan.themeFile = base;
    }
    return;
  }
  const plain = theme + ".zip";
  const suffixed = theme + "-theme.zip";
  if (files.includes(plain)) {
    plan.themeFile = plain;
  } else if (files.includes(suffixed)) {
    plan.themeFile = suffixed;
  } else {
    const names = new Array<string>();
    for (let i = 0; i < themes.length; i++) names.push(themes[i].slice(0, themes[i].length - 10));
    const available = themes.length > 0 ? " Theme archives in the drop: " + themes.join(", ") + "." : " The drop has no theme archive (*-theme.zip).";
    plan.errors.push(Diagnostic.from(THEME_NOT_FOUND, "theme",
      format("Theme \"%\" not found: no % or % in %.", theme, plain, suffixed, cwd) + didYouMean(theme, names) + available,
      source));
    return;
  }
  plan.themeReason = "theme \"" + theme + "\"";
}

function decideModule(file: string, only: Array<Entry>, exclude: Array<Entry>, include: Array<Entry>, flagExclude: Array<Entry>): ModuleDecision {
  const d = new ModuleDecision();
  d.file = file;
  d.name = moduleName(file);
  d.selected = true;
  d.reason = "included: every module is, by default";
  if (only.length > 0) {
    const match = findModuleMatch(only, d.name);
    if (match == null) set(d, false, "excluded: not matched by modules.only", "", null);
    else set(d, true, "included: matched by modules.only", "", match);
  }
  if (d.selected) {
    const match = findModuleMatch(exclude, d.name);
    if (match != null) set(d, false, "excluded: matched by modules.exclude", "", match);
  }
  const back = findModuleMatch(include, d.name);
  if (!d.selected && back != null) set(d, true, "included: added back by modules.include", "", back);
  const flag = findModuleMatch(flagExclude, d.name);
  if (flag != null) set(d, false, "excluded: matched by --exclude", "; a --exclude flag wins over everything", flag);
  return d;
}

function set(d: ModuleDecision, selected: bool, reason: string, note: string, match: Entry | null): void {
  d.selected = selected;
  d.reason = reason;
  if (match != null) {
    d.glob = match.value;
    d.layer = match.layer;
    d.source = match.source;
    d.reason = format("% \"%\" (%, %)", reason, d.glob, d.layer, d.source) + note;
  } else {
    d.glob = "";
    d.layer = "";
    d.source = "";
  }
}
