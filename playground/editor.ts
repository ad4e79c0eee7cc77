// The config editor: CodeMirror 6 with JSON, line numbers, bracket matching and closing, folding, Tab indentation, completion, hover and the core's problems marked.

import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap, type CompletionSource } from "@codemirror/autocomplete";
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
import { bracketMatching, foldGutter, foldKeymap, HighlightStyle, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { EditorState } from "@codemirror/state";
import { EditorView, hoverTooltip, keymap, lineNumbers, type Tooltip } from "@codemirror/view";
import { tags } from "@lezer/highlight";
import { problemMarks } from "./marks.ts";

export interface EditorOptions {
  parent: HTMLElement;
  doc: string;
  /** The editor's accessible name ("Config"). */
  label: string;
  onChange: () => void;
  complete: CompletionSource;
  hover: (view: EditorView, pos: number) => Tooltip | null;
}

/** Colours come from the page's CSS variables, so that light and dark mode are one theme. */
const theme = EditorView.theme({
  "&": {
    color: "var(--fg)",
    backgroundColor: "var(--code-bg)",
    border: "1px solid var(--border)",
    borderRadius: "6px",
    fontSize: "13.5px",
  },
  "&.cm-focused": { outline: "2px solid var(--focus)", outlineOffset: "1px" },
  ".cm-scroller": { fontFamily: "var(--mono)", lineHeight: "1.5", minHeight: "16em", maxHeight: "32em" },
  ".cm-content": { caretColor: "var(--fg)" },
  ".cm-cursor": { borderLeftColor: "var(--fg)" },
  ".cm-gutters": { backgroundColor: "var(--code-bg)", color: "var(--muted)", border: "none", borderRight: "1px solid var(--border)" },
  ".cm-activeLineGutter": { backgroundColor: "transparent" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection": { backgroundColor: "var(--selection)" },
  ".cm-matchingBracket": { backgroundColor: "var(--bracket)", outline: "1px solid var(--muted)" },
  ".cm-tooltip": {
    backgroundColor: "var(--panel)",
    color: "var(--fg)",
    border: "1px solid var(--border)",
    borderRadius: "6px",
    maxWidth: "32em",
  },
  ".cm-tooltip-autocomplete > ul > li[aria-selected]": { backgroundColor: "var(--accent)", color: "var(--on-accent)" },
  ".cm-completionInfo": { backgroundColor: "var(--panel)", color: "var(--fg)", border: "1px solid var(--border)", padding: "6px 8px" },
  ".hover": { padding: "6px 10px", maxWidth: "30em" },
  ".hover p": { margin: "4px 0 0" },
  ".cm-problem": { textDecoration: "underline wavy var(--bad)", textDecorationSkipInk: "none", backgroundColor: "var(--bad-bg)" },
  ".cm-tooltip-problem": { padding: "4px 10px 8px", borderLeft: "4px solid var(--bad)" },
  ".cm-tooltip-problem p": { margin: "4px 0" },
  ".cm-tooltip-problem button": {
    backgroundColor: "var(--accent)",
    color: "var(--on-accent)",
    border: "none",
    borderRadius: "4px",
    padding: "3px 10px",
    font: "inherit",
    cursor: "pointer",
  },
});

const highlight = HighlightStyle.define([
  { tag: tags.propertyName, color: "var(--syn-key)" },
  { tag: tags.string, color: "var(--syn-string)" },
  { tag: [tags.number, tags.bool, tags.null], color: "var(--syn-literal)" },
  { tag: tags.invalid, color: "var(--bad)" },
]);

/**
 * Makes the editor, in a shadow root of `parent`: there CodeMirror's styles go into a constructed style sheet,
 * which the page's Content Security Policy allows, where the `<style>` element it adds to a document's head
 * would be blocked. Tab indents; Escape then Tab leaves the editor (CodeMirror's rule for keyboard users).
 */
export function createEditor(options: EditorOptions): EditorView {
  const root = options.parent.attachShadow({ mode: "open" });
  return new EditorView({
    root,
    parent: root,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        lineNumbers(),
        history(),
        indentOnInput(),
        bracketMatching(),
        // CodeMirror's own bracket and quote closing and folding: 3.4 KB gzipped, past the page's 150 KB (docs/performance.md).
        closeBrackets(),
        foldGutter(),
        json(),
        syntaxHighlighting(highlight),
        autocompletion({ override: [options.complete], icons: false }),
        hoverTooltip(options.hover, { hoverTime: 250 }),
        problemMarks(),
        // Enter and Backspace as CodeMirror does them (indentation), history and indentation keys; caret motion, selection and
        // word deletion are the browser's own, which saves the page the 2.5 KB of CodeMirror's standard keymap.
        keymap.of([
          ...closeBracketsKeymap,
          ...completionKeymap,
          ...foldKeymap,
          ...historyKeymap,
          { key: "Enter", run: insertNewlineAndIndent },
          { key: "Backspace", run: deleteCharBackward },
          { key: "Mod-[", run: indentLess },
          { key: "Mod-]", run: indentMore },
          indentWithTab,
        ]),
        // An id in the page cannot name an element in the shadow root, so the name is the content's own label.
        EditorView.contentAttributes.of({ "aria-label": options.label, spellcheck: "false", autocapitalize: "off" }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange();
        }),
        theme,
      ],
    }),
  });
}

/** Replaces the whole text as one undoable change. */
export function replaceText(view: EditorView, text: string): void {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}
