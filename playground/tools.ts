// The editor's tools: Format, Export (dropkit.config.ts or package.json) and copying to the clipboard.

import type { PageCore } from "./wasm.ts";
import { toConfigTs, toPackageJson } from "./export.ts";
import { formatJson } from "../src/editor/jsontext.ts";

/**
 * The text re-indented with two spaces, or why not: a text that does not parse is kept as it is. Laid out from the
 * tokens, never from the parsed value, so that no number or string changes (`1e400` is no `null`, no digit is lost).
 */
export function formatConfig(core: PageCore, text: string): string | { error: string } {
  // The core's parser: the same syntax errors (duplicate keys included) as everywhere else.
  const parsed = core.parseJson(text);
  if (!parsed.ok) {
    const first = parsed.errors[0];
    return {
      error: first
        ? `${first.message} (line ${first.line}, column ${first.column}). The text is kept as it is.`
        : "the text does not parse.",
    };
  }
  return formatJson(text);
}

/**
 * Shows the config as a `dropkit.config.ts` or a `package.json` below the buttons and copies it. The text
 * must parse; schema problems are exported as written (the CLI will report them), and the note says how many.
 */
export async function exportConfig(
  core: PageCore,
  text: string,
  packageJson: boolean,
  form: "ts" | "package.json",
  problems: number,
): Promise<void> {
  const note = document.getElementById("export-note")!;
  const out = document.getElementById("export-text")!;
  const parsed = core.parseJson(text);
  const value = parsed.ok ? parsed.value : undefined;
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
  const config = packageJson && isObject(value) ? value.dropkit : value;
  if (!isObject(config)) {
    out.hidden = true;
    note.textContent = !parsed.ok
      ? "Nothing exported: the config does not parse (see Problems)."
      : "Nothing exported: there is no config object to export.";
    return;
  }
  const name = form === "ts" ? "dropkit.config.ts" : "package.json";
  out.textContent =
    form === "ts" ? toConfigTs(config) : toPackageJson(config, packageJson ? (value as Record<string, unknown>) : undefined);
  out.hidden = false;
  out.setAttribute("aria-label", name);
  const copied = await copyText(out.textContent);
  const where = copied ? "copied, and shown below" : "below: select it and copy it (this browser does not allow the page to copy)";
  // Exported as written, problems and all: say so, or the copy reads as a config that works.
  note.textContent =
    problems === 0
      ? `${name} ${where}.`
      : `${name} ${where}, with ${problems} problem${problems === 1 ? "" : "s"} still in it (see Problems): ` +
        `dropkit${form === "ts" ? ", and tsc through defineConfig," : ""} will reject it until ${problems === 1 ? "it is" : "they are"} fixed.`;
}

/** Copies a text; false when the browser does not allow it (no secure context, no permission). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
