// A 200-byte stand-in for the core that traps on request: tests a host's trap and memory-growth handling without a core bug.

// Built with `wat2wasm trap.wat` from:
//
// (module
//   (memory (export "memory") 1)
//   (data (i32.const 16) "{\"ok\":true}")
//   (global $poisoned (mut i32) (i32.const 0))
//   (func (export "dk_abi_version") (result i32) (i32.const 1))
//   ;; Every allocation grows memory by a page and hands out the new page: a host that keeps an old view fails.
//   (func (export "dk_alloc") (param $len i32) (result i32)
//     (i32.mul (memory.grow (i32.const 1)) (i32.const 65536)))
//   (func (export "dk_free") (param i32))
//   ;; A request starting with "!" traps and poisons the instance: only a fresh instance answers again.
//   (func (export "dk_call") (param $ptr i32) (param $len i32) (result i32)
//     (if (global.get $poisoned) (then unreachable))
//     (if (i32.eq (i32.load8_u (local.get $ptr)) (i32.const 33))
//       (then (global.set $poisoned (i32.const 1)) unreachable))
//     (i32.const 0))
//   (func (export "dk_out_ptr") (result i32) (i32.const 16))
//   (func (export "dk_out_len") (result i32) (i32.const 11)))
const base64 =
  "AGFzbQEAAAABFARgAAF/YAF/AX9gAX8AYAJ/fwF/AwcGAAECAwAABQMBAAEGBgF/AUEACwdUBwZtZW1vcnkCAA5ka19hYmlfdmVy" +
  "c2lvbgAACGRrX2FsbG9jAAEHZGtfZnJlZQACB2RrX2NhbGwAAwpka19vdXRfcHRyAAQKZGtfb3V0X2xlbgAFCjoGBABBAQsLAEEB" +
  "QABBgIAEbAsCAAsaACMABEAACyAALQAAQSFGBEBBASQAAAtBAAsEAEEQCwQAQQsLCxEBAEEQCwt7Im9rIjp0cnVlfQ==";

/** The module's bytes. */
export function trapModule(): Uint8Array {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** The same module with dk_abi_version returning `version`: the body `i32.const 1; end` of the first function, patched. */
export function trapModuleWithVersion(version: number): Uint8Array {
  const bytes = trapModule();
  const body = [0x04, 0x00, 0x41, 0x01, 0x0b];
  const at = bytes.findIndex((_, i) => body.every((b, j) => bytes[i + j] === b));
  if (at < 0 || version < 0 || version > 63) throw new Error("cannot patch the ABI version");
  bytes[at + 3] = version;
  return bytes;
}

/** The expected response of the stand-in. */
export const trapModuleResponse = '{"ok":true}';
