// Where a .ts/.js config failed, in the files as the user wrote them: the stack's first frame in the project's code, mapped back through jiti's source maps.

import { realpathSync } from "node:fs";
import { createRequire, SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ownCodeDir, ownFile } from "../installed.js";
import { servedFile } from "./native.js";
import { sharedPatch } from "./sharedpatch.js";

/** A position in a file: 1-based line, and 1-based column in UTF-16 code units when known. */
export interface FilePosition {
  file: string;
  line: number;
  column?: number;
}

/** Where an error was thrown and, when that is in another file (a helper the config imports), the config's line that led there. */
export interface ThrowSite extends FilePosition {
  calledFrom?: FilePosition;
}

/**
 * Runs `run` (the evaluation of a `.ts`/`.js` file) while recording the code jiti compiles, by file name: the positions
 * V8 reports are in that code, and its inline source map (jiti's `sourceMaps` option) leads back to the file as written.
 * jiti runs every transformed file through `vm.runInThisContext`, whether it was transformed now or read from its file
 * cache, and a cache hit calls no hook of jiti's: that call is the one place the exact code shows. `vm` is patched
 * when jiti is about to run (`recordJiti`): a file the runtime loads itself runs no code through it, and Bun loads
 * node:vm as a module of its own (docs/performance.md#bun). Nested and concurrent runs share one recording; the last one to end
 * puts `vm` back and forgets the code.
 */
export const recordCompiledCode = sharedPatch(() => {
  recording = true;
  return () => {
    recording = false;
    restoreVm?.();
    restoreVm = undefined;
    compiled.clear();
  };
});

/** Called before jiti runs code, within `recordCompiledCode`: from then on the code it compiles is recorded. */
export function recordJiti(): void {
  if (recording && restoreVm === undefined) restoreVm = patchVm();
}

/**
 * Where `error`, thrown while `file` was evaluated (inside `recordCompiledCode`), was thrown: for a jiti parse error the
 * position its message gives; otherwise the first frame of its stack in the project's own code (the file itself, a file
 * jiti compiled for it, or any file outside `node_modules`), above dropkit's own frames, mapped to the source as written.
 * A call of a library is thus placed at the project's line that called it. `undefined` when no frame is the project's.
 */
export function locateError(error: Error, file: string): ThrowSite | undefined {
  const parsed = parseErrorPosition(error.message);
  if (parsed) return parsed;
  const frames = projectFrames(error.stack ?? "", file);
  const first = frames[0];
  if (!first) return undefined;
  const site: ThrowSite = originalPosition(first);
  if (first.file !== file) {
    const caller = frames.find((frame) => frame.file === file);
    if (caller) site.calledFrom = originalPosition(caller);
  }
  return site;
}

/** `file:line:column`, or `file:line` when the column is not known. */
export function formatPosition(at: FilePosition): string {
  return `${at.file}:${at.line}${at.column === undefined ? "" : `:${at.column}`}`;
}

/**
 * Anything a config threw, as an Error whose message and stack can be read safely: user code may throw a
 * non-Error, a Proxy whose every trap throws, or an Error whose `message` or `stack` getter throws.
 */
export function plainError(thrown: unknown): Error {
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

// --- helpers ---

const compiled = new Map<string, string>();
let recording = false;
let restoreVm: (() => void) | undefined;

function patchVm(): () => void {
  // Required on first use: the library loads no `vm` for a JSON config.
  // From the module's path (in a bundle, the bundle's: a CommonJS one has no import.meta.url); any base finds a built-in.
  const vm = createRequire(ownFile() ?? path.join(process.cwd(), "-"))("node:vm") as typeof import("node:vm");
  const original = vm.runInThisContext;
  const recorder = function (this: unknown, ...args: Parameters<typeof original>) {
    const [code, options] = args;
    const filename = typeof options === "string" ? options : options?.filename;
    if (typeof code === "string" && typeof filename === "string") compiled.set(filename, code);
    return original.apply(this, args);
  } as typeof vm.runInThisContext;
  vm.runInThisContext = recorder;
  return () => {
    // Left alone when something else replaced it meanwhile (the config's own code may).
    if (vm.runInThisContext === recorder) vm.runInThisContext = original;
  };
}

/** A stack frame's place: absolute file, and V8's 1-based line and column. */
interface Frame {
  file: string;
  line: number;
  column: number;
}

/**
 * The frames of `stack` in the project's code, innermost first, up to dropkit's own first frame: in `file`, in a file
 * jiti compiled, or in any file outside a `node_modules` folder (Node's internals have no absolute path). A frame of a
 * file Node loaded itself names its real path, which is then taken for `file` when it is the same file.
 */
function projectFrames(stack: string, file: string): Frame[] {
  // dropkit's own directory (dist/, or src/ under tsx): its frames are the evaluation's callers, never the config's.
  const ownDir = ownCodeDir();
  const real = realPath(file);
  const frames: Frame[] = [];
  for (const line of stack.split("\n")) {
    const frame = parseFrame(line);
    if (!frame) continue;
    if (frame.file.startsWith(ownDir)) break;
    if (frame.file !== file && !compiled.has(frame.file) && frame.file === real) frame.file = file;
    if (frame.file === file || compiled.has(frame.file) || !frame.file.split(/[\\/]/).includes("node_modules")) frames.push(frame);
  }
  return frames;
}

function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/**
 * One line of a V8 (Node, Deno) or JavaScriptCore (Bun) stack: `at name (place)` or `at place`, where the place is
 * `path:line:column`, a `file:` URL, or the `data:` URL Deno imported a file's text as (src/config/native.ts), which
 * is that file. Others (`native`, `<anonymous>`, `node:` internals, `eval at`) are no frame.
 */
function parseFrame(text: string): Frame | undefined {
  const at = /^\s*at (?:async )?(.*)$/.exec(text);
  if (!at) return undefined;
  let place = at[1]!;
  const open = place.indexOf(" (");
  if (place.endsWith(")") && open >= 0) place = place.slice(open + 2, -1);
  const m = /^(.*):(\d+):(\d+)$/.exec(place);
  if (!m) return undefined;
  let file = m[1]!;
  if (file.startsWith("data:")) file = servedFile(file) ?? "";
  else if (file.startsWith("file://")) {
    try {
      file = fileURLToPath(file);
    } catch {
      return undefined;
    }
  }
  if (!path.isAbsolute(file)) return undefined;
  return { file, line: Number(m[2]), column: Number(m[3]) };
}

/**
 * A frame's position in the file as written. A file jiti compiled is mapped through its inline source map (babel keeps
 * lines, not columns); on its first line jiti's function wrapper comes before the code. A file that ran as written
 * (loaded natively) keeps its position. When the map has nothing for that spot, only the line is given.
 */
function originalPosition(frame: Frame): FilePosition {
  // Bun transpiles a .ts file it imports natively (src/config/native.ts) and maps its positions by line: the column is noise.
  if (process.versions.bun !== undefined && /\.[mc]?ts$/.test(frame.file) && !compiled.has(frame.file))
    return { file: frame.file, line: frame.line };
  const code = compiled.get(frame.file);
  if (code === undefined) return { ...frame };
  const lineOnly = { file: frame.file, line: frame.line };
  // Bun maps the positions of code run through `vm` with its own map of the file it transpiled when its native import
  // failed, which is not the code that ran: the column would be noise, and the line is only likely.
  if (process.versions.bun !== undefined) return lineOnly;
  const map = inlineSourceMap(code);
  if (!map) return lineOnly;
  const wrapper = frame.line === 1 ? (/^\((?:async )?function \([^)]*\) \{ /.exec(code)?.[0].length ?? 0) : 0;
  const column = frame.column - 1 - wrapper;
  if (column < 0) return lineOnly;
  const entry = map.findEntry(frame.line - 1, column) as Partial<{ generatedLine: number; originalLine: number; originalColumn: number }>;
  // An entry from an earlier line means babel's own code here (a helper it added): nothing of the user's to point at.
  if (entry.generatedLine !== frame.line - 1 || typeof entry.originalLine !== "number" || typeof entry.originalColumn !== "number")
    return lineOnly;
  const source = (map.payload as { sourcesContent?: Array<string | null> }).sourcesContent?.[0] ?? undefined;
  return { file: frame.file, line: entry.originalLine + 1, column: calleeStart(source, entry.originalLine, entry.originalColumn) + 1 };
}

/**
 * V8 places a call at its callee (`readFileSync(...)` at `readFileSync`), but babel compiles a call of an imported name to
 * `(0, _fs.readFileSync)(...)`, which V8 places at the `(` of its arguments, and the map takes that `(` back to the one in
 * the source. When the mapped column is a `(` right after a name, the name's start is where V8 would place the call.
 */
function calleeStart(source: string | undefined, line: number, column: number): number {
  const text = source?.split(/\r\n|\r|\n/)[line];
  if (text?.[column] !== "(") return column;
  let start = column;
  while (start > 0 && /[\p{ID_Continue}$\u200c\u200d]/u.test(text[start - 1]!)) start--;
  return start < column && /[\p{ID_Start}$_]/u.test(text[start]!) ? start : column;
}

/** The inline source map jiti's `sourceMaps` option puts at the end of compiled code. */
function inlineSourceMap(code: string): SourceMap | undefined {
  const m = /\/\/# sourceMappingURL=data:application\/json;(?:charset=[^;,]*;)?base64,([A-Za-z0-9+/=]+)/.exec(
    code.slice(code.lastIndexOf("//# sourceMappingURL=")),
  );
  if (!m) return undefined;
  try {
    return new SourceMap(JSON.parse(Buffer.from(m[1]!, "base64").toString("utf8")));
  } catch {
    return undefined;
  }
}

/**
 * The position of a jiti parse error, from its message ("ParseError: ...\n <path>:line:column"), in `file` or in a file
 * it imports; Babel counts columns from 0, dropkit from 1.
 */
function parseErrorPosition(message: string): FilePosition | undefined {
  if (!/^ParseError\b/.test(message)) return undefined;
  const m = /\n\s*(\S.*):(\d+):(\d+)\s*$/.exec(message);
  if (!m || !path.isAbsolute(m[1]!)) return undefined;
  return { file: m[1]!, line: Number(m[2]), column: Number(m[3]) + 1 };
}
