// The playground page: reads the editor and the simulated layers, judges them as the CLI would (playground/verdict.ts), renders the answer.

import type { EditorView } from "@codemirror/view";
import wasmDeflated from "virtual:dropkit-wasm";
import { candidatesFor, type Fix, isSafe, locate, offsetOf } from "../src/editor/fixes.ts";
import { valueEnd } from "../src/editor/jsontext.ts";
import { type Overridden, overriddenValues } from "../src/editor/overrides.ts";
import { applyToState, fixKey, offered, textsOf, tried } from "./apply.ts";
import { addLater, changeText, createEditor } from "./editor.ts";
import { applyInputs, completionFacts, presetChoice, readInputs, showNotes } from "./form.ts";
import { inFolder, parseEnv, parseFlags } from "./layers.ts";
import type * as Later from "./later.ts";
import { type OverrideMark, type ProblemMark, showMarks } from "./marks.ts";
import { decodeFragment, defaults, encodeFragment, type PageInputs } from "./pageinputs.ts";
import { addPresetFile, readPresetFiles, renderPresetFiles, showPresetFileNotes } from "./presetfiles.ts";
import {
  entriesMore,
  entriesShown,
  type ListedProblem,
  renderProblems,
  renderSelection,
  renderStatus,
  renderTable,
  renderTableText,
  renderWarnings,
} from "./render.ts";
import type { Answer } from "./resolve.ts";
import { setUpScheme } from "./scheme.ts";
// copyText alone: the rest of tools.ts (Format, Export) is the later part's, and the bundle keeps only what is imported.
import { copyText } from "./tools.ts";
import { byId, ui } from "./ui.ts";
import { fileBytes, judge, type Verdict } from "./verdict.ts";
import { openPageCore, type PageCore } from "./wasm.ts";
import { loadLater } from "virtual:dropkit-later";

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
/** The latest verdict, and the inputs it judged: completion, hover and the fix buttons read them. */
let verdict: Verdict | undefined;
const noAnswer: Answer = { ok: true, errors: [], warnings: [], rows: [], partial: false };
/**
 * The answer the result shows: the latest, or while the config does not parse (a moment mid-typing), the last one
 * whose config did, marked stale, so that the table does not flip to the defaults and back with each keystroke.
 */
let resolved: Answer = noAnswer;
let stale = false;
let listed: ListedProblem[] = [];
let warningFixes: Array<Fix | undefined> = [];
/** The key the explain view shows. */
let explained: string | undefined;
/** How many entries of each union list the table and the explain view show (more on request). */
const shownEntries = new Map<string, number>();
const shown = (key: string) => shownEntries.get(key) ?? entriesShown;
/** Said once, with the next answer's status: a link that could not be read. */
let linkNote = "";
/** Said once, with the next answer's status: what a fix did, or why it was not applied. */
let fixNote = "";
/** The part loaded after the first result (completion, hover, explain, Format, Export, the examples), once it is here. */
let later: typeof Later | undefined;
let laterReady: Promise<typeof Later> | undefined;
/**
 * How many bytes of config and preset text a run may re-judge to try its fixes before offering them (a run of the core
 * per fix, on the whole text): a few fixes on a small file all are; past it (a large file, or hundreds of problems),
 * a fix is tried when it is pressed, so that typing stays fast.
 */
const verifyBudgetBytes = 2 * 1024 * 1024;
/** Fixes found unsafe when pressed (large inputs): not offered again, so that the next candidate (a removal) is. */
const rejected = new Set<string>();

void start();

async function start(): Promise<void> {
  performance.mark("dropkit:script-start");
  setUpScheme(byId("scheme"));
  // The core inflates and compiles off the main thread while the editor is made.
  const opening = openPageCore(wasmDeflated);
  opening.catch(() => undefined);
  const state = await readLink();
  editor = createEditor({ parent: ui.editor, doc: state.config, label: "Config", onChange: schedule });
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

/**
 * The part of the page that the first result does not need, loaded once it is shown; its pieces join the page as it
 * comes. Undefined when it could not be loaded (a hosted page offline before its worker kept it): the page says so,
 * and the next use tries again.
 */
async function needLater(): Promise<typeof Later | undefined> {
  laterReady ??= loadLater().then((module) => {
    later = module;
    const packageJson = () => verdict?.file === "package.json";
    addLater(
      editor,
      module.editorExtensions(
        () => completionFacts(packageJson()),
        () => ({ packageJson: packageJson(), rows: resolved.rows }),
      ),
    );
    for (const example of module.examples) ui.examples.add(new Option(example.title, example.id));
    if (explained !== undefined) renderResolved();
    return module;
  });
  try {
    return await laterReady;
  } catch (error) {
    laterReady = undefined;
    setStatus(`Completion, Explain, Format, Export and the examples could not be loaded: ${(error as Error).message}.`, "bad");
    return undefined;
  }
}

function wireEvents(): void {
  for (const field of [ui.env, ui.theme, ui.exclude, ui.archives, ui.presetFiles]) field.addEventListener("input", schedule);
  for (const field of [ui.format, ui.logFormat, ui.presets]) field.addEventListener("change", run);
  byId("config-label").addEventListener("click", () => editor.focus());
  ui.problems.addEventListener("click", (event) => {
    const target = (event.target as Element).closest("button");
    if (target?.dataset.fix !== undefined) applyFix(listed[Number(target.dataset.fix)]?.fix, true);
    else if (target?.dataset.index !== undefined) jumpTo(listed[Number(target.dataset.index)]!);
  });
  ui.fixAll.addEventListener("click", applyAllFixes);
  ui.warnings.addEventListener("click", (event) => {
    const target = (event.target as Element).closest("button");
    if (target?.dataset.warningFix !== undefined) applyFix(warningFixes[Number(target.dataset.warningFix)], false);
  });
  ui.table.addEventListener("click", (event) => {
    const target = (event.target as Element).closest("button");
    if (target?.dataset.more !== undefined) return showMore(target.dataset.more);
    const key = target?.dataset.key;
    if (key === undefined) return;
    if (explained === key) return closeExplain();
    void explain(key).then(() => {
      // The view is a region of its own: it comes into sight and takes the focus, so the keyboard is where the eyes are.
      ui.explain.section.scrollIntoView({ block: "nearest" });
      ui.explain.heading.focus({ preventScroll: true });
    });
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
  ui.examples.addEventListener("change", async () => {
    const module = await needLater();
    const example = module?.examples.find((e) => e.id === ui.examples.value);
    if (!example) return;
    loadInputs(module!.exampleInputs(example));
  });
  byId("format-text").addEventListener("click", async () => {
    const module = await needLater();
    if (!module) return;
    const formatted = module.formatConfig(core, editor.state.doc.toString());
    if (typeof formatted === "string") changeText(editor, formatted);
    else setStatus(`Not formatted: ${formatted.error}`, "bad");
    editor.focus();
  });
  for (const [id, form] of [
    ["export-ts", "ts"],
    ["export-package", "package.json"],
  ] as const) {
    byId(id).addEventListener("click", async () => {
      const module = await needLater();
      await module?.exportConfig(core, editor.state.doc.toString(), verdict?.file === "package.json", form, verdict?.problems.length ?? 0);
    });
  }
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

/** Judges the current inputs and renders the answer. */
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
  try {
    // The layers above a file are what override its values: only then are the override chains worth asking for.
    verdict = judge(core, state, { explain: explained !== undefined || higherLayers(state) || state.presetFiles.length > 0 });
  } catch (error) {
    // A trap is a bug in the core; the binding drops the instance, so the next keystroke starts afresh.
    setStatus(`The core failed (a bug; please report it): ${(error as Error).message}`, "bad");
    document.body.dataset.state = "ready";
    return;
  }
  render(verdict, state);
  document.body.dataset.state = "ready";
  if (firstRun) {
    firstRun = false;
    // The result is in the DOM; the animation frame after it is the one that paints it (bench/playground.ts reads both).
    performance.mark("dropkit:first-validation");
    requestAnimationFrame(() => {
      performance.mark("dropkit:first-validation-frame");
      // What the first result did not need comes after it: the rest of the page, then the offline worker.
      setTimeout(() => {
        void needLater();
        keepOffline();
      });
    });
  }
}

/** Whether a variable or a flag is set: the layers that can override what the editor's config file sets. */
function higherLayers(state: PageInputs): boolean {
  return Object.keys(parseEnv(state.env).vars).length > 0 || Object.keys(parseFlags(state)).length > 0;
}

function render(v: Verdict, state: PageInputs): void {
  showNotes(ui.envNotes, v.envNotes);
  showNotes(ui.archivesNotes, v.archiveNotes);
  const textOf = textsOf(state, v.source);
  const setVariables = new Set(Object.keys(parseEnv(state.env).vars));
  const inputBytes = v.bytes + state.presetFiles.reduce((sum, f) => sum + f.text.length, 0);
  let budget = inputBytes <= verifyBudgetBytes / 8 ? verifyBudgetBytes : 0;
  const verify = () => (budget -= inputBytes) >= 0;
  listed = v.problems.map((problem) => {
    const span = locate(problem, textOf);
    const fix = offered(core, candidatesFor(problem, textOf), v, state, true, verify, rejected);
    if (!span || span.file !== v.source || !v.read) return { problem, ...(fix ? { fix } : {}) };
    const line = editor.state.doc.lineAt(Math.min(span.from, editor.state.doc.length));
    return { problem, at: { from: span.from, to: span.to, line: line.number, column: span.from - line.from + 1 }, ...(fix ? { fix } : {}) };
  });
  // In the order they appear in the text (the core reports schema problems after syntax ones); the others after.
  listed.sort((a, b) => (a.at?.from ?? Infinity) - (b.at?.from ?? Infinity));
  warningFixes = v.warnings.map((w) => offered(core, candidatesFor(w, textOf, setVariables), v, state, false, verify, rejected));
  renderProblems(ui.problems, ui.problemsSummary, listed);
  const fixable = listed.filter((p) => p.fix).length;
  ui.fixAll.hidden = fixable < 2;
  ui.fixAll.textContent = `Apply all ${fixable} fixes`;
  const overrides = overriddenValues(v.answer.explain, parseEnv(state.env).vars);
  showMarks(
    editor,
    listed.filter((p) => p.at).map((p) => mark(p)),
    overrideMarks(v, state, overrides),
  );
  showPresetFileNotes(ui.presetFiles, (path) =>
    overrides.filter((o) => o.file === inFolder(path)).map((o) => `${o.key} (line ${o.line}, column ${o.column}): ${o.message}`),
  );
  const unparsed = v.problems.some((e) => e.name === "ConfigSyntaxError" && e.file === v.source);
  stale = unparsed && resolved.rows.length > 0;
  if (!stale) resolved = v.answer;
  renderSelection(ui.selection, resolved);
  renderResolved();
  renderWarnings(ui.warningsBlock, ui.warnings, v.warnings, warningFixes);
  renderStatus(ui.status, v, linkNote + fixNote, linkNote !== "");
  linkNote = fixNote = "";
}

/** The values of the editor's text that a higher layer overrides, each marked where it is written. */
function overrideMarks(v: Verdict, state: PageInputs, all: Overridden[]): OverrideMark[] {
  if (!v.read) return [];
  return all.flatMap(({ key, file, line, column, message }) => {
    if (file !== v.source) return [];
    const from = offsetOf(state.config, line, column);
    const to = from === undefined ? undefined : valueEnd(state.config, from);
    return from === undefined || to === undefined ? [] : [{ from, to, message: `${key}: ${message}` }];
  });
}

function renderResolved(): void {
  const presets = resolved.presets;
  ui.presetsLine.textContent = presets
    ? `Presets (${presets.mode === "auto" ? "auto-detect" : "listed"}): ` +
      `${presets.applied.map((p) => p.name + (p.glob ? ` (matched ${p.glob})` : "")).join(", ") || "none"}.`
    : "";
  const any = resolved.rows.length > 0;
  ui.tableWrap.hidden = ui.tableDetails.hidden = !any;
  ui.tableEmpty.hidden = any;
  ui.tableEmpty.textContent = verdict?.tooLarge
    ? `Nothing resolves: dropkit refuses a config file over ${fileBytes / 1024 / 1024} MiB before reading it (see Problems).`
    : "Nothing resolves until the problems above are fixed.";
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
  if (later) later.renderExplain(ui.explain, resolved, explained, shown);
  else ui.explain.section.hidden = true;
}

/** Opens the explain view on a key (the answer then needs the override chains), or closes it. */
async function explain(key: string | undefined): Promise<void> {
  if (key !== undefined && !(await needLater())) return;
  explained = key;
  if (key !== undefined && !resolved.explain && !stale) run();
  else renderResolved();
}

/** Closes the explain view and gives the focus back to the key it explained. */
function closeExplain(): void {
  const key = explained;
  void explain(undefined);
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
    ...(fix ? { fix: { label: fix.label, apply: () => applyFix(fix, true) } } : {}),
  };
}

/**
 * Applies a fix to the input it is about, when it still applies (the input has not changed since) and is safe; the
 * focus goes to the input it changed, as the button it was pressed on is gone with the problem.
 */
function applyFix(fix: Fix | undefined, fixesProblem: boolean): void {
  if (!fix || !verdict) return;
  const state = readInputs(editor);
  const applied = applyToState(state, fix, verdict.source);
  if (!applied) {
    run();
    return;
  }
  // Large inputs: the fix is tried now, not when it was offered.
  if (!isSafe(verdict, judge(core, applied, { explain: false }), fix, fixesProblem)) {
    rejected.add(fixKey(fix));
    fixNote = `Not applied: ${fix.label} would add a problem. `;
    run();
    return;
  }
  const edit = fix.edit;
  setInputs(applied);
  if (edit.target === "text" && edit.file === verdict.source) {
    editor.dispatch({ selection: { anchor: edit.from + edit.insert.length } });
    editor.focus();
  } else if (edit.target === "text") {
    const index = applied.presetFiles.findIndex((f) => inFolder(f.path) === edit.file);
    const area = byId<HTMLTextAreaElement>(`preset-file-${index + 1}-text`);
    area.focus();
    area.setSelectionRange(edit.from + edit.insert.length, edit.from + edit.insert.length);
  } else if (edit.target === "env") {
    ui.env.focus();
  } else {
    (edit.flag === "--theme" ? ui.theme : ui.logFormat).focus();
  }
  run();
}

/**
 * Applies every safe fix, one at a time: each is tried on the inputs as the ones before it left them, so that two
 * fixes that are safe alone but clash together (two keys renamed to one) never both apply.
 */
function applyAllFixes(): void {
  if (!verdict) return;
  let state = readInputs(editor);
  let current = judge(core, state, { explain: false });
  let count = 0;
  for (let round = 0; round < 100; round++) {
    const textOf = textsOf(state, current.source);
    let next: { state: PageInputs; verdict: Verdict } | undefined;
    for (const problem of current.problems) {
      for (const fix of candidatesFor(problem, textOf)) {
        next = tried(core, fix, current, state, true);
        if (next) break;
      }
      if (next) break;
    }
    if (!next) break;
    state = next.state;
    current = next.verdict;
    count++;
  }
  setInputs(state);
  fixNote = `${count} fix${count === 1 ? "" : "es"} applied. `;
  editor.focus();
  run();
}

/** Sets the inputs, the editor's text by the part that changed (its caret and scroll stay). */
function setInputs(state: PageInputs): void {
  changeText(editor, state.config);
  ui.env.value = state.env;
  ui.theme.value = state.theme;
  ui.logFormat.value = state.logFormat;
  const files = readPresetFiles(ui.presetFiles);
  if (JSON.stringify(files) !== JSON.stringify(state.presetFiles)) renderPresetFiles(ui.presetFiles, state.presetFiles);
}

function jumpTo({ at }: ListedProblem): void {
  editor.dispatch({ selection: { anchor: at!.from, head: at!.to }, scrollIntoView: true });
  editor.focus();
}

// --- state ---

function loadInputs(state: PageInputs): void {
  // A loaded state is a new start: nothing of the previous one is shown as its stale result.
  resolved = noAnswer;
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

/** A hosted page registers its offline worker (sw.js); a saved file (file://) works offline as it is. */
function keepOffline(): void {
  if (location.protocol === "file:" || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("./sw.js").catch(() => undefined);
}

function setStatus(text: string, tone: "good" | "bad"): void {
  ui.status.textContent = text;
  ui.status.className = `status ${tone}`;
}
