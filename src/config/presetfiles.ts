// Preset files for the core's presets stage: the search path listed (first file of a name wins), the presets asked for looked up, and their files loaded.

import { readdirSync } from "node:fs";
import path from "node:path";
import type { CoreWarning, PresetFileInput, ResolveNeedsPresets, ResolveRequest } from "../core/protocol.js";
import { DropkitError, type Diagnostic } from "../errors.js";
import { isFile } from "../files/fsutil.js";
import type { ReadBudget } from "../files/limits.js";
import { openJudged } from "../files/judged.js";
import { loadConfigFile, sourceInputOf } from "./loader.js";
import { detectFormat } from "./discovery.js";
import { trustPolicy, type TrustScope } from "../files/trust.js";

/** The preset file extensions, in lookup order within one directory. */
const presetExtensions = [".ts", ".js", ".json"] as const;

/**
 * Loads the preset files the core asked for: listed paths, listed names looked up in the search path
 * (first directory, then `.ts` before `.js` before `.json`, first found wins), or in auto mode every
 * preset file of the search path. A name that is not found is left out: the core then uses the
 * bundled preset of that name or reports PresetNotFound with suggestions from `presetNames`.
 *
 * Every preset file is checked before it is loaded (src/files/trust.ts): one that another user owns or could have written
 * is refused (`UntrustedFile`, 77), with every other preset file's problems. `texts` receives each `.ts`/`.js` preset's
 * text, by path, for its problems to be placed (src/config/valuepositions.ts). Without a `trust` scope, the process
 * environment's policy applies and each file is checked with the directory that holds it.
 */
export async function loadPresets(
  needs: ResolveNeedsPresets["needs"],
  warnings: CoreWarning[],
  budget: ReadBudget,
  trust: TrustScope = { policy: trustPolicy(process.env), fence: null },
  texts?: Map<string, string>,
): Promise<Pick<ResolveRequest, "presetFiles" | "presetNames">> {
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
      // Opened once and judged on that descriptor; a preset named package.json is still plain JSON, not a `dropkit` key.
      const format = detectFormat(file);
      const judged = openJudged(file, "preset", trust);
      const source = sourceInputOf(file, await loadConfigFile(judged, format === "package.json" ? "json" : format, budget));
      if (source.format === "value") texts?.set(file, new TextDecoder().decode(judged.bytes));
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

// --- helpers ---

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
      const why =
        code === "ENOENT" ? "does not exist" : code === "ENOTDIR" ? "is not a directory" : `cannot be read (${code ?? String(error)})`;
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
        warnings.push({
          message: `The preset file ${file} is ignored: ${first} has the same name and comes first in the search path.`,
          source: file,
        });
        continue;
      }
      found.set(name, file);
    }
  }
  return found;
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
