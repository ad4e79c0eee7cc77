// The inputs form: the editor's text and the simulated layers, read into the page inputs and set from them.

import type { EditorView } from "@codemirror/view";
import { replaceText } from "./editor.ts";
import type { CompletionFacts } from "../src/editor/complete.ts";
import { folderFacts } from "./layers.ts";
import { readPresetFiles, renderPresetFiles } from "./presetfiles.ts";
import { defaults, type PageInputs } from "./pageinputs.ts";
import { ui } from "./ui.ts";

export function readInputs(editor: EditorView): PageInputs {
  const checked = [...ui.presets.querySelectorAll<HTMLInputElement>("input:checked")].map((c) => c.value);
  return {
    config: editor.state.doc.toString(),
    format: ui.format.value,
    env: ui.env.value,
    theme: ui.theme.value,
    exclude: ui.exclude.value,
    preset: checked.join(","),
    logFormat: ui.logFormat.value,
    archives: ui.archives.value,
    presetFiles: readPresetFiles(ui.presetFiles),
  };
}

export function applyInputs(editor: EditorView, state: PageInputs): void {
  if (editor.state.doc.toString() !== state.config) replaceText(editor, state.config);
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
  renderPresetFiles(ui.presetFiles, state.presetFiles);
}

/** What completion knows of the simulated folder, as the fields hold it now. */
export function completionFacts(packageJson: boolean): CompletionFacts {
  const bundled = [...ui.presets.querySelectorAll<HTMLInputElement>("input")].map((b) => b.value);
  return folderFacts(packageJson, bundled, { presetFiles: readPresetFiles(ui.presetFiles), archives: ui.archives.value });
}

export function presetChoice(name: string): HTMLLabelElement {
  const label = document.createElement("label");
  const box = document.createElement("input");
  box.type = "checkbox";
  box.value = name;
  box.name = "preset";
  label.append(box, ` ${name}`);
  return label;
}

export function showNotes(element: HTMLElement, notes: string[]): void {
  element.textContent = notes.join(" ");
  element.hidden = notes.length === 0;
}
