// Where a problem in a .ts/.js config's exported data was written: its key path found in the file's text, as a JSON config's problems have.

import type { CoreDiagnostic } from "../core/protocol.js";

/** A position in a text: 1-based line and column in UTF-16 units (a CR, an LF or a CRLF ends a line, as in the core). */
export interface TextPosition {
  line: number;
  column: number;
  offset: number;
}

/**
 * The problems of `.ts`/`.js` files (whose data the core validated as values, without positions) placed where their
 * key path is written in the file: each key of the path found in order as a property name (`key:`, `"key":`,
 * `'key':`, outside comments and strings), and an index (`[2]`) as that element of the array literal that follows.
 * A problem whose path cannot be followed in the text (a computed key, a spread, a value built by a function) keeps
 * only its file, as before.
 *
 * @param errors - The resolve's problems.
 * @param texts - The judged text of each `.ts`/`.js` file, by the path the core names as `source`.
 */
export function placeValueErrors(errors: CoreDiagnostic[], texts: ReadonlyMap<string, string>): CoreDiagnostic[] {
  if (texts.size === 0) return errors;
  const blanked = new Map<string, string>();
  return errors.map((error) => {
    const text = error.line === undefined && error.path !== "" ? texts.get(error.source) : undefined;
    if (text === undefined) return error;
    let code = blanked.get(error.source);
    if (code === undefined) blanked.set(error.source, (code = blankCommentsAndStrings(text)));
    const at = locatePath(code, text, error.path);
    if (!at) return error;
    const { line, column } = positionOf(text, at.offset);
    return {
      ...error,
      file: error.source,
      line,
      column,
      offset: at.offset,
      length: at.length,
      source: `${error.source}:${line}:${column}`,
    };
  });
}

/** `modules.include[2]` → `["modules", "include", 2]`; a key holding a dot is not told apart, and such a path is not placed. */
export function pathSegments(path: string): Array<string | number> {
  const segments: Array<string | number> = [];
  for (const part of path.split(".")) {
    const match = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!match) return [];
    if (match[1] !== "") segments.push(match[1]!);
    for (const index of match[2]!.matchAll(/\[(\d+)\]/g)) segments.push(Number(index[1]));
  }
  return segments;
}

/**
 * The span of the last segment of `path` in the text: a key's name, or an array element. `code` is the text with
 * comments and string contents blanked (same length), in which keys and brackets are looked for.
 */
function locatePath(code: string, text: string, path: string): { offset: number; length: number } | null {
  const segments = pathSegments(path);
  if (segments.length === 0) return null;
  let from = 0;
  let span: { offset: number; length: number } | null = null;
  for (const segment of segments) {
    span = typeof segment === "string" ? findKey(code, text, segment, from) : findElement(code, from, segment);
    if (!span) return null;
    // The next segment is looked for after this key (in its value) or inside this element.
    from = typeof segment === "string" ? span.offset + span.length : span.offset;
  }
  return span;
}

/** The first property name `key` at or after `from`: bare, or quoted with either quote, followed by `:`. */
function findKey(code: string, text: string, key: string, from: number): { offset: number; length: number } | null {
  let found: { offset: number; length: number } | null = null;
  if (/^[A-Za-z_$][\w$]*$/.test(key)) {
    const bare = new RegExp(`(?<![\\w$.])${key.replace(/\$/g, "\\$")}(?=\\s*:)`, "g");
    bare.lastIndex = from;
    const match = bare.exec(code);
    if (match) found = { offset: match.index, length: key.length };
  }
  // A quoted key's characters are blanked in `code`: it is looked for in `text`, between quotes that `code` kept.
  for (const quote of ['"', "'"]) {
    const needle = `${quote}${key}${quote}`;
    for (let at = text.indexOf(needle, from); at >= 0 && (found === null || at < found.offset); at = text.indexOf(needle, at + 1)) {
      if (code[at] === quote && /^\s*:/.test(code.slice(at + needle.length, at + needle.length + 64))) {
        found = { offset: at + 1, length: key.length };
        break;
      }
    }
  }
  return found;
}

/** The `index`th element of the array literal that opens at the first `[` at or after `from`. */
function findElement(code: string, from: number, index: number): { offset: number; length: number } | null {
  // After a key: past its colon, to the value.
  const lead = /^\s*:?\s*/.exec(code.slice(from, from + 256))![0].length;
  const start = from + lead;
  if (start < 0 || code[start] !== "[") return null;
  let depth = 0;
  let count = 0;
  let elementStart = -1;
  for (let i = start; i < code.length; i++) {
    const c = code[i]!;
    if (c === "[" || c === "{" || c === "(") {
      depth++;
      if (depth === 1) continue;
    } else if (c === "]" || c === "}" || c === ")") {
      depth--;
      if (depth === 0) return elementStart >= 0 && count === index ? trimmed(code, elementStart, i) : null;
    } else if (c === "," && depth === 1) {
      if (count === index && elementStart >= 0) return trimmed(code, elementStart, i);
      count++;
      elementStart = -1;
      continue;
    }
    if (depth >= 1 && elementStart < 0 && /\S/.test(c)) {
      elementStart = i;
      if (c === "[" || c === "{" || c === "(") continue;
    }
  }
  return null;
}

function trimmed(code: string, start: number, end: number): { offset: number; length: number } {
  let last = end;
  while (last > start && /\s/.test(code[last - 1]!)) last--;
  return { offset: start, length: Math.max(1, last - start) };
}

/**
 * `text` with every comment and the contents of every string and template literal replaced by spaces (newlines
 * kept), so that a key or a bracket is never found inside them; quotes stay, so a quoted key can be matched.
 */
export function blankCommentsAndStrings(text: string): string {
  const out = text.split("");
  let i = 0;
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to; k++) if (out[k] !== "\n" && out[k] !== "\r") out[k] = " ";
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === "/" && text[i + 1] === "/") {
      const end = text.slice(i).search(/[\r\n]/);
      const stop = end < 0 ? text.length : i + end;
      blank(i, stop);
      i = stop;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? text.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === '"' || c === "'" || c === "`") {
      let k = i + 1;
      while (k < text.length && text[k] !== c) k += text[k] === "\\" ? 2 : 1;
      blank(i + 1, Math.min(k, text.length));
      i = k + 1;
    } else {
      i++;
    }
  }
  return out.join("");
}

/** The 1-based line and column of `offset` (UTF-16 units); a leading byte-order mark is not a column. */
export function positionOf(text: string, offset: number): TextPosition {
  let line = 1;
  let lineStart = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1, offset };
}
