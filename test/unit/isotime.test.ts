// Tests for src/isotime.ts: the same text as toISOString, and no local time zone loaded for it.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { transformSync } from "esbuild";
import { isoTime } from "../../src/isotime.js";

test("isoTime: the text of toISOString, for every kind of time and year", () => {
  const times = [0, 1, -1, 999, 951_782_400_000, 1_795_817_047_087, Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(0, 0, 1)];
  for (let i = 0; i < 2000; i++) times.push(Math.floor((Math.random() * 2 - 1) * 4e12));
  // Outside 0–9999 toISOString writes six-digit signed years.
  times.push(Date.UTC(10_000, 0, 1), Date.UTC(-1, 5, 1), 8.64e15, -8.64e15);
  for (const t of times) assert.equal(isoTime(new Date(t)), new Date(t).toISOString(), String(t));
  assert.throws(() => isoTime(new Date(Number.NaN)), RangeError);
});

test("isoTime: the local time zone is not loaded (V8's toISOString reads /etc/localtime at its first call)", {
  skip: process.platform !== "linux",
}, () => {
  const module = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../src/isotime.ts");
  // The module as JavaScript, so that the child is plain node: a loader would open files of its own.
  const { code } = transformSync(fs.readFileSync(module, "utf8"), { loader: "ts", format: "esm" });
  // The zone's file is opened only when something needs it: strace shows whether it was.
  const run = (code: string) =>
    spawnSync("strace", ["-f", "-e", "trace=openat,open", process.execPath, "--input-type=module", "-e", code], { encoding: "utf8" });
  const probe = run(`new Date().toISOString()`);
  if (probe.error || probe.status !== 0 || !probe.stderr.includes("localtime")) return; // no strace, or no zone file here
  const r = run(`${code}\nisoTime(new Date());`);
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /localtime/);
});
