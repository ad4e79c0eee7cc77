// Consumer configs for the type matrix of test/system/package.test.ts: every form people write `defineConfig` in, valid and with an unknown key.

/** The lines before each case: the import, a condition and an async helper (no @types/node: no `process`), a typed base. */
export const header =
  'import { defineConfig, type DropkitConfig } from "dropkit";\n\ndeclare const ci: boolean;\ndeclare function ' +
  'teamPresets(): Promise<string[]>;\nconst base: DropkitConfig = { theme: "ocean", hooks: { onFailure: ' +
  '"continue" }, cache: { enabled: true } };\n';
/** Configs that must compile, by case name. */
export const valid: Record<string, string> = {
  object:
    'export default defineConfig({ theme: "ocean", modules: { exclude: ["test-*"] }, hooks: { onFailure: "fail" }, log: { format: "json" } });',
  "object-every-key":
    'export default defineConfig({ $schema: "./node_modules/dropkit/schema.json", schema: 1, theme: "auto", ' +
    'modules: { include: ["a"], exclude: ["b-*"], only: ["*"] }, exclude: ["old-*"], presets: ["standard"], ' +
    'presetsSearchPath: ["./presets"], hooks: { initScriptsDir: "./init", postScriptsDir: "./post", onFailure: ' +
    '"continue" }, cache: { file: ".c.json", enabled: false }, log: { format: "text" } });',
  "object-empty": "export default defineConfig({});",
  sync: 'export default defineConfig(() => ({ log: { format: "json" } }));',
  async: 'export default defineConfig(async () => ({ hooks: { onFailure: "fail" } }));',
  "readme-conditional":
    'export default defineConfig(() => ({ theme: ci ? "none" : "auto", modules: { exclude: ["test-*"] }, hooks: { ' +
    'onFailure: "fail" }, log: { format: "json" } }));',
  "conditional-enum":
    'export default defineConfig(() => ({ log: { format: ci ? "json" : "text" }, hooks: { onFailure: ci ? "fail" : "continue" } }));',
  "conditional-object": 'export default defineConfig(() => (ci ? { theme: "none" } : { log: { format: "json" } }));',
  "conditional-async":
    'export default defineConfig(async () => (ci ? { theme: "none", presets: await teamPresets() } : { hooks: { onFailure: "fail" } }));',
  "object-conditional":
    'export default defineConfig({ theme: ci ? "none" : "auto", log: { format: ci ? "json" : "text" }, hooks: ci ? { onFailure: "fail" } : {} });',
  "multi-return":
    'export default defineConfig(() => {\n  if (ci) return { theme: "none", hooks: { onFailure: "fail" } };\n  return { log: { format: "json" } };\n});',
  "multi-return-async":
    "export default defineConfig(async () => {\n  const presets = await teamPresets();\n  if (presets.length === " +
    '0) return { presets, log: { format: "json" } };\n  if (ci) return { theme: "none" };\n  return { hooks: { ' +
    'onFailure: "continue" }, log: { format: "text" } };\n});',
  "as-const-object": 'export default defineConfig({ theme: "ocean", modules: { exclude: ["a", "b"] }, log: { format: "json" } } as const);',
  "as-const-sync": 'export default defineConfig(() => ({ presets: ["standard"], hooks: { onFailure: "fail" } }) as const);',
  "as-const-async": 'export default defineConfig(async () => ({ modules: { only: ["blog", "shop-*"] } }) as const);',
  "readonly-tuple": 'const ex = ["a", "b"] as const;\nexport default defineConfig({ modules: { exclude: ex } });',
  "readonly-array":
    'const list: readonly string[] = ["a"];\nexport default defineConfig({ exclude: list, presets: list, ' +
    "presetsSearchPath: list, modules: { include: list, exclude: list, only: list } });",
  "readonly-in-function":
    'const ex = ["a", "b"] as const;\nexport default defineConfig(() => ({ modules: { exclude: ex }, presets: ex }));',
  spread: 'export default defineConfig({ ...base, log: { format: "json" } });',
  "spread-nested-sync": 'export default defineConfig(() => ({ ...base, hooks: { ...base.hooks, onFailure: "fail" } }));',
  "spread-async": "export default defineConfig(async () => ({ ...base, presets: await teamPresets() }));",
  "satisfies-object": 'export default defineConfig({ theme: "ocean", log: { format: "json" } } satisfies DropkitConfig);',
  "satisfies-sync": 'export default defineConfig(() => ({ hooks: { onFailure: "fail" } }) satisfies DropkitConfig);',
  "satisfies-async": 'export default defineConfig(async () => ({ log: { format: "json" } }) satisfies DropkitConfig);',
  "typed-variable": "export default defineConfig(base);",
  "typed-function": "export default defineConfig((): DropkitConfig => base);",
  "typed-async-function": 'export default defineConfig(async (): Promise<DropkitConfig> => ({ theme: "ocean" }));',
  "function-declaration":
    'function config(): DropkitConfig {\n  return { theme: "ocean", log: { format: "json" } };\n}\nexport default defineConfig(config);',
  "sync-returns-variable": "export default defineConfig(() => base);",
  "empty-arrays": "export default defineConfig(() => ({ presets: [], modules: { exclude: [] } }));",
  "schema-literal": 'export default defineConfig(() => ({ schema: 1, cache: { enabled: false, file: ".c.json" } }));',
  "undefined-values": 'export default defineConfig(() => ({ theme: ci ? "none" : undefined, hooks: { onFailure: undefined } }));',
};
/** Configs that must fail, by case name: the source, and the dotted path of the unknown key the error must name. */
export const invalid: Record<string, [string, string]> = {
  "object-top": ['export default defineConfig({ theme: "ocean", themes: "forest" });', "themes"],
  "object-modules": ['export default defineConfig({ modules: { exclude: ["a"], exlude: ["b"] } });', "modules.exlude"],
  "object-hooks": ['export default defineConfig({ hooks: { onFailure: "fail", timeout: 3 } });', "hooks.timeout"],
  "object-cache": ["export default defineConfig({ cache: { enable: false } });", "cache.enable"],
  "object-log": ['export default defineConfig({ log: { format: "json", level: "debug" } });', "log.level"],
  "object-schema-key": ['export default defineConfig({ $schemas: "./schema.json" });', "$schemas"],
  "sync-top": ['export default defineConfig(() => ({ presetz: ["standard"] }));', "presetz"],
  "sync-nested": ['export default defineConfig(() => ({ modules: { include: ["a"], inclde: ["b"] } }));', "modules.inclde"],
  "async-top": ['export default defineConfig(async () => ({ theme: "ocean", themes: "forest" }));', "themes"],
  "async-nested": ['export default defineConfig(async () => ({ hooks: { onFail: "fail" } }));', "hooks.onFail"],
  "async-block": [
    'export default defineConfig(async () => {\n  const theme = await Promise.resolve("auto");\n  return { theme, ' +
      'hooks: { onFailure: "fail", timeout: 3 } };\n});',
    "hooks.timeout",
  ],
  "multi-return": [
    'export default defineConfig(() => {\n  if (ci) return { theme: "none" };\n  return { lg: { format: "json" } };\n});',
    "lg",
  ],
  "multi-return-async": [
    'export default defineConfig(async () => {\n  if (ci) return { theme: "none" };\n  return { cache: { enabled: true, path: ".c.json" } };\n});',
    "cache.path",
  ],
  "conditional-branch": ['export default defineConfig(() => (ci ? { theme: "a" } : { thme: "b" }));', "thme"],
  "conditional-nested": [
    'export default defineConfig({ hooks: ci ? { onFailure: "fail" } : { onFailur: "continue" } });',
    "hooks.onFailur",
  ],
  "readme-conditional": [
    'export default defineConfig(() => ({ theme: ci ? "none" : "auto", hooks: { onFailure: "fail" }, log: { formt: "json" } }));',
    "log.formt",
  ],
  "as-const-object": ['export default defineConfig({ preset: ["standard"] } as const);', "preset"],
  "as-const-sync": ['export default defineConfig(() => ({ modules: { exclude: ["a"], exlcude: ["b"] } }) as const);', "modules.exlcude"],
  "readonly-tuple": [
    'const ex = ["a", "b"] as const;\nexport default defineConfig({ modules: { exclude: ex, onyl: ex } });',
    "modules.onyl",
  ],
  spread: ['export default defineConfig({ ...base, colour: "red" });', "colour"],
  "spread-nested-sync": ['export default defineConfig(() => ({ ...base, cache: { ...base.cache, path: "x" } }));', "cache.path"],
  "spread-untyped": ['const extra = { verbose: true };\nexport default defineConfig({ theme: "x", ...extra });', "verbose"],
  "satisfies-object": ['export default defineConfig({ themes: "x" } satisfies DropkitConfig);', "themes"],
  "satisfies-sync": ['export default defineConfig(() => ({ hooks: { onfailure: "fail" } }) satisfies DropkitConfig);', "hooks.onfailure"],
  "untyped-variable": ['const config = { theme: "x", thme: "y" };\nexport default defineConfig(config);', "thme"],
  "function-declaration": ['function config() {\n  return { theme: "x", extra: 1 };\n}\nexport default defineConfig(config);', "extra"],
};
/** Configs with a value of a wrong type, in each form (an async function's once slipped through): they must fail too. */
export const wrongValues: Record<string, string> = {
  "object-value": "export default defineConfig({ theme: 3 });",
  "object-enum": 'export default defineConfig({ log: { format: "xml" } });',
  "sync-enum": 'export default defineConfig(() => ({ hooks: { onFailure: "stop" } }));',
  "async-schema": "export default defineConfig(async () => ({ schema: 2 }));",
  "async-value": 'export default defineConfig(async () => ({ modules: { exclude: "a" } }));',
  "not-a-config": "export default defineConfig(async () => 3);",
};
