// The one host of the wasm core: instantiates the module through @assemblyscript/loader and speaks the byte ABI of
// SPEC section 11 (docs/abi.md) to it, for the CLI, the library, the playground and `dropkit/core`. Browser-safe.

import { instantiateSync } from "@assemblyscript/loader";
import type {
  AbiCore,
  AbiExports,
  BundledPreset,
  CoreDiagnostic,
  RawResponse,
  ResolveRequest,
  ResolveResponse,
  SchemaResponse,
  ValidateResponse,
} from "./protocol.js";
import type { FetchResponse, WasmBytes, WasmModule } from "./wasmtypes.js";
import { DropkitError } from "../errors.js";

/** The ABI version this host speaks (SPEC section 11). */
export const ABI_VERSION = 1;

/** The core trapped, answered outside its memory or with bytes that are not UTF-8 JSON: a bug in the core (exit 70 in the CLI). */
export class CoreTrap extends Error {
  override readonly name = "InternalError";
}

const encoder = new TextEncoder();
// Fatal: a response that is not UTF-8 is a bug in the core, not something to paper over with U+FFFD. Made on first use,
// as a process's first TextDecoder is not free, and a run the answer cache answers decodes nothing
// (docs/performance.md#loaded-on-first-use).
let decoder: TextDecoder | undefined;

/**
 * Answers the core gave before, kept by a host between runs (the CLI's answer cache, src/files/answercache.ts). The
 * core is pure (no imports, no clock, no randomness: SPEC section 11), so its answer is a function of the request
 * text and of the module: a store that is given the exact request text, for one module, can answer for it.
 */
export interface AnswerStore {
  /** The answer the core gave to exactly `request`, when the store has it. */
  recall(request: string): string | undefined;
  /** The core's answer (status 0) to `request`, just computed. */
  keep(request: string, answer: string): void;
  /** Whether the store has any answer at all: when it has none, `prepare` compiles the module meanwhile. */
  holdsAnswers?(): boolean;
}

/** A core's options: `answers`, a store consulted before the module is asked (and told what it answers). */
export interface CoreOptions {
  answers?: AnswerStore;
}

/**
 * One instance of the core at a time. A trap discards the instance; the next call makes a fresh one from the module.
 * Given a function for its bytes, the module is compiled only when a request needs it: with an answer store that
 * knows every request of a run, never.
 */
export class Core implements AbiCore {
  lastStatus = 0;
  private source: (() => WasmBytes) | null;
  private compiled: WasmModule | null;
  /** A compile `prepare` started, off the calling thread where the engine can. */
  private pending: Promise<void> | null = null;
  private exports: AbiExports | null = null;
  private readonly answers: AnswerStore | undefined;

  constructor(source: WasmModule | WasmBytes | (() => WasmBytes), options: CoreOptions = {}) {
    this.answers = options.answers;
    if (typeof source === "function") {
      this.source = source as () => WasmBytes;
      this.compiled = null;
      return;
    }
    this.source = null;
    this.compiled = source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source);
    // Checked now: a module that is not dropkit's core fails where it is opened.
    this.exports = instantiate(this.compiled);
  }

  /** The compiled module (compiled now, when the core was given a function for its bytes and has not needed it yet). */
  get module(): WasmModule {
    return (this.compiled ??= new WebAssembly.Module(this.source!()));
  }

  /**
   * Starts compiling the module in the background when it is not compiled yet and the answer store (if any) holds no
   * answer: a host calls it before work of its own that comes before the first request (reading a config). A request
   * made before that compile ends compiles the module itself, as without it; a compile that fails is left for that
   * request to report. JavaScriptCore (Bun) compiles a whole module before it runs, on the thread that asks when the
   * compile is synchronous (docs/performance.md#bun). The promise settles when that compile has ended
   * (it never rejects); nothing needs to wait for it.
   */
  prepare(): Promise<void> {
    if (this.pending !== null) return this.pending;
    if (this.compiled !== null || this.source === null || this.answers?.holdsAnswers?.() === true) return Promise.resolve();
    let bytes: WasmBytes;
    try {
      bytes = this.source();
    } catch {
      return Promise.resolve();
    }
    this.pending = WebAssembly.compile(bytes).then(
      (module) => {
        this.compiled ??= module;
      },
      () => undefined,
    );
    return this.pending;
  }

  /** `dk_abi_version()` of the module. */
  get abiVersion(): number {
    return (this.exports ??= instantiate(this.module)).dk_abi_version();
  }

  /** Sends raw request bytes (which need not be valid UTF-8); the response bytes are a copy. */
  callBytes(request: Uint8Array): RawResponse {
    const { status, view } = this.send((e) => callExports(e, request));
    return { status, bytes: view.slice() };
  }

  /** Sends request text; returns the response text exactly as the core wrote it. */
  callText(text: string): string {
    const known = this.answers?.recall(text);
    if (known !== undefined) {
      this.lastStatus = 0;
      return known;
    }
    const { status, view } = this.send((e) => callExportsText(e, text));
    let answer: string;
    try {
      // Decoding the view copies it: no slice first.
      answer = (decoder ??= new TextDecoder("utf-8", { fatal: true })).decode(view);
    } catch (error) {
      throw new CoreTrap("the core answered with bytes that are not UTF-8", { cause: error });
    }
    // Only a request the core handled: any other status is a host's bug, to be seen again rather than remembered.
    if (status === 0) this.answers?.keep(text, answer);
    return answer;
  }

  /** Sends one request (an object is sent as JSON, a string as is) and returns the parsed response. */
  call<T = Record<string, unknown>>(request: object | string): T {
    const text = this.callText(typeof request === "string" ? request : JSON.stringify(request));
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new CoreTrap("the core answered with text that is not JSON", { cause: error });
    }
  }

  /** Sends one request object and returns the parsed response, with the ABI status. */
  request<T>(request: object): { status: number; response: T } {
    const response = this.call<T>(request);
    return { status: this.lastStatus, response };
  }

  /** Validates one config (or preset) text: all problems at once, with positions. */
  validateConfig(
    text: string,
    options: { format?: "json" | "package.json"; source?: string; kind?: "config" | "preset" } = {},
  ): ValidateResponse {
    return this.expect<ValidateResponse>({ op: "validate", text, ...options });
  }

  /** Merges the layers (SPEC section 4); may ask for preset files or detect answers first (see docs/abi.md). */
  resolveLayers(request: ResolveRequest): ResolveResponse {
    return this.expect<ResolveResponse>({ op: "resolve", ...request });
  }

  /** The bundled presets. */
  listPresets(): BundledPreset[] {
    return this.expect<{ presets: BundledPreset[] }>({ op: "presets" }).presets;
  }

  /** The core's table of leaves and top-level keys: types, defaults, variables, merge policies and descriptions. */
  describeSchema(): SchemaResponse {
    return this.expect<SchemaResponse>({ op: "schema" });
  }

  /** The JSON parser alone: the value, or the syntax error with its position. */
  parseJson(text: string): { ok: boolean; value?: unknown; errors: CoreDiagnostic[] } {
    return this.expect({ op: "parse", text });
  }

  /** The did-you-mean of every dropkit message: the candidate closest to `name`, when one is close enough. */
  suggest(name: string, candidates: string[]): string | undefined {
    return this.expect<{ suggestion: string | null }>({ op: "suggest", name, candidates }).suggestion ?? undefined;
  }

  private send(call: (e: AbiExports) => { status: number; view: Uint8Array }): { status: number; view: Uint8Array } {
    // After a trap the old instance is gone; a fresh one starts from the module's initial state.
    const e = (this.exports ??= instantiate(this.module));
    try {
      const answer = call(e);
      this.lastStatus = answer.status;
      return answer;
    } catch (error) {
      // A trap (or an answer outside memory) leaves the instance in an unknown state: discard it (SPEC section 11).
      this.exports = null;
      if (error instanceof CoreTrap) throw error;
      throw new CoreTrap(`the core trapped: ${(error as Error).message}`, { cause: error });
    }
  }

  private expect<T>(request: object): T {
    const response = this.call<T & { errors?: CoreDiagnostic[] }>(request);
    if (this.lastStatus !== 0) {
      // A request the core cannot read is the host's bug, never the user's.
      throw new CoreTrap(`the core rejected a request: ${response.errors?.[0]?.message ?? "status " + this.lastStatus}`);
    }
    return response;
  }
}

/**
 * Opens the core from the module's bytes or a compiled module, synchronously. Browsers cap synchronous compiles on a
 * page's main thread (older Chromium at 4 KB): there, prefer `openCoreAsync`; workers, Deno, Bun and Node may pass bytes.
 * Without an argument, in Node (20.16 or later: `process.getBuiltinModule`), Bun or Deno: the installed module, found
 * as `loadConfig` finds it (docs/library.md, "Bundling for Node").
 *
 * @throws DropkitError `IOError` (74) when no argument is given and the installed module cannot be found or read;
 *   TypeError when no argument is given where no file can be read (a browser): pass the module.
 */
export function openCore(source?: WasmBytes | WasmModule): Core {
  return new Core(source ?? installedModuleHere());
}

/** `openCore` by the name `dropkit/core` has always used. */
export const createCore = openCore;

/**
 * Opens the core from bytes, a compiled module, or a fetch `Response` (compiled while it streams); without an argument,
 * as `openCore()`, the installed module.
 */
export async function openCoreAsync(source?: WasmBytes | WasmModule | FetchResponse | PromiseLike<FetchResponse>): Promise<Core> {
  if (source === undefined) return new Core(await WebAssembly.compile(installedModuleHere()));
  const resolved = await source;
  if (resolved instanceof WebAssembly.Module) return new Core(resolved);
  if (isResponse(resolved)) {
    if (!resolved.ok) throw new Error(`cannot load the core: ${resolved.status} ${resolved.statusText} for ${resolved.url}`);
    // compileStreaming needs the application/wasm type; a server (or file: fetch) without it still gives the bytes.
    const compiled =
      resolved.headers.get("content-type")?.startsWith("application/wasm") && typeof WebAssembly.compileStreaming === "function"
        ? await WebAssembly.compileStreaming(resolved)
        : await WebAssembly.compile(await resolved.arrayBuffer());
    return new Core(compiled);
  }
  return new Core(await WebAssembly.compile(resolved));
}

/**
 * One request through the byte ABI: writes `request` into the module's memory, calls `dk_call` and frees the buffer.
 * Returns the status and a view of the response, valid only until the next call into the module. A trap propagates:
 * the caller discards the instance.
 */
export function callExports(e: AbiExports, request: Uint8Array): { status: number; view: Uint8Array } {
  const ptr = allocRequest(e, request.length);
  // memory.buffer is re-read after every call into the module: growth detaches the old ArrayBuffer.
  new Uint8Array(e.memory.buffer, ptr, request.length).set(request);
  return finishCall(e, ptr, request.length);
}

/**
 * `callExports` for request text: a short text is encoded straight into the module's buffer (no copy on the
 * way), a long one first on its own (so that the buffer is not three times the text, UTF-8's worst case).
 */
export function callExportsText(e: AbiExports, text: string): { status: number; view: Uint8Array } {
  if (text.length > 16384) return callExports(e, encoder.encode(text));
  const room = text.length * 3;
  const ptr = allocRequest(e, room);
  const { written } = encoder.encodeInto(text, new Uint8Array(e.memory.buffer, ptr, room));
  return finishCall(e, ptr, written);
}

/** What finding the installed module needs of Node, given by the caller: this module loads none of Node's (it runs in browsers). */
export interface ModuleFiles {
  /** The bytes of `file`; throws Node's error (its `code`) when it cannot be read. */
  read(file: string): WasmBytes;
  /** `specifier` as Node resolves it from the file `from`, or `undefined` when it finds nothing. */
  resolve(from: string, specifier: string): string | undefined;
}

/**
 * Where the installed module is looked for: `first` (dist/dropkit.wasm of the package dropkit runs from, or the file
 * beside a program's bundle), then, in a bundle (`bundle`, its file), `dropkit/dropkit.wasm` as Node resolves it from there.
 */
export interface ModulePlace {
  first: string;
  bundle?: string;
}

/**
 * The installed module's bytes, by the rule of docs/library.md ("Bundling for Node"): `place.first`, then in a bundle
 * the `dropkit` package Node finds from it. Neither: an `IOError` naming where it looked and `fix`, what the caller
 * can pass instead. A file that exists but cannot be read is an `IOError` naming it.
 */
export function readInstalledModule(files: ModuleFiles, place: ModulePlace, fix: string): WasmBytes {
  const looked = [place.first];
  const read = (file: string): WasmBytes | undefined => {
    try {
      return files.read(file);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === "ENOENT" || code === "ENOTDIR") return undefined;
      throw new DropkitError(
        { name: "IOError", message: `dropkit's core, ${file}, cannot be read: ${code ?? String(error)}.`, file, source: file },
        { cause: error },
      );
    }
  };
  const first = read(place.first);
  if (first !== undefined) return first;
  if (place.bundle !== undefined) {
    const resolved = files.resolve(place.bundle, "dropkit/dropkit.wasm");
    const found = resolved === undefined ? undefined : read(resolved);
    if (found !== undefined) return found;
    if (resolved !== undefined) looked.push(resolved);
  }
  const where =
    place.bundle === undefined
      ? `${place.first} is missing: the package is incomplete. Install dropkit again, or ${fix}.`
      : `it is not at ${looked.join(", nor at ")}, beside ${place.bundle}, the file running dropkit, and Node finds no dropkit package from there. ` +
        `Copy node_modules/dropkit/dist/dropkit.wasm beside that file, or ${fix} (docs/library.md, "Bundling for Node").`;
  throw new DropkitError({
    name: "IOError",
    message: `dropkit cannot find its core, dropkit.wasm: ${where}`,
    file: place.first,
    source: place.first,
  });
}

// --- helpers ---

/** CommonJS's own file name: a CommonJS bundle's, where `import.meta` is empty. */
declare const __filename: string | undefined;

/**
 * The installed module, for `openCore()` without an argument: read with Node's own modules, from
 * `process.getBuiltinModule` (Node 20.16+, Bun, Deno), so that this module imports none (it runs in browsers too).
 */
function installedModuleHere(): WasmBytes {
  type Process = { getBuiltinModule?(id: string): unknown };
  const getBuiltin = (globalThis as { process?: Process }).process?.getBuiltinModule;
  const pass = "pass the module: openCore(bytes of dropkit.wasm) or a compiled WebAssembly.Module";
  if (typeof getBuiltin !== "function") {
    const node = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
    throw new TypeError(
      node === undefined
        ? `openCore() needs the module where no file can be read: ${pass}, or await openCoreAsync(fetch(url of dropkit.wasm)).`
        : `openCore() without an argument needs Node 20.16 or later (process.getBuiltinModule); on Node ${node}, ${pass}: ` +
            `openCore(readFileSync(createRequire(import.meta.url).resolve("dropkit/dropkit.wasm"))).`,
    );
  }
  const fs = getBuiltin("node:fs") as { readFileSync(file: string): WasmBytes };
  const { createRequire } = getBuiltin("node:module") as { createRequire(from: string): { resolve(id: string): string } };
  const files: ModuleFiles = {
    read: (file) => fs.readFileSync(file),
    resolve(from, specifier) {
      try {
        return createRequire(from).resolve(specifier);
      } catch {
        return undefined;
      }
    },
  };
  // `import.meta.filename` and `.url`, never `import.meta` alone: a build that defines them (the CLI's) replaces them.
  const filename = (import.meta as { filename?: string }).filename;
  const metaUrl = (import.meta as { url?: string }).url;
  const url = metaUrl?.startsWith("file:") ? metaUrl : undefined;
  const own =
    filename ??
    (url === undefined ? undefined : (getBuiltin("node:url") as { fileURLToPath(url: string): string }).fileURLToPath(url)) ??
    (typeof __filename === "string" ? __filename : undefined);
  if (own === undefined) throw new TypeError(`openCore() cannot tell where it runs from, to find the module: ${pass}.`);
  // dist/core/host.js (or src/core/host.ts under tsx) in the package; any other name is a program's bundle.
  const inPackage = /[\\/]core[\\/]host\.([jt])s$/.exec(own);
  const dir = (file: string): string => file.slice(0, Math.max(file.lastIndexOf("/"), file.lastIndexOf("\\")));
  const sep = own.includes("\\") && !own.includes("/") ? "\\" : "/";
  const place: ModulePlace = inPackage
    ? { first: [dir(dir(own)), ...(inPackage[1] === "t" ? ["..", "dist"] : []), "dropkit.wasm"].join(sep) }
    : { first: dir(own) + sep + "dropkit.wasm", bundle: own };
  return readInstalledModule(files, place, "pass the module: openCore(bytes) or openCore(compiled module)");
}

/**
 * A fresh instance's exports, checked: the dk_* functions, the memory and the ABI version. The loader instantiates
 * the module (it has no imports: docs/embedding.md); the host then calls the instance's own exports, since the
 * loader's wrappers would add a call and an arguments array to each of the five.
 */
function instantiate(module: WasmModule): AbiExports {
  const exports = instantiateSync(module as WebAssembly.Module, {}).instance.exports as unknown as AbiExports;
  for (const name of ["dk_abi_version", "dk_alloc", "dk_free", "dk_call", "dk_out_ptr", "dk_out_len"] as const) {
    if (typeof exports[name] !== "function") throw new TypeError(`the module does not export ${name}: is it dropkit's core?`);
  }
  if (!(exports.memory instanceof WebAssembly.Memory)) throw new TypeError("the module does not export its memory");
  const version = exports.dk_abi_version();
  if (version !== ABI_VERSION) throw new TypeError(`the core speaks ABI version ${version}; this host knows version ${ABI_VERSION}`);
  return exports;
}

function allocRequest(e: AbiExports, len: number): number {
  const ptr = e.dk_alloc(len) >>> 0;
  // 0 is dk_alloc's "no buffer" (docs/embedding.md): writing there would overwrite the module's own data.
  if (ptr === 0) throw new CoreTrap(`the core has no room for a request of ${len} bytes (dk_alloc returned 0)`);
  return ptr;
}

function finishCall(e: AbiExports, ptr: number, len: number): { status: number; view: Uint8Array } {
  const status = e.dk_call(ptr, len);
  e.dk_free(ptr);
  return { status, view: new Uint8Array(e.memory.buffer, e.dk_out_ptr() >>> 0, e.dk_out_len() >>> 0) };
}

function isResponse(value: unknown): value is Response {
  return typeof Response !== "undefined" && value instanceof Response;
}
