// Whether dist/ was built from the sources as they are: `npm test` rebuilds only when an input of the build changed.
//
//   node scripts/build/stamp.mjs --write   after a build: records the hash of the build's inputs in dist/.inputs
//   node scripts/build/stamp.mjs --check   exit 0 when dist/ holds a build of exactly these inputs, else 1
//
// The inputs are every file git lists (tracked, or new and not ignored) outside the folders no build reads (test/, docs/,
// bench/, examples/, .ci/), and the installed dependencies' lockfile. Without git (an unpacked tarball) nothing is
// known to be up to date, so the check fails and the caller builds.

import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Folders whose files no build step reads. */
const notInputs = /^(?:test|docs|bench|examples|\.ci)\//;
/** What a complete build leaves: the core, the bin, the playground. */
const outputs = ["dist/dropkit.wasm", "dist/dropkit.cjs", "dist/playground/index.html"];

/** The hash of the build's inputs under `root`, or undefined when git cannot list them. */
export function inputsHash(root) {
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" });
  if (listed.status !== 0) return undefined;
  const files = listed.stdout
    .split("\0")
    .filter((file) => file !== "" && !notInputs.test(file) && existsSync(path.join(root, file)))
    .concat(["node_modules/.package-lock.json"])
    .sort();
  const hash = createHash("sha256");
  for (const file of files) {
    const full = path.join(root, file);
    hash.update(`${file}\0`);
    if (existsSync(full)) hash.update(readFileSync(full));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/** Whether `root`'s dist/ is a complete build of its inputs as they are now. */
export function upToDate(root) {
  const stamp = path.join(root, "dist/.inputs");
  if (!existsSync(stamp) || outputs.some((file) => !existsSync(path.join(root, file)))) return false;
  const hash = inputsHash(root);
  return hash !== undefined && readFileSync(stamp, "utf8").trim() === hash;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.cwd();
  if (process.argv[2] === "--write") {
    const hash = inputsHash(root);
    if (hash !== undefined) writeFileSync(path.join(root, "dist/.inputs"), `${hash}\n`);
  } else if (process.argv[2] === "--check") {
    if (!upToDate(root)) process.exit(1);
    process.stderr.write("build: dist/ was built from these sources (dist/.inputs): not built again\n");
  } else {
    process.stderr.write("usage: node scripts/build/stamp.mjs --write | --check\n");
    process.exit(64);
  }
}
