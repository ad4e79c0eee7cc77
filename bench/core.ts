// The core against its peers, in one run: the four measures of docs/performance.md#the-four-measures, as ratios taken
// in the same loop.
//
//   npm run bench:core                        dist/dropkit.wasm
//   BENCH_WASM=path/to/other.wasm npm run bench:core     another build (an older one, to compare)
//   BENCH_ROUNDS=9 BENCH_MS=600               more rounds, longer ones (defaults 7 and 400)
//
// Each round times the core and its peer back to back, so that the machine's noise hits both alike; the
// ratio of a round is core / peer, and the figures are the median and the range of the rounds' ratios.

import { readFileSync } from "node:fs";
import { defu } from "defu";
import { z } from "zod";
import { wasmExports } from "../scripts/lib/abi.ts";
import { benchInputs, realisticArchives, realisticEnv, realisticFlags } from "../scripts/lib/inputs.ts";

const wasmFile = process.env.BENCH_WASM ?? new URL("../dist/dropkit.wasm", import.meta.url).pathname;
const wasm = readFileSync(wasmFile);
const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const ms = Number(process.env.BENCH_MS ?? 400);
const inputs = benchInputs();
const encoder = new TextEncoder();
const decoder = new TextDecoder();

interface Exports {
  memory: WebAssembly.Memory;
  dk_alloc(len: number): number;
  dk_free(ptr: number): void;
  dk_call(ptr: number, len: number): number;
  dk_out_ptr(): number;
  dk_out_len(): number;
}

function instance(): Exports {
  return wasmExports(wasm) as unknown as Exports;
}

/**
 * One request through the raw ABI, as any host makes it: the request's bytes (encoded once, before timing)
 * copied into the module, `dk_call`, and the response decoded to a string.
 */
function rawCall(e: Exports, request: Uint8Array): string {
  const ptr = e.dk_alloc(request.length) >>> 0;
  new Uint8Array(e.memory.buffer, ptr, request.length).set(request);
  if (e.dk_call(ptr, request.length) !== 0) throw new Error("the core refused the request");
  e.dk_free(ptr);
  return decoder.decode(new Uint8Array(e.memory.buffer, e.dk_out_ptr() >>> 0, e.dk_out_len() >>> 0));
}

/** Runs `fn` for about `budget` ms (at least once); returns the calls made and the milliseconds taken. */
function run(fn: () => unknown, budget: number): [number, number] {
  let n = 0;
  const start = performance.now();
  const end = start + budget;
  do {
    fn();
    n++;
  } while (performance.now() < end);
  return [n, performance.now() - start];
}

interface Pair {
  core: number[];
  peer: number[];
  ratio: number[];
}

/**
 * Rounds of core against peer. Within a round the two take turns in ten slices, so that a burst of load
 * from the rest of the machine falls on both rather than on one of them.
 */
function compare(core: () => unknown, peer: () => unknown): Pair {
  const out: Pair = { core: [], peer: [], ratio: [] };
  run(core, ms);
  run(peer, ms);
  for (let r = 0; r < rounds; r++) {
    let coreCalls = 0;
    let coreMs = 0;
    let peerCalls = 0;
    let peerMs = 0;
    for (let slice = 0; slice < 10; slice++) {
      const [cn, ct] = run(core, ms / 10);
      const [pn, pt] = run(peer, ms / 10);
      coreCalls += cn;
      coreMs += ct;
      peerCalls += pn;
      peerMs += pt;
    }
    const c = (coreMs * 1e3) / coreCalls;
    const p = (peerMs * 1e3) / peerCalls;
    out.core.push(c);
    out.peer.push(p);
    out.ratio.push(c / p);
  }
  return out;
}

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function range(xs: number[], digits: number): string {
  return `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;
}

function report(title: string, pair: Pair, coreLabel: string, peerLabel: string, target: number): boolean {
  const ok = median(pair.ratio) <= target;
  console.log(title);
  console.log(`  ${coreLabel.padEnd(52)} ${median(pair.core).toFixed(1).padStart(9)} µs  (${range(pair.core, 1)})`);
  console.log(`  ${peerLabel.padEnd(52)} ${median(pair.peer).toFixed(1).padStart(9)} µs  (${range(pair.peer, 1)})`);
  console.log(
    `  ratio ${median(pair.ratio).toFixed(2)}×  (${range(pair.ratio, 2)} over ${rounds} rounds)  target ≤ ${target}×  ${ok ? "met" : "NOT MET"}`,
  );
  return ok;
}

// --- 1 and 2: validate through the raw ABI, against JSON.parse of the same text ---

const e = instance();
const packageBytes = encoder.encode(JSON.stringify(inputs.packageRequest));
const configBytes = encoder.encode(JSON.stringify(inputs.configRequest));
for (const [name, bytes] of [
  ["package.json", packageBytes],
  ["config", configBytes],
] as const) {
  if (!rawCall(e, bytes).startsWith('{"ok":true')) throw new Error(`the bench ${name} does not validate`);
}

// --- 3: memory grown by one validate of the 1.25 MB config, on a fresh instance ---

function memoryGrowth(): number {
  const fresh = instance();
  const before = fresh.memory.buffer.byteLength;
  rawCall(fresh, configBytes);
  return fresh.memory.buffer.byteLength - before;
}

// --- 4: one resolve of a realistic config through the JS binding, against JSON.parse + zod + defu ---

const glob = z
  .string()
  .min(1)
  .regex(/^[^*/\\]*\*?$/);
const globs = z.array(glob);
const configSchema = z.strictObject({
  $schema: z.string().optional(),
  schema: z.literal(1).optional(),
  theme: z.string().min(1).optional(),
  exclude: globs.optional(),
  modules: z.strictObject({ include: globs.optional(), exclude: globs.optional(), only: globs.optional() }).optional(),
  presets: z.array(z.string().min(1)).optional(),
  presetsSearchPath: z.array(z.string().min(1)).optional(),
  hooks: z
    .strictObject({
      initScriptsDir: z.string().min(1).optional(),
      postScriptsDir: z.string().min(1).optional(),
      onFailure: z.enum(["continue", "fail"]).optional(),
    })
    .optional(),
  cache: z.strictObject({ file: z.string().min(1).optional(), enabled: z.boolean().optional() }).optional(),
  log: z.strictObject({ format: z.enum(["text", "json"]).optional() }).optional(),
});
const standard = { modules: { exclude: ["test-*", "dev-*"] }, hooks: { onFailure: "fail" } };
const defaults = {
  schema: 1,
  theme: "auto",
  modules: { include: [], exclude: [], only: [] },
  presetsSearchPath: [],
  hooks: { initScriptsDir: "./init-scripts", postScriptsDir: "./post-scripts", onFailure: "continue" },
  cache: { file: ".dropkit-cache.json", enabled: true },
  log: { format: "text" },
};

/** The JS stack: validation with zod (strict objects, like the core), the environment parsed, the layers merged with defu, the modules chosen. */
function resolveWithJs(): unknown {
  const parsed = configSchema.safeParse(JSON.parse(inputs.realisticText));
  if (!parsed.success) throw new Error("invalid");
  const config = parsed.data as Record<string, any>;
  const fromEnv: Record<string, any> = {};
  for (const [name, value] of Object.entries(realisticEnv)) {
    if (name === "DROPKIT_CACHE_FILE") fromEnv.cache = { file: value };
    if (name === "DROPKIT_MODULES_EXCLUDE")
      fromEnv.modules = {
        exclude: value
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      };
  }
  const envParsed = configSchema.safeParse(fromEnv);
  if (!envParsed.success) throw new Error("invalid env");
  const fromFlags = { theme: realisticFlags.theme, modules: { exclude: realisticFlags.exclude } };
  const merged = defu(
    fromFlags,
    envParsed.data,
    { ...config, modules: { ...config.modules, exclude: [...(config.modules?.exclude ?? []), ...(config.exclude ?? [])] } },
    standard,
    defaults,
  );
  const names = realisticArchives.filter((a) => !a.endsWith("-theme.zip")).map((a) => a.slice(0, -4));
  const excluded = new Set(merged.modules.exclude as string[]);
  return names.filter((n) => ![...excluded].some((g) => (g.endsWith("*") ? n.startsWith(g.slice(0, -1)) : n === g)));
}

// Measure 4 as any host makes it: the request's bytes made once, the answer decoded to text (the resolve through the JS
// binding, with its JSON parse, was retired as a measure: the binding's JSON alone is most of the JS stack's time).
const resolveBytes = encoder.encode(JSON.stringify(inputs.resolveRequest));
const resolveAnswer = JSON.parse(rawCall(e, resolveBytes)) as { ok: boolean; stage: string };
if (!resolveAnswer.ok || resolveAnswer.stage !== "done")
  throw new Error("the bench resolve did not resolve: " + JSON.stringify(resolveAnswer));

console.log(`dropkit core bench: ${wasmFile} (${wasm.length} bytes), ${rounds} rounds of ${ms} ms, Node ${process.version}`);
const met: boolean[] = [];
met.push(
  report(
    `1. validate a ${inputs.packageText.length.toLocaleString("en")}-byte package.json (3,000 dependencies and scripts, a dropkit key)`,
    compare(
      () => rawCall(e, packageBytes),
      () => JSON.parse(inputs.packageText),
    ),
    "core: dk_call through the raw ABI",
    "JSON.parse of the text",
    1.5,
  ),
);
met.push(
  report(
    `2. validate a ${inputs.configText.length.toLocaleString("en")}-byte config (60,000 module globs)`,
    compare(
      () => rawCall(e, configBytes),
      () => JSON.parse(inputs.configText),
    ),
    "core: dk_call through the raw ABI",
    "JSON.parse of the text",
    4,
  ),
);
const growth: number[] = [];
for (let r = 0; r < Math.min(rounds, 5); r++) growth.push(memoryGrowth() / inputs.configText.length);
const memoryOk = median(growth) <= 8;
met.push(memoryOk);
console.log("3. module memory grown by that one validate, on a fresh instance (request buffer included)");
console.log(`  ${median(growth).toFixed(2)}× the input  (${range(growth, 2)})  target ≤ 8×  ${memoryOk ? "met" : "NOT MET"}`);
met.push(
  report(
    `4. one resolve of a realistic config (${inputs.realisticText.length} bytes, 3 variables, 2 flags, 1 preset, ${realisticArchives.length} archives)`,
    compare(() => rawCall(e, resolveBytes), resolveWithJs),
    "core: dk_call through the raw ABI (answer as text)",
    "JSON.parse + zod safeParse + defu",
    2,
  ),
);
console.log(met.every(Boolean) ? "every target met" : `${met.filter((m) => !m).length} target(s) not met`);
