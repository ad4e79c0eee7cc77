// JSON text as tokens, kept byte for byte: Format re-indents from them, and fixes find a value's or a property's span with them.

/** A token of JSON text: its kind and its span; strings, numbers and literals are never decoded, so nothing of them changes. */
export interface Token {
  kind: "{" | "}" | "[" | "]" | ":" | "," | "string" | "scalar";
  from: number;
  to: number;
}

const WHITESPACE = /[ \t\n\r]/;

/** The token starting at `at` (after whitespace), or undefined at the end of the text. */
function tokenAt(text: string, at: number): Token | undefined {
  let i = at;
  while (i < text.length && WHITESPACE.test(text[i]!)) i++;
  if (i >= text.length) return undefined;
  const c = text[i]!;
  if (c === "{" || c === "}" || c === "[" || c === "]" || c === ":" || c === ",") return { kind: c, from: i, to: i + 1 };
  if (c === '"') {
    let j = i + 1;
    while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
    return { kind: "string", from: i, to: Math.min(j + 1, text.length) };
  }
  // A number or a literal: everything up to the next delimiter, as written (`1e400` stays `1e400`).
  let j = i + 1;
  while (j < text.length && !/[\s{}[\]:,"]/.test(text[j]!)) j++;
  return { kind: "scalar", from: i, to: j };
}

/** Every token of the text, in order. */
export function tokens(text: string): Token[] {
  const out: Token[] = [];
  // A byte-order mark is no token: the formatter keeps it in front.
  for (let token = tokenAt(text, text.charCodeAt(0) === 0xfeff ? 1 : 0); token; token = tokenAt(text, token.to)) out.push(token);
  return out;
}

/**
 * The text re-indented by two spaces a level, one value a line, as `JSON.stringify(value, null, 2)` lays it out, but
 * from the tokens: every string and number is copied as it is written (`1e400`, `12345678901234567890`, `"\u00e9"`).
 * The line ending is the text's own (CRLF when it has one). Only for a text that parses.
 */
export function formatJson(text: string): string {
  const newline = text.includes("\r\n") ? "\r\n" : "\n";
  const list = tokens(text);
  let out = text.charCodeAt(0) === 0xfeff ? "\ufeff" : "";
  let depth = 0;
  const indent = () => newline + "  ".repeat(depth);
  for (let i = 0; i < list.length; i++) {
    const token = list[i]!;
    const written = text.slice(token.from, token.to);
    const next = list[i + 1];
    switch (token.kind) {
      case "{":
      case "[":
        out += written;
        // An empty object or array stays on its line: `{}`, `[]`.
        if (next && (next.kind === "}" || next.kind === "]")) {
          out += text.slice(next.from, next.to);
          i++;
        } else {
          depth++;
          out += indent();
        }
        break;
      case "}":
      case "]":
        depth--;
        out += indent() + written;
        break;
      case ",":
        out += written + indent();
        break;
      case ":":
        out += ": ";
        break;
      default:
        out += written;
    }
  }
  return out + newline;
}

/** The end of the value that starts at `from` (a string, a scalar, or a whole object or array), or undefined. */
export function valueEnd(text: string, from: number): number | undefined {
  const first = tokenAt(text, from);
  if (!first || first.from !== from) return undefined;
  if (first.kind === "string" || first.kind === "scalar") return first.to;
  if (first.kind !== "{" && first.kind !== "[") return undefined;
  let depth = 0;
  for (let token: Token | undefined = first; token; token = tokenAt(text, token.to)) {
    if (token.kind === "{" || token.kind === "[") depth++;
    else if (token.kind === "}" || token.kind === "]") depth--;
    if (depth === 0) return token.to;
  }
  return undefined;
}

/**
 * The span that removes the property whose key starts at `keyFrom`: the key, its value, and one comma (the one after
 * it, or when it is the last, the one before), with the line it stood on when it stood alone there. Undefined when
 * no property starts there.
 */
export function propertySpan(text: string, keyFrom: number): { from: number; to: number } | undefined {
  const key = tokenAt(text, keyFrom);
  if (key?.kind !== "string" || key.from !== keyFrom) return undefined;
  const colon = tokenAt(text, key.to);
  if (colon?.kind !== ":") return undefined;
  const value = tokenAt(text, colon.to);
  const end = value && valueEnd(text, value.from);
  if (end === undefined) return undefined;
  const after = tokenAt(text, end);
  let from = keyFrom;
  let to = end;
  if (after?.kind === ",") to = after.to;
  else {
    // The last property: the comma before it goes, so that no trailing comma is left.
    let i = keyFrom - 1;
    while (i >= 0 && WHITESPACE.test(text[i]!)) i--;
    if (text[i] === ",") from = i;
  }
  // Alone on its line: the whole line goes, its line break included.
  const lineStart = text.lastIndexOf("\n", from - 1) + 1;
  const rest = /^[ \t]*\r?\n/.exec(text.slice(to));
  if (/^[ \t]*$/.test(text.slice(lineStart, from)) && rest) return { from: lineStart, to: to + rest[0].length };
  return { from, to };
}
