// Plain JSON data from what a .ts/.js config exports.
// Every value JSON cannot carry reported with its dotted path, cycles refused, depth and size bounded, keys copied as
// own data.

import { types } from "node:util";
import { DropkitError, fail, type Diagnostic } from "../errors.js";
import { setOwn } from "../files/jsonfile.js";
import { chargeBudget, limits, sizeText, type ReadBudget } from "../files/limits.js";
import { plainError } from "./stack.js";

/** Plain JSON data, as the core receives it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * Converts a value exported by a `.ts`/`.js` file into plain JSON data. Values JSON cannot carry —
 * functions, `undefined`, `NaN`, `±Infinity`, bigints, symbols (as values or keys), instances other than
 * plain objects and arrays (`Date`, `Map`, `RegExp`, promises…), and cycles — are all collected and
 * reported together, each with its dotted path (`modules.include[2]`): the first 100, then one that counts the
 * rest, as the core does. So are objects and arrays nested deeper than `limits.depth` (128, the core's limit
 * for JSON text). Keys such as `__proto__` are copied as plain own data, never as prototypes. Data whose JSON
 * text would be over `limits.fileBytes` stops the walk at once (a sparse `new Array(1e9)` included).
 *
 * @param value - The exported value.
 * @param file - The file it came from, for the diagnostics.
 * @param budget - What the resolve has read so far, charged with the JSON text of the data.
 * @throws DropkitError with one `SchemaValidationError` diagnostic per bad value, or a `ConfigLoadError` for
 *   data over the size limits.
 */
export function toJsonValue(value: unknown, file: string, budget?: ReadBudget): JsonValue {
  const walk: Walk = { file, problems: [], unlisted: 0, ancestors: [], size: 0 };
  const result = convert(value, "", walk);
  if (walk.unlisted > 0) {
    const message =
      `${walk.unlisted} more problems in ${file} are not listed (only the first ${listedProblems} of a file are): ` +
      `fix these and run again to see the rest.`;
    walk.problems.push({ name: "SchemaValidationError", message, file, source: file });
  }
  if (walk.problems.length > 0) throw new DropkitError(walk.problems);
  const bytes = Buffer.byteLength(JSON.stringify(result));
  if (bytes > limits.fileBytes) tooMuchData(file, bytes);
  chargeBudget(budget, file, bytes);
  return result;
}

/** An object literal's kind: prototype `Object.prototype` (of any realm) or `null`. Not arrays or instances. */
export function isPlainObject(value: unknown): value is object {
  if (!isObject(value) || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto === null || proto === Object.prototype) return true;
  // An object literal from another realm (vm context): its prototype is that realm's Object.prototype.
  return Object.getPrototypeOf(proto) === null && Object.hasOwn(proto, "hasOwnProperty") && Object.hasOwn(proto, "isPrototypeOf");
}

/** A short description of a value for messages: "the number 42", "an array", "a Date", "a Promise (…)". */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return `the string ${JSON.stringify(value)}`;
    case "number":
    case "boolean":
      return `the ${typeof value} ${String(value)}`;
    case "bigint":
      return `the bigint ${value}n`;
    case "symbol":
      return value.toString();
    case "function":
      return "a function";
  }
  if (types.isPromise(value)) return "a Promise (is an `await` missing?)";
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  if (typeof name !== "string" || name === "") return "an object with a custom prototype";
  return `${/^[AEIOU]/.test(name) ? "an" : "a"} ${name}`;
}

// --- helpers ---

/** At most this many problems of one file are listed, as the core lists a document's (docs/abi.md). */
const listedProblems = 100;

/** One conversion: the file, its problems (and how many more were not listed), and where the walk is. */
interface Walk {
  file: string;
  problems: Diagnostic[];
  unlisted: number;
  /** The objects and arrays being converted, outermost first, with their paths: for cycles and the depth. */
  ancestors: Array<{ object: object; path: string }>;
  /** The JSON text made so far, in UTF-16 units: never more than its UTF-8 bytes, so no stop comes too early. */
  size: number;
}

function convert(value: unknown, at: string, walk: Walk): JsonValue {
  switch (typeof value) {
    case "string":
      grow(walk, value.length + 2);
      return value;
    case "boolean":
      grow(walk, 5);
      return value;
    case "number":
      grow(walk, 4);
      if (Number.isFinite(value)) return value;
      return reject(walk, at, `is ${String(value)}, which JSON cannot represent; use a finite number`);
    case "undefined":
      return reject(walk, at, "is undefined; remove it or give it a value");
    case "function":
      return reject(walk, at, "is a function; a config holds data only, so call it and use its result");
    case "bigint":
      return reject(walk, at, `is the bigint ${value}n; use a number or a string`);
    case "symbol":
      return reject(walk, at, `is ${value.toString()}; use a string`);
  }
  grow(walk, 4);
  if (value === null) return null;
  const object = value as object;
  const { ancestors } = walk;
  const ancestor = ancestors.find((a) => a.object === object);
  if (ancestor) {
    const target = ancestor.path;
    return reject(walk, at, `refers back to ${target === "" ? "the top-level object" : target}: a cycle, which JSON cannot represent`);
  }
  const plain = isPlainObject(object);
  if ((plain || Array.isArray(object)) && ancestors.length >= limits.depth) {
    return reject(
      walk,
      at,
      `is nested deeper than ${limits.depth} levels, the most a dropkit config may have (as in JSON text); a config is never that deep: check what builds it`,
    );
  }
  if (Array.isArray(object)) {
    ancestors.push({ object, path: at });
    const out: JsonValue[] = [];
    for (let i = 0; i < object.length; i++) {
      const child = `${at}[${i}]`;
      grow(walk, 1);
      if (!(i in object)) {
        reject(walk, child, "is an empty slot of a sparse array; give it a value");
        out.push(null);
      } else {
        out.push(convert(read(walk, object, i, child), child, walk));
      }
    }
    ancestors.pop();
    return out;
  }
  if (!plain) {
    return reject(
      walk,
      at,
      `is ${describeValue(object)}; a config holds plain data only (strings, numbers, booleans, null, arrays, objects)`,
    );
  }
  ancestors.push({ object, path: at });
  const out: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(object)) {
    const child = at === "" ? key : `${at}.${key}`;
    grow(walk, key.length + 4);
    // Never assignment: `out["__proto__"] = v` would set the prototype instead of a key.
    setOwn(out, key, convert(read(walk, object, key, child), child, walk));
  }
  for (const symbol of Object.getOwnPropertySymbols(object)) {
    if (Object.prototype.propertyIsEnumerable.call(object, symbol)) {
      reject(walk, `${at}[${symbol.toString()}]`, "is a symbol key; keys must be strings");
    }
  }
  ancestors.pop();
  return out;
}

/** Counts `units` more of JSON text; data over the size limit stops the walk at once. */
function grow(walk: Walk, units: number): void {
  walk.size += units;
  if (walk.size > limits.fileBytes) tooMuchData(walk.file);
}

/** Reads a property; a getter that throws becomes a diagnostic rather than a crash. */
function read(walk: Walk, object: object, key: string | number, at: string): unknown {
  try {
    return (object as Record<string | number, unknown>)[key];
  } catch (error) {
    note(walk, {
      name: "ConfigLoadError",
      path: at,
      file: walk.file,
      source: walk.file,
      message: `${at}: reading it threw: ${plainError(error).message}`,
    });
    return null;
  }
}

function reject(walk: Walk, at: string, what: string): null {
  const subject = at === "" ? "The exported value" : at;
  note(walk, {
    name: "SchemaValidationError",
    message: `${subject} ${what}.`,
    file: walk.file,
    source: walk.file,
    ...(at === "" ? {} : { path: at }),
  });
  return null;
}

/** Lists a problem, or past `listedProblems` only counts it. */
function note(walk: Walk, problem: Diagnostic): void {
  if (walk.problems.length < listedProblems) walk.problems.push(problem);
  else walk.unlisted++;
}

/** Refuses exported data over `limits.fileBytes` as JSON text: its exact size, or none when the walk stopped early. */
function tooMuchData(file: string, bytes?: number): never {
  const size =
    bytes === undefined
      ? `over ${sizeText(limits.fileBytes)} as JSON (the walk stopped there)`
      : `${sizeText(bytes)} as JSON, over the limit of ${sizeText(limits.fileBytes)}`;
  fail(
    "ConfigLoadError",
    `The data exported by ${file} is ${size}, the most one file may hold. A dropkit config is a few KB: check what the file exports.`,
    { file, source: file },
  );
}

function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}
