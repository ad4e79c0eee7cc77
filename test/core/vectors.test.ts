// Golden request/response vectors (test/vectors/*.json) run through the JS binding and the raw dk_* ABI.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import * as M from "../../assembly/schema/messages.js";
import { openAbi } from "../../scripts/lib/abi.js";
import { core } from "../helpers/core.js";

interface Vector {
  name: string;
  request: unknown;
  status: number;
  response: unknown;
}

const dir = fileURLToPath(new URL("../vectors/", import.meta.url));
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort();
const abi = openAbi();

describe("vectors", () => {
  test("there are at least 25, covering every op and the request failures", () => {
    assert.ok(files.length >= 25, `${files.length} vectors`);
    const ops = new Set(
      files.map((f) => (JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as { request: { op?: string } }).request.op),
    );
    for (const op of ["parse", "validate", "resolve", "presets", "suggest"]) assert.ok(ops.has(op), op);
  });

  for (const file of files) {
    const vector = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as Vector;
    test(`${file}: ${vector.name}`, () => {
      const request = JSON.stringify(vector.request);
      // The raw ABI gives the response bytes as the core wrote them.
      const raw = abi.call(request);
      assert.equal(raw.status, vector.status);
      // The vectors hold only canonical JSON (no 1.0 or 1e2), so the expected text is JSON.stringify of the stored response.
      assert.equal(raw.text, JSON.stringify(vector.response));
      // The JS binding parses its response; re-serialised, it must be the same bytes.
      const viaBinding = core.request(vector.request as object);
      assert.equal(viaBinding.status, vector.status);
      assert.equal(JSON.stringify(viaBinding.response), raw.text);
    });
  }
});

describe("request-level failures", () => {
  const notJson: Array<[string, Uint8Array]> = [
    ["empty bytes", new Uint8Array(0)],
    ["plain text", new TextEncoder().encode("validate this")],
    ["truncated JSON", new TextEncoder().encode('{"op":"parse","text":"{}"')],
    ["invalid UTF-8", Uint8Array.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d])],
  ];
  for (const [name, bytes] of notJson) {
    test(`status 1 for ${name}, with a RequestError response`, () => {
      const { status, text } = abi.callBytes(bytes);
      assert.equal(status, 1);
      const r = JSON.parse(text) as { ok: boolean; errors: Array<{ name: string; exitCode: number; message: string }> };
      assert.equal(r.ok, false);
      assert.equal(r.errors.length, 1);
      assert.deepEqual([r.errors[0].name, r.errors[0].exitCode], ["RequestError", 70]);
      assert.ok(r.errors[0].message.startsWith(M.MSG_REQUEST_NOT_JSON), r.errors[0].message);
    });
  }

  test("status 1 for JSON that is not an object", () => {
    for (const request of ["[]", '"parse"', "null", "1"]) {
      const { status, text } = abi.call(request);
      assert.equal(status, 1, request);
      assert.equal(JSON.parse(text).errors[0].message, M.MSG_REQUEST_NOT_OBJECT);
    }
  });

  test("status 2 for malformed fields of every op", () => {
    const cases: Array<[object, RegExp]> = [
      [{ op: "parse" }, /^Malformed parse request: text must be a string$/],
      [{ op: "validate", text: "{}", format: "yaml" }, /format must be "json" or "package.json"/],
      [{ op: "validate", text: "{}", kind: "theme" }, /kind must be "config" or "preset"/],
      [{ op: "resolve" }, /cwd must be an absolute directory path/],
      [{ op: "resolve", cwd: "/d", flags: [] }, /flags must be an object/],
      [{ op: "resolve", cwd: "/d", flags: { exclude: "x" } }, /flags value for --exclude must be an array of strings/],
      [{ op: "resolve", cwd: "/d", flags: { theme: 1 } }, /flags value for --theme must be a string/],
      [{ op: "resolve", cwd: "/d", env: { DROPKIT_THEME: 1 } }, /env\.DROPKIT_THEME must be a string/],
      [{ op: "resolve", cwd: "/d", env: [] }, /env must be an object/],
      [{ op: "resolve", cwd: "/d", config: "x" }, /config must be an object/],
      [{ op: "resolve", cwd: "/d", config: { source: "/x", format: "yaml", text: "" } }, /config\.format must be/],
      [{ op: "resolve", cwd: "/d", config: { source: "/x", format: "value" } }, /config\.value is missing/],
      [{ op: "resolve", cwd: "/d", env: { DROPKIT_PRESETS: "" }, archives: "a.zip" }, /archives must be an array of strings/],
      [{ op: "resolve", cwd: "/d", presetFiles: [{}] }, /presetFiles\[0\]\.source must be a string/],
      [{ op: "resolve", cwd: "/d", files: [1] }, /files\[0\] must be a string/],
      [{ op: "resolve", cwd: "/d", explain: 1 }, /explain must be true, false or a key/],
      [{ op: "suggest", name: "x", candidates: [1] }, /^Malformed suggest request: candidates\[0\] must be a string$/],
      [{ op: 7 }, /^Malformed request: Unknown op/],
    ];
    for (const [request, message] of cases) {
      const { status, text } = abi.call(JSON.stringify(request));
      assert.equal(status, 2, JSON.stringify(request));
      const e = (JSON.parse(text) as { errors: Array<{ name: string; message: string }> }).errors[0];
      assert.equal(e.name, "RequestError");
      assert.match(e.message, message);
    }
  });

  test("the JS binding throws CoreTrap (an internal error) for a request the core cannot read", () => {
    assert.throws(() => core.validateConfig(42 as unknown as string), { name: "InternalError", message: /text must be a string/ });
  });

  test("a failed request does not poison the instance", () => {
    abi.call("nope");
    assert.equal(abi.call('{"op":"parse","text":"[1]"}').text, '{"ok":true,"value":[1],"errors":[]}');
  });
});
