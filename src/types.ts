// The public shape of a dropkit config (SPEC section 2), for `defineConfig` and `import type`, and the library's own plain types.

/**
 * A module glob: a module name (`blog`), or a name prefix followed by one trailing `*` (`shop-*`, `*`).
 * A `*` anywhere else is a schema error.
 */
export type ModuleGlob = string;

/** Which modules of the drop are used. Each list is the union of every layer's entries. */
export interface DropkitModules {
  /**
   * Modules added back after `exclude` (a `--exclude` flag still wins over them).
   * @default []
   */
  include?: readonly ModuleGlob[];
  /**
   * Modules left out.
   * @default []
   */
  exclude?: readonly ModuleGlob[];
  /**
   * When non-empty, only the modules matching one of these are considered.
   * @default []
   */
  only?: readonly ModuleGlob[];
}

/** The init and post hook scripts: each executable file of a directory, in name order. */
export interface DropkitHooks {
  /**
   * Scripts run before the drop is created. A missing directory means no hooks.
   * @default "./init-scripts"
   */
  initScriptsDir?: string;
  /**
   * Scripts run after the drop is created. A missing directory means no hooks.
   * @default "./post-scripts"
   */
  postScriptsDir?: string;
  /**
   * What a failing hook does: `continue` logs a warning, `fail` stops the run with exit code 1.
   * @default "continue"
   */
  onFailure?: "continue" | "fail";
}

/** The archive fingerprint cache. */
export interface DropkitCache {
  /**
   * Where the cache is kept.
   * @default ".dropkit-cache.json"
   */
  file?: string;
  /**
   * Whether archive fingerprints are cached between runs.
   * @default true
   */
  enabled?: boolean;
}

/** The decisions log on stderr. */
export interface DropkitLog {
  /**
   * `text` for people, `json` for one JSON object per line.
   * @default "text"
   */
  format?: "text" | "json";
}

/**
 * A dropkit config: the content of `dropkit.config.ts|js|json` or of the `dropkit` key in `package.json`.
 * Every field is optional; unknown keys are errors. Relative paths resolve against the config file's directory.
 */
export interface DropkitConfig {
  /**
   * The JSON Schema of the config, for editors; ignored by dropkit.
   */
  $schema?: string;
  /**
   * The version of the config format.
   * @default 1
   */
  schema?: 1;
  /**
   * `auto` (the only theme archive, or the first by name), `none`, a theme name (`ocean` picks
   * `ocean.zip` or `ocean-theme.zip`), or a path ending in `.zip`.
   * @default "auto"
   */
  theme?: string;
  /** Module selection. */
  modules?: DropkitModules;
  /**
   * Shorthand merged into `modules.exclude` when the config is loaded.
   * @default []
   */
  exclude?: readonly ModuleGlob[];
  /**
   * Presets to apply, in order (a later one wins): a bundled name (`standard`, `none`), the name of a
   * preset file in `presetsSearchPath`, or a path. Omitted: auto-detect. `[]`: no presets.
   * @default undefined (auto-detect)
   */
  presets?: readonly string[];
  /**
   * Directories holding local preset files (`<name>.ts|.js|.json`).
   * @default []
   */
  presetsSearchPath?: readonly string[];
  /** Hook scripts. */
  hooks?: DropkitHooks;
  /** Archive fingerprint cache. */
  cache?: DropkitCache;
  /** Decisions log. */
  log?: DropkitLog;
}

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
