// The config editor: CodeMirror 6 with line numbers, bracket matching, folding and the page's marks; the JSON language (its
// highlighting and folds), history, Tab indentation, completion, bracket closing and hover join it after the first result
// (playground/later.ts), as the first result needs none of them.

import { bracketMatching, foldGutter, HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { Compartment, EditorState, type Extension } from "@codemirror/state";
import { EditorView, highlightSpecialChars, lineNumbers } from "@codemirror/view";
import { tags } from "@lezer/highlight";
import { editorMarks } from "./marks.ts";

export interface EditorOptions {
  parent: HTMLElement;
  doc: string;
  /** The editor's accessible name ("Config"). */
  label: string;
  onChange: () => void;
}

/** Where the extensions loaded after the first result go: the JSON language, the keys, completion, hover. */
const later = new Compartment();

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
  ".cm-overridden": { textDecoration: "line-through 1.5px var(--muted)", backgroundColor: "var(--line)" },
  ".cm-tooltip-override": { padding: "4px 10px", borderLeft: "4px solid var(--muted)" },
  ".cm-tooltip-override p": { margin: "4px 0" },
  // The caret's tooltip may lie over the controls above the editor: a click goes through it to them.
  ".cm-tooltip-caret": { pointerEvents: "none" },
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
        // Lines end at "\n" only, as the core counts them: a CR stays in the text (shown as a control character), so the
        // text is the file's bytes and a CR-only file is one line here as it is for dropkit.
        EditorState.lineSeparator.of("\n"),
        highlightSpecialChars(),
        lineNumbers(),
        bracketMatching(),
        foldGutter(),
        syntaxHighlighting(highlight),
        editorMarks(),
        later.of([]),
        // An id in the page cannot name an element in the shadow root, so the name is the content's own label.
        // tabindex: the scroller around it scrolls, and a scrolling region needs focusable content that tools can see as such.
        EditorView.contentAttributes.of({ "aria-label": options.label, spellcheck: "false", autocapitalize: "off", tabindex: "0" }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange();
        }),
        theme,
      ],
    }),
  });
}

/** Adds the extensions loaded after the first result (their keys before the editor's own: Enter picks a completion). */
export function addLater(view: EditorView, extensions: Extension): void {
  view.dispatch({ effects: later.reconfigure(extensions) });
}

/** Replaces the whole text as one undoable change. */
export function replaceText(view: EditorView, text: string): void {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

/** Replaces the text with `text` by changing only the part that differs, so that the caret and the scroll stay where they were. */
export function changeText(view: EditorView, text: string): void {
  const old = view.state.doc.toString();
  if (old === text) return;
  let start = 0;
  while (start < old.length && start < text.length && old.charCodeAt(start) === text.charCodeAt(start)) start++;
  let end = 0;
  while (
    end < old.length - start &&
    end < text.length - start &&
    old.charCodeAt(old.length - 1 - end) === text.charCodeAt(text.length - 1 - end)
  )
    end++;
  view.dispatch({ changes: { from: start, to: old.length - end, insert: text.slice(start, text.length - end) } });
}
