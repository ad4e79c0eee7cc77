// The host's limits on what it reads and how a size is written, with no Node API: the playground judges a pasted text by them.

/** Sizes and depths beyond which the host refuses input with a clear error instead of running out of memory. */
export const limits = {
  /** Bytes of one config, preset or package.json file, and of the JSON data a `.ts`/`.js` file exports. @default 1 MiB */
  fileBytes: 1024 * 1024,
  /** Bytes of the config and every preset file of one resolve, together. @default 4 MiB */
  totalBytes: 4 * 1024 * 1024,
  /** Levels of nesting of the data a `.ts`/`.js` file exports: the core's limit for JSON text. @default 128 */
  depth: 128,
  /**
   * Milliseconds a `.ts`/`.js` config or preset may stay pending (its top-level code, or the promise its function
   * returns) while something else keeps the process alive; one that is pending when nothing is left to wait on fails
   * at once (src/config/evaluate.ts). @default 60000
   */
  configSettleMs: 60_000,
  /** Command-line arguments: clipanion's parser takes time quadratic in their number (4,000 take 10 s). @default 1000 */
  arguments: 1000,
} as const;

/** A size for messages: "3.2 MiB (3,355,443 bytes)". */
export function sizeText(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  const short = mib >= 1 ? `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
  return `${short} (${bytes.toLocaleString("en-US")} bytes)`;
}
