// The public shape of a dropkit config (SPEC section 2), for `defineConfig` and `import type`, and the library's own plain types.

// The config's own shape is the core's table, generated (scripts/generate-schema.ts): one place for every key.
import type { DropkitConfig } from "./core/configtypes.js";

export type * from "./core/configtypes.js";

/**
 * Environment variables, as `process.env` holds them: dropkit's own type, so that its declarations need no
 * `@types/node`. dropkit reads the `DROPKIT_*` variables, `GIT_CEILING_DIRECTORIES`, `NO_COLOR` and `FORCE_COLOR`.
 */
export type Env = Record<string, string | undefined>;

/**
 * What `defineConfig` takes: a config, or a function returning one (sync or async, called once per load).
 */
export type ConfigSource = ConfigInput | (() => ConfigInput | Promise<ConfigInput>);

/**
 * A config as `defineConfig` infers it before `CheckedConfig` looks at its keys: every value typed, unknown keys
 * let through (so that inference keeps the config's own type and the error can name the key).
 */
export type ConfigInput = DropkitConfig | OpenObject<DropkitConfig>;

/** `T` with its values typed and any other key allowed, at every depth. */
export type OpenObject<T> = { [K in keyof T]?: OpenValue<NonNullable<T[K]>> } & { readonly [key: string]: unknown } & object;
type OpenValue<V> = V extends readonly unknown[] ? V : V extends object ? OpenObject<V> : V;

/**
 * The check `defineConfig` makes of the config it inferred: the same type, where every key `DropkitConfig` lacks
 * (at any depth, in the object, in what a function returns, in each of its `return`s) becomes
 * `{ "unknown config key 'modules.exlude'": never }`, so that the compile error names the key.
 */
export type CheckedConfig<T> = ConfigSource extends T
  ? unknown // inference gave up (a value of a wrong type): the parameter is `ConfigSource`, whose error names the value
  : T extends (...args: never[]) => infer R
    ? () => CheckedResult<R>
    : ExactConfig<T, DropkitConfig, "">;
type CheckedResult<R> = R extends Promise<infer A> ? Promise<ExactConfig<A, DropkitConfig, "">> : ExactConfig<R, DropkitConfig, "">;
type ExactConfig<T, Shape, Path extends string> = T extends readonly unknown[]
  ? T
  : T extends object
    ? {
        [K in keyof T]: K extends keyof Shape
          ? ExactConfig<T[K], NonNullable<Shape[K]>, `${Path}${K & string}.`>
          : { [_ in `unknown config key '${Path}${K & string}'`]: never };
      }
    : T;

/** What `defineConfig` returns: the config, or the function, typed as dropkit reads them. */
export type DefinedConfig<T> = T extends (...args: never[]) => infer R
  ? R extends Promise<unknown>
    ? () => Promise<DropkitConfig>
    : () => DropkitConfig
  : DropkitConfig;

/**
 * `T` with every key that `Shape` does not have, at any depth, typed `never`.
 * @deprecated `defineConfig` checks with `CheckedConfig`, whose errors name the unknown key; kept for programs that import it.
 */
export type StrictConfig<T, Shape = DropkitConfig> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]: K extends keyof Shape ? StrictConfig<T[K], NonNullable<Shape[K]>> : never }
    : T;
