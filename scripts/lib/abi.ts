// A plain-WebAssembly reading of the dk_* ABI for tests, scripts and benches, the bytes in and out by hand.
// Independent of src/core/host.ts on purpose, so that tests check the shipped host against it byte for byte.

import { readFileSync } from "node:fs";

export interface AbiHost {
  call(request: string): { status: number; text: string };
  /** Sends raw request bytes, which need not be valid UTF-8. */
  callBytes(request: Uint8Array): { status: number; text: string };
  memoryBytes(): number;
}

export function wasmBytes(): Buffer {
  return readFileSync(new URL("../../dist/dropkit.wasm", import.meta.url));
}

/** A fresh instance's raw exports (the module imports nothing), for hosts that call dk_* by hand. */
export function wasmExports(bytes: Uint8Array = wasmBytes()): Record<string, any> {
  return new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports as Record<string, any>;
}

export function openAbi(bytes: Uint8Array = wasmBytes()): AbiHost {
  const e = wasmExports(bytes);
  const encoder = new TextEncoder();
  // Fatal: the core must always answer with valid UTF-8.
  const decoder = new TextDecoder("utf-8", { fatal: true });
  return {
    call(request: string) {
      return this.callBytes(encoder.encode(request));
    },
    callBytes(input: Uint8Array) {
      const ptr = e.dk_alloc(input.length);
      // Re-read memory.buffer after every call into the module: memory may have grown.
      new Uint8Array(e.memory.buffer, ptr, input.length).set(input);
      const status = e.dk_call(ptr, input.length);
      e.dk_free(ptr);
      const text = decoder.decode(new Uint8Array(e.memory.buffer, e.dk_out_ptr(), e.dk_out_len()));
      return { status, text };
    },
    memoryBytes() {
      return (e.memory as WebAssembly.Memory).buffer.byteLength;
    },
  };
}
