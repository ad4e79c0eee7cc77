// Renders the answer: the problems list with its fixes, the theme and module selection, the resolved table, the warnings.

import { configTableLines, configTableRows } from "../src/output/table.ts";
import type { Fix } from "../src/editor/fixes.ts";
import type { Answer, Row } from "./resolve.ts";
import type { Exit, Note, Problem, Verdict } from "./verdict.ts";

/** A problem as the list shows it, with where the editor has it and the fix, if any. */
export interface ListedProblem {
  problem: Problem;
  /** The problem's span in the editor, when it is in the editor's text. */
  at?: { from: number; to: number; line: number; column: number };
  fix?: Fix;
}

/**
 * Control characters as JSON writes them (`\u0000`), so that a NUL or an escape in a value or a message is read, not
 * drawn as a box or not at all; the line and paragraph separators and the bidi controls too, which would reorder the text.
 */
export function visible(text: string): string {
  return text.replace(
    /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

export function span(className: string, text: string): HTMLSpanElement {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = visible(text);
  return element;
}

export function paragraph(className: string, text: string): HTMLParagraphElement {
  const element = document.createElement("p");
  element.className = className;
  element.textContent = visible(text);
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

/**
 * The problems list: a button per problem in the editor (it moves the caret there), and a fix button beside each
 * safe did-you-mean. A problem only `dropkit create` checks says so.
 */
export function renderProblems(list: HTMLUListElement, summary: HTMLElement, problems: ListedProblem[]): void {
  list.replaceChildren();
  const count = problems.length;
  const createOnly = problems.filter((p) => p.problem.createOnly).length;
  const only =
    createOnly === 0
      ? ""
      : createOnly === count
        ? `; ${count === 1 ? "it is" : "all are"} for create only`
        : `; ${createOnly} for create only`;
  summary.textContent = count === 0 ? "No problems." : `${count} problem${count === 1 ? "" : "s"}, in the order they appear${only}.`;
  problems.forEach(({ problem, at, fix }, index) => {
    const item = document.createElement("li");
    item.dataset.name = problem.name;
    item.dataset.exit = String(problem.exitCode);
    if (problem.createOnly) item.dataset.scope = "create";
    // Problems in the editor are buttons that move the caret; the others (a flag, a variable) have nowhere to go.
    const body = at ? button("", "problem", { index: String(index) }) : document.createElement("div");
    body.className = "problem";
    body.append(
      span("name", problem.name),
      span("path", problem.path === "" ? "(document)" : problem.path),
      span("where", at ? `${at.line}:${at.column}` : problem.source),
      span("message", problem.message),
    );
    // Only create checks it (a theme archive, an empty drop): `dropkit config` exits 0 all the same.
    if (problem.createOnly) body.append(span("scope", "create only"));
    item.append(body);
    if (fix) item.append(button(fix.label, "fix", { fix: String(index) }));
    list.append(item);
  });
}

/** The warnings, each with its fix when the core suggested one; the plan's are create's alone, and the page's own notes are no dropkit output. */
export function renderWarnings(block: HTMLElement, list: HTMLUListElement, warnings: Note[], fixes: Array<Fix | undefined>): void {
  list.replaceChildren(
    ...warnings.map((w, index) => {
      const item = document.createElement("li");
      if (w.code) item.dataset.code = w.code;
      item.append(span("message", w.source ? `${w.message} (${w.source})` : w.message));
      if (w.createOnly) item.append(span("scope", "create only"));
      if (w.page) item.append(span("scope", "the page's note: dropkit prints nothing"));
      const fix = fixes[index];
      if (fix) item.append(button(fix.label, "fix", { warningFix: String(index) }));
      return item;
    }),
  );
  block.hidden = warnings.length === 0;
}

/** `config 0`, `create 66 ThemeNotFound`: what a command would exit with, with the data a test or a script reads. */
function exitSpan(command: string, exit: Exit, text = `${command} ${exit.code}${exit.name ? ` ${exit.name}` : ""}`): HTMLSpanElement {
  const element = span(`exit ${exit.code === 0 ? "good" : "bad"}`, text);
  element.dataset.command = command;
  element.dataset.code = String(exit.code);
  if (exit.name) element.dataset.name = exit.name;
  return element;
}

/**
 * The verdict: valid or how many problems, the file the text was judged as, and what `dropkit config` and `dropkit
 * create` would each exit with on the simulated folder: `1 problem, for create only (dropkit.config.json): config 0 · create 66 ThemeNotFound.`
 */
export function renderStatus(status: HTMLElement, v: Verdict, note: string, warn: boolean): void {
  const count = v.problems.length;
  const createOnly = v.problems.every((p) => p.createOnly);
  const head = count === 0 ? "Valid" : `${count} problem${count === 1 ? "" : "s"}${createOnly ? ", for create only" : ""}`;
  const file = v.file === null ? "no config file" : v.read ? v.file : `${v.file}, not read: no "dropkit" key`;
  const { config, create } = v.exit;
  // The same failure for both (a config's own problem stops create first): said once, so the line stays short on a phone.
  const same = config.code !== 0 && config.code === create.code && config.name === create.name;
  const exits = same
    ? [exitSpan("config", config, "config and"), " ", exitSpan("create", create)]
    : [exitSpan("config", config), " · ", exitSpan("create", create)];
  status.replaceChildren(`${note}${head} (${file}): `, ...exits, ".");
  status.dataset.file = v.file === null || !v.read ? "" : v.file;
  status.className = `status ${!warn && v.exit.create.code === 0 && v.exit.config.code === 0 ? "good" : "bad"}`;
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
  themeLine.append(
    span("label", "Theme"),
    span("value", chosen ?? "(none)"),
    span("origin", `theme = ${String(theme.value)} from ${theme.layer}, ${theme.source}`),
  );
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

/** How many entries of a union list the table and the explain view show at first, and how many more each "Show more" adds. */
export const entriesShown = 50;
export const entriesMore = 500;

/**
 * The resolved table, the rows `dropkit config` prints (the same function builds them). Each key is a
 * button that opens the explain view; a key with a problem is marked, with what still resolved. A union
 * list shows its first `shown(key)` entries and a button for the rest: a 30,000-entry list costs one row
 * per entry shown, never one per entry.
 */
export function renderTable(table: HTMLTableElement, rows: Row[], selected: string | undefined, shown: (key: string) => number): void {
  const body = table.tBodies[0]!;
  body.replaceChildren();
  for (const row of rows) {
    const limit = Math.min(row.entries?.length ?? 0, shown(row.key));
    const entries = row.entries?.slice(0, limit);
    const lines = configTableRows([row], entries ? { [row.key]: entries } : undefined);
    for (const [key, value, layer, source] of lines) {
      const tr = document.createElement("tr");
      tr.dataset.key = key;
      if (key !== row.key) tr.className = "entry";
      if (row.invalid) tr.classList.add("invalid");
      const keyCell = document.createElement("th");
      keyCell.scope = "row";
      const open = button(key!, "key", { key: row.key });
      open.setAttribute("aria-expanded", String(selected === row.key));
      open.setAttribute("aria-controls", "explain");
      keyCell.append(open);
      if (row.invalid && key === row.key) keyCell.append(span("invalid-mark", "invalid"));
      // A long list's own row names its size; its entries follow, each with its origin.
      const shownValue =
        key === row.key && row.entries && row.entries.length > entriesShown ? `${row.entries.length.toLocaleString("en")} entries` : value!;
      tr.append(keyCell, cell(shownValue, "value"), cell(layer!, `layer layer-${layer}`), cell(source!, "source"));
      body.append(tr);
    }
    const hidden = (row.entries?.length ?? 0) - limit;
    if (hidden > 0) body.append(moreRow(row.key, hidden, 4));
  }
}

/** The row under a shortened list: how many entries are not shown, and a button that shows more of them. */
export function moreRow(key: string, hidden: number, columns: number): HTMLTableRowElement {
  const tr = document.createElement("tr");
  tr.className = "more";
  const td = document.createElement("td");
  td.colSpan = columns;
  const count = hidden.toLocaleString("en");
  td.append(
    button(hidden > entriesMore ? `Show ${entriesMore} more of ${count} hidden entries` : `Show the other ${count}`, "more", { more: key }),
  );
  tr.append(td);
  return tr;
}

/** The table as `dropkit config` prints it, made only when someone opens it (its text grows with every entry). */
export function renderTableText(text: HTMLElement, rows: Row[]): void {
  const entries = Object.fromEntries(rows.filter((r) => r.entries).map((r) => [r.key, r.entries!]));
  text.textContent = configTableLines(rows, entries).join("\n");
}

export function cell(text: string, className: string): HTMLTableCellElement {
  const element = document.createElement("td");
  element.className = className;
  element.textContent = visible(text);
  return element;
}
