// The explain view: every layer that set one key, the winner first, as `dropkit config --explain` prints it; union lists with each entry's origin.

import { describeKey } from "../src/editor/schema.ts";
import { formatValue } from "../src/output/table.ts";
import { pageSchema } from "./assist.ts";
import { cell, entriesShown, moreRow, paragraph } from "./render.ts";
import type { Answer } from "./resolve.ts";

export interface ExplainView {
  section: HTMLElement;
  heading: HTMLElement;
  body: HTMLElement;
}

/** Shows `key` explained, or hides the view when no key is selected. */
export function renderExplain(view: ExplainView, answer: Answer, key: string | undefined, shown: (key: string) => number): void {
  view.section.hidden = key === undefined;
  if (key === undefined) return;
  view.heading.textContent = `Explain ${key}`;
  const row = answer.rows.find((r) => r.key === key);
  const steps = answer.explain?.[key];
  const parts: Node[] = [];
  const description = describeKey(pageSchema, key);
  if (description) parts.push(paragraph("hint", description));
  if (!row || !steps) {
    parts.push(paragraph("summary", `${key} is not resolved while the inputs have problems.`));
    view.body.replaceChildren(...parts);
    return;
  }
  parts.push(paragraph("result", `${key} = ${valueText(row.value)}`));
  if (row.invalid)
    parts.push(
      paragraph("summary bad", `A layer's value for ${key} has a problem (see Problems); this is what the other layers resolve to.`),
    );
  parts.push(
    table(
      `Every layer that set ${key}, the winner first`,
      ["Layer", "Value", "Source", "Status"],
      steps.map((s) => [s.layer, valueText(s.value), s.source, s.status]),
      (tr, i) => tr.classList.add(`status-${steps[i]!.status}`),
    ),
  );
  if (row.entries) {
    const limit = Math.min(row.entries.length, shown(key));
    const entries = table(
      `Each entry of ${key} and the layer it came from`,
      ["Entry", "Layer", "Source"],
      row.entries.slice(0, limit).map((e) => [e.value, e.layer, e.source]),
    );
    if (limit < row.entries.length) entries.querySelector("tbody")!.append(moreRow(key, row.entries.length - limit, 3));
    parts.push(entries);
    if (row.entries.length === 0) parts.push(paragraph("summary", "No layer added an entry."));
  }
  view.body.replaceChildren(...parts);
}

/** A value as a cell shows it; a long list by its size, its entries being listed below with their origins. */
function valueText(value: unknown): string {
  return Array.isArray(value) && value.length > entriesShown ? `${value.length.toLocaleString("en")} entries` : formatValue(value);
}

function table(
  caption: string,
  header: string[],
  rows: string[][],
  decorate?: (tr: HTMLTableRowElement, index: number) => void,
): HTMLElement {
  const wrap = document.createElement("div");
  wrap.className = "table-wrap";
  // A table wider than a phone scrolls: the keyboard must reach it too, so its box takes the focus, named by its caption.
  wrap.tabIndex = 0;
  wrap.setAttribute("role", "region");
  wrap.setAttribute("aria-label", caption);
  const element = document.createElement("table");
  const captionElement = document.createElement("caption");
  captionElement.textContent = caption;
  const head = document.createElement("tr");
  for (const name of header) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = name;
    head.append(th);
  }
  const body = document.createElement("tbody");
  rows.forEach((cells, i) => {
    const tr = document.createElement("tr");
    tr.append(...cells.map((text, c) => cell(text, header[c]!.toLowerCase())));
    decorate?.(tr, i);
    body.append(tr);
  });
  element.append(captionElement);
  element.createTHead().append(head);
  element.append(body);
  wrap.append(element);
  return wrap;
}
