// Theme choice and module selection over the archive names of a drop (SPEC section 6).
//
// A decision keeps why (a ModuleReason and the entry that matched) rather than a sentence: the answer writes the
// sentence straight into its bytes (response.ts).

import { STAR } from "../json/chars";
import { Code, Diagnostic, MAX_LISTED_PROBLEMS, THEME_NOT_FOUND, Warning, warning } from "../schema/diagnostic";
import { Items } from "./listitems";
import { Layer } from "./layer";
import { Merged } from "./merge";
import { NameIndex, foldSpan, sameIgnoringCase } from "./casefold";
import { LEAVES, LeafId, isZipPath } from "../schema/schema";
import { LayerKind } from "./precedence";
import { Source } from "../schema/valuesource";
import { basenameOf, dirnameOf, normalizePath } from "./paths";
import {
  Span, byteOf, compareSpans, endsWithAscii, sameSpan, sortedOrder, spanIs, spanLen, spanPtr, spanText, startsWithUnits, subSpan,
} from "../json/span";
import { Closest, quoted, suggest } from "../schema/suggest";
import { format, intText } from "../json/strings";

/** Why a module archive is selected or left out (SPEC section 6). */
export enum ModuleReason {
  Default = 0,
  NotOnly = 1,
  Only = 2,
  Exclude = 3,
  Include = 4,
  Flag = 5,
  /** Left out: an earlier archive by name has the same module name but for letter case, and is the module. */
  Twin = 6,
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
  /** For a Twin: the file of the archive that is the module of this name, and its decision's index. */
  twin: Span = 0;
  twinOf: i32 = -1;

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
  /** The alternatives that are module archives of the theme's name (`<name>.zip` beside `<name>-theme.zip`): they stay modules. */
  themeModules: Array<Span> = new Array<Span>();
  modules: Array<ModuleDecision> = new Array<ModuleDecision>();
  errors: Array<Diagnostic> = new Array<Diagnostic>();
  warnings: Array<Warning> = new Array<Warning>();
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
// @noinline for size: the theme's choice calls it in several places.
@noinline function themeNameOf(file: Span): Span {
  return subSpan(file, 0, spanLen(file) - (isThemeArchive(file) ? THEME_SUFFIX.length : 4));
}

/**
 * Chooses the theme and the modules from the merge (`flagExclude`: the --exclude flag's globs, which win over
 * everything). Names and globs compare without regard to ASCII letter case; each file keeps its own spelling.
 */
export function selectPlan(archives: Array<Span>, merged: Merged, flagExclude: Items, cwd: Span): Plan {
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
  chooseTheme(plan, files, themes, merged.value(LeafId.Theme), merged.source(LeafId.Theme), cwd);
  plan.themeName = spanLen(plan.themeFile) > 0 ? themeNameOf(plan.themeFile) : plan.themePath;

  const lists = new SelectionLists(merged.entriesOf(LeafId.Only), merged.entriesOf(LeafId.Exclude), merged.entriesOf(LeafId.Include), flagExclude);
  // Every module archive's name folded, in file order: what the user's globs are checked against (below).
  const folded = new Array<Span>(modules.length);
  // A module name is one name in any letter case: the first archive by name is the module, the others its twins.
  const index = new NameIndex(modules.length);
  const twins = new Array<i32>();
  let considered = 0;
  for (let i = 0; i < modules.length; i++) {
    const file = unchecked(modules[i]);
    const name = foldSpan(subSpan(file, 0, spanLen(file) - 4));
    unchecked(folded[i] = name);
    if (sameSpan(file, plan.themeFile)) continue;
    const d = new ModuleDecision(file);
    const first = index.add(name, plan.modules.length);
    if (first < plan.modules.length) {
      d.selected = false;
      d.reason = ModuleReason.Twin;
      d.twin = plan.modules[first].file;
      d.twinOf = first;
      twins.push(plan.modules.length);
    } else {
      decideModule(d, name, lists);
      considered++;
    }
    plan.modules.push(d);
  }
  reportTwins(plan, twins);
  checkGlobs(plan, modules, folded, merged.layers);
  const only = lists.only.entries;
  if (only.length > 0 && considered > 0 && lists.onlyMatched == 0) {
    const source = merged.source(LeafId.Only).text();
    const w = warning(format(
      "modules.only (%) matches none of the % module archives: it selects no module.",
      source, intText(considered),
    ), source, Code.OnlySelectsNone);
    w.key = "modules.only";
    plan.warnings.push(w);
  }
  return plan;
}

function chooseTheme(plan: Plan, files: Array<Span>, themes: Array<Span>, theme: Span, source: Source, cwd: Span): void {
  plan.theme = theme;
  if (spanIs(theme, "none")) {
    plan.themeReason = ThemeReason.None;
    return;
  }
  if (isZipPath(theme)) {
    plan.themePath = theme;
    plan.themeReason = ThemeReason.Path;
    if (sameSpan(normalizePath(dirnameOf(theme)), normalizePath(cwd))) {
      const base = basenameOf(theme);
      for (let i = 0; i < files.length; i++) if (sameSpan(files[i], base)) plan.themeFile = base;
    }
    return;
  }
  const auto = spanIs(theme, "auto");
  if (auto && themes.length == 0) {
    plan.themeReason = ThemeReason.NoArchive;
    return;
  }
  // `auto` takes the first theme archive by name, and the others are its alternatives. A name picks <name>-theme.zip,
  // else <name>.zip (SPEC section 6, turn 4: the theme archive first, so that a module of the same name stays a module),
  // in any letter case. Either way the archives of the chosen name but for letter case are reported, the one spelt as
  // the name is (else the first by name) taken.
  const name = auto ? themeNameOf(themes[0]) : theme;
  const named = new Array<Span>();
  const plain = new Array<Span>();
  const n = spanLen(name);
  for (let i = 0; i < files.length; i++) {
    const file = unchecked(files[i]);
    if (isThemeArchive(file) && sameIgnoringCase(themeNameOf(file), name)) named.push(file);
    else if (!auto && spanLen(file) == n + 4 && endsWithAscii(file, ".zip", true) && sameIgnoringCase(subSpan(file, 0, n), name)) plain.push(file);
  }
  const matches = named.length > 0 ? named : plain;
  if (matches.length == 0) {
    missingTheme(plan, themes, theme, source, cwd);
    return;
  }
  let pick = matches[0];
  for (let i = matches.length - 1; i >= 0; i--) if (sameSpan(subSpan(matches[i], 0, n), name)) pick = matches[i];
  if (auto) pick = themes[0];
  plan.themeFile = pick;
  plan.themeReason = !auto ? ThemeReason.Named : themes.length == 1 ? ThemeReason.Only : ThemeReason.First;
  const others = auto ? themes : matches;
  for (let i = 0; i < others.length; i++) if (!sameSpan(others[i], pick)) plan.themeAlternatives.push(others[i]);
  if (matches.length > 1) plan.warnings.push(clash(matches, pick, named.length > 0 ? "theme" : "module"));
  // The module archives of that name stay modules: the plan names them as the alternative not taken.
  if (named.length > 0) {
    for (let i = 0; i < plain.length; i++) {
      plan.themeAlternatives.push(plain[i]);
      plan.themeModules.push(plain[i]);
    }
  }
}

/** A theme name that no archive has: ThemeNotFound, with the theme archives of the drop and the closest one. */
function missingTheme(plan: Plan, themes: Array<Span>, theme: Span, source: Source, cwd: Span): void {
  plan.themeReason = ThemeReason.Missing;
  const name = spanText(theme);
  const names = new Array<string>();
  const shown = new Array<string>();
  for (let i = 0; i < themes.length; i++) {
    shown.push(spanText(themes[i]));
    names.push(spanText(themeNameOf(themes[i])));
  }
  const available = themes.length > 0 ? " Theme archives in the drop: " + shown.join(", ") + "." : " The drop has no theme archive (*-theme.zip).";
  const suggestion = suggest(name, names);
  const d = Diagnostic.from(THEME_NOT_FOUND, Code.ThemeNotFound, "theme",
    format("Theme \"%\" not found: no % or % in %.", name, name + ".zip", name + "-theme.zip", spanText(cwd)) + quoted(suggestion) + available,
    source.text());
  d.suggestion = suggestion;
  d.found = name;
  plan.errors.push(d);
}

/** The warning for archives of one kind whose names differ only in letter case (`files`, in order), of which the plan uses `used`. */
// @noinline for size: the theme's choice and the modules' twins share one copy.
@noinline function clash(files: Array<Span>, used: Span, kind: string): Warning {
  const names = new Array<string>(files.length);
  for (let i = 0; i < files.length; i++) names[i] = spanText(files[i]);
  const usedText = spanText(used);
  const w = warning(format("% have the same % name but for letter case: the plan uses %.", names.join(", "), kind, usedText),
    usedText, Code.NameClash);
  w.files = names;
  w.used = usedText;
  return w;
}

/** One warning per module name that several archives have (up to MAX_LISTED_PROBLEMS; the rest are counted). */
function reportTwins(plan: Plan, twins: Array<i32>): void {
  if (twins.length == 0) return;
  const modules = plan.modules;
  // Each name's archives as a chain from its first one (indexes + 1, 0 ending it): no map, and groups in file order.
  const next = new StaticArray<i32>(modules.length);
  const last = new StaticArray<i32>(modules.length);
  const firsts = new Array<i32>();
  for (let i = 0; i < twins.length; i++) {
    const t = unchecked(twins[i]);
    const f = unchecked(modules[t]).twinOf;
    if (unchecked(last[f]) == 0) firsts.push(f);
    const end = unchecked(last[f]) == 0 ? f : unchecked(last[f]) - 1;
    unchecked(next[end] = t + 1);
    unchecked(last[f] = t + 1);
  }
  const listed = min<i32>(firsts.length, MAX_LISTED_PROBLEMS);
  for (let i = 0; i < listed; i++) {
    const group = new Array<Span>();
    for (let k = unchecked(firsts[i]) + 1; k != 0; k = unchecked(next[k - 1])) group.push(unchecked(modules[k - 1]).file);
    plan.warnings.push(clash(group, group[0], "module"));
  }
  if (firsts.length > listed) {
    plan.warnings.push(warning(format(
      "% more module names are each the name of several archives but for letter case (not listed one by one).",
      intText(firsts.length - listed),
    ), "modules", Code.NameClash));
  }
}

/** At most this many unmatched globs get a did-you-mean: each costs a pass over the drop's module names. */
const MAX_SUGGESTED_GLOBS = 20;

/**
 * Warns about every module glob the user wrote (flags, environment, config, a preset file; a bundled preset's own
 * stay quiet) that matches none of the module archives' names (`folded`, of `modules`), with the closest name where
 * one is close. Each glob is looked up in the names sorted once, by binary search: the cost is (globs + names) times
 * log(names), never globs times names.
 */
function checkGlobs(plan: Plan, modules: Array<Span>, folded: Array<Span>, layers: Array<Layer>): void {
  const order = sortedOrder(folded);
  const sorted = new Array<Span>(order.length);
  for (let i = 0; i < order.length; i++) unchecked(sorted[i] = folded[unchecked(order[i])]);
  let listed = 0;
  let unlisted = 0;
  let names: Array<string> | null = null;
  // The lowest layer first, as a config is read: preset files, config, environment, flags.
  for (let l = layers.length - 1; l >= 0; l--) {
    const layer = unchecked(layers[l]);
    if (layer.kind == LayerKind.Default || layer.bundled) continue;
    for (let leaf = <i32>LeafId.Include; leaf <= <i32>LeafId.Only; leaf++) {
      if (!layer.has(leaf)) continue;
      const list = layer.list(leaf);
      for (let i = 0, n = list.length; i < n; i++) {
        const glob = list.value(i);
        if (matchesAny(sorted, foldSpan(glob))) continue;
        if (listed >= MAX_LISTED_PROBLEMS) {
          unlisted++;
          continue;
        }
        // The module names as strings for the did-you-mean, made once, and only when a glob needs one.
        if (names == null && listed < MAX_SUGGESTED_GLOBS) {
          names = new Array<string>(modules.length);
          for (let m = 0; m < modules.length; m++) unchecked(names![m] = spanText(subSpan(modules[m], 0, spanLen(modules[m]) - 4)));
        }
        plan.warnings.push(unmatched(glob, LEAVES[leaf].key, layer.kind, list.source(i), names!, listed++ < MAX_SUGGESTED_GLOBS));
      }
    }
  }
  if (unlisted > 0) {
    plan.warnings.push(warning(format("% more module globs match no module archive (not listed one by one).", intText(unlisted)),
      "modules", Code.GlobUnmatched));
  }
}

/** The warning for a glob that matches no module: `Module glob "blgo" (modules.only, /d/dropkit.config.json:3:12) ...`. */
function unmatched(glob: Span, key: string, layer: LayerKind, source: Source, names: Array<string>, suggest: bool): Warning {
  const text = spanText(glob);
  const where = source.text();
  let suggestion = "";
  if (suggest) {
    const star = text.endsWith("*");
    const stem = star ? text.slice(0, text.length - 1) : text;
    if (stem.length > 0) {
      const closest = new Closest(stem);
      // A glob ending in '*' is compared with the names' beginnings of its stem's length: "shpo-*" finds "shop-*".
      for (let i = 0; i < names.length; i++) closest.offer(unchecked(names[i]), star ? stem.length : -1);
      suggestion = closest.result();
      if (star && suggestion.length > 0) suggestion += "*";
    }
  }
  const origin = layer == LayerKind.Cli ? where : key + ", " + where;
  const w = warning(format("Module glob \"%\" (%) matches no module archive in the drop.%", text, origin, quoted(suggestion)), where,
    Code.GlobUnmatched);
  w.key = key;
  w.glob = text;
  w.suggestion = suggestion;
  return w;
}

/** Whether a folded glob matches one of the folded names in `sorted` (code-unit order): one binary search. */
function matchesAny(sorted: Array<Span>, glob: Span): bool {
  const n = spanLen(glob);
  const star = n > 0 && byteOf(glob, n - 1) == STAR;
  const key = star ? subSpan(glob, 0, n - 1) : glob;
  // The first name not before the key: the names that start with it (or are it) begin there, in code-unit order.
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareSpans(unchecked(sorted[mid]), key) < 0) lo = mid + 1;
    else hi = mid;
  }
  if (lo < sorted.length && (star ? startsWithUnits(unchecked(sorted[lo]), key) : sameSpan(unchecked(sorted[lo]), key))) return true;
  // A stem that ends in a lone high surrogate is a prefix of names where it is half of a pair, which sort elsewhere.
  if (!star || !endsInHighSurrogate(key)) return false;
  for (let i = 0; i < sorted.length; i++) if (startsWithUnits(unchecked(sorted[i]), key)) return true;
  return false;
}

/** Up to this many globs a list tries each in turn; past it, globs are found through NameIndexes. */
const LINEAR_GLOBS = 16;

/** FNV-1a's start and step, as `hashBytes` (json/span.ts) computes them, here extended byte by byte over a name's prefixes. */
const FNV_OFFSET: u32 = 0x811c9dc5;
const FNV_PRIME: u32 = 0x01000193;

/**
 * A list of module globs ready to match many (folded) names, each glob folded once. Past LINEAR_GLOBS entries a name
 * finds its exact glob in one NameIndex, and the globs ending in '*' in another, keyed by stem, by looking up each of its
 * prefixes (their hashes extended byte by byte): a name costs its length, so a drop of thousands of modules against a list
 * of thousands of globs costs their sum, not their product. The first matching entry in the list's order is the one
 * reported, as when every glob was tried in turn.
 */
class ModuleGlobs {
  readonly entries: Items;
  private folded: Array<Span>;
  /** Exact globs, and stems of globs ending in '*', to their first index; null for a short list, tried in turn. */
  private exact: NameIndex | null = null;
  private stems: NameIndex | null = null;
  /**
   * The globs whose stem ends in a lone high surrogate, tried in turn: such a stem is a prefix (as strings are
   * compared) of a name holding that surrogate in a pair, whose bytes are not the stem's (json/span.ts, startsWithUnits).
   */
  private halves: Array<i32> = new Array<i32>();

  constructor(entries: Items) {
    this.entries = entries;
    const n = entries.length;
    const folded = new Array<Span>(n);
    for (let i = 0; i < n; i++) unchecked(folded[i] = foldSpan(entries.value(i)));
    this.folded = folded;
    if (n > LINEAR_GLOBS) {
      const exact = new NameIndex(n);
      const stems = new NameIndex(n);
      for (let i = 0; i < n; i++) {
        const glob = unchecked(folded[i]);
        const len = spanLen(glob);
        if (len == 0 || byteOf(glob, len - 1) != STAR) exact.add(glob, i);
        else if (endsInHighSurrogate(subSpan(glob, 0, len - 1))) this.halves.push(i);
        else stems.add(subSpan(glob, 0, len - 1), i);
      }
      this.exact = exact;
      this.stems = stems;
    }
  }

  /** The index of the first entry whose glob matches the folded name, or -1. */
  first(name: Span): i32 {
    const folded = this.folded;
    const exact = this.exact;
    if (exact == null) {
      for (let i = 0, n = folded.length; i < n; i++) if (matchModule(unchecked(folded[i]), name)) return i;
      return -1;
    }
    let best = exact.find(name);
    const stems = this.stems!;
    const p = spanPtr(name);
    let hash = FNV_OFFSET;
    for (let k = 0, n = spanLen(name); k <= n; k++) {
      if (k > 0) hash = (hash ^ <u32>load<u8>(p + <usize>(k - 1))) * FNV_PRIME;
      const i = stems.findHashed(subSpan(name, 0, k), hash);
      if (i >= 0 && (best < 0 || i < best)) best = i;
    }
    const halves = this.halves;
    for (let k = 0, n = halves.length; k < n; k++) {
      const i = unchecked(halves[k]);
      if (best >= 0 && i > best) break;
      if (matchModule(unchecked(folded[i]), name)) return i;
    }
    return best;
  }
}

/** Whether `s` ends in a lone high surrogate (its three-byte WTF-8 form, ED A0..AF xx). */
function endsInHighSurrogate(s: Span): bool {
  const k = spanLen(s);
  return k >= 3 && byteOf(s, k - 3) == 0xed && (byteOf(s, k - 2) & 0xf0) == 0xa0;
}

/** The four lists of module globs that selection reads, each made ready once per plan. */
class SelectionLists {
  only: ModuleGlobs;
  exclude: ModuleGlobs;
  include: ModuleGlobs;
  flagExclude: ModuleGlobs;
  /** How many modules modules.only matched. */
  onlyMatched: i32 = 0;

  constructor(only: Items, exclude: Items, include: Items, flagExclude: Items) {
    this.only = new ModuleGlobs(only);
    this.exclude = new ModuleGlobs(exclude);
    this.include = new ModuleGlobs(include);
    this.flagExclude = new ModuleGlobs(flagExclude);
  }
}

/** Decides module `d`, whose folded name is `name`. */
function decideModule(d: ModuleDecision, name: Span, lists: SelectionLists): void {
  if (lists.only.entries.length > 0) {
    const match = lists.only.first(name);
    if (match < 0) {
      set(d, false, ModuleReason.NotOnly, lists.only.entries, -1);
    } else {
      set(d, true, ModuleReason.Only, lists.only.entries, match);
      lists.onlyMatched++;
    }
  }
  if (d.selected) {
    const match = lists.exclude.first(name);
    if (match >= 0) set(d, false, ModuleReason.Exclude, lists.exclude.entries, match);
  }
  // modules.include only adds back what was left out: a selected module is not matched against it.
  if (!d.selected) {
    const back = lists.include.first(name);
    if (back >= 0) set(d, true, ModuleReason.Include, lists.include.entries, back);
  }
  const flag = lists.flagExclude.first(name);
  if (flag >= 0) set(d, false, ModuleReason.Flag, lists.flagExclude.entries, flag);
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

/** Whether a module name matches a module glob, both folded: exact, or by prefix when the glob ends in '*'. */
function matchModule(glob: Span, name: Span): bool {
  const stem = spanLen(glob) - 1;
  // Most globs differ from most names at their first byte (when it is ASCII, that settles it).
  const first = stem > 0 ? byteOf(glob, 0) : 0x80;
  if (first < 0x80 && (spanLen(name) == 0 || byteOf(name, 0) != first)) return false;
  if (stem >= 0 && byteOf(glob, stem) == STAR) return startsWithUnits(name, subSpan(glob, 0, stem));
  return sameSpan(glob, name);
}
