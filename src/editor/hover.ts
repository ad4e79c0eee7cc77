// Hover on a key (or its value) in a config's text: the schema's description, the resolved value, where it came from, and what overrides it.

import type { Tree } from "@lezer/common";
import { formatValue } from "../output/table.js";
import type { Row } from "./answer.js";
import { dotted, keyAt, type TextSource } from "./jsonpath.js";
import { overriddenHere } from "./overrides.js";
import { type Schema, schemaAt } from "./schema.js";

/** What the host knows of the text's config, asked at each hover. */
export interface HoverFacts {
  /** Whether the text is a package.json (the config is its `dropkit` key). */
  packageJson: boolean;
  /** The resolved config's rows: an overridden key's row names its winner, once. */
  rows: Row[];
}

/** A hover's answer: the span it is about, the dotted key, and its text as paragraphs. */
export interface HoverAnswer {
  from: number;
  to: number;
  key: string;
  paragraphs: string[];
}

/** The hover at `pos`: for the key under it, or the key whose value it is; undefined elsewhere and off the schema. */
export function hoverAt(text: TextSource, pos: number, facts: HoverFacts, schema: Schema, tree?: Tree): HoverAnswer | undefined {
  const found = keyAt(text, pos, tree);
  if (!found) return undefined;
  let path = found.path.filter((p): p is string => typeof p === "string");
  if (facts.packageJson) {
    if (path[0] !== "dropkit") return undefined;
    path = path.slice(1);
  }
  if (path.length === 0) return undefined;
  const node = schemaAt(schema, path);
  if (!node) return undefined;
  const key = dotted(path);
  // The `exclude` shorthand ends up in modules.exclude: that is the value to show.
  const leaf = key === "exclude" ? "modules.exclude" : key;
  const row = facts.rows.find((r) => r.key === leaf);
  const paragraphs: string[] = [];
  if (node.description) paragraphs.push(node.description);
  if (row) {
    const where = row.source === row.layer ? row.layer : `${row.layer}, ${row.source}`;
    paragraphs.push(`${leaf === key ? "Resolved" : `Resolved ${leaf}`}: ${formatValue(row.value)} (${where})`);
  }
  // The value written here, in the config file, when a layer above it (a variable, a flag) wins; a union list merges them all.
  // The line above already names the winner, so this one says only that the written value loses, as `config --explain` does.
  if (row && !row.entries && (row.layer === "env" || row.layer === "cli"))
    paragraphs.push(`The value written here is ${overriddenHere(row)}`);
  if (row?.invalid) paragraphs.push("This key has a problem: see Problems.");
  return { from: found.from, to: found.to, key, paragraphs };
}

/** The hover as Markdown, for editors: the key in bold, each paragraph escaped, and `link` (a Markdown link) last when given. */
export function hoverMarkdown(answer: HoverAnswer, link?: string): string {
  return [`**${escapeMarkdown(answer.key)}**`, ...answer.paragraphs.map(escapeMarkdown), ...(link ? [link] : [])].join("\n\n");
}

/** Markdown's punctuation escaped, so that a value (`test-*`, `<name>.zip`) reads as written; parentheses make a link only after a `]`. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]<>#+!|~]/g, "\\$&");
}
