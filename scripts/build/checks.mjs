// What the build checks on the bin it wrote: a run saves the code caches that the next runs load.

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Runs `dropkit config` through the bin three times with a cache directory of its own (a JSON config, a .ts config,
 * the .ts config again) and fails the build unless the last run compiled the bundle and jiti from the caches the
 * earlier runs saved: without them every start-up compiles both again, and nothing else would say so.
 */
export function checkCodeCaches(bin) {
  const repo = mkdtempSync(path.join(os.tmpdir(), "dropkit-code-cache-"));
  try {
    const drops = { json: path.join(repo, "json"), ts: path.join(repo, "ts") };
    for (const dir of Object.values(drops)) mkdirSync(path.join(dir, ".git"), { recursive: true });
    writeFileSync(path.join(drops.json, "dropkit.config.json"), JSON.stringify({ theme: "ocean", exclude: ["legacy-*"] }));
    writeFileSync(path.join(drops.ts, "dropkit.config.ts"), 'const theme: string = "ocean";\nexport default { theme };\n');
    const cacheHome = path.join(repo, "cache");
    mkdirSync(cacheHome, { mode: 0o700 });
    // A plain run: no DROPKIT_* settings, and no NODE_OPTIONS, whose V8 flags would make V8 reject the cache in other runs.
    const plain = Object.entries(process.env).filter(([name]) => !name.startsWith("DROPKIT_") && name !== "NODE_OPTIONS");
    const env = { ...Object.fromEntries(plain), GIT_CEILING_DIRECTORIES: repo, XDG_CACHE_HOME: cacheHome };
    const probe = path.resolve("scripts/build/run-bin.cjs");
    const run = (drop) => spawnSync(process.execPath, [probe, path.resolve(bin), "config"], { cwd: drop, env, encoding: "utf8" });
    const runs = [run(drops.json), run(drops.ts), run(drops.ts)];
    const failed = runs.find((result) => result.status !== 0);
    if (failed) throw new Error(`build: dropkit config failed (exit ${failed.status}) in the code-cache check: ${failed.stderr}`);
    const last = runs[2];
    if (!/^rejected: false false$/m.test(last.stdout))
      throw new Error(
        `build: V8 did not accept the code caches a first run saved (the bundle's, then jiti's): ${last.stdout}${last.stderr}`,
      );
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}
