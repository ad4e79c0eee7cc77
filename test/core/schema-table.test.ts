// The core's description of its schema (the `schema` op) against what the core does, and the files made from it
// (scripts/generate-schema.ts) against the ones committed: a leaf without a description, or a generated file edited
// by hand, fails here with the command that writes them again.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { generatedSchemaFiles, regenerate } from "../../scripts/generate-schema.ts";
import type { SchemaResponse } from "../../src/core/protocol.ts";
import { schemaKeys, schemaLeaves } from "../../src/core/schema-table.ts";
import { core, resolveOk } from "../helpers/core.ts";

const root = new URL("../../", import.meta.url);
const answer = core.describeSchema();
const copy = (): SchemaResponse => structuredClone(answer);

/** The generated files whose committed text is not what `answer` gives. */
function stale(files: Array<{ file: string; text: string }>, read = (file: string) => readFileSync(new URL(file, root), "utf8")): string[] {
  return files.filter(({ file, text }) => read(file) !== text).map(({ file }) => file);
}

describe("the files made from the core's table", () => {
  test("are what the core's table gives today: none is stale or edited by hand", () => {
    const files = stale(generatedSchemaFiles(answer));
    assert.deepEqual(files, [], `${files.join(", ")}: not what the core's schema op gives (stale, or edited by hand): run ${regenerate}`);
  });

  test("a file edited by hand is told apart from the generated one", () => {
    const files = generatedSchemaFiles(answer);
    const edited = (file: string) =>
      file === "schema.json"
        ? files[0]!.text.replace("Modules left out.", "Modules left aside.")
        : files.find((f) => f.file === file)!.text;
    assert.deepEqual(stale(files, edited), ["schema.json"]);
  });

  test("a leaf the core adds without a description stops the generation, naming the leaf and the command", () => {
    const changed = copy();
    changed.leaves.push({ ...changed.leaves.at(-1)!, key: "log.level", env: "DROPKIT_LOG_LEVEL", description: "" });
    assert.throws(
      () => generatedSchemaFiles(changed),
      (e: Error) => e.message.includes('"log.level" has no description') && e.message.includes(regenerate),
    );
    const group = copy();
    group.keys.find((k) => k.key === "hooks")!.description = " ";
    assert.throws(() => generatedSchemaFiles(group), /"hooks" has no description/);
  });

  test("a leaf the core adds, with its description, is in every file", () => {
    const changed = copy();
    const level = { ...changed.leaves.at(-1)!, key: "log.level", env: "DROPKIT_LOG_LEVEL", choices: ["info", "debug"], default: "info" };
    changed.leaves.push({ ...level, description: "How much the log says.", values: [] });
    const files = new Map(generatedSchemaFiles(changed).map(({ file, text }) => [file, text]));
    assert.deepEqual(JSON.parse(files.get("schema.json")!).properties.log.properties.level, {
      enum: ["info", "debug"],
      description: "How much the log says.",
      default: "info",
    });
    assert.match(
      files.get("src/core/configtypes.ts")!,
      /How much the log says\.\n\s+\* @default "info"\n\s+\*\/\n\s+level\?: "info" \| "debug";/,
    );
    assert.match(files.get("src/core/configtypes.ts")!, /log: \{ format: "text" \| "json"; level: "info" \| "debug" \}/);
    assert.match(files.get("src/core/schema-table.ts")!, /"DROPKIT_LOG_LEVEL"/);
  });

  test("the table as data is the core's answer", () => {
    assert.deepEqual(schemaLeaves, answer.leaves);
    assert.deepEqual(schemaKeys, answer.keys);
  });
});

describe("the core's table is what the core does", () => {
  const resolved = resolveOk({ cwd: "/d", presetFiles: [], detected: {} });

  test("its leaves are the resolved config's, in order, each with a default the defaults layer gives (presets: none, auto-detect)", () => {
    assert.deepEqual(
      answer.leaves.map((l) => l.key),
      Object.keys(resolved.origins!),
    );
    for (const leaf of answer.leaves) {
      const value = leaf.key.split(".").reduce<any>((o, k) => o[k], resolved.config);
      if (leaf.default === null) {
        assert.equal(leaf.key, "presets");
        assert.equal(resolved.origins![leaf.key]!.source, "auto-detect");
      } else if (leaf.type === "path" || leaf.type === "file")
        assert.equal(value, `/d/${String(leaf.default).replace(/^\.\//, "")}`, leaf.key);
      else assert.deepEqual(value, leaf.default, leaf.key);
    }
  });

  test("each variable sets its leaf, and a union list gathers the environment's entries with the config's", () => {
    for (const leaf of answer.leaves) {
      if (leaf.env === null) continue;
      const value = { enum: leaf.choices.at(-1)!, bool: "no", theme: "ocean", presets: "none" }[leaf.type as string] ?? "x";
      const config = leaf.merge === "union" ? { [leaf.key.split(".")[0]!]: { [leaf.key.split(".")[1]!]: ["y"] } } : {};
      const r = resolveOk({
        cwd: "/d",
        env: { [leaf.env]: value },
        config: { source: "/d/dropkit.config.json", format: "json", text: JSON.stringify(config) },
        presetFiles: [],
        detected: {},
      });
      const origin = r.origins![leaf.key]!;
      assert.deepEqual({ layer: origin.layer, source: origin.source }, { layer: "env", source: leaf.env }, leaf.key);
      if (leaf.merge === "union")
        assert.deepEqual(
          leaf.key.split(".").reduce<any>((o, k) => o[k], r.config),
          ["y", value],
          leaf.key,
        );
    }
  });

  test("an enum takes exactly its choices, and every value offered for one is a choice", () => {
    for (const leaf of answer.leaves.filter((l) => l.type === "enum")) {
      assert.deepEqual(
        leaf.values.map((v) => v.value),
        leaf.choices,
        leaf.key,
      );
      const [group, name] = leaf.key.split(".") as [string, string];
      for (const choice of leaf.choices)
        assert.equal(core.validateConfig(JSON.stringify({ [group]: { [name]: choice } })).ok, true, choice);
      assert.equal(core.validateConfig(JSON.stringify({ [group]: { [name]: `${leaf.choices[0]}x` } })).ok, false);
    }
  });

  test("its keys are those a config and a preset may hold", () => {
    for (const key of answer.keys) {
      const value =
        { group: {}, schemaUrl: "./schema.json", detect: ["*.md"] }[key.kind as string] ?? { schema: 1, theme: "auto" }[key.key] ?? [];
      const text = JSON.stringify({ [key.key]: value });
      assert.equal(core.validateConfig(text).ok, key.config, `${key.key} in a config`);
      assert.equal(core.validateConfig(text, { kind: "preset" }).ok, key.preset, `${key.key} in a preset`);
    }
    assert.equal(core.validateConfig('{"neither": 1}').ok, false);
  });
});
