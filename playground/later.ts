// What the page loads after its first result: completion and bracket closing, hover, the explain view, Format and Export, the examples.

import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from "@codemirror/autocomplete";
import { type Extension, Prec } from "@codemirror/state";
import { hoverTooltip, keymap } from "@codemirror/view";
import { type CompletionFacts, configCompletions } from "./complete.ts";
import { configHover, type HoverFacts } from "./hover.ts";

export { renderExplain } from "./explain.ts";
export { exampleInputs, examples } from "./examples.ts";
export { exportConfig, formatConfig } from "./tools.ts";

/** The editor's extensions of this part: its keys before the editor's own, so that Enter picks a completion and Backspace deletes a pair. */
export function editorExtensions(completion: () => CompletionFacts, hover: () => HoverFacts): Extension {
  return [
    Prec.high(keymap.of([...closeBracketsKeymap, ...completionKeymap])),
    closeBrackets(),
    autocompletion({ override: [configCompletions(completion)], icons: false }),
    hoverTooltip(configHover(hover), { hoverTime: 250 }),
  ];
}
