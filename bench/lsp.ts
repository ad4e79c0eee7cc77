// The language server at size: a 256 KB package.json with a dropkit key, changed in the editor, to its diagnostics, as a ratio
// to the core's own validation of the same text; printed, not asserted.
//
//   npm run bench:lsp                 (after npm run build)
//   BENCH_RUNS=50                     more changes (default 30)

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { loadCore } from "../src/core/node.ts";
import { LspClient } from "../scripts/lib/lspclient.ts";

const runs = Number(process.env.BENCH_RUNS ?? 30);
const cli = new URL("../dist/dropkit.cjs", import.meta.url).pathname;

/** A package.json of at least `bytes`, its dependencies making the size, with a dropkit key whose theme is `theme`. */
function packageJson(bytes: number, theme: string): string {
  const count = Math.ceil(bytes / 40);
  const dependencies = Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`@scope-${i}/package-${i}`, `^${i % 10}.${i % 7}.${i % 13}`]),
  );
  return (
    JSON.stringify({ name: "big", version: "1.0.0", dropkit: { theme, modules: { exclude: ["legacy-*"] } }, dependencies }, null, 2) + "\n"
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const drop = fs.mkdtempSync(path.join(os.tmpdir(), "dropkit-bench-lsp-"));
fs.mkdirSync(path.join(drop, ".git"));
const file = path.join(drop, "package.json");
const uri = pathToFileURL(file).href;
const text = packageJson(256 * 1024, "ocean");
fs.writeFileSync(file, text);
// Where the theme's value is written: each change types the other theme there, as an editor sends a keystroke's edit.
const at = text.indexOf('"ocean"');
const line = text.slice(0, at).split("\n").length - 1;
const character = at - text.lastIndexOf("\n", at) - 1;
const themes = ['"ocean"', '"coral"'];

/** The server's time from a change to its diagnostics: `change(i)` is the i-th change's content changes and the text after it. */
async function measure(client: LspClient, change: (i: number) => { changes: object[]; text: string }, version: { n: number }) {
  const server: number[] = [];
  const core: number[] = [];
  const validator = loadCore();
  for (let i = 0; i < runs; i++) {
    const { changes, text } = change(i);
    const start = performance.now();
    client.notify("textDocument/didChange", { textDocument: { uri, version: ++version.n }, contentChanges: changes });
    await client.diagnostics(uri, 30_000);
    server.push(performance.now() - start);
    const before = performance.now();
    validator.validateConfig(text, { format: "package.json", source: file });
    core.push(performance.now() - before);
  }
  return { server: median(server), core: median(core) };
}

const client = new LspClient(process.execPath, [cli, "lsp", "--stdio"], { cwd: drop, env: { PATH: process.env.PATH ?? "", HOME: drop } });
try {
  await client.initialize(pathToFileURL(drop).href);
  client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "json", version: 1, text } });
  await client.diagnostics(uri, 30_000);
  const version = { n: 1 };
  const after = (i: number) => text.slice(0, at) + themes[(i + 1) % 2] + text.slice(at + themes[0]!.length);
  const typed = await measure(
    client,
    (i) => ({
      changes: [
        { range: { start: { line, character }, end: { line, character: character + themes[0]!.length } }, text: themes[(i + 1) % 2] },
      ],
      text: after(i),
    }),
    version,
  );
  // The same edits sent as the whole text, as a client without incremental sync sends them: the text crosses the pipe each time.
  const whole = await measure(client, (i) => ({ changes: [{ text: after(i) }], text: after(i) }), version);
  const kb = Math.round(Buffer.byteLength(text) / 1024);
  const row = (name: string, m: { server: number; core: number }) =>
    console.log(
      `  ${name.padEnd(34)} ${m.server.toFixed(1).padStart(7)} ms   ` +
        `core's validate ${m.core.toFixed(1).padStart(6)} ms   ratio ${(m.server / m.core).toFixed(2)}x`,
    );
  console.log(
    `package.json of ${kb} KB, ${runs} changes of its theme, change to diagnostics over stdio (medians; the issue's bound: 50 ms):`,
  );
  row("an edit (incremental sync)", typed);
  row("the whole text (full sync)", whole);
  await client.shutdown();
} finally {
  client.kill();
  fs.rmSync(drop, { recursive: true, force: true });
}
