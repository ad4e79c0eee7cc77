// Literal text inside a regular expression, for assertions that match a message around a path or a value.

/** `text` with every regular-expression metacharacter escaped, so it matches itself. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
