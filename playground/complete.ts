// Completion in the editor: keys and values at every depth from schema.json, preset names, and the simulated folder's themes and modules.

import {
  type Completion,
  type CompletionContext,
  type CompletionResult,
  type CompletionSource,
  pickedCompletion,
} from "@codemirror/autocomplete";
import type { EditorView, Rect } from "@codemirror/view";
import { dotted, placeAt, type PathPart } from "./jsonpath.ts";
import { schemaAt, valuesOf } from "./schema.ts";

/** What the page knows beyond the schema, asked at each completion. */
export interface CompletionFacts {
  /** Whether the editor holds a package.json (the config is its `dropkit` key). */
  packageJson: boolean;
  /** Bundled presets, then the simulated folder's preset files. */
  presetNames: string[];
  /** Theme names of the simulated folder's theme archives. */
  themeNames: string[];
  /** Module names of the simulated folder's other archives. */
  moduleNames: string[];
}

/** The completion source for the config editor. */
export function configCompletions(facts: () => CompletionFacts): CompletionSource {
  return (context: CompletionContext): CompletionResult | null => {
    const place = placeAt(context.state, context.pos);
    if (!place) return null;
    const known = facts();
    const replacing = place.token !== undefined;
    // In a package.json only the `dropkit` key is dropkit's; the rest is the package's own business.
    let path: PathPart[] = place.path;
    if (known.packageJson) {
      if (path.length === 0 && place.role === "key")
        return place.siblings.includes("dropkit") ? null : result(context, [keyOption("dropkit", "dropkit's config", 0)]);
      if (path[0] !== "dropkit") return null;
      path = path.slice(1);
    }
    // Unprompted, completion opens only once something is typed, as in other editors.
    if (!context.explicit && !replacing && !context.matchBefore(/[\w$.*/-]+/)) return null;
    const options = place.role === "key" ? keyOptions(path, place.siblings) : valueOptions(path, known);
    return options.length === 0 ? null : result(context, options);
  };
}

/** The word before the caret is what filters the options (labels carry no quotes); applying replaces the whole token. */
function result(context: CompletionContext, options: Completion[]): CompletionResult {
  return { from: context.matchBefore(/[\w$.*/-]*/)?.from ?? context.pos, options, validFor: /^[\w$.*/-]*$/ };
}

/**
 * Inserts `text` in place of the token being typed: the word around the caret, with its opening quote and
 * its closing one (typed, or added by bracket closing) when there are. A key gets its colon unless one follows.
 */
function replaceToken(text: string, key = false): Completion["apply"] {
  return (view: EditorView, completion: Completion, from: number, to: number) => {
    const doc = view.state.doc;
    const start = from > 0 && doc.sliceString(from - 1, from) === '"' ? from - 1 : from;
    let end = to;
    while (end < doc.length && /[\w$.*/-]/.test(doc.sliceString(end, end + 1))) end++;
    if (start < from && doc.sliceString(end, end + 1) === '"') end++;
    const insert = key && !/^\s*:/.test(doc.sliceString(end, end + 40)) ? `${text}: ` : text;
    view.dispatch({
      changes: { from: start, to: end, insert },
      selection: { anchor: start + insert.length },
      annotations: pickedCompletion.of(completion),
      userEvent: "input.complete",
    });
  };
}

function keyOptions(path: PathPart[], siblings: string[]): Completion[] {
  const node = schemaAt(path);
  return Object.entries(node?.properties ?? {})
    .filter(([key]) => !siblings.includes(key))
    .map(([key, child], i) => keyOption(key, child.description, i));
}

/** A key, quoted, with its colon unless one is there. Listed in the schema's order. */
function keyOption(key: string, description: string | undefined, index: number): Completion {
  return {
    label: key,
    apply: replaceToken(JSON.stringify(key), true),
    type: "property",
    boost: -index,
    ...(description ? { info: description } : {}),
  };
}

function valueOptions(path: PathPart[], facts: CompletionFacts): Completion[] {
  const node = schemaAt(path);
  if (!node) return [];
  const values = valuesOf(node);
  const key = dotted(path.map((p) => (typeof p === "number" ? 0 : p)));
  // Values the schema cannot know: those of the simulated folder and the preset files.
  if (key === "presets[0]") values.push(...facts.presetNames);
  if (key === "theme") values.push("auto", "none", ...facts.themeNames);
  if (/^(modules\.(include|exclude|only)|exclude)\[0\]$/.test(key)) values.push(...facts.moduleNames);
  const seen = new Set<string>();
  return values.flatMap((value) => {
    const label = String(value);
    if (seen.has(label)) return [];
    seen.add(label);
    const info = describeValue(key, label, facts);
    // The schema's values first, in its order, then the folder's.
    return [
      {
        label,
        apply: replaceToken(JSON.stringify(value)),
        type: typeof value === "string" ? "enum" : "constant",
        boost: -seen.size,
        ...(info ? { info } : {}),
      },
    ];
  });
}

/** What each value a key offers means, as the README says it; folder values say which file they stand for. */
const meanings: Record<string, Record<string, string>> = {
  theme: { auto: "The only theme archive in the folder, or with several the first by name (the others are named).", none: "No theme." },
  "presets[0]": { standard: "Bundled: excludes test-* and dev-* modules and stops on a failing hook.", none: "Bundled: sets nothing." },
  "hooks.onFailure": { continue: "A failing hook is a warning; the run goes on.", fail: "A failing hook stops the run (exit 1)." },
  "log.format": { text: "One line per record, for people.", json: "One JSON object per line, for programs." },
  "cache.enabled": { true: "Re-runs hash only the archives that changed.", false: "Every run hashes every archive." },
};

function describeValue(key: string, value: string, facts: CompletionFacts): string | undefined {
  const meaning = meanings[key]?.[value];
  if (meaning) return meaning;
  if (key === "theme" && facts.themeNames.includes(value)) return `The theme archive ${value}-theme.zip (or ${value}.zip) in the folder.`;
  if (key === "presets[0]" && facts.presetNames.includes(value)) return `The preset file ${value}.json in the search path.`;
  if (facts.moduleNames.includes(value)) return `The module archive ${value}.zip in the folder.`;
  return undefined;
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
