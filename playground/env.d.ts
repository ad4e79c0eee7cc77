// Types for what the playground's build provides: the release core's bytes, deflate-raw compressed, as base64, and the loader of the later part.

declare module "virtual:dropkit-wasm" {
  const deflatedBase64: string;
  export default deflatedBase64;
}

declare module "virtual:dropkit-later" {
  /** The part of the page loaded after its first result (playground/later.ts): a file of its own in the built page. */
  export function loadLater(): Promise<typeof import("./later.ts")>;
}
