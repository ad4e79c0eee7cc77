// Types for what the playground's build provides: the release core's bytes, deflate-raw compressed, as base64.

declare module "virtual:dropkit-wasm" {
  const deflatedBase64: string;
  export default deflatedBase64;
}
