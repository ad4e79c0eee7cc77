// The playground page: reads the editor and the simulated layers, asks the wasm core to resolve them, renders the answer.

import type { EditorView } from "@codemirror/view";
import wasmDeflated from "virtual:dropkit-wasm";
import { configCompletions } from "./complete.ts";
import { createEditor, replaceText } from "./editor.ts";
import { exampleInputs, examples } from "./examples.ts";
import { renderExplain } from "./explain.ts";
import { applyToEnv, type Fix, fixFor, locate } from "./fixes.ts";
import { configHover } from "./hover.ts";
import { type ProblemMark, showProblems } from "./marks.ts";
import { cwd, inFolder, lines, parseEnv, parseFlags } from "./layers.ts";
import { applyInputs, presetChoice, presetNames, readInputs, showNotes, themesAndModules } from "./form.ts";
import { addPresetFile, readPresetFiles, renderPresetFiles } from "./presetfiles.ts";
import {
  entriesMore,
  entriesShown,
  renderProblems,
  renderSelection,
  renderTable,
  renderTableText,
  renderWarnings,
  type ListedProblem,
} from "./render.ts";
import { type Answer, resolveInputs } from "./resolve.ts";
import { setUpScheme } from "./scheme.ts";
import { decodeFragment, defaults, encodeFragment, type PageInputs } from "./pageinputs.ts";
import { looksLikePackageJson } from "./packagejson.ts";
import { copyText, exportConfig, formatConfig } from "./tools.ts";
import { byId, ui } from "./ui.ts";
import { openPageCore, type PageCore } from "./wasm.ts";

let core: PageCore;
let editor: EditorView;
let timer: ReturnType<typeof setTimeout> | undefined;
/** The pending write of the address, and how long typing must pause before it (ms). */
let hashTimer: ReturnType<typeof setTimeout> | undefined;
const hashPause = 800;
/** What the last run took (ms): the next pause before a run scales with it. */
let lastRunCost = 0;
/** The fragment this page last wrote, to tell its own updates from a link pasted into the address bar. */
let writtenHash = "";
let firstRun = true;
/** The latest answer and what the page made of it: completion, hover and the fix buttons read them. */
let answer: Answer = { ok: true, errors: [], warnings: [], rows: [], partial: false };
/**
 * The answer the result shows: the latest, or while the config does not parse (a moment mid-typing), the last one
 * whose config did, marked stale, so that the table does not flip to the defaults and back with each keystroke.
 */
let resolved: Answer = answer;
let stale = false;
let listed: ListedProblem[] = [];
let warningFixes: Array<Fix | undefined> = [];
let packageJson = false;
/** The key the explain view shows. */
let explained: string | undefined;
/** How many entries of each union list the table and the explain view show (more on request). */
const shownEntries = new Map<string, number>();
const shown = (key: string) => shownEntries.get(key) ?? entriesShown;
/** Said once, with the next answer's status: a link that could not be read. */
let linkNote = "";

void start();

async function start(): Promise<void> {
  performance.mark("dropkit:script-start");
  keepOffline();
  setUpScheme(byId("scheme"));
  // The core inflates and compiles off the main thread while the editor is made.
  const opening = openPageCore(wasmDeflated);
  opening.catch(() => undefined);
  const state = await readLink();
  for (const example of examples) ui.examples.add(new Option(example.title, example.id));
  editor = createEditor({
    parent: ui.editor,
    doc: state.config,
    label: "Config",
    onChange: schedule,
    complete: configCompletions(() => ({ packageJson, presetNames: presetNames(), ...themesAndModules() })),
    hover: configHover(() => ({ packageJson, rows: resolved.rows })),
  });
  try {
    core = await opening;
    performance.mark("dropkit:core-ready");
  } catch (error) {
    setStatus(`The core could not start: ${(error as Error).message}`, "bad");
    return;
  }
  ui.presets.append(...core.listPresets().map((p) => presetChoice(p.name)));
  applyInputs(editor, state);
  wireEvents();
  run();
}

function wireEvents(): void {
  for (const field of [ui.env, ui.theme, ui.exclude, ui.archives, ui.presetFiles]) field.addEventListener("input", schedule);
  for (const field of [ui.format, ui.logFormat, ui.presets]) field.addEventListener("change", run);
  byId("config-label").addEventListener("click", () => editor.focus());
  ui.problems.addEventListener("click", (event) => {
    const target = (event.target as Element).closest("button");
    if (target?.dataset.fix !== undefined) applyFix(listed[Number(target.dataset.fix)]?.fix);
    else if (target?.dataset.index !== undefined) jumpTo(listed[Number(target.dataset.index)]!);
  });
  ui.warnings.addEventListener("click", (event) => {
    const target = (event.target as Element).closest("button");
    if (target?.dataset.warningFix !== undefined) applyFix(warningFixes[Number(target.dataset.warningFix)]);
  });
  ui.table.addEventListener("click", (event) => {
    const target = (event.target as Element).closest("button");
    if (target?.dataset.more !== undefined) return showMore(target.dataset.more);
    const key = target?.dataset.key;
    if (key === undefined) return;
    if (explained === key) return closeExplain();
    explain(key);
    // The view is a region of its own: it comes into sight and takes the focus, so the keyboard is where the eyes are.
    ui.explain.section.scrollIntoView({ block: "nearest" });
    ui.explain.heading.focus({ preventScroll: true });
  });
  ui.explain.section.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    closeExplain();
  });
  ui.explain.body.addEventListener("click", (event) => {
    const more = (event.target as Element).closest("button")?.dataset.more;
    if (more !== undefined) showMore(more);
  });
  ui.tableDetails.addEventListener("toggle", () => {
    if (ui.tableDetails.open) renderTableText(ui.tableText, resolved.rows);
  });
  byId("explain-close").addEventListener("click", closeExplain);
  ui.presetFiles.addEventListener("click", (event) => {
    const remove = (event.target as Element).closest("button[data-remove]");
    if (!remove) return;
    const files = readPresetFiles(ui.presetFiles);
    files.splice([...ui.presetFiles.children].indexOf(remove.parentElement!), 1);
    renderPresetFiles(ui.presetFiles, files);
    run();
  });
  byId("add-preset-file").addEventListener("click", () => {
    addPresetFile(ui.presetFiles);
    run();
  });
  ui.examples.addEventListener("change", () => {
    const example = examples.find((e) => e.id === ui.examples.value);
    if (!example) return;
    loadInputs(exampleInputs(example));
  });
  byId("format-text").addEventListener("click", () => {
    const formatted = formatConfig(core, editor.state.doc.toString());
    if (typeof formatted === "string") replaceText(editor, formatted);
    else setStatus(`Not formatted: ${formatted.error}`, "bad");
    editor.focus();
  });
  byId("export-ts").addEventListener(
    "click",
    () => void exportConfig(core, editor.state.doc.toString(), packageJson, "ts", answer.errors.length),
  );
  byId("export-package").addEventListener(
    "click",
    () => void exportConfig(core, editor.state.doc.toString(), packageJson, "package.json", answer.errors.length),
  );
  byId("copy-link").addEventListener("click", async () => {
    // The state as it is now, typing included that the address does not hold yet.
    const link = location.href.replace(/#.*$/, "") + (await encodeFragment(readInputs(editor)));
    ui.shareNote.textContent = (await copyText(link)) ? "Link copied." : "Copy the address from the address bar: it holds the whole state.";
  });
  // The address is written when typing pauses; leaving the page must not lose the last edits.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden" && hashTimer !== undefined) void writeHash();
  });
  window.addEventListener("hashchange", async () => {
    if (location.hash === writtenHash) return;
    loadInputs(await readLink());
  });
}

/**
 * Runs once the input pauses. The pause is twice what the last run cost, within 20–120 ms: a small document answers
 * almost at once, and while one types into a large one at most a third of the main thread goes to resolving.
 */
function schedule(): void {
  document.body.dataset.state = "pending";
  clearTimeout(timer);
  timer = setTimeout(run, Math.min(120, Math.max(20, 2 * lastRunCost)));
}

/** Resolves the current inputs and renders the answer. */
function run(): void {
  const started = performance.now();
  try {
    resolveAndRender();
  } finally {
    lastRunCost = performance.now() - started;
  }
}

function resolveAndRender(): void {
  clearTimeout(timer);
  // Typing while the core still compiles: its first run, right after, reads the text as it is then.
  if (!core) return;
  const state = readInputs(editor);
  scheduleHash();
  packageJson = isPackageJson(state);
  const source = `${cwd}/${packageJson ? "package.json" : "dropkit.config.json"}`;
  const env = parseEnv(state.env);
  const names = lines(state.archives);
  const archives = names.filter((n) => n.toLowerCase().endsWith(".zip") && !n.includes("/"));
  const presetFiles = state.presetFiles.filter((f) => f.path !== "").map((f) => ({ path: inFolder(f.path), text: f.text }));
  showNotes(ui.envNotes, env.notes);
  showNotes(
    ui.archivesNotes,
    names.filter((n) => !archives.includes(n)).map((n) => `${n}: not a .zip in the folder, so only preset detection sees it.`),
  );
  try {
    answer = resolveInputs(core, {
      cwd,
      flags: parseFlags(state),
      env: env.vars,
      // An empty editor is "no config file", which is normal, not a syntax error.
      config: state.config.trim() === "" ? null : { source, format: packageJson ? "package.json" : "json", text: state.config },
      presetFiles,
      files: [...names, ...presetFiles.map((f) => f.path.slice(cwd.length + 1))],
      archives,
      explain: explained !== undefined,
    });
  } catch (error) {
    // A trap is a bug in the core; the binding drops the instance, so the next keystroke starts afresh.
    setStatus(`The core failed (a bug; please report it): ${(error as Error).message}`, "bad");
    document.body.dataset.state = "ready";
    return;
  }
  render(source, state);
  document.body.dataset.state = "ready";
  if (firstRun) {
    firstRun = false;
    // The result is in the DOM; the animation frame after it is the one that paints it (bench/playground.ts reads both).
    performance.mark("dropkit:first-validation");
    requestAnimationFrame(() => performance.mark("dropkit:first-validation-frame"));
  }
}

function render(source: string, state: PageInputs): void {
  const textOf = (file: string) => (file === source ? state.config : state.presetFiles.find((f) => inFolder(f.path) === file)?.text);
  listed = answer.errors.map((problem) => {
    const span = locate(problem, textOf);
    const fix = fixFor(problem, textOf);
    if (!span || span.file !== source) return { problem, ...(fix ? { fix } : {}) };
    const line = editor.state.doc.lineAt(span.from);
    return { problem, at: { from: span.from, to: span.to, line: line.number, column: span.from - line.from + 1 }, ...(fix ? { fix } : {}) };
  });
  const setVariables = new Set(Object.keys(parseEnv(state.env).vars));
  // In the order they appear in the text (the core reports schema problems after syntax ones); the others after.
  listed.sort((a, b) => (a.at?.from ?? Infinity) - (b.at?.from ?? Infinity));
  warningFixes = answer.warnings.map((w) => fixFor(w, textOf, setVariables));
  renderProblems(ui.problems, ui.problemsSummary, listed);
  showProblems(
    editor,
    listed.filter((p) => p.at).map((p) => mark(p)),
  );
  const unparsed = answer.errors.some((e) => e.name === "ConfigSyntaxError" && e.file === source);
  stale = unparsed && resolved.rows.length > 0;
  if (!stale) resolved = answer;
  renderSelection(ui.selection, resolved);
  renderResolved();
  renderWarnings(ui.warningsBlock, ui.warnings, answer.warnings, warningFixes);
  const read = state.config.trim() === "" ? "no config file" : packageJson ? "package.json" : "dropkit.config.json";
  const count = answer.errors.length;
  if (count === 0) setStatus(`${linkNote}Valid (${read}): resolved below.`, linkNote ? "bad" : "good");
  else setStatus(`${linkNote}${count} problem${count === 1 ? "" : "s"} (${read}).`, "bad");
  linkNote = "";
}

function renderResolved(): void {
  const presets = resolved.presets;
  ui.presetsLine.textContent = presets
    ? `Presets (${presets.mode === "auto" ? "auto-detect" : "listed"}): ${presets.applied.map((p) => p.name + (p.glob ? ` (matched ${p.glob})` : "")).join(", ") || "none"}.`
    : "";
  const any = resolved.rows.length > 0;
  ui.tableWrap.hidden = ui.tableDetails.hidden = !any;
  ui.tableEmpty.hidden = any;
  ui.tableEmpty.textContent = "Nothing resolves until the problems above are fixed.";
  ui.tableNote.hidden = !resolved.partial && !stale;
  ui.tableNote.textContent = stale
    ? "Stale: the config does not parse right now (see Problems); this is the last result of a config that did."
    : "Partial: with the problems above, this is what applies meanwhile; the keys marked invalid have a problem of their own.";
  document.body.classList.toggle("stale", stale);
  if (explained !== undefined && !resolved.rows.some((r) => r.key === explained)) explained = undefined;
  renderTable(ui.table, resolved.rows, explained, shown);
  // The text form is made when it is open: closed, it would cost a line per entry on every run for nobody.
  if (ui.tableDetails.open) renderTableText(ui.tableText, resolved.rows);
  else ui.tableText.textContent = "";
  renderExplain(ui.explain, resolved, explained, shown);
}

/** Opens the explain view on a key (the answer then needs the override chains), or closes it. */
function explain(key: string | undefined): void {
  explained = key;
  if (key !== undefined && !resolved.explain && !stale) run();
  else renderResolved();
}

/** Closes the explain view and gives the focus back to the key it explained. */
function closeExplain(): void {
  const key = explained;
  explain(undefined);
  if (key !== undefined) ui.table.querySelector<HTMLButtonElement>(`button[data-key="${CSS.escape(key)}"]`)?.focus();
}

/** Shows the next entries of a long list; the focus stays on its "Show more" button, or on the list's key once all show. */
function showMore(key: string): void {
  const inExplain = ui.explain.body.contains(document.activeElement);
  shownEntries.set(key, shown(key) + entriesMore);
  renderResolved();
  const scope = inExplain ? ui.explain.body : ui.table;
  const selector = `button[data-more="${CSS.escape(key)}"]`;
  (
    scope.querySelector<HTMLButtonElement>(selector) ?? ui.table.querySelector<HTMLButtonElement>(`button[data-key="${CSS.escape(key)}"]`)
  )?.focus();
}

function mark({ problem, at, fix }: ListedProblem): ProblemMark {
  return {
    from: at!.from,
    to: at!.to,
    message: `${problem.name}: ${problem.message}`,
    ...(fix ? { fix: { label: fix.label, apply: () => applyFix(fix) } } : {}),
  };
}

/** Applies a fix to the input it is about, unless that input changed since the answer (then the answer is renewed). */
function applyFix(fix: Fix | undefined): void {
  if (!fix) return;
  const edit = fix.edit;
  if (edit.target === "text") {
    const files = readPresetFiles(ui.presetFiles);
    const file = files.find((f) => inFolder(f.path) === edit.file);
    const current = file ? file.text : editor.state.doc.toString();
    if (current.slice(edit.from, edit.to) !== edit.expect) {
      run();
      return;
    }
    if (file) {
      file.text = current.slice(0, edit.from) + edit.insert + current.slice(edit.to);
      renderPresetFiles(ui.presetFiles, files);
    } else {
      editor.dispatch({
        changes: { from: edit.from, to: edit.to, insert: edit.insert },
        selection: { anchor: edit.from + edit.insert.length },
      });
      editor.focus();
    }
  } else if (edit.target === "env") {
    ui.env.value = applyToEnv(ui.env.value, edit);
  } else if (edit.flag === "--theme") {
    ui.theme.value = edit.value;
  } else {
    ui.logFormat.value = edit.value;
  }
  run();
}

function jumpTo({ at }: ListedProblem): void {
  editor.dispatch({ selection: { anchor: at!.from, head: at!.to }, scrollIntoView: true });
  editor.focus();
}

// --- state ---

function loadInputs(state: PageInputs): void {
  // A loaded state is a new start: nothing of the previous one is shown as its stale result.
  resolved = { ok: true, errors: [], warnings: [], rows: [], partial: false };
  applyInputs(editor, state);
  run();
}

/** The state of the address's fragment; a damaged link says so and opens the defaults. */
async function readLink(): Promise<PageInputs> {
  try {
    return await decodeFragment(location.hash);
  } catch {
    linkNote = "This link is damaged (it does not decompress), so the page opened with its defaults. ";
    return { ...defaults };
  }
}

/**
 * The address is written when typing pauses, not on every run: compressing a large document on each keystroke
 * would cost more than resolving it. Leaving the page (or hiding it) writes it at once.
 */
function scheduleHash(): void {
  clearTimeout(hashTimer);
  hashTimer = setTimeout(() => void writeHash(), hashPause);
}

async function writeHash(): Promise<void> {
  clearTimeout(hashTimer);
  hashTimer = undefined;
  const state = readInputs(editor);
  const hash = await encodeFragment(state);
  // Only the latest state's fragment is written; an older one finishing late must not win.
  if (hash === location.hash || hashTimer !== undefined) return;
  writtenHash = hash;
  // replaceState: typing should not fill the history with one entry per keystroke.
  history.replaceState(null, "", hash);
}

// --- inputs ---

/** `auto`: a top-level `dropkit` key (or a package's `name`/`version`) means a package.json; those are never config keys. */
function isPackageJson(state: PageInputs): boolean {
  if (state.format !== "auto") return state.format === "package.json";
  return looksLikePackageJson(state.config);
}

/** A hosted page registers its offline worker (sw.js); a saved file (file://) works offline as it is. */
function keepOffline(): void {
  if (location.protocol === "file:" || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("./sw.js").catch(() => undefined);
}

function setStatus(text: string, tone: "good" | "bad"): void {
  ui.status.textContent = text;
  ui.status.className = `status ${tone}`;
}
