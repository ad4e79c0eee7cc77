// One key explained, as `dropkit config --explain` prints it: every layer that set it, the winner first, with the overridden values too.

import { escapeControls, jsonText } from "../output/controls.js";
import { alignColumns, maxColumnWidth } from "../output/table.js";
import type { Step } from "./answer.js";

/**
 * What `dropkit config --explain <key>` prints for a resolved `value` and the layers that set it (`stepsOf`): as text, or as
 * JSON with `json`. The CLI prints it; the language server's "explain this key" answers it.
 */
export function explainOutput(key: string, value: unknown, steps: Step[], json: boolean): string {
  if (json) return jsonText({ key, value, layers: steps }, 2) + "\n";
  // A layer's list on one line when it fits the value column, else one item a line under it; its origin on its first line.
  const lines: string[][] = [];
  for (const r of steps) {
    const whole = JSON.stringify(r.value);
    const items = Array.isArray(r.value) && whole.length > maxColumnWidth ? r.value.map((item) => JSON.stringify(item)) : [whole];
    items.forEach((item, i) => {
      lines.push(i === 0 ? [r.layer, item, r.source, r.status] : ["", item]);
    });
  }
  const shown = alignColumns(lines.map((line) => line.map((cell) => escapeControls(cell))));
  return `${escapeControls(`${key} = ${JSON.stringify(value)}`)}\n` + shown.map((l) => `  ${l}\n`).join("");
}
