// Tests for src/log.ts: NDJSON records, aligned text, code frames, and when colour is used.

import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { alignColumns, DecisionLog, earlyLogFormat, shouldColor, type LogTarget } from "../src/log.js";

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A log target that collects what is written. */
function sink(isTTY = false): LogTarget & { text: string } {
  const target = { text: "", isTTY, write(chunk: string) { target.text += chunk; } };
  return target;
}

function tempFile(name: string, text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dropkit-log-"));
  dirs.push(dir);
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

describe("json format", () => {
  test("one JSON object per line; error records always carry name, exitCode, path, source, message", () => {
    const out = sink();
    const log = new DecisionLog("json", out, {});
    log.warn("careful", "DROPKIT_THEMX");
    log.errors([
      { name: "SchemaValidationError", exitCode: 65, message: "bad", path: "theme", source: "/a.json:2:3", file: "/a.json", line: 2, column: 3 },
      { name: "InternalError", exitCode: 70, message: "bug" },
    ]);
    const lines = out.text.trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(lines, [
      { event: "warning", message: "careful", source: "DROPKIT_THEMX" },
      { event: "error", name: "SchemaValidationError", exitCode: 65, path: "theme", source: "/a.json:2:3", message: "bad", file: "/a.json", line: 2, column: 3 },
      { event: "error", name: "InternalError", exitCode: 70, path: "", source: "", message: "bug" },
    ]);
  });

  test("decisions are one record each", () => {
    const out = sink();
    new DecisionLog("json", out, {}).decisions([{ key: "theme", value: "ocean", layer: "cli", source: "--theme" }]);
    assert.deepEqual(JSON.parse(out.text), { event: "decision", key: "theme", value: "ocean", layer: "cli", source: "--theme" });
  });
});

describe("text format", () => {
  test("decisions are aligned over the batch", () => {
    const out = sink();
    new DecisionLog("text", out, {}).decisions([
      { key: "theme", value: "ocean", layer: "cli", source: "--theme" },
      { key: "modules.exclude", value: ["a", "b"], layer: "preset", source: "standard" },
    ]);
    assert.equal(out.text, [
      "decision  theme            ocean      cli     --theme",
      'decision  modules.exclude  ["a","b"]  preset  standard',
      "",
    ].join("\n"));
  });

  test("an error with a position gets a code frame: the line, and carets under the span", () => {
    const file = tempFile("dropkit.config.json", '{\n\t"theme": "x/y",\n}\n');
    const out = sink();
    new DecisionLog("text", out, {}).errors([{ name: "SchemaValidationError", exitCode: 65, message: "theme: no slashes", path: "theme", source: `${file}:2:11`, file, line: 2, column: 11, length: 5 }]);
    const lines = out.text.split("\n");
    assert.equal(lines[0], "error     SchemaValidationError (exit 65): theme: no slashes");
    assert.equal(lines[1], `          at ${file}:2:11`);
    assert.equal(lines[2], '          2 | \t"theme": "x/y",');
    assert.equal(lines[3], "            | \t         ^^^^^");
  });

  test("a line without a column shows the line only; a missing file shows no frame", () => {
    const file = tempFile("dropkit.config.js", "export default {\n  throw\n};\n");
    const out = sink();
    const log = new DecisionLog("text", out, {});
    log.errors([{ name: "ConfigLoadError", exitCode: 65, message: "boom", file, line: 2 }]);
    assert.match(out.text, /2 \|   throw\n$/);
    out.text = "";
    log.errors([{ name: "ConfigLoadError", exitCode: 65, message: "boom", file: "/no/such/file", line: 2, column: 1 }]);
    assert.equal(out.text.split("\n").length, 2);
  });

  test("a byte-order mark is not a column", () => {
    const file = tempFile("c.json", "\ufeff{\"theme\": 1}");
    const out = sink();
    new DecisionLog("text", out, {}).errors([{ name: "SchemaValidationError", exitCode: 65, message: "m", file, line: 1, column: 11 }]);
    assert.match(out.text, /1 \| \{"theme": 1\}\n +\| {11}\^\n$/);
  });
});

describe("colour and format choice", () => {
  test("colour only on a terminal, and not when NO_COLOR is set to something", () => {
    assert.equal(shouldColor({ write() {}, isTTY: true }, {}), true);
    assert.equal(shouldColor({ write() {}, isTTY: true }, { NO_COLOR: "1" }), false);
    assert.equal(shouldColor({ write() {}, isTTY: true }, { NO_COLOR: "" }), true);
    assert.equal(shouldColor({ write() {}, isTTY: false }, {}), false);
    const out = sink(true);
    new DecisionLog("text", out, {}).warn("w");
    assert.equal(out.text, "\u001b[33mwarning   \u001b[0mw\n");
  });

  test("before the config is known: --log-format, then DROPKIT_LOG_FORMAT, then text", () => {
    assert.equal(earlyLogFormat("json", { DROPKIT_LOG_FORMAT: "text" }), "json");
    assert.equal(earlyLogFormat(undefined, { DROPKIT_LOG_FORMAT: " JSON " }), "json");
    assert.equal(earlyLogFormat("xml", {}), "text");
    assert.equal(earlyLogFormat(undefined, {}), "text");
  });

  test("alignColumns pads every column but the last", () => {
    assert.deepEqual(alignColumns([["a", "bb", "c"], ["ccc", "d", ""]]), ["a    bb  c", "ccc  d"]);
  });
});
