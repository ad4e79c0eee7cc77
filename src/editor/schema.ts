// What dropkit's schema (schema.json, handed in by the host) says about a key path: its description, its keys, its values.

/** The parts of a JSON Schema node that completion and hover read. */
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

/** The whole schema: its root node and the definitions its `$ref`s name. */
export type Schema = SchemaNode & { definitions?: Record<string, SchemaNode> };

/** Follows `$ref`s (local ones only, as schema.json has), keeping the referring node's own description and default. */
function deref(root: Schema, node: SchemaNode): SchemaNode {
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
export function schemaAt(root: Schema, path: Array<string | number>): SchemaNode | undefined {
  let node: SchemaNode | undefined = deref(root, root);
  for (const part of path) {
    if (!node) return undefined;
    node =
      typeof part === "number"
        ? node.items
          ? deref(root, node.items)
          : undefined
        : node.properties?.[part]
          ? deref(root, node.properties[part])
          : undefined;
  }
  return node;
}

/** The scalar values a node accepts or suggests: its `const`, `enum`, `examples`, those of its `anyOf`/`oneOf` branches, and `true`/`false` for booleans. */
export function valuesOf(root: Schema, node: SchemaNode): unknown[] {
  const out: unknown[] = [];
  const add = (value: unknown) => {
    if (value !== null && typeof value !== "object" && !out.includes(value)) out.push(value);
  };
  if (node.const !== undefined) add(node.const);
  node.enum?.forEach(add);
  node.examples?.forEach(add);
  for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) valuesOf(root, deref(root, branch)).forEach(add);
  if (node.type === "boolean") [true, false].forEach(add);
  return out;
}

/** The description of a dotted key such as `hooks.onFailure`, for the explain view's heading. */
export function describeKey(root: Schema, key: string): string | undefined {
  return schemaAt(root, key.split("."))?.description;
}
