// The library in a program's bundle: docs/library.md's "Bundling for Node" example built with esbuild (ESM and CommonJS), run in a consumer project and alone.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { before, describe, test } from "node:test";
import { build } from "esbuild";
import { openCore, openCoreAsync } from "../../src/core/index.js";
import { installTarball, packRepo, repoRoot, run } from "../helpers/pack.js";
import { tempDir } from "../helpers/temp.js";

/** The two outputs the example's build.mjs writes. */
const formats = [
  { name: "ES module", file: "app.mjs", format: "esm" },
  { name: "CommonJS", file: "app.cjs", format: "cjs" },
] as const;

/** Whether this Node loads a .ts config without jiti (Node 22.18+ strips its types). */
const stripsTypes = (() => {
  const hooks = (process as unknown as { getBuiltinModule(id: string): Record<string, unknown> }).getBuiltinModule("node:module");
  return typeof hooks.registerHooks === "function" && typeof hooks.stripTypeScriptTypes === "function";
})();

let project = "";

/** A program's outcome: what it printed on stdout (one JSON line), its exit code and stderr. */
interface Outcome {
  status: number | null;
  out: { theme?: string; source?: string; name?: string; exitCode?: number; message?: string; [key: string]: unknown };
  stderr: string;
}

/** Runs `node <bundle> ...args` in `cwd` and reads the JSON line it prints. */
function runNode(bundle: string, args: string[], cwd = path.dirname(bundle), env: Record<string, string> = {}): Outcome {
  const result = run(process.execPath, [bundle, ...args], cwd, { allowFailure: true, env: { NODE_OPTIONS: "", ...env } });
  let out: Outcome["out"] = {};
  try {
    out = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "");
  } catch {
    assert.fail(`${bundle} ${args.join(" ")} printed no JSON line:\n${result.stdout}\n${result.stderr}`);
  }
  return { status: result.status, out, stderr: result.stderr };
}

/** A fixture tree of configs, each a repository of its own (a `.git` directory), outside any node_modules. */
function fixtures(files: Record<string, string>): string {
  const root = tempDir("dropkit-bundle-fixture-");
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(root, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.mkdirSync(path.join(path.dirname(file), ".git"), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return root;
}

/** The fenced code blocks of docs/library.md's "Bundling for Node" whose first line is `// <name>:`, by name. */
function exampleFiles(): Record<string, string> {
  const doc = fs.readFileSync(path.join(repoRoot, "docs/library.md"), "utf8");
  const section = doc.slice(doc.indexOf("\n## Bundling for Node\n"));
  const end = section.indexOf("\n## ", 1);
  const found: Record<string, string> = {};
  for (const m of (end < 0 ? section : section.slice(0, end)).matchAll(/```js\n(\/\/ ([\w.]+):[^\n]*\n[\s\S]*?)```/g)) found[m[2]!] = m[1]!;
  return found;
}

const configs = {
  "json/dropkit.config.json": '{ "theme": "ocean" }\n',
  "ts/dropkit.config.ts": 'import { defineConfig } from "dropkit";\n\nexport default defineConfig({ theme: "forest" });\n',
  "plain/dropkit.config.ts": 'const theme: string = "plain";\nexport default { theme };\n',
};

before(() => {
  const { tarball } = packRepo();
  project = tempDir("dropkit-bundle-consumer-");
  installTarball(project, tarball, { type: "module" });
  // esbuild as the project would have it: the repository's own (a devDependency), linked rather than installed again.
  fs.symlinkSync(path.join(repoRoot, "node_modules/esbuild"), path.join(project, "node_modules/esbuild"));
  fs.symlinkSync(path.join(repoRoot, "node_modules/@esbuild"), path.join(project, "node_modules/@esbuild"));
  const example = exampleFiles();
  assert.deepEqual(Object.keys(example).sort(), ["app.js", "build.mjs"], "docs/library.md's Bundling for Node lost its example");
  for (const [name, text] of Object.entries(example)) fs.writeFileSync(path.join(project, name), text);
  const built = run(process.execPath, ["build.mjs"], project);
  // esbuild says nothing about dropkit's code (its import.meta in CommonJS output included): it is under node_modules.
  assert.equal(built.stderr, "", built.stderr);
});

describe("the example of docs/library.md, built with esbuild", () => {
  test("build.mjs writes both bundles and the core beside them, with dropkit's code inside", () => {
    for (const file of ["app.mjs", "app.cjs", "dropkit.wasm"]) assert.ok(fs.existsSync(path.join(project, "out", file)), file);
    for (const { file } of formats) {
      const text = fs.readFileSync(path.join(project, "out", file), "utf8");
      assert.match(text, /function readInstalledModule\(/, `${file} does not hold dropkit's code`);
      assert.doesNotMatch(text, /from "dropkit"|require\("dropkit"\)/, `${file} imports dropkit instead of holding it`);
    }
  });
});

for (const { name, file } of formats) {
  describe(`the ${name} bundle, run in the project (node_modules beside it, no dropkit.wasm copied)`, () => {
    let bundle = "";
    let tree = "";
    before(() => {
      // Its own folder in the project, without the copied core: found through the project's node_modules/dropkit.
      const dir = path.join(project, `in-project-${file}`);
      fs.mkdirSync(dir, { recursive: true });
      bundle = path.join(dir, file);
      fs.copyFileSync(path.join(project, "out", file), bundle);
      tree = fixtures(configs);
    });

    test("a JSON config resolves, with its position", () => {
      const { status, out, stderr } = runNode(bundle, [path.join(tree, "json")]);
      assert.equal(status, 0, stderr);
      assert.deepEqual(out, { theme: "ocean", source: `${path.join(tree, "json/dropkit.config.json")}:1:12` });
    });

    test('a .ts config that imports defineConfig from "dropkit" (its project has none): the package found from the bundle lends it', () => {
      const { status, out, stderr } = runNode(bundle, [path.join(tree, "ts")]);
      assert.equal(status, 0, `${JSON.stringify(out)}\n${stderr}`);
      assert.equal(out.theme, "forest");
      assert.equal(out.source, path.join(tree, "ts/dropkit.config.ts"));
    });

    test("a .ts config in the bundle's own folder that throws: placed at its line, not taken for dropkit's code", () => {
      fs.mkdirSync(path.join(path.dirname(bundle), ".git"), { recursive: true });
      fs.writeFileSync(
        path.join(path.dirname(bundle), "dropkit.config.ts"),
        'const theme = "x";\nthrow new Error("no theme today");\nexport default { theme };\n',
      );
      const { status, out } = runNode(bundle, [path.dirname(bundle)]);
      assert.equal(status, 65);
      assert.equal(out.name, "ConfigLoadError");
      assert.match(out.message!, /dropkit\.config\.ts:2:7 could not be evaluated: no theme today/);
    });
  });

  describe(`the ${name} bundle, deployed alone (no node_modules)`, () => {
    let dir = "";
    let bundle = "";
    let tree = "";
    before(() => {
      dir = tempDir(`dropkit-bundle-${file}-`);
      bundle = path.join(dir, file);
      fs.copyFileSync(path.join(project, "out", file), bundle);
      tree = fixtures(configs);
    });

    test("without dropkit.wasm beside it: an IOError (74) naming the module, where it looked, and the fix", () => {
      const { status, out } = runNode(bundle, [path.join(tree, "json")]);
      assert.equal(status, 74);
      assert.equal(out.name, "IOError");
      assert.equal(out.exitCode, 74);
      assert.ok(
        out.message!.includes(`dropkit cannot find its core, dropkit.wasm: it is not at ${path.join(dir, "dropkit.wasm")}`),
        out.message,
      );
      assert.match(
        out.message!,
        /Copy node_modules\/dropkit\/dist\/dropkit\.wasm beside that file, or pass its path: loadConfig\(\{ wasm \}\)/,
      );
      assert.match(out.message!, /"Bundling for Node"/);
    });

    test("with dropkit.wasm beside it: a JSON config resolves", () => {
      fs.copyFileSync(path.join(project, "out/dropkit.wasm"), path.join(dir, "dropkit.wasm"));
      const { status, out, stderr } = runNode(bundle, [path.join(tree, "json")]);
      assert.equal(status, 0, stderr);
      assert.equal(out.theme, "ocean");
    });

    test(
      stripsTypes
        ? "a .ts config loads natively, without jiti"
        : "a .ts config on a Node that cannot strip types and no jiti: an IOError (74) naming jiti and the fix",
      () => {
        fs.copyFileSync(path.join(project, "out/dropkit.wasm"), path.join(dir, "dropkit.wasm"));
        const { status, out } = runNode(bundle, [path.join(tree, "plain")]);
        if (stripsTypes) {
          assert.equal(status, 0, JSON.stringify(out));
          assert.equal(out.theme, "plain");
          return;
        }
        assert.equal(status, 74, JSON.stringify(out));
        assert.equal(out.name, "IOError");
        assert.match(
          out.message!,
          /^dropkit needs jiti \(for \.js configs, and \.ts configs where the runtime cannot strip types\), and cannot find it from /,
        );
        assert.match(out.message!, /npm install jiti/);
      },
    );

    test("with jiti installed beside it: a .js and a .ts config load; an import of dropkit nobody can lend is a ConfigLoadError saying to install it", () => {
      fs.copyFileSync(path.join(project, "out/dropkit.wasm"), path.join(dir, "dropkit.wasm"));
      fs.cpSync(path.join(project, "node_modules/jiti"), path.join(dir, "node_modules/jiti"), { recursive: true });
      const more = fixtures({ "js/dropkit.config.js": 'export default { theme: "script" };\n' });
      const js = runNode(bundle, [path.join(more, "js")]);
      assert.equal(js.status, 0, JSON.stringify(js.out));
      assert.equal(js.out.theme, "script");
      const plain = runNode(bundle, [path.join(tree, "plain")]);
      assert.equal(plain.status, 0, JSON.stringify(plain.out));
      assert.equal(plain.out.theme, "plain");
      const lent = runNode(bundle, [path.join(tree, "ts")]);
      assert.equal(lent.status, 65, JSON.stringify(lent.out));
      assert.equal(lent.out.name, "ConfigLoadError");
      assert.match(lent.out.message!, /Cannot find (module|package) 'dropkit'/);
      assert.ok(
        lent.out.message!.includes(`dropkit runs here from ${bundle}, a bundle with no dropkit package beside it`),
        lent.out.message,
      );
      assert.match(lent.out.message!, /npm install --save-dev dropkit/);
    });
  });
}

describe("the wasm option, and openCore() in a bundle", () => {
  let dir = "";
  before(async () => {
    // A program of its own: loadConfig and validateConfig with `wasm` from the environment, and openCore() without an argument.
    fs.writeFileSync(
      path.join(project, "options.js"),
      [
        'import { isDropkitError, loadConfig, validateConfig } from "dropkit";',
        'import { openCore } from "dropkit/core";',
        "const wasm = process.env.WASM || undefined;",
        "const report = (error) => {",
        "  if (!isDropkitError(error)) throw error;",
        "  console.log(JSON.stringify({ name: error.name, exitCode: error.exitCode, message: error.message, source: error.source }));",
        "  process.exitCode = error.exitCode;",
        "};",
        "async function main() {",
        '  if (process.argv[2] === "core") return console.log(JSON.stringify({ presets: openCore().listPresets().map((p) => p.name) }));',
        "  const { config } = await loadConfig({ cwd: process.argv[2], wasm });",
        '  const checked = await validateConfig(\'{ "theme": "x" }\', { wasm });',
        "  console.log(JSON.stringify({ theme: config.theme, checked: checked.config.theme }));",
        "}",
        "main().catch(report);",
        "",
      ].join("\n"),
    );
    dir = tempDir("dropkit-bundle-options-");
    for (const format of ["esm", "cjs"] as const) {
      const outfile = path.join(dir, format === "esm" ? "options.mjs" : "options.cjs");
      const options = { absWorkingDir: project, bundle: true, platform: "node", target: "node20", logLevel: "silent" } as const;
      const result = await build({ ...options, entryPoints: ["options.js"], outfile, format });
      assert.deepEqual([...result.errors, ...result.warnings], []);
    }
  });

  for (const file of ["options.mjs", "options.cjs"]) {
    test(`${file}: wasm (a path elsewhere) serves loadConfig and validateConfig; a path with no file is an IOError naming it and the option`, () => {
      const tree = fixtures({ "json/dropkit.config.json": '{ "theme": "ocean" }\n' });
      const wasm = path.join(project, "node_modules/dropkit/dist/dropkit.wasm");
      const ok = runNode(path.join(dir, file), [path.join(tree, "json")], dir, { WASM: wasm });
      assert.equal(ok.status, 0, JSON.stringify(ok.out));
      assert.deepEqual(ok.out, { theme: "ocean", checked: "x" });
      const missing = path.join(dir, "nowhere/dropkit.wasm");
      const bad = runNode(path.join(dir, file), [path.join(tree, "json")], dir, { WASM: missing });
      assert.equal(bad.status, 74);
      assert.equal(bad.out.name, "IOError");
      assert.equal(bad.out.source, missing);
      assert.ok(
        bad.out.message!.startsWith(`dropkit cannot read its core, dropkit.wasm, at ${missing} (the wasm option): there is no file there.`),
        bad.out.message,
      );
    });

    test(`${file}: openCore() without an argument: an IOError saying what to pass, then the module beside the bundle`, () => {
      const own = tempDir("dropkit-bundle-core-");
      fs.copyFileSync(path.join(dir, file), path.join(own, file));
      const bad = runNode(path.join(own, file), ["core"], own);
      assert.equal(bad.status, 74);
      assert.equal(bad.out.name, "IOError");
      assert.match(
        bad.out.message!,
        /dropkit cannot find its core, dropkit\.wasm: .* or pass the module: openCore\(bytes\) or openCore\(compiled module\)/,
      );
      fs.copyFileSync(path.join(project, "out/dropkit.wasm"), path.join(own, "dropkit.wasm"));
      const ok = runNode(path.join(own, file), ["core"], own);
      assert.equal(ok.status, 0, JSON.stringify(ok.out));
      assert.ok((ok.out.presets as string[]).includes("standard"), JSON.stringify(ok.out));
    });
  }
});

describe("openCore() without an argument, from the installed package", () => {
  test("opens node_modules/dropkit/dist/dropkit.wasm (openCore and openCoreAsync)", () => {
    const script = path.join(project, "core.mjs");
    fs.writeFileSync(
      script,
      [
        'import { openCore, openCoreAsync } from "dropkit/core";',
        "const a = openCore().listPresets().length;",
        "const b = (await openCoreAsync()).listPresets().length;",
        "console.log(JSON.stringify({ a, b }));",
        "",
      ].join("\n"),
    );
    const { status, out, stderr } = runNode(script, [], project);
    assert.equal(status, 0, stderr);
    assert.ok((out.a as number) > 0 && out.a === out.b, JSON.stringify(out));
  });

  test("and from src/ under tsx (dist/dropkit.wasm of this repository), the same presets", async () => {
    const presets = openCore().listPresets();
    assert.ok(presets.some((p) => p.name === "standard"));
    assert.deepEqual((await openCoreAsync()).listPresets(), presets);
  });
});

describe("many .ts configs loading at once in one process", () => {
  test("13 at once (one never settles): no MaxListenersExceededWarning, one beforeExit listener, none left after", () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`c${i}/dropkit.config.ts`] = `export default { theme: "t${i}" };\n`;
    files["never/dropkit.config.ts"] = "export default async () => { await new Promise(() => {}); return {}; };\n";
    const tree = fixtures(files);
    const script = path.join(project, "many.mjs");
    fs.writeFileSync(
      script,
      [
        'import { loadConfig } from "dropkit";',
        "const root = process.argv[2];",
        'const dirs = [...Array.from({ length: 12 }, (_, i) => "c" + i), "never"];',
        "let most = 0;",
        'const watch = setInterval(() => (most = Math.max(most, process.listenerCount("beforeExit"))), 1).unref();',
        "const results = await Promise.allSettled(dirs.map((d) => loadConfig({ cwd: root + '/' + d })));",
        "clearInterval(watch);",
        'const themes = results.map((r) => (r.status === "fulfilled" ? r.value.config.theme : r.reason.name));',
        'console.log(JSON.stringify({ themes, most, left: process.listenerCount("beforeExit") }));',
        "",
      ].join("\n"),
    );
    // The never-settling config is found out when nothing else is left: the timer above ends before it, so only the
    // shared beforeExit listener can end that load.
    const { status, out, stderr } = runNode(script, [tree], project);
    assert.equal(status, 0, stderr);
    assert.doesNotMatch(stderr, /MaxListenersExceededWarning/);
    assert.equal(stderr, "");
    assert.deepEqual(out.themes, [...Array.from({ length: 12 }, (_, i) => `t${i}`), "ConfigLoadError"]);
    assert.ok((out.most as number) <= 1, `at most one beforeExit listener at a time: ${out.most}`);
    assert.equal(out.left, 0);
  });
});
