// The playground page: reads the editor and the simulated layers, asks the wasm core to resolve them, renders the answer.

import wasmBase64 from "virtual:dropkit-wasm";
import { createCore, type Core, type CoreDiagnostic, type ResolveDone, type ResolveRequest } from "../src/core.ts";
import { deriveDecisions, deriveListEntries, type Decision } from "../src/decisions.ts";
import { alignColumns, configTableHeader, configTableRows } from "../src/table.ts";

/** The simulated working directory: the core needs an absolute one, and a short one keeps sources readable. */
const cwd = "/drop";

/** Everything the page shows is a function of these strings, which is also what the URL fragment holds. */
interface State {
  config: string;
  format: string;
  env: string;
  theme: string;
  exclude: string;
  preset: string;
  logFormat: string;
  archives: string;
}

const defaults: State = {
  config: `{
  "schema": 1,
  "theme": "ocean",
  "presets": ["standard"],
  "modules": {
    "exclude": ["legacy-*"]
  },
  "hooks": { "onFailure": "continue" }
}
`,
  format: "auto",
  env: "",
  theme: "",
  exclude: "",
  preset: "",
  logFormat: "",
  archives: ["ocean-theme.zip", "forest-theme.zip", "blog.zip", "shop.zip", "legacy-forum.zip", "test-fixtures.zip"].join("\n"),
};

const stateKeys = Object.keys(defaults) as Array<keyof State>;

/** Typing is debounced; a choice (select, checkbox) runs at once. */
const debounceMs = 120;

function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element as T;
}

const ui = {
  status: byId<HTMLParagraphElement>("status"),
  config: byId<HTMLTextAreaElement>("config"),
  highlight: byId<HTMLDivElement>("highlight"),
  format: byId<HTMLSelectElement>("format"),
  problemsSummary: byId<HTMLParagraphElement>("problems-summary"),
  problems: byId<HTMLUListElement>("problems"),
  env: byId<HTMLTextAreaElement>("env"),
  envNotes: byId<HTMLParagraphElement>("env-notes"),
  theme: byId<HTMLInputElement>("flag-theme"),
  exclude: byId<HTMLInputElement>("flag-exclude"),
  presets: byId<HTMLDivElement>("flag-presets"),
  logFormat: byId<HTMLSelectElement>("flag-log-format"),
  archives: byId<HTMLTextAreaElement>("archives"),
  archivesNotes: byId<HTMLParagraphElement>("archives-notes"),
  selection: byId<HTMLDivElement>("selection"),
  presetsLine: byId<HTMLParagraphElement>("presets-line"),
  table: byId<HTMLTableElement>("resolved"),
  tableWrap: byId<HTMLDivElement>("resolved-wrap"),
  tableDetails: byId<HTMLDetailsElement>("resolved-details"),
  tableEmpty: byId<HTMLParagraphElement>("resolved-empty"),
  tableText: byId<HTMLPreElement>("resolved-text"),
  warningsBlock: byId<HTMLDivElement>("warnings-block"),
  warnings: byId<HTMLUListElement>("warnings"),
  copyLink: byId<HTMLButtonElement>("copy-link"),
};

let core: Core;
let timer: ReturnType<typeof setTimeout> | undefined;
/** The fragment this page last wrote, to tell its own updates from a link pasted into the address bar. */
let writtenHash = "";
let firstRun = true;

void start();

async function start(): Promise<void> {
  performance.mark("dropkit:script-start");
  try {
    core = createCore(await compile(decodeBase64(wasmBase64)));
    performance.mark("dropkit:core-ready");
    renderPresetChoices(core.listPresets().map((p) => p.name));
  } catch (error) {
    ui.status.textContent = `The core could not start: ${(error as Error).message}`;
    ui.status.className = "status bad";
    return;
  }
  applyState(readHash());
  wireEvents();
  run();
}

function wireEvents(): void {
  for (const field of [ui.config, ui.env, ui.theme, ui.exclude, ui.archives]) field.addEventListener("input", schedule);
  for (const field of [ui.format, ui.logFormat]) field.addEventListener("change", run);
  ui.presets.addEventListener("change", run);
  ui.config.addEventListener("scroll", syncScroll);
  ui.problems.addEventListener("click", (event) => {
    const button = (event.target as Element).closest("button");
    if (button?.dataset.offset !== undefined) jumpTo(Number(button.dataset.offset), Number(button.dataset.line), Number(button.dataset.index));
  });
  window.addEventListener("hashchange", () => {
    if (location.hash === writtenHash) return;
    applyState(readHash());
    run();
  });
  ui.copyLink.addEventListener("click", copyLink);
}

function schedule(): void {
  document.body.dataset.state = "pending";
  clearTimeout(timer);
  timer = setTimeout(run, debounceMs);
}

/** Resolves the current inputs and renders the answer. */
function run(): void {
  clearTimeout(timer);
  const state = readState();
  writeHash(state);
  const format = chooseFormat(state);
  const source = `${cwd}/${format === "package.json" ? "package.json" : "dropkit.config.json"}`;
  const env = parseEnv(state.env);
  const names = lines(state.archives);
  const archives = names.filter((n) => n.toLowerCase().endsWith(".zip") && !n.includes("/"));
  const request: ResolveRequest = {
    cwd,
    flags: parseFlags(state),
    env: env.vars,
    // An empty editor is "no config file", which is normal, not a syntax error.
    config: state.config.trim() === "" ? null : { source, format, text: state.config },
    presetFiles: [],
    files: names,
    archives,
  };
  showNotes(ui.envNotes, env.notes);
  showNotes(ui.archivesNotes, names.filter((n) => !archives.includes(n)).map((n) => `${n}: not a .zip in the folder, so only preset detection sees it.`));
  let answer;
  try {
    answer = core.resolveLayers(request);
  } catch (error) {
    // A trap is a bug in the core; the binding drops the instance, so the next keystroke starts afresh.
    setStatus(`The core failed (a bug; please report it): ${(error as Error).message}`, "bad");
    document.body.dataset.state = "ready";
    return;
  }
  if (answer.stage !== "done") {
    setStatus(`Unexpected answer stage "${answer.stage}" (a bug; please report it).`, "bad");
    document.body.dataset.state = "ready";
    return;
  }
  render(answer, source, format);
  document.body.dataset.state = "ready";
  if (firstRun) {
    firstRun = false;
    // The result is in the DOM; the animation frame after it is the one that paints it (bench/playground.ts reads both).
    performance.mark("dropkit:first-validation");
    requestAnimationFrame(() => performance.mark("dropkit:first-validation-frame"));
  }
}

// --- state ---

function readState(): State {
  const checked = [...ui.presets.querySelectorAll<HTMLInputElement>("input:checked")].map((c) => c.value);
  return {
    config: ui.config.value,
    format: ui.format.value,
    env: ui.env.value,
    theme: ui.theme.value,
    exclude: ui.exclude.value,
    preset: checked.join(","),
    logFormat: ui.logFormat.value,
    archives: ui.archives.value,
  };
}

function applyState(state: State): void {
  ui.config.value = state.config;
  ui.format.value = state.format;
  if (ui.format.selectedIndex < 0) ui.format.value = defaults.format;
  ui.env.value = state.env;
  ui.theme.value = state.theme;
  ui.exclude.value = state.exclude;
  const chosen = new Set(state.preset.split(",").filter(Boolean));
  for (const box of ui.presets.querySelectorAll<HTMLInputElement>("input")) box.checked = chosen.has(box.value);
  ui.logFormat.value = state.logFormat;
  if (ui.logFormat.selectedIndex < 0) ui.logFormat.value = "";
  ui.archives.value = state.archives;
}

/** The state from the fragment; a key that is absent keeps its default, so short hand-made links work too. */
function readHash(): State {
  const params = new URLSearchParams(location.hash.slice(1));
  const state = { ...defaults };
  for (const key of stateKeys) {
    const value = params.get(key);
    if (value !== null) state[key] = value;
  }
  return state;
}

function writeHash(state: State): void {
  const hash = "#" + new URLSearchParams(stateKeys.map((k) => [k, state[k]])).toString();
  if (hash === location.hash) return;
  writtenHash = hash;
  try {
    // replaceState: typing should not fill the history with one entry per keystroke.
    history.replaceState(null, "", hash);
  } catch {
    location.replace(hash);
  }
}

async function copyLink(): Promise<void> {
  try {
    await navigator.clipboard.writeText(location.href);
    setCopyNote("Link copied.");
  } catch {
    // The clipboard API needs a secure context and permission; the address bar holds the same link.
    setCopyNote("Copy the address from the address bar: it holds the whole state.");
  }
}

function setCopyNote(text: string): void {
  const note = ui.copyLink.nextElementSibling as HTMLElement;
  note.textContent = text;
}

// --- inputs to request ---

/** `auto`: a top-level `dropkit` key (or a package's `name`/`version`) means a package.json; those are never config keys. */
function chooseFormat(state: State): "json" | "package.json" {
  if (state.format === "json" || state.format === "package.json") return state.format;
  const parsed = core.parseJson(state.config);
  const value = parsed.ok ? parsed.value : undefined;
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    if (["dropkit", "name", "version"].some((k) => Object.hasOwn(value, k))) return "package.json";
  }
  return "json";
}

function parseFlags(state: State): NonNullable<ResolveRequest["flags"]> {
  const flags: NonNullable<ResolveRequest["flags"]> = {};
  // An empty field is a flag not given; `--theme=` with an empty value would be a usage error nobody meant.
  if (state.theme.trim() !== "") flags.theme = state.theme.trim();
  const exclude = state.exclude.split(",").map((s) => s.trim()).filter(Boolean);
  if (exclude.length > 0) flags.exclude = exclude;
  const preset = state.preset.split(",").filter(Boolean);
  if (preset.length > 0) flags.preset = preset;
  if (state.logFormat !== "") flags.logFormat = state.logFormat;
  return flags;
}

/** `NAME=value` lines (an `export ` prefix and one pair of quotes allowed, as in a shell file); only DROPKIT_* are kept. */
function parseEnv(text: string): { vars: Record<string, string>; notes: string[] } {
  const vars: Record<string, string> = {};
  const notes: string[] = [];
  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const line = raw.trim().replace(/^export\s+/, "");
    if (line === "" || line.startsWith("#")) return;
    const eq = line.indexOf("=");
    if (eq <= 0) {
      notes.push(`Line ${i + 1}: expected NAME=value.`);
      return;
    }
    const name = line.slice(0, eq).trim();
    let value = line.slice(eq + 1);
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0])) value = value.slice(1, -1);
    if (!name.startsWith("DROPKIT_")) {
      notes.push(`Line ${i + 1}: ${name} is ignored; dropkit reads only DROPKIT_* variables.`);
      return;
    }
    vars[name] = value;
  });
  return { vars, notes };
}

function lines(text: string): string[] {
  return [...new Set(text.split(/\r\n|\r|\n/).map((l) => l.trim()).filter(Boolean))];
}

// --- rendering ---

function render(answer: ResolveDone, source: string, format: string): void {
  const located = answer.errors.filter((e) => e.file === source && e.offset !== undefined);
  renderHighlight(located);
  renderProblems(answer.errors, source);
  renderSelection(answer);
  renderTable(answer);
  renderWarnings(answer);
  const read = ui.config.value.trim() === "" ? "no config file" : format === "package.json" ? "package.json" : "dropkit.config.json";
  const count = answer.errors.length;
  if (count === 0) setStatus(`Valid (${read}): resolved below.`, "good");
  else setStatus(`${count} problem${count === 1 ? "" : "s"} (${read}).`, "bad");
}

function setStatus(text: string, tone: "good" | "bad"): void {
  ui.status.textContent = text;
  ui.status.className = `status ${tone}`;
}

function renderProblems(errors: CoreDiagnostic[], source: string): void {
  ui.problems.replaceChildren();
  ui.problemsSummary.textContent = errors.length === 0 ? "No problems." : `${errors.length} problem${errors.length === 1 ? "" : "s"}, in the order they appear.`;
  errors.forEach((error, index) => {
    const item = document.createElement("li");
    const inEditor = error.file === source && error.offset !== undefined;
    // Problems in the editor are buttons that move the caret; the others (a flag, a variable) have nowhere to go.
    const body = document.createElement(inEditor ? "button" : "div");
    body.className = "problem";
    if (inEditor) {
      (body as HTMLButtonElement).type = "button";
      body.dataset.offset = String(error.offset);
      body.dataset.line = String(error.line ?? 1);
      body.dataset.index = String(index);
    }
    const where = inEditor ? `${error.line}:${error.column}` : error.source;
    body.append(
      span("name", error.name),
      span("path", error.path === "" ? "(document)" : error.path),
      span("where", where),
      span("message", error.message),
    );
    item.append(body);
    ui.problems.append(item);
  });
}

/** Marks every located problem's span in a layer behind the transparent textarea, aligned character for character. */
function renderHighlight(errors: CoreDiagnostic[]): void {
  const text = ui.config.value;
  const spans = errors
    .map((e, index) => ({ index, start: e.offset!, end: Math.min(text.length, e.offset! + Math.max(1, e.length ?? 1)) }))
    .sort((a, b) => a.start - b.start);
  const parts: Node[] = [];
  let at = 0;
  for (const s of spans) {
    if (s.start < at) continue; // overlapping spans: the first one is marked
    parts.push(document.createTextNode(text.slice(at, s.start)));
    const mark = document.createElement("mark");
    mark.dataset.index = String(s.index);
    // A problem at the very end (an unterminated document) still needs something visible to mark.
    mark.textContent = s.end > s.start ? text.slice(s.start, s.end) : " ";
    parts.push(mark);
    at = Math.max(s.end, s.start);
  }
  // The trailing newline keeps the layer as tall as the textarea when the text ends in one.
  parts.push(document.createTextNode(text.slice(at) + "\n "));
  ui.highlight.replaceChildren(...parts);
  // Reading scrollTop forces a layout; before the first one the textarea is at the top anyway.
  if (!firstRun) syncScroll();
}

function syncScroll(): void {
  ui.highlight.scrollTop = ui.config.scrollTop;
  ui.highlight.scrollLeft = ui.config.scrollLeft;
}

/** Puts the caret at a problem's offset and scrolls its line into view. */
function jumpTo(offset: number, line: number, index: number): void {
  ui.config.focus();
  ui.config.setSelectionRange(offset, offset);
  const lineHeight = parseFloat(getComputedStyle(ui.config).lineHeight) || 20;
  const top = (line - 1) * lineHeight;
  if (top < ui.config.scrollTop || top > ui.config.scrollTop + ui.config.clientHeight - 2 * lineHeight) {
    ui.config.scrollTop = Math.max(0, top - ui.config.clientHeight / 3);
  }
  for (const mark of ui.highlight.querySelectorAll("mark")) mark.classList.toggle("active", mark.dataset.index === String(index));
  syncScroll();
}

function renderSelection(answer: ResolveDone): void {
  const box = ui.selection;
  box.replaceChildren();
  const plan = answer.plan;
  const theme = resolvedDecisions(answer)?.find((d) => d.key === "theme");
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

function renderTable(answer: ResolveDone): void {
  const body = ui.table.tBodies[0]!;
  body.replaceChildren();
  const presets = answer.presets;
  ui.presetsLine.textContent = presets
    ? `Presets (${presets.mode === "auto" ? "auto-detect" : "listed"}): ${presets.applied.map((p) => p.name + (p.glob ? ` (matched ${p.glob})` : "")).join(", ") || "none"}.`
    : "";
  const decisions = resolvedDecisions(answer);
  const resolved = decisions !== undefined;
  ui.tableWrap.hidden = !resolved;
  ui.tableDetails.hidden = !resolved;
  ui.tableEmpty.hidden = resolved;
  if (!decisions) {
    ui.tableEmpty.textContent = "The resolved config appears once every problem above is fixed.";
    ui.tableText.textContent = "";
    return;
  }
  // The same rows as `dropkit config` prints, so the page and the CLI cannot disagree.
  const rows = configTableRows(decisions, deriveListEntries(answer));
  for (const [key, value, layer, source] of rows) {
    const tr = document.createElement("tr");
    tr.dataset.key = key;
    if (key!.endsWith("]")) tr.className = "entry";
    const keyCell = document.createElement("th");
    keyCell.scope = "row";
    keyCell.textContent = key!;
    tr.append(keyCell, cell(value!, "value"), cell(layer!, `layer layer-${layer}`), cell(source!, "source"));
    body.append(tr);
  }
  ui.tableText.textContent = alignColumns([[...configTableHeader], ...rows]).join("\n");
}

/**
 * The decision records, once every input resolved (a theme missing from the drop still shows them); undefined
 * while inputs have problems, although the answer then has what the valid values give (`invalid` marks the rest).
 */
function resolvedDecisions(answer: ResolveDone): Decision[] | undefined {
  if (!answer.config || !answer.errors.every((e) => e.name === "ThemeNotFound")) return undefined;
  return deriveDecisions(answer);
}

function renderWarnings(answer: ResolveDone): void {
  ui.warnings.replaceChildren(...answer.warnings.map((w) => {
    const item = document.createElement("li");
    item.textContent = w.source ? `${w.message} (${w.source})` : w.message;
    return item;
  }));
  ui.warningsBlock.hidden = answer.warnings.length === 0;
}

function renderPresetChoices(names: string[]): void {
  ui.presets.replaceChildren(...names.map((name) => {
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = name;
    box.name = "preset";
    label.append(box, ` ${name}`);
    return label;
  }));
}

function showNotes(element: HTMLElement, notes: string[]): void {
  element.textContent = notes.join(" ");
  element.hidden = notes.length === 0;
}

function span(className: string, text: string): HTMLSpanElement {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  return element;
}

function paragraph(className: string, text: string): HTMLParagraphElement {
  const element = document.createElement("p");
  element.className = className;
  element.textContent = text;
  return element;
}

function cell(text: string, className: string): HTMLTableCellElement {
  const element = document.createElement("td");
  element.className = className;
  element.textContent = text;
  return element;
}

/**
 * Compiles on the main thread when the browser allows it (a few ms for this small module, and no wait for a
 * task), else asynchronously: some browsers cap synchronous compilation by size.
 */
async function compile(bytes: Uint8Array<ArrayBuffer>): Promise<WebAssembly.Module> {
  try {
    return new WebAssembly.Module(bytes);
  } catch (error) {
    if (error instanceof RangeError) return WebAssembly.compile(bytes);
    throw error;
  }
}

/** The inlined module bytes (base64, because the page must not fetch anything). */
function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
