// Path arithmetic without a file system, on WTF-8 bytes: absolute paths, resolving and folding "." and "..",
// directory and base names.
//
// Windows paths fold like POSIX ones: a backslash is a slash, and "C:" starts an absolute path (a drive is the
// first character, whatever it is, then a colon: as a host reading the path as a string sees it). Every path of
// a config goes through here on each resolve, so these walk the bytes once instead of splitting.

import { BACKSLASH, COLON, PERIOD, SLASH } from "../json/chars";
import { Span, byteOf, copyBytes, span, spanLen, spanOf, spanPtr, subSpan } from "../json/span";

const ROOT: Span = spanOf("/");
const DOT: Span = spanOf(".");

/** Whether `p` is absolute: it starts with a slash or a backslash, or a drive such as C:\ or C:/. */
export function isAbsolutePath(p: Span): bool {
  const n = spanLen(p);
  if (n == 0) return false;
  if (isSlash(byteOf(p, 0))) return true;
  const colon = driveColon(p);
  return colon > 0 && colon + 1 < n && isSlash(byteOf(p, colon + 1));
}

/** Resolves `p` against the absolute directory `base`, folding "." and ".." segments. */
export function resolvePath(base: Span, p: Span): Span {
  if (isAbsolutePath(p)) return normalizePath(p);
  const b = spanLen(base);
  const n = spanLen(p);
  const slash = b > 0 && isSlash(byteOf(base, b - 1)) ? 0 : 1;
  const joined = __alloc(<usize>(b + slash + n));
  copyBytes(joined, spanPtr(base), b);
  store<u8>(joined + <usize>b, SLASH);
  copyBytes(joined + <usize>(b + slash), spanPtr(p), n);
  return normalizePath(span(joined, b + slash + n));
}

/** `p` with forward slashes, no empty, "." or ".." segments, and a leading slash unless it starts with a drive. */
export function normalizePath(p: Span): Span {
  const windows = driveColon(p) > 0;
  const from = spanPtr(p);
  const n = spanLen(p);
  // The result is never longer than `p` and a leading slash.
  const out = __alloc(<usize>(n + 1));
  let len = 0;
  let segments = 0;
  for (let start = 0; start <= n; ) {
    let end = start;
    while (end < n && !isSlash(<u32>load<u8>(from + <usize>end))) end++;
    const size = end - start;
    const dot = size > 0 && load<u8>(from + <usize>start) == PERIOD;
    if (size == 2 && dot && load<u8>(from + <usize>start + 1) == PERIOD) {
      // ".." drops the last segment, but never climbs above the root, nor above a drive.
      if (segments > (windows ? 1 : 0)) {
        do len--;
        while (len > 0 && load<u8>(out + <usize>len) != SLASH);
        segments--;
      }
    } else if (size > 0 && !(size == 1 && dot)) {
      if (segments > 0 || !windows) {
        store<u8>(out + <usize>len, SLASH);
        len++;
      }
      copyBytes(out + <usize>len, from + <usize>start, size);
      len += size;
      segments++;
    }
    start = end + 1;
  }
  if (segments == 0) return windows ? 0 : ROOT;
  return span(out, len);
}

/** The directory part of `p`: "." when it has no slash, "/" for a file at the root. */
export function dirnameOf(p: Span): Span {
  const i = lastSlash(p);
  if (i < 0) return DOT;
  if (i == 0) return ROOT;
  return forwardSlashes(subSpan(p, 0, i));
}

/** The last segment of `p`. */
export function basenameOf(p: Span): Span {
  const from = lastSlash(p) + 1;
  return subSpan(p, from, spanLen(p) - from);
}

/**
 * Where the colon of a drive is: after the path's first character when the second is one (as "C:" or "é:");
 * else 0. A character of four bytes is two code units, the second never a colon.
 */
function driveColon(p: Span): i32 {
  const n = spanLen(p);
  if (n < 2) return 0;
  const b = byteOf(p, 0);
  const at = b < 0x80 ? 1 : b >= 0xf0 ? 0 : b >= 0xe0 ? 3 : 2;
  return at > 0 && at < n && byteOf(p, at) == COLON ? at : 0;
}

function lastSlash(p: Span): i32 {
  let i = spanLen(p) - 1;
  while (i >= 0 && !isSlash(byteOf(p, i))) i--;
  return i;
}

function forwardSlashes(p: Span): Span {
  const n = spanLen(p);
  let i = 0;
  while (i < n && byteOf(p, i) != BACKSLASH) i++;
  if (i == n) return p;
  const out = __alloc(<usize>n);
  copyBytes(out, spanPtr(p), n);
  for (; i < n; i++) if (load<u8>(out + <usize>i) == BACKSLASH) store<u8>(out + <usize>i, SLASH);
  return span(out, n);
}

function isSlash(c: u32): bool {
  return c == SLASH || c == BACKSLASH;
}
