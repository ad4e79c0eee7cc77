// Tests for the pure table of `dropkit config` (src/table.ts), which the CLI and the playground share.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { alignColumns, configTableHeader, configTableRows, formatValue } from "../src/table.js";

describe("config table", () => {
  test("one row per leaf, and one per union-list entry right after its list", () => {
    const rows = configTableRows(
      [
        { key: "theme", value: "ocean", layer: "env", source: "DROPKIT_THEME" },
        { key: "modules.exclude", value: ["test-*", "old"], layer: "cli", source: "--exclude" },
        { key: "cache.enabled", value: false, layer: "config", source: "/p/dropkit.config.json:3:14" },
      ],
      {
        "modules.exclude": [
          { value: "test-*", layer: "preset", source: "standard" },
          { value: "old", layer: "cli", source: "--exclude" },
        ],
      },
    );
    assert.deepEqual(rows, [
      ["theme", "ocean", "env", "DROPKIT_THEME"],
      ["modules.exclude", '["test-*","old"]', "cli", "--exclude"],
      ["modules.exclude[0]", "test-*", "preset", "standard"],
      ["modules.exclude[1]", "old", "cli", "--exclude"],
      ["cache.enabled", "false", "config", "/p/dropkit.config.json:3:14"],
    ]);
  });

  test("the header and the aligned text are what `dropkit config` prints", () => {
    const text = alignColumns([[...configTableHeader], ...configTableRows([{ key: "schema", value: 1, layer: "default", source: "default" }], undefined)]);
    assert.deepEqual(text, ["KEY     VALUE  LAYER    SOURCE", "schema  1      default  default"]);
  });

  test("formatValue: strings bare, everything else as JSON", () => {
    assert.equal(formatValue("a b"), "a b");
    assert.equal(formatValue(["a"]), '["a"]');
    assert.equal(formatValue(true), "true");
  });
});
