// The plain-WebAssembly host (src/core/abi.ts, `dropkit/abi`) in Node: every vector, memory growth, traps, versioning, and that
// the browser-facing entries stay free of Node built-ins.

import assert from "node:assert/strict";
import fs from "node:fs";
import { describe, test } from "node:test";
import { gzipSync } from "node:zlib";
import { ABI_VERSION, CoreTrap, openCore, openCoreAsync } from "../../src/core/host.js";
import { openAbi, wasmBytes } from "../../scripts/lib/abi.js";
import { trapModule, trapModuleResponse, trapModuleWithVersion } from "../helpers/trap-module.js";
import { expectedText, loadVectors, requestText } from "../../scripts/lib/vectors.js";

const vectors = loadVectors();
const bytes = wasmBytes();
const raw = openAbi(bytes);
const encoder = new TextEncoder();

describe("dropkit/abi over every vector", () => {
  const core = openCore(bytes);

  test("the release module speaks ABI version 1", () => {
    assert.equal(ABI_VERSION, 1);
    assert.equal(core.abiVersion, 1);
  });

  for (const vector of vectors) {
    test(`${vector.file}: ${vector.name}`, () => {
      const request = requestText(vector);
      const { status, bytes: response } = core.callBytes(encoder.encode(request));
      assert.equal(status, vector.status);
      // Byte for byte what the test host of scripts/lib/abi.ts reads from the same module.
      assert.deepEqual(response, encoder.encode(raw.call(request).text));
      assert.equal(core.callText(request), expectedText(vector));
      assert.equal(core.lastStatus, vector.status);
      assert.deepEqual(core.call(vector.request as object), vector.response);
      assert.deepEqual(core.call(request), vector.response);
    });
  }
});

describe("openCoreAsync", () => {
  const probe = '{"op":"parse","text":"[1.0]"}';
  const answer = '{"ok":true,"value":[1.0],"errors":[]}';
  const sources: Array<[string, () => Promise<unknown>]> = [
    ["bytes", async () => bytes],
    ["an ArrayBuffer", async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)],
    ["a compiled module", async () => WebAssembly.compile(bytes)],
    ["a streamed Response", async () => new Response(bytes, { headers: { "content-type": "application/wasm" } })],
    ["a Response without the wasm type", async () => new Response(bytes)],
    ["a promised Response", async () => Promise.resolve(new Response(bytes))],
  ];
  for (const [name, make] of sources) {
    test(`opens the core from ${name}`, async () => {
      const core = await openCoreAsync((await make()) as Parameters<typeof openCoreAsync>[0]);
      assert.equal(core.abiVersion, 1);
      assert.equal(core.callText(probe), answer);
    });
  }

  test("a failed fetch is an error that names the status", async () => {
    await assert.rejects(openCoreAsync(new Response("nope", { status: 404, statusText: "Not Found" })), /404 Not Found/);
  });
});

describe("memory rules", () => {
  test("memory.buffer is re-read after every call: a module that grows memory on each dk_alloc still answers", () => {
    const core = openCore(trapModule());
    for (let i = 0; i < 5; i++) assert.equal(core.callText(`request ${i}`), trapModuleResponse);
  });

  test("a request larger than the initial memory grows it, and the instance keeps answering", () => {
    const core = openCore(bytes);
    const text = JSON.stringify({ theme: "x".repeat(3_000_000) });
    const r = core.call<{ ok: boolean; config: { theme: string } }>({ op: "validate", text });
    assert.equal(r.ok, true);
    assert.equal(r.config.theme.length, 3_000_000);
    assert.equal(core.callText('{"op":"parse","text":"1"}'), '{"ok":true,"value":1,"errors":[]}');
  });

  test("a response is a copy: it stays intact after later calls", () => {
    const core = openCore(bytes);
    const first = core.callBytes(encoder.encode('{"op":"parse","text":"\\"first\\""}'));
    const copy = first.bytes.slice();
    for (let i = 0; i < 20; i++) core.callText(JSON.stringify({ op: "parse", text: JSON.stringify("y".repeat(i * 1000)) }));
    assert.deepEqual(first.bytes, copy);
  });

  test("many calls on one instance do not grow memory without bound", () => {
    const host = openAbi(bytes);
    const request = JSON.stringify(vectors.find((v) => v.file === "resolve-plan.json")!.request);
    for (let i = 0; i < 50; i++) host.call(request);
    const after50 = host.memoryBytes();
    for (let i = 0; i < 500; i++) host.call(request);
    assert.equal(host.memoryBytes(), after50);
  });
});

describe("traps and versions", () => {
  test("a trap throws CoreTrap (InternalError), and the next call runs on a fresh instance", () => {
    const core = openCore(trapModule());
    assert.throws(
      () => core.callText("!trap"),
      (error: unknown) => {
        assert.ok(error instanceof CoreTrap);
        assert.equal(error.name, "InternalError");
        assert.match(error.message, /^the core trapped: /);
        assert.ok((error as Error).cause instanceof WebAssembly.RuntimeError);
        return true;
      },
    );
    // The stand-in poisons its instance before trapping: only a new instance answers.
    assert.equal(core.callText("fine"), trapModuleResponse);
    assert.equal(core.callText("fine again"), trapModuleResponse);
  });

  test("request-level failures are answers, not traps: status 1 and 2 come with a RequestError", () => {
    const core = openCore(bytes);
    const notJson = core.call<{ ok: boolean; errors: Array<{ name: string }> }>("nope");
    assert.equal(core.lastStatus, 1);
    assert.deepEqual([notJson.ok, notJson.errors[0].name], [false, "RequestError"]);
    core.call({ op: "nope" });
    assert.equal(core.lastStatus, 2);
    const invalidUtf8 = core.callBytes(Uint8Array.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]));
    assert.equal(invalidUtf8.status, 1);
    core.call({ op: "presets" });
    assert.equal(core.lastStatus, 0);
  });

  test("a module with another ABI version is refused when opened", () => {
    assert.equal(openCore(trapModuleWithVersion(1)).abiVersion, 1);
    assert.throws(() => openCore(trapModuleWithVersion(2)), /ABI version 2; this host knows version 1/);
  });

  test("a module that is not the core is refused with what is missing", () => {
    // (module (memory (export "memory") 1))
    const empty = Uint8Array.from([0, 97, 115, 109, 1, 0, 0, 0, 5, 3, 1, 0, 1, 7, 10, 1, 6, 109, 101, 109, 111, 114, 121, 2, 0]);
    assert.throws(() => openCore(empty), /does not export dk_abi_version/);
  });
});

describe("the release module's shape", () => {
  const module = new WebAssembly.Module(bytes);

  // One ceiling, on what a page downloads; the raw size has none (docs/performance.md, "Size").
  test("is within the size ceiling: at most 32 KB gzipped", () => {
    const gzipped = gzipSync(bytes, { level: 9 }).byteLength;
    assert.ok(gzipped <= 32 * 1024, `dist/dropkit.wasm is ${gzipped} bytes gzipped`);
  });

  test("imports nothing and exports memory and the six dk_* functions of docs/abi.md, nothing else", () => {
    assert.deepEqual(WebAssembly.Module.imports(module), []);
    const exports = WebAssembly.Module.exports(module)
      .map((e) => `${e.kind} ${e.name}`)
      .sort();
    const doc = fs.readFileSync(new URL("../../docs/abi.md", import.meta.url), "utf8");
    const documented = [...doc.matchAll(/^\| `(dk_\w+)`(?: \/ `(dk_\w+)`)? \|/gm)].flatMap((m) => [m[1], m[2]]).filter(Boolean);
    assert.deepEqual(exports, ["memory memory", ...documented.map((name) => `function ${name}`)].sort());
  });
});

describe("the package's core entries", () => {
  test("package.json exports dropkit/abi and dropkit/core with types that exist", () => {
    const pkg = JSON.parse(fs.readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      exports: Record<string, { types: string; default: string }>;
    };
    for (const entry of ["./abi", "./core"]) {
      const { types, default: main } = pkg.exports[entry];
      assert.ok(types.endsWith(".d.ts") && main.endsWith(".js"), entry);
      for (const f of [types, main]) assert.ok(fs.existsSync(new URL(`../../${f}`, import.meta.url)), `${entry}: ${f}`);
    }
  });
});
