// Tests for src/hooks/scripts.ts' LineSplitter: cutting a hook's output into lines for hook-output records.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { LineSplitter, maxLineLength, type OutputLine } from "../../src/hooks/scripts.js";

/** Feeds `chunks` to a splitter and returns every line it emitted, with the flush at the end. */
function split(chunks: Array<string | Buffer>, maxLength?: number): OutputLine[] {
  const lines: OutputLine[] = [];
  const splitter = new LineSplitter((line) => lines.push(line), maxLength);
  for (const chunk of chunks) splitter.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  splitter.end();
  return lines;
}

const texts = (lines: OutputLine[]): string[] => lines.map((l) => l.text);

describe("LineSplitter", () => {
  test("splits on newlines, across chunks, and flushes a last line without one", () => {
    assert.deepEqual(texts(split(["one\ntw", "o\n", "\nthr", "ee"])), ["one", "two", "", "three"]);
  });

  test("a CR before the newline is dropped; a lone CR stays (escaped later by the log)", () => {
    assert.deepEqual(texts(split(["a\r\nb\rc\n"])), ["a", "b\rc"]);
  });

  test("a UTF-8 sequence split between chunks is joined", () => {
    const bytes = Buffer.from("é✓😀\n");
    const chunks = [...bytes].map((b) => Buffer.from([b]));
    assert.deepEqual(texts(split(chunks)), ["é✓😀"]);
  });

  test("invalid UTF-8 becomes U+FFFD, and a sequence cut off at the end too", () => {
    assert.deepEqual(texts(split([Buffer.from([0x61, 0xff, 0x62, 0x0a]), Buffer.from([0x63, 0xe2, 0x9c])])), ["a\ufffdb", "c\ufffd"]);
  });

  test("nothing at all gives no line; a lone newline gives one empty line", () => {
    assert.deepEqual(split([]), []);
    assert.deepEqual(split(["\n"]), [{ text: "", continues: false }]);
  });

  test("a long line is cut into pieces of at most the limit, every piece but the last marked", () => {
    const lines = split(["x".repeat(25) + "\nshort\n"], 10);
    assert.deepEqual(lines, [
      { text: "x".repeat(10), continues: true },
      { text: "x".repeat(10), continues: true },
      { text: "x".repeat(5), continues: false },
      { text: "short", continues: false },
    ]);
  });

  test("output without any newline is emitted as it grows, never buffered without bound", () => {
    const lines: OutputLine[] = [];
    const splitter = new LineSplitter((line) => lines.push(line), 100);
    for (let i = 0; i < 50; i++) splitter.push(Buffer.from("y".repeat(30)));
    assert.equal(lines.length, 14, "1,500 characters so far: 14 full pieces out, 100 held");
    assert.ok(lines.every((l) => l.continues && l.text.length === 100));
    splitter.end();
    assert.deepEqual(lines.at(-1), { text: "y".repeat(100), continues: false });
    assert.equal(lines.map((l) => l.text).join("").length, 1500);
  });

  test("a surrogate pair is never cut in two", () => {
    const lines = split(["abcd😀efgh\n"], 5);
    assert.deepEqual(texts(lines), ["abcd", "😀efg", "h"]);
    for (const l of lines) assert.equal(l.text.isWellFormed(), true);
  });

  test("the documented limit is 8,192", () => {
    assert.equal(maxLineLength, 8192);
    const lines = split(["z".repeat(8193) + "\n"]);
    assert.deepEqual(
      lines.map((l) => [l.text.length, l.continues]),
      [
        [8192, true],
        [1, false],
      ],
    );
  });
});
