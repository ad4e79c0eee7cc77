// What the page loads after its first result (a file of its own, later-<hash>.js): the JSON language, history and the editing
// keys, completion and bracket closing, hover, the explain view, Format and Export, the examples.

import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from "@codemirror/autocomplete";
import {
  deleteCharBackward,
  history,
  historyKeymap,
  indentLess,
  indentMore,
  indentWithTab,
  insertNewlineAndIndent,
} from "@codemirror/commands";
import { json } from "@codemirror/lang-json";
import { foldKeymap, indentOnInput } from "@codemirror/language";
import { type Extension, Prec } from "@codemirror/state";
import { hoverTooltip, keymap } from "@codemirror/view";
import type { CompletionFacts } from "../src/editor/complete.ts";
import type { HoverFacts } from "../src/editor/hover.ts";
import { completionInfoPlace, configCompletions, configHover } from "./assist.ts";

export { exampleInputs, examples } from "./examples.ts";
export { renderExplain } from "./explain.ts";
export { exportConfig, formatConfig } from "./tools.ts";

/**
 * The editor's extensions of this part. Completion's and bracket closing's keys come first, so that Enter picks a
 * completion and Backspace deletes a pair; then Enter and Backspace as CodeMirror does them (indentation), history and
 * indentation keys. Caret motion, selection and word deletion are the browser's own, which saves the page the 2.5 KB of
 * CodeMirror's standard keymap. Tab indents; Escape then Tab leaves the editor (CodeMirror's rule for keyboard users).
 */
export function editorExtensions(completion: () => CompletionFacts, hover: () => HoverFacts): Extension {
  return [
    json(),
    history(),
    indentOnInput(),
    Prec.high(keymap.of([...closeBracketsKeymap, ...completionKeymap])),
    keymap.of([
      ...foldKeymap,
      ...historyKeymap,
      { key: "Enter", run: insertNewlineAndIndent },
      { key: "Backspace", run: deleteCharBackward },
      { key: "Mod-[", run: indentLess },
      { key: "Mod-]", run: indentMore },
      indentWithTab,
    ]),
    closeBrackets(),
    autocompletion({ override: [configCompletions(completion)], icons: false, positionInfo: completionInfoPlace }),
    hoverTooltip(configHover(hover), { hoverTime: 250 }),
  ];
}
