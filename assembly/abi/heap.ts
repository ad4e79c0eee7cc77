// Memory across calls: the host's dk_alloc buffers, the last response, and the heap each call starts afresh.

// The runtime is AssemblyScript's stub: a bump allocator that never frees. Each call starts its bump at
// a floor just above every live host buffer, and the next call starts there again, so a call's garbage
// costs nothing to free and memory stays bounded however many calls a host makes. What must outlive a
// call lives below `base` (everything made at start) or is placed by hand: host
// buffers are byte ranges at or above `base`, placed first-fit around each other and around the last
// response, which is valid until the next call.
//
// The block layout is the stub runtime's own (rt/common): a header, BLOCK, of BLOCK_OVERHEAD bytes that holds
// its payload's size, before each payload, which starts at a multiple of AL_SIZE.

import { AL_MASK, AL_SIZE, BLOCK, BLOCK_OVERHEAD } from "rt/common";

// Room for the header the next allocation writes at the bump pointer.
const BLOCK_SLACK: usize = AL_SIZE;
/** At most this many dk_alloc buffers live at once: one more is refused (docs/embedding.md). */
const MAX_BUFFERS = 1024;
// Buffers end below 4 GiB - 64 KiB: address arithmetic on them (end, align, overlap) never wraps a u32.
const MAX_END: u64 = 0xffff_0000;
const bufferPtrs = new StaticArray<usize>(MAX_BUFFERS);
const bufferLens = new StaticArray<usize>(MAX_BUFFERS);
let buffers = 0;
// Where the bump allocator stands at the first call into the module, once start (with every allocation
// it makes, in whatever order the modules run) is done; and where it stood at the end of the last call.
let base: usize = 0;
let top: usize = 0;
let outPtr: usize = 0;
let outLen = 0;

/**
 * A buffer of `len` bytes the host may write, kept until `freeBuffer`; 0 when there is none to give: `len`
 * is negative (a length of 2 GiB or more, as i32), the buffer would not fit below 4 GiB, memory cannot
 * grow, or 1,024 buffers are live. Nothing changes then, and the instance stays usable.
 */
export function allocBuffer(len: i32): usize {
  claimBase();
  if (len < 0) return 0;
  const n = <usize>len;
  // First fit from `base`: past any live buffer, and past the last response and the heap it was built in.
  let at = align(base);
  for (let moved = true; moved; ) {
    moved = false;
    if (overlaps(at, n, outPtr, top + BLOCK_SLACK - outPtr)) {
      at = align(top + BLOCK_SLACK);
      moved = true;
    }
    for (let i = 0; i < buffers; i++) {
      const p = unchecked(bufferPtrs[i]);
      const l = unchecked(bufferLens[i]);
      if (overlaps(at, n, p, l)) {
        at = align(p + l);
        moved = true;
      }
    }
  }
  if (buffers == MAX_BUFFERS) return 0;
  // In u64: at + n past 4 GiB would wrap a u32 and hand out a buffer beyond the end of memory.
  const end = <u64>at + <u64>n;
  const have = (<u64>memory.size()) << 16;
  if (end > MAX_END || (end > have && memory.grow(<i32>((end - have + 0xffff) >> 16)) < 0)) return 0;
  unchecked((bufferPtrs[buffers] = at));
  unchecked((bufferLens[buffers] = n));
  buffers++;
  return at;
}

/** Releases a buffer from `allocBuffer`. Unknown pointers are ignored. */
export function freeBuffer(ptr: usize): void {
  for (let i = buffers - 1; i >= 0; i--) {
    if (unchecked(bufferPtrs[i]) == ptr) {
      buffers--;
      unchecked((bufferPtrs[i] = bufferPtrs[buffers]));
      unchecked((bufferLens[i] = bufferLens[buffers]));
      return;
    }
  }
}

/** Starts a call's heap above every live buffer (and the request, wherever the host put it). */
export function startCall(ptr: usize, len: i32): void {
  claimBase();
  let floor = max(base, ptr + <usize>max(len, 0));
  for (let i = 0; i < buffers; i++) floor = max(floor, unchecked(bufferPtrs[i]) + unchecked(bufferLens[i]));
  moveHeapTo(blockAt(floor));
  makeRoom(floor, max(len, 0));
}

/**
 * Grows memory once, by what is missing, so that the call's heap has room for three times its request and
 * 1 MiB: a text decoded from the request, its tape and an answer that echoes it fit in that. Without it the
 * stub allocator grows memory by doubling it whenever it runs out, which leaves an instance with up to
 * twice what its largest call needed. A call that needs more still gets it, from the stub, by doubling.
 */
function makeRoom(floor: usize, len: i32): void {
  const want = min<u64>(<u64>floor + 3 * <u64>len + (1 << 20), <u64>0xffff0000);
  const have = (<u64>memory.size()) << 16;
  // A grow that fails is left to the stub to retry when the memory is really needed (and to trap then).
  if (want > have) memory.grow(<i32>((want - have + 0xffff) >> 16));
}

/** Ends a call: its response (`len` bytes at `ptr`, in the call's heap) stays where it is until the next call starts. */
export function endCall(ptr: usize, len: i32): void {
  outPtr = ptr;
  outLen = len;
  top = heapTop();
}

/** The last response's bytes. */
export function outputPtr(): usize {
  return outPtr;
}

export function outputLen(): i32 {
  return outLen;
}

function claimBase(): void {
  if (base == 0) base = top = heapTop();
}

/** Where the bump allocator stands (an empty allocation at the top, discarded again). */
function heapTop(): usize {
  const p = __alloc(0);
  __free(p);
  return p - BLOCK_OVERHEAD;
}

/**
 * Moves the bump allocator from `top` to `to` (both block starts). Down: a block from `to` to the top,
 * discarded, since the stub frees the last block only. Up: allocations that span the gap; the first header
 * goes at `top`, where no host buffer is (`allocBuffer` keeps clear of it).
 */
function moveHeapTo(to: usize): void {
  if (to < top) {
    changetype<BLOCK>(to).mmInfo = top - to - BLOCK_OVERHEAD;
    __free(to + BLOCK_OVERHEAD);
  } else {
    // The stub allocates at most 1 GiB at once, so a larger gap (past a big host buffer) takes several steps.
    // Each step's header may land in a host buffer: its bytes are put back, as no one reads that header.
    for (let at = top; at < to; ) {
      const step = min<usize>(to - at, 1 << 29);
      const inside = at + BLOCK_OVERHEAD <= (<usize>memory.size()) << 16;
      const kept = inside ? changetype<BLOCK>(at).mmInfo : 0;
      __alloc(step - BLOCK_OVERHEAD);
      if (inside) changetype<BLOCK>(at).mmInfo = kept;
      at += step;
    }
  }
}

/** The lowest block start whose payload is at or above `at`. */
function blockAt(at: usize): usize {
  return align(at + BLOCK_OVERHEAD) - BLOCK_OVERHEAD;
}

function align(at: usize): usize {
  return (at + AL_MASK) & ~AL_MASK;
}

function overlaps(at: usize, n: usize, p: usize, l: usize): bool {
  return at < p + l && p < at + max<usize>(n, 1);
}
