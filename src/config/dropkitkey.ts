// Whether a package.json's text holds dropkit's config (a top-level `dropkit` key): one rule for the CLI and the playground.

/**
 * Whether a package.json's text holds a top-level `dropkit` key; an unparsable one that mentions it counts, so that
 * the core reports the syntax error with its line and column. No Node API: the playground imports it too.
 */
export function dropkitKeyInText(text: string): boolean {
  // Cheap pre-checks: most package.json files never mention dropkit, and one that holds the key is told by one scan,
  // without building its value (a package.json's many dependencies make JSON.parse slow: the language server asks on
  // every keystroke); only a text that mentions dropkit elsewhere is parsed, to tell one that does not parse.
  if (!text.includes('"dropkit"')) return false;
  if (looksLikePackageJson(text)) return true;
  let data: unknown;
  try {
    data = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return true;
  }
  return typeof data === "object" && data !== null && !Array.isArray(data) && Object.hasOwn(data, "dropkit");
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const BRACE_OPEN = 0x7b;
const BRACE_CLOSE = 0x7d;
const BRACKET_OPEN = 0x5b;
const BRACKET_CLOSE = 0x5d;
const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

/**
 * True when the text's top-level object has a `dropkit` key: the one key that makes a package.json dropkit's (a
 * package's `name` or `version` does not: in a dropkit.config.json they are unknown keys, as the CLI says). A scan, not a parse: it follows
 * strings and nesting only, so a 1 MB package.json costs one pass and no allocation beyond the keys it compares, and the
 * core parses the text once per run (its syntax errors are reported by the resolve, not here). Text that is not an
 * object, or that breaks off, simply has the keys seen so far.
 */
export function looksLikePackageJson(text: string): boolean {
  let depth = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i + 1;
      i = start;
      while (i < n && text.charCodeAt(i) !== QUOTE) i += text.charCodeAt(i) === BACKSLASH ? 2 : 1;
      const end = i;
      i++;
      // A key of the top-level object is a string at depth 1 followed by a colon.
      if (depth === 1) {
        let j = i;
        while (j < n && isBlank(text.charCodeAt(j))) j++;
        if (j < n && text.charCodeAt(j) === COLON && end - start === 7 && text.slice(start, end) === "dropkit") return true;
      }
      continue;
    }
    if (c === BRACE_OPEN || c === BRACKET_OPEN) depth++;
    else if (c === BRACE_CLOSE || c === BRACKET_CLOSE) depth--;
    i++;
  }
  return false;
}

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB || c === LF || c === CR;
}
