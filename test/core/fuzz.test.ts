// Property-based fuzzing of the wasm core through the raw dk_* ABI: never a trap, always a well-formed, deterministic answer.
//
// FUZZ_RUNS scales every property (default 1: about 20,000 cases, under a minute); FUZZ_SEED replays a run.
// `npm run fuzz` runs the same properties for minutes (scripts/fuzz.ts).

import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import fc from "fast-check";
import * as F from "../../scripts/lib/fuzz.js";

const scale = Number(process.env.FUZZ_RUNS ?? "1");
const seed = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
const hosts = F.openHosts();
let cases = 0;

/** Runs a property with this file's seed; a failure names the seed and how to replay it. */
function check<T>(name: string, arbitrary: fc.Arbitrary<T>, runs: number, predicate: (value: T) => void): void {
  const numRuns = Math.max(1, Math.round(runs * scale));
  cases += numRuns;
  try {
    fc.assert(fc.property(arbitrary, predicate), { numRuns, seed, endOnFailure: true });
  } catch (error) {
    (error as Error).message = `${name}: replay with FUZZ_SEED=${seed} (fast-check seed ${seed})\n${(error as Error).message}`;
    throw error;
  }
}

after(() => {
  // Not an assertion: the count for docs/reliability.md, visible in the TAP output.
  console.log(`# fuzz: ${cases} cases, ${hosts.calls} distinct requests, seed ${seed}, memory ${hosts.main.memoryBytes()} bytes`);
});

describe("JSON: the core parses exactly what JSON.parse parses", () => {
  test("arbitrary JSON values, formatted at random, parse to the same value (differential)", () => {
    check("differential", F.jsonText, 6000, (text) => {
      F.differential(hosts, text);
    });
  });

  test("arbitrary text: the core rejects exactly what JSON.parse rejects", () => {
    const text = fc.oneof(
      fc.string({ unit: "binary", maxLength: 30 }),
      fc.string({ unit: fc.constantFrom(...'{}[]:,"\\ 0123456789-+.eEtrufalsn\n\tu'), maxLength: 30 }),
    );
    check("arbitrary text", text, 2000, (t) => {
      F.differential(hosts, t);
    });
  });

  test("duplicate keys are errors, each naming where the first one is, and parsing goes on", () => {
    const entries = fc.array(fc.tuple(fc.constantFrom("a", "b", "__proto__", "\u00e9", "a\u0000"), fc.integer()), {
      minLength: 2,
      maxLength: 8,
    });
    check("duplicates", entries, 500, (pairs) => {
      const text = "{" + pairs.map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(", ") + "}";
      const seen = new Map<string, number>();
      let duplicates = 0;
      for (const [k] of pairs) {
        if (seen.has(k)) duplicates++;
        seen.set(k, (seen.get(k) ?? 0) + 1);
      }
      const { response } = F.callChecked(hosts, F.request({ op: "parse", text }, text));
      assert.equal(response.ok, duplicates === 0);
      assert.equal(response.errors.length, duplicates, text);
      for (const e of response.errors) {
        assert.equal(e.code, "DuplicateKey");
        assert.match(e.message, /also set at line 1, column \d+/);
      }
    });
  });
});

describe("configs: mutated, config-shaped and hostile", () => {
  test("mutated valid configs, presets and package.json files: parse agrees with JSON.parse, validate answers", () => {
    check("mutated", F.mutatedConfig, 4000, (m) => {
      const parsed = F.differential(hosts, m.text);
      const source = m.format === "package.json" ? "/d/package.json" : "/d/dropkit.config.json";
      const { status, response } = F.callChecked(
        hosts,
        F.request({ op: "validate", text: m.text, format: m.format, kind: m.kind, source }, m.text, source),
      );
      assert.equal(status, 0);
      // A text that does not parse is never a valid config.
      if (!parsed) assert.equal(response.ok, false);
    });
  });

  test("config-shaped values with every key of the schema and wrong values: validate as config and preset", () => {
    check("config-shaped", fc.tuple(F.configText, fc.constantFrom("config", "preset")), 2500, ([text, kind]) => {
      const { status, response } = F.callChecked(hosts, F.request({ op: "validate", text, kind }, text));
      assert.equal(status, 0);
      if (response.ok) assert.deepEqual(Object.keys(response).sort(), ["config", "errors", "ok", "warnings"]);
      // Every problem of the text is reported at a position in it.
      for (const e of response.errors) assert.equal(typeof e.line, "number", JSON.stringify(e));
    });
  });

  test("resolve with arbitrary flags, environment, config in every form, preset files, files and archives", () => {
    check("resolve", F.resolveRequest, 2500, (r) => {
      const config = r.config as { text?: string; source?: string } | undefined;
      const { status, response } = F.callChecked(hosts, F.request({ op: "resolve", ...r }, config?.text, config?.source));
      // A flag of the wrong shape is refused as a request (status 2); anything else is answered.
      assert.ok(status === 0 || status === 2, `status ${status}`);
      if (status !== 0) return;
      assert.ok(["presets", "detect", "done"].includes(response.stage), `stage ${response.stage}`);
      assert.ok(response.logFormat === "text" || response.logFormat === "json", `logFormat ${response.logFormat}`);
      if (response.stage === "done") {
        // With problems or not, the answer has the config and every leaf's origin; with problems, the keys they are about.
        assert.equal(Object.keys(response.origins).length, 13);
        assert.ok(response.config && typeof response.config === "object", "a done answer without its config");
        for (const key of ["modules.include", "modules.exclude", "modules.only"]) {
          const list = key.split(".").reduce((v: any, k) => v[k], response.config);
          assert.equal(response.origins[key].entries.length, list.length, `${key}: one origin per item`);
        }
        assert.equal(Array.isArray(response.invalid), !response.ok, "invalid comes with problems, and only then");
        if (response.ok && r.archives !== undefined) assert.ok(response.plan, "archives were sent, but no plan came back");
      }
    });
  });
});

describe("requests: arbitrary bytes", () => {
  test("any byte string as a request: status 1 or 2 with a RequestError, or an answer", () => {
    check("bytes", F.requestBytes, 3000, (bytes) => {
      const { status } = F.callChecked(hosts, { bytes });
      assert.ok([0, 1, 2].includes(status));
    });
  });

  test("requests of the right shape with fields of any type", () => {
    check("fields", F.requestOfAnyFields, 1500, (r) => {
      F.callChecked(hosts, F.request(r));
    });
  });
});

describe("huge and deep inputs", () => {
  test("nesting of any depth and mix, closed or not: parsed or a ConfigSyntaxError, never a trap", () => {
    const shape = fc.record({
      depth: fc.integer({ min: 1, max: 3000 }),
      objects: fc.boolean(),
      closed: fc.boolean(),
      inner: fc.constantFrom("", "1", '"x"', "[]", "{}"),
    });
    check("deep", shape, 150, ({ depth, objects, closed, inner }) => {
      const open = objects ? '{"a":' : "[";
      const close = objects ? "}" : "]";
      const body = objects && inner === "" ? "0" : inner;
      const text = open.repeat(depth) + body + (closed ? close.repeat(depth) : "");
      F.differential(hosts, text);
    });
  });

  const huge: Array<[string, () => string]> = [
    ["a 2 MB string", () => JSON.stringify("x".repeat(2_000_000))],
    ["a string of 200,000 escapes", () => '"' + "\\n\\u00e9\\ud83d\\ude00".repeat(50_000) + '"'],
    ["a number with 100,000 digits", () => "1" + "0".repeat(100_000)],
    ["a number with a 100,000-digit fraction and exponent", () => "0." + "9".repeat(100_000) + "e-5"],
    ["50,000 distinct keys", () => JSON.stringify(Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i])))],
    ["an array of 200,000 items", () => JSON.stringify(Array.from({ length: 200_000 }, (_, i) => i % 7))],
    ["a line of 1 MB of spaces before the value", () => " ".repeat(1_000_000) + "{}"],
    ["100,000 lines", () => "[\n" + Array.from({ length: 100_000 }, () => "1").join(",\n") + "\n]"],
    ["10,000 duplicate keys", () => "{" + Array.from({ length: 10_000 }, () => '"a": 1').join(",") + "}"],
    ["128 levels (the limit)", () => "[".repeat(128) + "]".repeat(128)],
    ["129 levels (one past it)", () => "[".repeat(129) + "]".repeat(129)],
    ["200,000 unclosed brackets", () => "[".repeat(200_000)],
    ["an unterminated 1 MB string", () => '"' + "y".repeat(1_000_000)],
  ];
  for (const [name, make] of huge) {
    test(`${name}: the differential holds, in memory linear in the input and output`, () => {
      cases++;
      // A fresh pair of instances each: memory only grows, so the bound is per input.
      const own = F.openHosts();
      const text = make();
      F.differential(own, text);
      checkMemory(own, text);
    });
  }

  test("a 1 MB config of globs validates as a config and a preset, and resolves", () => {
    const globs = Array.from({ length: 50_000 }, (_, i) => (i % 2 ? `m${i}-*` : `m${i}`));
    const text = JSON.stringify({ modules: { include: globs }, exclude: globs.slice(0, 5000) });
    const own = F.openHosts();
    for (const kind of ["config", "preset"]) {
      cases++;
      assert.equal(F.callChecked(own, F.request({ op: "validate", text, kind }, text)).response.ok, true);
    }
    cases++;
    const r = F.callChecked(
      own,
      F.request(
        {
          op: "resolve",
          cwd: "/d",
          env: { DROPKIT_MODULES_ONLY: globs.join(",") },
          config: { source: "/d/c.json", format: "json", text },
          presetFiles: [],
          files: [],
          archives: ["m0.zip", "m1-x.zip"],
        },
        text,
        "/d/c.json",
      ),
    );
    assert.equal(r.response.ok, true);
    checkMemory(own, r.raw);
  });
});

/**
 * The memory a huge input may take: the core frees nothing during a call, so a call's garbage adds up
 * until it returns (measured: about 4.5 bytes of memory per byte of a 2 MB string, 14 per byte of an array of
 * one-digit numbers, about 50 per byte of a config a resolve keeps a string and a source for every value of).
 */
function checkMemory(own: F.FuzzHosts, ...texts: string[]): void {
  const biggest = Math.max(own.largestRequest, ...texts.map((t) => t.length), own.largestResponse);
  const bound = 128 * biggest + 4 * 2 ** 20;
  assert.ok(own.main.memoryBytes() <= bound, `${own.main.memoryBytes()} bytes of memory for ${biggest} bytes in or out`);
}

describe("memory", () => {
  test("memory stays bounded: a second pass over the same requests grows nothing", () => {
    const requests = fc.sample(
      fc.oneof(
        F.jsonText.map((text) => F.request({ op: "parse", text }, text)),
        F.mutatedConfig.map((m) => F.request({ op: "validate", text: m.text, format: m.format, kind: m.kind }, m.text)),
        F.resolveRequest.map((r) => F.request({ op: "resolve", ...r })),
        F.requestBytes.map((bytes) => ({ bytes })),
      ),
      { numRuns: Math.max(50, Math.round(600 * scale)), seed },
    );
    const host = F.openHosts();
    for (const r of requests) F.callChecked(host, r);
    const afterFirst = host.main.memoryBytes();
    for (let pass = 0; pass < 3; pass++) for (const r of requests) F.callChecked(host, r);
    cases += requests.length;
    assert.equal(host.main.memoryBytes(), afterFirst, "memory grew while repeating requests it had already answered");
  });

  test("dk_alloc/dk_free of every size, freed or not freed in any order, never traps or grows without bound", () => {
    const raw = F.openRaw();
    check("alloc", fc.array(fc.tuple(fc.integer({ min: -5, max: 70_000 }), fc.boolean()), { maxLength: 30 }), 200, (ops) => {
      raw.allocFree(ops);
    });
    // Each case frees what it kept at its end, so all the cases together need no more than one case's worth.
    assert.ok(raw.memoryBytes() <= 8 * 2 ** 20, `${raw.memoryBytes()} bytes`);
  });

  test("after every generated case on one instance, its memory is within a fixed bound", () => {
    // Memory grows to fit the largest request and response so far and stays there (docs/embedding.md,
    // "Memory rules"); the generated cases are small, so thousands of them must fit in a few MiB.
    assert.ok(hosts.main.memoryBytes() <= 16 * 2 ** 20, `${hosts.main.memoryBytes()} bytes after ${hosts.calls} requests`);
    assert.ok(hosts.shadow.memoryBytes() <= 16 * 2 ** 20, `${hosts.shadow.memoryBytes()} bytes after ${hosts.calls} requests`);
    assert.ok(cases >= 20_000 * Math.min(1, scale), `only ${cases} cases`);
  });
});

describe("the checks themselves", () => {
  test("config texts with hostile entries are JSON, at the top and in modules, empty or not", () => {
    // Cases that send a config as a value parse its text first; an empty `modules` once made it invalid.
    const values: Array<Record<string, unknown>> = [{}, { theme: "{" }, { modules: {} }, { modules: { include: [] } }, { modules: [] }];
    for (const value of values) {
      for (const nested of [false, true]) {
        const parsed = JSON.parse(F.withEntries(value, F.hostileEntries, nested));
        const holder = nested && typeof value.modules === "object" && !Array.isArray(value.modules) ? parsed.modules : parsed;
        assert.deepEqual(Object.getOwnPropertyNames(holder).slice(0, 3), ["__proto__", "constructor", "prototype"], JSON.stringify(value));
      }
    }
  });

  test("a wrong position, a span past the end, a missing path and a differential mismatch are caught", () => {
    const text = '{\n  "a": x}';
    const good = {
      name: "ConfigSyntaxError",
      exitCode: 65,
      path: "a",
      source: "<input>:2:8",
      file: "<input>",
      line: 2,
      column: 8,
      offset: 9,
      length: 1,
      message: "m",
    };
    F.checkError(good, { bytes: new Uint8Array(), text });
    for (const bad of [{ column: 7, source: "<input>:2:7" }, { length: 5 }, { path: undefined }, { exitCode: 64 }, { offset: 99 }]) {
      assert.throws(() => F.checkError({ ...good, ...bad }, { bytes: new Uint8Array(), text }), JSON.stringify(bad));
    }
    assert.throws(() => F.assertSameJson({ a: [1, 0] }, { a: [1, -0] }));
    assert.throws(() => F.assertSameJson({ b: 1, a: 2 }, { a: 2, b: 1 }));
    assert.deepEqual(F.inspect('{"a": {"b": 1, "b": [[]]}}'), { depth: 4, duplicates: true });
    assert.deepEqual(F.lineColumn("\uFEFFab\r\ncd", 5), { line: 2, column: 1 });
  });
});
