// `cache.file` as it was written: a name ending in a path separator names a directory, which the resolved (normalised) path no longer shows.

import type { CoreDiagnostic, ResolveDone, ResolveRequest, SourceInput } from "./core.js";
import type { Env } from "./types.js";

/**
 * The problem with the winning `cache.file` when it ends in `/` or `\` (`"sub/"`): the core resolves paths to a
 * normal form without the separator, and the cache would be written as a file named `sub`, where the user named a
 * folder. Checked on the value as written in its layer (the variable, or the config or preset file's data), so that
 * `config` and `create` give the same verdict. Not done by the core: its module is at its size ceiling, and the
 * check needs only the text the host already holds.
 *
 * @returns A `SchemaValidationError` at the value's source, or `undefined`.
 */
export function cacheFileProblem(done: ResolveDone, request: ResolveRequest, env: Env): CoreDiagnostic | undefined {
  const origin = done.origins?.["cache.file"];
  if (!origin || origin.layer === "default") return undefined;
  let written: unknown;
  if (origin.layer === "env") {
    written = env.DROPKIT_CACHE_FILE?.trim();
  } else {
    const file = origin.source.replace(/:\d+:\d+$/, "");
    const input = origin.layer === "config" ? request.config : request.presetFiles?.find((p) => p.source === file);
    if (input) written = cacheFileOf(input);
  }
  if (typeof written !== "string" || !/[\\/]$/.test(written)) return undefined;
  const at = /^(.*):(\d+):(\d+)$/.exec(origin.source);
  return {
    name: "SchemaValidationError",
    exitCode: 65,
    path: "cache.file",
    source: origin.source,
    message: `cache.file is ${JSON.stringify(written)}, which ends in '${written.slice(-1)}': a path ending in a separator names a directory, and the cache is a file. Name the file (such as ${JSON.stringify(`${written}.dropkit-cache.json`)}), or leave cache.file out for the default .dropkit-cache.json.`,
    ...(at ? { file: at[1]!, line: Number(at[2]), column: Number(at[3]) } : {}),
  };
}

// --- helpers ---

/** The `cache.file` a config or preset file holds, as written; the file is valid (the resolve succeeded). */
function cacheFileOf(input: SourceInput): unknown {
  let data: unknown;
  try {
    data = input.format === "value" ? input.value : JSON.parse(input.text);
  } catch {
    return undefined;
  }
  if (input.format === "package.json") data = (data as { dropkit?: unknown } | null)?.dropkit;
  const cache = (data as { cache?: unknown } | null)?.cache;
  return typeof cache === "object" && cache !== null ? (cache as { file?: unknown }).file : undefined;
}
