// Loading config and preset files: JSON forms as raw text, read within the limits; .ts/.js files checked, then evaluated (src/config/evaluate.ts).

import { readlinkSync, statSync, type Stats } from "node:fs";
import path from "node:path";
import type { SourceInput } from "../core/protocol.js";
import { detectFormat, isSymbolicLink, type ConfigFormat } from "./discovery.js";
import { fail } from "../errors.js";
import type { FileRole } from "./evaluate.js";
import { chargeBudget, limits, readBounded, sizeText, type BoundedRead, type ReadBudget } from "../files/limits.js";
import type { JsonValue } from "./plaindata.js";

export type { FileRole } from "./evaluate.js";

/**
 * A loaded config or preset: the raw UTF-8 text of a JSON form (the core parses it, to report
 * positions), or the plain data a `.ts`/`.js` file exported.
 */
export type LoadedConfig = { format: "json" | "package.json"; text: string } | { format: "value"; value: { [key: string]: JsonValue } };

/**
 * Loads a config file. JSON and `package.json` forms are returned as text, unparsed. `.ts` and `.js`
 * files are evaluated through jiti (loaded only now, so JSON-only runs never pay for it); the default
 * export may be an object or a sync or async function returning one, and is converted to plain JSON data.
 *
 * @param file - Absolute path of the file.
 * @param format - Its form, as `locateConfig`/`detectFormat` decided.
 * @param role - Whether the file is a config or a preset, for messages.
 * @param budget - What the resolve has read so far (its config and preset files), charged with this file.
 * @default role "config"
 * @throws DropkitError `ConfigNotFound` (66) when the file cannot be read, `ConfigSyntaxError` (65) when a
 *   JSON form is not UTF-8, `ConfigLoadError` (65) when evaluation throws or exports no object, or when the
 *   file or its exported data is over `limits.fileBytes` (or the budget over `limits.totalBytes`),
 *   `SchemaValidationError` (65, one diagnostic per value) when the export holds values JSON cannot carry.
 */
export async function loadConfigFile(
  file: string,
  format: ConfigFormat,
  role: FileRole = "config",
  budget?: ReadBudget,
): Promise<LoadedConfig> {
  if (format === "json" || format === "package.json") return { format, text: readText(file, role, budget) };
  requireFile(file, role);
  // Loaded only now: a JSON config never evaluates the module loaders, the stripper's hooks or the stack mapping.
  const { evaluateConfig } = await import("./evaluate.js");
  return { format: "value", value: await evaluateConfig(file, role, budget) };
}

/**
 * Loads a local preset file (`.ts`, `.js` or `.json`), exactly as a config file of that form is loaded.
 *
 * @param file - Absolute path of the preset file.
 * @param budget - What the resolve has read so far, as for `loadConfigFile`.
 */
export async function loadPresetFile(file: string, budget?: ReadBudget): Promise<LoadedConfig> {
  const format = detectFormat(file);
  // A preset named package.json is still a preset: plain JSON, not a `dropkit` key.
  return loadConfigFile(file, format === "package.json" ? "json" : format, "preset", budget);
}

/** A loaded file as the core takes it: its text for a JSON form, its data for a `.ts`/`.js` one, named by its path. */
export function sourceInputOf(file: string, loaded: LoadedConfig): SourceInput {
  return loaded.format === "value"
    ? { source: file, format: "value", value: loaded.value }
    : { source: file, format: loaded.format, text: loaded.text };
}

// --- helpers ---

/** Reads a JSON-form file as strict UTF-8, without a byte-order mark, refusing one over `limits.fileBytes`. */
function readText(file: string, role: FileRole, budget: ReadBudget | undefined): string {
  let read: BoundedRead;
  try {
    read = readBounded(file, limits.fileBytes);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOTFILE")
      fail("ConfigNotFound", `The ${role} file ${file} is not a file. Check the path.`, { file, source: file });
    fail("ConfigNotFound", `Cannot read the ${role} ${file} (${unreadable(file, error)}). Check that it exists and is readable.`, {
      file,
      source: file,
    });
  }
  if (read.over) tooLarge(file, role, read.size);
  const bytes = read.bytes;
  chargeBudget(budget, file, bytes.length);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    fail("ConfigSyntaxError", `The ${role} ${file} is not valid UTF-8 text. Save it as UTF-8.`, { file, source: file });
  }
  // TextDecoder drops a leading BOM by default; nothing else to strip.
  return text;
}

/** A `.ts`/`.js` file must be a regular file within `limits.fileBytes` before jiti reads it. */
function requireFile(file: string, role: FileRole): void {
  let stats: Stats | undefined;
  try {
    stats = statSync(file, { throwIfNoEntry: false });
  } catch (error) {
    fail("ConfigNotFound", `Cannot read the ${role} ${file} (${unreadable(file, error)}). Check the path and its permissions.`, {
      file,
      source: file,
    });
  }
  if (!stats?.isFile()) {
    const why = stats ? "is not a file" : isSymbolicLink(file) ? `is a broken symbolic link (to ${linkTarget(file)})` : "does not exist";
    fail("ConfigNotFound", `The ${role} file ${file} ${why}. Check the path.`, { file, source: file });
  }
  // Checked before jiti reads and compiles it: a huge source would take that much memory several times over.
  if (stats.size > limits.fileBytes) tooLarge(file, role, stats.size);
}

/** Refuses a file over `limits.fileBytes` (`size` is `fileBytes + 1` when only "more" is known). */
function tooLarge(file: string, role: FileRole, size: number): never {
  const what = size > limits.fileBytes + 1 ? `is ${sizeText(size)}` : `has more than ${sizeText(limits.fileBytes)}`;
  const hint = path.basename(file) === "package.json" ? ", or move the dropkit key to a dropkit.config.json" : "";
  fail(
    "ConfigLoadError",
    `The ${role} ${file} ${what}, over the limit of ${sizeText(limits.fileBytes)} for a ${role} file. A dropkit ${role} is a few KB: check that this is the right file${hint}.`,
    { file, source: file },
  );
}

/** Why a file cannot be read: the error code, and for a symbolic link what is wrong with it. */
function unreadable(file: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code ?? String(error);
  if (code === "ELOOP") return "ELOOP: a loop of symbolic links";
  if (code === "ENOENT" && isSymbolicLink(file)) return `ENOENT: a broken symbolic link to ${linkTarget(file)}`;
  return code;
}

function linkTarget(file: string): string {
  try {
    return readlinkSync(file);
  } catch {
    return "?";
  }
}
