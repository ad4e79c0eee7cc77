// The fuzz suite's generators and properties, shared by test/core/fuzz.test.ts (CI budget) and scripts/fuzz.ts (long runs).

import assert from "node:assert/strict";
import fc from "fast-check";
import { schemaLeaves } from "../../src/core/schema-table.js";
import { openAbi, wasmExports, type AbiHost } from "./abi.js";

/** Most nesting the core accepts (docs/abi.md); deeper input is a ConfigSyntaxError. */
export const maxDepth = 128;

/** The error names a response may carry (docs/abi.md, "Diagnostics"). */
const errorNames = new Set(["SchemaValidationError", "ConfigSyntaxError", "UsageError", "PresetNotFound", "ThemeNotFound", "RequestError"]);

/** Exit code of each error name, as the core reports it. */
const exitCodeOf: Record<string, number> = {
  SchemaValidationError: 65,
  ConfigSyntaxError: 65,
  UsageError: 64,
  PresetNotFound: 67,
  ThemeNotFound: 66,
  RequestError: 70,
};

/**
 * Two instances: `main` gets every request twice in a row; `shadow` gets each request after a different
 * one (a noise request), so that any state left behind by one call would show as a different answer.
 */
export interface FuzzHosts {
  main: AbiHost;
  shadow: AbiHost;
  /** Requests sent so far (each counted once, not per instance). */
  calls: number;
  /** Largest request sent so far, in bytes. */
  largestRequest: number;
  /** Largest response so far, in UTF-16 units. */
  largestResponse: number;
}

export function openHosts(): FuzzHosts {
  return { main: openAbi(), shadow: openAbi(), calls: 0, largestRequest: 0, largestResponse: 0 };
}

const encoder = new TextEncoder();

/** What a request's `text` field looked like, so that positions can be checked against it. */
export interface Sent {
  /** The request bytes. */
  bytes: Uint8Array;
  /** The config text the response's positions refer to, when the op has one. */
  text?: string;
  /** The source name errors in `text` carry. @default "<input>" */
  source?: string;
}

/** A parsed response with its status, after the checks that hold for every response. */
export interface Checked {
  status: number;
  response: Record<string, any>;
  raw: string;
}

/**
 * Sends one request to both instances (twice to `main`) and checks what holds for every request: no
 * trap (a trap throws out of here), the response is valid JSON of the documented shape, the status
 * matches, the answer is deterministic and independent of earlier calls, and every error is well formed
 * with positions inside `sent.text`.
 */
export function callChecked(hosts: FuzzHosts, sent: Sent): Checked {
  hosts.calls++;
  hosts.largestRequest = Math.max(hosts.largestRequest, sent.bytes.length);
  const first = hosts.main.callBytes(sent.bytes);
  const again = hosts.main.callBytes(sent.bytes);
  hosts.shadow.call(noise[hosts.calls % noise.length]!);
  const other = hosts.shadow.callBytes(sent.bytes);
  hosts.largestResponse = Math.max(hosts.largestResponse, first.text.length);
  assert.equal(again.text, first.text, "the same request twice gave different answers");
  assert.equal(again.status, first.status, "the same request twice gave different statuses");
  assert.equal(other.text, first.text, "the answer depends on the call before it");
  let response: Record<string, any>;
  try {
    response = JSON.parse(first.text) as Record<string, any>;
  } catch (error) {
    assert.fail(`the response is not JSON (${(error as Error).message}): ${first.text.slice(0, 300)}`);
  }
  checkShape(first.status, response, sent);
  return { status: first.status, response, raw: first.text };
}

/** Requests the shadow instance sees between fuzz cases: each leaves different garbage behind. */
const noise = [
  '{"op":"presets"}',
  '{"op":"parse","text":"[1,{\\"a\\":\\"\\\\ud800\\"},[[[]]]]"}',
  '{"op":"validate","text":"{\\"theme\\": 3, \\"modules\\": {\\"only\\": [\\"a*b\\"]}}"}',
  '{"op":"resolve","cwd":"/d","env":{"DROPKIT_THEME":"x","DROPKIT_NOPE":"1"},"files":[],"presetFiles":[],"archives":["a.zip","b-theme.zip"]}',
  "not json at all",
  '{"op":"nope"}',
];

/** The documented shape of every response (docs/abi.md). */
export function checkShape(status: number, r: Record<string, any>, sent: Sent): void {
  assert.ok([0, 1, 2].includes(status), `status ${status}`);
  assert.equal(typeof r, "object");
  assert.ok(r !== null && !Array.isArray(r), "the response is not an object");
  assert.equal(typeof r.ok, "boolean", "ok is not a boolean");
  // `errors` may be left out only by an answer with nothing to report (the presets op, a resolve stage).
  if (r.errors === undefined && r.ok) r.errors = [];
  assert.ok(Array.isArray(r.errors), "errors is not an array");
  if (status !== 0) {
    assert.equal(r.ok, false);
    assert.ok(r.errors.length > 0, "a refused request has no error");
    for (const e of r.errors) assert.equal(e.name, "RequestError");
  }
  if (r.ok) assert.equal(r.errors.length, 0, "ok with errors");
  else assert.ok(r.errors.length > 0, "not ok, and no error says why");
  if (r.warnings !== undefined) {
    assert.ok(Array.isArray(r.warnings));
    for (const w of r.warnings) {
      assert.equal(typeof w.message, "string");
      assert.ok(w.message.length > 0);
      assert.ok(w.source === undefined || typeof w.source === "string");
    }
  }
  let previous = -1;
  for (const e of r.errors) {
    checkError(e, sent);
    // All problems of a document, ordered by position.
    if (sent.text !== undefined && typeof e.offset === "number" && e.file === (sent.source ?? "<input>")) {
      // The message only on failure: stringifying every error for every error is quadratic.
      if (e.offset < previous) assert.fail(`errors out of position order: ${JSON.stringify(r.errors)}`);
      previous = e.offset;
    }
  }
}

/** One diagnostic: name, exit code, message, path, and a position that is inside the text and self-consistent. */
export function checkError(e: Record<string, any>, sent: Sent): void {
  const where = JSON.stringify(e);
  assert.ok(errorNames.has(e.name), `unknown error name: ${where}`);
  assert.equal(e.exitCode, exitCodeOf[e.name], `wrong exit code: ${where}`);
  assert.equal(typeof e.message, "string", where);
  assert.ok(e.message.length > 0, `empty message: ${where}`);
  assert.equal(typeof e.path, "string", `no path: ${where}`);
  assert.equal(typeof e.source, "string", `no source: ${where}`);
  if (e.line === undefined) {
    for (const k of ["column", "offset", "length"]) assert.equal(e[k], undefined, `${k} without a line: ${where}`);
    return;
  }
  for (const k of ["line", "column", "offset", "length"]) assert.ok(Number.isInteger(e[k]), `${k} is not an integer: ${where}`);
  assert.ok(e.line >= 1 && e.column >= 1 && e.offset >= 0 && e.length >= 0, `position below range: ${where}`);
  assert.equal(e.source, `${e.file}:${e.line}:${e.column}`, `source does not match the position: ${where}`);
  const text = sent.text;
  if (text === undefined || e.file !== (sent.source ?? "<input>")) return;
  assert.ok(e.offset <= text.length, `offset past the end of a ${text.length}-unit text: ${where}`);
  // A span is at least one unit long (docs/abi.md): an error at the very end covers the one unit after it.
  if (e.offset === text.length) assert.equal(e.length, 1, `a span at the end of the text: ${where}`);
  else assert.ok(e.offset + e.length <= text.length, `span past the end of a ${text.length}-unit text: ${where}`);
  const expected = lineColumn(text, e.offset);
  assert.deepEqual({ line: e.line, column: e.column }, expected, `line/column do not match offset ${e.offset}: ${where}`);
}

/** The 1-based line and column (UTF-16 units; a leading BOM is not a column) of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const starts = lineStarts(text);
  // The last line start at or before the offset, by binary search.
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  const bom = lo === 0 && text.charCodeAt(0) === 0xfeff ? 1 : 0;
  return { line: lo + 1, column: offset - Math.max(starts[lo]!, bom) + 1 };
}

let lastText: string | undefined;
let lastStarts: number[] = [];

/** Where each line of `text` starts (only LF ends a line); remembered for the last text, which has many errors. */
function lineStarts(text: string): number[] {
  if (text !== lastText) {
    lastStarts = [0];
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lastStarts.push(i + 1);
    lastText = text;
  }
  return lastStarts;
}

/**
 * A raw instance for allocation fuzzing: `allocFree` allocates buffers of the given sizes (writing into
 * each), frees those marked at once, makes a request, checks its answer, then frees the rest.
 */
export function openRaw(): { allocFree(ops: Array<[number, boolean]>): void; memoryBytes(): number } {
  const e = wasmExports();
  const memory = (): Uint8Array => new Uint8Array((e.memory as WebAssembly.Memory).buffer);
  const request = encoder.encode('{"op":"parse","text":"[1,2,3]"}');
  return {
    allocFree(ops) {
      const kept: Array<[number, number]> = [];
      for (const [size, freeNow] of ops) {
        const ptr = e.dk_alloc(size) as number;
        if (size < 0) {
          // A negative length is refused with 0 (docs/embedding.md).
          assert.equal(ptr, 0, `dk_alloc(${size}) gave ${ptr}`);
          continue;
        }
        const len = size;
        assert.ok(ptr > 0 && ptr + len <= memory().length, `dk_alloc(${size}) gave ${ptr}, outside memory`);
        memory().fill(0xa5, ptr, ptr + len);
        if (freeNow) e.dk_free(ptr);
        else kept.push([ptr, len]);
      }
      // Unknown pointers are ignored.
      e.dk_free(0);
      e.dk_free(0xffff_fff0);
      const ptr = e.dk_alloc(request.length) as number;
      memory().set(request, ptr);
      assert.equal(e.dk_call(ptr, request.length), 0);
      e.dk_free(ptr);
      const out = new TextDecoder().decode(memory().subarray(e.dk_out_ptr(), e.dk_out_ptr() + e.dk_out_len()));
      assert.equal(out, '{"ok":true,"value":[1,2,3],"errors":[]}');
      // A call never touches a buffer the host still holds.
      for (const [p, len] of kept)
        assert.ok(
          memory()
            .subarray(p, p + len)
            .every((b) => b === 0xa5),
          `the buffer at ${p} changed during a call`,
        );
      for (const [p] of kept.reverse()) e.dk_free(p);
    },
    memoryBytes() {
      return (e.memory as WebAssembly.Memory).buffer.byteLength;
    },
  };
}

// --- requests ---

export function request(fields: Record<string, unknown>, text?: string, source?: string): Sent {
  return { bytes: encoder.encode(JSON.stringify(fields)), text, source };
}

// --- the JSON differential ---

/**
 * Parses `text` with the core and with `JSON.parse`, and checks that they agree: the same value when
 * `JSON.parse` accepts it (and it has no duplicate key and no deeper nesting than the core's limit),
 * a ConfigSyntaxError when `JSON.parse` rejects it. Returns whether the text parsed.
 */
export function differential(hosts: FuzzHosts, text: string): boolean {
  const { status, response } = callChecked(hosts, request({ op: "parse", text }, text));
  assert.equal(status, 0, "a parse request was refused");
  // The core tolerates one leading byte-order mark; JSON.parse does not.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let expected: unknown;
  let parsed = true;
  try {
    expected = JSON.parse(body);
  } catch {
    parsed = false;
  }
  const lone = loneSurrogate(text);
  if (lone >= 0) {
    // The core parses UTF-8, which cannot carry an unescaped lone surrogate: a syntax error at it (or before).
    assert.equal(response.ok, false, "an unescaped lone surrogate was accepted");
    assert.equal(response.errors[0].name, "ConfigSyntaxError");
    assert.ok(response.errors[0].offset <= lone, `the error is after the lone surrogate at ${lone}: ${JSON.stringify(response.errors)}`);
    return false;
  }
  if (!parsed) {
    assert.equal(response.ok, false, `JSON.parse rejects ${JSON.stringify(text.slice(0, 200))} but the core accepts it`);
    assert.equal(response.errors.length, 1, "a syntax error stops parsing: one error");
    assert.equal(response.errors[0].name, "ConfigSyntaxError");
    return false;
  }
  const shape = inspect(body);
  if (shape.depth > maxDepth) {
    assert.equal(response.ok, false);
    assert.match(response.errors[0].message, /deeper than 128/);
    return false;
  }
  if (shape.duplicates) {
    assert.equal(response.ok, false, "a duplicate key was accepted");
    // Past the first 100, one last problem counts the rest (docs/abi.md).
    for (const e of response.errors) assert.match(e.message, /^Duplicate key |^\d+ more problems in .* are not listed/);
    assert.ok(response.errors.length <= 101, `${response.errors.length} problems listed`);
    return false;
  }
  assert.equal(
    response.ok,
    true,
    `JSON.parse accepts ${JSON.stringify(text.slice(0, 200))} but the core says ${JSON.stringify(response.errors)}`,
  );
  assertSameJson(response.value, expected);
  return true;
}

/** The offset of the first unpaired surrogate in `text`, or -1. */
export function loneSurrogate(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return i;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return i;
    }
  }
  return -1;
}

/** Deep equality of two JSON values, `__proto__` keys and -0 included. */
export function assertSameJson(actual: unknown, expected: unknown, at = "value"): void {
  if (typeof expected === "number") {
    assert.ok(Object.is(actual, expected), `${at}: ${String(actual)} !== ${String(expected)}`);
    return;
  }
  if (expected === null || typeof expected !== "object") {
    assert.equal(actual, expected, at);
    return;
  }
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${at}: not an array`);
    assert.equal(actual.length, expected.length, `${at}: length`);
    expected.forEach((v, i) => {
      assertSameJson(actual[i], v, `${at}[${i}]`);
    });
    return;
  }
  assert.ok(actual !== null && typeof actual === "object" && !Array.isArray(actual), `${at}: not an object`);
  const keys = Object.keys(expected);
  assert.deepEqual(Object.keys(actual), keys, `${at}: keys`);
  for (const k of keys) assertSameJson((actual as any)[k], (expected as any)[k], `${at}.${k}`);
}

/** Nesting depth and whether any object repeats a key, by a token scan of valid JSON text. */
export function inspect(text: string): { depth: number; duplicates: boolean } {
  let depth = 0;
  let most = 0;
  let duplicates = false;
  // One set of keys per open container (null for arrays); the string before ':' is a key.
  const keys: Array<Set<string> | null> = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "{" || c === "[") {
      depth++;
      most = Math.max(most, depth);
      keys.push(c === "{" ? new Set() : null);
    } else if (c === "}" || c === "]") {
      depth--;
      keys.pop();
    } else if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      const literal = text.slice(i, j + 1);
      i = j;
      let k = i + 1;
      while (k < text.length && /\s/.test(text[k]!)) k++;
      const set = keys[keys.length - 1];
      if (text[k] === ":" && set) {
        const key = JSON.parse(literal) as string;
        if (set.has(key)) duplicates = true;
        set.add(key);
      }
    }
  }
  return { depth: most, duplicates };
}

// --- generators ---

/** A small deterministic PRNG for formatting choices, so a case is reproducible from its seed alone. */
export function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x1_0000_0000;
  };
}

const whitespace = [" ", "\t", "\n", "\r\n", "\r", "  "];

/**
 * Writes a JSON value as text with random formatting: whitespace between tokens (spaces, tabs, LF,
 * CRLF, CR), strings with random escapes (short, `\u` in either case, `\/`, surrogate pairs split
 * into escapes), and numbers in alternative spellings of the same value.
 */
export function formatJson(value: unknown, seed: number): string {
  const rnd = prng(seed);
  const ws = (): string => (rnd() < 0.3 ? whitespace[Math.floor(rnd() * whitespace.length)]!.repeat(1 + Math.floor(rnd() * 2)) : "");
  const write = (v: unknown): string => {
    if (v === null) return "null";
    if (typeof v === "boolean") return String(v);
    if (typeof v === "number") return formatNumber(v, rnd);
    if (typeof v === "string") return formatString(v, rnd);
    if (v instanceof RawNumber) return v.text;
    if (Array.isArray(v))
      return (
        "[" +
        ws() +
        v
          .map((x) => write(x))
          .map((x) => ws() + x + ws())
          .join(",") +
        ws() +
        "]"
      );
    const entries = Object.keys(v as object).map((k) => ws() + formatString(k, rnd) + ws() + ":" + ws() + write((v as any)[k]) + ws());
    return "{" + ws() + entries.join(",") + ws() + "}";
  };
  return ws() + write(value) + ws();
}

/** A number written exactly as given: the core must echo it, and JSON.parse must read the same value. */
export class RawNumber {
  constructor(readonly text: string) {}
}

function formatNumber(n: number, rnd: () => number): string {
  if (Object.is(n, -0)) return rnd() < 0.5 ? "-0" : "-0.0";
  const plain = JSON.stringify(n);
  const pick = rnd();
  if (pick < 0.6 || !Number.isFinite(n)) return plain;
  if (pick < 0.8) return n.toExponential().replace("e+", rnd() < 0.5 ? "e+" : "E");
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return `${plain}.${"0".repeat(1 + Math.floor(rnd() * 3))}`;
  return plain;
}

function formatString(s: string, rnd: () => number): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const high = c >= 0xd800 && c <= 0xdbff;
    const low = c >= 0xdc00 && c <= 0xdfff;
    const pair = high && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff;
    if ((high || low) && !pair) {
      // A lone surrogate cannot be UTF-8: only an escape can carry it.
      out += unicodeEscape(c, rnd);
    } else if (pair) {
      out += rnd() < 0.7 ? s.slice(i, i + 2) : unicodeEscape(c, rnd) + unicodeEscape(s.charCodeAt(i + 1), rnd);
      i++;
    } else if (c === 0x22) {
      out += rnd() < 0.8 ? '\\"' : unicodeEscape(c, rnd);
    } else if (c === 0x5c) {
      out += rnd() < 0.8 ? "\\\\" : unicodeEscape(c, rnd);
    } else if (c < 0x20) {
      const short: Record<number, string> = { 8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r" };
      out += short[c] !== undefined && rnd() < 0.7 ? short[c] : unicodeEscape(c, rnd);
    } else if (c === 0x2f && rnd() < 0.3) {
      out += "\\/";
    } else {
      out += rnd() < 0.05 ? unicodeEscape(c, rnd) : s[i];
    }
  }
  return out + '"';
}

function unicodeEscape(c: number, rnd: () => number): string {
  const hex = c.toString(16).padStart(4, "0");
  return "\\u" + (rnd() < 0.5 ? hex : hex.toUpperCase());
}

/** Number spellings JSON allows, including ones JavaScript would write differently. */
export const numberText = fc.stringMatching(/^-?(0|[1-9][0-9]{0,25})(\.[0-9]{1,25})?([eE][+-]?[0-9]{1,4})?$/).map((t) => new RawNumber(t));

/** Strings of any code points, lone surrogates included. */
const anyString = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "",
      "__proto__",
      "constructor",
      "prototype",
      "theme",
      "modules",
      "\u0000",
      "\ud800",
      "\udfff",
      "\u2028\u2029",
      "😀",
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 8 }) },
);

/** Any JSON value (objects without duplicate keys: a JS object cannot hold any), numbers in any spelling. */
export const jsonValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    numberText,
    anyString,
    fc.array(tie("value"), { maxLength: 6 }),
    fc.dictionary(anyString, tie("value"), { maxKeys: 6, noNullPrototype: true }),
  ),
})).value;

/** A JSON value as formatted text with its formatting seed. */
export const jsonText = fc.tuple(jsonValue, fc.integer()).map(([v, seed]) => formatJson(v, seed));

// --- mutations of valid configs ---

/** Valid configs in every shape the schema allows: the seeds of mutation. */
export const validConfigs: string[] = [
  "{}",
  '{"schema": 1}',
  JSON.stringify(
    {
      $schema: "./node_modules/dropkit/schema.json",
      schema: 1,
      theme: "ocean",
      exclude: ["legacy-*"],
      modules: { include: ["test-keep"], exclude: ["old-*"], only: [] },
      presets: ["standard"],
      presetsSearchPath: ["./presets"],
      hooks: { initScriptsDir: "./init", postScriptsDir: "./post", onFailure: "fail" },
      cache: { file: ".cache.json", enabled: false },
      log: { format: "json" },
    },
    null,
    2,
  ),
  '{\n\t"theme": "./themes/sea-theme.zip",\n\t"modules": {"only": ["shop-*", "blog"]}\n}',
  '{"theme":"none","presets":[],"log":{"format":"text"},"cache":{"enabled":true}}',
  '\uFEFF{"theme": "auto", "modules": {"exclude": ["*"]}}',
  '{"theme": "caf\u00e9 \u2603", "exclude": ["m\u00f6dule", "\ud83d\ude00-*"]}',
  '{\r\n  "schema": 1.0,\r\n  "hooks": {"onFailure": "continue"}\r\n}',
];

/** Valid preset texts (kind "preset"). */
export const validPresets: string[] = [
  '{"detect": ["*.zip", "**/*.json"], "modules": {"exclude": ["test-*"]}}',
  '{"theme": "forest", "hooks": {"onFailure": "fail"}, "exclude": ["dev-*"]}',
];

/** Valid package.json texts with a dropkit key (format "package.json"). */
export const validPackages: string[] = [
  '{"name": "drop", "version": "1.0.0", "dropkit": {"theme": "forest"}}',
  '{\n  "name": "x",\n  "scripts": {"a": "b"},\n  "dropkit": {\n    "modules": {"include": ["a"]}\n  }\n}',
  '{"name": "no-key"}',
];

/** Fragments worth splicing into a config: every token kind, keys of the schema, and hostile keys. */
const fragments = [
  "{",
  "}",
  "[",
  "]",
  ":",
  ",",
  '"',
  "\\",
  "\\u",
  "\\ud800",
  "null",
  "true",
  "false",
  "-",
  "0",
  "1e",
  ".5",
  "1.0",
  "-0",
  "1e999",
  '"theme"',
  '"modules"',
  '"include"',
  '"__proto__"',
  '"constructor"',
  '"prototype"',
  '"schema"',
  '"presets"',
  '"hooks"',
  '"*"',
  '"a*b"',
  '"x/y"',
  '""',
  " ",
  "\n",
  "\r",
  "\t",
  "\u0000",
  "\u00e9",
  "\ud83d\ude00",
  "\ufeff",
  "//",
  "/*",
  "'",
  "NaN",
  "Infinity",
];

/** A mutation of a text: delete, insert, replace, duplicate a span, or splice in a fragment. */
export const mutation = fc.record({
  kind: fc.constantFrom("delete", "insert", "replace", "duplicate", "fragment", "truncate", "swap"),
  at: fc.nat(),
  length: fc.integer({ min: 1, max: 8 }),
  char: fc.string({ unit: "binary", minLength: 1, maxLength: 3 }),
  fragment: fc.constantFrom(...fragments),
});

export type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

export function mutate(text: string, ms: Mutation[]): string {
  let t = text;
  for (const m of ms) {
    const at = t.length === 0 ? 0 : m.at % (t.length + 1);
    const end = Math.min(t.length, at + m.length);
    switch (m.kind) {
      case "delete":
        t = t.slice(0, at) + t.slice(end);
        break;
      case "insert":
        t = t.slice(0, at) + m.char + t.slice(at);
        break;
      case "replace":
        t = t.slice(0, at) + m.char + t.slice(end);
        break;
      case "duplicate":
        t = t.slice(0, end) + t.slice(at, end) + t.slice(end);
        break;
      case "fragment":
        t = t.slice(0, at) + m.fragment + t.slice(at);
        break;
      case "truncate":
        t = t.slice(0, at);
        break;
      case "swap":
        t = t.slice(0, at) + t.slice(end) + t.slice(at, end);
        break;
    }
  }
  return t;
}

/** A mutated valid config, preset or package.json, with the format and kind to validate it as. */
export const mutatedConfig = fc
  .record({
    seed: fc.oneof(
      fc.constantFrom(...validConfigs).map((text) => ({ text, format: "json" as const, kind: "config" as const })),
      fc.constantFrom(...validPresets).map((text) => ({ text, format: "json" as const, kind: "preset" as const })),
      fc.constantFrom(...validPackages).map((text) => ({ text, format: "package.json" as const, kind: "config" as const })),
    ),
    mutations: fc.array(mutation, { minLength: 1, maxLength: 4 }),
  })
  .map(({ seed, mutations }) => ({ ...seed, text: mutate(seed.text, mutations) }));

// --- config-shaped values: every key of the schema with values of every type ---

const globs = fc.constantFrom("blog", "shop-*", "*", "", "a*b", "x/y", "*a", "test-*", "\u00e9t\u00e9", "a\\b", " ", "**");
const anyLeaf = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(1.0, 0.5, -0),
  globs,
  fc.string({ maxLength: 6 }),
);
const list = fc.oneof(
  { weight: 4, arbitrary: fc.array(globs, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.array(anyLeaf, { maxLength: 3 }) },
  { weight: 1, arbitrary: anyLeaf },
);
const pathValue = fc.oneof(fc.constantFrom("./a", "/abs/dir", "", "rel dir/\u00fc", "../up"), anyLeaf);

/** An object with keys from the schema (and near misses, and hostile keys), each with a plausible or wrong value. */
export const configValue: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    $schema: fc.oneof(fc.constant("./schema.json"), anyLeaf),
    schema: fc.oneof(fc.constantFrom(1, 2, "1"), anyLeaf),
    theme: fc.oneof(fc.constantFrom("auto", "none", "ocean", "./t/sea.zip", "a/b", "", "x.ZIP"), anyLeaf),
    modules: fc.oneof(fc.record({ include: list, exclude: list, only: list, inclde: list }, { requiredKeys: [] }), anyLeaf, list),
    exclude: list,
    presets: fc.oneof(fc.array(fc.constantFrom("standard", "none", "nope", "", "./p.json", "/x/y.ts"), { maxLength: 3 }), anyLeaf),
    presetsSearchPath: fc.oneof(fc.array(pathValue, { maxLength: 3 }), anyLeaf),
    hooks: fc.oneof(
      fc.record(
        { initScriptsDir: pathValue, postScriptsDir: pathValue, onFailure: fc.oneof(fc.constantFrom("continue", "fail", "FAIL"), anyLeaf) },
        { requiredKeys: [] },
      ),
      anyLeaf,
    ),
    cache: fc.oneof(fc.record({ file: pathValue, enabled: fc.oneof(fc.boolean(), anyLeaf) }, { requiredKeys: [] }), anyLeaf),
    log: fc.oneof(fc.record({ format: fc.oneof(fc.constantFrom("text", "json", "yaml"), anyLeaf) }, { requiredKeys: [] }), anyLeaf),
    detect: fc.oneof(fc.array(fc.constantFrom("*.zip", "**/x", "", "[a-", "{a,b}"), { maxLength: 3 }), anyLeaf),
    themes: anyLeaf,
  },
  { requiredKeys: [], noNullPrototype: true },
);

/** Keys that must stay data: each one, when picked, is written first in the config text. */
export const hostileEntries = [
  '"__proto__": {"polluted": true}',
  '"constructor": {"prototype": {"polluted": true}}',
  '"prototype": {"polluted": true}',
];

/** A config-shaped value as JSON text, sometimes with `__proto__`, `constructor` or `prototype` keys. */
export const configText = fc
  .tuple(configValue, fc.subarray(hostileEntries), fc.boolean())
  .map(([value, hostile, nested]) => withEntries(value, hostile, nested));

/** `value` as JSON text with raw `entries` added at its top level, or inside its `modules` object when `nested` and it has one. */
export function withEntries(value: Record<string, unknown>, entries: string[], nested: boolean): string {
  const text = JSON.stringify(value, null, 1);
  if (entries.length === 0) return text;
  const inner = entries.join(", ");
  // An empty object takes the entries alone: a comma before its closing brace would not be JSON.
  if (nested && text.includes('"modules": {}')) return text.replace('"modules": {}', `"modules": {${inner}}`);
  if (nested && text.includes('"modules": {')) return text.replace('"modules": {', `"modules": {${inner}, `);
  return text === "{}" ? `{${inner}}` : text.replace("{", `{${inner}, `);
}

/**
 * Every leaf's variable, in the order the generators (and so the oracle's recorded corpus) draw them: checked against the
 * core's table, so that a leaf added to the core is one the generators set (the oracle's records are then made again).
 */
export const leafVariables = [
  "DROPKIT_THEME",
  "DROPKIT_PRESETS",
  "DROPKIT_PRESETS_SEARCH_PATH",
  "DROPKIT_MODULES_INCLUDE",
  "DROPKIT_MODULES_EXCLUDE",
  "DROPKIT_MODULES_ONLY",
  "DROPKIT_HOOKS_INIT_SCRIPTS_DIR",
  "DROPKIT_HOOKS_POST_SCRIPTS_DIR",
  "DROPKIT_HOOKS_ON_FAILURE",
  "DROPKIT_CACHE_FILE",
  "DROPKIT_CACHE_ENABLED",
  "DROPKIT_LOG_FORMAT",
];
for (const leaf of schemaLeaves) {
  if (leaf.env !== null && !leafVariables.includes(leaf.env))
    throw new Error(`scripts/lib/fuzz.ts: no generator sets ${leaf.env}: add it to leafVariables`);
}

/** `DROPKIT_*` variables with good, bad and odd values. */
export const envValue = fc.dictionary(
  fc.constantFrom(...leafVariables, "DROPKIT_CONFIG", "DROPKIT_HOOK_TIMEOUT", "DROPKIT_THEM", "DROPKIT_"),
  fc.oneof(
    fc.constantFrom("", " ", "yes", "NO", "2", "json", "fail", "a,,b, ", "standard,nope", "x/y", "*", "a*b", ","),
    fc.string({ unit: "binary", maxLength: 8 }),
  ),
  { maxKeys: 5, noNullPrototype: true },
);

/** CLI flags as the host passes them: good, bad and odd. */
export const flagsValue = fc.record(
  {
    theme: fc.oneof(fc.constantFrom("auto", "none", "ocean", "", "a/b", "./x.zip"), fc.string({ maxLength: 6 })),
    exclude: fc.array(fc.oneof(globs, fc.string({ maxLength: 4 })), { maxLength: 3 }),
    preset: fc.array(fc.constantFrom("standard", "none", "nope", "", "./p.json"), { maxLength: 3 }),
    logFormat: fc.constantFrom("text", "json", "xml", ""),
    config: fc.string({ maxLength: 4 }),
  },
  { requiredKeys: [], noNullPrototype: true },
);

/** A full resolve request: flags, environment, a config in either text form or as a value, files and archives. */
export const resolveRequest = fc.record(
  {
    cwd: fc.constantFrom("/d", "/home/me/my drop", "/\u00fcnic\u00f6de/\ud83d\ude00"),
    flags: flagsValue,
    env: envValue,
    config: fc.oneof(
      fc.constant(undefined),
      configText.map((text) => ({ source: "/d/dropkit.config.json", format: "json", text })),
      configText.map((text) => ({ source: "/d/package.json", format: "package.json", text: `{"name": "x", "dropkit": ${text}}` })),
      configText.map((text) => ({ source: "/d/dropkit.config.ts", format: "value", value: JSON.parse(text) })),
      mutatedConfig.map((m) => ({ source: "/d/dropkit.config.json", format: m.format, text: m.text })),
    ),
    presetFiles: fc.oneof(
      fc.constant(undefined),
      fc.array(
        fc.record({
          ref: fc.constantFrom("mine", "/d/p.json", "other"),
          name: fc.constantFrom("mine", "p", "other"),
          source: fc.constantFrom("/d/presets/mine.json", "/d/p.json"),
          format: fc.constant("json"),
          text: fc.oneof(fc.constantFrom(...validPresets), configText),
        }),
        { maxLength: 2 },
      ),
    ),
    presetNames: fc.array(fc.constantFrom("mine", "other", "standardd"), { maxLength: 2 }),
    files: fc.oneof(
      fc.constant(undefined),
      fc.array(fc.constantFrom("a.zip", "x/y.json", "README.md", ".hidden.zip", "\u00e9.zip"), { maxLength: 4 }),
    ),
    archives: fc.oneof(
      fc.constant(undefined),
      fc.array(
        fc.constantFrom("blog.zip", "shop-a.zip", "test-x.zip", "ocean-theme.zip", "forest-theme.ZIP", "caf\u00e9 au lait.zip", "a b.zip"),
        { maxLength: 5 },
      ),
    ),
  },
  { requiredKeys: ["cwd"] },
);

/** Byte strings: random, UTF-8 of random text, and valid requests with one byte flipped or cut. */
export const requestBytes = fc.oneof(
  fc.uint8Array({ maxLength: 64 }),
  fc.string({ unit: "binary", maxLength: 40 }).map((s) => encoder.encode(s)),
  fc.tuple(fc.constantFrom(...noise.slice(0, 4)), fc.nat(), fc.integer({ min: 0, max: 255 }), fc.boolean()).map(([r, at, byte, cut]) => {
    const b = encoder.encode(r);
    const i = at % b.length;
    if (cut) return b.slice(0, i);
    b[i] = byte;
    return b;
  }),
);

/** A value of any JSON type, small. */
const anyField = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.string({ maxLength: 5 }),
  fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), { maxKeys: 2 }),
);

/** A request of the right shape whose fields hold values of any type: the op, and every field a request may carry. */
export const requestOfAnyFields = fc.record(
  {
    op: fc.oneof(fc.constantFrom("validate", "resolve", "presets", "parse", "Parse", ""), anyField),
    text: anyField,
    format: fc.oneof(fc.constantFrom("json", "package.json", "value", "yaml"), anyField),
    kind: fc.oneof(fc.constantFrom("config", "preset"), anyField),
    source: anyField,
    cwd: fc.oneof(fc.constantFrom("/d", "d", ""), anyField),
    flags: anyField,
    env: anyField,
    config: anyField,
    presetFiles: anyField,
    files: anyField,
    archives: anyField,
    detected: anyField,
    explain: anyField,
  },
  { requiredKeys: ["op"] },
);
