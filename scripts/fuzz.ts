// `npm run fuzz`: the fuzz suite (test/core/fuzz.test.ts) for minutes, round after round with fresh seeds, until one fails.
//
// Usage: npm run fuzz [-- <minutes> [<runs scale>]]   (defaults: 5 minutes, 10x the CI budget per round)
// Replay a failure with the FUZZ_SEED and FUZZ_RUNS it prints: FUZZ_SEED=... FUZZ_RUNS=... node --import tsx --test test/core/fuzz.test.ts

import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const minutes = Number(process.argv[2] ?? "5");
const scale = process.argv[3] ?? process.env.FUZZ_RUNS ?? "10";
const file = fileURLToPath(new URL("../test/core/fuzz.test.ts", import.meta.url));
const deadline = Date.now() + minutes * 60_000;
let round = 0;
let cases = 0;

do {
  round++;
  const seed = String(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const started = Date.now();
  const run = spawnSync(process.execPath, ["--import", "tsx", "--test", file], {
    env: { ...process.env, FUZZ_RUNS: scale, FUZZ_SEED: seed },
    encoding: "utf8",
    maxBuffer: 256 * 2 ** 20,
  });
  const count = /# fuzz: (\d+) cases/.exec(run.stdout);
  cases += count ? Number(count[1]) : 0;
  const seconds = Math.round((Date.now() - started) / 1000);
  if (run.status !== 0) {
    process.stdout.write(run.stdout);
    process.stderr.write(run.stderr);
    console.error(
      `\nround ${round} FAILED in ${seconds} s. Replay: FUZZ_SEED=${seed} FUZZ_RUNS=${scale} node --import tsx --test test/core/fuzz.test.ts`,
    );
    process.exit(1);
  }
  console.log(`round ${round}: seed ${seed}, ${count?.[1] ?? "?"} cases, ${seconds} s, ok`);
} while (Date.now() < deadline && process.env.FUZZ_SEED === undefined);

console.log(`${round} rounds, ${cases} cases, no failure`);
