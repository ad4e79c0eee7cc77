// Parsing the JSON files dropkit keeps for itself (state, cache) within size and depth limits, and the two checks every reader of parsed JSON needs.
// No such file can end a run in a stack overflow or run it out of memory.

/** How large and how deeply nested a file may be before it is treated as corrupt. */
export interface JsonLimits {
  /** The largest file, in bytes. */
  bytes: number;
  /** The deepest nesting of objects and arrays (the top-level value is depth 1). */
  depth: number;
}

/** The outcome of `parseJsonWithin`: the value, or why the text is not usable. */
export type ParsedJson = { ok: true; value: unknown } | { ok: false; reason: string };

/**
 * Parses `text` as JSON once it is known to fit `limits`: deeper nesting than `limits.depth` is refused
 * before `JSON.parse` runs (checked by one pass over the text, without recursion), so that the value can
 * later be written back, compared and copied without overflowing the stack. A leading byte order mark is
 * ignored.
 *
 * @param text - The file's text; `complete: false` when only its first `limits.bytes` bytes were read.
 * @param size - The file's size in bytes, for the message.
 */
export function parseJsonWithin(text: string, complete: boolean, size: number, limits: JsonLimits): ParsedJson {
  if (!complete) return { ok: false, reason: `it is ${formatBytes(size)}, more than the ${formatBytes(limits.bytes)} dropkit reads` };
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (nestingExceeds(body, limits.depth)) return { ok: false, reason: `it is nested more than ${limits.depth} levels deep` };
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Whether `text` opens more than `max` objects or arrays inside one another, brackets inside strings not
 * counted. Text that is not JSON may be misjudged, which is harmless: it fails to parse anyway.
 */
export function nestingExceeds(text: string, max: number): boolean {
  // A text with no more opening brackets than `max`, inside strings or not, cannot nest deeper: counted with
  // indexOf, which most files (a cache of a few archives, a state file) end at, sparing them the walk below, which
  // runs in the interpreter the first time (docs/performance.md#a-cached-create).
  let opening = 0;
  for (const bracket of ["{", "["]) {
    for (let i = text.indexOf(bracket); i !== -1 && opening <= max; i = text.indexOf(bracket, i + 1)) opening++;
  }
  if (opening <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next unit
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** "4 MiB", "1.5 KiB", "200 bytes". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  const [value, unit] = n < 1024 ** 2 ? [n / 1024, "KiB"] : n < 1024 ** 3 ? [n / 1024 ** 2, "MiB"] : [n / 1024 ** 3, "GiB"];
  return `${Number(value.toFixed(1))} ${unit}`;
}

/** Whether a parsed JSON value is an object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Sets an own data property: plain assignment of a `__proto__` key would replace the prototype instead. */
export function setOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
