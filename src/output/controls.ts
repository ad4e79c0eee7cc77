// Control characters made visible in what dropkit prints: the text log's escapes, and the JSON log's lines that no reader splits or renders wrongly.

/**
 * What the text log never prints raw, because it would forge a line or drive the terminal: the C0 controls
 * (newline, ESC, ...), DEL, the C1 controls, the line and paragraph separators (U+2028, U+2029) and the bidi
 * controls that reorder what is shown (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069).
 */
const controls = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The same set, to test for: most text has nothing to escape, and is then returned as it is, with nothing made. */
const anyControl = new RegExp(controls.source);

/** The same set minus C0, which `JSON.stringify` already escapes. */
const controlsJsonLeaves = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with every control character of the text log's list made visible: `\n`, `\r`, `\t`, `\xHH` for the
 * other C0 and C1 controls and DEL, `\uHHHH` for the separators and bidi controls. Backslashes are left as
 * they are: the text log is for people; the JSON log is exact.
 *
 * @param keepTabs - Leave tabs raw (a code frame's indentation, which the caret line copies). @default false
 */
export function escapeControls(text: string, keepTabs = false): string {
  if (!anyControl.test(text)) return text;
  return text.replace(controls, (c) => {
    if (c === "\t" && keepTabs) return c;
    if (c === "\n") return "\\n";
    if (c === "\r") return "\\r";
    if (c === "\t") return "\\t";
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/**
 * One NDJSON line. `JSON.stringify` escapes C0 but leaves DEL, C1, U+2028/U+2029 and the bidi controls raw;
 * they are written as `\uHHHH` too, which parses to the same string, so that a reader splitting lines on
 * more than "\n" (Python's `splitlines`) or a terminal showing the raw stream is not misled.
 */
export function jsonLine(record: object): string {
  return jsonText(record) + "\n";
}

/** `value` as JSON text (`indent` spaces deep, or compact), with the same characters escaped as `jsonLine`'s. */
export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(controlsJsonLeaves, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * `value` with every string in it (keys too) passed through `escapeControls`. A value with nothing to escape is
 * returned itself, not copied: the text log renders every record through this, and copying each (its entries, its
 * arrays) was most of what a record cost.
 */
export function escapeDeep(value: unknown): unknown {
  if (typeof value === "string") return escapeControls(value);
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const escaped = escapeDeep(value[i]);
      if (!Object.is(escaped, value[i])) (copy ??= value.slice())[i] = escaped;
    }
    return copy ?? value;
  }
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    const unchanged = Object.keys(record).every((k) => escapeControls(k) === k && Object.is(escapeDeep(record[k]), record[k]));
    return unchanged ? value : Object.fromEntries(Object.entries(record).map(([k, v]) => [escapeControls(k), escapeDeep(v)]));
  }
  return value;
}
