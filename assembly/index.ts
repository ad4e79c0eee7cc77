// The module's exports: the byte-level ABI of SPEC section 11, which every host uses (the JS binding too).

// Every string literal in assembly/ decodes from one blob (literal.ts and its asc transform).
import "./literal";
import { handle, lastStatus } from "./request";

// Buffers handed out by dk_alloc stay reachable from here until dk_free, so the collector keeps them.
const buffers = new Array<ArrayBuffer>();
let output: ArrayBuffer = new ArrayBuffer(0);

/** The ABI version: 1 for this contract. */
export function dk_abi_version(): i32 {
  return 1;
}

/** A buffer of `len` bytes the host may write. */
export function dk_alloc(len: i32): usize {
  const buf = new ArrayBuffer(len < 0 ? 0 : len);
  buffers.push(buf);
  return changetype<usize>(buf);
}

/** Releases a buffer from dk_alloc. Unknown pointers are ignored. */
export function dk_free(ptr: usize): void {
  for (let i = buffers.length - 1; i >= 0; i--) {
    if (changetype<usize>(unchecked(buffers[i])) == ptr) {
      unchecked(buffers[i] = buffers[buffers.length - 1]);
      buffers.pop();
      return;
    }
  }
}

/** Runs one UTF-8 JSON request; 0 = done, non-zero = the request itself was unreadable. */
export function dk_call(ptr: usize, len: i32): i32 {
  output = handle(ptr, len);
  // The minimal runtime collects only when asked: here nothing but globals is live, so every call
  // ends with all of its garbage freed and memory stays bounded however many calls a host makes.
  __collect();
  return lastStatus;
}

/** The UTF-8 JSON response of the last dk_call, valid until the next one. */
export function dk_out_ptr(): usize {
  return changetype<usize>(output);
}

export function dk_out_len(): i32 {
  return output.byteLength;
}

