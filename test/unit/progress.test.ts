// Tests for src/output/progress.ts: when the line is drawn, what it says, that it fits and is erased.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { canShowProgress, formatBytes, formatDuration, ProgressLine } from "../../src/output/progress.js";

/** A terminal stand-in with a clock the test moves. */
function setup(options: { columns?: number; color?: boolean } = {}) {
  const writes: string[] = [];
  let now = 0;
  const target = { isTTY: true, columns: options.columns ?? 100, write: (text: string) => writes.push(text) };
  const line = new ProgressLine(target, { color: options.color ?? false, now: () => now });
  return { writes, line, at: (ms: number) => (now = ms) };
}

describe("canShowProgress", () => {
  test("only on a terminal that can redraw, with the text log", () => {
    assert.equal(canShowProgress({ write: () => true, isTTY: true }, {}, "text"), true);
    assert.equal(canShowProgress({ write: () => true, isTTY: false }, {}, "text"), false);
    assert.equal(canShowProgress({ write: () => true }, {}, "text"), false);
    assert.equal(canShowProgress({ write: () => true, isTTY: true }, { TERM: "dumb" }, "text"), false);
    assert.equal(canShowProgress({ write: () => true, isTTY: true }, {}, "json"), false);
    // NO_COLOR takes the colour away, not the line.
    assert.equal(canShowProgress({ write: () => true, isTTY: true }, { NO_COLOR: "1" }, "text"), true);
  });
});

describe("ProgressLine", () => {
  test("short work draws nothing and erases nothing", () => {
    const { writes, line, at } = setup();
    line.start(3, 3_000_000);
    at(200);
    line.update(1, 1_000_000);
    at(450);
    line.update(3, 3_000_000);
    line.stop();
    assert.deepEqual(writes, []);
  });

  test("long work: drawn after half a second with done/total, bytes, rate and time left, redrawn in place, erased at the end", () => {
    const { writes, line, at } = setup();
    line.start(12, 2_000_000_000);
    at(600);
    line.update(2, 300_000_000);
    at(650);
    line.update(2, 320_000_000);
    at(1100);
    line.update(5, 800_000_000);
    line.stop();
    line.update(6, 900_000_000);
    assert.deepEqual(writes, [
      "\r\u001b[Kreading archives  2/12  300 MB of 2.00 GB  500 MB/s  about 3 s left",
      // 50 ms later: too soon to redraw.
      "\r\u001b[Kreading archives  5/12  800 MB of 2.00 GB  727 MB/s  about 2 s left",
      "\r\u001b[K",
    ]);
  });

  test("the rate follows the last seconds, not the whole run", () => {
    const { writes, line, at } = setup();
    line.start(2, 20_000_000_000);
    for (let t = 1000; t <= 10_000; t += 1000) {
      at(t);
      // Fast for five seconds, then slow.
      line.update(0, t <= 5000 ? t * 1_000_000 : 5_000_000_000 + (t - 5000) * 100_000);
    }
    assert.match(writes.at(-1)!, / {2}100 MB\/s {2}/);
  });

  test("the line is cut to the terminal's width, colour codes not counted", () => {
    const { writes, line, at } = setup({ columns: 30, color: true });
    line.start(12, 2_000_000_000);
    at(600);
    line.update(2, 300_000_000);
    const drawn = writes[0]!.replace(/\u001b\[[0-9;]*[mK]/g, "").replace("\r", "");
    assert.equal(drawn.length, 29);
    assert.ok(writes[0]!.includes("\u001b[36mreading archives\u001b[0m"), "the label is coloured");
  });

  test("a signal while the line is shown erases it; the listeners go when it is erased", () => {
    const { writes, line, at } = setup();
    const before = process.listeners("SIGHUP");
    line.start(1, 10);
    at(600);
    line.update(0, 5);
    const added = process.listeners("SIGHUP").filter((l) => !before.includes(l));
    assert.equal(added.length, 1);
    // Another listener stays, so the handler erases without raising the signal again.
    const keep = (): void => {};
    process.on("SIGHUP", keep);
    try {
      (added[0] as (signal: NodeJS.Signals) => void)("SIGHUP");
    } finally {
      process.removeListener("SIGHUP", keep);
    }
    assert.equal(writes.at(-1), "\r\u001b[K");
    assert.deepEqual(process.listeners("SIGHUP"), before);
    assert.equal(
      process.listeners("SIGINT").some((l) => !before.includes(l) && l === added[0]),
      false,
    );
  });

  test("a line still shown when the process exits is erased by the exit handler", () => {
    const { writes, line, at } = setup();
    const before = process.listeners("exit");
    line.start(1, 10);
    at(600);
    line.update(0, 5);
    const added = process.listeners("exit").filter((l) => !before.includes(l));
    assert.equal(added.length, 1);
    // Called as the exit event would call it (emitting the real event would end the test runner's own work).
    (added[0] as () => void)();
    assert.equal(writes.at(-1), "\r\u001b[K");
    assert.deepEqual(process.listeners("exit"), before);
  });
});

describe("formatting", () => {
  test("bytes in decimal units, three significant digits", () => {
    assert.deepEqual([0, 999, 1000, 15_300, 612_000_000, 2_040_000_000, 1_500_000_000_000].map(formatBytes), [
      "0 B",
      "999 B",
      "1.00 kB",
      "15.3 kB",
      "612 MB",
      "2.04 GB",
      "1.50 TB",
    ]);
  });
  test("durations as people read them", () => {
    assert.deepEqual([0.2, 1, 12.4, 59.6, 185].map(formatDuration), ["<1 s", "1 s", "12 s", "1 min 00 s", "3 min 05 s"]);
  });
});
