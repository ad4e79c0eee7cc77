// Tests for src/config/plaindata.ts: what a .ts/.js config exports, as plain JSON data or every problem with its path.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DropkitError } from "../../src/errors.js";
import { limits } from "../../src/files/limits.js";
import { toJsonValue } from "../../src/config/plaindata.js";

describe("toJsonValue: only plain JSON data", () => {
  test("plain data is copied", () => {
    const value = { a: "s", b: 1.5, c: -0, d: true, e: null, f: [1, [2, { g: "h" }]], i: Object.assign(Object.create(null), { j: 1 }) };
    const out = toJsonValue(value, "/x.ts");
    assert.deepEqual(out, { a: "s", b: 1.5, c: -0, d: true, e: null, f: [1, [2, { g: "h" }]], i: { j: 1 } });
    assert.notEqual((out as { f: unknown }).f, value.f, "a copy, not the same array");
  });

  test("a shared (non-cyclic) reference is fine", () => {
    const shared = ["a"];
    assert.deepEqual(toJsonValue({ x: shared, y: { z: shared } }, "/x.ts"), { x: ["a"], y: { z: ["a"] } });
  });

  test("each non-JSON value kind is reported with its dotted path, all at once", () => {
    class Custom {}
    const sparse = ["a"];
    sparse[2] = "c";
    const value = {
      theme: () => "x",
      hooks: { onFailure: undefined },
      modules: { include: ["blog", "shop", Symbol("s"), NaN, Infinity, -Infinity, 10n] },
      when: new Date(0),
      map: new Map(),
      re: /x/,
      set: new Set(),
      custom: new Custom(),
      sparse,
      [Symbol("key")]: 1,
      fine: "ok",
    };
    let error: DropkitError | undefined;
    try {
      toJsonValue(value, "/abs/dropkit.config.ts");
    } catch (e) {
      error = e as DropkitError;
    }
    assert.ok(error instanceof DropkitError);
    assert.equal(error.name, "SchemaValidationError");
    assert.equal(error.exitCode, 65);
    const byPath = Object.fromEntries(error.diagnostics.map((d) => [d.path, d.message]));
    const expected: Record<string, RegExp> = {
      theme: /is a function/,
      "hooks.onFailure": /is undefined/,
      "modules.include[2]": /Symbol\(s\)/,
      "modules.include[3]": /NaN/,
      "modules.include[4]": /Infinity/,
      "modules.include[5]": /-Infinity/,
      "modules.include[6]": /bigint 10n/,
      when: /a Date/,
      map: /a Map/,
      re: /a RegExp/,
      set: /a Set/,
      custom: /a Custom/,
      "sparse[1]": /empty slot/,
      "[Symbol(key)]": /symbol key/,
    };
    assert.deepEqual(Object.keys(byPath).sort(), Object.keys(expected).sort());
    for (const [p, pattern] of Object.entries(expected)) {
      assert.match(byPath[p]!, pattern, p);
      assert.ok(byPath[p]!.startsWith(p), `message names the path: ${byPath[p]}`);
    }
    for (const d of error.diagnostics) {
      assert.equal(d.name, "SchemaValidationError");
      assert.equal(d.file, "/abs/dropkit.config.ts");
    }
  });

  test("a cycle is reported where it closes, naming its target", () => {
    const config: Record<string, unknown> = { modules: { include: ["a"] } };
    (config.modules as Record<string, unknown>).self = config.modules;
    (config.modules as { include: unknown[] }).include.push(config);
    let error: DropkitError | undefined;
    try {
      toJsonValue(config, "/x.ts");
    } catch (e) {
      error = e as DropkitError;
    }
    assert.ok(error);
    assert.deepEqual(
      error.diagnostics.map((d) => d.path),
      ["modules.include[1]", "modules.self"],
    );
    assert.match(error.diagnostics[0]!.message, /refers back to the top-level object/);
    assert.match(error.diagnostics[1]!.message, /refers back to modules: a cycle/);
  });

  test("__proto__, constructor and prototype are copied as plain keys without polluting", () => {
    const evil = JSON.parse(
      '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "prototype": 1, "a": {"__proto__": {"polluted": "deep"}}}',
    );
    const out = toJsonValue(evil, "/x.ts") as Record<string, unknown>;
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.deepEqual(Object.keys(out), ["__proto__", "constructor", "prototype", "a"]);
    assert.equal(Object.getOwnPropertyDescriptor(out, "__proto__")!.value.polluted, "yes");
    assert.equal((out as { polluted?: unknown }).polluted, undefined);
    const a = out.a as object;
    assert.equal(Object.getPrototypeOf(a), Object.prototype);
    assert.deepEqual(Object.keys(a), ["__proto__"]);
    // Round-trips to the core with the key intact.
    assert.equal(JSON.stringify(out), JSON.stringify(evil));
  });

  test("a getter that throws is reported, not a crash", () => {
    const value = {
      get theme(): string {
        throw new Error("no");
      },
    };
    assert.throws(
      () => toJsonValue(value, "/x.ts"),
      (e: DropkitError) => e.diagnostics[0]!.path === "theme" && /threw: no/.test(e.message),
    );
  });

  test("an export nested 10,000 deep is one error with its path at level 129, not a stack overflow; 128 levels pass", () => {
    const nest = (levels: number) => {
      let v: unknown = 1;
      for (let i = 0; i < levels; i++) v = { a: v };
      return v;
    };
    assert.doesNotThrow(() => toJsonValue(nest(limits.depth), "/x.ts"));
    for (const levels of [limits.depth + 1, 10_000]) {
      const e = assert.throws(
        () => toJsonValue(nest(levels), "/x.ts"),
        (error: DropkitError) => {
          assert.equal(error.diagnostics.length, 1);
          const [d] = error.diagnostics;
          assert.equal(d!.name, "SchemaValidationError");
          assert.equal(d!.path, Array(128).fill("a").join("."));
          assert.match(d!.message, /is nested deeper than 128 levels/);
          return true;
        },
      );
      void e;
    }
  });

  test("past 100 bad values, one last problem counts the rest (as the core does)", () => {
    assert.throws(
      () => toJsonValue({ exclude: Array.from({ length: 300 }, () => () => 1) }, "/x.ts"),
      (e: DropkitError) => {
        assert.equal(e.diagnostics.length, 101);
        assert.equal(e.diagnostics[99]!.path, "exclude[99]");
        assert.equal(
          e.diagnostics[100]!.message,
          "200 more problems in /x.ts are not listed (only the first 100 of a file are): fix these and run again to see the rest.",
        );
        return true;
      },
    );
  });

  test("data over 1 MiB as JSON stops the walk at once; non-ASCII text is measured exactly after it", () => {
    const mib = limits.fileBytes;
    assert.throws(() => toJsonValue({ exclude: ["x".repeat(mib)] }, "/x.ts"), /is over 1 MiB \(1,048,576 bytes\) as JSON/);
    // Non-ASCII text is larger in UTF-8 than the walk counts: the exact check after it gives the size.
    assert.throws(
      () => toJsonValue({ theme: "é".repeat(600_000) }, "/x.ts"),
      /is 1\.1 MiB \(1,200,012 bytes\) as JSON, over the limit of 1 MiB/,
    );
  });
});
