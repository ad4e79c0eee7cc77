// Hover on a key (or its value) in the editor: the schema's description, the resolved value, and where that value came from.

import type { EditorView, Tooltip } from "@codemirror/view";
import { formatValue } from "../src/output/table.ts";
import { dotted, keyAt } from "./jsonpath.ts";
import type { Row } from "./resolve.ts";
import { schemaAt } from "./schema.ts";

export interface HoverFacts {
  packageJson: boolean;
  rows: Row[];
}

/** The hover source: a tooltip for the key under the pointer, or for the key whose value it is. */
export function configHover(facts: () => HoverFacts): (view: EditorView, pos: number) => Tooltip | null {
  return (view, pos) => {
    const found = keyAt(view.state, pos);
    if (!found) return null;
    const known = facts();
    let path = found.path.filter((p): p is string => typeof p === "string");
    if (known.packageJson) {
      if (path[0] !== "dropkit") return null;
      path = path.slice(1);
    }
    if (path.length === 0) return null;
    const node = schemaAt(path);
    if (!node) return null;
    const key = dotted(path);
    // The `exclude` shorthand ends up in modules.exclude: that is the value to show.
    const leaf = key === "exclude" ? "modules.exclude" : key;
    const row = known.rows.find((r) => r.key === leaf);
    return {
      pos: found.from,
      end: found.to,
      above: true,
      create: () => {
        const dom = document.createElement("div");
        dom.className = "hover";
        dom.append(element("strong", key));
        if (node.description) dom.append(element("p", node.description));
        if (row) {
          const where = row.source === row.layer ? row.layer : `${row.layer}, ${row.source}`;
          dom.append(element("p", `${leaf === key ? "Resolved" : `Resolved ${leaf}`}: ${formatValue(row.value)} (${where})`));
        }
        if (row?.invalid) dom.append(element("p", "This key has a problem: see Problems."));
        return { dom };
      },
    };
  };
}

function element(tag: string, text: string): HTMLElement {
  const out = document.createElement(tag);
  out.textContent = text;
  return out;
}
