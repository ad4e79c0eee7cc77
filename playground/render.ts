// Renders the answer: the problems list with its fixes, the theme and module selection, the resolved table, the warnings.

import type { CoreDiagnostic, CoreWarning } from "../src/core.ts";
import { configTableLines, configTableRows } from "../src/table.ts";
import type { Fix } from "./fixes.ts";
import type { Answer, Row } from "./resolve.ts";

/** A problem as the list shows it, with where the editor has it and the fix, if any. */
export interface ListedProblem {
  problem: CoreDiagnostic;
  /** The problem's span in the editor, when it is in the editor's text. */
  at?: { from: number; to: number; line: number; column: number };
  fix?: Fix;
}

export function span(className: string, text: string): HTMLSpanElement {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  return element;
}

export function paragraph(className: string, text: string): HTMLParagraphElement {
  const element = document.createElement("p");
  element.className = className;
  element.textContent = text;
  return element;
}

export function button(text: string, className: string, data: Record<string, string>): HTMLButtonElement {
  const element = document.createElement("button");
  element.type = "button";
  element.className = className;
  element.textContent = text;
  Object.assign(element.dataset, data);
  return element;
}

/** The problems list: a button per problem in the editor (it moves the caret there), and a fix button beside each did-you-mean. */
export function renderProblems(list: HTMLUListElement, summary: HTMLElement, problems: ListedProblem[]): void {
  list.replaceChildren();
  const count = problems.length;
  summary.textContent = count === 0 ? "No problems." : `${count} problem${count === 1 ? "" : "s"}, in the order they appear.`;
  problems.forEach(({ problem, at, fix }, index) => {
    const item = document.createElement("li");
    // Problems in the editor are buttons that move the caret; the others (a flag, a variable) have nowhere to go.
    const body = at ? button("", "problem", { index: String(index) }) : document.createElement("div");
    body.className = "problem";
    body.append(
      span("name", problem.name),
      span("path", problem.path === "" ? "(document)" : problem.path),
      span("where", at ? `${at.line}:${at.column}` : problem.source),
      span("message", problem.message),
    );
    item.append(body);
    if (fix) item.append(button(fix.label, "fix", { fix: String(index) }));
    list.append(item);
  });
}

/** The warnings, each with its fix when the core suggested one. */
export function renderWarnings(block: HTMLElement, list: HTMLUListElement, warnings: CoreWarning[], fixes: Array<Fix | undefined>): void {
  list.replaceChildren(
    ...warnings.map((w, index) => {
      const item = document.createElement("li");
      item.append(span("message", w.source ? `${w.message} (${w.source})` : w.message));
      const fix = fixes[index];
      if (fix) item.append(button(fix.label, "fix", { warningFix: String(index) }));
      return item;
    }),
  );
  block.hidden = warnings.length === 0;
}

/** The theme and module choice of the plan, with why. */
export function renderSelection(box: HTMLElement, answer: Answer): void {
  box.replaceChildren();
  const plan = answer.plan;
  const theme = answer.rows.find((r) => r.key === "theme");
  if (!plan || !theme) {
    box.append(paragraph("summary", "Shown once the config resolves."));
    return;
  }
  const chosen = plan.theme.file ?? plan.theme.path;
  const themeLine = document.createElement("p");
  themeLine.className = "theme-line";
  themeLine.append(span("label", "Theme"), span("value", chosen ?? "(none)"), span("origin", `theme = ${String(theme.value)} from ${theme.layer}, ${theme.source}`));
  box.append(themeLine);
  const reason = plan.theme.reason + (plan.theme.alternatives.length > 0 ? `; alternatives: ${plan.theme.alternatives.join(", ")}` : "");
  if (reason !== "") box.append(paragraph("hint", `Why: ${reason}.`));
  if (plan.decisions.length === 0) {
    box.append(paragraph("summary", "No module archives listed."));
    return;
  }
  const list = document.createElement("ul");
  list.className = "modules";
  list.setAttribute("aria-label", "Modules");
  for (const d of plan.decisions) {
    const item = document.createElement("li");
    item.className = d.selected ? "in" : "out";
    item.append(span("mark", d.selected ? "+" : "−"), span("value", d.name), span("reason", d.reason));
    list.append(item);
  }
  box.append(list);
}

/**
 * The resolved table, the rows `dropkit config` prints (the same function builds them). Each key is a
 * button that opens the explain view; a key with a problem is marked, with what still resolved.
 */
export function renderTable(table: HTMLTableElement, text: HTMLElement, rows: Row[], selected: string | undefined): void {
  const body = table.tBodies[0]!;
  body.replaceChildren();
  const entries = Object.fromEntries(rows.filter((r) => r.entries).map((r) => [r.key, r.entries!]));
  const lines = configTableRows(rows, entries);
  const byKey = new Map(rows.map((r) => [r.key, r]));
  let at = 0;
  for (const row of rows) {
    const cells = lines.slice(at, (at += 1 + (row.entries?.length ?? 0)));
    for (const [key, value, layer, source] of cells) {
      const tr = document.createElement("tr");
      const listKey = key!.replace(/\[\d+\]$/, "");
      tr.dataset.key = key;
      if (key !== listKey) tr.className = "entry";
      if (byKey.get(listKey)?.invalid) tr.classList.add("invalid");
      const keyCell = document.createElement("th");
      keyCell.scope = "row";
      const open = button(key!, "key", { key: listKey });
      open.setAttribute("aria-expanded", String(selected === listKey));
      open.setAttribute("aria-controls", "explain");
      keyCell.append(open);
      if (row.invalid && key === listKey) keyCell.append(span("invalid-mark", "invalid"));
      tr.append(keyCell, cell(value!, "value"), cell(layer!, `layer layer-${layer}`), cell(source!, "source"));
      body.append(tr);
    }
  }
  text.textContent = configTableLines(rows, entries).join("\n");
}

export function cell(text: string, className: string): HTMLTableCellElement {
  const element = document.createElement("td");
  element.className = className;
  element.textContent = text;
  return element;
}
