// Loading config and preset files: JSON forms as raw text, read within the limits; .ts/.js files checked, then evaluated (src/config/evaluate.ts).

import type { SourceInput } from "../core/protocol.js";
import type { ConfigFormat } from "./discovery.js";
import { fail } from "../errors.js";
import type { FileRole } from "./evaluate.js";
import type { JudgedFile } from "../files/judged.js";
import { chargeBudget, type ReadBudget } from "../files/limits.js";
import type { JsonValue } from "./plaindata.js";

export type { FileRole } from "./evaluate.js";

/**
 * A loaded config or preset: the raw UTF-8 text of a JSON form (the core parses it, to report
 * positions), or the plain data a `.ts`/`.js` file exported.
 */
export type LoadedConfig = { format: "json" | "package.json"; text: string } | { format: "value"; value: { [key: string]: JsonValue } };

/**
 * Loads a config or preset file from the bytes it was opened and judged with (src/files/judged.ts): it is never
 * opened by name again. JSON and `package.json` forms are returned as text, unparsed. `.ts` and `.js` files are
 * evaluated from that text (natively where the runtime strips types, else through jiti, loaded only now, so JSON-only
 * runs never pay for it); the default export may be an object or a sync or async function returning one, and is
 * converted to plain JSON data.
 *
 * @param file - The opened, judged file.
 * @param format - Its form, as `locateConfig`/`detectFormat` decided (a preset named package.json is plain `json`).
 * @param budget - What the resolve has read so far (its config and preset files), charged with this file.
 * @throws DropkitError `ConfigSyntaxError` (65) when a JSON form is not UTF-8 or starts with a second byte-order
 *   mark, `ConfigLoadError` (65) when evaluation throws or exports no object, or when its exported data is over
 *   `limits.fileBytes` (or the budget over `limits.totalBytes`), `SchemaValidationError` (65, one diagnostic per
 *   value) when the export holds values JSON cannot carry.
 */
export async function loadConfigFile(file: JudgedFile, format: ConfigFormat, budget?: ReadBudget): Promise<LoadedConfig> {
  const text = decodeText(file);
  // The core skips one leading byte-order mark, as an offset but not a column, and reports a second at 1:1.
  if (format === "json" || format === "package.json") {
    chargeBudget(budget, file.path, file.bytes.length);
    return { format, text };
  }
  // A .ts/.js file is charged with the JSON text of the data it exports.
  // Loaded only now: a JSON config never evaluates the module loaders, the stripper's hooks or the stack mapping.
  const { evaluateConfig } = await import("./evaluate.js");
  return { format: "value", value: await evaluateConfig(file, text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, budget) };
}

/** A loaded file as the core takes it: its text for a JSON form, its data for a `.ts`/`.js` one, named by its path. */
export function sourceInputOf(file: string, loaded: LoadedConfig): SourceInput {
  return loaded.format === "value"
    ? { source: file, format: "value", value: loaded.value }
    : { source: file, format: loaded.format, text: loaded.text };
}

// --- helpers ---

/** The file's text, strict UTF-8, a byte-order mark kept (TextDecoder would drop one, and a second would then pass). */
function decodeText(file: JudgedFile): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(file.bytes);
  } catch {
    const role: FileRole = file.role;
    fail("ConfigSyntaxError", `The ${role} ${file.path} is not valid UTF-8 text. Save it as UTF-8.`, {
      file: file.path,
      source: file.path,
    });
  }
}
