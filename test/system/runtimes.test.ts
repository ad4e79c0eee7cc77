// dropkit on Bun and Deno (their binaries from npm, which .ci/run installs): dropkit/core with every vector, the CLI, and docs/embedding.md's snippets.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { installTarball, packRepo, repoRoot, run } from "../helpers/pack.js";
import { tempDir } from "../helpers/temp.js";
import { loadVectors } from "../../scripts/lib/vectors.js";

/** Each runtime: the binary from BUN_BIN / DENO_BIN, and how it runs a script. Missing in CI fails the test. */
const runtimes = [
  { name: "Bun", bin: process.env.BUN_BIN, args: (script: string) => [script] },
  { name: "Deno", bin: process.env.DENO_BIN, args: (script: string) => ["run", "-A", script] },
];

const vectorCount = loadVectors().length;

for (const runtime of runtimes) {
  const skip = runtime.bin
    ? false
    : process.env.CI
      ? false
      : `${runtime.name}: set ${runtime.name.toUpperCase()}_BIN (scripts/install-runtimes.sh prints it)`;
  describe(runtime.name, { skip }, () => {
    const bin = runtime.bin!;
    test("is installed", () =>
      assert.ok(runtime.bin && fs.existsSync(runtime.bin), `${runtime.name.toUpperCase()}_BIN is not set or missing`));

    test("dropkit/core, installed from the packed tarball, answers every vector byte for byte", () => {
      const dir = tempDir("dropkit-runtime-");
      installTarball(dir, packRepo().tarball, { type: "module" });
      const script = path.join(dir, "vectors.mjs");
      fs.writeFileSync(
        script,
        `import { readFileSync, readdirSync } from "node:fs";
import { openCore } from "dropkit/core";
const core = openCore(readFileSync(${JSON.stringify(path.join(dir, "node_modules/dropkit/dist/dropkit.wasm"))}));
const dir = ${JSON.stringify(path.join(repoRoot, "test/vectors"))};
const failures = [];
let count = 0;
for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
  const v = JSON.parse(readFileSync(dir + "/" + file, "utf8"));
  const text = core.callText(JSON.stringify(v.request));
  if (text !== JSON.stringify(v.response) || core.lastStatus !== v.status) failures.push(file);
  count++;
}
console.log(JSON.stringify({ abiVersion: core.abiVersion, count, failures }));
`,
      );
      const result = run(bin, runtime.args(script), dir);
      assert.deepEqual(JSON.parse(result.stdout), { abiVersion: 1, count: vectorCount, failures: [] });
    });

    test("the CLI resolves a .ts config importing dropkit, and reports a bad one with exit 65", () => {
      const drop = tempDir("dropkit-runtime-drop-");
      fs.mkdirSync(path.join(drop, ".git"));
      fs.writeFileSync(
        path.join(drop, "dropkit.config.ts"),
        'import { defineConfig } from "dropkit";\nexport default defineConfig(async () => ({ theme: "ocean", exclude: ["old-*"] }));\n',
      );
      const env = { GIT_CEILING_DIRECTORIES: path.dirname(drop) };
      const ok = run(bin, runtime.args(path.join(repoRoot, "dist/dropkit.cjs")).concat(["config", "--json"]), drop, { env });
      assert.equal(JSON.parse(ok.stdout).config.theme, "ocean");
      fs.writeFileSync(path.join(drop, "dropkit.config.ts"), "export default { theme: 3 };\n");
      const bad = run(bin, runtime.args(path.join(repoRoot, "dist/dropkit.cjs")).concat(["config", "--json"]), drop, {
        env,
        allowFailure: true,
      });
      assert.equal(bad.status, 65);
      assert.match(bad.stderr, /"name":"SchemaValidationError"/);
    });
  });
}

describe("docs/embedding.md", () => {
  const doc = fs.readFileSync(path.join(repoRoot, "docs/embedding.md"), "utf8");
  const snippet = (marker: string) => {
    const block = new RegExp(`<!-- ${marker} -->\\n\`\`\`ts\\n([\\s\\S]*?)\\n\`\`\``).exec(doc);
    assert.ok(block, `docs/embedding.md has no ${marker} block`);
    return block[1]!;
  };

  test("the Deno snippet runs as written, in a project that installed the packed dropkit", {
    skip: process.env.DENO_BIN || process.env.CI ? false : "set DENO_BIN",
  }, () => {
    const dir = tempDir("dropkit-deno-");
    installTarball(dir, packRepo().tarball, { type: "module" });
    fs.writeFileSync(path.join(dir, "dropkit.config.json"), '{ "theme": "ocean" }\n');
    fs.writeFileSync(path.join(dir, "main.ts"), snippet("embedding-deno-example"));
    const result = run(process.env.DENO_BIN!, ["run", "--allow-read", "main.ts"], dir);
    assert.match(result.stdout, /ok: true/);
    assert.match(result.stdout, /theme: "ocean"/);
  });

  test("the Bun snippet runs as written, in a project that installed the packed dropkit", {
    skip: process.env.BUN_BIN || process.env.CI ? false : "set BUN_BIN",
  }, () => {
    const dir = tempDir("dropkit-bun-");
    installTarball(dir, packRepo().tarball, { type: "module" });
    fs.writeFileSync(path.join(dir, "main.ts"), snippet("embedding-bun-example"));
    const result = run(process.env.BUN_BIN!, ["main.ts"], dir);
    assert.match(result.stdout, /ok: true/);
    assert.match(result.stdout, /name: "standard"/);
  });
});
