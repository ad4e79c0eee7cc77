// The package's public entry: the config type, `defineConfig`, and the library (`loadConfig`, `validateConfig`, `DropkitError`).

import type { CheckedConfig, ConfigSource, DefinedConfig } from "./types.js";
import type { LoadConfigOptions, LoadConfigResult, ValidateConfigOptions, ValidateConfigResult } from "./library.js";

export type {
  CheckedConfig,
  ConfigInput,
  ConfigSource,
  DefinedConfig,
  Env,
  OpenObject,
  StrictConfig,
} from "./types.js";
// DropkitConfig, its groups (DropkitModules, ...) and ModuleGlob: generated from the core's table.
export type * from "./core/configtypes.js";
export type { LoadConfigOptions, LoadConfigResult, ValidateConfigOptions, ValidateConfigResult } from "./library.js";
export type { ConfigFlags } from "./config/resolve.js";
export type { CoreWarning, Origin, PresetChoice, ResolvedConfig } from "./core/protocol.js";
export type { ConfigFormat, Discovery, StopReason } from "./config/discovery.js";
export type { Diagnostic, ErrorCode, ErrorName } from "./errors.js";
export { DropkitError, isDropkitError } from "./errors.js";

// One signature, not overloads: with an object overload tried first, an arrow's return type is fixed without the
// generic context and its literals ("json", "fail") widen. The constraint gives every literal its context, so it stays
// one; `CheckedConfig<T>` then rejects every unknown key by name. No `const T`: it is not needed (measured with
// TypeScript 4.9 to 7.0), and TypeScript before 5.0 cannot parse it.
/**
 * Types a config in `dropkit.config.ts`/`.js`; returns it unchanged. An unknown key at any depth is a compile
 * error naming the key (`unknown config key 'modules.exlude'`), in the object form and in what a function returns;
 * enum values need no `as const`, and lists may be readonly.
 *
 * @example
 * export default defineConfig({ theme: "ocean", modules: { exclude: ["test-*"] } });
 * export default defineConfig(async () => ({ theme: process.env.CI ? "none" : "auto" }));
 */
export function defineConfig<T extends ConfigSource>(config: T & CheckedConfig<T>): DefinedConfig<T>;
export function defineConfig(config: unknown): unknown {
  return config;
}

/**
 * Resolves the config exactly as `dropkit config` does: discovery from `cwd` (default: the process's), loading
 * the file, presets and the five layers. Imported lazily, so that a config file importing `defineConfig` loads
 * neither the loader nor the wasm core. See docs/library.md.
 *
 * @throws DropkitError for every failure, with all problems in `diagnostics` (use `isDropkitError`); in a program's
 *   bundle, an `IOError` (74) names a piece of dropkit it cannot find (docs/library.md, "Bundling for Node").
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadConfigResult> {
  const library = await import("./library.js");
  return library.loadConfig(options);
}

/**
 * Validates one config text (or a whole package.json) with the wasm core the CLI uses, which this hides:
 * every problem at once, with 1-based line and column.
 *
 * @throws DropkitError `ConfigSyntaxError` or `SchemaValidationError` (65), with every problem in `diagnostics`.
 */
export async function validateConfig(text: string, options: ValidateConfigOptions = {}): Promise<ValidateConfigResult> {
  const library = await import("./library.js");
  return library.validateConfig(text, options);
}
