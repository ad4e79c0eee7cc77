// The oracle: a large, fixed corpus of requests, answered once by a reference build of the core and saved,
// so that a rebuilt core can be checked to answer every one of them with the same bytes.
//
//   node --import tsx scripts/oracle.ts record <name> <module.wasm>   saves a module's answers as build/oracle/<name>.ndjson.gz
//   node --import tsx scripts/oracle.ts check [candidate.wasm]          compares a build (default dist/dropkit.wasm) with every record
//
// Two records are kept in build/oracle/ (outside git: megabytes of answers, a function of a module and this
// corpus): `reference`, the answers of the core as it was before the rebuild (build/oracle/reference.wasm: the
// core of main at the last merge, which still had the old shape), and `shape`, the answers of a core with the
// new shape, reviewed, which every later build must give byte for byte. The corpus is deterministic: the golden vectors, JSONTestSuite, the fuzz
// generators of scripts/lib/fuzz.ts sampled with fixed seeds, the bench inputs, and the huge and deep inputs of
// the fuzz and limits suites. Every request goes to one instance in order, as a long-lived host would send them.
//
// The one intended difference between the reference and a candidate, the shape of `resolve`'s answer, is
// applied to the reference's answers by `expectedAnswer` (scripts/oracle-shape.ts) before the bytes are compared.
// Every record's answers and the build's compare without the problems' codes and their fields (`withoutCodes`), which
// came later (issue 39): records from before and after them both hold, and a problem without a code is a difference.

import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";
import fc from "fast-check";
import { benchInputs } from "./lib/inputs.ts";
import { wasmExports } from "./lib/abi.ts";
import * as F from "./lib/fuzz.ts";
import { loadVectors, requestText } from "./lib/vectors.ts";
import { expectedAnswer, withoutCodes } from "./oracle-shape.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const records = path.join(root, "build/oracle");
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });
// For requests, which may be any bytes: only shown, or read for their op.
const lenient = new TextDecoder();

interface Case {
  group: string;
  bytes: Uint8Array;
}

interface Recorded {
  group: string;
  sha: string;
  status: number;
  text: string;
}

/** Every request of the corpus, in a fixed order. */
export function corpus(): Case[] {
  const cases: Case[] = [];
  const add = (group: string, request: unknown): void => {
    cases.push({ group, bytes: encoder.encode(typeof request === "string" ? request : JSON.stringify(request)) });
  };
  const addBytes = (group: string, bytes: Uint8Array): void => {
    cases.push({ group, bytes });
  };
  const sample = <T>(arbitrary: fc.Arbitrary<T>, numRuns: number, seed: number): T[] => fc.sample(arbitrary, { numRuns, seed });

  for (const v of loadVectors()) add("vectors", requestText(v));

  // JSONTestSuite: raw bytes as a request, then (when the file is UTF-8) its text parsed, validated and resolved.
  const suite = path.join(root, "test/conformance/JSONTestSuite/test_parsing/");
  const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  for (const file of fs
    .readdirSync(suite)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const bytes = fs.readFileSync(path.join(suite, file));
    addBytes("jsontestsuite-raw", bytes);
    let text: string;
    try {
      text = strict.decode(bytes);
    } catch {
      continue;
    }
    add("jsontestsuite-parse", { op: "parse", text });
    add("jsontestsuite-validate", { op: "validate", text, source: "/d/dropkit.config.json" });
    add("jsontestsuite-package", { op: "validate", text: `{"name":"x","dropkit":${text}}`, format: "package.json" });
    add("jsontestsuite-resolve", {
      op: "resolve",
      cwd: "/d",
      config: { source: "/d/dropkit.config.json", format: "json", text },
      presetFiles: [],
      files: [],
    });
  }

  // The fuzz generators, sampled with fixed seeds.
  for (const text of sample(F.jsonText, 3000, 1401)) add("fuzz-json", { op: "parse", text });
  const tokens = fc.oneof(
    fc.string({ unit: "binary", maxLength: 30 }),
    fc.string({ unit: fc.constantFrom(...'{}[]:,"\\ 0123456789-+.eEtrufalsn\n\tu'), maxLength: 30 }),
  );
  for (const text of sample(tokens, 1500, 1402)) add("fuzz-text", { op: "parse", text });
  const pairs = fc.array(fc.tuple(fc.constantFrom("a", "b", "__proto__", "\u00e9", "a\u0000"), fc.integer()), {
    minLength: 2,
    maxLength: 8,
  });
  for (const p of sample(pairs, 300, 1403))
    add("fuzz-duplicates", { op: "parse", text: "{" + p.map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(", ") + "}" });
  for (const m of sample(F.mutatedConfig, 3000, 1404)) {
    add("fuzz-mutated", { op: "parse", text: m.text });
    add("fuzz-mutated", { op: "validate", text: m.text, format: m.format, kind: m.kind, source: "/d/dropkit.config.json" });
  }
  for (const [text, kind] of sample(fc.tuple(F.configText, fc.constantFrom("config", "preset")), 2500, 1405))
    add("fuzz-config", { op: "validate", text, kind });
  const resolves = sample(F.resolveRequest, 3000, 1406);
  resolves.forEach((r, i) => {
    add("fuzz-resolve", { op: "resolve", ...r });
    // Every third one again with explain, and with every stage answered, so that most reach "done".
    if (i % 3 === 0) add("fuzz-resolve-explain", { op: "resolve", ...r, explain: true });
    if (i % 2 === 0)
      add("fuzz-resolve-done", { op: "resolve", presetFiles: [], files: [], ...r, ...(r.files === undefined ? { files: ["a.zip"] } : {}) });
  });
  // Most generated resolves fail early (random values are mostly wrong): these are mostly valid, so that
  // full answers (config, origins, presets, plan, explain) are covered as widely.
  for (const r of sample(validResolve, 3000, 1410)) add("valid-resolve", r);
  for (const bytes of sample(F.requestBytes, 2000, 1407)) addBytes("fuzz-bytes", bytes);
  for (const r of sample(F.requestOfAnyFields, 1500, 1408)) add("fuzz-fields", r);
  const shapes = fc.record({
    depth: fc.integer({ min: 1, max: 3000 }),
    objects: fc.boolean(),
    closed: fc.boolean(),
    inner: fc.constantFrom("", "1", '"x"', "[]", "{}"),
  });
  for (const { depth, objects, closed, inner } of sample(shapes, 150, 1409)) {
    const open = objects ? '{"a":' : "[";
    const body = objects && inner === "" ? "0" : inner;
    add("deep", { op: "parse", text: open.repeat(depth) + body + (closed ? (objects ? "}" : "]").repeat(depth) : "") });
  }

  // Huge inputs (test/core/fuzz.test.ts, test/core/limits.test.ts) and the bench's.
  const huge: string[] = [
    JSON.stringify("x".repeat(2_000_000)),
    '"' + "\\n\\u00e9\\ud83d\\ude00".repeat(50_000) + '"',
    "1" + "0".repeat(100_000),
    "0." + "9".repeat(100_000) + "e-5",
    JSON.stringify(Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i]))),
    JSON.stringify(Array.from({ length: 200_000 }, (_, i) => i % 7)),
    " ".repeat(1_000_000) + "{}",
    "[\n" + Array.from({ length: 100_000 }, () => "1").join(",\n") + "\n]",
    "{" + Array.from({ length: 10_000 }, () => '"a": 1').join(",") + "}",
    "[".repeat(128) + "]".repeat(128),
    "[".repeat(129) + "]".repeat(129),
    "[".repeat(200_000),
    '"' + "y".repeat(1_000_000),
    "[".repeat(100_000) + "]".repeat(100_000),
  ];
  for (const text of huge) add("huge-parse", { op: "parse", text });
  const globs = Array.from({ length: 50_000 }, (_, i) => (i % 2 ? `m${i}-*` : `m${i}`));
  const big = JSON.stringify({ modules: { include: globs }, exclude: globs.slice(0, 5000) });
  add("huge-config", { op: "validate", text: big, kind: "config" });
  add("huge-config", { op: "validate", text: big, kind: "preset" });
  add("huge-config", {
    op: "resolve",
    cwd: "/d",
    env: { DROPKIT_MODULES_ONLY: globs.join(",") },
    config: { source: "/d/c.json", format: "json", text: big },
    presetFiles: [],
    files: [],
    archives: ["m0.zip", "m1-x.zip"],
  });
  const limits = Array.from({ length: 60_000 }, (_, i) => (i % 3 === 0 ? `module-${i}-*` : `module-${i}`));
  add("huge-config", {
    op: "validate",
    text: JSON.stringify({ schema: 1, modules: { include: limits, exclude: limits.slice(0, 1000) } }, null, 1),
  });
  const plain = Array.from({ length: 60_000 }, (_, i) => `module-${i}`);
  add("huge-config", {
    op: "resolve",
    cwd: "/d",
    flags: { exclude: ["module-1"] },
    env: { DROPKIT_PRESETS: "standard", DROPKIT_MODULES_EXCLUDE: "module-2,extra" },
    config: { source: "/d/dropkit.config.json", format: "json", text: JSON.stringify({ modules: { exclude: plain } }) },
    archives: ["module-0.zip", "module-1.zip", "other.zip"],
  });
  const bad = Array.from({ length: 70_000 }, (_, i) => `m${i}`).concat("bad*glob");
  add("huge-config", { op: "validate", text: JSON.stringify({ modules: { only: bad } }) });
  const bench = benchInputs();
  add("bench", bench.resolveRequest);
  add("bench", { ...bench.resolveRequest, explain: true });
  add("bench", bench.packageRequest);
  add("bench", bench.configRequest);
  add("bench", {
    op: "resolve",
    cwd: "/d",
    config: { source: "/d/package.json", format: "package.json", text: bench.packageText },
    presetFiles: [],
    files: [],
  });
  add("bench", {
    op: "resolve",
    cwd: "/d",
    config: { source: "/d/dropkit.config.json", format: "json", text: bench.configText },
    presetFiles: [],
    files: [],
    archives: ["blog.zip", "m1.zip"],
  });
  return cases;
}

const goodGlob = fc.constantFrom("blog", "shop-*", "*", "test-*", "old-*", "\u00e9t\u00e9", "module-1", "a b", 'x"y');
const goodPath = fc.constantFrom("./a", "/abs/dir", "rel dir/\u00fc", "../up", "C:\\win\\dir", "./x/../y/./z", "~/home");
const validResolve = fc.record(
  {
    op: fc.constant("resolve"),
    cwd: fc.constantFrom("/d", "/home/me/my drop", "/\u00fcnic\u00f6de/\ud83d\ude00", "C:\\drops\\one", "/d/"),
    flags: fc.record(
      {
        theme: fc.constantFrom("auto", "none", "ocean", "./t/sea.zip", "/abs/t.ZIP", "forest"),
        exclude: fc.array(goodGlob, { maxLength: 3 }),
        preset: fc.array(fc.constantFrom("standard", "none", "mine", "./p.json", "nope"), { maxLength: 2 }),
        logFormat: fc.constantFrom("text", "json"),
      },
      { requiredKeys: [] },
    ),
    env: fc.dictionary(
      fc.constantFrom(...F.leafVariables, "DROPKIT_CONFIG", "DROPKIT_THEM", "HOME"),
      fc.constantFrom(
        "",
        "ocean",
        "standard",
        "standard, none",
        "shop-*,blog",
        "./dir",
        "fail",
        "continue",
        "yes",
        "0",
        "json",
        "text",
        " a , b ,,",
      ),
      { maxKeys: 4, noNullPrototype: true },
    ),
    config: fc.oneof(
      fc.constant(undefined),
      fc.constantFrom(...F.validConfigs).map((text) => ({ source: "/d/dropkit.config.json", format: "json", text })),
      fc.constantFrom(...F.validPackages).map((text) => ({ source: "/d/package.json", format: "package.json", text })),
      fc
        .record(
          {
            theme: fc.constantFrom("ocean", "auto"),
            modules: fc.record({ include: fc.array(goodGlob), exclude: fc.array(goodGlob) }, { requiredKeys: [] }),
            hooks: fc.record({ initScriptsDir: goodPath, onFailure: fc.constantFrom("fail", "continue") }, { requiredKeys: [] }),
            presetsSearchPath: fc.array(goodPath, { maxLength: 2 }),
            cache: fc.record({ file: goodPath, enabled: fc.boolean() }, { requiredKeys: [] }),
          },
          { requiredKeys: [] },
        )
        .chain((value) =>
          fc.constantFrom(
            { source: "/d/dropkit.config.ts", format: "value", value },
            { source: "relative.json", format: "json", text: JSON.stringify(value, null, 2) },
            { source: "/d/sub/dropkit.config.json", format: "json", text: JSON.stringify(value) },
          ),
        ),
    ),
    presetFiles: fc.oneof(
      fc.constant(undefined),
      fc.array(
        fc.record({
          ref: fc.constantFrom("mine", "./p.json", "other"),
          name: fc.constantFrom("mine", "p", "other"),
          source: fc.constantFrom("/d/presets/mine.json", "/d/p.json", "/d/presets/other.json"),
          format: fc.constant("json"),
          text: fc.constantFrom(
            ...F.validPresets,
            '{"theme": "sea", "modules": {"only": ["shop-*"]}, "detect": ["*.md"]}',
            '{"cache": {"enabled": false}}',
          ),
        }),
        { maxLength: 3 },
      ),
    ),
    presetNames: fc.array(fc.constantFrom("mine", "other", "p"), { maxLength: 2 }),
    files: fc.oneof(
      fc.constant(undefined),
      fc.array(fc.constantFrom("a.zip", "x/y.json", "README.md", "deep/b.json", "c.md"), { maxLength: 4 }),
    ),
    detected: fc.oneof(
      fc.constant(undefined),
      fc.dictionary(fc.constantFrom("standard", "/d/presets/mine.json", "/d/p.json"), fc.constantFrom("*.zip", null), {
        maxKeys: 3,
        noNullPrototype: true,
      }),
    ),
    archives: fc.oneof(
      fc.constant(undefined),
      fc.array(
        fc.constantFrom(
          "blog.zip",
          "shop-a.zip",
          "test-x.zip",
          "old-y.zip",
          "ocean-theme.zip",
          "forest-theme.ZIP",
          "sea.zip",
          "caf\u00e9 au lait.zip",
          "a b.zip",
          "notes.txt",
          "module-1.zip",
        ),
        { maxLength: 7 },
      ),
    ),
    explain: fc.boolean(),
  },
  { requiredKeys: ["op", "cwd"] },
);

/** A plain host on one instance of `wasm`: the request's bytes in, the status and the response text out. */
function host(wasm: Uint8Array<ArrayBuffer>): (bytes: Uint8Array) => { status: number; text: string } {
  const e = wasmExports(wasm);
  return (bytes) => {
    const ptr = e.dk_alloc(bytes.length) >>> 0;
    new Uint8Array(e.memory.buffer, ptr, bytes.length).set(bytes);
    const status = e.dk_call(ptr, bytes.length) as number;
    e.dk_free(ptr);
    return { status, text: decoder.decode(new Uint8Array(e.memory.buffer, e.dk_out_ptr() >>> 0, e.dk_out_len() >>> 0)) };
  };
}

function sha(bytes: Uint8Array): string {
  return createHash("sha1").update(bytes).digest("hex");
}

function record(name: string, wasmFile: string): void {
  const call = host(fs.readFileSync(wasmFile));
  const lines: string[] = [];
  for (const c of corpus()) {
    const { status, text } = call(c.bytes);
    lines.push(JSON.stringify({ group: c.group, sha: sha(c.bytes), status, text } satisfies Recorded));
  }
  const file = path.join(records, `${name}.ndjson.gz`);
  fs.mkdirSync(records, { recursive: true });
  fs.writeFileSync(file, gzipSync(lines.join("\n") + "\n", { level: 9 }));
  console.log(`recorded ${lines.length} answers of ${wasmFile} in ${path.relative(root, file)}`);
}

/** Compares a build with one record; the `reference` record's answers go through the intended shape change first. */
function check(name: string, wasmFile: string): number {
  const saved = gunzipSync(fs.readFileSync(path.join(records, `${name}.ndjson.gz`)))
    .toString("utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Recorded);
  const cases = corpus();
  if (cases.length !== saved.length) throw new Error(`the corpus has ${cases.length} requests, the record ${saved.length}: record again`);
  const call = host(fs.readFileSync(wasmFile));
  const groups = new Map<string, { total: number; failed: number }>();
  const shown: string[] = [];
  let failed = 0;
  cases.forEach((c, i) => {
    const old = saved[i]!;
    if (old.sha !== sha(c.bytes)) throw new Error(`request ${i} (${c.group}) is not the recorded one: record again`);
    const got = call(c.bytes);
    const g = groups.get(c.group) ?? { total: 0, failed: 0 };
    g.total++;
    groups.set(c.group, g);
    const expected = name === "reference" ? expectedAnswer(lenient.decode(c.bytes), old.status, old.text, got.text) : old.text;
    // Issue 39's codes: a record from before them, and one after, compare with them taken out; none may lack one.
    const now = withoutCodes(got.text);
    const before = withoutCodes(expected).text;
    if (got.status === old.status && now.uncoded === 0 && now.text === before) return;
    g.failed++;
    failed++;
    if (shown.length < 8) shown.push(describeDifference(i, c, old.status, got.status, expected, got.text));
  });
  for (const [group, g] of groups) console.log(`${g.failed === 0 ? "ok  " : "FAIL"} ${group}: ${g.total - g.failed}/${g.total}`);
  for (const s of shown) console.log(s);
  console.log(failed === 0 ? `${name}: all ${cases.length} answers as expected` : `${name}: ${failed} of ${cases.length} answers differ`);
  return failed === 0 ? 0 : 1;
}

function describeDifference(i: number, c: Case, oldStatus: number, newStatus: number, expected: string, got: string): string {
  let at = 0;
  while (at < expected.length && expected[at] === got[at]) at++;
  const request = lenient.decode(c.bytes.slice(0, 300));
  return [
    `--- request ${i} (${c.group}), status ${oldStatus} -> ${newStatus}: ${request}`,
    `    expected ...${expected.slice(Math.max(0, at - 80), at + 160)}`,
    `    got      ...${got.slice(Math.max(0, at - 80), at + 160)}`,
  ].join("\n");
}

const [command, ...args] = process.argv.slice(2);
if (command === "record" && args.length === 2) {
  record(args[0]!, args[1]!);
} else if (command === "check" && args.length <= 1) {
  const wasmFile = args[0] ?? path.join(root, "dist/dropkit.wasm");
  const names = fs
    .readdirSync(records)
    .filter((f) => f.endsWith(".ndjson.gz"))
    .map((f) => f.slice(0, -".ndjson.gz".length))
    .sort();
  if (names.length === 0) throw new Error(`no record in ${records}: record one first`);
  process.exitCode = Math.max(...names.map((n) => check(n, wasmFile)));
} else {
  console.error("usage: oracle.ts record <name> <module.wasm> | check [candidate.wasm]");
  process.exitCode = 64;
}
