// Tests for src/output/log.ts: NDJSON records, aligned text, code frames, and when colour is used.

import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { alignColumns, DecisionLog, earlyLogFormat, shouldColor, type LogTarget } from "../../src/output/log.js";
import { maxColumnWidth } from "../../src/output/table.js";
import { fixture, runCli } from "../helpers/cli.js";
import { hasScript, keys, Terminal } from "../helpers/pty.js";

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A log target that collects what is written. */
function sink(isTTY = false): LogTarget & { text: string } {
  const target = {
    text: "",
    isTTY,
    write(chunk: string) {
      target.text += chunk;
    },
  };
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
      {
        name: "SchemaValidationError",
        exitCode: 65,
        message: "bad",
        path: "theme",
        source: "/a.json:2:3",
        file: "/a.json",
        line: 2,
        column: 3,
      },
      { name: "InternalError", exitCode: 70, message: "bug" },
    ]);
    const lines = out.text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.deepEqual(lines, [
      { event: "warning", message: "careful", source: "DROPKIT_THEMX" },
      {
        event: "error",
        name: "SchemaValidationError",
        exitCode: 65,
        path: "theme",
        source: "/a.json:2:3",
        message: "bad",
        file: "/a.json",
        line: 2,
        column: 3,
      },
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
    assert.equal(
      out.text,
      ["decision  theme            ocean      cli     --theme", 'decision  modules.exclude  ["a","b"]  preset  standard', ""].join("\n"),
    );
  });

  test("an error with a position gets a code frame: the line, and carets under the span", () => {
    const file = tempFile("dropkit.config.json", '{\n\t"theme": "x/y",\n}\n');
    const out = sink();
    new DecisionLog("text", out, {}).errors([
      {
        name: "SchemaValidationError",
        exitCode: 65,
        message: "theme: no slashes",
        path: "theme",
        source: `${file}:2:11`,
        file,
        line: 2,
        column: 11,
        length: 5,
      },
    ]);
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
    assert.match(out.text, /2 \| {3}throw\n$/);
    out.text = "";
    log.errors([{ name: "ConfigLoadError", exitCode: 65, message: "boom", file: "/no/such/file", line: 2, column: 1 }]);
    assert.equal(out.text.split("\n").length, 2);
  });

  test("a byte-order mark is not a column", () => {
    const file = tempFile("c.json", '\ufeff{"theme": 1}');
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
    // A dumb terminal shows escape sequences as text: no colour, unless FORCE_COLOR asks for it.
    assert.equal(shouldColor({ write() {}, isTTY: true }, { TERM: "dumb" }), false);
    assert.equal(shouldColor({ write() {}, isTTY: true }, { TERM: "dumb", FORCE_COLOR: "1" }), true);
    assert.equal(shouldColor({ write() {}, isTTY: true }, { TERM: "xterm-256color" }), true);
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
    assert.deepEqual(
      alignColumns([
        ["a", "bb", "c"],
        ["ccc", "d", ""],
      ]),
      ["a    bb  c", "ccc  d"],
    );
  });

  test("decisions: a long list stays on its own line, one line a record, and pads no other line past the column cap", () => {
    const out = sink();
    const names = Array.from({ length: 10_000 }, (_, i) => `module-${i}`);
    new DecisionLog("text", out, {}).decisions([
      { key: "modules.exclude", value: names, layer: "config", source: "/c.json:1:1" },
      { key: "theme", value: "ocean", layer: "default", source: "default" },
    ]);
    const lines = out.text.trimEnd().split("\n");
    assert.equal(lines.length, 2);
    assert.ok(lines[0]!.startsWith(`decision  modules.exclude  ${JSON.stringify(names)}  config   /c.json:1:1`));
    assert.equal(lines[1], `decision  ${"theme".padEnd(15)}  ${"ocean".padEnd(maxColumnWidth)}  default  default`);
  });
});

describe("control characters in the text log", () => {
  const hostile = "evil\nerror     ForgedError (exit 70): pwned\u001b[2J\u202egnp.\u0085\u2028\u007f\ttab";

  test("every string of a record is escaped: one line per record, no forged record", () => {
    const out = sink();
    const log = new DecisionLog("text", out, {});
    log.write({ event: "plan", item: "module", name: hostile, selected: true, reason: `matched ${hostile}` });
    log.write({ event: "plan", item: "theme", value: hostile, reason: "r", alternatives: [hostile] });
    log.warn(`archive ${hostile}`);
    log.errors([{ name: "ArchiveInvalid", exitCode: 65, message: `${hostile} is not a zip`, source: hostile }]);
    log.decisions([
      { key: "theme", value: hostile, layer: "cli", source: "--theme" },
      { key: "modules.exclude", value: [hostile], layer: "env", source: "DROPKIT_MODULES_EXCLUDE" },
    ]);
    const lines = out.text.split("\n").slice(0, -1);
    assert.deepEqual(
      lines.map((l) => l.slice(0, 10).trim()),
      ["plan", "plan", "warning", "error", "", "decision", "decision"],
    );
    assert.equal(
      /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202e]/.test(out.text),
      false,
      "a raw control character reached the log",
    );
    assert.match(lines[0]!, /evil\\nerror {5}ForgedError \(exit 70\): pwned\\x1b\[2J\\u202egnp\.\\x85\\u2028\\x7f\\ttab/);
    // A list value is shown as JSON (which escapes C0 itself); the rest is escaped on top.
    assert.match(lines[6]!, /\["evil\\nerror {5}ForgedError \(exit 70\): pwned\\u001b\[2J\\u202egnp\.\\x85\\u2028\\x7f\\ttab"\]/);
  });

  test("on a terminal the colours dropkit adds are the only escape sequences", () => {
    const out = sink(true);
    new DecisionLog("text", out, {}).write({ event: "plan", item: "module", name: hostile, selected: false, reason: "r" });
    const sequences = out.text.match(/\u001b[^m]*m/g) ?? [];
    assert.deepEqual(sequences, ["\u001b[2m", "\u001b[0m", "\u001b[31m", "\u001b[0m"]);
    assert.match(out.text, /pwned\\x1b\[2J/);
  });

  test("a code frame escapes the file's line and keeps the caret under the value", () => {
    const file = tempFile("dropkit.config.json", '{"a\u001b\u0007": 1, "theme": 2}\n');
    const out = sink();
    new DecisionLog("text", out, {}).errors([
      { name: "SchemaValidationError", exitCode: 65, message: "m", file, line: 1, column: 21, length: 1 },
    ]);
    const [, source, marker] = out.text.split("\n");
    assert.equal(source, '          1 | {"a\\x1b\\x07": 1, "theme": 2}');
    assert.equal(marker!.indexOf("^"), source!.indexOf("2}"));
  });
});

describe("control characters in the JSON log", () => {
  test("C0 escaped by JSON; DEL, C1, U+2028/U+2029 and bidi controls written as \\u escapes; the values are exact", () => {
    const value = "a\nb\u001b\u007f\u0085\u2028\u2029\u202e\u2066é😀";
    const out = sink();
    new DecisionLog("json", out, {}).warn(value, value);
    assert.equal(
      out.text,
      '{"event":"warning","message":"a\\nb\\u001b\\u007f\\u0085\\u2028\\u2029\\u202e\\u2066é😀",' +
        '"source":"a\\nb\\u001b\\u007f\\u0085\\u2028\\u2029\\u202e\\u2066é😀"}\n',
    );
    assert.deepEqual(JSON.parse(out.text), { event: "warning", message: value, source: value });
  });
});

describe("the built CLI: names and arguments made to forge log lines", () => {
  test("its name is escaped in the text log: no forged error line, no raw control character on stderr", () => {
    const name = "evil\nerror     InternalError (exit 70): forged\u001b[31m\u202egnp";
    const root = fixture({ [`${name}.zip`]: { zip: { "a.txt": "a" } }, [`${name}-theme.zip`]: { zip: { "a.txt": "a" } } });
    const run = runCli(root, ["create"]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(
      run.stderr.split("\n").some((l) => l.startsWith("error")),
      false,
      run.stderr,
    );
    assert.equal(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/.test(run.stderr), false, "a raw control character reached stderr");
    assert.match(run.stderr, /module \+ evil\\nerror {5}InternalError \(exit 70\): forged\\x1b\[31m\\u202egnp:/);
    assert.match(run.stderr, /theme evil\\nerror {5}InternalError \(exit 70\): forged\\x1b\[31m\\u202egnp-theme\.zip/);
    // The state file keeps the real name: only the log escapes.
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8")).plan.modules, [name]);
  });

  test("an unknown flag quoting control characters: the usage error escapes it, in text and in JSON", () => {
    const flag = "--x\u001b[2J\nerror     InternalError (exit 70): forged\u202e";
    const text = runCli(fixture(), ["create", flag]);
    assert.equal(text.status, 64);
    assert.match(text.stderr, /Unknown flag --x\\x1b\[2J\\nerror {5}InternalError \(exit 70\): forged\\u202e for dropkit create\./);
    // One error record, in the shape of every other: the forged "error" line stays inside it, escaped.
    assert.deepEqual(
      text.stderr.split("\n").filter((l) => l.startsWith("error")),
      [text.stderr.split("\n")[0]],
      text.stderr,
    );
    assert.match(text.stderr, /^error {5}UsageError \(exit 64\): Unknown flag/);
    assert.equal(/[\u001b\u202e]/.test(text.stderr), false);
    const json = runCli(fixture(), ["create", "--log-format=json", flag]);
    assert.equal(json.records.length, 1, json.stderr);
    assert.equal(json.records[0]!.name, "UsageError");
    assert.match(json.records[0]!.message, /--x/);
    assert.equal(/[\u001b\u202e]/.test(json.stderr), false);
  });

  test("init on a terminal shows archive names escaped in its questions", {
    skip: hasScript() ? false : "needs script(1) for a pseudo-terminal",
    timeout: 120_000,
  }, async () => {
    // An OSC sequence that would retitle the terminal, and a bidi override that would reverse what follows.
    const root = fixture({ "sea\u001b]0;pwned\u0007\u202e-theme.zip": { zip: { "a.txt": "a" } } });
    const terminal = new Terminal(root, ["init"]);
    await terminal.expect("◆  Theme");
    await terminal.expect("sea\\x1b]0;pwned\\x07\\u202e");
    terminal.send(keys.ctrlC);
    assert.equal(await terminal.exit(), 130);
    assert.equal(terminal.output.includes("\u001b]0;pwned"), false);
    assert.equal(terminal.output.includes("\u202e"), false);
  });
});
