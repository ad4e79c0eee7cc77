// The core's problems in the editor: each span marked, and on hover its message with its fix. The page's own small layer
// rather than @codemirror/lint, whose diagnostics panel and lint sources the page does not use: 3.4 KB gzipped, which
// the page's 150 KB budget does not have room for beside a core that may weigh 24 KB.

import { type Extension, StateEffect, StateField } from "@codemirror/state";
import { Decoration, type DecorationSet, EditorView, hoverTooltip } from "@codemirror/view";

/** One problem of the editor's text, as the page shows it. */
export interface ProblemMark {
  from: number;
  to: number;
  message: string;
  fix?: { label: string; apply: () => void };
}

const setMarks = StateEffect.define<ProblemMark[]>();

/** The marks, moved along with every edit until the next answer replaces them. */
const marks = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(set, tr) {
    for (const effect of tr.effects) if (effect.is(setMarks)) return decorate(effect.value, tr.state.doc.length);
    return set.map(tr.changes);
  },
  provide: (field) => EditorView.decorations.from(field),
});

function decorate(problems: ProblemMark[], length: number): DecorationSet {
  const ranges = problems.map((problem) => {
    // A problem at one point (the end of an unterminated text) still needs a character to mark.
    let { from, to } = problem;
    if (to <= from) [from, to] = from < length ? [from, from + 1] : [Math.max(0, from - 1), from];
    return Decoration.mark({ class: "cm-problem", problem }).range(from, Math.max(to, from));
  });
  return Decoration.set(
    ranges.filter((r) => r.from < r.to),
    true,
  );
}

/** The tooltip of the marks under the pointer: each message, and a button for each fix. */
const problemTooltip = hoverTooltip((view, pos) => {
  const found: ProblemMark[] = [];
  let start = pos;
  let end = pos;
  view.state.field(marks).between(pos, pos, (from, to, decoration) => {
    found.push(decoration.spec.problem as ProblemMark);
    start = Math.min(start, from);
    end = Math.max(end, to);
  });
  if (found.length === 0) return null;
  return {
    pos: start,
    end,
    above: true,
    create: () => {
      const dom = document.createElement("div");
      dom.className = "cm-tooltip-problem";
      for (const problem of found) {
        const message = document.createElement("p");
        message.textContent = problem.message;
        dom.append(message);
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
      return { dom };
    },
  };
});

/** The extension that shows problem marks; `showProblems` fills it. */
export function problemMarks(): Extension {
  return [marks, problemTooltip];
}

/** Replaces the marks with the latest answer's problems. */
export function showProblems(view: EditorView, problems: ProblemMark[]): void {
  view.dispatch({ effects: setMarks.of(problems) });
}
