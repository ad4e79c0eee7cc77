// The plain-WebAssembly host of the dk_* ABI (docs/embedding.md): no loader and no Node built-ins, only web-standard APIs, so
// the same file runs in browsers, Web Workers, Deno, Bun and Node.

import type { FetchResponse, WasmBytes, WasmMemory, WasmModule } from "./wasmtypes.js";

/** The ABI version this host speaks (SPEC section 11). */
export const ABI_VERSION = 1;

/** The core trapped, answered outside its memory or with bytes that are not UTF-8 JSON: a bug in the core (exit 70 in the CLI). */
export class CoreTrap extends Error {
  override readonly name = "InternalError";
}

/** What `callBytes` returns: the ABI status (0 handled, 1 not JSON or not an object, 2 not a valid request) and the response. */
export interface RawResponse {
  status: number;
  /** The response bytes as the core wrote them (a copy: the module's own are valid only until its next call). */
  bytes: Uint8Array;
}

export interface AbiCore {
  /** `dk_abi_version()` of the module. */
  readonly abiVersion: number;
  /** The status of the last request: 0 handled, 1 not JSON or not an object, 2 JSON but not a valid request. */
  readonly lastStatus: number;
  /** Sends one request (an object is sent as JSON, a string as is) and returns the parsed response. */
  call<T = Record<string, unknown>>(request: object | string): T;
  /** Sends request text; returns the response text exactly as the core wrote it. */
  callText(text: string): string;
  /** Sends raw request bytes (which need not be valid UTF-8). */
  callBytes(request: Uint8Array): RawResponse;
}

/** The exports of the dk_* ABI (SPEC section 11): every host calls these, dropkit's own loader-based binding too. */
export interface AbiExports {
  memory: WasmMemory;
  dk_abi_version(): number;
  dk_alloc(len: number): number;
  dk_free(ptr: number): void;
  dk_call(ptr: number, len: number): number;
  dk_out_ptr(): number;
  dk_out_len(): number;
}

const encoder = new TextEncoder();
// Fatal: a response that is not UTF-8 is a bug in the core, not something to paper over with U+FFFD.
const decoder = new TextDecoder("utf-8", { fatal: true });

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

function instantiate(module: WebAssembly.Module): AbiExports {
  // The release module has no imports (docs/embedding.md); an import object is still required by the API.
  const exports = new WebAssembly.Instance(module, {}).exports as unknown as AbiExports;
  for (const name of ["dk_abi_version", "dk_alloc", "dk_free", "dk_call", "dk_out_ptr", "dk_out_len"] as const) {
    if (typeof exports[name] !== "function") throw new TypeError(`the module does not export ${name}: is it dropkit's core?`);
  }
  if (!(exports.memory instanceof WebAssembly.Memory)) throw new TypeError("the module does not export its memory");
  const version = exports.dk_abi_version();
  if (version !== ABI_VERSION) throw new TypeError(`the core speaks ABI version ${version}; this host knows version ${ABI_VERSION}`);
  return exports;
}

class Host implements AbiCore {
  readonly abiVersion: number;
  lastStatus = 0;
  private exports: AbiExports | null;

  constructor(private readonly module: WebAssembly.Module) {
    this.exports = instantiate(module);
    this.abiVersion = this.exports.dk_abi_version();
  }

  callBytes(request: Uint8Array): RawResponse {
    // After a trap the old instance is gone; a fresh one starts from the module's initial state.
    const e = (this.exports ??= instantiate(this.module));
    try {
      const { status, view } = callExports(e, request);
      const bytes = view.slice();
      this.lastStatus = status;
      return { status, bytes };
    } catch (error) {
      // A trap (or an answer outside memory) leaves the instance in an unknown state: discard it (SPEC section 11).
      this.exports = null;
      if (error instanceof CoreTrap) throw error;
      throw new CoreTrap(`the core trapped: ${(error as Error).message}`, { cause: error });
    }
  }

  callText(text: string): string {
    const { bytes } = this.callBytes(encoder.encode(text));
    try {
      return decoder.decode(bytes);
    } catch (error) {
      throw new CoreTrap("the core answered with bytes that are not UTF-8", { cause: error });
    }
  }

  call<T = Record<string, unknown>>(request: object | string): T {
    const text = this.callText(typeof request === "string" ? request : JSON.stringify(request));
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new CoreTrap("the core answered with text that is not JSON", { cause: error });
    }
  }
}

/**
 * Opens the core from the module's bytes or a compiled module, synchronously. Browsers cap synchronous compiles on a
 * page's main thread (older Chromium at 4 KB): there, prefer `openCoreAsync`; workers, Deno, Bun and Node may pass bytes.
 */
export function openCore(source: WasmBytes | WasmModule): AbiCore {
  return new Host(source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source));
}

/** Opens the core from bytes, a compiled module, or a fetch `Response` (compiled while it streams). */
export async function openCoreAsync(source: WasmBytes | WasmModule | FetchResponse | PromiseLike<FetchResponse>): Promise<AbiCore> {
  const resolved = await source;
  if (resolved instanceof WebAssembly.Module) return new Host(resolved);
  if (isResponse(resolved)) {
    if (!resolved.ok) throw new Error(`cannot load the core: ${resolved.status} ${resolved.statusText} for ${resolved.url}`);
    // compileStreaming needs the application/wasm type; a server (or file: fetch) without it still gives the bytes.
    const compiled =
      resolved.headers.get("content-type")?.startsWith("application/wasm") && typeof WebAssembly.compileStreaming === "function"
        ? await WebAssembly.compileStreaming(resolved)
        : await WebAssembly.compile(await resolved.arrayBuffer());
    return new Host(compiled);
  }
  return new Host(await WebAssembly.compile(resolved));
}

function isResponse(value: unknown): value is Response {
  return typeof Response !== "undefined" && value instanceof Response;
}
