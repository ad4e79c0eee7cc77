// What a lift changes: a legacy state file's plan (0.6–0.9) against this run's, each difference with the config line that keeps the old one.

import path from "node:path";
import type { ReadStateResult } from "./file.js";

/** The plan this run makes, as far as a lift compares it: the theme's name and the modules by name. */
export interface PlannedDrop {
  theme: string | null;
  modules: string[];
  excluded: string[];
}

/** One difference between the legacy plan and this run's: the fields of a `warning` record. */
export interface LiftChange {
  code: "LegacyPlanDiffers";
  /** The config key whose line keeps the old choice. */
  key: "theme" | "exclude" | "modules.include";
  message: string;
  /** The state file. */
  source: string;
  /** What the legacy file recorded (the theme, or the glob it excluded), and what this run chose instead. */
  legacy: unknown;
  now: unknown;
  /** The config line that keeps the old choice, as JSON. */
  keep: string;
}

/** How many names one message lists before it counts the rest. */
const maxNamed = 20;

/**
 * The differences a lift would hide (issue 35): only when `previous` is a legacy file, since that is the run whose
 * write lifts it. The legacy theme (when it named one) against this run's; each legacy `excluded` entry (a module name
 * or glob, as 0.x wrote them) that this run's plan ships modules of; the modules the legacy file recorded as shipped
 * that this run leaves out. Names and globs compare in any ASCII letter case, as the core compares them; the work is
 * linear in the names and globs (each name looks up its own prefixes).
 *
 * @param stateFile - The state file, named in each message.
 * @param configFile - The config in use, where the line that keeps the old choice goes; `null` without one.
 */
export function liftChanges(previous: ReadStateResult, plan: PlannedDrop, stateFile: string, configFile: string | null): LiftChange[] {
  if (previous.kind !== "legacy") return [];
  const legacy = previous.state.plan;
  const was = previous.state.migratedFrom?.version;
  const file = `The legacy state file ${stateFile}${was ? ` (dropkit ${was})` : ""}`;
  const where = configPlace(configFile, path.dirname(stateFile));
  const changes: LiftChange[] = [];
  const change = (key: LiftChange["key"], legacyValue: unknown, now: unknown, keep: string, message: string): void => {
    changes.push({ code: "LegacyPlanDiffers", key, message, source: stateFile, legacy: legacyValue, now, keep });
  };

  if (typeof legacy.theme === "string" && legacy.theme !== "" && fold(legacy.theme) !== fold(plan.theme ?? "")) {
    const keep = `"theme": ${JSON.stringify(legacy.theme)}`;
    const now = plan.theme === null ? "no theme" : `the theme ${JSON.stringify(plan.theme)}`;
    change(
      "theme",
      legacy.theme,
      plan.theme,
      keep,
      `${file} recorded the theme ${JSON.stringify(legacy.theme)}; this run's plan has ${now} instead. To keep the old choice, add ${keep} to ${where}.`,
    );
  }

  for (const [glob, shipped] of shippedByGlob(legacy.excluded, plan.modules)) {
    const keep = `"exclude": [${JSON.stringify(glob)}]`;
    change(
      "exclude",
      glob,
      shipped,
      keep,
      `${file} left out the modules matching ${JSON.stringify(glob)}; this run's plan ships ${listed(shipped)}. To keep them out, add ${keep} to ${where}.`,
    );
  }

  // Only a legacy file that recorded its modules says what it shipped; without the list, nothing is known to have changed.
  const shippedBefore = new Set(legacy.modules.map(fold));
  const dropped = plan.excluded.filter((name) => shippedBefore.has(fold(name)));
  if (dropped.length > 0) {
    const keep = `"modules": { "include": [${dropped
      .slice(0, maxNamed)
      .map((n) => JSON.stringify(n))
      .join(", ")}] }`;
    const them = dropped.length === 1 ? "it" : "them";
    const message = `${file} shipped ${listed(dropped)}; this run's plan leaves ${them} out. To ship ${them} again, add ${keep} to ${where}.`;
    change("modules.include", dropped, [], keep, message);
  }
  return changes;
}

// --- helpers ---

/** ASCII letters in lower case, as the core compares names and globs (docs/abi.md). */
function fold(name: string): string {
  return name.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/**
 * Each legacy `excluded` entry that matches modules this run ships, with those modules: an entry is a name, or a prefix
 * and one trailing `*`. Exact entries are looked up in a set, and `*` entries by every prefix of each name.
 */
function shippedByGlob(excluded: string[], modules: string[]): Map<string, string[]> {
  const exact = new Map<string, string>();
  const prefixes = new Map<string, string>();
  for (const glob of excluded) {
    const folded = fold(glob);
    if (folded.endsWith("*")) prefixes.set(folded.slice(0, -1), glob);
    else exact.set(folded, glob);
  }
  const shipped = new Map<string, string[]>();
  const add = (glob: string | undefined, name: string): void => {
    if (glob === undefined) return;
    const list = shipped.get(glob);
    if (list) list.push(name);
    else shipped.set(glob, [name]);
  };
  for (const name of modules) {
    const folded = fold(name);
    add(exact.get(folded), name);
    if (prefixes.size === 0) continue;
    for (let end = 0; end <= folded.length; end++) add(prefixes.get(folded.slice(0, end)), name);
  }
  return shipped;
}

/** The first names and how many more. */
function listed(names: string[]): string {
  const shown = names.slice(0, maxNamed).join(", ");
  return names.length > maxNamed ? `${shown} and ${names.length - maxNamed} more` : shown;
}

/** Where the line that keeps an old choice goes: the config in use (in its own form), or a new one in the drop. */
function configPlace(configFile: string | null, dir: string): string {
  if (configFile === null) return `a dropkit.config.json in ${dir}`;
  if (path.basename(configFile) === "package.json") return `the "dropkit" key of ${configFile}`;
  if (/\.[cm]?[jt]s$/.test(configFile)) return `the object ${configFile} exports`;
  return configFile;
}
