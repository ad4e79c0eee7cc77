// Completion in a config's text: keys and values at every depth from the schema, preset names, and the drop's themes and modules.

import type { Tree } from "@lezer/common";
import { valueMeanings } from "../core/schema-table.js";
import { dotted, type PathPart, placeAt, type TextSource } from "./jsonpath.js";
import { type Schema, schemaAt, valuesOf } from "./schema.js";

/** What the host knows beyond the text and the schema, asked at each completion. */
export interface CompletionFacts {
  /** Whether the text is a package.json (the config is its `dropkit` key). */
  packageJson: boolean;
  /** Bundled presets, then the preset files of the search path. */
  presetNames: string[];
  /** Theme names of the drop's theme archives. */
  themeNames: string[];
  /** Module names of the drop's other archives. */
  moduleNames: string[];
}

/** One option: its label, the JSON text it writes (a key gets its colon when applied), its kind and what it means. */
export interface CompletionItem {
  label: string;
  /** The key or value as JSON (`"theme"`, `true`), quotes included. */
  text: string;
  kind: "property" | "enum" | "constant";
  info?: string;
}

/** The options at an offset, listed in their order (the schema's, then the drop's), and where the word they complete starts. */
export interface Completions {
  /** The start of the word before the caret: what filters the options (labels carry no quotes). */
  from: number;
  items: CompletionItem[];
}

/** The characters of a word completion filters and replaces. */
const wordChar = /[\w$.*/-]/;

/** The start of the word that ends at `pos`. */
export function wordStart(text: TextSource, pos: number): number {
  let from = pos;
  while (from > 0 && wordChar.test(text.slice(from - 1, from))) from--;
  return from;
}

/**
 * The options at `pos`, or null where none apply. `explicit`: asked for (Ctrl-Space, an editor's request), not opened by
 * typing, which opens it only once something is typed, as in other editors. `tree`: the text's syntax tree, when the host has one.
 */
export function completionsAt(
  text: TextSource,
  pos: number,
  facts: CompletionFacts,
  schema: Schema,
  options: { explicit: boolean; tree?: Tree },
): Completions | null {
  const place = placeAt(text, pos, options.tree);
  if (!place) return null;
  const from = wordStart(text, pos);
  const replacing = place.token !== undefined;
  // In a package.json only the `dropkit` key is dropkit's; the rest is the package's own business.
  let path: PathPart[] = place.path;
  if (facts.packageJson) {
    if (path.length === 0 && place.role === "key")
      return place.siblings.includes("dropkit") ? null : { from, items: [keyItem("dropkit", "dropkit's config")] };
    if (path[0] !== "dropkit") return null;
    path = path.slice(1);
  }
  if (!options.explicit && !replacing && from === pos) return null;
  const items = place.role === "key" ? keyItems(schema, path, place.siblings) : valueItems(schema, path, facts);
  return items.length === 0 ? null : { from, items };
}

/**
 * The edit that applies an option over the word `from`..`to` being typed: the word around the caret, with its opening quote and
 * its closing one (typed, or added by bracket closing) when there are. A key gets its colon unless one follows.
 */
export function completionEdit(
  text: TextSource,
  from: number,
  to: number,
  item: CompletionItem,
): { from: number; to: number; insert: string } {
  const start = from > 0 && text.slice(from - 1, from) === '"' ? from - 1 : from;
  let end = to;
  while (end < text.length && wordChar.test(text.slice(end, end + 1))) end++;
  if (start < from && text.slice(end, end + 1) === '"') end++;
  const insert = item.kind === "property" && !/^\s*:/.test(text.slice(end, end + 40)) ? `${item.text}: ` : item.text;
  return { from: start, to: end, insert };
}

function keyItems(schema: Schema, path: PathPart[], siblings: string[]): CompletionItem[] {
  const node = schemaAt(schema, path);
  return Object.entries(node?.properties ?? {})
    .filter(([key]) => !siblings.includes(key))
    .map(([key, child]) => keyItem(key, child.description));
}

/** A key, quoted. Listed in the schema's order. */
function keyItem(key: string, description: string | undefined): CompletionItem {
  return { label: key, text: JSON.stringify(key), kind: "property", ...(description ? { info: description } : {}) };
}

function valueItems(schema: Schema, path: PathPart[], facts: CompletionFacts): CompletionItem[] {
  const node = schemaAt(schema, path);
  if (!node) return [];
  const values = valuesOf(schema, node);
  const key = dotted(path.map((p) => (typeof p === "number" ? 0 : p)));
  // Values the schema cannot know: those of the drop and the preset files.
  if (key === "presets[0]") values.push(...facts.presetNames);
  if (key === "theme") values.push("auto", "none", ...facts.themeNames);
  if (/^(modules\.(include|exclude|only)|exclude)\[0\]$/.test(key)) values.push(...facts.moduleNames);
  const seen = new Set<string>();
  return values.flatMap((value) => {
    const label = String(value);
    if (seen.has(label)) return [];
    seen.add(label);
    const info = describeValue(key, label, facts);
    // The schema's values first, in its order, then the drop's.
    return [
      {
        label,
        text: JSON.stringify(value),
        kind: typeof value === "string" ? "enum" : "constant",
        ...(info ? { info } : {}),
      } as CompletionItem,
    ];
  });
}

function describeValue(key: string, value: string, facts: CompletionFacts): string | undefined {
  // What the core's table says a value means (a list's item is offered under `key[0]`); the drop's values name their file.
  const meaning = valueMeanings[key.replace(/\[0\]$/, "")]?.[value];
  if (meaning) return meaning;
  if (key === "theme" && facts.themeNames.includes(value)) return `The theme archive ${value}-theme.zip (or ${value}.zip) in the folder.`;
  if (key === "presets[0]" && facts.presetNames.includes(value)) return `The preset file ${value}.json in the search path.`;
  if (facts.moduleNames.includes(value)) return `The module archive ${value}.zip in the folder.`;
  return undefined;
}
