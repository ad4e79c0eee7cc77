// The package's public entry: the config type, `defineConfig`, and `loadConfig` for programmatic use.

import type { DropkitConfig } from "./types.js";
import type { LoadConfigOptions, LoadConfigResult } from "./config.js";

export type { DropkitConfig, DropkitCache, DropkitHooks, DropkitLog, DropkitModules, ModuleGlob } from "./types.js";
export type { LoadConfigOptions, LoadConfigResult } from "./config.js";

/**
 * Types a config in `dropkit.config.ts`/`.js`; returns it unchanged.
 *
 * @example
 * export default defineConfig({ theme: "ocean", modules: { exclude: ["test-*"] } });
 */
export function defineConfig<T extends DropkitConfig | (() => DropkitConfig | Promise<DropkitConfig>)>(config: T): T {
  return config;
}

/**
 * Resolves the config exactly as `dropkit config` does: discovery, loading, presets, the five layers.
 * Imported lazily so that a config file importing `defineConfig` does not load the wasm core.
 *
 * @see {@link LoadConfigResult} for the answer; `ok: false` carries every problem in `errors`.
 */
export async function loadConfig(options: LoadConfigOptions): Promise<LoadConfigResult> {
  const config = await import("./config.js");
  return config.loadConfig(options);
}
