// Small string helpers: did-you-mean suggestions, path arithmetic, value descriptions.

import { JsonNode, KIND_ARRAY, KIND_BOOL, KIND_NULL, KIND_NUMBER, KIND_OBJECT, KIND_STRING } from "./json";
import { compareImpl } from "util/string";

/** The closest candidate to `word` by edit distance (case-insensitive), or "" when none is close. */
export function suggest(word: string, candidates: Array<string>): string {
  const lower = asciiLower(word);
  let best = "";
  let bestDistance = i32.MAX_VALUE;
  // Allow about one edit per three characters, at least two, so "colour" finds "color" but "x" finds nothing.
  const limit = max<i32>(2, lower.length / 3);
  for (let i = 0, n = candidates.length; i < n; i++) {
    const candidate = candidates[i];
    const d = editDistance(lower, asciiLower(candidate));
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return bestDistance <= limit && bestDistance < lower.length ? best : "";
}

/** Levenshtein distance with adjacent transpositions counted as one edit. */
export function editDistance(a: string, b: string): i32 {
  const n = a.length;
  const m = b.length;
  if (n == 0) return m;
  if (m == 0) return n;
  let prev2 = new StaticArray<i32>(m + 1);
  let prev = new StaticArray<i32>(m + 1);
  let cur = new StaticArray<i32>(m + 1);
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= m; j++) {
      const cb = b.charCodeAt(j - 1);
      const cost = ca == cb ? 0 : 1;
      let v = min<i32>(min<i32>(prev[j] + 1, cur[j - 1] + 1), prev[j - 1] + cost);
      if (i > 1 && j > 1 && ca == b.charCodeAt(j - 2) && a.charCodeAt(i - 2) == cb) v = min<i32>(v, prev2[j - 2] + 1);
      cur[j] = v;
    }
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[m];
}

/** " Did you mean X?" or "" */
export function didYouMean(word: string, candidates: Array<string>): string {
  const s = suggest(word, candidates);
  return s.length > 0 ? " Did you mean \"" + s + "\"?" : "";
}

/** A short description of what a JSON value is, for "found ..." in messages. */
export function describe(node: JsonNode): string {
  const kind = node.kind;
  if (kind == KIND_NULL) return "null";
  if (kind == KIND_BOOL) return node.flag ? "true" : "false";
  if (kind == KIND_NUMBER) return "the number " + node.text;
  if (kind == KIND_STRING) return node.text.length == 0 ? "an empty string" : "the string \"" + clip(node.text) + "\"";
  if (kind == KIND_ARRAY) return node.items.length == 0 ? "an empty array" : "an array";
  if (kind == KIND_OBJECT) return "an object";
  return "a value";
}

/** `message`, then what the value is: "theme must be a string, found the number 3." */
export function foundText(message: string, node: JsonNode): string {
  return format("%, found %.", message, describe(node));
}

/** The key path of item `index` of the list at `path`: "modules.include[2]". */
export function itemPath(path: string, index: i32): string {
  return format("%[%]", path, intText(index));
}

/** Quotes each name and joins them with ", ". */
export function quoteList(names: Array<string>): string {
  const parts = new Array<string>();
  for (let i = 0; i < names.length; i++) parts.push("\"" + names[i] + "\"");
  return parts.join(", ");
}

export function clip(s: string): string {
  return s.length > 60 ? s.slice(0, 57) + "..." : s;
}

export function isAbsolutePath(p: string): bool {
  if (hasPrefix(p, "/") || hasPrefix(p, "\\")) return true;
  // Windows drive paths such as C:\x or C:/x.
  return p.length >= 3 && p.charCodeAt(1) == 0x3a && (p.charCodeAt(2) == 0x5c || p.charCodeAt(2) == 0x2f);
}

/** Resolves `p` against the absolute directory `base`, folding "." and ".." segments. */
export function resolvePath(base: string, p: string): string {
  const full = isAbsolutePath(p) ? p : (hasSuffix(base, "/") || hasSuffix(base, "\\") ? base + p : base + "/" + p);
  return normalizePath(full);
}

export function normalizePath(p: string): string {
  const windows = p.length >= 2 && p.charCodeAt(1) == 0x3a;
  const unified = slashes(p);
  const raw = splitOn(unified, "/");
  const out = new Array<string>();
  for (let i = 0; i < raw.length; i++) {
    const part = raw[i];
    if (part.length == 0 || part == ".") continue;
    if (part == "..") {
      if (out.length > (windows ? 1 : 0)) out.pop();
      continue;
    }
    out.push(part);
  }
  const joined = out.join("/");
  return windows ? joined : "/" + joined;
}

export function dirnameOf(p: string): string {
  const unified = slashes(p);
  const i = lastIndexOf(unified, 0x2f);
  if (i < 0) return ".";
  if (i == 0) return "/";
  return unified.slice(0, i);
}

export function basenameOf(p: string): string {
  const unified = slashes(p);
  return unified.slice(lastIndexOf(unified, 0x2f) + 1);
}

export function endsWithIgnoreCase(s: string, suffix: string): bool {
  return s.length >= suffix.length && asciiLower(s.slice(s.length - suffix.length)) == suffix;
}

/**
 * The indices of `names` in plain code-unit order (the same in every host), equal names in their
 * original order: a bottom-up merge sort, linear-logarithmic for any number of names.
 */
export function sortedOrder(names: Array<string>): Array<i32> {
  const n = names.length;
  let order = new Array<i32>(n);
  let next = new Array<i32>(n);
  for (let i = 0; i < n; i++) order[i] = i;
  for (let width = 1; width < n; width <<= 1) {
    for (let lo = 0; lo < n; lo += width << 1) {
      const mid = min<i32>(lo + width, n);
      const hi = min<i32>(lo + (width << 1), n);
      let a = lo;
      let b = mid;
      for (let k = lo; k < hi; k++) {
        // Take from the right run only when strictly smaller, so that equal names keep their order.
        if (a < mid && (b >= hi || !(names[order[b]] < names[order[a]]))) next[k] = order[a++];
        else next[k] = order[b++];
      }
    }
    const t = order;
    order = next;
    next = t;
  }
  return order;
}

/** The parts of `s` between occurrences of `sep`, as String#split gives them (a smaller, single-separator loop). */
export function splitOn(s: string, sep: string): Array<string> {
  const parts = new Array<string>();
  let start = 0;
  for (let i = s.indexOf(sep); i >= 0; i = s.indexOf(sep, start)) {
    parts.push(s.slice(start, i));
    start = i + sep.length;
  }
  parts.push(s.slice(start));
  return parts;
}

/** The one-character string of code unit `c`: String.fromCharCode with less code. */
export function charText(c: i32): string {
  const s = newString(1);
  store<u16>(changetype<usize>(s), <u16>c);
  return s;
}

/** Whether `s` holds the first `n` units of `part` at `at`: String#startsWith and #endsWith share this, in less code. */
function hasAt(s: string, at: i32, part: string, n: i32): bool {
  return at >= 0 && at + n <= s.length && compareImpl(s, at, part, 0, n) == 0;
}

/** Whether `s` starts with `prefix`, or with its first `n` units (compared in place, without a slice). */
export function hasPrefix(s: string, prefix: string, n: i32 = prefix.length): bool {
  return hasAt(s, 0, prefix, n);
}

export function hasSuffix(s: string, suffix: string): bool {
  return hasAt(s, s.length - suffix.length, suffix, suffix.length);
}

/** The space-separated words of `list`: a table of names from one literal, which costs less than an array literal. */
export function words(list: string): Array<string> {
  return splitOn(list, " ");
}

/** The index of the last code unit `c` in `s`, or -1: String#lastIndexOf costs three times the code. */
export function lastIndexOf(s: string, c: i32): i32 {
  let i = s.length - 1;
  while (i >= 0 && s.charCodeAt(i) != c) i--;
  return i;
}

/**
 * `file:line:column` as one string, allocated once: every value of a document gets such a source, so
 * concatenating the parts (five new strings each time) would be a large share of a resolve.
 */
export function positionText(file: string, line: i32, column: i32): string {
  const n = file.length;
  const lineDigits = digitCount(line);
  const columnDigits = digitCount(column);
  const out = newString(n + lineDigits + columnDigits + 2);
  let p = changetype<usize>(out);
  memory.copy(p, changetype<usize>(file), <usize>n << 1);
  p += <usize>n << 1;
  store<u16>(p, 0x3a);
  p = writeDigits(p + 2, line, lineDigits);
  store<u16>(p, 0x3a);
  writeDigits(p + 2, column, columnDigits);
  return out;
}

/** A non-negative number in decimal: the core's only numbers to print are counts, indices and positions. */
export function intText(v: i32): string {
  const n = digitCount(v);
  const out = newString(n);
  writeDigits(changetype<usize>(out), v, n);
  return out;
}

/** A string of the `n` ASCII bytes at `ptr`, widened to UTF-16 (String.UTF8.decode does more, at a cost). */
export function asciiText(ptr: usize, n: i32): string {
  const out = newString(n);
  const to = changetype<usize>(out);
  for (let i = 0; i < n; i++) store<u16>(to + (<usize>i << 1), load<u8>(ptr + <usize>i));
  return out;
}

/** A new string of `n` code units, which the caller fills in. */
function newString(n: i32): string {
  return changetype<string>(__new(<usize>n << 1, idof<string>()));
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

/** Writes the `n` UTF-16 digits of a non-negative number at `p`; returns where they end. */
function writeDigits(p: usize, v: i32, n: i32): usize {
  const end = p + (<usize>n << 1);
  let q = end;
  do {
    q -= 2;
    store<u16>(q, <u16>(0x30 + v % 10));
    v /= 10;
  } while (v > 0);
  return end;
}

/** Appends the entries of `from` to `into` that it does not hold yet. */
export function pushUnique(into: Array<string>, value: string): bool {
  if (into.includes(value)) return false;
  into.push(value);
  return true;
}

/** Lower-cases ASCII letters only: keys, variable names and file suffixes are ASCII, and Unicode tables cost kilobytes. */
export function asciiLower(s: string): string {
  let i = 0;
  const n = s.length;
  while (i < n && !isUpper(s.charCodeAt(i))) i++;
  if (i == n) return s;
  const out = newString(n);
  for (let j = 0; j < n; j++) {
    const c = s.charCodeAt(j);
    store<u16>(changetype<usize>(out) + (<usize>j << 1), <u16>(isUpper(c) ? c + 32 : c));
  }
  return out;
}

function isUpper(c: i32): bool {
  return c >= 0x41 && c <= 0x5a;
}

/** Backslashes to forward slashes, so that Windows paths fold like POSIX ones. */
function slashes(p: string): string {
  if (!p.includes("\\")) return p;
  return splitOn(p, "\\").join("/");
}

/**
 * The template with each `%` replaced by the next argument: one literal and one call instead of a chain
 * of literals and concatenations (no message of the core has a `%` of its own).
 */
export function format(template: string, a: string, b: string = "", c: string = "", d: string = ""): string {
  let out = "";
  let start = 0;
  let n = 0;
  for (let i = 0; i < template.length; i++) {
    if (template.charCodeAt(i) != 0x25) continue;
    out += template.slice(start, i) + (n == 0 ? a : n == 1 ? b : n == 2 ? c : d);
    start = i + 1;
    n++;
  }
  return out + template.slice(start);
}
