// Where an offset of a JSON text is: the key path, and whether a key or a value goes there. Read from Lezer's JSON syntax tree,
// which survives half-typed text: the page hands in its editor's tree, the server parses the text.

import type { SyntaxNode, Tree } from "@lezer/common";
import { parser } from "@lezer/json";

export type PathPart = string | number;

/**
 * A text as these functions read it: a string, or an editor's document read in slices (CodeMirror's `sliceString`), so that
 * a large document is never copied whole to answer a keystroke.
 */
export interface TextSource {
  readonly length: number;
  slice(from: number, to: number): string;
}

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

/** The syntax tree of a JSON text, as CodeMirror's JSON language builds it (the same parser). */
export function jsonTree(text: string): Tree {
  return parser.parse(text);
}

/** The tree given, or the text's own: a document read in slices comes with its editor's tree. */
function treeOf(text: TextSource, tree: Tree | undefined): Tree {
  return tree ?? jsonTree(typeof text === "string" ? text : text.slice(0, text.length));
}

/** The place at `pos`, or undefined where neither a key nor a value can go (after a closing bracket, between a key and its colon). */
export function placeAt(text: TextSource, pos: number, tree?: Tree): Place | undefined {
  let node: SyntaxNode | null = treeOf(text, tree).resolveInner(pos, -1);
  // A closing bracket the caret is after: the container is finished, nothing goes here.
  if ((node.name === "}" || node.name === "]") && pos >= node.to) return undefined;
  if (node.name === "PropertyName") return keyPlace(text, node.parent!.parent!, node);
  if (scalars.has(node.name)) return { role: "value", path: pathOf(text, node), token: { from: node.from, to: node.to }, siblings: [] };
  if (node.name === "⚠" || punctuation.has(node.name)) node = node.parent;
  if (!node) return undefined;
  if (node.name === "Object") return keyPlace(text, node);
  if (node.name === "Array") return { role: "value", path: [...pathOf(text, node), countBefore(node, pos)], siblings: [] };
  if (node.name === "Property") {
    const colon = node.getChild(":");
    if (colon && pos >= colon.to) return { role: "value", path: pathOf(text, node), siblings: [] };
    return keyPlace(text, node.parent!);
  }
  if (node.name === "JsonText") return { role: "value", path: [], siblings: [] };
  return undefined;
}

/** The key path of the key or value at `pos`, for hover: the key a value belongs to, or the key under the caret. */
export function keyAt(text: TextSource, pos: number, tree?: Tree): { path: PathPart[]; from: number; to: number } | undefined {
  let node: SyntaxNode | null = treeOf(text, tree).resolveInner(pos, 1);
  if (node.name !== "PropertyName" && !scalars.has(node.name)) return undefined;
  const at = { from: node.from, to: node.to };
  if (node.name === "PropertyName") node = node.parent;
  return node ? { path: pathOf(text, node), ...at } : undefined;
}

function keyPlace(text: TextSource, object: SyntaxNode, token?: SyntaxNode): Place {
  const siblings = object
    .getChildren("Property")
    .map((p) => p.getChild("PropertyName"))
    .filter((n): n is SyntaxNode => n !== null && n !== token)
    .map((n) => nameOf(text, n));
  return { role: "key", path: pathOf(text, object), siblings, ...(token ? { token: { from: token.from, to: token.to } } : {}) };
}

/** The key path of a node (an object, an array, a property or a value) from the document's root. */
function pathOf(text: TextSource, node: SyntaxNode): PathPart[] {
  const path: PathPart[] = [];
  for (let at: SyntaxNode | null = node; at && at.name !== "JsonText"; at = at.parent) {
    if (at.name === "Property") {
      const name = at.getChild("PropertyName");
      if (name) path.unshift(nameOf(text, name));
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
function nameOf(text: TextSource, node: SyntaxNode): string {
  const raw = text.slice(node.from, node.to);
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
