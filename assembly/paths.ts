// Path arithmetic without a file system: absolute paths, resolving and folding "." and "..", directory and base names.
//
// Windows paths fold like POSIX ones: a backslash is a slash, and "C:" starts an absolute path. Every path
// of a config goes through here on each resolve, so these walk the characters once instead of splitting.

/** Whether `p` is absolute: it starts with a slash or a backslash, or a drive such as C:\ or C:/. */
export function isAbsolutePath(p: string): bool {
  if (p.length == 0) return false;
  if (isSlash(p.charCodeAt(0))) return true;
  return p.length >= 3 && p.charCodeAt(1) == 0x3a && isSlash(p.charCodeAt(2));
}

/** Resolves `p` against the absolute directory `base`, folding "." and ".." segments. */
export function resolvePath(base: string, p: string): string {
  if (isAbsolutePath(p)) return normalizePath(p);
  const last = base.length > 0 ? base.charCodeAt(base.length - 1) : 0;
  return normalizePath(isSlash(last) ? base + p : base + "/" + p);
}

/** `p` with forward slashes, no empty, "." or ".." segments, and a leading slash unless it starts with a drive. */
export function normalizePath(p: string): string {
  const windows = p.length >= 2 && p.charCodeAt(1) == 0x3a;
  const n = p.length;
  // The result is never longer than `p` and a leading slash: written into one string, shrunk at the end.
  const out = changetype<usize>(__new(<usize>(n + 1) << 1, idof<string>()));
  let len = 0;
  let segments = 0;
  for (let start = 0; start <= n; ) {
    let end = start;
    while (end < n && !isSlash(p.charCodeAt(end))) end++;
    const size = end - start;
    const dot = size > 0 && p.charCodeAt(start) == 0x2e;
    if (size == 2 && dot && p.charCodeAt(start + 1) == 0x2e) {
      // ".." drops the last segment, but never climbs above the root, nor above a drive.
      if (segments > (windows ? 1 : 0)) {
        do len--;
        while (len > 0 && load<u16>(out + (<usize>len << 1)) != 0x2f);
        segments--;
      }
    } else if (size > 0 && !(size == 1 && dot)) {
      if (segments > 0 || !windows) {
        store<u16>(out + (<usize>len << 1), 0x2f);
        len++;
      }
      memory.copy(out + (<usize>len << 1), changetype<usize>(p) + (<usize>start << 1), <usize>size << 1);
      len += size;
      segments++;
    }
    start = end + 1;
  }
  if (segments == 0) return windows ? "" : "/";
  return changetype<string>(__renew(out, <usize>len << 1));
}

/** The directory part of `p`: "." when it has no slash, "/" for a file at the root. */
export function dirnameOf(p: string): string {
  const i = lastSlash(p);
  if (i < 0) return ".";
  if (i == 0) return "/";
  return forwardSlashes(p.slice(0, i));
}

/** The last segment of `p`. */
export function basenameOf(p: string): string {
  return p.slice(lastSlash(p) + 1);
}

function lastSlash(p: string): i32 {
  let i = p.length - 1;
  while (i >= 0 && !isSlash(p.charCodeAt(i))) i--;
  return i;
}

function forwardSlashes(p: string): string {
  return p.includes("\\") ? p.replaceAll("\\", "/") : p;
}

function isSlash(c: i32): bool {
  return c == 0x2f || c == 0x5c;
}
