// `dropkit create` on real drops, whole process: cold runs over about 2 GB of stored zips and a drop of deflated ones against one
// core doing the same reading, hashing and verification, a cached re-run against `node -e ''`, and a cached re-run over 10,000 small archives.

import { spawnSync } from "node:child_process";
import { randomFillSync } from "node:crypto";
import { buildSync } from "esbuild";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { benchEnvironment, describeEnvironment } from "./environment.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = path.join(root, "dist/dropkit.cjs");
/** Made once and kept (git ignores it): about 2 GB, and 10,000 small archives. */
const dataDir = path.join(root, "bench/.data");
const bigDrop = path.join(dataDir, "big");
const manyDrop = path.join(dataDir, "many");
const deflatedDrop = path.join(dataDir, "deflated");
const coldRuns = Number(process.env.BENCH_COLD_RUNS ?? 7);
const warmRuns = Number(process.env.BENCH_RUNS ?? 25);

/** The big drop: a theme and eleven modules, 100 to 240 MB each (2,040 MB in all), stored entries of random bytes. */
const bigArchives = ["ocean-theme", "blog", "shop", "search", "gallery", "forum", "wiki", "mail", "maps", "chat", "docs", "media"].map(
  (name, i) => ({ name: `${name}.zip`, megabytes: 100 + ((i * 37) % 12) * 13 }),
);
const manyCount = 10_000;
/** The deflated drop: a theme and five modules made by Info-ZIP `zip -6` from text-like files, 40 MB of text each. */
const deflatedArchives = ["ocean-theme", "blog", "shop", "search", "wiki", "docs"].map((name) => `${name}.zip`);
const deflatedTextBytes = 40_000_000;

makeBigDrop();
makeManyDrop();
makeDeflatedDrop();

// The peers (bench/peers/): one core hashing the same files in one process, one stream after another, as a script would;
// the same with dropkit's own way of reading; and one core doing what create does, with create's own code.
const peer = path.join(root, "bench/peers/hash-streams.cjs");
const peerReads = path.join(root, "bench/peers/hash-reads.cjs");
const peerVerify = path.join(root, "bench/peers/verify.cjs");
// create's digest (src/archives/digest.ts), bundled as the CLI bundles it, for the last peer.
const peerDigestModule = path.join(dataDir, "peer-digest-module.cjs");
buildSync({
  entryPoints: [path.join(root, "src/archives/digest.ts")],
  outfile: peerDigestModule,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  logLevel: "warning",
});
const bigFiles = bigArchives.map((a) => path.join(bigDrop, a.name));
const deflatedFiles = deflatedArchives.map((name) => path.join(deflatedDrop, name));
const measured = benchEnvironment();
// A cache home of the bench's own, as bench/cli.ts gives each case: the code caches are the ones these runs make, not
// whichever run on the machine (a test suite's) saved one first for this build.
const cacheHome = path.join(dataDir, "cache-home");
fs.mkdirSync(cacheHome, { recursive: true, mode: 0o700 });
const env = { ...measured.env, GIT_CEILING_DIRECTORIES: dataDir, XDG_CACHE_HOME: cacheHome };

const removeCache = (dir: string) => () => {
  for (const file of [".dropkit-cache.json", ".dropkit.json"]) fs.rmSync(path.join(dir, file), { force: true });
};

interface Case {
  name: string;
  args: string[];
  cwd: string;
  before?: () => void;
}

// Every command works before it is timed; the cached cases start from a full cache, and every file is in the page cache.
for (const dir of [bigDrop, manyDrop, deflatedDrop]) {
  removeCache(dir)();
  const r = spawnSync(process.execPath, [bin, "create"], { cwd: dir, env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`dropkit create in ${dir} failed (${r.status}): ${r.stderr.slice(-2000)}`);
}
spawnSync(process.execPath, [peer, ...bigFiles], { stdio: "inherit" });

const cold = measure(
  [
    { name: "node: one core, hash and verify (create's code)", args: [peerVerify, peerDigestModule, ...bigFiles], cwd: bigDrop },
    { name: "node: one core, one stream after another", args: [peer, ...bigFiles], cwd: bigDrop },
    { name: "node: one core, 1 MiB reads", args: [peerReads, ...bigFiles], cwd: bigDrop },
    { name: "dropkit create, no cache", args: [bin, "create"], cwd: bigDrop, before: removeCache(bigDrop) },
  ],
  coldRuns,
);
const coldDeflated = measure(
  [
    { name: "node: one core, hash and verify (create's code)", args: [peerVerify, peerDigestModule, ...deflatedFiles], cwd: deflatedDrop },
    { name: "dropkit create, no cache", args: [bin, "create"], cwd: deflatedDrop, before: removeCache(deflatedDrop) },
  ],
  coldRuns,
);
// The last cold run left a full cache behind.
const warm = measure(
  [
    { name: "node -e ''", args: ["-e", ""], cwd: bigDrop },
    { name: "dropkit create, cached (12 archives)", args: [bin, "create"], cwd: bigDrop },
    { name: "dropkit create, cached (10,000 archives)", args: [bin, "create"], cwd: manyDrop },
  ],
  warmRuns,
);

const load = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(", ");
console.log(`${os.availableParallelism()} cores; load average at the end ${load} (1, 5, 15 min)`);
console.log(describeEnvironment(measured));
console.log(
  `cold: ${(bigArchives.reduce((s, a) => s + a.megabytes, 0) / 1000).toFixed(2)} GB in ${bigArchives.length} ` +
    `archives, ${coldRuns} interleaved runs each (files in the page cache)`,
);
report(cold, 0, "speed-up", (base, m) => base / m);
const deflatedBytes = deflatedFiles.reduce((s, f) => s + fs.statSync(f).size, 0);
console.log(
  `cold, deflated: ${(deflatedBytes / 1e6).toFixed(0)} MB of zip -6 archives ` +
    `(${((deflatedArchives.length * deflatedTextBytes) / 1e6).toFixed(0)} MB of text) in ` +
    `${deflatedArchives.length} archives, ${coldRuns} interleaved runs each`,
);
report(coldDeflated, 0, "speed-up", (base, m) => base / m);
console.log(`cached re-runs, ${warmRuns} interleaved runs each`);
report(warm, 0, "ratio", (base, m) => m / base);
console.log(
  `targets: cold speed-up (against one core hashing and verifying) at least 1.6 on 2 cores, stored and deflated; ` +
    `cached (12) at most 1.5x node -e ''; cached (10,000) at most 500 ms`,
);

// --- helpers ---

/** Runs the cases interleaved, so that noise from the machine hits all of them alike; whole-process times in ms. */
function measure(cases: Case[], runs: number): Array<{ name: string; times: number[] }> {
  const times = cases.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) {
    cases.forEach((c, j) => {
      c.before?.();
      const start = performance.now();
      const r = spawnSync(process.execPath, c.args, { cwd: c.cwd, env, stdio: "ignore" });
      times[j]!.push(performance.now() - start);
      if (r.status !== 0) throw new Error(`${c.name} failed (${r.status})`);
    });
  }
  return cases.map((c, j) => ({ name: c.name, times: times[j]! }));
}

function report(
  results: Array<{ name: string; times: number[] }>,
  baseIndex: number,
  label: string,
  ratio: (base: number, m: number) => number,
): void {
  const base = median(results[baseIndex]!.times);
  for (const r of results) {
    const m = median(r.times);
    const range = `${Math.min(...r.times).toFixed(0)}-${Math.max(...r.times).toFixed(0)}`;
    console.log(
      `  ${r.name.padEnd(44)} median ${m.toFixed(0).padStart(6)} ms  (range ${range.padStart(11)} ms)  ${label} ${ratio(base, m).toFixed(2)}`,
    );
  }
}

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The big drop, made with Info-ZIP's zip from files of random bytes (stored: -0, so that making it is fast). */
function makeBigDrop(): void {
  if (bigArchives.every((a) => fs.existsSync(path.join(bigDrop, a.name)))) return;
  fs.rmSync(bigDrop, { recursive: true, force: true });
  fs.mkdirSync(path.join(bigDrop, ".git"), { recursive: true });
  const staging = fs.mkdtempSync(path.join(dataDir, "staging-"));
  const block = Buffer.allocUnsafe(16 * 1024 * 1024);
  randomFillSync(block);
  try {
    for (const [i, archive] of bigArchives.entries()) {
      // Four entries per archive; each file differs from the others in its first bytes.
      const files: string[] = [];
      for (let part = 0; part < 4; part++) {
        const file = path.join(staging, `part-${part}.bin`);
        const fd = fs.openSync(file, "w");
        for (let written = 0; written < (archive.megabytes * 1_000_000) / 4; written += block.length) {
          block.writeUInt32LE(i * 4 + part, 0);
          block.writeUInt32LE(written, 4);
          fs.writeSync(fd, block, 0, Math.min(block.length, (archive.megabytes * 1_000_000) / 4 - written));
        }
        fs.closeSync(fd);
        files.push(path.basename(file));
      }
      const r = spawnSync("zip", ["-q", "-0", path.join(bigDrop, archive.name), ...files], { cwd: staging, encoding: "utf8" });
      if (r.status !== 0)
        throw new Error(`zip failed (${r.status}): ${r.stderr}${r.error?.message ?? ""}; install it (Debian: apt-get install zip)`);
      // An hour old, so that the cache trusts them (see the racy window in src/archives/fingerprints.ts).
      const old = new Date(Date.now() - 3_600_000);
      fs.utimesSync(path.join(bigDrop, archive.name), old, old);
      process.stderr.write(`made ${archive.name} (${archive.megabytes} MB)\n`);
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** 10,000 small archives and a theme, made with Python's zipfile in one process, with mtimes an hour old. */
function makeManyDrop(): void {
  if (fs.existsSync(path.join(manyDrop, "ocean-theme.zip"))) return;
  fs.rmSync(manyDrop, { recursive: true, force: true });
  fs.mkdirSync(path.join(manyDrop, ".git"), { recursive: true });
  const r = spawnSync("python3", [path.join(root, "bench/many-zips.py"), manyDrop, String(manyCount)], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`python3 failed (${r.status}): ${r.stderr}${r.error?.message ?? ""}`);
  process.stderr.write(`made ${manyCount} small archives\n`);
}

/** The deflated drop, made with Info-ZIP's `zip -6` from text-like files (log lines of varying words), mtimes an hour old. */
function makeDeflatedDrop(): void {
  if (deflatedArchives.every((name) => fs.existsSync(path.join(deflatedDrop, name)))) return;
  fs.rmSync(deflatedDrop, { recursive: true, force: true });
  fs.mkdirSync(path.join(deflatedDrop, ".git"), { recursive: true });
  const staging = fs.mkdtempSync(path.join(dataDir, "staging-"));
  const words = [
    "theme",
    "module",
    "render",
    "cache",
    "request",
    "user",
    "page",
    "error",
    "ok",
    "index",
    "style",
    "asset",
    "query",
    "session",
  ];
  try {
    for (const [i, name] of deflatedArchives.entries()) {
      const lines: string[] = [];
      let bytes = 0;
      for (let n = 0; bytes < deflatedTextBytes; n++) {
        const line =
          `2026-11-${String(1 + (n % 28)).padStart(2, "0")} ${(n * 7919) % 86400} ${words[(n * 31 + i) % words.length]} ` +
          `${words[(n * 17) % words.length]} id=${(n * 2654435761) % 1000003} took ${n % 997} ms\n`;
        lines.push(line);
        bytes += line.length;
      }
      fs.writeFileSync(path.join(staging, "log.txt"), lines.join(""));
      const r = spawnSync("zip", ["-q", "-6", path.join(deflatedDrop, name), "log.txt"], { cwd: staging, encoding: "utf8" });
      if (r.status !== 0)
        throw new Error(`zip failed (${r.status}): ${r.stderr}${r.error?.message ?? ""}; install it (Debian: apt-get install zip)`);
      const old = new Date(Date.now() - 3_600_000);
      fs.utimesSync(path.join(deflatedDrop, name), old, old);
      process.stderr.write(`made ${name} (deflated)\n`);
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
