// String helpers for messages and names: templates, numbers, quoting, comparing and sorting.

import { isSpace } from "~lib/util/string";
import { CARRIAGE_RETURN, COLON, DIGIT_0, LINE_FEED, LOWER_A, LOWER_Z, PERCENT, SPACE, TAB, UPPER_A, UPPER_Z } from "./chars";
import { newString } from "./utf8";

/**
 * The template with each `%` replaced by the next argument (no message of the core has a `%` of its own),
 * built in one allocation.
 */
export function format(template: string, a: string, b: string = "", c: string = "", d: string = ""): string {
  const n = template.length;
  let size = n;
  let holes = 0;
  for (let i = 0; i < n; i++) {
    if (template.charCodeAt(i) == PERCENT) size += argument(holes++, a, b, c, d).length - 1;
  }
  const out = newString(size);
  let to = changetype<usize>(out);
  let from = 0;
  holes = 0;
  for (let i = 0; i <= n; i++) {
    if (i < n && template.charCodeAt(i) != PERCENT) continue;
    to = copyUnits(to, template, from, i - from);
    if (i < n) {
      const arg = argument(holes++, a, b, c, d);
      to = copyUnits(to, arg, 0, arg.length);
    }
    from = i + 1;
  }
  return out;
}

function argument(i: i32, a: string, b: string, c: string, d: string): string {
  return i == 0 ? a : i == 1 ? b : i == 2 ? c : d;
}

function copyUnits(to: usize, s: string, from: i32, n: i32): usize {
  memory.copy(to, changetype<usize>(s) + ((<usize>from) << 1), (<usize>n) << 1);
  return to + ((<usize>n) << 1);
}

/** A non-negative number in decimal: the core's only numbers to print are counts, indices and positions. */
export function intText(v: i32): string {
  const n = digitCount(v);
  const out = newString(n);
  writeDigits(changetype<usize>(out), v, n);
  return out;
}

/** The number of decimal digits of a non-negative number. */
export function digitCount(v: i32): i32 {
  let n = 1;
  while (v >= 10) {
    v /= 10;
    n++;
  }
  return n;
}

/** `file:line:column`, in one allocation: every value of a config file gets such a source. */
export function positionText(file: string, line: i32, column: i32): string {
  const n = file.length;
  const lineDigits = digitCount(line);
  const columnDigits = digitCount(column);
  const out = newString(n + lineDigits + columnDigits + 2);
  let p = copyUnits(changetype<usize>(out), file, 0, n);
  store<u16>(p, COLON);
  p = writeDigits(p + 2, line, lineDigits);
  store<u16>(p, COLON);
  writeDigits(p + 2, column, columnDigits);
  return out;
}

/** Writes the `n` UTF-16 digits of a non-negative number at `p`; returns where they end. */
function writeDigits(p: usize, v: i32, n: i32): usize {
  const end = p + ((<usize>n) << 1);
  let q = end;
  do {
    q -= 2;
    store<u16>(q, <u16>(DIGIT_0 + (v % 10)));
    v /= 10;
  } while (v > 0);
  return end;
}

/** The key path of item `index` of the list at `path`: "modules.include[2]". */
export function itemPath(path: string, index: i32): string {
  return format("%[%]", path, intText(index));
}

/** Quotes each name and joins them with ", ". */
export function quoteList(names: Array<string>): string {
  const parts = new Array<string>(names.length);
  for (let i = 0; i < names.length; i++) parts[i] = '"' + names[i] + '"';
  return parts.join(", ");
}

/** At most 60 code units of `s`, for quoting a value in a message. */
export function clip(s: string): string {
  return s.length > 60 ? s.slice(0, 57) + "..." : s;
}

/**
 * `s` as a message quotes it: itself, or when it is only white space (which would show as nothing), each character
 * but the space as its JSON escape (\t, \n, \u00a0), so that the reader sees what the value holds.
 */
export function shown(s: string): string {
  const n = s.length;
  if (n == 0) return s;
  for (let i = 0; i < n; i++) if (!isSpace(s.charCodeAt(i))) return s;
  let out = "";
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c == <i32>SPACE) out += " ";
    else if (c == <i32>TAB) out += "\\t";
    else if (c == <i32>LINE_FEED) out += "\\n";
    else if (c == <i32>CARRIAGE_RETURN) out += "\\r";
    else out += "\\u" + c.toString(16).padStart(4, "0");
  }
  return out;
}

/** `s` with its first letter upper-cased (ASCII: every message of the core is). */
export function capitalize(s: string): string {
  const c = s.length > 0 ? s.charCodeAt(0) : 0;
  return c >= <i32>LOWER_A && c <= <i32>LOWER_Z ? String.fromCharCode(c - 32) + s.slice(1) : s;
}

/** Lower-cases ASCII letters only: keys, variable names and file suffixes are ASCII. */
export function asciiLower(s: string): string {
  const n = s.length;
  let i = 0;
  while (i < n && !isUpper(s.charCodeAt(i))) i++;
  if (i == n) return s;
  const out = newString(n);
  for (let j = 0; j < n; j++) {
    const c = s.charCodeAt(j);
    store<u16>(changetype<usize>(out) + ((<usize>j) << 1), <u16>(isUpper(c) ? c + 32 : c));
  }
  return out;
}

function isUpper(c: i32): bool {
  return c >= <i32>UPPER_A && c <= <i32>UPPER_Z;
}

/** The space-separated words of `list`: a table of names written as one literal. */
export function words(list: string): Array<string> {
  return list.split(" ");
}
