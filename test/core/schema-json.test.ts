// The shipped JSON Schema agrees with the core's validator on the same valid and invalid configs.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import Ajv from "ajv";
import fc from "fast-check";
import { loadCore } from "../../src/core/node.ts";

const schema = JSON.parse(readFileSync(new URL("../../schema.json", import.meta.url), "utf8"));
const ajv = new Ajv({ allErrors: true, strict: true });
const validate = ajv.compile(schema);
const core = loadCore();

const valid: unknown[] = [
  {},
  { $schema: "./node_modules/dropkit/schema.json", schema: 1 },
  { theme: "auto" },
  { theme: "none" },
  { theme: "ocean" },
  { theme: "./themes/ocean.zip" },
  { theme: "C:\\themes\\Ocean.ZIP" },
  { modules: { include: ["blog", "shop-*", "*"], exclude: [], only: ["a"] } },
  { exclude: ["legacy-*"] },
  { presets: [] },
  { presets: ["standard", "./presets/mine.json", "mine"] },
  { presetsSearchPath: ["./presets", "/etc/dropkit/presets"] },
  { hooks: { initScriptsDir: "./init", postScriptsDir: "post", onFailure: "fail" } },
  { cache: { file: ".cache.json", enabled: false } },
  { log: { format: "json" } },
];

const invalid: unknown[] = [
  [],
  "text",
  { schema: 2 },
  { schema: "1" },
  { theme: "" },
  { theme: 3 },
  { theme: "themes/ocean" },
  { colour: 1 },
  { $schema: 1 },
  { modules: { include: ["a*b"] } },
  { modules: { include: ["**"] } },
  { modules: { include: ["dir/name"] } },
  { modules: { include: [""] } },
  { modules: { inclde: [] } },
  { modules: [] },
  { exclude: "legacy-*" },
  { presets: [""] },
  { presets: "standard" },
  { presetsSearchPath: [""] },
  { hooks: { onFailure: "stop" } },
  { hooks: { initScriptsDir: 1 } },
  { hooks: { extra: true } },
  { cache: { enabled: "yes" } },
  { cache: { file: "" } },
  { log: { format: "xml" } },
  { log: { level: "debug" } },
  // The core's rules on text values, each of which the schema once let pass.
  { cache: { file: "sub/" } },
  { cache: { file: "sub\\" } },
  { theme: "ocean\u0000" },
  { theme: "a\u0000.zip" },
  { theme: " " },
  { theme: " \t\u00a0" },
  { modules: { exclude: ["x\u0000"] } },
  { presets: ["a\u0000"] },
  { presetsSearchPath: ["./p\u0000"] },
  { hooks: { initScriptsDir: "./h\u0000" } },
];

test("every config the core accepts, the JSON Schema accepts", () => {
  for (const config of valid) {
    const core_ = core.validateConfig(JSON.stringify(config));
    assert.equal(core_.ok, true, `core rejects ${JSON.stringify(config)}: ${JSON.stringify(core_.errors)}`);
    assert.equal(validate(config), true, `schema rejects ${JSON.stringify(config)}: ${ajv.errorsText(validate.errors)}`);
  }
});

test("every config the core rejects, the JSON Schema rejects", () => {
  for (const config of invalid) {
    const core_ = core.validateConfig(JSON.stringify(config));
    assert.equal(core_.ok, false, `core accepts ${JSON.stringify(config)}`);
    assert.equal(validate(config), false, `schema accepts ${JSON.stringify(config)}`);
  }
});

test("the schema names every top-level key the core accepts, and defaults match", () => {
  const keys = Object.keys(schema.properties).sort();
  assert.deepEqual(keys, ["$schema", "cache", "exclude", "hooks", "log", "modules", "presets", "presetsSearchPath", "schema", "theme"]);
  const resolved = core.resolveLayers({ cwd: "/d", presetFiles: [], detected: {} });
  assert.equal(resolved.stage, "done");
  if (resolved.stage !== "done") return;
  assert.equal(schema.properties.theme.default, resolved.config!.theme);
  assert.equal(schema.properties.hooks.properties.onFailure.default, resolved.config!.hooks.onFailure);
  assert.equal(schema.properties.cache.properties.enabled.default, resolved.config!.cache.enabled);
  assert.equal(schema.properties.log.properties.format.default, resolved.config!.log.format);
  assert.equal("/d/" + schema.properties.cache.properties.file.default, resolved.config!.cache.file);
});

/** The properties of every object in the schema, with their dotted paths, following `$ref`s into definitions. */
function schemaFields(node: any = schema, at = ""): Array<{ path: string; node: any }> {
  const resolved = node.$ref ? schema.definitions[node.$ref.split("/").pop()] : node;
  const out: Array<{ path: string; node: any }> = [];
  for (const [key, child] of Object.entries<any>(resolved.properties ?? {})) {
    const path = at === "" ? key : `${at}.${key}`;
    out.push({ path, node: child }, ...schemaFields(child, path));
  }
  const items = resolved.items ?? (node.items as unknown);
  if (items) out.push({ path: `${at}[]`, node: items });
  return out;
}

test("every field and list item has a description, for the editor's hover", () => {
  for (const { path, node } of schemaFields()) {
    const resolved = node.$ref ? schema.definitions[node.$ref.split("/").pop()] : node;
    assert.ok(typeof (node.description ?? resolved.description) === "string", `${path} has no description`);
  }
});

test("each object lists exactly the keys the core accepts, at every depth", () => {
  for (const at of ["", "modules", "hooks", "cache", "log"]) {
    const config = at === "" ? { zzz: 1 } : { [at]: { zzz: 1 } };
    const [error] = core.validateConfig(JSON.stringify(config)).errors;
    assert.equal(error?.code, "UnknownKey", JSON.stringify(error));
    const accepted = [...error!.expected!].sort();
    const properties = Object.keys(at === "" ? schema.properties : schema.properties[at].properties)
      .filter((k) => k !== "$schema")
      .sort();
    assert.deepEqual(
      properties,
      accepted.filter((k) => k !== "$schema"),
      `keys of ${at || "the top level"}`,
    );
  }
});

test("editors are offered the theme keywords and the bundled presets the core knows", () => {
  assert.deepEqual(schema.properties.theme.examples, ["auto", "none"]);
  const message = core.validateConfig('{"theme": 3}').errors[0]!.message;
  for (const keyword of schema.properties.theme.examples)
    assert.ok(message.includes(`"${keyword}"`), `the core does not name ${keyword}: ${message}`);
  assert.deepEqual(
    [...schema.properties.presets.items.examples].sort(),
    core
      .listPresets()
      .map((p) => p.name)
      .sort(),
  );
});

/** Where a value of each leaf of the resolved config goes in a config file (a list's value as its one item). */
const placements: Record<string, (value: unknown) => unknown> = {
  schema: (v) => ({ schema: v }),
  theme: (v) => ({ theme: v }),
  "modules.include": (v) => ({ modules: { include: [v] } }),
  "modules.exclude": (v) => ({ modules: { exclude: [v] }, exclude: [v] }),
  "modules.only": (v) => ({ modules: { only: [v] } }),
  presets: (v) => ({ presets: [v] }),
  presetsSearchPath: (v) => ({ presetsSearchPath: [v] }),
  "hooks.initScriptsDir": (v) => ({ hooks: { initScriptsDir: v } }),
  "hooks.postScriptsDir": (v) => ({ hooks: { postScriptsDir: v } }),
  "hooks.onFailure": (v) => ({ hooks: { onFailure: v } }),
  "cache.file": (v) => ({ cache: { file: v } }),
  "cache.enabled": (v) => ({ cache: { enabled: v } }),
  "log.format": (v) => ({ log: { format: v } }),
};

test("every leaf of the core has a placement for the differential test below", () => {
  const resolved = core.resolveLayers({ cwd: "/d", presetFiles: [], detected: {} });
  assert.equal(resolved.stage, "done");
  if (resolved.stage !== "done") return;
  assert.deepEqual(Object.keys(placements).sort(), Object.keys(resolved.origins!).sort());
});

// Pieces of values that meet the core's rules on text (schema.ts, checkBytes): separators, '*', NUL, white space of
// every kind the core trims, the .zip ending in any case, the enum words, and plain letters.
const pieces = [
  "a",
  "Z",
  "é",
  "-",
  ".",
  ".zip",
  ".ZiP",
  "/",
  "\\",
  "*",
  "\u0000",
  " ",
  "\t",
  "\n",
  "\u00a0",
  "\u2003",
  "\u3000",
  "\ufeff",
  "\u0085",
  "\u200b",
];
const words = ["auto", "none", "fail", "continue", "text", "json", "true", "1", "standard"];
const value = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: fc.constantFrom(...pieces), maxLength: 5 }) },
  { weight: 1, arbitrary: fc.constantFrom(...words) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(true, false, 0, 1, 2, null, [], {}) },
);

test("the JSON Schema and the core agree on every value of every leaf: what one rejects, the other rejects", () => {
  fc.assert(
    fc.property(fc.constantFrom(...Object.keys(placements)), value, (leaf, v) => {
      const config = placements[leaf]!(v);
      const byCore = core.validateConfig(JSON.stringify(config)).ok;
      const bySchema = validate(config) as boolean;
      assert.equal(
        bySchema,
        byCore,
        `${leaf} = ${JSON.stringify(v)}: the core ${byCore ? "accepts" : "rejects"} it, the schema ${bySchema ? "accepts" : "rejects"} it`,
      );
    }),
    { numRuns: 20000 },
  );
});
