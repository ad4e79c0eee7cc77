// The module's exports: the byte-level ABI of SPEC section 11, which every host uses (the JS binding too).

import { allocBuffer, endCall, freeBuffer, outputLen, outputPtr, startCall } from "./abi/heap";
import { responseLen, responsePtr, handle, lastStatus } from "./abi/ops";

/** The ABI version: 1 for this contract. */
export function dk_abi_version(): i32 {
  return 1;
}

/** A buffer of `len` bytes the host may write; 0 when it cannot be had (negative or too large a `len`, no memory). */
export function dk_alloc(len: i32): usize {
  return allocBuffer(len);
}

/** Releases a buffer from dk_alloc. Unknown pointers are ignored. */
export function dk_free(ptr: usize): void {
  freeBuffer(ptr);
}

/** Runs one UTF-8 JSON request; 0 = done, non-zero = the request itself was unreadable. */
export function dk_call(ptr: usize, len: i32): i32 {
  startCall(ptr, len);
  handle(ptr, len);
  endCall(responsePtr, responseLen);
  return lastStatus;
}

/** The UTF-8 JSON response of the last dk_call, valid until the next one. */
export function dk_out_ptr(): usize {
  return outputPtr();
}

export function dk_out_len(): i32 {
  return outputLen();
}
