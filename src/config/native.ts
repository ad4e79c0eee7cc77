// Loading a .ts config or preset without jiti where the runtime can.
// On Node that strips types (22.18+, 24) through in-thread module hooks, the stripped code cached by content in the
// private cache; on Bun by its own import, a plugin serving the text; on Deno by its own import of the text as a data: URL.

import { readFileSync } from "node:fs";
import nodeModule from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { privateFileName, privateDir, readPrivateFile, writePrivateFile } from "../files/privatedir.js";

/** The parts of `node:module` this needs, missing before Node 22.15 (hooks) and 22.13 (stripping), and on Bun and Deno. */
interface ModuleHooks {
  registerHooks?(hooks: { resolve?: ResolveHook; load?: LoadHook }): unknown;
  stripTypeScriptTypes?(code: string, options?: { mode?: "strip" }): string;
}
type ResolveHook = (
  specifier: string,
  context: { parentURL?: string },
  next: (specifier: string, context: object) => { url: string },
) => { url: string; shortCircuit?: boolean };
type LoadHook = (
  url: string,
  context: object,
  next: (url: string, context: object) => { format?: string; source?: unknown },
) => { format?: string; source?: unknown; shortCircuit?: boolean };

const nodeHooks = nodeModule as unknown as ModuleHooks;

/** The query that marks a load's files: only they are seen by the hooks, so a host program's own imports are left alone. */
const mark = "dropkit-load";

/**
 * How this runtime loads a `.ts` file without jiti, from the text that was judged: Node's stripper behind module hooks,
 * Bun's own import with a plugin that serves the text, Deno's own import of the text as a `data:` URL (Deno has no hook
 * that could serve it, and its import of the file would open it again by name), or not at all (Node 20).
 */
export function nativeTypeScript(env: NodeJS.ProcessEnv = process.env): "strip" | "import" | "data" | null {
  if (testTsLoader(env) === "jiti") return null;
  if (process.versions.bun !== undefined) return "import";
  if (process.versions.deno !== undefined) return "data";
  return typeof nodeHooks.registerHooks === "function" && typeof nodeHooks.stripTypeScriptTypes === "function" ? "strip" : null;
}

/**
 * Whether `.ts` files are loaded here by Node's own type stripping: Node with `module.registerHooks` and
 * `module.stripTypeScriptTypes` (not Bun or Deno, which import `.ts` themselves; not Node 20).
 */
export function canStripTypes(env: NodeJS.ProcessEnv = process.env): boolean {
  return nativeTypeScript(env) === "strip";
}

/**
 * Imports a `.ts` file natively from its judged `source` (src/files/judged.ts), never read again by name: on Node that
 * strips types, the load hook serves it, its types (and those of the `.ts` files it imports) erased so that every
 * `line:column` stays where it was written, with `aliases` (`dropkitAliases`, asked only when needed) making `dropkit`
 * the running one; on Bun, a plugin serves it to Bun's own import; on Deno, its own import takes it as a `data:` URL,
 * every specifier made absolute first (`placeSpecifiers`). Returns the module namespace, or why jiti must load the file
 * instead, decided before any of its code ran: syntax Node cannot erase (an enum, a namespace, a parameter property) or
 * that does not parse, CommonJS names, a dynamic import, a relative import without its extension or a JSON import
 * (unless erased whole, `nativeBlocker`), an import of `dropkit` that only jiti can alias (Bun), an import Deno could
 * not place from a `data:` URL (another package), or a failure to link.
 */
export async function importNative(
  file: string,
  source: string,
  aliases: () => Record<string, string> | undefined,
): Promise<{ module: unknown } | { why: string }> {
  const unsupported = nativeBlocker(source);
  if (unsupported) return { why: unsupported };
  const mode = nativeTypeScript();
  if (mode === "data") return importAsData(file, source, aliases);
  const own = mode === "import";
  // Bun has no resolve hook that could make `dropkit` the running one for this file alone (its runtime plugins' onResolve
  // is not asked for bare names): the text Bun is served names the running package's files instead.
  if (own) {
    const alias = importsDropkitValue(source) ? aliases() : undefined;
    const served = alias === undefined ? source : aliased(source, alias);
    if (served === undefined) return { why: "it imports dropkit in a form only jiti can alias on this runtime" };
    serveOnBun(file, served);
  } else installHooks();
  const load = String(++loads);
  loadAliases.set(load, own ? undefined : aliases());
  // The entry's code is the judged text: the load hook serves it, and never reads the file by name.
  entrySources.set(load, { file, source });
  try {
    const imported = await importOrWhy(`${fileUrl(file)}?${mark}=${load}`);
    // Node's path says so as it strips (`stripped`); Bun's import takes the served text whole, so it is said here.
    if (own && "module" in imported) debug(`${file}: imported by Bun from its judged text`);
    return imported;
  } finally {
    loadAliases.delete(load);
    entrySources.delete(load);
  }
}

/**
 * Deno's import of `file` from its judged `source` as a `data:` URL, after `placeSpecifiers` made each of its specifiers
 * one a `data:` module can import: `dropkit` the running package's file (`aliases`), else the project's own, resolved
 * from the file as Node resolves a require (its package's exports; dropkit's do not tell import from require); a
 * relative path the file URL it names from the file's directory (a file the config imports is its own business, read
 * by Deno by name, as on Bun), marked with this load so that each load reads it again; a `node:` or `file:` one as it
 * is. Any other (another package), and a file that reads `import.meta`, are left to jiti. A line after the text names
 * this load, so that no two loads' URLs end alike: Deno shortens a long `data:` URL in a stack to its two ends, from
 * which `servedFile` finds the file again.
 */
async function importAsData(
  file: string,
  source: string,
  aliases: () => Record<string, string> | undefined,
): Promise<{ module: unknown } | { why: string }> {
  // A data: module's import.meta.url is its data: URL: a config that asks where it is must be told its file.
  if (/(?<![\w$.])import\s*\.\s*meta\b/.test(source)) return { why: "it uses import.meta, which would name a data: URL here" };
  const load = String(++loads);
  const base = fileUrl(file);
  const placed = placeSpecifiers(
    source,
    (specifier, typeOnly) => {
      if (typeOnly || /^(?:node|file):/.test(specifier)) return specifier;
      if (/^\.{0,2}\//.test(specifier)) return `${new URL(specifier, base).href}?${mark}=${load}`;
      if (!isDropkit(specifier)) return undefined;
      const target = aliases()?.[specifier] ?? resolveFrom(file, specifier);
      return target === undefined ? undefined : fileUrl(target);
    },
    true,
  );
  if ("unplaced" in placed) return { why: `it imports ${placed.unplaced}, which a data: URL cannot import on this runtime` };
  const url = `${dataPrefix}${Buffer.from(`${placed.text}\n// ${mark}=${load}\n`).toString("base64")}`;
  const key = dataKey(url);
  dataFiles.set(key, file);
  debug(`${file}: imported from its judged text as a data: URL`);
  const result = await importOrWhy(url);
  if ("why" in result) dataFiles.delete(key);
  return result;
}

const dataPrefix = "data:application/typescript;base64,";

/** The file a `data:` URL in a stack frame was imported for (`importAsData`), whole or shortened by Deno ("<start>......<end>"). */
export function servedFile(url: string): string | undefined {
  return url.startsWith(dataPrefix) ? dataFiles.get(dataKey(url)) : undefined;
}

/** A `data:` URL's first and last base64 characters, fewer than Deno keeps of each end when it shortens the URL in a stack. */
function dataKey(url: string): string {
  const payload = url.slice(dataPrefix.length);
  const cut = payload.indexOf("......");
  return `${payload.slice(0, 12)} ${(cut < 0 ? payload : payload.slice(cut + 6)).slice(-12)}`;
}

/** The files imported as `data:` URLs, by `dataKey`: kept while their code may still run (a function the config exports). */
const dataFiles = new Map<string, string>();

/** Where `specifier` resolves from `file` as a require would, or undefined. */
function resolveFrom(file: string, specifier: string): string | undefined {
  try {
    return nodeModule.createRequire(file).resolve(specifier);
  } catch {
    return undefined;
  }
}

/** The module `url` names, or why jiti must load it instead (a fallback, or a failure to link, before any code ran). */
async function importOrWhy(url: string): Promise<{ module: unknown } | { why: string }> {
  try {
    // The bundle routes this import() through its bin (scripts/build-cli.mjs, routeImports).
    return { module: await import(url) };
  } catch (error) {
    if (fallbacks.has(error as object)) return { why: (error as Error).message };
    if (linkFailure(error)) return { why: `it did not link natively (${(error as { code?: string }).code ?? (error as Error).name})` };
    throw error;
  }
}

/**
 * `source` with the specifier of each import and export statement that starts a line replaced by what `place` makes
 * of it (`typeOnly`: a statement erased whole, `erasedWhole`), every line kept, and in it everything before the
 * specifier, so that a throw's `line:column` is still where it was written. Returns the first specifier `place`
 * refuses (undefined), or with `all` one it does not see as a statement's (after other code on its line, or in a form
 * it does not read) and that is not erased, which a runtime that cannot resolve it must not be given.
 */
export function placeSpecifiers(
  source: string,
  place: (specifier: string, typeOnly: boolean) => string | undefined,
  all = false,
): { text: string } | { unplaced: string } {
  const statements = importStatements(source);
  let unplaced: string | undefined;
  let text = "";
  let done = 0;
  for (const { at, specifier, placeable, erased } of statements) {
    if (!placeable) continue;
    const target = place(specifier, erased);
    if (target === undefined) unplaced ??= specifier;
    else {
      text += `${source.slice(done, at)}${target.replace(/[\\"']/g, "\\$&")}`;
      done = at + specifier.length;
    }
  }
  if (unplaced === undefined && all) unplaced = statements.find((s) => !s.placeable && !s.erased)?.specifier;
  return unplaced === undefined ? { text: text + source.slice(done) } : { unplaced };
}

/** A specifier of an import or export statement in a source (`importStatements`). */
interface ImportStatement {
  /** Where the specifier starts, after its quote. */
  at: number;
  specifier: string;
  /** A statement that starts its line in a form this reads, whose specifier can be replaced where it stands. */
  placeable: boolean;
  /** Erased whole before anything is resolved (`erasedWhole`): nothing need be placed or aliased. */
  erased: boolean;
}

/**
 * Every specifier of `source` after `from` or `import`, in order: the one reading of its statements that
 * `placeSpecifiers` and `importsDropkitValue` share. Placeable when its statement starts a line and what comes before
 * the specifier, comments blanked, is `import`/`export`, names, braces, commas and `*`, then `from`; any other is
 * text this does not read as a statement (after code on its line, in a comment or a string, a form not read), erased
 * only when it reads as an erased statement, which needs nothing wherever it is (if it is text, nothing is loaded).
 */
function importStatements(source: string): ImportStatement[] {
  const found: ImportStatement[] = [];
  const seen = new Set<number>();
  for (const m of source.matchAll(/^[ \t]*((?:import|export)\b[^;'"]*?)(["'])([^"'\n]*)\2/gm)) {
    const head = m[1]!.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, " ");
    if (!/^(?:import|export)\s*(?:[\w$\s{},*]*\bfrom\s*)?$/.test(head)) continue;
    const at = m.index + m[0].length - m[3]!.length - 1;
    seen.add(at);
    found.push({ at, specifier: m[3]!, placeable: true, erased: erasedWhole(head) });
  }
  const loose =
    /(?<![\w$.])((?:import|export)\b[\w$\s{},*]*?\bfrom)\s*(["'])([^"'\n]*)\2|(?:\bfrom|(?<![\w$.])import)\s*(["'])([^"'\n]*)\4/g;
  for (const m of source.matchAll(loose)) {
    const specifier = m[3] ?? m[5]!;
    const at = m.index + m[0].length - specifier.length - 1;
    if (!seen.has(at)) found.push({ at, specifier, placeable: false, erased: m[1] !== undefined && erasedWhole(m[1]) });
  }
  return found.sort((a, b) => a.at - b.at);
}

/**
 * Whether a statement, by its head (from `import`/`export` to its specifier, comments blanked), is erased whole
 * before anything is resolved on every runtime that loads `.ts` here: `import type` and `export type`. An
 * `import { type A } from "x"` is not, though every name in it is a type: Node's stripper leaves `import {} from "x"`,
 * which loads it (`verbatimModuleSyntax`'s reading), and Deno resolves the specifier, though it does not run the
 * module; only Bun drops it unresolved. So it is placed and aliased as a value import is.
 */
function erasedWhole(head: string): boolean {
  return /^(?:import|export)\s+type(?:\s*[{*]|\s+[\w$]+\s+from\b)/.test(head);
}

// --- helpers ---

/**
 * Test-only: `__DROPKIT_TEST_TS_LOADER=jiti` has `.ts` files compiled by jiti even where Node could strip their types,
 * so that the tests check both loading paths on one runtime. Outside the `DROPKIT_*` namespace, like
 * `__DROPKIT_TEST_STATE_PAUSE`.
 */
function testTsLoader(env: NodeJS.ProcessEnv): "jiti" | undefined {
  return env.__DROPKIT_TEST_TS_LOADER === "jiti" ? "jiti" : undefined;
}

let loads = 0;
let installed = false;
const loadAliases = new Map<string, Record<string, string> | undefined>();
/** Each load's entry file and its judged text (src/files/judged.ts), which the load hook serves instead of reading the file. */
const entrySources = new Map<string, { file: string; source: string }>();
/** Errors the hooks threw to hand a file to jiti: thrown while linking, before any code ran. */
const fallbacks = new WeakSet<object>();

/**
 * Whether `source` imports something of `dropkit` that is still there once its types are erased: any statement
 * naming it but an erased one (`erasedWhole`), or a mention of it this does not read as a statement.
 */
export function importsDropkitValue(source: string): boolean {
  return importStatements(source).some((s) => !s.erased && isDropkit(s.specifier));
}

/**
 * `source` with each `dropkit` specifier of its import and export statements replaced by the file `alias` names for it
 * (the running package's), or undefined when one is left that it cannot place: in a statement that does not start its
 * line, or a subpath the package does not export. Lines and columns are kept (`placeSpecifiers`).
 */
export function aliased(source: string, alias: Record<string, string>): string | undefined {
  const served = placeSpecifiers(source, (specifier, erased) => (isDropkit(specifier) && !erased ? alias[specifier] : specifier));
  return "unplaced" in served || importsDropkitValue(served.text) ? undefined : served.text;
}

/** Whether `specifier` names dropkit or one of its subpaths. */
function isDropkit(specifier: string): boolean {
  return /^dropkit(?:\/|$)/.test(specifier);
}

/**
 * Why `source` (still TypeScript) is left to jiti, or "" when Node can load it as it is. A specifier is read by
 * `importStatements`: one of an erased statement (`erasedWhole`) is never resolved, so it blocks nothing.
 */
export function nativeBlocker(source: string): string {
  const cjs = /\b(?:require\s*\(|__dirname\b|__filename\b|module\.exports\b|exports\.\w)/.exec(source);
  if (cjs) return `it uses CommonJS (${cjs[0].trim()})`;
  if (/(?<![\w$.])import\s*\(/.test(source)) return "it has a dynamic import";
  for (const { specifier, erased } of importStatements(source)) {
    if (erased) continue;
    if (/\.json$/i.test(specifier)) return `it imports JSON (${specifier})`;
    if (/^\.{0,2}\//.test(specifier) && !/\.(?:[mc]?ts|[mc]?js)$/i.test(specifier)) return `it imports ${specifier} without its extension`;
  }
  return "";
}

/** Node's and Deno's codes of a file that could not be resolved or loaded, or of syntax the type stripper cannot erase. */
const linkFailureCodes = new Set([
  "ERR_MODULE_NOT_FOUND",
  "ERR_UNSUPPORTED_DIR_IMPORT",
  "ERR_UNKNOWN_FILE_EXTENSION",
  "ERR_IMPORT_ATTRIBUTE_MISSING",
  "ERR_IMPORT_ASSERTION_TYPE_MISSING",
  "ERR_REQUIRE_ESM",
  "ERR_INVALID_TYPESCRIPT_SYNTAX",
  "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX",
  "ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING",
]);

/**
 * An error from loading or linking the files (one not found or not parsed, a missing export), before any code ran:
 * Bun's build and resolve messages, Node's and Deno's resolution codes (a dynamic import, which could fail later, is
 * left to jiti from the start), or a SyntaxError none of whose frames is in a file (a runtime one, from `JSON.parse` in
 * the config, has the config's frame).
 */
function linkFailure(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const name = (error as { name?: unknown }).name;
  if (name === "BuildMessage" || name === "ResolveMessage") return true;
  const errors = (error as { errors?: unknown }).errors;
  if (name === "AggregateError" && Array.isArray(errors) && errors.length > 0 && errors.every((e) => linkFailure(e))) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: string }).code;
  if (code !== undefined) return linkFailureCodes.has(String(code));
  return error.name === "SyntaxError" && !/^\s*at .*(?:file:\/\/|data:|\(\/|at \/)/m.test(error.stack ?? "");
}

/**
 * `file`'s URL: Bun's own conversion where there is one (the same conversion; Bun loads node:url as a module of its
 * own, and its config runs need nothing else of it: docs/performance.md#bun), else node:url's.
 */
function fileUrl(file: string): string {
  const bun = (globalThis as { Bun?: { pathToFileURL(file: string): URL } }).Bun;
  return (bun ? bun.pathToFileURL(file) : pathToFileURL(file)).href;
}

function loadOf(url: string | undefined): string | undefined {
  if (!url?.startsWith("file:")) return undefined;
  const q = url.indexOf(`?${mark}=`);
  return q < 0 ? undefined : url.slice(q + mark.length + 2);
}

/** The judged text Bun's loader is given for each file a load serves, by path; one plugin a file, whose filter is that path alone. */
const bunSources = new Map<string, string>();

/**
 * Has Bun load `file` from `source` (its judged text) instead of reading it: a runtime plugin whose `onLoad` filter
 * matches that one path (Bun's `onLoad` must answer every path its filter matches, so a filter per file leaves every
 * other module to Bun). The files the config imports are Bun's to read, as the config's own business.
 */
function serveOnBun(file: string, source: string): void {
  const known = bunSources.has(file);
  bunSources.set(file, source);
  if (known) return;
  const bun = (globalThis as { Bun?: { plugin(plugin: BunPlugin): void } }).Bun!;
  const filter = new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`);
  bun.plugin({
    name: `dropkit judged ${file}`,
    setup(build) {
      build.onLoad({ filter }, () => ({ contents: bunSources.get(file)!, loader: "ts" }));
    },
  });
}

interface BunPlugin {
  name: string;
  setup(build: { onLoad(options: { filter: RegExp }, load: () => { contents: string; loader: "ts" }): void }): void;
}

/** The hooks, registered once for the process; inert for every URL a load did not mark. */
function installHooks(): void {
  if (installed) return;
  installed = true;
  nodeHooks.registerHooks!({
    resolve(specifier, context, next) {
      // A load's files are resolved here, whole: another loader's hooks (tsx in the tests) would rewrite the URL.
      if (loadOf(specifier) !== undefined) return { url: specifier, shortCircuit: true };
      const load = loadOf(context.parentURL);
      if (load === undefined) return next(specifier, context);
      const alias = loadAliases.get(load);
      const target = alias?.[specifier];
      if (target !== undefined) return { url: pathToFileURL(target).href, shortCircuit: true };
      if (/^\.{0,2}\//.test(specifier) && /\.ts$/.test(specifier)) {
        const url = new URL(specifier, context.parentURL);
        url.search = `?${mark}=${load}`;
        return { url: url.href, shortCircuit: true };
      }
      const resolved = next(specifier, context);
      // The project's own files are marked too, so that each load reads them again (a config edited between two loads).
      if (resolved.url.startsWith("file:") && !resolved.url.includes("/node_modules/") && /\.ts$/.test(new URL(resolved.url).pathname)) {
        return { ...resolved, url: `${resolved.url.split("?")[0]}?${mark}=${load}`, shortCircuit: true };
      }
      return resolved;
    },
    load(url, context, next) {
      if (loadOf(url) === undefined || !/\.ts$/.test(new URL(url).pathname)) return next(url, context);
      const file = fileURLToPath(url);
      const entry = entrySources.get(loadOf(url)!);
      return {
        format: "module",
        source: stripped(file, entry?.file === file ? entry.source : readFileSync(file, "utf8")),
        shortCircuit: true,
      };
    },
  });
}

/** The private cache of stripped code (`privateDir`'s `dir`, to open through, and `real`, to name), or null: none. */
let stripCache: { dir: string; real: string } | null | undefined;

/**
 * `file`'s code with its types erased, from the private cache when this text was stripped before (keyed by its hash
 * and the Node version, whose stripper made it), else stripped now and saved. Throws a fallback for what cannot be
 * erased or parsed, and for CommonJS or other forms jiti handles.
 */
function stripped(file: string, source: string): string {
  const blocker = nativeBlocker(source);
  if (blocker) throw fallback(`${file}: ${blocker}`);
  if (stripCache === undefined) {
    const cache = privateDir(process.env, process.platform, "ts");
    stripCache = cache.dir === null ? null : cache;
    if (cache.dir === null) debug(`.ts configs are stripped without a file cache: ${cache.why}`);
  }
  // Not node:crypto, which a warm run would load for a key alone (docs/performance.md#ts-configs-without-jiti): the
  // key is a fast hash, and an entry holds the text it was stripped from, compared in full, so that two texts
  // with one key never share an entry. The entry is opened through the cache's `dir` (on Linux a held descriptor's
  // /proc/self/fd path, which no user can read) and named in messages by where it is (`real`).
  let entry: { file: string; shown: string } | null = null;
  if (stripCache !== null) {
    const name = `${privateFileName(`${process.version}\0${source}`)}.js`;
    entry = { file: path.join(stripCache.dir, name), shown: path.join(stripCache.real, name) };
  }
  if (entry) {
    const code = cachedStrip(entry.file, source);
    if (code !== undefined) {
      debug(`${file}: types stripped before, read from ${entry.shown}`);
      return code;
    }
  }
  let code: string;
  const emitWarning = process.emitWarning;
  // Node calls the stripper experimental once a process; dropkit's stderr carries only its own records.
  process.emitWarning = (() => undefined) as typeof process.emitWarning;
  try {
    code = nodeHooks.stripTypeScriptTypes!(source, { mode: "strip" });
  } catch (error) {
    throw fallback(`${file}: ${(error as { code?: string }).code ?? "ERR"}: ${String((error as Error).message).split("\n")[0]}`);
  } finally {
    process.emitWarning = emitWarning;
  }
  debug(`${file}: types stripped${entry ? `, saved to ${entry.shown}` : ""}`);
  if (entry) writePrivateFile(entry.file, `${source.length}\n${source}${code}`);
  return code;
}

/** The stripped code of a cache entry (`<length of the text>\n<text><code>`) made from exactly `source`, or undefined. */
function cachedStrip(cacheFile: string, source: string): string | undefined {
  // Opened once, never a wait or a link followed, judged on its descriptor (src/files/privatedir.ts): a FIFO or anything
  // but this user's own regular file is a miss. 8 MiB holds a 1 MiB config twice over (its text and its code).
  const entry = readPrivateFile(cacheFile, 8 * 1024 * 1024)?.toString("utf8");
  if (entry === undefined) return undefined;
  const newline = entry.indexOf("\n");
  const start = newline + 1;
  if (newline < 1 || entry.slice(0, newline) !== String(source.length) || entry.slice(start, start + source.length) !== source)
    return undefined;
  return entry.slice(start + source.length);
}

function fallback(why: string): Error {
  const error = new Error(why);
  fallbacks.add(error);
  return error;
}

function debug(text: string): void {
  if (process.env.DROPKIT_DEBUG === "1") process.stderr.write(`dropkit: ${text}\n`);
}
