// Tests for the core's memory across calls (assembly/heap.ts) through the raw dk_* ABI: host buffers keep their
// bytes, the response lives until the next call, and the limit on live buffers.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { wasmBytes } from "./helpers/abi.js";

const bytes = wasmBytes();
const encoder = new TextEncoder();

describe("buffers and the response (docs/embedding.md, memory rules)", () => {
  const exportsOf = () => new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports as Record<string, any>;
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

  test("at most 1024 buffers are live at once: one more traps; freed ones make room again", () => {
    const e = exportsOf();
    const held: number[] = [];
    for (let i = 0; i < 1024; i++) held.push(e.dk_alloc(8));
    assert.equal(new Set(held).size, 1024, "every live buffer has its own place");
    assert.throws(() => e.dk_alloc(8), WebAssembly.RuntimeError);
    const fresh = exportsOf();
    for (let i = 0; i < 3000; i++) fresh.dk_free(fresh.dk_alloc(8));
    const [req, len] = put(fresh, '{"op":"parse","text":"1"}');
    assert.equal(fresh.dk_call(req, len), 0);
    assert.equal(answer(fresh), '{"ok":true,"value":1,"errors":[]}');
  });
});
