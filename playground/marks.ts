// The editor's marks: the core's problems (each span marked, on hover its message with its fix) and the values a higher layer
// overrides (on hover, and where the caret is, which layer wins). The page's own small layer rather than @codemirror/lint, whose
// diagnostics panel and lint sources the page does not use: 3.4 KB gzipped, which the page's 150 KB budget has no room for.

import { type EditorState, type Extension, StateEffect, StateField } from "@codemirror/state";
import { Decoration, type DecorationSet, EditorView, hoverTooltip, showTooltip, type Tooltip } from "@codemirror/view";

/** One problem of the editor's text, as the page shows it. */
export interface ProblemMark {
  from: number;
  to: number;
  message: string;
  fix?: { label: string; apply: () => void };
}

/** A value that another layer overrides, and what wins: "Overridden by DROPKIT_THEME=forest". */
export interface OverrideMark {
  from: number;
  to: number;
  message: string;
}

const setMarks = StateEffect.define<{ problems: ProblemMark[]; overrides: OverrideMark[] }>();

/** The marks, moved along with every edit until the next answer replaces them. */
const marks = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(set, tr) {
    for (const effect of tr.effects)
      if (effect.is(setMarks)) return decorate(effect.value.problems, effect.value.overrides, tr.state.doc.length);
    return set.map(tr.changes);
  },
  provide: (field) => EditorView.decorations.from(field),
});

function decorate(problems: ProblemMark[], overrides: OverrideMark[], length: number): DecorationSet {
  const ranges = problems.flatMap((problem) => {
    // A problem at one point (the end of an unterminated text) still needs a character to mark; an empty text has none.
    let { from, to } = problem;
    if (to <= from) [from, to] = from < length ? [from, from + 1] : [Math.max(0, from - 1), from];
    return from < to ? [Decoration.mark({ class: "cm-problem", problem }).range(from, to)] : [];
  });
  for (const override of overrides) {
    // The title is the mark's name for a pointer that rests on it and for assistive technology; the tooltips show it too.
    const attributes = { title: override.message, "aria-description": override.message };
    if (override.from < override.to)
      ranges.push(Decoration.mark({ class: "cm-overridden", override, attributes }).range(override.from, override.to));
  }
  return Decoration.set(ranges, true);
}

/** The marks at a position: its problems and overrides, and the span they cover together. */
function marksAt(state: EditorState, pos: number): { problems: ProblemMark[]; overrides: OverrideMark[]; from: number; to: number } {
  const found = { problems: [] as ProblemMark[], overrides: [] as OverrideMark[], from: pos, to: pos };
  state.field(marks).between(pos, pos, (from, to, decoration) => {
    if (decoration.spec.problem) found.problems.push(decoration.spec.problem as ProblemMark);
    else found.overrides.push(decoration.spec.override as OverrideMark);
    found.from = Math.min(found.from, from);
    found.to = Math.max(found.to, to);
  });
  return found;
}

function paragraph(text: string, className?: string): HTMLParagraphElement {
  const p = document.createElement("p");
  p.textContent = text;
  if (className) p.className = className;
  return p;
}

/** The tooltip of the marks under the pointer: each message, and a button for each fix. */
const markTooltip = hoverTooltip((view, pos) => {
  const found = marksAt(view.state, pos);
  if (found.problems.length + found.overrides.length === 0) return null;
  return {
    pos: found.from,
    end: found.to,
    above: true,
    create: () => {
      const dom = document.createElement("div");
      dom.className = found.problems.length > 0 ? "cm-tooltip-problem" : "cm-tooltip-override";
      for (const problem of found.problems) {
        dom.append(paragraph(problem.message));
        if (problem.fix) {
          const button = document.createElement("button");
          button.type = "button";
          button.textContent = problem.fix.label;
          // Pressing the button must not move the editor's caret first.
          button.addEventListener("mousedown", (event) => event.preventDefault());
          button.addEventListener("click", problem.fix.apply);
          dom.append(button);
        }
      }
      for (const override of found.overrides) dom.append(paragraph(override.message, "override"));
      return { dom };
    },
  };
});

/**
 * Where the caret is in an overridden value (moved there by keys, or by a tap on a phone, where nothing hovers), a
 * tooltip names the layer that wins. Shown only while the editor has the focus.
 */
const caretTooltip = StateField.define<Tooltip | null>({
  create: () => null,
  update(value, tr) {
    if (!tr.docChanged && !tr.selection && !tr.effects.some((e) => e.is(setMarks))) return value;
    const head = tr.state.selection.main.head;
    const found = marksAt(tr.state, head);
    // Inside the value, or right after it, where a tap at its end puts the caret.
    if (found.overrides.length === 0) return null;
    return {
      pos: found.from,
      above: true,
      create: () => {
        const dom = document.createElement("div");
        dom.className = "cm-tooltip-override cm-tooltip-caret";
        for (const override of found.overrides) dom.append(paragraph(override.message, "override"));
        // For the one typing: hidden while the focus is elsewhere (a tooltip lives beside the editor, not in it, so no selector can).
        const follow = (view: EditorView) => {
          dom.hidden = !view.hasFocus;
        };
        return { dom, mount: follow, update: (update) => follow(update.view) };
      },
    };
  },
  provide: (field) => showTooltip.from(field),
});

/** The extension that shows the marks; `showMarks` fills it. */
export function editorMarks(): Extension {
  return [marks, markTooltip, caretTooltip];
}

/** Replaces the marks with the latest answer's problems and overrides. */
export function showMarks(view: EditorView, problems: ProblemMark[], overrides: OverrideMark[]): void {
  view.dispatch({ effects: setMarks.of({ problems, overrides }) });
}
