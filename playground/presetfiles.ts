// The preset files of the simulated folder: one path field and one text area each, added and removed by the user.

import type { PresetFileFields } from "./pageinputs.ts";

/** Puts one row per file in `list` (its path field, its text, its Remove button). */
export function renderPresetFiles(list: HTMLElement, files: PresetFileFields[]): void {
  list.replaceChildren(...files.map((file, i) => row(file, i)));
}

/** Appends an empty file row and focuses its path field. */
export function addPresetFile(list: HTMLElement): void {
  const index = list.children.length;
  const added = row({ path: `presets/preset-${index + 1}.json`, text: "{\n  \n}\n" }, index);
  list.append(added);
  added.querySelector("input")!.focus();
}

/** The files as the rows hold them. */
export function readPresetFiles(list: HTMLElement): PresetFileFields[] {
  return [...list.querySelectorAll<HTMLElement>(".preset-file")].map((el) => ({
    path: el.querySelector("input")!.value.trim(),
    text: el.querySelector("textarea")!.value,
  }));
}

function row(file: PresetFileFields, index: number): HTMLElement {
  const box = document.createElement("div");
  box.className = "preset-file";
  const id = `preset-file-${index + 1}`;
  const pathLabel = document.createElement("label");
  pathLabel.htmlFor = `${id}-path`;
  pathLabel.textContent = `Path of preset file ${index + 1}`;
  const path = document.createElement("input");
  path.id = `${id}-path`;
  path.type = "text";
  path.spellcheck = false;
  path.value = file.path;
  const textLabel = document.createElement("label");
  textLabel.htmlFor = `${id}-text`;
  textLabel.textContent = `Contents of preset file ${index + 1}`;
  const text = document.createElement("textarea");
  text.id = `${id}-text`;
  text.rows = 4;
  text.spellcheck = false;
  text.value = file.text;
  const remove = document.createElement("button");
  remove.type = "button";
  remove.className = "remove ghost";
  remove.dataset.remove = "";
  remove.textContent = `Remove preset file ${index + 1}`;
  // Which of its values another layer overrides: a text area has no marks, so they are listed under it.
  const notes = document.createElement("ul");
  notes.className = "hint overrides";
  notes.id = `${id}-overrides`;
  notes.hidden = true;
  text.setAttribute("aria-describedby", notes.id);
  box.append(pathLabel, path, textLabel, text, notes, remove);
  return box;
}

/** Lists under each preset file the values of it that another layer overrides (`notes`, by the file's absolute path). */
export function showPresetFileNotes(list: HTMLElement, notes: (path: string) => string[]): void {
  for (const box of list.querySelectorAll<HTMLElement>(".preset-file")) {
    const items = notes(box.querySelector("input")!.value.trim());
    const element = box.querySelector<HTMLUListElement>("ul.overrides")!;
    element.hidden = items.length === 0;
    element.replaceChildren(
      ...items.map((text) => {
        const item = document.createElement("li");
        item.textContent = text;
        return item;
      }),
    );
  }
}
