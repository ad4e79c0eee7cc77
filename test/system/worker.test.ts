// dropkit/core in headless Chromium, bundled for the browser as a consumer would: a module Web Worker runs every vector through it; the page uses it too.

import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { buildSync } from "esbuild";
import { chromium, type Browser } from "playwright-core";
import { trapModule, trapModuleResponse } from "../helpers/trap-module.js";
import { expectedText, loadVectors, requestText } from "../../scripts/lib/vectors.js";

const executablePath = "/usr/bin/chromium";
const dist = new URL("../../dist/", import.meta.url);
const vectors = loadVectors();

// The worker imports only what a browser gives it: the host bundled with its dependency, and the wasm, over HTTP.
const workerJs = `
import { CoreTrap, openCore, openCoreAsync } from "/dropkit-core.js";
const results = {};
try {
  const core = await openCoreAsync(fetch("/dist/dropkit.wasm"));
  const bytes = await (await fetch("/dist/dropkit.wasm")).arrayBuffer();
  // Workers may compile synchronously: openCore with the bytes must give the same answers.
  const syncCore = openCore(bytes);
  const requests = await (await fetch("/requests.json")).json();
  results.abiVersion = core.abiVersion;
  results.vectors = requests.map(({ file, request }) => {
    const { status, bytes } = core.callBytes(new TextEncoder().encode(request));
    return { file, status, text: new TextDecoder("utf-8", { fatal: true }).decode(bytes), sync: syncCore.callText(request) };
  });
  const stand = openCore(await (await fetch("/trap.wasm")).arrayBuffer());
  try {
    stand.callText("!trap");
    results.trap = "no trap";
  } catch (error) {
    results.trap = error instanceof CoreTrap ? error.name : "not a CoreTrap: " + error;
  }
  results.afterTrap = stand.callText("fine");
  results.nodeGlobals = ["process", "require", "Buffer"].filter((name) => name in globalThis);
} catch (error) {
  results.error = String(error && error.stack || error);
}
postMessage(results);
`;

const pageHtml = `<!doctype html>
<meta charset="utf-8">
<title>dropkit/core</title>
<script type="module">
  import { openCoreAsync } from "/dropkit-core.js";
  const worker = new Worker("/worker.js", { type: "module" });
  window.workerResult = new Promise((resolve) => {
    worker.onmessage = (event) => resolve(event.data);
    worker.onerror = (event) => resolve({ error: "worker failed: " + event.message });
  });
  // The main thread compiles asynchronously (browsers refuse to compile large modules synchronously there).
  window.pageResult = openCoreAsync(fetch("/dist/dropkit.wasm"))
    .then((core) => core.callText('{"op":"parse","text":"[1.0]"}'))
    .catch((error) => "error: " + error);
</script>`;

let bundled: string | undefined;

/** dist/core/index.js (what `dropkit/core` names) and @assemblyscript/loader as one ES module for the browser: a Node built-in in it fails the build. */
function browserBundle(): string {
  bundled ??= buildSync({
    entryPoints: [new URL("core/index.js", dist).pathname],
    bundle: true,
    format: "esm",
    platform: "browser",
    write: false,
    logLevel: "silent",
  }).outputFiles[0]!.text;
  return bundled;
}

function serve(): Promise<http.Server> {
  const routes: Record<string, () => [string, Uint8Array | string]> = {
    "/": () => ["text/html", pageHtml],
    "/worker.js": () => ["text/javascript", workerJs],
    "/dropkit-core.js": () => ["text/javascript", browserBundle()],
    "/dist/dropkit.wasm": () => ["application/wasm", fs.readFileSync(new URL("dropkit.wasm", dist))],
    "/trap.wasm": () => ["application/wasm", trapModule()],
    "/requests.json": () => ["application/json", JSON.stringify(vectors.map((v) => ({ file: v.file, request: requestText(v) })))],
  };
  const server = http.createServer((req, res) => {
    const route = routes[new URL(req.url ?? "/", "http://x").pathname];
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    const [type, body] = route();
    res.writeHead(200, { "content-type": type, "cache-control": "no-store" }).end(body);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

interface WorkerResult {
  error?: string;
  abiVersion: number;
  vectors: Array<{ file: string; status: number; text: string; sync: string }>;
  trap: string;
  afterTrap: string;
  nodeGlobals: string[];
}

describe("dropkit/core in a Web Worker in headless Chromium", () => {
  let server: http.Server;
  let browser: Browser | undefined;
  let fromWorker: WorkerResult;
  let fromPage: string;

  before(async () => {
    assert.ok(fs.existsSync(executablePath), `Chromium is missing at ${executablePath}: install it (Debian: apt-get install chromium)`);
    assert.ok(fs.existsSync(new URL("core/index.js", dist)), "dist/core/index.js is missing: run npm run build");
    server = await serve();
    browser = await chromium.launch({
      executablePath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
      ],
    });
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    fromWorker = (await page.evaluate("window.workerResult")) as WorkerResult;
    fromPage = (await page.evaluate("window.pageResult")) as string;
    assert.deepEqual(problems, [], "errors on the page");
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  test("the worker ran without errors, with no Node globals around", () => {
    assert.equal(fromWorker.error, undefined);
    assert.deepEqual(fromWorker.nodeGlobals, []);
    assert.equal(fromWorker.abiVersion, 1);
  });

  test("every vector ran in the worker", () => {
    assert.deepEqual(
      fromWorker.vectors.map((v) => v.file),
      vectors.map((v) => v.file),
    );
  });

  for (const vector of vectors) {
    test(`${vector.file}: the expected status and bytes in the worker`, () => {
      const got = fromWorker.vectors.find((v) => v.file === vector.file);
      assert.ok(got, "not run");
      assert.equal(got.status, vector.status);
      assert.equal(got.text, expectedText(vector));
      assert.equal(got.sync, got.text);
    });
  }

  test("a trap in the worker is a CoreTrap, and the next call answers from a fresh instance", () => {
    assert.equal(fromWorker.trap, "InternalError");
    assert.equal(fromWorker.afterTrap, trapModuleResponse);
  });

  test("the page's main thread opens the core asynchronously and calls it", () => {
    assert.equal(fromPage, '{"ok":true,"value":[1.0],"errors":[]}');
  });
});
