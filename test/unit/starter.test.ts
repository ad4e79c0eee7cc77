// init's starter (src/config/starter.ts) against the core's schema table: what an inherited config sets reaches the new file.

import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import type { LoadConfigResult } from "../../src/config/resolve.js";
import { inheritedFrom } from "../../src/config/starter.js";
import type { SchemaLeaf } from "../../src/core/protocol.js";
import { schemaLeaves } from "../../src/core/schema-table.js";

/** A value a config could set for `leaf` other than its default: the other boolean, another choice, a list of one, a path. */
function sampleFor(leaf: SchemaLeaf): unknown {
  switch (leaf.type) {
    case "bool":
      return !leaf.default;
    case "enum":
      return leaf.choices.find((choice) => choice !== leaf.default);
    case "globs":
    case "presets":
    case "paths":
      return [`${leaf.key}-item`];
    default:
      return `${leaf.key}-value`;
  }
}

test("init starts from every leaf an inherited config sets: each is a prompt's answer or carried into the new file", () => {
  const root = path.resolve("/repo");
  const read = new Set<string>();
  // The inherited config's explain: every leaf of the core's table set by the config layer; which keys init reads is recorded.
  const explain = new Proxy({} as NonNullable<LoadConfigResult["explain"]>, {
    get(_, key) {
      const leaf = schemaLeaves.find((l) => l.key === key);
      if (leaf === undefined) return undefined;
      read.add(leaf.key);
      return [{ layer: "config", source: path.join(root, "dropkit.config.json"), value: sampleFor(leaf) }];
    },
  });
  const loaded = { discovery: { file: path.join(root, "dropkit.config.json"), via: "discovery" }, explain } as unknown as LoadConfigResult;
  const inherited = inheritedFrom(loaded, path.join(root, "app"));
  assert.ok(inherited);
  // `schema` is written by init itself (always 1); every other leaf is read, and gives one field of the result.
  const leaves = schemaLeaves.map((l) => l.key).filter((key) => key !== "schema");
  assert.deepEqual([...read].sort(), [...leaves].sort());
  const fields = [...Object.values(inherited.answers), ...Object.values(inherited.carried)].filter((v) => v !== undefined);
  assert.equal(fields.length, leaves.length);
});
