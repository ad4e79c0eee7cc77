// The core bench's inputs, read by the oracle and the limits test too: so in scripts/lib/ (what tests, scripts and benches share), not bench/.
// Generated deterministically: a realistic resolve, a 256 KB package.json and a 1.25 MB config.

/** The working directory of the realistic resolve. */
export const cwd = "/srv/drops/spring";

/** A config as a project would write it: every group of the schema, a few globs, a preset. */
export const realisticConfig = {
  $schema: "../node_modules/dropkit/schema.json",
  schema: 1,
  theme: "ocean",
  exclude: ["legacy-*"],
  modules: { include: ["test-keep", "shop-core"], exclude: ["old-*", "wip-*", "draft-*"], only: [] },
  presets: ["standard"],
  hooks: { initScriptsDir: "./scripts/init", onFailure: "continue" },
  cache: { enabled: true },
  log: { format: "text" },
};

export const realisticEnv: Record<string, string> = {
  DROPKIT_CACHE_FILE: ".cache/dropkit.json",
  DROPKIT_MODULES_EXCLUDE: "tmp-*, scratch-*",
  PATH: "/usr/bin",
};
export const realisticFlags = { theme: "forest", exclude: ["shop-beta"] };
export const realisticArchives = [
  "blog.zip",
  "forest-theme.zip",
  "ocean-theme.zip",
  "shop-core.zip",
  "shop-beta.zip",
  "test-keep.zip",
  "test-x.zip",
  "old-a.zip",
  "wip-b.zip",
  "gallery.zip",
];

/**
 * A `package.json` of about 256 KB: 1,500 dependencies and 1,500 scripts (3,000 entries), formatted as npm
 * writes it, with a `dropkit` key. Most of the file is what dropkit does not read: the core must still
 * check that all of it is JSON without duplicate keys.
 */
export function packageJsonText(): string {
  const dependencies: Record<string, string> = {};
  const scripts: Record<string, string> = {};
  for (let i = 0; i < 1500; i++) {
    dependencies[`@workspace-${i % 37}/package-number-${i}`] = `^${1 + (i % 9)}.${i % 23}.${i % 11}`;
    scripts[`build:target-${i}`] = `node ./scripts/build.mjs --target=module-${i} --out dist/${i} --mode=release && echo "built ${i}"`;
  }
  return (
    JSON.stringify(
      {
        name: "drop-of-the-spring",
        version: "4.2.0",
        private: true,
        type: "module",
        scripts,
        dependencies,
        dropkit: { theme: "ocean", presets: ["standard"], modules: { exclude: ["legacy-*", "wip-*"] }, hooks: { onFailure: "fail" } },
      },
      null,
      2,
    ) + "\n"
  );
}

/** A config of 1.25 MB: 60,000 module globs in `modules.include`, `modules.exclude` and `modules.only`. */
export function hugeConfigText(): string {
  const names = (from: number, count: number): string[] =>
    Array.from({ length: count }, (_, k) => {
      const i = from + k;
      return i % 4 === 0 ? `shop-mod-${i}-*` : `module-n-${i}`;
    });
  return (
    JSON.stringify(
      {
        schema: 1,
        theme: "ocean",
        modules: { include: names(0, 30_000), exclude: names(30_000, 20_000), only: names(50_000, 10_000) },
        hooks: { onFailure: "fail" },
      },
      null,
      1,
    ) + "\n"
  );
}

/**
 * A drop of 10,000 modules whose config names half of them in `modules.only` (with one '*' glob) and every
 * seventh in `modules.exclude`: selection over many archives against many names, which must cost their sum.
 */
export function selectionRequest(cwd: string) {
  const names = Array.from({ length: 10_000 }, (_, i) => `mod-${String(i).padStart(5, "0")}`);
  const config = {
    theme: "ocean",
    modules: { only: [...names.filter((_, i) => i % 2 === 0), "extra-*"], exclude: names.filter((_, i) => i % 7 === 0) },
  };
  return {
    op: "resolve",
    cwd,
    flags: {},
    env: { DROPKIT_PRESETS: "" },
    config: { source: cwd + "/dropkit.config.json", format: "json", text: JSON.stringify(config) },
    archives: [...names.map((n) => n + ".zip"), "ocean-theme.zip"],
  };
}

/** Every request the bench sends, built once. */
export function benchInputs() {
  const configText = JSON.stringify(realisticConfig, null, 2);
  const packageText = packageJsonText();
  const hugeText = hugeConfigText();
  return {
    realisticText: configText,
    resolveRequest: {
      op: "resolve",
      cwd,
      flags: realisticFlags,
      env: realisticEnv,
      config: { source: cwd + "/dropkit.config.json", format: "json", text: configText },
      archives: realisticArchives,
    },
    packageText,
    packageRequest: { op: "validate", text: packageText, format: "package.json", source: cwd + "/package.json" },
    configText: hugeText,
    configRequest: { op: "validate", text: hugeText, source: cwd + "/dropkit.config.json" },
    selectionRequest: selectionRequest(cwd),
  };
}
