// What the shipped schema.json says about a key path: its description, its keys, its values. Read by completion and hover.

import schema from "../schema.json";

/** The parts of a JSON Schema node that the page reads. */
export interface SchemaNode {
  description?: string;
  type?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  $ref?: string;
}

const root = schema as unknown as SchemaNode & { definitions?: Record<string, SchemaNode> };

/** Follows `$ref`s (local ones only, as schema.json has), keeping the referring node's own description and default. */
function deref(node: SchemaNode): SchemaNode {
  let out = node;
  for (let depth = 0; out.$ref && depth < 8; depth++) {
    const target = out.$ref
      .replace(/^#\//, "")
      .split("/")
      .reduce<unknown>((at, part) => (at as Record<string, unknown>)?.[part], root) as SchemaNode | undefined;
    if (!target) break;
    const { $ref: _, ...own } = out;
    out = { ...target, ...own };
  }
  return out;
}

/** The schema node at a path of keys and array indexes (numbers), or undefined past the schema's end. */
export function schemaAt(path: Array<string | number>): SchemaNode | undefined {
  let node: SchemaNode | undefined = deref(root);
  for (const part of path) {
    if (!node) return undefined;
    node =
      typeof part === "number"
        ? node.items
          ? deref(node.items)
          : undefined
        : node.properties?.[part]
          ? deref(node.properties[part])
          : undefined;
  }
  return node;
}

/** The scalar values a node accepts or suggests: its `const`, `enum`, `examples`, those of its `anyOf`/`oneOf` branches, and `true`/`false` for booleans. */
export function valuesOf(node: SchemaNode): unknown[] {
  const out: unknown[] = [];
  const add = (value: unknown) => {
    if (value !== null && typeof value !== "object" && !out.includes(value)) out.push(value);
  };
  if (node.const !== undefined) add(node.const);
  node.enum?.forEach(add);
  node.examples?.forEach(add);
  for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) valuesOf(deref(branch)).forEach(add);
  if (node.type === "boolean") [true, false].forEach(add);
  return out;
}

/** The description of a dotted key such as `hooks.onFailure`, for the explain view's heading. */
export function describeKey(key: string): string | undefined {
  return schemaAt(key.split("."))?.description;
}
