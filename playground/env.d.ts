// Types for what the playground's build provides: the release core's bytes, inlined as base64.

declare module "virtual:dropkit-wasm" {
  const base64: string;
  export default base64;
}
