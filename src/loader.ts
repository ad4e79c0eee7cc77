// Loading config and preset files: raw text for JSON forms, evaluated and checked plain data for .ts/.js.

import { readFileSync, readlinkSync, statSync, type Stats } from "node:fs";
import { createRequire } from "node:module";
import { types } from "node:util";
import { dropkitAliases } from "./alias.js";
import { detectFormat, isSymbolicLink, type ConfigFormat } from "./discovery.js";
import { DropkitError, fail, type Diagnostic } from "./errors.js";

/** Plain JSON data, as the core receives it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * A loaded config or preset: the raw UTF-8 text of a JSON form (the core parses it, to report
 * positions), or the plain data a `.ts`/`.js` file exported.
 */
export type LoadedConfig =
  | { format: "json" | "package.json"; text: string }
  | { format: "value"; value: { [key: string]: JsonValue } };

/** What a file is, for messages: a config or a preset. */
export type FileRole = "config" | "preset";

/**
 * Loads a config file. JSON and `package.json` forms are returned as text, unparsed. `.ts` and `.js`
 * files are evaluated through jiti (loaded only now, so JSON-only runs never pay for it); the default
 * export may be an object or a sync or async function returning one, and is converted to plain JSON data.
 *
 * @param file - Absolute path of the file.
 * @param format - Its form, as `locateConfig`/`detectFormat` decided.
 * @param role - Whether the file is a config or a preset, for messages.
 * @default role "config"
 * @throws DropkitError `ConfigNotFound` (66) when the file cannot be read, `ConfigSyntaxError` (65) when a
 *   JSON form is not UTF-8, `ConfigLoadError` (65) when evaluation throws or exports no object,
 *   `SchemaValidationError` (65, one diagnostic per value) when the export holds values JSON cannot carry.
 */
export async function loadConfigFile(file: string, format: ConfigFormat, role: FileRole = "config"): Promise<LoadedConfig> {
  if (format === "json" || format === "package.json") return { format, text: readText(file, role) };
  const value = await evaluate(file, role);
  return { format: "value", value: toJsonValue(value, file) as { [key: string]: JsonValue } };
}

/**
 * Loads a local preset file (`.ts`, `.js` or `.json`), exactly as a config file of that form is loaded.
 *
 * @param file - Absolute path of the preset file.
 */
export async function loadPresetFile(file: string): Promise<LoadedConfig> {
  const format = detectFormat(file);
  // A preset named package.json is still a preset: plain JSON, not a `dropkit` key.
  return loadConfigFile(file, format === "package.json" ? "json" : format, "preset");
}

/**
 * Converts a value exported by a `.ts`/`.js` file into plain JSON data. Values JSON cannot carry —
 * functions, `undefined`, `NaN`, `±Infinity`, bigints, symbols (as values or keys), instances other than
 * plain objects and arrays (`Date`, `Map`, `RegExp`, promises…), and cycles — are all collected and
 * reported together, each with its dotted path (`modules.include[2]`). Keys such as `__proto__` are
 * copied as plain own data, never as prototypes.
 *
 * @param value - The exported value.
 * @param file - The file it came from, for the diagnostics.
 * @throws DropkitError with one `SchemaValidationError` diagnostic per bad value.
 */
export function toJsonValue(value: unknown, file: string): JsonValue {
  const problems: Diagnostic[] = [];
  const result = convert(value, "", [], problems, file);
  if (problems.length > 0) throw new DropkitError(problems);
  return result;
}

// --- helpers ---

type Jiti = { import(id: string): Promise<unknown> };

/** The jiti instances, created on first use (requiring jiti costs start-up time that JSON configs never need): plain, and with the `dropkit` aliases. */
const jitis = new Map<boolean, Jiti>();

/** The jiti instance; `alias` (from `dropkitAliases`) makes `dropkit` the running one, for projects that have none. */
function getJiti(alias?: Record<string, string>): Jiti {
  let jiti = jitis.get(alias !== undefined);
  if (!jiti) {
    const { createJiti } = createRequire(import.meta.url)("jiti") as {
      createJiti(id: string, options: Record<string, unknown>): Jiti;
    };
    jiti = createJiti(import.meta.url, {
      ...(alias ? { alias } : {}),
      // Default fsCache: node_modules/.cache/jiti or the OS temp dir, never next to the user's file.
      // No module cache: a config edited between two loads in one process must be re-read.
      moduleCache: false,
      // Without interop, `default` is exactly the default export, so a file with only named exports
      // can be told apart from one exporting an object.
      interopDefault: false,
    });
    jitis.set(alias !== undefined, jiti);
  }
  return jiti;
}

/** Evaluates a `.ts`/`.js` file and returns its default export, called if it is a function. */
async function evaluate(file: string, role: FileRole): Promise<object> {
  requireFile(file, role);
  let mod: unknown;
  try {
    mod = commonJsAsDefault(await getJiti(dropkitAliases(file)).import(file));
  } catch (error) {
    throw loadError(file, role, "could not be evaluated", error);
  }
  if (typeof mod !== "object" || mod === null || !Object.hasOwn(mod, "default")) {
    const named = typeof mod === "object" && mod !== null ? Object.keys(mod).filter((k) => k !== "__esModule").sort() : [];
    const found = named.length > 0 ? ` (it has named exports: ${named.join(", ")})` : "";
    fail("ConfigLoadError", `The ${role} ${file} has no default export${found}. Export the ${role} object: \`export default { ... }\` or \`module.exports = { ... }\`.`, { file, source: file });
  }
  let exported = (mod as { default: unknown }).default;
  // TypeScript compiled to CommonJS puts the default export under `exports.default` next to `__esModule`.
  if (isObject(exported) && (exported as { __esModule?: unknown }).__esModule === true && Object.hasOwn(exported, "default")) {
    exported = (exported as { default: unknown }).default;
  }
  let what = "default export";
  if (typeof exported === "function") {
    what = "function exported by default";
    try {
      exported = await (exported as () => unknown)();
    } catch (error) {
      throw loadError(file, role, "threw when its exported function was called", error);
    }
  }
  if (!isPlainObject(exported)) {
    fail("ConfigLoadError", `The ${what} of ${file} is ${describe(exported)}, not an object. A ${role} file must export an object, or a function returning one.`, { file, source: file });
  }
  return exported;
}

/**
 * The module with a CommonJS file's `module.exports` as its default export. jiti gives it so in Node, but in Deno
 * it gives `module.exports` itself: an object that is neither a module namespace nor ES module code compiled to
 * CommonJS (`__esModule`), which then becomes the default export.
 */
function commonJsAsDefault(mod: unknown): unknown {
  if (typeof mod !== "object" || mod === null || Object.hasOwn(mod, "default")) return mod;
  if (types.isModuleNamespaceObject(mod) || (mod as { __esModule?: unknown }).__esModule === true) return mod;
  return { default: mod };
}

/** Reads a JSON-form file as strict UTF-8, without a byte-order mark. */
function readText(file: string, role: FileRole): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    fail("ConfigNotFound", `Cannot read the ${role} ${file} (${unreadable(file, error)}). Check that it exists and is readable.`, { file, source: file });
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    fail("ConfigSyntaxError", `The ${role} ${file} is not valid UTF-8 text. Save it as UTF-8.`, { file, source: file });
  }
  // TextDecoder drops a leading BOM by default; nothing else to strip.
  return text;
}

function requireFile(file: string, role: FileRole): void {
  let stats: Stats | undefined;
  try {
    stats = statSync(file, { throwIfNoEntry: false });
  } catch (error) {
    fail("ConfigNotFound", `Cannot read the ${role} ${file} (${unreadable(file, error)}). Check the path and its permissions.`, { file, source: file });
  }
  if (!stats?.isFile()) {
    const why = stats ? "is not a file" : isSymbolicLink(file) ? `is a broken symbolic link (to ${linkTarget(file)})` : "does not exist";
    fail("ConfigNotFound", `The ${role} file ${file} ${why}. Check the path.`, { file, source: file });
  }
}

/** Why a file cannot be read: the error code, and for a symbolic link what is wrong with it. */
function unreadable(file: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code ?? String(error);
  if (code === "ELOOP") return "ELOOP: a loop of symbolic links";
  if (code === "ENOENT" && isSymbolicLink(file)) return `ENOENT: a broken symbolic link to ${linkTarget(file)}`;
  return code;
}

function linkTarget(file: string): string {
  try {
    return readlinkSync(file);
  } catch {
    return "?";
  }
}

/** A ConfigLoadError carrying the original message, and the position in the file when one is known. */
function loadError(file: string, role: FileRole, what: string, error: unknown): DropkitError {
  let original = error instanceof Error ? error.message : String(error);
  // Node appends the require stack of module-not-found errors: our internals, not the user's business.
  original = original.split("\nRequire stack:")[0]!;
  // jiti's parse errors end with "\n <file>:line:column", which the message prefix already gives.
  original = original.replace(/\s*\n\s*\S+:\d+:\d+\s*$/, "").trim();
  const where = positionIn(file, error);
  const at = where ? `:${where.line}${where.column === undefined ? "" : `:${where.column}`}` : "";
  return new DropkitError({
    name: "ConfigLoadError",
    message: `The ${role} ${file}${at} ${what}: ${original}`,
    file,
    source: file + at,
    ...where,
  });
}

/**
 * Where in `file` the failure is: line and column from a parse error's message, or only the line from
 * the first stack frame in the file (jiti keeps lines when it transforms a file, but not columns).
 */
function positionIn(file: string, error: unknown): { line: number; column?: number } | undefined {
  if (!(error instanceof Error)) return undefined;
  const fromMessage = parseErrorPosition(file, error.message);
  if (fromMessage) return fromMessage;
  const fromStack = positionAfter(file, error.stack ?? "");
  return fromStack ? { line: fromStack.line } : undefined;
}

/**
 * The position of a jiti parse error ("ParseError: ... <file>:line:column"), whose column is 0-based as Babel
 * counts; made 1-based like every other position dropkit reports.
 */
function parseErrorPosition(file: string, message: string): { line: number; column: number } | undefined {
  const at = positionAfter(file, message);
  return at && /^ParseError\b/.test(message) ? { line: at.line, column: at.column + 1 } : at;
}

function positionAfter(file: string, text: string): { line: number; column: number } | undefined {
  for (const line of text.split("\n")) {
    const at = line.lastIndexOf(file + ":");
    if (at < 0) continue;
    const m = /^:(\d+):(\d+)/.exec(line.slice(at + file.length));
    if (m) return { line: Number(m[1]), column: Number(m[2]) };
  }
  return undefined;
}

/** The objects and arrays being converted, outermost first, with their paths: to detect cycles. */
type Ancestors = Array<{ object: object; path: string }>;

function convert(value: unknown, at: string, ancestors: Ancestors, problems: Diagnostic[], file: string): JsonValue {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (Number.isFinite(value)) return value;
      return reject(problems, file, at, `is ${String(value)}, which JSON cannot represent; use a finite number`);
    case "undefined":
      return reject(problems, file, at, "is undefined; remove it or give it a value");
    case "function":
      return reject(problems, file, at, "is a function; a config holds data only, so call it and use its result");
    case "bigint":
      return reject(problems, file, at, `is the bigint ${value}n; use a number or a string`);
    case "symbol":
      return reject(problems, file, at, `is ${value.toString()}; use a string`);
  }
  if (value === null) return null;
  const object = value as object;
  const ancestor = ancestors.find((a) => a.object === object);
  if (ancestor) {
    const target = ancestor.path;
    return reject(problems, file, at, `refers back to ${target === "" ? "the top-level object" : target}: a cycle, which JSON cannot represent`);
  }
  if (Array.isArray(object)) {
    ancestors.push({ object, path: at });
    const out: JsonValue[] = [];
    for (let i = 0; i < object.length; i++) {
      const child = `${at}[${i}]`;
      if (!(i in object)) {
        reject(problems, file, child, "is an empty slot of a sparse array; give it a value");
        out.push(null);
      } else {
        out.push(convert(read(object, i, child, problems, file), child, ancestors, problems, file));
      }
    }
    ancestors.pop();
    return out;
  }
  if (!isPlainObject(object)) {
    return reject(problems, file, at, `is ${describe(object)}; a config holds plain data only (strings, numbers, booleans, null, arrays, objects)`);
  }
  ancestors.push({ object, path: at });
  const out: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(object)) {
    const child = at === "" ? key : `${at}.${key}`;
    // defineProperty, never assignment: `out["__proto__"] = v` would set the prototype instead of a key.
    Object.defineProperty(out, key, {
      value: convert(read(object, key, child, problems, file), child, ancestors, problems, file),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  for (const symbol of Object.getOwnPropertySymbols(object)) {
    if (Object.prototype.propertyIsEnumerable.call(object, symbol)) {
      reject(problems, file, `${at}[${symbol.toString()}]`, "is a symbol key; keys must be strings");
    }
  }
  ancestors.pop();
  return out;
}

/** Reads a property; a getter that throws becomes a diagnostic rather than a crash. */
function read(object: object, key: string | number, at: string, problems: Diagnostic[], file: string): unknown {
  try {
    return (object as Record<string | number, unknown>)[key];
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    problems.push({ name: "ConfigLoadError", path: at, file, source: file, message: `${at}: reading it threw: ${message}` });
    return null;
  }
}

function reject(problems: Diagnostic[], file: string, at: string, what: string): null {
  const subject = at === "" ? "The exported value" : at;
  problems.push({ name: "SchemaValidationError", message: `${subject} ${what}.`, file, source: file, ...(at === "" ? {} : { path: at }) });
  return null;
}

function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}

/** An object literal's kind: prototype `Object.prototype` (of any realm) or `null`. Not arrays or instances. */
function isPlainObject(value: unknown): value is object {
  if (!isObject(value) || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto === null || proto === Object.prototype) return true;
  // An object literal from another realm (vm context): its prototype is that realm's Object.prototype.
  return Object.getPrototypeOf(proto) === null && Object.hasOwn(proto, "hasOwnProperty") && Object.hasOwn(proto, "isPrototypeOf");
}

/** A short description of a value for messages: "the number 42", "an array", "a Date", "a Promise (…)". */
function describe(value: unknown): string {
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
