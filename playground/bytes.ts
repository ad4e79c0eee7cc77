// Bytes for links and for the inlined core: the browser's deflate-raw streams and base64url, no library.

/** Compresses with the browser's `CompressionStream("deflate-raw")`. */
export async function deflateRaw(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return pipe(bytes, new CompressionStream("deflate-raw"));
}

/** Decompresses with `DecompressionStream("deflate-raw")`; rejects on damaged input. */
export async function inflateRaw(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return pipe(bytes, new DecompressionStream("deflate-raw"));
}

/**
 * Runs bytes through a (de)compression stream. Written and read directly: a Blob or a Response around the
 * bytes would cost a round trip to the browser process, some 20 ms on a page's first run.
 */
async function pipe(bytes: Uint8Array<ArrayBuffer>, transform: CompressionStream | DecompressionStream): Promise<Uint8Array<ArrayBuffer>> {
  const writer = transform.writable.getWriter();
  // Damaged input rejects the reads below as well; this side's rejection is the same news.
  writer
    .write(bytes)
    .then(() => writer.close())
    .catch(() => undefined);
  const reader = transform.readable.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    chunks.push(read.value);
    length += read.value.length;
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** base64url without padding, as a URL fragment wants it. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Reads base64url, and plain base64 too (`+`, `/`, padding), as a link may have been retyped or re-encoded. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/").replace(/\s+/g, ""));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
