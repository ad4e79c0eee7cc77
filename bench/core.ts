// Time per resolve of a realistic config: the wasm core against JSON.parse + zod + defu doing the same layers.

import { defu } from "defu";
import { z } from "zod";
import { loadCore } from "../src/core-node.ts";

const cwd = "/srv/drops/spring";
const configText = JSON.stringify({
  $schema: "../node_modules/dropkit/schema.json",
  schema: 1,
  theme: "ocean",
  exclude: ["legacy-*"],
  modules: { include: ["test-keep", "shop-core"], exclude: ["old-*", "wip-*", "draft-*"], only: [] },
  presets: ["standard"],
  hooks: { initScriptsDir: "./scripts/init", onFailure: "continue" },
  cache: { enabled: true },
  log: { format: "text" },
}, null, 2);
const env = { DROPKIT_CACHE_FILE: ".cache/dropkit.json", DROPKIT_MODULES_EXCLUDE: "tmp-*, scratch-*", PATH: "/usr/bin" };
const flags = { theme: "forest", exclude: ["shop-beta"] };
const archives = ["blog.zip", "forest-theme.zip", "ocean-theme.zip", "shop-core.zip", "shop-beta.zip", "test-keep.zip", "test-x.zip", "old-a.zip", "wip-b.zip", "gallery.zip"];

// The JS stack: validation with zod (strict objects like the core), env parsing, merge with defu.
const glob = z.string().min(1).regex(/^[^*/\\]*\*?$/);
const globs = z.array(glob);
const configSchema = z.strictObject({
  $schema: z.string().optional(),
  schema: z.literal(1).optional(),
  theme: z.string().min(1).optional(),
  exclude: globs.optional(),
  modules: z.strictObject({ include: globs.optional(), exclude: globs.optional(), only: globs.optional() }).optional(),
  presets: z.array(z.string().min(1)).optional(),
  presetsSearchPath: z.array(z.string().min(1)).optional(),
  hooks: z.strictObject({ initScriptsDir: z.string().min(1).optional(), postScriptsDir: z.string().min(1).optional(), onFailure: z.enum(["continue", "fail"]).optional() }).optional(),
  cache: z.strictObject({ file: z.string().min(1).optional(), enabled: z.boolean().optional() }).optional(),
  log: z.strictObject({ format: z.enum(["text", "json"]).optional() }).optional(),
});
const standard = { modules: { exclude: ["test-*", "dev-*"] }, hooks: { onFailure: "fail" } };
const defaults = {
  schema: 1, theme: "auto", modules: { include: [], exclude: [], only: [] }, presetsSearchPath: [],
  hooks: { initScriptsDir: "./init-scripts", postScriptsDir: "./post-scripts", onFailure: "continue" },
  cache: { file: ".dropkit-cache.json", enabled: true }, log: { format: "text" },
};

function resolveWithJs(): unknown {
  const parsed = configSchema.safeParse(JSON.parse(configText));
  if (!parsed.success) throw new Error("invalid");
  const config = parsed.data as Record<string, any>;
  const fromEnv: Record<string, any> = {};
  for (const [name, value] of Object.entries(env)) {
    if (name === "DROPKIT_CACHE_FILE") fromEnv.cache = { file: value };
    if (name === "DROPKIT_MODULES_EXCLUDE") fromEnv.modules = { exclude: value.split(",").map((s) => s.trim()).filter(Boolean) };
  }
  const envParsed = configSchema.safeParse(fromEnv);
  if (!envParsed.success) throw new Error("invalid env");
  const fromFlags = { theme: flags.theme, modules: { exclude: flags.exclude } };
  const merged = defu(fromFlags, envParsed.data, { ...config, modules: { ...config.modules, exclude: [...(config.modules?.exclude ?? []), ...(config.exclude ?? [])] } }, standard, defaults);
  const names = archives.filter((a) => !a.endsWith("-theme.zip")).map((a) => a.slice(0, -4));
  const excluded = new Set(merged.modules.exclude as string[]);
  return names.filter((n) => ![...excluded].some((g) => (g.endsWith("*") ? n.startsWith(g.slice(0, -1)) : n === g)));
}

const core = loadCore();
const coreRequest = { op: "resolve", cwd, flags, env, config: { source: cwd + "/dropkit.config.json", format: "json", text: configText }, archives };
const encoder = new TextEncoder();
const decoder = new TextDecoder();
// The response as the core writes it (re-serialised, it is the same bytes: test/vectors.test.ts checks that).
const responseBytes = encoder.encode(JSON.stringify(core.request(coreRequest).response));
/** The binding's JSON work alone, without the core: request to bytes, response bytes to an object. */
function jsonOnly(): unknown {
  encoder.encode(JSON.stringify(coreRequest));
  return JSON.parse(decoder.decode(responseBytes));
}

function resolveWithCore(): unknown {
  const r = core.resolveLayers({ cwd, flags, env, config: { source: cwd + "/dropkit.config.json", format: "json", text: configText }, archives });
  if (!r.ok || r.stage !== "done") throw new Error("core did not resolve: " + JSON.stringify(r));
  return r.plan;
}

function measure(fn: () => unknown, ms: number): number {
  const end = performance.now() + ms;
  let n = 0;
  const start = performance.now();
  while (performance.now() < end) {
    for (let i = 0; i < 50; i++) fn();
    n += 50;
  }
  return ((performance.now() - start) * 1e3) / n;
}

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const ms = Number(process.env.BENCH_MS ?? 400);
measure(resolveWithCore, 300);
measure(resolveWithJs, 300);
measure(jsonOnly, 300);
const coreTimes: number[] = [];
const jsTimes: number[] = [];
const jsonTimes: number[] = [];
// Alternate the two so that machine noise hits both alike; report medians.
for (let r = 0; r < rounds; r++) {
  coreTimes.push(measure(resolveWithCore, ms));
  jsTimes.push(measure(resolveWithJs, ms));
  jsonTimes.push(measure(jsonOnly, ms));
}
const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const c = median(coreTimes);
const j = median(jsTimes);
console.log(`resolve, realistic config (${configText.length} bytes, 3 env vars, 2 flags, 1 preset, ${archives.length} archives)`);
console.log(`  dropkit core (wasm, incl. JSON request/response): ${c.toFixed(1)} µs/op`);
console.log(`  JSON.parse + zod safeParse + defu:                ${j.toFixed(1)} µs/op`);
console.log(`  ratio core / JS stack: ${(c / j).toFixed(2)}  (target: at most 1.00)`);
// A floor under the core's time that no speed-up of the core can remove: the JSON in and out of the binding.
console.log(`  of which JSON in and out (${responseBytes.length}-byte response), no core: ${median(jsonTimes).toFixed(1)} µs/op`);
