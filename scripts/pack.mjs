// Packs the package as it is published: the files `npm pack` would ship, staged with a package.json that has no scripts.
//
// The repository's package.json keeps `prepare` (npm install and npm ci here, and installing dropkit from git, build
// it), but a published package.json has no use for scripts: each needs the repository (scripts/, test/), and an
// install script of a dependency is what npm warns about. Editing package.json around `npm pack` (prepack, postpack)
// would leave it edited when the pack fails; a staged copy leaves the repository as it was, whatever happens.
//
//   node scripts/pack.mjs [--pack-destination <dir>] [--json]   (npm run pack)
//   npm publish ./dropkit-<version>.tgz                          (a tarball: npm runs none of the repository's scripts)
//
// With --json it prints npm pack's JSON report of the staged package. `--refuse` is the repository's prepublishOnly:
// `npm publish` of the repository itself would publish its scripts, so it stops and says how to publish instead.

import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);

if (args.includes("--refuse")) {
  process.stderr.write(
    "dropkit is published from its staged tarball, whose package.json has no scripts: run `npm run pack`, then `npm publish ./dropkit-<version>.tgz`.\n",
  );
  process.exit(1);
}

const at = args.indexOf("--pack-destination");
const destination = path.resolve(at >= 0 && args[at + 1] ? args[at + 1] : root);
const json = args.includes("--json");

/** Runs npm with `args` in `cwd` and returns its stdout; npm's own failure ends this script with its output. */
function npm(npmArgs, cwd) {
  const result = spawnSync("npm", npmArgs, { cwd, encoding: "utf8" });
  if (result.status !== 0) {
    process.stderr.write(`npm ${npmArgs.join(" ")} in ${cwd} failed:\n${result.stdout}${result.stderr}`);
    process.exit(result.status ?? 1);
  }
  return result.stdout;
}

// The files npm would ship from the repository (`files`, README, LICENSE, package.json), as npm itself selects them.
const [listed] = JSON.parse(npm(["pack", "--dry-run", "--json", "--ignore-scripts"], root));
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
// Scripts and development dependencies are the repository's; a consumer's install reads neither.
delete manifest.scripts;
delete manifest.devDependencies;

const stage = mkdtempSync(path.join(os.tmpdir(), "dropkit-stage-"));
try {
  for (const { path: file } of listed.files) {
    if (file === "package.json") continue;
    const from = path.join(root, file);
    const to = path.join(stage, file);
    mkdirSync(path.dirname(to), { recursive: true });
    copyFileSync(from, to);
    chmodSync(to, statSync(from).mode & 0o777);
  }
  writeFileSync(path.join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  mkdirSync(destination, { recursive: true });
  const report = npm(["pack", "--json", "--ignore-scripts", "--pack-destination", destination], stage);
  const [packed] = JSON.parse(report);
  // The staged package must ship exactly what the repository's would: a file that npm selects differently fails here.
  const want = listed.files.map((f) => f.path).sort();
  const got = packed.files.map((f) => f.path).sort();
  if (JSON.stringify(want) !== JSON.stringify(got)) {
    process.stderr.write(
      `The staged package's files differ from the repository's:\n  repository: ${want.join(" ")}\n  staged: ${got.join(" ")}\n`,
    );
    process.exit(1);
  }
  process.stdout.write(json ? report : `${path.join(destination, packed.filename)}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
