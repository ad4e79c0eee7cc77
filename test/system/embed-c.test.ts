// The C host of examples/embed-c/ (wasm2c + gcc): built here, then every vector through it, byte for byte with the Node hosts.

import assert from "node:assert/strict";
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { openCore } from "../../src/core/host.js";
import { openAbi, wasmBytes } from "../../scripts/lib/abi.js";
import { trapModule, trapModuleResponse, trapModuleWithVersion } from "../helpers/trap-module.js";
import { expectedText, loadVectors, requestText } from "../../scripts/lib/vectors.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const exampleDir = path.join(root, "examples/embed-c");
const buildDir = path.join(root, "build/embed-c");
const bin = path.join(buildDir, "dropkit-embed");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dropkit-embed-c-"));

// CI must prove the C host: there a missing tool is a failure. Elsewhere the suite is skipped, saying what is missing.
const missing = ["wasm2c", "make", "cc"].filter((tool) => spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0);
const inCi = Boolean(process.env.CI) && process.env.CI !== "false";
const skip = missing.length > 0 && !inCi ? `needs ${missing.join(", ")} (Debian: apt-get install wabt gcc make)` : false;

function make(args: string[] = []): void {
  const r = spawnSync("make", ["-C", exampleDir, "--no-print-directory", ...args], { encoding: "utf8" });
  assert.equal(r.status, 0, `make ${args.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
}

/** Runs the host with a clean environment, so that no DROPKIT_* variable of the test's own leaks into a resolve. */
function run(binary: string, args: string[], input?: Uint8Array | string, env: Record<string, string> = {}): SpawnSyncReturns<Buffer> {
  return spawnSync(binary, args, { input, env: { PATH: process.env.PATH ?? "", ...env }, cwd: tmp, maxBuffer: 64 << 20 });
}

describe("the C host (examples/embed-c)", { skip }, () => {
  before(() => {
    assert.deepEqual(
      missing,
      [],
      `the C host needs ${missing.join(", ")}: install wabt, gcc and make (Debian: apt-get install wabt gcc make)`,
    );
    assert.ok(fs.existsSync(path.join(root, "dist/dropkit.wasm")), "dist/dropkit.wasm is missing: run npm run build:wasm");
    make();
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const vectors = loadVectors();
  test("there is a vector for every op", () => {
    assert.ok(vectors.length >= 25);
  });

  const raw = openAbi(wasmBytes());
  const core = openCore(wasmBytes());
  for (const vector of vectors) {
    test(`${vector.file}: the same bytes as the Node hosts`, () => {
      const request = requestText(vector);
      const r = run(bin, ["call"], request);
      assert.equal(r.stderr.toString(), "");
      // `call` exits with the ABI status.
      assert.equal(r.status, vector.status);
      const node = Buffer.from(raw.call(request).text, "utf8");
      assert.ok(r.stdout.equals(node), `C and Node differ:\nC:    ${r.stdout}\nNode: ${node}`);
      assert.ok(Buffer.from(core.callBytes(new TextEncoder().encode(request)).bytes).equals(node));
      assert.equal(r.stdout.toString("utf8"), expectedText(vector));
    });
  }

  test("call: request bytes that are not UTF-8 are status 1 with a RequestError, as in Node", () => {
    const request = Uint8Array.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]);
    const r = run(bin, ["call"], request);
    assert.equal(r.status, 1);
    assert.equal(r.stdout.toString(), raw.callBytes(request).text);
  });

  test("call: a request larger than the module's initial memory", () => {
    const request = JSON.stringify({ op: "validate", text: JSON.stringify({ theme: "é".repeat(2_000_000) }) });
    const r = run(bin, ["call"], request);
    assert.equal(r.status, 0);
    assert.ok(r.stdout.equals(Buffer.from(raw.call(request).text, "utf8")));
  });

  describe("validate and resolve from files", () => {
    const drop = path.join(tmp, "drop");
    before(() => {
      fs.mkdirSync(drop);
      for (const f of ["blog.zip", "shop.zip", "old-x.zip", "ocean-theme.zip", "notes.txt"]) fs.writeFileSync(path.join(drop, f), "");
      fs.writeFileSync(path.join(drop, "dropkit.config.json"), '{\n  "theme": "ocean",\n  "exclude": ["old-*"]\n}\n');
      fs.writeFileSync(path.join(drop, "bad.json"), '{\n  "theme": 3,\n  "tehme": "x"\n}\n');
      fs.writeFileSync(path.join(drop, "package.json"), '{"name":"x","dropkit":{"theme":"ocean"}}');
    });

    test("validate: a valid config is printed as the core's response, exit 0", () => {
      const file = path.join(drop, "dropkit.config.json");
      const r = run(bin, ["validate", file]);
      assert.equal(r.status, 0, r.stderr.toString());
      const text = fs.readFileSync(file, "utf8");
      assert.equal(r.stdout.toString(), core.callText(JSON.stringify({ op: "validate", format: "json", source: file, text })) + "\n");
    });

    test("validate: every problem with its position, and the CLI's exit code 65", () => {
      const r = run(bin, ["validate", path.join(drop, "bad.json")]);
      assert.equal(r.status, 65);
      const response = JSON.parse(r.stdout.toString()) as { ok: boolean; errors: Array<{ path: string; line: number; column: number }> };
      assert.equal(response.ok, false);
      assert.deepEqual(
        response.errors.map((e) => [e.path, e.line, e.column]),
        [
          ["theme", 2, 12],
          ["tehme", 3, 3],
        ],
      );
    });

    test("validate: a package.json is read by its dropkit key", () => {
      const r = run(bin, ["validate", path.join(drop, "package.json")]);
      assert.equal(r.status, 0);
      assert.deepEqual(JSON.parse(r.stdout.toString()).config, { theme: "ocean" });
    });

    test("resolve: config, environment and the drop's archives give the answer and the plan in one call", () => {
      const r = run(bin, ["resolve", drop, path.join(drop, "dropkit.config.json")], undefined, { DROPKIT_CACHE_ENABLED: "no" });
      assert.equal(r.status, 0, r.stderr.toString());
      const response = JSON.parse(r.stdout.toString()) as {
        ok: boolean;
        stage: string;
        config: { theme: string; cache: { enabled: boolean; file: string }; presets: string[] };
        origins: Record<string, { layer: string; source: string }>;
        plan: { theme: { file: string }; modules: string[]; excluded: string[] };
      };
      assert.equal(response.ok, true);
      assert.equal(response.stage, "done");
      assert.equal(response.config.theme, "ocean");
      assert.deepEqual(response.config.presets, ["standard"]);
      assert.equal(response.config.cache.file, path.join(fs.realpathSync(drop), ".dropkit-cache.json"));
      assert.deepEqual(response.origins["cache.enabled"], { layer: "env", source: "DROPKIT_CACHE_ENABLED" });
      assert.equal(response.plan.theme.file, "ocean-theme.zip");
      assert.deepEqual([...response.plan.modules].sort(), ["blog", "shop"]);
      assert.deepEqual(response.plan.excluded, ["old-x"]);
    });

    test("resolve: without a config file; an unknown preset is PresetNotFound, exit 67", () => {
      assert.equal(run(bin, ["resolve", drop]).status, 0);
      const r = run(bin, ["resolve", drop], undefined, { DROPKIT_PRESETS: "mine" });
      assert.equal(r.status, 67);
      assert.equal(JSON.parse(r.stdout.toString()).errors[0].name, "PresetNotFound");
    });

    test("exit 66 for a file that is not there, 64 for a bad command line", () => {
      const r = run(bin, ["validate", path.join(drop, "nope.json")]);
      assert.equal(r.status, 66);
      assert.match(r.stderr.toString(), /cannot read .*nope\.json/);
      assert.equal(run(bin, []).status, 64);
      assert.equal(run(bin, ["resolve"]).status, 64);
      assert.match(run(bin, ["frobnicate"]).stderr.toString(), /^usage: dropkit-embed validate/);
    });
  });

  test("docs/embedding.md: the complete C program compiles as written and prints what the page says", () => {
    const doc = fs.readFileSync(path.join(root, "docs/embedding.md"), "utf8");
    const block = /<!-- embedding-c-example -->\n```c\n([\s\S]*?)\n```/.exec(doc);
    assert.ok(block, "the marked C block is missing from docs/embedding.md");
    const dir = path.join(tmp, "doc");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "hello.c"), block[1]);
    const runtime = spawnSync("make", ["-s", "-C", exampleDir, "--no-print-directory", "print-runtime-dir"], {
      encoding: "utf8",
    }).stdout.trim();
    const cc = spawnSync(
      "cc",
      [
        "-O1",
        "-Wall",
        "-Werror",
        `-I${buildDir}`,
        `-I${runtime}`,
        "hello.c",
        path.join(buildDir, "dropkit.o"),
        path.join(buildDir, "wasm-rt-impl.o"),
        "-o",
        "hello",
        "-lm",
      ],
      { cwd: dir, encoding: "utf8" },
    );
    assert.equal(cc.status, 0, cc.stderr);
    const r = run(path.join(dir, "hello"), []);
    assert.equal(r.status, 0, r.stderr.toString());
    const out = r.stdout.toString();
    assert.match(
      out,
      /^status 0: \{"ok":false,"errors":\[\{"name":"SchemaValidationError","code":"WrongType","exitCode":65,"path":"theme",/,
    );
    assert.match(out, /"line":1,"column":11,/);
  });

  describe("traps and versions, with a stand-in module", () => {
    // Built without the signal handler, so memory grows by realloc and may move: the host must re-read it after each call.
    const cflags = "CFLAGS=-O0 -DWASM_RT_MEMCHECK_SIGNAL_HANDLER=0";
    function buildStandIn(name: string, bytes: Uint8Array): string {
      const dir = path.join(tmp, name);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, "core.wasm"), bytes);
      make([`WASM=${path.join(dir, "core.wasm")}`, `BUILD=${dir}`, cflags]);
      return path.join(dir, "dropkit-embed");
    }

    test("a trap is reported as an internal error, exit 70, with nothing on stdout", () => {
      const host = buildStandIn("trap", trapModule());
      const ok = run(host, ["call"], "fine");
      assert.equal(ok.status, 0);
      assert.equal(ok.stdout.toString(), trapModuleResponse);
      const r = run(host, ["call"], "!trap");
      assert.equal(r.status, 70);
      assert.equal(r.stdout.length, 0);
      assert.match(r.stderr.toString(), /internal error: the core trapped \(Unreachable instruction executed\)/);
    });

    test("a core with another ABI version is refused, exit 70", () => {
      const host = buildStandIn("v2", trapModuleWithVersion(2));
      const r = run(host, ["call"], "fine");
      assert.equal(r.status, 70);
      assert.match(r.stderr.toString(), /ABI version 2; this host knows version 1/);
    });
  });
});
