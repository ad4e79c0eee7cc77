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
  include?: ModuleGlob[];
  /**
   * Modules left out.
   * @default []
   */
  exclude?: ModuleGlob[];
  /**
   * When non-empty, only the modules matching one of these are considered.
   * @default []
   */
  only?: ModuleGlob[];
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
  exclude?: ModuleGlob[];
  /**
   * Presets to apply, in order (a later one wins): a bundled name (`standard`, `none`), the name of a
   * preset file in `presetsSearchPath`, or a path. Omitted: auto-detect. `[]`: no presets.
   * @default undefined (auto-detect)
   */
  presets?: string[];
  /**
   * Directories holding local preset files (`<name>.ts|.js|.json`).
   * @default []
   */
  presetsSearchPath?: string[];
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
 * `T` with every key that `Shape` does not have, at any depth, typed `never`. A function config's returned
 * object loses TypeScript's excess-property check (its type is inferred), so `defineConfig` checks it with this.
 */
export type StrictConfig<T, Shape = DropkitConfig> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]: K extends keyof Shape ? StrictConfig<T[K], NonNullable<Shape[K]>> : never }
    : T;
