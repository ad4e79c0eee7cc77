// Tests for decision records derived from a resolve answer (src/core/decisions.ts): the log's records, from config + origins.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { deriveDecisions, deriveListEntries, valueAt } from "../../src/core/decisions.js";
import { resolveOk } from "../helpers/core.js";

const answer = resolveOk({
  cwd: "/d",
  presetFiles: [],
  files: ["a.zip"],
  flags: { theme: "ocean", exclude: ["old-*"] },
  env: { DROPKIT_CACHE_ENABLED: "no" },
});

describe("deriveDecisions", () => {
  test("one record per leaf, in the order of origins, each a value of config with its origin", () => {
    const decisions = deriveDecisions(answer);
    assert.deepEqual(
      decisions.map((d) => d.key),
      Object.keys(answer.origins!),
    );
    assert.equal(decisions.length, 13);
    assert.deepEqual(decisions[1], { key: "theme", value: "ocean", layer: "cli", source: "--theme" });
    assert.deepEqual(
      decisions.find((d) => d.key === "modules.exclude"),
      { key: "modules.exclude", value: ["test-*", "dev-*", "old-*"], layer: "cli", source: "--exclude" },
    );
    assert.deepEqual(
      decisions.find((d) => d.key === "cache.enabled"),
      { key: "cache.enabled", value: false, layer: "env", source: "DROPKIT_CACHE_ENABLED" },
    );
  });

  test("the records carry only the four fields of a decision (the list entries' origins stay out)", () => {
    for (const d of deriveDecisions(answer)) assert.deepEqual(Object.keys(d), ["key", "value", "layer", "source"]);
  });

  test("an answer without a config has no decisions", () => {
    assert.deepEqual(deriveDecisions({}), []);
  });
});

describe("deriveListEntries", () => {
  test("pairs each item of a union list with its own origin", () => {
    assert.deepEqual(deriveListEntries(answer), {
      "modules.include": [],
      "modules.exclude": [
        { value: "test-*", layer: "preset", source: "standard" },
        { value: "dev-*", layer: "preset", source: "standard" },
        { value: "old-*", layer: "cli", source: "--exclude" },
      ],
      "modules.only": [],
    });
  });
});

describe("valueAt", () => {
  test("reads a dotted key", () => {
    assert.equal(valueAt(answer.config!, "hooks.onFailure"), "fail");
    assert.equal(valueAt(answer.config!, "schema"), 1);
  });
});
