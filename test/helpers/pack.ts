// The package as npm publishes it: packed once per test file, and installed offline into consumer projects.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "./temp.js";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/** Runs a command; fails with its output when it does not exit 0 (unless `allowFailure`). */
export function run(
  command: string,
  args: string[],
  cwd: string,
  options: { allowFailure?: boolean; env?: Record<string, string> } = {},
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", timeout: 120_000, env: { ...process.env, ...options.env } });
  if (!options.allowFailure)
    assert.equal(result.status, 0, `${command} ${args.join(" ")} in ${cwd} failed:\n${result.stdout}\n${result.stderr}`);
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * The built repository packed as it is published (scripts/pack.mjs: the files `npm pack` selects, staged with a
 * package.json without scripts): the tarball's path and the packed files. It runs no script, so nothing is built again.
 */
export function packRepo(): { tarball: string; files: string[] } {
  const out = tempDir("dropkit-pack-");
  const packed = run(process.execPath, [path.join(repoRoot, "scripts/pack.mjs"), "--json", "--pack-destination", out], repoRoot);
  const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { tarball: path.join(out, info!.filename), files: info!.files.map((f) => f.path).sort() };
}

/**
 * Makes `dir` a project that depends on `tarball`, installed offline with `npm ci`: its lockfile pins every dependency
 * to the version and integrity of this repository's lockfile, whose tarballs npm's cache holds since the project's own
 * install (a plain `npm install --offline` would need the registry's metadata, which `npm ci` never fetched).
 */
export function installTarball(dir: string, tarball: string, extra: Record<string, unknown> = {}): void {
  const repoLock = JSON.parse(fs.readFileSync(path.join(repoRoot, "package-lock.json"), "utf8")) as {
    packages: Record<string, { dependencies?: Record<string, string> } & Record<string, unknown>>;
  };
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
    version: string;
    dependencies: Record<string, string>;
  };
  const spec = `file:${path.relative(dir, tarball)}`;
  const packages: Record<string, unknown> = {
    "": { name: "consumer", version: "1.0.0", dependencies: { dropkit: spec } },
    "node_modules/dropkit": { version: pkg.version, resolved: spec, dependencies: pkg.dependencies, bin: { dropkit: "dist/dropkit.cjs" } },
  };
  const pending = Object.keys(pkg.dependencies);
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (packages[`node_modules/${name}`]) continue;
    const entry = repoLock.packages[`node_modules/${name}`];
    assert.ok(entry, `${name} is not in package-lock.json`);
    const { dev: _dev, devOptional: _devOptional, ...kept } = entry;
    packages[`node_modules/${name}`] = kept;
    pending.push(...Object.keys(entry.dependencies ?? {}));
  }
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "consumer", version: "1.0.0", private: true, dependencies: { dropkit: spec }, ...extra }),
  );
  fs.writeFileSync(
    path.join(dir, "package-lock.json"),
    JSON.stringify({ name: "consumer", version: "1.0.0", lockfileVersion: 3, requires: true, packages }),
  );
  run("npm", ["ci", "--offline", "--no-audit", "--no-fund", "--loglevel=error"], dir, { env: { npm_config_update_notifier: "false" } });
}
