// The page's core: the release module through dropkit/abi's plain-WebAssembly host (src/core/abi.ts), which needs no loader, with the three requests the page sends.

import { type AbiCore, CoreTrap, openCore } from "../src/core/abi.ts";
import type { BundledPreset, CoreDiagnostic, ResolveRequest, ResolveResponse } from "../src/core/host.ts";
import { fromBase64, inflateRaw } from "./bytes.ts";

/** What the page asks the core; `resolve.ts` is the only reader of `resolveLayers`' answer. */
export interface PageCore {
  resolveLayers(request: ResolveRequest): ResolveResponse;
  listPresets(): BundledPreset[];
  parseJson(text: string): { ok: boolean; value?: unknown; errors: CoreDiagnostic[] };
}

/** Opens the inlined module (deflate-raw, base64: see vite.config.ts). */
export async function openPageCore(deflatedBase64: string): Promise<PageCore> {
  const bytes = await inflateRaw(fromBase64(deflatedBase64));
  // Compiled asynchronously, off the main thread: the page makes its editor meanwhile.
  const abi = openCore(await WebAssembly.compile(bytes));
  return {
    resolveLayers: (request) => expect(abi, { op: "resolve", ...request }),
    listPresets: () => expect<{ presets: BundledPreset[] }>(abi, { op: "presets" }).presets,
    parseJson: (text) => expect(abi, { op: "parse", text }),
  };
}

function expect<T>(abi: AbiCore, request: object): T {
  const response = abi.call<T & { errors?: CoreDiagnostic[] }>(request);
  // A request the core cannot read is the page's bug, never the user's.
  if (abi.lastStatus !== 0)
    throw new CoreTrap(`the core rejected a request: ${response.errors?.[0]?.message ?? "status " + abi.lastStatus}`);
  return response;
}
