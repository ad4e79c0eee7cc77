// Where a position of the editor is in the JSON document: the key path, and whether a key or a value goes there.
// Read from the syntax tree, which survives half-typed text.

import { syntaxTree } from "@codemirror/language";
import type { EditorState } from "@codemirror/state";
import type { SyntaxNode } from "@lezer/common";

export type PathPart = string | number;

/** What sits at a position: a key of the object at `path`, or the value at `path`. */
export interface Place {
  role: "key" | "value";
  /** For a key: the object's path. For a value: the value's own path. */
  path: PathPart[];
  /** The token under the caret (a key or a scalar value), replaced whole by a completion. */
  token?: { from: number; to: number };
  /** The keys the object already has (for `role: "key"`). */
  siblings: string[];
}

const scalars = new Set(["String", "Number", "True", "False", "Null"]);
const punctuation = new Set(["[", "]", "{", "}", ",", ":", "⚠"]);

/** The place at `pos`, or undefined where neither a key nor a value can go (after a closing bracket, between a key and its colon). */
export function placeAt(state: EditorState, pos: number): Place | undefined {
  let node: SyntaxNode | null = syntaxTree(state).resolveInner(pos, -1);
  // A closing bracket the caret is after: the container is finished, nothing goes here.
  if ((node.name === "}" || node.name === "]") && pos >= node.to) return undefined;
  if (node.name === "PropertyName") return keyPlace(state, node.parent!.parent!, node);
  if (scalars.has(node.name)) return valuePlace(state, node, { from: node.from, to: node.to });
  if (node.name === "⚠" || punctuation.has(node.name)) node = node.parent;
  if (!node) return undefined;
  if (node.name === "Object") return keyPlace(state, node);
  if (node.name === "Array") return { role: "value", path: [...pathOf(state, node), countBefore(node, pos)], siblings: [] };
  if (node.name === "Property") {
    const colon = node.getChild(":");
    if (colon && pos >= colon.to) return { role: "value", path: pathOf(state, node), siblings: [] };
    return keyPlace(state, node.parent!);
  }
  if (node.name === "JsonText") return { role: "value", path: [], siblings: [] };
  return undefined;
}

/** The dotted path of the key or value at `pos`, for hover: the key a value belongs to, or the key under the caret. */
export function keyAt(state: EditorState, pos: number): { path: PathPart[]; from: number; to: number } | undefined {
  let node: SyntaxNode | null = syntaxTree(state).resolveInner(pos, 1);
  if (node.name !== "PropertyName" && !scalars.has(node.name)) return undefined;
  const at = { from: node.from, to: node.to };
  if (node.name === "PropertyName") node = node.parent;
  return node ? { path: pathOf(state, node), ...at } : undefined;
}

function keyPlace(state: EditorState, object: SyntaxNode, token?: SyntaxNode): Place {
  const siblings = object
    .getChildren("Property")
    .map((p) => p.getChild("PropertyName"))
    .filter((n): n is SyntaxNode => n !== null && n !== token)
    .map((n) => nameOf(state, n));
  return { role: "key", path: pathOf(state, object), siblings, ...(token ? { token: { from: token.from, to: token.to } } : {}) };
}

function valuePlace(state: EditorState, node: SyntaxNode, token: { from: number; to: number }): Place {
  return { role: "value", path: pathOf(state, node), token, siblings: [] };
}

/** The key path of a node (an object, an array, a property or a value) from the document's root. */
export function pathOf(state: EditorState, node: SyntaxNode): PathPart[] {
  const path: PathPart[] = [];
  for (let at: SyntaxNode | null = node; at && at.name !== "JsonText"; at = at.parent) {
    if (at.name === "Property") {
      const name = at.getChild("PropertyName");
      if (name) path.unshift(nameOf(state, name));
    } else if (at.parent?.name === "Array") {
      path.unshift(countBefore(at.parent, at.from));
    }
  }
  return path;
}

/** How many values of an array start before `pos`: the index of the value at or after it. */
function countBefore(array: SyntaxNode, pos: number): number {
  let count = 0;
  for (let child = array.firstChild; child; child = child.nextSibling) {
    if (!punctuation.has(child.name) && child.to <= pos) count++;
  }
  return count;
}

/** A key's text without its quotes, escapes decoded when they are valid. */
export function nameOf(state: EditorState, node: SyntaxNode): string {
  const raw = state.sliceDoc(node.from, node.to);
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw.replace(/^"|"$/g, "");
  }
}

/** A path as the core writes it: `modules.include[2]`. */
export function dotted(path: PathPart[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}
