// Instructions per request of the core, counted by callgrind on the C host: a measure that machine load does not move.
//
//   npm run bench:instructions [-- a.wasm b.wasm ...]     (default: dist/dropkit.wasm)
//
// Each module is compiled to C by wasm2c and linked into examples/embed-c's host (-O2); valgrind's callgrind
// counts the instructions of one `call` of each bench request, less those of the smallest request (parsing
// "0"): instantiation and the host's own work. Native code from wasm2c is not V8's, so the counts are a guide
// to what a change does to the core's work, not a time. Needs valgrind, wasm2c (wabt) and a C compiler.

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { benchInputs } from "../scripts/lib/inputs.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const modules =
  process.argv.slice(2).length > 0 ? process.argv.slice(2).map((f) => path.resolve(f)) : [path.join(root, "dist/dropkit.wasm")];
const work = mkdtempSync(path.join(os.tmpdir(), "dropkit-instructions-"));
const inputs = benchInputs();
const requests: Record<string, unknown> = {
  "resolve (the realistic config)": inputs.resolveRequest,
  "validate the 256 KB package.json": inputs.packageRequest,
  "validate the 1.25 MB config": inputs.configRequest,
  "resolve, 10,000 archives, 6,430 names": inputs.selectionRequest,
};
const files = Object.entries(requests).map(([name, request], i) => {
  const file = path.join(work, `request-${i}.json`);
  writeFileSync(file, JSON.stringify(request));
  return { name, file };
});
const trivial = path.join(work, "trivial.json");
writeFileSync(trivial, '{"op":"parse","text":"0"}');

function run(command: string, args: string[], stdin?: string): string {
  const r = spawnSync(command, args, { encoding: "utf8", input: stdin, maxBuffer: 64 * 2 ** 20 });
  if (r.error || r.status !== 0) throw new Error(`${command} ${args.join(" ")} failed: ${r.error?.message ?? r.stderr}`);
  return r.stdout + r.stderr;
}

function instructions(binary: string, request: string): number {
  const out = run("valgrind", ["--tool=callgrind", "--callgrind-out-file=/dev/null", binary, "call"], readFileSync(request, "utf8"));
  const m = /Collected : (\d+)/.exec(out);
  if (!m) throw new Error(`no instruction count from callgrind: ${out.slice(-500)}`);
  return Number(m[1]);
}

console.log("instructions per request (callgrind, the core compiled by wasm2c, cc -O2)");
for (const [i, wasm] of modules.entries()) {
  const build = path.join(work, `host-${i}`);
  run("make", ["-s", "-C", path.join(root, "examples/embed-c"), `WASM=${wasm}`, `BUILD=${build}`]);
  const binary = path.join(build, "dropkit-embed");
  const base = instructions(binary, trivial);
  console.log(wasm);
  for (const { name, file } of files)
    console.log(`  ${name.padEnd(36)} ${(instructions(binary, file) - base).toLocaleString("en").padStart(13)}`);
}
