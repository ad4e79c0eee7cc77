// The editor's completion and hover in CodeMirror: src/editor/'s answers as a completion source and a hover tooltip, and where a
// completion's description goes.

import {
  type Completion,
  type CompletionContext,
  type CompletionResult,
  type CompletionSource,
  pickedCompletion,
} from "@codemirror/autocomplete";
import { syntaxTree } from "@codemirror/language";
import type { Text } from "@codemirror/state";
import type { EditorView, Rect, Tooltip } from "@codemirror/view";
import schema from "../schema.json";
import { type CompletionFacts, type CompletionItem, completionEdit, completionsAt } from "../src/editor/complete.ts";
import { type HoverFacts, hoverAt } from "../src/editor/hover.ts";
import type { TextSource } from "../src/editor/jsonpath.ts";
import type { Schema } from "../src/editor/schema.ts";

/** The shipped schema.json, which completion and hover read. */
export const pageSchema = schema as unknown as Schema;

/** The editor's document as src/editor/ reads it: in slices, never copied whole (a keystroke in a 1 MB text would copy it). */
function sourceOf(doc: Text): TextSource {
  return { length: doc.length, slice: (from, to) => doc.sliceString(from, to) };
}

/** The completion source for the config editor. */
export function configCompletions(facts: () => CompletionFacts): CompletionSource {
  return (context: CompletionContext): CompletionResult | null => {
    const found = completionsAt(sourceOf(context.state.doc), context.pos, facts(), pageSchema, {
      explicit: context.explicit,
      tree: syntaxTree(context.state),
    });
    if (!found) return null;
    // Listed in the order given: the schema's, then the folder's.
    const options = found.items.map(
      (item, i): Completion => ({
        label: item.label,
        apply: apply(item),
        type: item.kind,
        boost: -i,
        ...(item.info ? { info: item.info } : {}),
      }),
    );
    return { from: found.from, options, validFor: /^[\w$.*/-]*$/ };
  };
}

/** Applying replaces the whole token being typed, quotes included, as src/editor/complete.ts says. */
function apply(item: CompletionItem): Completion["apply"] {
  return (view: EditorView, completion: Completion, from: number, to: number) => {
    const edit = completionEdit(sourceOf(view.state.doc), from, to, item);
    view.dispatch({
      changes: { from: edit.from, to: edit.to, insert: edit.insert },
      selection: { anchor: edit.from + edit.insert.length },
      annotations: pickedCompletion.of(completion),
      userEvent: "input.complete",
    });
  };
}

/** The hover source: a tooltip for the key under the pointer, or for the key whose value it is. */
export function configHover(facts: () => HoverFacts): (view: EditorView, pos: number) => Tooltip | null {
  return (view, pos) => {
    const found = hoverAt(sourceOf(view.state.doc), pos, facts(), pageSchema, syntaxTree(view.state));
    if (!found) return null;
    return {
      pos: found.from,
      end: found.to,
      above: true,
      create: () => {
        const dom = Object.assign(document.createElement("div"), { className: "hover" });
        const text = (tag: string, textContent: string) => Object.assign(document.createElement(tag), { textContent });
        dom.append(text("strong", found.key), ...found.paragraphs.map((paragraph) => text("p", paragraph)));
        return { dom };
      },
    };
  };
}

/**
 * Where a completion's description goes: beside the list when it fits there, as CodeMirror puts it; otherwise (a phone)
 * under the whole list, or over it when there is no room below, as wide as the screen allows, so that it covers no option
 * and runs off no edge (CodeMirror's own narrow placement puts it under the selected option, over the next ones).
 */
export function completionInfoPlace(
  _view: EditorView,
  list: Rect,
  option: Rect,
  info: Rect,
  space: Rect,
): { style: string; class: string } {
  const width = info.right - info.left;
  const height = info.bottom - info.top;
  const right = space.right - list.right;
  const left = list.left - space.left;
  if (width <= Math.max(left, right)) {
    const side = width <= right ? "right" : "left";
    const top = Math.max(space.top, Math.min(option.top, space.bottom - height)) - list.top;
    return { style: `top: ${top}px; max-width: ${Math.min(400, Math.max(left, right))}px`, class: `cm-completionInfo-${side}` };
  }
  const margin = 4;
  const below = space.bottom - list.bottom >= height || space.bottom - list.bottom > list.top - space.top;
  const offset = list.bottom - list.top;
  return {
    style: `${below ? "top" : "bottom"}: ${offset}px; left: ${space.left + margin - list.left}px; max-width: ${space.right - space.left - 2 * margin}px`,
    class: "cm-completionInfo-across",
  };
}
