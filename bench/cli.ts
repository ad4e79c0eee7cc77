// Whole-process start-up: `dropkit config` against `node -e ''` (or Bun's and Deno's own), lilconfig and cosmiconfig.
// The peers find the same file; the runtime is the one BENCH_RUNTIME names.

import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { benchEnvironment, describeEnvironment } from "./environment.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = path.join(root, "dist/dropkit.cjs");
const runs = Number(process.env.BENCH_RUNS ?? 25);
/**
 * The runtime every case runs on: this Node, or BENCH_RUNTIME (another Node, a Bun binary, or `/path/to/deno run -A`),
 * as CLI_RUNTIME for the tests (test/helpers/cli.ts). The baseline is that runtime doing nothing.
 */
const runtime = process.env.BENCH_RUNTIME ? process.env.BENCH_RUNTIME.split(" ").filter(Boolean) : [process.execPath];
const kind = path.basename(runtime[0]!).startsWith("bun") ? "bun" : path.basename(runtime[0]!).startsWith("deno") ? "deno" : "node";
const baseline =
  kind === "bun"
    ? { name: "bun -e ';'", args: ["-e", ";"] }
    : kind === "deno"
      ? { name: "deno eval ''", args: ["eval", ""] }
      : { name: "node -e ''", args: ["-e", ""] };
/** A case's command: the runtime (with `run -A` for Deno) and its arguments; the baseline is spawned without `run -A`. */
const command = (c: Case): string[] => (c === cases[0] ? [runtime[0]!, ...c.args] : [...runtime, ...c.args]);

// A repository whose config sits 5 directories above the working directory.
const repo = mkdtempSync(path.join(os.tmpdir(), "dropkit-bench-"));
mkdirSync(path.join(repo, ".git"));
const deep = path.join(repo, "a/b/c/d/e");
mkdirSync(deep, { recursive: true });
const jsonRepo = path.join(repo, "json");
const tsRepo = path.join(repo, "ts");
for (const dir of [jsonRepo, tsRepo]) {
  mkdirSync(path.join(dir, ".git"), { recursive: true });
  mkdirSync(path.join(dir, "a/b/c/d/e"), { recursive: true });
}
const config = { theme: "ocean", exclude: ["legacy-*"], modules: { include: ["test-keep"] }, hooks: { onFailure: "continue" } };
writeFileSync(path.join(jsonRepo, "dropkit.config.json"), JSON.stringify(config, null, 2));
writeFileSync(
  path.join(tsRepo, "dropkit.config.ts"),
  `const theme: string = "ocean";\nexport default { theme, exclude: ["legacy-*"], modules: { include: ["test-keep"] } };\n`,
);
const jsonCwd = path.join(jsonRepo, "a/b/c/d/e");
const tsCwd = path.join(tsRepo, "a/b/c/d/e");

// The `.ts` forms the README documents: the config's type imported as a type only, and `defineConfig` from "dropkit";
// each in a project that installed dropkit (its package copied into node_modules) and in one that did not.
const tsForms = {
  "type import": `import type { DropkitConfig } from "dropkit";\n\nconst config: DropkitConfig = ${JSON.stringify(config)};\nexport default config;\n`,
  defineConfig: `import { defineConfig } from "dropkit";\n\nexport default defineConfig(${JSON.stringify(config)});\n`,
};
const formCwd = (form: keyof typeof tsForms, installed: boolean): string => {
  const dir = path.join(repo, `${form === "defineConfig" ? "define" : "type"}-${installed ? "installed" : "bare"}`);
  mkdirSync(path.join(dir, ".git"), { recursive: true });
  mkdirSync(path.join(dir, "a/b/c/d/e"), { recursive: true });
  writeFileSync(path.join(dir, "dropkit.config.ts"), tsForms[form]);
  if (installed) {
    const target = path.join(dir, "node_modules/dropkit");
    mkdirSync(target, { recursive: true });
    cpSync(path.join(root, "package.json"), path.join(target, "package.json"));
    cpSync(path.join(root, "dist"), path.join(target, "dist"), {
      recursive: true,
      filter: (from) => !from.includes(`${path.sep}playground`),
    });
  }
  return path.join(dir, "a/b/c/d/e");
};

// The peers load the same JSON file, found by the same upward search, in a process of their own (bench/peers/).
const lilconfigScript = path.join(root, "bench/peers/lilconfig.cjs");
const cosmiconfigScript = path.join(root, "bench/peers/cosmiconfig.cjs");

interface Case {
  name: string;
  args: string[];
  cwd: string;
  /** The case's own XDG_CACHE_HOME (src/files/privatedir.ts: jiti's compiled configs in dropkit/jiti, the bin's V8 code caches in dropkit/v8). */
  cacheHome?: string;
  before?: () => void;
}

/** A private cache directory for one case, so that no case warms or cools another's caches. */
const cacheHomeFor = (name: string): string => {
  const dir = path.join(repo, "cache", name);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
};
const tsCold = cacheHomeFor("ts-cold");
const tsFirst = cacheHomeFor("ts-first");

const cases: Case[] = [
  { name: baseline.name, args: baseline.args, cwd: jsonCwd },
  { name: "dropkit config (JSON, 5 dirs up)", args: [bin, "config"], cwd: jsonCwd, cacheHome: cacheHomeFor("json") },
  { name: "lilconfig (same JSON)", args: [lilconfigScript, jsonRepo], cwd: jsonCwd },
  { name: "cosmiconfig (same JSON)", args: [cosmiconfigScript, jsonRepo], cwd: jsonCwd },
  // Warm: the config compiled by jiti before, the bundle and jiti from their V8 code caches.
  { name: "dropkit config (.ts, warm cache)", args: [bin, "config"], cwd: tsCwd, cacheHome: cacheHomeFor("ts-warm") },
  // Cold: the config stripped (src/config/native.ts) or compiled by jiti again (both caches emptied before each run); the V8
  // code caches stay warm.
  {
    name: "dropkit config (.ts, cold cache)",
    args: [bin, "config"],
    cwd: tsCwd,
    cacheHome: tsCold,
    before: () => {
      for (const dir of ["jiti", "ts"]) rmSync(path.join(tsCold, "dropkit", dir), { recursive: true, force: true });
    },
  },
  // The first run on a machine: no cache of any kind (each run saves its V8 caches at exit, which is part of it).
  {
    name: "dropkit config (.ts, first run)",
    args: [bin, "config"],
    cwd: tsCwd,
    cacheHome: tsFirst,
    before: () => rmSync(path.join(tsFirst, "dropkit"), { recursive: true, force: true }),
  },
  // The documented forms, warm and on a first run (BENCH_FORMS=0 leaves them out).
  ...(process.env.BENCH_FORMS === "0"
    ? []
    : (["type import", "defineConfig"] as const).flatMap((form) =>
        [true, false].flatMap((installed): Case[] => {
          const cwd = formCwd(form, installed);
          const label = `.ts ${form}, ${installed ? "installed" : "not installed"}`;
          const first = cacheHomeFor(`${label} first`);
          return [
            { name: `${label}, warm`, args: [bin, "config"], cwd, cacheHome: cacheHomeFor(`${label} warm`) },
            {
              name: `${label}, first run`,
              args: [bin, "config"],
              cwd,
              cacheHome: first,
              before: () => rmSync(path.join(first, "dropkit"), { recursive: true, force: true }),
            },
          ];
        }),
      )),
];

const measured = benchEnvironment();
const envFor = (c: Case): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...measured.env, GIT_CEILING_DIRECTORIES: repo };
  // The peers get a cache directory of their own too, though they keep nothing there.
  env.XDG_CACHE_HOME = c.cacheHome ?? cacheHomeFor("peers");
  return env;
};

// Sanity: every command works before it is timed (and the warm cases' caches are made). A peer that does not run on
// this runtime is left out and said so; dropkit must run everywhere.
const skipped: string[] = [];
for (const c of cases.slice()) {
  const r = spawnSync(command(c)[0]!, command(c).slice(1), { cwd: c.cwd, env: envFor(c), encoding: "utf8" });
  if (r.status === 0) continue;
  if (!c.name.startsWith("dropkit") && c !== cases[0]) {
    skipped.push(`${c.name}: exit ${r.status}, ${r.stderr.trim().split("\n")[0]}`);
    cases.splice(cases.indexOf(c), 1);
    continue;
  }
  throw new Error(`${c.name} failed (${r.status}): ${r.stderr}`);
}

// Interleave the cases so that noise from the machine hits all of them alike.
const times = cases.map(() => [] as number[]);
for (let i = 0; i < runs; i++) {
  cases.forEach((c, j) => {
    c.before?.();
    const env = envFor(c);
    const start = performance.now();
    spawnSync(command(c)[0]!, command(c).slice(1), { cwd: c.cwd, env, stdio: "ignore" });
    times[j]!.push(performance.now() - start);
  });
}
rmSync(repo, { recursive: true, force: true });

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const best = (xs: number[]) => Math.min(...xs);
const base = median(times[0]!);
const baseBest = best(times[0]!);
const version = spawnSync(runtime[0]!, ["--version"], { encoding: "utf8" }).stdout.trim().split("\n")[0];
console.log(
  `${kind} ${version}: whole process, ${runs} interleaved runs each (median and best, ratio to ${cases[0]!.name}); load average at the end ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")}`,
);
for (const [j, c] of cases.entries()) {
  const m = median(times[j]!);
  const b = best(times[j]!);
  console.log(
    `  ${c.name.padEnd(52)} ${m.toFixed(1).padStart(7)} ms  ${(m / base).toFixed(2)}x   best ${b.toFixed(1).padStart(7)} ms  ${(b / baseBest).toFixed(2)}x`,
  );
}
for (const line of skipped) console.log(`  not run here: ${line}`);
console.log(describeEnvironment(measured));
console.log(
  "targets: JSON at or below cosmiconfig (Node 20, 24); .ts first run at most 3.5x (Node 22, 24, Bun, Deno); .ts warm at most 1.8x (Node 22, 24)",
);
