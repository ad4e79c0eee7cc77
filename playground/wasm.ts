// The page's core: the release module inlined in the page, opened by the one host of the core (src/core/host.ts).

import { type Core, openCoreAsync } from "../src/core/host.ts";
import { fromBase64, inflateRaw } from "./bytes.ts";

/** What the page asks the core; `resolve.ts` is the only reader of `resolveLayers`' answer. */
export type PageCore = Pick<Core, "resolveLayers" | "listPresets" | "parseJson">;

/** Opens the inlined module (deflate-raw, base64: see vite.config.ts), compiled off the main thread while the page makes its editor. */
export async function openPageCore(deflatedBase64: string): Promise<PageCore> {
  return openCoreAsync(await inflateRaw(fromBase64(deflatedBase64)));
}
