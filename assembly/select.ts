// Theme choice and module selection over the archive names of a drop (SPEC section 6).
//
// A decision keeps why (a ModuleReason and the entry that matched) rather than a sentence: the answer writes the
// sentence straight into its bytes (answer.ts).

import { CASE_BIT, LOWER_A, STAR } from "./chars";
import { Diagnostic, THEME_NOT_FOUND } from "./diagnostic";
import { Items } from "./items";
import { isZipPath } from "./schema";
import { LayerKind } from "./precedence";
import { Source } from "./source";
import { basenameOf, dirnameOf, normalizePath } from "./paths";
import { Span, byteOf, endsWithAscii, sameSpan, sortedOrder, spanIs, spanLen, spanText, startsWithUnits, subSpan } from "./span";
import { didYouMean } from "./suggest";
import { format } from "./text";

/** Why a module archive is selected or left out (SPEC section 6). */
export enum ModuleReason {
  Default = 0,
  NotOnly = 1,
  Only = 2,
  Exclude = 3,
  Include = 4,
  Flag = 5,
}

export class ModuleDecision {
  file: Span;
  /** The file name without ".zip". */
  name: Span;
  selected: bool = true;
  reason: ModuleReason = ModuleReason.Default;
  /** The entry that decided, when one did: its glob, layer (a LayerKind) and source. */
  glob: Span = 0;
  layer: LayerKind = -1;
  source: Source | null = null;

  constructor(file: Span) {
    this.file = file;
    this.name = subSpan(file, 0, spanLen(file) - 4);
  }
}

/** Why the theme is the one chosen (or none), as the answer words it. */
export enum ThemeReason {
  None = 0,
  NoArchive = 1,
  Only = 2,
  First = 3,
  Path = 4,
  Named = 5,
  /** A theme name that no archive has: a ThemeNotFound, and no reason. */
  Missing = 6,
}

export class Plan {
  /** The chosen theme archive's file name in the drop, or an empty span (none, or a path outside the drop). */
  themeFile: Span = 0;
  /** The absolute path of a theme given as a path, for the host to check. */
  themePath: Span = 0;
  /** Why (a ThemeReason of the theme `theme`), as the answer words it. */
  themeReason: ThemeReason = ThemeReason.None;
  theme: Span = 0;
  /** The theme as the state file keeps it: the chosen archive's theme name (themeNameOf), a path outside the drop, or empty. */
  themeName: Span = 0;
  themeAlternatives: Array<Span> = new Array<Span>();
  modules: Array<ModuleDecision> = new Array<ModuleDecision>();
  errors: Array<Diagnostic> = new Array<Diagnostic>();
}

/** The end of a theme archive's name. */
const THEME_SUFFIX = "-theme.zip";

/**
 * Whether an archive is a theme archive: its name ends in "-theme.zip", in any letter case, after a theme name that
 * is not empty (an archive named just "-theme.zip" is a module, "-theme").
 */
export function isThemeArchive(file: Span): bool {
  return spanLen(file) > THEME_SUFFIX.length && endsWithAscii(file, THEME_SUFFIX, true);
}

/** The name an archive gives its theme: without "-theme.zip" for a theme archive, else without ".zip". */
function themeNameOf(file: Span): Span {
  return subSpan(file, 0, spanLen(file) - (isThemeArchive(file) ? THEME_SUFFIX.length : 4));
}

/** Chooses the theme and the modules. `theme` is resolved (a zip path is absolute). */
export function selectPlan(
  archives: Array<Span>, theme: Span, themeSource: Source, cwd: Span,
  only: Items, exclude: Items, include: Items, flagExclude: Items,
): Plan {
  const plan = new Plan();
  const order = sortedOrder(archives);
  const files = new Array<Span>();
  for (let i = 0; i < order.length; i++) files.push(unchecked(archives[unchecked(order[i])]));
  const themes = new Array<Span>();
  const modules = new Array<Span>();
  for (let i = 0; i < files.length; i++) {
    const file = unchecked(files[i]);
    if (isThemeArchive(file)) themes.push(file);
    else if (endsWithAscii(file, ".zip", true)) modules.push(file);
  }
  chooseTheme(plan, files, themes, theme, themeSource, cwd);
  plan.themeName = spanLen(plan.themeFile) > 0 ? themeNameOf(plan.themeFile) : plan.themePath;
  const lists = new SelectionLists(only, exclude, include, flagExclude);
  for (let i = 0; i < modules.length; i++) {
    const file = unchecked(modules[i]);
    if (!sameSpan(file, plan.themeFile)) plan.modules.push(decideModule(file, lists));
  }
  return plan;
}

function chooseTheme(plan: Plan, files: Array<Span>, themes: Array<Span>, theme: Span, source: Source, cwd: Span): void {
  plan.theme = theme;
  if (spanIs(theme, "none")) {
    plan.themeReason = ThemeReason.None;
    return;
  }
  if (spanIs(theme, "auto")) {
    if (themes.length == 0) {
      plan.themeReason = ThemeReason.NoArchive;
      return;
    }
    plan.themeFile = themes[0];
    plan.themeReason = themes.length == 1 ? ThemeReason.Only : ThemeReason.First;
    for (let i = 1; i < themes.length; i++) plan.themeAlternatives.push(themes[i]);
    return;
  }
  if (isZipPath(theme)) {
    plan.themePath = theme;
    plan.themeReason = ThemeReason.Path;
    if (sameSpan(normalizePath(dirnameOf(theme)), normalizePath(cwd))) {
      const base = basenameOf(theme);
      if (indexOf(files, base, "", false) >= 0) plan.themeFile = base;
    }
    return;
  }
  // A name picks <name>.zip or <name>-theme.zip, compared as archives are found: in any letter case. Letter case
  // only decides between archives whose names differ in nothing else.
  let at = indexOf(files, theme, ".zip", false);
  if (at < 0) at = indexOf(files, theme, THEME_SUFFIX, false);
  if (at < 0) at = indexOf(files, theme, ".zip", true);
  if (at < 0) at = indexOf(files, theme, THEME_SUFFIX, true);
  if (at >= 0) {
    plan.themeFile = files[at];
    plan.themeReason = ThemeReason.Named;
    return;
  }
  plan.themeReason = ThemeReason.Missing;
  const name = spanText(theme);
  const names = new Array<string>();
  const shown = new Array<string>();
  for (let i = 0; i < themes.length; i++) {
    shown.push(spanText(themes[i]));
    names.push(spanText(subSpan(themes[i], 0, spanLen(themes[i]) - 10)));
  }
  const available = themes.length > 0 ? " Theme archives in the drop: " + shown.join(", ") + "." : " The drop has no theme archive (*-theme.zip).";
  plan.errors.push(Diagnostic.from(THEME_NOT_FOUND, "theme",
    format("Theme \"%\" not found: no % or % in %.", name, name + ".zip", name + "-theme.zip", spanText(cwd)) + didYouMean(name, names) + available,
    source.text()));
}

/** The index of the first file named `stem` + `suffix` (the suffix in any letter case; the stem too with `anyCase`), or -1. */
function indexOf(files: Array<Span>, stem: Span, suffix: string, anyCase: bool): i32 {
  const n = spanLen(stem);
  for (let i = 0; i < files.length; i++) {
    const file = unchecked(files[i]);
    if (spanLen(file) != n + suffix.length || !endsWithAscii(file, suffix, true)) continue;
    const head = subSpan(file, 0, n);
    if (anyCase ? sameIgnoringCase(head, stem) : sameSpan(head, stem)) return i;
  }
  return -1;
}

/** Whether two spans are the same bytes once ASCII letters are folded to lower case. */
function sameIgnoringCase(a: Span, b: Span): bool {
  const n = spanLen(a);
  if (spanLen(b) != n) return false;
  for (let i = 0; i < n; i++) {
    const x = byteOf(a, i);
    const y = byteOf(b, i);
    if (x != y && ((x | CASE_BIT) != (y | CASE_BIT) || (x | CASE_BIT) - LOWER_A >= 26)) return false;
  }
  return true;
}

/**
 * A list of module globs ready to match many names. A name's exact glob is found by the list's own hash index
 * (Items.indexOf), so only the globs ending in '*' are tried one by one: a drop of thousands of modules against a
 * list of thousands of names costs their sum, not their product. The first matching entry in the list's order is
 * the one reported, as when every glob was tried in turn.
 */
class ModuleGlobs {
  readonly entries: Items;
  /** The indexes of the globs ending in '*', in order; null for a list without a hash index (a short one), tried in turn. */
  private stars: Array<i32> | null = null;

  constructor(entries: Items) {
    this.entries = entries;
    if (entries.indexed) this.stars = starGlobs(entries);
  }

  /** The index of the first entry whose glob matches the name, or -1. */
  first(name: Span): i32 {
    const entries = this.entries;
    const stars = this.stars;
    if (stars == null) {
      for (let i = 0, n = entries.length; i < n; i++) if (matchModule(entries.value(i), name)) return i;
      return -1;
    }
    const exact = entries.indexOf(name);
    for (let k = 0, n = stars.length; k < n; k++) {
      const i = unchecked(stars[k]);
      if (exact >= 0 && i > exact) break;
      if (matchModule(entries.value(i), name)) return i;
    }
    return exact;
  }
}

/** The indexes of the entries whose glob ends in '*', in order. */
function starGlobs(entries: Items): Array<i32> {
  const stars = new Array<i32>();
  for (let i = 0, n = entries.length; i < n; i++) {
    const glob = entries.value(i);
    const len = spanLen(glob);
    if (len > 0 && byteOf(glob, len - 1) == STAR) stars.push(i);
  }
  return stars;
}

/** The four lists of module globs that selection reads, each made ready once per plan. */
class SelectionLists {
  only: ModuleGlobs;
  exclude: ModuleGlobs;
  include: ModuleGlobs;
  flagExclude: ModuleGlobs;

  constructor(only: Items, exclude: Items, include: Items, flagExclude: Items) {
    this.only = new ModuleGlobs(only);
    this.exclude = new ModuleGlobs(exclude);
    this.include = new ModuleGlobs(include);
    this.flagExclude = new ModuleGlobs(flagExclude);
  }
}

function decideModule(file: Span, lists: SelectionLists): ModuleDecision {
  const d = new ModuleDecision(file);
  if (lists.only.entries.length > 0) {
    const match = lists.only.first(d.name);
    if (match < 0) set(d, false, ModuleReason.NotOnly, lists.only.entries, -1);
    else set(d, true, ModuleReason.Only, lists.only.entries, match);
  }
  if (d.selected) {
    const match = lists.exclude.first(d.name);
    if (match >= 0) set(d, false, ModuleReason.Exclude, lists.exclude.entries, match);
  }
  // modules.include only adds back what was left out: a selected module is not matched against it.
  if (!d.selected) {
    const back = lists.include.first(d.name);
    if (back >= 0) set(d, true, ModuleReason.Include, lists.include.entries, back);
  }
  const flag = lists.flagExclude.first(d.name);
  if (flag >= 0) set(d, false, ModuleReason.Flag, lists.flagExclude.entries, flag);
  return d;
}

function set(d: ModuleDecision, selected: bool, reason: ModuleReason, entries: Items, match: i32): void {
  d.selected = selected;
  d.reason = reason;
  if (match >= 0) {
    d.glob = entries.value(match);
    d.layer = entries.layerOf(match);
    d.source = entries.source(match);
  } else {
    d.glob = 0;
    d.layer = -1;
    d.source = null;
  }
}

/** Whether a module name matches a module glob: exact, or by prefix when the glob ends in '*'. */
export function matchModule(glob: Span, name: Span): bool {
  const stem = spanLen(glob) - 1;
  // Most globs differ from most names at their first byte (when it is ASCII, that settles it).
  const first = stem > 0 ? byteOf(glob, 0) : 0x80;
  if (first < 0x80 && (spanLen(name) == 0 || byteOf(name, 0) != first)) return false;
  if (stem >= 0 && byteOf(glob, stem) == STAR) return startsWithUnits(name, subSpan(glob, 0, stem));
  return sameSpan(glob, name);
}

