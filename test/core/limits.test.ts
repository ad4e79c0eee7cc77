// Tests for the core's limits: large configs, hostile nesting, and bounded memory over many calls on one instance.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as M from "../../assembly/schema/messages.js";
import { openAbi } from "../../scripts/lib/abi.js";
import { hugeConfigText } from "../../scripts/lib/inputs.js";
import { only, parse, resolveDone, resolveOk, validate } from "../helpers/core.js";

describe("size", () => {
  test("a 1 MB config of tens of thousands of module globs validates, through the binding and the raw ABI", () => {
    const globs = Array.from({ length: 60_000 }, (_, i) => (i % 3 === 0 ? `module-${i}-*` : `module-${i}`));
    const text = JSON.stringify({ schema: 1, modules: { include: globs, exclude: globs.slice(0, 1000) } }, null, 1);
    assert.ok(text.length >= 1_000_000, `${text.length} bytes`);
    const started = performance.now();
    const r = validate(text);
    // Linear work: a quadratic duplicate check once made this take minutes.
    assert.ok(performance.now() - started < 10_000, `validate took ${Math.round(performance.now() - started)} ms`);
    assert.equal(r.ok, true);
    assert.equal((r.config as { modules: { include: string[] } }).modules.include.length, 60_000);

    const { status, text: out } = openAbi().call(JSON.stringify({ op: "validate", text }));
    assert.equal(status, 0);
    assert.equal(JSON.parse(out).ok, true);
  });

  test("a resolve with a 1 MB config merges its lists in linear time", () => {
    const globs = Array.from({ length: 60_000 }, (_, i) => `module-${i}`);
    const started = performance.now();
    const r = resolveOk({
      cwd: "/d",
      flags: { exclude: ["module-1"] },
      env: { DROPKIT_PRESETS: "standard", DROPKIT_MODULES_EXCLUDE: "module-2,extra" },
      config: { source: "/d/dropkit.config.json", format: "json", text: JSON.stringify({ modules: { exclude: globs } }) },
      archives: ["module-0.zip", "module-1.zip", "other.zip"],
    });
    assert.ok(performance.now() - started < 10_000, `resolve took ${Math.round(performance.now() - started)} ms`);
    assert.equal(r.config!.modules.exclude.length, 60_000 + 3);
    assert.deepEqual(r.config!.modules.exclude.slice(0, 3), ["test-*", "dev-*", "module-0"]);
    assert.deepEqual(r.config!.modules.exclude.slice(-1), ["extra"]);
    assert.deepEqual(r.plan!.modules, ["other"]);
  });

  test("a 1 MB config with one bad glob at the end reports it with its position", () => {
    const globs = Array.from({ length: 70_000 }, (_, i) => `m${i}`);
    globs.push("bad*glob");
    const text = JSON.stringify({ modules: { only: globs } });
    const e = only(validate(text).errors);
    assert.equal(e.path, "modules.only[70000]");
    assert.equal(e.offset, text.indexOf('"bad*glob"'));
  });
});

describe("problems listed per document", () => {
  const notListed =
    /^(\d+) more problems in (.+) are not listed \(only the first 100 of a file are\): fix these and run again to see the rest\.$/;

  test("a 1 MB config of 350,000 bad values lists its first 100 problems, then how many more, in bounded memory", () => {
    const text = JSON.stringify({ exclude: Array.from({ length: 350_000 }, () => 1) });
    const abi = openAbi();
    const { status, text: out } = abi.call(JSON.stringify({ op: "validate", text, source: "/d/dropkit.config.json" }));
    assert.equal(status, 0);
    const errors = JSON.parse(out).errors as Array<{ name: string; path: string; source: string; message: string; line?: number }>;
    assert.equal(errors.length, 101);
    assert.deepEqual(
      errors.slice(0, 100).map((e) => e.path),
      Array.from({ length: 100 }, (_, i) => `exclude[${i}]`),
    );
    const last = errors[100]!;
    assert.deepEqual([last.name, last.path, last.source, last.line], ["SchemaValidationError", "", "/d/dropkit.config.json", undefined]);
    assert.deepEqual(notListed.exec(last.message)?.slice(1), ["349900", "/d/dropkit.config.json"]);
    // Each problem used to cost about 1.6 KB of core memory and 350 bytes of response: over 1 GB here.
    assert.ok(abi.memoryBytes() <= 512 * 1024 * 1024, `memory ${abi.memoryBytes()}`);
    assert.ok(out.length < 100_000, `response ${out.length} bytes`);
  });

  test("unknown keys (whose suggestions cost most), duplicates and problems per preset file are capped the same way", () => {
    const keys = "{" + Array.from({ length: 50_000 }, (_, i) => `"k${i}": 1`).join(", ") + "}";
    const unknown = validate(keys).errors;
    assert.equal(unknown.length, 101);
    assert.deepEqual([unknown[99]!.code, unknown[99]!.path, unknown[100]!.code], ["UnknownKey", "k99", "MoreProblems"]);
    assert.equal(notListed.exec(unknown[100]!.message)?.[1], "49900");

    const dups = parse("{" + Array.from({ length: 300 }, () => '"a": 1').join(", ") + "}").errors;
    assert.equal(dups.length, 101);
    assert.equal(notListed.exec(dups[100]!.message)?.[1], "199");

    // A package.json: only duplicates inside the dropkit key count, listed or not.
    const many = (n: number, entry: string) => Array.from({ length: n }, () => entry).join(", ");
    assert.equal(validate(`{"scripts": {${many(300, '"a": 1')}}, "dropkit": {"theme": "t"}}`, { format: "package.json" }).ok, true);
    const inKey = validate(`{"scripts": {${many(300, '"a": 1')}}, "dropkit": {${many(150, '"theme": "t"')}}}`, {
      format: "package.json",
    }).errors;
    assert.equal(inKey.length, 101);
    assert.ok(inKey.slice(0, 100).every((e) => e.path === "theme" && e.code === "DuplicateKey"));
    assert.equal(notListed.exec(inKey[100]!.message)?.[1], "49");

    // Two preset files of 150 problems each: each lists 100 and counts its own rest.
    const bad = JSON.stringify({ exclude: Array.from({ length: 150 }, () => 1) });
    const r = resolveDone({
      cwd: "/d",
      config: { source: "/d/c.json", format: "json", text: '{"presets":["a","b"]}' },
      presetFiles: ["a", "b"].map((name) => ({ source: `/d/${name}.json`, format: "json" as const, text: bad, name, ref: name })),
      presetNames: ["a", "b"],
    });
    const summaries = r.errors.filter((e) => notListed.test(e.message)).map((e) => [e.source, notListed.exec(e.message)![1]]);
    assert.deepEqual(summaries, [
      ["/d/a.json", "50"],
      ["/d/b.json", "50"],
    ]);
    assert.equal(r.errors.length, 202);
  });

  test("unknown DROPKIT_* variables: the first 100 get a warning each, the rest one that counts them", () => {
    const vars = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`DROPKIT_X${i}`, "1"]));
    const abi = openAbi();
    // 250,000 variables (a 6 MiB environment): each suggestion used to cost about 32 KB of core memory, 8 GB here.
    const { status, text } = abi.call(JSON.stringify({ op: "resolve", cwd: "/d", env: vars(250_000) }));
    assert.equal(status, 0);
    const r = JSON.parse(text) as { ok: boolean; warnings: Array<{ message: string; source: string }> };
    assert.equal(r.ok, true);
    assert.equal(r.warnings.length, 101);
    assert.match(r.warnings[99]!.message, /^Unknown environment variable DROPKIT_X99 is ignored/);
    assert.deepEqual(r.warnings[100], {
      message: "249900 more unknown DROPKIT_* variables are ignored (not listed one by one).",
      source: "environment",
      code: "UnknownVariable",
    });
    assert.ok(abi.memoryBytes() <= 256 * 1024 * 1024, `memory ${abi.memoryBytes()}`);
    assert.equal(resolveOk({ cwd: "/d", env: vars(100), files: [] }).warnings.length, 100);
  });

  test("100 problems are listed as they are, with no summary", () => {
    const errors = validate(JSON.stringify({ exclude: Array.from({ length: 100 }, () => 1) })).errors;
    assert.equal(errors.length, 100);
    assert.ok(errors.every((e) => e.path.startsWith("exclude[")));
  });
});

describe("nesting", () => {
  const deep = 100_000;

  test("100,000-deep arrays are rejected with an error record, not a trap (binding)", () => {
    const e = only(validate("[".repeat(deep) + "]".repeat(deep)).errors);
    assert.deepEqual([e.name, e.message, e.column], ["ConfigSyntaxError", M.MSG_TOO_DEEP, 129]);
  });

  test("100,000-deep objects and unclosed arrays through the raw ABI", () => {
    const abi = openAbi();
    for (const text of ['{"a":'.repeat(deep) + "1" + "}".repeat(deep), "[".repeat(deep)]) {
      const { status, text: out } = abi.call(JSON.stringify({ op: "parse", text }));
      assert.equal(status, 0);
      const e = only(JSON.parse(out).errors as Array<{ name: string; message: string }>);
      assert.deepEqual([e.name, e.message], ["ConfigSyntaxError", M.MSG_TOO_DEEP]);
    }
  });

  test("a value source nested 128 levels, as deep as a JSON config may be, fits in a request as config and as preset file", () => {
    // The host's limit for .ts/.js values (src/config/loader.ts) is the documents' 128: the request's envelope adds up to 3.
    let value: unknown = "x";
    for (let i = 0; i < 127; i++) value = [value];
    const abi = openAbi();
    const source = (name: string) => ({ source: `/d/${name}.ts`, format: "value", value: { theme: value } });
    for (const request of [
      { op: "resolve", cwd: "/d", config: source("dropkit.config") },
      {
        op: "resolve",
        cwd: "/d",
        presetFiles: [{ ...source("mine"), name: "mine", ref: "mine" }],
        presetNames: ["mine"],
        config: { source: "/d/c.json", format: "json", text: '{"presets":["mine"]}' },
      },
    ]) {
      const { status, text } = abi.call(JSON.stringify(request));
      assert.equal(status, 0, text);
      const e = only(JSON.parse(text).errors as Array<{ name: string; path: string }>);
      assert.deepEqual([e.name, e.path], ["SchemaValidationError", "theme"]);
    }
    // A JSON text of 129 levels is still too deep.
    assert.equal(only(validate("[".repeat(129) + "]".repeat(129)).errors).message, M.MSG_TOO_DEEP);
  });

  test("a 100,000-deep request itself is status 1, not a trap", () => {
    const abi = openAbi();
    const { status, text } = abi.call("[".repeat(deep) + "]".repeat(deep));
    assert.equal(status, 1);
    assert.match(JSON.parse(text).errors[0].message, new RegExp(`^${M.MSG_REQUEST_NOT_JSON}: ${M.MSG_TOO_DEEP}`));
  });
});

describe("memory", () => {
  test("one validate of a large config grows memory by at most 8 times the text (docs/embedding.md)", () => {
    // The bench's 1.25 MB config (scripts/lib/inputs.ts): 60,000 globs, echoed back in the answer.
    const text = hugeConfigText();
    for (const request of [
      { op: "validate", text },
      { op: "parse", text },
    ]) {
      const abi = openAbi();
      const before = abi.memoryBytes();
      assert.equal(abi.call(JSON.stringify(request)).status, 0);
      const grown = abi.memoryBytes() - before;
      assert.ok(
        grown <= 8 * text.length,
        `${request.op}: memory grew by ${grown} bytes, ${(grown / text.length).toFixed(2)} times the text`,
      );
    }
  });

  test("100,000 calls on one instance do not grow memory without bound", () => {
    const abi = openAbi();
    const requests = [
      JSON.stringify({ op: "parse", text: '{"a": [1, 2.5, "x\\u00e9"], "b": {"c": null}}' }),
      JSON.stringify({ op: "validate", text: '{"theme": "ocean", "modules": {"exclude": ["test-*", "a*b"]}, "themes": 1}' }),
      JSON.stringify({
        op: "resolve",
        cwd: "/d",
        flags: { theme: "ocean", exclude: ["old-*"] },
        env: { DROPKIT_CACHE_ENABLED: "no", DROPKIT_X: "1" },
        files: ["a.zip"],
        archives: ["ocean-theme.zip", "blog.zip", "old-a.zip", "test-b.zip"],
      }),
      JSON.stringify({ op: "presets" }),
      "not json",
    ];
    const calls = 100_000;
    const warmup = 2_000;
    let after = 0;
    for (let i = 0; i < calls; i++) {
      const { status } = abi.call(requests[i % requests.length]);
      if (status !== (i % requests.length === 4 ? 1 : 0)) assert.fail(`call ${i}: status ${status}`);
      if (i === warmup) after = abi.memoryBytes();
    }
    const end = abi.memoryBytes();
    // Every call frees its garbage: after warm-up the memory stays where it was (a few pages of slack at most).
    assert.ok(end <= after + 4 * 65536, `memory grew from ${after} to ${end} bytes`);
    assert.ok(end <= 4 * 1024 * 1024, `memory is ${end} bytes`);
  });
});
