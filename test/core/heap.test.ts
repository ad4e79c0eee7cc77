// Tests for the core's memory across calls (assembly/abi/heap.ts) through the raw dk_* ABI: host buffers keep their
// bytes, the response lives until the next call, and the limit on live buffers.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, test } from "node:test";
import { wasmBytes, wasmExports } from "../../scripts/lib/abi.js";

const bytes = wasmBytes();
const encoder = new TextEncoder();

describe("buffers and the response (docs/embedding.md, memory rules)", () => {
  const exportsOf = () => wasmExports(bytes);
  const view = (e: Record<string, any>, ptr: number, len: number) => new Uint8Array(e.memory.buffer, ptr, len);
  const put = (e: Record<string, any>, text: string) => {
    const data = encoder.encode(text);
    const ptr = e.dk_alloc(data.length);
    view(e, ptr, data.length).set(data);
    return [ptr, data.length];
  };
  const answer = (e: Record<string, any>) => new TextDecoder().decode(view(e, e.dk_out_ptr(), e.dk_out_len()));

  test("a buffer the host holds keeps its bytes across calls: the same request buffer can be sent again", () => {
    const e = exportsOf();
    const [a, aLen] = put(e, JSON.stringify({ op: "parse", text: '["a"]' }));
    assert.equal(e.dk_call(a, aLen), 0);
    assert.equal(answer(e), '{"ok":true,"value":["a"],"errors":[]}');
    // A larger request in between, whose call builds a much larger heap.
    const [b, bLen] = put(e, JSON.stringify({ op: "validate", text: JSON.stringify({ theme: "t".repeat(200_000) }) }));
    assert.equal(e.dk_call(b, bLen), 0);
    assert.equal(e.dk_call(a, aLen), 0);
    assert.equal(answer(e), '{"ok":true,"value":["a"],"errors":[]}');
    e.dk_free(b);
    e.dk_free(a);
  });

  test("the response stays intact through dk_alloc, writes and dk_free until the next dk_call", () => {
    const e = exportsOf();
    const [req, len] = put(e, JSON.stringify({ op: "validate", text: '{"theme": 1}' }));
    assert.equal(e.dk_call(req, len), 0);
    e.dk_free(req);
    const expected = answer(e);
    assert.match(expected, /SchemaValidationError/);
    for (const size of [0, 16, 5_000, 300_000]) {
      const p = e.dk_alloc(size);
      view(e, p, size).fill(0xff);
      if (size !== 5_000) e.dk_free(p);
    }
    assert.equal(answer(e), expected);
  });

  test("at most 1024 buffers are live at once: one more is refused with 0; freed ones make room again", () => {
    const e = exportsOf();
    const held: number[] = [];
    for (let i = 0; i < 1024; i++) held.push(e.dk_alloc(8));
    assert.equal(new Set(held).size, 1024, "every live buffer has its own place");
    assert.equal(e.dk_alloc(8), 0);
    e.dk_free(held.pop());
    assert.notEqual(e.dk_alloc(8), 0);
    const fresh = exportsOf();
    for (let i = 0; i < 3000; i++) fresh.dk_free(fresh.dk_alloc(8));
    const [req, len] = put(fresh, '{"op":"parse","text":"1"}');
    assert.equal(fresh.dk_call(req, len), 0);
    assert.equal(answer(fresh), '{"ok":true,"value":1,"errors":[]}');
  });
});

describe("dk_alloc refuses what does not fit with 0, and the instance goes on (docs/embedding.md, limits)", () => {
  const exportsOf = () => wasmExports(bytes);
  const request = encoder.encode('{"op":"parse","text":"[1]"}');
  /** Sends a small request the usual way: the instance must still answer after any refusal. */
  const stillAnswers = (e: Record<string, any>) => {
    const ptr = e.dk_alloc(request.length) >>> 0;
    assert.ok(ptr > 0);
    new Uint8Array(e.memory.buffer, ptr, request.length).set(request);
    assert.equal(e.dk_call(ptr, request.length), 0);
    e.dk_free(ptr);
    assert.equal(
      new TextDecoder().decode(new Uint8Array(e.memory.buffer, e.dk_out_ptr() >>> 0, e.dk_out_len())),
      '{"ok":true,"value":[1],"errors":[]}',
    );
  };

  test("a negative length (2 GiB or more as an i32, 2^32-1 included) gives 0, however often it is asked", () => {
    const e = exportsOf();
    const before = e.memory.buffer.byteLength;
    for (const len of [-1, -5, 0xffff_ffff | 0, 0x8000_0000 | 0, 0xffff_0000 | 0]) {
      for (let i = 0; i < 3; i++) assert.equal(e.dk_alloc(len), 0, `dk_alloc(${len})`);
    }
    assert.equal(e.memory.buffer.byteLength, before, "a refusal grows nothing");
    stillAnswers(e);
  });

  test("2^31-1 twice: the first fits in memory, the second would pass 4 GiB (a u32 wrap) and gives 0", () => {
    const e = exportsOf();
    const first = e.dk_alloc(2 ** 31 - 1) >>> 0;
    assert.ok(first > 0 && first + 2 ** 31 - 1 <= e.memory.buffer.byteLength, `first buffer at ${first}`);
    const grown = e.memory.buffer.byteLength;
    for (let i = 0; i < 3; i++) assert.equal(e.dk_alloc(2 ** 31 - 1), 0);
    for (const len of [2 ** 31 - 2, 2 ** 31 - 65536]) assert.equal(e.dk_alloc(len), 0, `dk_alloc(${len})`);
    assert.equal(e.memory.buffer.byteLength, grown);
    // A call starts its heap above the 2 GiB buffer, a gap the allocator crosses in steps: the buffer keeps every byte.
    new Uint8Array(e.memory.buffer, first, 2 ** 31 - 1).fill(0xa5);
    stillAnswers(e);
    const chunk = Buffer.alloc(1 << 26, 0xa5);
    for (let at = 0; at < 2 ** 31 - 1; at += chunk.length) {
      const len = Math.min(chunk.length, 2 ** 31 - 1 - at);
      assert.ok(Buffer.from(e.memory.buffer, first + at, len).equals(chunk.subarray(0, len)), `the held buffer changed near offset ${at}`);
    }
    e.dk_free(first);
    // Freed, the room is there again.
    const again = e.dk_alloc(2 ** 31 - 1) >>> 0;
    assert.ok(again > 0 && again + 2 ** 31 - 1 <= e.memory.buffer.byteLength);
  });

  test("when memory cannot grow (an engine capped at 256 pages), a large buffer gives 0 and small ones still work", () => {
    const script = `
      const { readFileSync } = require("node:fs");
      const e = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(process.argv[1])), {}).exports;
      const out = { big: e.dk_alloc(32 << 20), pages: e.memory.buffer.byteLength >> 16 };
      const req = Buffer.from('{"op":"parse","text":"[1]"}');
      const ptr = e.dk_alloc(req.length);
      new Uint8Array(e.memory.buffer, ptr, req.length).set(req);
      out.small = ptr > 0;
      out.status = e.dk_call(ptr, req.length);
      out.answer = Buffer.from(e.memory.buffer, e.dk_out_ptr(), e.dk_out_len()).toString();
      console.log(JSON.stringify(out));`;
    const wasm = new URL("../../dist/dropkit.wasm", import.meta.url).pathname;
    const r = spawnSync(process.execPath, ["--wasm-max-mem-pages=256", "-e", script, wasm], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(out, { big: 0, pages: out.pages, small: true, status: 0, answer: '{"ok":true,"value":[1],"errors":[]}' });
    assert.ok(out.pages <= 256);
  });

  test("the JS host turns a refusal into a CoreTrap naming the size, and never writes at address 0", () => {
    const script = `
      import { openCore } from "./src/core/host.ts";
      import { readFileSync } from "node:fs";
      const bytes = readFileSync("dist/dropkit.wasm");
      const text = JSON.stringify({ op: "parse", text: "x".repeat(20 << 20) });
      const out = [];
      const host = openCore(bytes);
      for (const send of [() => host.callText(text), () => host.parseJson(JSON.parse(text).text)]) {
        try { send(); out.push("answered"); }
        catch (error) { out.push(error.name + ": " + error.message); }
        // The next request gets a fresh instance, which answers.
        out.push(JSON.stringify(host.parseJson("1")));
      }
      console.log(JSON.stringify(out));`;
    const root = new URL("../..", import.meta.url).pathname;
    const r = spawnSync(process.execPath, ["--wasm-max-mem-pages=256", "--import", "tsx", "--input-type=module", "-e", script], {
      cwd: root,
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as string[];
    const refused = /^InternalError: the core has no room for a request of \d+ bytes \(dk_alloc returned 0\)$/;
    assert.match(out[0]!, refused);
    assert.equal(out[1], '{"ok":true,"value":1,"errors":[]}');
    assert.match(out[2]!, refused);
    assert.equal(out[3], '{"ok":true,"value":1,"errors":[]}');
  });
});
