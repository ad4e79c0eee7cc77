// Loading config and preset files: raw text for JSON forms, evaluated and checked plain data for .ts/.js.

import { readlinkSync, statSync, type Stats } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { types } from "node:util";
import { dropkitAliases } from "./alias.js";
import { privateCacheDir } from "./cachedir.js";
import { detectFormat, isSymbolicLink, type ConfigFormat } from "./discovery.js";
import { DropkitError, fail, type Diagnostic } from "./errors.js";
import { limits, readBounded, sizeText, type BoundedRead } from "./limits.js";
import { sharedPatch } from "./patch.js";
import { formatPosition, locateError, recordCompiledCode } from "./stack.js";

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

/** The bytes one resolve has read so far, against `limits.totalBytes`; shared by its config and preset files. */
export interface ReadBudget {
  used: number;
}

/**
 * Loads a config file. JSON and `package.json` forms are returned as text, unparsed. `.ts` and `.js`
 * files are evaluated through jiti (loaded only now, so JSON-only runs never pay for it); the default
 * export may be an object or a sync or async function returning one, and is converted to plain JSON data.
 *
 * @param file - Absolute path of the file.
 * @param format - Its form, as `locateConfig`/`detectFormat` decided.
 * @param role - Whether the file is a config or a preset, for messages.
 * @param budget - What the resolve has read so far (its config and preset files), charged with this file.
 * @default role "config"
 * @throws DropkitError `ConfigNotFound` (66) when the file cannot be read, `ConfigSyntaxError` (65) when a
 *   JSON form is not UTF-8, `ConfigLoadError` (65) when evaluation throws or exports no object, or when the
 *   file or its exported data is over `limits.fileBytes` (or the budget over `limits.totalBytes`),
 *   `SchemaValidationError` (65, one diagnostic per value) when the export holds values JSON cannot carry.
 */
export async function loadConfigFile(file: string, format: ConfigFormat, role: FileRole = "config", budget?: ReadBudget): Promise<LoadedConfig> {
  if (format === "json" || format === "package.json") return { format, text: readText(file, role, budget) };
  // Recorded until the data is read: an error's position is mapped through the code jiti ran.
  return withoutExit(() =>
    recordCompiledCode(async () => {
      try {
        const value = await evaluate(file, role);
        return { format: "value", value: toJsonValue(value, file, budget) as { [key: string]: JsonValue } };
      } catch (error) {
        if (error instanceof DropkitError) throw error;
        // The export is user code: a Proxy whose traps throw, a getter on `default`, a throwing `constructor`...
        throw loadError(file, role, "exports a value that cannot be read", plainError(error));
      }
    }),
  );
}

/**
 * Loads a local preset file (`.ts`, `.js` or `.json`), exactly as a config file of that form is loaded.
 *
 * @param file - Absolute path of the preset file.
 * @param budget - What the resolve has read so far, as for `loadConfigFile`.
 */
export async function loadPresetFile(file: string, budget?: ReadBudget): Promise<LoadedConfig> {
  const format = detectFormat(file);
  // A preset named package.json is still a preset: plain JSON, not a `dropkit` key.
  return loadConfigFile(file, format === "package.json" ? "json" : format, "preset", budget);
}

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
    const message = `${walk.unlisted} more problems in ${file} are not listed (only the first ${listedProblems} of a file are): fix these and run again to see the rest.`;
    walk.problems.push({ name: "SchemaValidationError", message, file, source: file });
  }
  if (walk.problems.length > 0) throw new DropkitError(walk.problems);
  const bytes = Buffer.byteLength(JSON.stringify(result));
  if (bytes > limits.fileBytes) tooMuchData(file, bytes);
  charge(budget, file, bytes);
  return result;
}

// --- helpers ---

type Jiti = { import(id: string): Promise<unknown> };

/** The jiti instances by cache directory (or none) and alias, created on first use: requiring jiti costs start-up time. */
const jitis = new Map<string, Jiti>();
let noCacheSaid = false;

/**
 * The jiti instance for the next evaluation. Its compiled files go only to the user's private cache
 * directory, checked again now (src/cachedir.ts), or nowhere: jiti's default, `os.tmpdir()/jiti`, is shared,
 * and a file planted there under the predictable name would run instead of the user's config. `alias` (from
 * `dropkitAliases`) makes `dropkit` the running one, for projects that have none.
 */
function getJiti(alias?: Record<string, string>): Jiti {
  const cache = privateCacheDir();
  if (cache.dir === null && !noCacheSaid && process.env.DROPKIT_DEBUG === "1") {
    noCacheSaid = true;
    process.stderr.write(`dropkit: .ts/.js configs are compiled without a file cache: ${cache.why}\n`);
  }
  const fsCache = cache.dir ?? false;
  const key = `${alias !== undefined}:${fsCache}`;
  let jiti = jitis.get(key);
  if (!jiti) {
    const { createJiti } = createRequire(import.meta.url)("jiti") as {
      createJiti(id: string, options: Record<string, unknown>): Jiti;
    };
    jiti = createJiti(import.meta.url, {
      ...(alias ? { alias } : {}),
      // Given here, these win over JITI_* variables: no cache elsewhere, and no ESM temp files in os.tmpdir().
      fsCache,
      rebuildFsCache: false,
      esmEvalTempFile: false,
      // No module cache: a config edited between two loads in one process must be re-read.
      moduleCache: false,
      // Without interop, `default` is exactly the default export, so a file with only named exports
      // can be told apart from one exporting an object.
      interopDefault: false,
      // An inline source map in each compiled file (and in its cache entry): positions in the code V8 runs are
      // mapped back to the file as written when it throws (src/stack.ts).
      sourceMaps: true,
    });
    jitis.set(key, jiti);
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
    throw loadError(file, role, "could not be evaluated", plainError(error));
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
      throw loadError(file, role, "threw when its exported function was called", plainError(error));
    }
  }
  if (!isPlainObject(exported)) {
    fail("ConfigLoadError", `The ${what} of ${file} is ${describe(exported)}, not an object. A ${role} file must export an object, or a function returning one.`, { file, source: file });
  }
  return exported;
}

/**
 * The module with a CommonJS file's `module.exports` as its default export. jiti gives it so in Node, but in Deno
 * it gives `module.exports` itself: a function or another value that no module is, or an object that is neither a
 * module namespace nor ES module code compiled to CommonJS (`__esModule`), which then becomes the default export.
 */
function commonJsAsDefault(mod: unknown): unknown {
  if (typeof mod !== "object" || mod === null) return { default: mod };
  if (Object.hasOwn(mod, "default")) return mod;
  if (types.isModuleNamespaceObject(mod) || (mod as { __esModule?: unknown }).__esModule === true) return mod;
  return { default: mod };
}

/** Reads a JSON-form file as strict UTF-8, without a byte-order mark, refusing one over `limits.fileBytes`. */
function readText(file: string, role: FileRole, budget: ReadBudget | undefined): string {
  let read: BoundedRead;
  try {
    read = readBounded(file, limits.fileBytes);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOTFILE") fail("ConfigNotFound", `The ${role} file ${file} is not a file. Check the path.`, { file, source: file });
    fail("ConfigNotFound", `Cannot read the ${role} ${file} (${unreadable(file, error)}). Check that it exists and is readable.`, { file, source: file });
  }
  if (read.over) tooLarge(file, role, read.size);
  const bytes = read.bytes;
  charge(budget, file, bytes.length);
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
  // Checked before jiti reads and compiles it: a huge source would take that much memory several times over.
  if (stats.size > limits.fileBytes) tooLarge(file, role, stats.size);
}

/** Refuses a file over `limits.fileBytes` (`size` is `fileBytes + 1` when only "more" is known). */
function tooLarge(file: string, role: FileRole, size: number): never {
  const what = size > limits.fileBytes + 1 ? `is ${sizeText(size)}` : `has more than ${sizeText(limits.fileBytes)}`;
  const hint = path.basename(file) === "package.json" ? ", or move the dropkit key to a dropkit.config.json" : "";
  fail("ConfigLoadError", `The ${role} ${file} ${what}, over the limit of ${sizeText(limits.fileBytes)} for a ${role} file. A dropkit ${role} is a few KB: check that this is the right file${hint}.`, { file, source: file });
}

/** Refuses exported data over `limits.fileBytes` as JSON text: its exact size, or none when the walk stopped early. */
function tooMuchData(file: string, bytes?: number): never {
  const size = bytes === undefined ? `over ${sizeText(limits.fileBytes)} as JSON (the walk stopped there)` : `${sizeText(bytes)} as JSON, over the limit of ${sizeText(limits.fileBytes)}`;
  fail("ConfigLoadError", `The data exported by ${file} is ${size}, the most one file may hold. A dropkit config is a few KB: check what the file exports.`, { file, source: file });
}

/** Adds a file's bytes to the resolve's budget; refuses the file that takes it over `limits.totalBytes`. */
function charge(budget: ReadBudget | undefined, file: string, bytes: number): void {
  if (!budget) return;
  budget.used += bytes;
  if (budget.used > limits.totalBytes) {
    fail("ConfigLoadError", `The config and preset files of this run are ${sizeText(budget.used)} together with ${file}, over the limit of ${sizeText(limits.totalBytes)}. Use fewer or smaller preset files (every preset file of the search path is read when presets are auto-detected).`, { file, source: file });
  }
}

/**
 * Runs a config's code with `process.exit` turned into a throw: a config that ends the process would end the run
 * with its own exit code (even 0, having done nothing), instead of a ConfigLoadError.
 */
const withoutExit = sharedPatch(() => {
  const exit = process.exit;
  const refuse = ((code?: number | string | null) => {
    const error = new Error(`it called process.exit(${code ?? ""}); a config or preset file exports its settings and must not end the process`);
    // The stack starts at the call in the config, which is where the error is placed.
    Error.captureStackTrace(error, refuse);
    throw error;
  }) as typeof process.exit;
  process.exit = refuse;
  return () => {
    // Left alone when the config replaced it meanwhile: that is not dropkit's to undo.
    if (process.exit === refuse) process.exit = exit;
  };
});

/**
 * Anything a config threw, as an Error whose message and stack can be read safely: user code may throw a
 * non-Error, a Proxy whose every trap throws, or an Error whose `message` or `stack` getter throws.
 */
function plainError(thrown: unknown): Error {
  const text = (get: () => unknown): string | undefined => {
    try {
      const value = get();
      return typeof value === "string" ? value : value === undefined ? undefined : String(value);
    } catch {
      return undefined;
    }
  };
  let isError = false;
  try {
    isError = thrown instanceof Error;
  } catch {
    // A Proxy whose getPrototypeOf trap throws: not an Error as far as dropkit can tell.
  }
  const message = (isError ? text(() => (thrown as Error).message) : text(() => String(thrown))) ?? "a thrown value that cannot be shown";
  const error = new Error(message);
  // The original stack, for the position in the file; a non-Error has none.
  error.stack = (isError ? text(() => (thrown as Error).stack) : undefined) ?? `Error: ${message}`;
  return error;
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

/**
 * A ConfigLoadError carrying the original message, and the position of the throw when one is known (src/stack.ts):
 * `source`, `file`, `line` and `column` are where it was thrown, in another file of the project when a file the config
 * imports threw, and then the message also names the config's line that led there.
 */
function loadError(file: string, role: FileRole, what: string, error: unknown): DropkitError {
  let original = error instanceof Error ? error.message : String(error);
  // Node appends the require stack of module-not-found errors: our internals, not the user's business.
  original = original.split("\nRequire stack:")[0]!;
  // jiti's parse errors end with "\n <file>:line:column", which the source gives.
  if (/^ParseError\b/.test(original)) original = original.replace(/\s*\n\s*\S.*:\d+:\d+\s*$/, "");
  original = original.trim();
  const site = error instanceof Error ? locateError(error, file) : undefined;
  if (!site) return new DropkitError({ name: "ConfigLoadError", message: `The ${role} ${file} ${what}: ${original}`, file, source: file });
  const at = site.file === file ? site : site.calledFrom;
  const elsewhere = site.file === file ? "" : `, ${/^ParseError\b/.test(original) ? "in" : "thrown in"} ${formatPosition(site)}`;
  return new DropkitError({
    name: "ConfigLoadError",
    message: `The ${role} ${at ? formatPosition(at) : file} ${what}: ${original}${elsewhere}`,
    file: site.file,
    source: formatPosition(site),
    line: site.line,
    ...(site.column === undefined ? {} : { column: site.column }),
  });
}

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
    return reject(walk, at, `is nested deeper than ${limits.depth} levels, the most a dropkit config may have (as in JSON text); a config is never that deep: check what builds it`);
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
    return reject(walk, at, `is ${describe(object)}; a config holds plain data only (strings, numbers, booleans, null, arrays, objects)`);
  }
  ancestors.push({ object, path: at });
  const out: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(object)) {
    const child = at === "" ? key : `${at}.${key}`;
    grow(walk, key.length + 4);
    // defineProperty, never assignment: `out["__proto__"] = v` would set the prototype instead of a key.
    Object.defineProperty(out, key, {
      value: convert(read(walk, object, key, child), child, walk),
      enumerable: true,
      writable: true,
      configurable: true,
    });
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
    note(walk, { name: "ConfigLoadError", path: at, file: walk.file, source: walk.file, message: `${at}: reading it threw: ${plainError(error).message}` });
    return null;
  }
}

function reject(walk: Walk, at: string, what: string): null {
  const subject = at === "" ? "The exported value" : at;
  note(walk, { name: "SchemaValidationError", message: `${subject} ${what}.`, file: walk.file, source: walk.file, ...(at === "" ? {} : { path: at }) });
  return null;
}

/** Lists a problem, or past `listedProblems` only counts it. */
function note(walk: Walk, problem: Diagnostic): void {
  if (walk.problems.length < listedProblems) walk.problems.push(problem);
  else walk.unlisted++;
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
