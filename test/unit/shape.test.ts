// Tests for src/state/shape.ts: the legacy shape lifted to v1 and v1 read back, with everything else kept under extra.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { liftLegacy, readV1, type StateV1 } from "../../src/state/shape.js";
import { specLegacy, v1File, v1Text } from "../helpers/states.js";

describe("legacy mapping (SPEC section 9)", () => {
  test("the SPEC's legacy example lifts to the SPEC's v1 fields", () => {
    const { state, setAside } = liftLegacy(JSON.parse(specLegacy));
    assert.deepEqual(state, {
      schema: 1,
      toolVersion: "",
      createdAt: "2024-05-01T10:00:00.000Z",
      updatedAt: "2024-05-01T10:00:00.000Z",
      plan: { theme: "ocean", modules: ["blog", "shop"], excluded: ["legacy-*"], presets: ["standard"] },
      migratedFrom: { version: "0.7.2", at: "" },
      extra: {},
    });
    assert.deepEqual(setAside, []);
  });

  const cases: Array<[string, Record<string, unknown>, (s: StateV1) => unknown, unknown]> = [
    ["version → migratedFrom.version", { version: "0.6.0" }, (s) => s.migratedFrom, { version: "0.6.0", at: "" }],
    ["no version → migratedFrom without one", {}, (s) => s.migratedFrom, { at: "" }],
    ["theme → plan.theme", { theme: "forest" }, (s) => s.plan.theme, "forest"],
    ["theme null → plan.theme null", { theme: null }, (s) => s.plan.theme, null],
    ["modules → plan.modules", { modules: ["a", "b"] }, (s) => s.plan.modules, ["a", "b"]],
    ["excluded → plan.excluded", { excluded: ["x-*"] }, (s) => s.plan.excluded, ["x-*"]],
    ["preset (a string) → plan.presets", { preset: "standard" }, (s) => s.plan.presets, ["standard"]],
    ["presets (a list) → plan.presets", { presets: ["standard", "./p.json"] }, (s) => s.plan.presets, ["standard", "./p.json"]],
    ["preset equal to a one-item presets is not set aside", { preset: "a", presets: ["a"] }, (s) => [s.plan.presets, s.extra], [["a"], {}]],
    ["created as epoch milliseconds → createdAt", { created: 1714557600000 }, (s) => s.createdAt, "2024-05-01T10:00:00.000Z"],
    ["created as an ISO string → createdAt", { created: "2024-05-01T12:00:00+02:00" }, (s) => s.createdAt, "2024-05-01T10:00:00.000Z"],
    ["lastRun → updatedAt", { lastRun: "2024-06-01T08:30:00.000Z" }, (s) => s.updatedAt, "2024-06-01T08:30:00.000Z"],
    ["lastRun as epoch milliseconds → updatedAt", { lastRun: 1717230600000 }, (s) => s.updatedAt, "2024-06-01T08:30:00.000Z"],
    [
      "missing fields take their defaults",
      {},
      (s) => [s.plan, s.createdAt, s.updatedAt, s.extra],
      [{ theme: null, modules: [], excluded: [], presets: [] }, "", "", {}],
    ],
  ];
  for (const [name, data, pick, want] of cases) {
    test(name, () => {
      const { state, setAside } = liftLegacy(data);
      assert.deepEqual(pick(state), want);
      assert.deepEqual(setAside, []);
    });
  }

  test("presets and a different preset: the list wins, the single name is kept under extra", () => {
    const { state, setAside } = liftLegacy({ preset: "none", presets: ["standard"] });
    assert.deepEqual(state.plan.presets, ["standard"]);
    assert.deepEqual(state.extra, { preset: "none" });
    assert.deepEqual(
      setAside.map((s) => s.key),
      ["preset"],
    );
  });

  test("values of the wrong type are kept verbatim under extra, each named with why", () => {
    const data = {
      version: 7,
      theme: 5,
      modules: ["blog", 1],
      excluded: "old-*",
      preset: ["standard"],
      presets: "standard",
      created: "yesterday",
      lastRun: { when: "now" },
    };
    const { state, setAside } = liftLegacy(data);
    assert.deepEqual(state.extra, data);
    assert.deepEqual(state.plan, { theme: null, modules: [], excluded: [], presets: [] });
    assert.equal(state.createdAt, "");
    assert.deepEqual(state.migratedFrom, { at: "" });
    assert.deepEqual(setAside.map((s) => s.key).sort(), Object.keys(data).sort());
    assert.match(setAside.find((s) => s.key === "version")!.reason, /expected a string, got a number/);
    assert.match(setAside.find((s) => s.key === "modules")!.reason, /expected a list of names, got a list/);
    assert.match(setAside.find((s) => s.key === "created")!.reason, /epoch milliseconds or an ISO time/);
  });

  test("an empty name, an out-of-range epoch and a date without a time are wrong values too", () => {
    const { state } = liftLegacy({ theme: "", preset: "", created: 1e20, lastRun: "2024-05-01" });
    assert.deepEqual(state.extra, { theme: "", preset: "", created: 1e20, lastRun: "2024-05-01" });
  });

  test("unknown keys are kept verbatim under extra, including __proto__ and an `extra` key", () => {
    const data = JSON.parse('{"theme":"ocean","colour":"blue","__proto__":{"x":1},"extra":[1],"schema":"1"}');
    const { state, setAside } = liftLegacy(data);
    assert.equal(state.plan.theme, "ocean");
    assert.deepEqual(Object.keys(state.extra), ["colour", "__proto__", "extra", "schema"]);
    // The key, read as an own property: a legacy file's "__proto__" is data, never the object's prototype.
    assert.deepEqual(Object.getOwnPropertyDescriptor(state.extra, "__proto__")?.value, { x: 1 });
    assert.equal(Object.getPrototypeOf(state.extra), Object.prototype);
    assert.ok(setAside.every((s) => s.reason === "unknown key"));
  });
});

describe("reading v1 (SPEC section 9)", () => {
  test("a valid v1 file is read back unchanged, and writes the same bytes", () => {
    const { state, setAside } = readV1(JSON.parse(v1Text));
    assert.deepEqual(state, v1File);
    assert.deepEqual(setAside, []);
    assert.equal(JSON.stringify(state, null, 2) + "\n", v1Text);
  });

  test("wrong-typed and unknown values go under extra by their dotted path; existing extra keys are never replaced", () => {
    const data = {
      schema: 1,
      toolVersion: 2,
      createdAt: "soon",
      plan: { theme: 1, modules: "blog", presets: ["standard"], colour: "blue" },
      migratedFrom: "0.7.2",
      extra: { note: "mine", top: "old" },
      top: "new",
    };
    const { state, setAside } = readV1(data);
    assert.deepEqual(state.extra, {
      note: "mine",
      top: "old",
      "top~2": "new",
      toolVersion: 2,
      createdAt: "soon",
      "plan.colour": "blue",
      "plan.theme": 1,
      "plan.modules": "blog",
      migratedFrom: "0.7.2",
    });
    assert.deepEqual(state.plan, { theme: null, modules: [], excluded: [], presets: ["standard"] });
    assert.equal(state.migratedFrom, undefined);
    assert.deepEqual(setAside.map((s) => s.key).sort(), [
      "createdAt",
      "migratedFrom",
      "plan.colour",
      "plan.modules",
      "plan.theme",
      "toolVersion",
      "top~2",
    ]);
  });
});
