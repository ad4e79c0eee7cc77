// Tests for the pure table of `dropkit config` (src/output/table.ts), which the CLI and the playground share.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { alignColumns, configTableHeader, configTableLines, configTableRows, formatValue, maxColumnWidth } from "../../src/output/table.js";

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
    const text = alignColumns([
      [...configTableHeader],
      ...configTableRows([{ key: "schema", value: 1, layer: "default", source: "default" }], undefined),
    ]);
    assert.deepEqual(text, ["KEY     VALUE  LAYER    SOURCE", "schema  1      default  default"]);
  });

  test("the text lists a list one item a line under the value column, each union entry with its own origin", () => {
    const lines = configTableLines(
      [
        { key: "theme", value: "ocean", layer: "env", source: "DROPKIT_THEME" },
        { key: "modules.include", value: [], layer: "default", source: "default" },
        { key: "modules.exclude", value: ["test-*", "old"], layer: "cli", source: "--exclude" },
        { key: "presets", value: ["standard", "company"], layer: "config", source: "/p/c.json:2:14" },
      ],
      {
        "modules.include": [],
        "modules.exclude": [
          { value: "test-*", layer: "preset", source: "standard" },
          { value: "old", layer: "cli", source: "--exclude" },
        ],
      },
    );
    assert.deepEqual(lines, [
      "KEY              VALUE     LAYER    SOURCE",
      "theme            ocean     env      DROPKIT_THEME",
      "modules.include  []        default  default",
      "modules.exclude  test-*    preset   standard",
      "                 old       cli      --exclude",
      "presets          standard  config   /p/c.json:2:14",
      "                 company",
    ]);
  });

  test("a cell wider than the cap pushes the rest of its own line only; the text grows linearly", () => {
    const long = "x".repeat(maxColumnWidth + 30);
    assert.deepEqual(
      alignColumns([
        ["a", long, "c"],
        ["b", "y", "d"],
      ]),
      [`a  ${long}  c`, `b  ${"y".padEnd(maxColumnWidth)}  d`],
    );
    const entries = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ value: `m${i}`.repeat(i === 0 ? 1000 : 1), layer: "config", source: "/c.json:1:1" }));
    const size = (n: number) =>
      configTableLines([{ key: "modules.exclude", value: [], layer: "config", source: "/c.json" }], { "modules.exclude": entries(n) }).join(
        "\n",
      ).length;
    // Each line is at most the capped columns plus its own cells: bytes per entry stay bounded.
    const [small, large] = [size(200), size(20_000)];
    assert.ok(large / 20_000 < maxColumnWidth + 40, `${large} bytes for 20,000 entries`);
    assert.ok(large / small < 110, `${small} then ${large} bytes`);
  });

  test("every cell of the text is escaped: a newline, ESC or U+202E cannot forge a row or drive the terminal", () => {
    const lines = configTableLines(
      [
        { key: "theme", value: "oc\u001b[31mean\u202e", layer: "config", source: "/p/\u202ec.json:1:1" },
        { key: "modules.exclude", value: ["a\nKEY  forged"], layer: "config", source: "/p/c.json:2:1" },
      ],
      { "modules.exclude": [{ value: "a\nKEY  forged", layer: "config", source: "/p/c.json:2:2" }] },
    );
    const text = lines.join("\n");
    assert.equal(lines.length, 3);
    assert.doesNotMatch(text, /[\u001b\u202e]/);
    assert.match(lines[1]!, /^theme +oc\\x1b\[31mean\\u202e +config +\/p\/\\u202ec\.json:1:1$/);
    assert.match(lines[2]!, /^modules\.exclude +a\\nKEY {2}forged +config/);
  });

  test("formatValue: strings bare, everything else as JSON", () => {
    assert.equal(formatValue("a b"), "a b");
    assert.equal(formatValue(["a"]), '["a"]');
    assert.equal(formatValue(true), "true");
  });
});
