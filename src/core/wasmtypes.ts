// The WebAssembly and fetch types that dropkit's declarations name, looked up on `globalThis`.
// The DOM library's types where the program has them, plain stand-ins where it has not (`lib: ["es2022"]`), so that the
// declarations compile either way.

type Globals = typeof globalThis;

/** `WebAssembly.Module`; `object` without a library that declares it. */
export type WasmModule = Globals extends { WebAssembly: { Module: { prototype: infer M } } } ? M : object;

/** `WebAssembly.Memory`; its `buffer` alone without a library that declares it. */
export type WasmMemory = Globals extends { WebAssembly: { Memory: { prototype: infer M } } } ? M : { readonly buffer: ArrayBuffer };

/** The bytes `new WebAssembly.Module` takes (`BufferSource`); a view or an `ArrayBuffer` without the DOM library. */
export type WasmBytes = Globals extends { WebAssembly: { Module: new (bytes: infer B) => unknown } } ? B : ArrayBufferView | ArrayBuffer;

/** A fetch `Response`; `never` (no such value) without a library that declares it. */
export type FetchResponse = Globals extends { Response: { prototype: infer R } } ? R : never;
