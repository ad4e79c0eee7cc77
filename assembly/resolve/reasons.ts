// Why, in words: the sentences of a plan's theme and module decisions and of a listed preset, written straight into
// an answer from what decided them (a ModuleReason or ThemeReason and the entry, glob or source involved).

import { layerName } from "./precedence";
import { ModuleDecision, ModuleReason, Plan, ThemeReason } from "./select";
import { Source } from "../schema/valuesource";
import { Span, escapedSpanOf } from "../json/span";
import { intText } from "../json/strings";
import { JsonWriter } from "../json/writer";

/** What a module decision says, by ModuleReason; a decision with a matching entry adds the entry and a note. */
const MODULE_REASONS: Array<Span> = [
  escapedSpanOf("included: every module is, by default"),
  escapedSpanOf("excluded: not matched by modules.only"),
  escapedSpanOf("included: matched by modules.only"),
  escapedSpanOf("excluded: matched by modules.exclude"),
  escapedSpanOf("included: added back by modules.include"),
  escapedSpanOf("excluded: matched by --exclude"),
  escapedSpanOf("excluded: the same module name but for letter case as "),
];
// The parts of a reason around the entry that matched: ` "old-*" (config, /d/dropkit.config.json:3:5)`.
const BEFORE_GLOB = escapedSpanOf(' "');
const AFTER_GLOB = escapedSpanOf('" (');
const AFTER_LAYER = escapedSpanOf(", ");
const CLOSE = escapedSpanOf(")");
const FLAG_NOTE = escapedSpanOf("; a --exclude flag wins over everything");
const LISTED = escapedSpanOf("listed in presets (");
const THEME_NAMED_BEFORE = escapedSpanOf('theme "');
const THEME_NAMED_AFTER = escapedSpanOf('"');
const TWIN_NOTE = escapedSpanOf(", which is the module");
const STAYS_MODULE = escapedSpanOf(" stays a module: the theme archive comes first");

/** A listed preset's reason: `listed in presets (/d/dropkit.config.json:2:15)`. */
export function writeListedReason(w: JsonWriter, source: Source): void {
  w.openString().escapedPart(LISTED);
  source.writeParts(w);
  w.escapedPart(CLOSE).closeString();
}

/** The theme's reason: `theme "ocean"`, `the only theme archive`, ... (none for a theme that is not in the drop). */
export function writeThemeReason(w: JsonWriter, plan: Plan): void {
  const reason = plan.themeReason;
  w.openString();
  if (reason == ThemeReason.None) w.part('theme is "none"');
  else if (reason == ThemeReason.NoArchive) w.part("no theme archive (*-theme.zip) in the drop");
  else if (reason == ThemeReason.Only) w.part("the only theme archive");
  else if (reason == ThemeReason.First) {
    w.part("first of " + intText(plan.themeAlternatives.length + 1) + " theme archives by name; set theme to choose another");
  } else if (reason == ThemeReason.Path) w.part("theme path ").spanPart(plan.theme);
  else if (reason == ThemeReason.Named) {
    w.escapedPart(THEME_NAMED_BEFORE).spanPart(plan.theme).escapedPart(THEME_NAMED_AFTER);
    // The alternative not taken: `theme "ocean"; ocean.zip stays a module: ...`.
    const modules = plan.themeModules;
    for (let i = 0; i < modules.length; i++) w.part(i == 0 ? "; " : ", ").spanPart(modules[i]);
    if (modules.length > 0) w.escapedPart(STAYS_MODULE);
  }
  w.closeString();
}

/** A decision's reason: `excluded: matched by modules.exclude "old-*" (config, /d/dropkit.config.json:3:5)`. */
export function writeModuleReason(w: JsonWriter, d: ModuleDecision): void {
  w.openString().escapedPart(unchecked(MODULE_REASONS[d.reason]));
  if (d.reason == ModuleReason.Twin) w.spanPart(d.twin).escapedPart(TWIN_NOTE);
  const source = d.source;
  if (source != null) {
    w.escapedPart(BEFORE_GLOB).spanPart(d.glob).escapedPart(AFTER_GLOB).spanPart(layerName(d.layer)).escapedPart(AFTER_LAYER);
    source.writeParts(w);
    w.escapedPart(CLOSE);
    if (d.reason == ModuleReason.Flag) w.escapedPart(FLAG_NOTE);
  }
  w.closeString();
}
