// Builds the CLI (npm run build:cli, after the wasm core): the generated parser tables, the bundles, the bin, and the check
// that the bin's code caches work. Start-up is most of a config resolver's run time: what each part does for it is in
// docs/performance.md ("Tricks in place"), and each part is a file of scripts/build/.

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildBin } from "./build/bin.mjs";
import { buildBundles } from "./build/bundles.mjs";
import { checkCodeCaches } from "./build/checks.mjs";

process.chdir(fileURLToPath(new URL("..", import.meta.url)));
const { version } = JSON.parse(readFileSync("package.json", "utf8"));
// V8 checks a code cache only against the source's length, so a cache's name carries a hash of its source: a cache
// left from another build is never used. The answer cache (src/files/answercache.ts) is keyed by the core's.
const hashOf = (text) => createHash("sha256").update(text).digest("hex").slice(0, 16);

// The parsers of the CLIs the bundles build, generated from the commands (scripts/build/machines.ts), before bundling them.
const machines = spawnSync(process.execPath, ["--import", "tsx", "scripts/build/machines.ts"], { stdio: "inherit" });
if (machines.status !== 0) throw new Error(`build: scripts/build/machines.ts failed (exit ${machines.status})`);

const bundles = await buildBundles({ version, coreHash: hashOf(readFileSync("dist/dropkit.wasm")) });
writeFileSync("dist/dropkit-cli.cjs", bundles.cli);
writeFileSync("dist/dropkit-config.cjs", bundles.config);
await buildBin({ cli: hashOf(bundles.cli), config: hashOf(bundles.config) });
checkCodeCaches("dist/dropkit.cjs");
