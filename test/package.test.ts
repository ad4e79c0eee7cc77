// The package as other projects get it: `npm pack`, installed offline into fresh consumer projects, compiled with tsc and run.

import assert from "node:assert/strict";
import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { before, describe, test } from "node:test";
import { installTarball, packRepo, repoRoot, run } from "./helpers/pack.js";
import { tempDir } from "./helpers/temp.js";
import { writeSparseZip } from "./helpers/zips.js";

const root = repoRoot;
const tsc = path.join(root, "node_modules/typescript/bin/tsc");

let tarball = "";
let files: string[] = [];

before(() => {
  ({ tarball, files } = packRepo());
});

describe("the packed files", () => {
  test("hold the bin, the library, the wasm, the schema and the docs, and no tests, caches or playground", () => {
    for (const file of ["package.json", "README.md", "schema.json", "dist/dropkit.cjs", "dist/dropkit-cli.cjs", "dist/digest-worker.cjs", "dist/dropkit.wasm", "dist/index.js", "dist/index.d.ts", "dist/core.js", "dist/abi.js"]) {
      assert.ok(files.includes(file), `${file} is not in the package: ${files.join(", ")}`);
    }
    for (const file of files) {
      assert.doesNotMatch(file, /^test\/|\.test\.|\.cache$|^dist\/playground\/|^src\/|^assembly\/|tsbuildinfo/, `${file} should not be in the package`);
    }
  });

  test("every relative import of a shipped module is shipped too", () => {
    for (const file of files.filter((f) => /\.(js|d\.ts)$/.test(f))) {
      for (const specifier of relativeImports(fs.readFileSync(path.join(root, file), "utf8"))) {
        const target = path.posix.join(path.posix.dirname(file), specifier);
        assert.ok(files.includes(target), `${file} imports ${specifier}, which is not in the package`);
      }
    }
  });

  test("every doc the README links is shipped", () => {
    const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
    const linked = [...readme.matchAll(/\]\(((?:docs|examples)\/[^)#\s]+\.md)/g)].map((m) => m[1]!);
    assert.ok(linked.length > 0);
    for (const doc of linked) assert.ok(files.includes(doc), `the README links ${doc}, which is not in the package`);
  });

  test("dropkit/core and dropkit/abi load no Node built-in, so they run in a browser", () => {
    for (const entry of ["dist/core.js", "dist/abi.js"]) {
      const seen = new Set<string>();
      const visit = (file: string): void => {
        if (seen.has(file)) return;
        seen.add(file);
        const text = fs.readFileSync(path.join(root, file), "utf8");
        for (const specifier of bareImports(text)) {
          assert.ok(!specifier.startsWith("node:") && !builtinModules.includes(specifier), `${entry} reaches ${specifier} through ${file}`);
          assert.equal(specifier, "@assemblyscript/loader", `${entry} reaches ${specifier} through ${file}`);
        }
        for (const specifier of relativeImports(text)) visit(path.posix.join(path.posix.dirname(file), specifier));
      };
      visit(entry);
    }
  });

  test("dependencies are what runs: the bundle's externals and the library's imports", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
    assert.deepEqual(Object.keys(pkg.dependencies).sort(), ["@assemblyscript/loader", "@clack/prompts", "jiti", "tinyglobby"]);
    for (const field of ["repository", "homepage", "bugs", "keywords", "types", "main"]) assert.ok(pkg[field], `package.json has no ${field}`);
  });
});

describe("a consumer project that installs the tarball", () => {
  let project = "";
  before(() => {
    project = tempDir("dropkit-consumer-");
    fs.mkdirSync(path.join(project, ".git"));
    installTarball(project, tarball, { type: "module" });
    writeConsumerFiles(project);
  });

  for (const resolution of ["node10", "nodenext", "bundler"] as const) {
    test(`tsc (${resolution}, skipLibCheck false, no @types/node): valid files compile, every typo fails`, () => {
      const module = resolution === "node10" ? "commonjs" : resolution === "nodenext" ? "nodenext" : "esnext";
      const tsconfig = `tsconfig.${resolution}.json`;
      fs.writeFileSync(path.join(project, tsconfig), JSON.stringify({
        compilerOptions: { target: "es2022", module, moduleResolution: resolution, strict: true, noEmit: true, skipLibCheck: false, types: [] },
        include: ["*.ts"],
      }));
      assert.ok(!fs.existsSync(path.join(project, "node_modules/@types/node")), "the consumer must not have @types/node");
      const result = run(process.execPath, [tsc, "-p", tsconfig], project, { allowFailure: true });
      const errors = result.stdout.split("\n").filter((l) => / error TS\d+/.test(l));
      const failing = [...new Set(errors.map((l) => l.slice(0, l.indexOf("("))))].sort();
      assert.deepEqual(failing, Object.keys(typos).sort(), `expected errors in exactly the typo files:\n${result.stdout}`);
      // Each error is at the line holding the typo, and the object form names the unknown key.
      for (const [file, { line, key }] of Object.entries(typos)) {
        assert.ok(errors.some((l) => l.startsWith(`${file}(${line},`)), `${file}: no error at line ${line}:\n${result.stdout}`);
        if (key) assert.match(result.stdout, new RegExp(`'${key}' does not exist`));
      }
    });
  }

  test("the installed bin loads a .ts config that imports dropkit (the project's own copy)", () => {
    const result = run(process.execPath, [path.join(project, "node_modules/.bin/dropkit"), "config", "--json"], project, { env: { GIT_CEILING_DIRECTORIES: path.dirname(project) } });
    assert.equal(JSON.parse(result.stdout).config.theme, "consumer");
  });

  test("the library works without devDependencies: loadConfig, validateConfig, DropkitError, dropkit/core", () => {
    const script = `
      import { loadConfig, validateConfig, isDropkitError, DropkitError } from "dropkit";
      import { createCore } from "dropkit/core";
      import { readFileSync } from "node:fs";
      import { createRequire } from "node:module";
      const loaded = await loadConfig();
      const checked = await validateConfig('{"theme":"ocean"}');
      let error;
      try { await validateConfig('{"theme": 3, "colour": 1}', { source: "x.json" }); } catch (e) { error = e; }
      const wasm = readFileSync(createRequire(import.meta.url).resolve("dropkit/dropkit.wasm"));
      const core = createCore(wasm).validateConfig("{}");
      console.log(JSON.stringify({ theme: loaded.config.theme, file: loaded.discovery.file, checked: checked.config, isError: isDropkitError(error),
        instance: error instanceof DropkitError, name: error.name, exitCode: error.exitCode, path: error.path, source: error.source,
        count: error.diagnostics.length, core: core.ok }));`;
    fs.writeFileSync(path.join(project, "library.mjs"), script);
    const result = run(process.execPath, ["library.mjs"], project, { env: { GIT_CEILING_DIRECTORIES: path.dirname(project) } });
    assert.deepEqual(JSON.parse(result.stdout), {
      theme: "consumer", file: path.join(project, "dropkit.config.ts"), checked: { theme: "ocean" }, isError: true, instance: true,
      name: "SchemaValidationError", exitCode: 65, path: "theme", source: "x.json:1:11", count: 2, core: true,
    });
  });

  test("dropkit installed outside the project (as npx or a global install does) loads a .ts config importing dropkit", () => {
    const elsewhere = tempDir("dropkit-npx-");
    installTarball(elsewhere, tarball);
    const drop = tempDir("dropkit-drop-");
    fs.mkdirSync(path.join(drop, ".git"));
    fs.writeFileSync(path.join(drop, "dropkit.config.ts"), 'import { defineConfig } from "dropkit";\nimport type { DropkitConfig } from "dropkit";\nconst base: DropkitConfig = { theme: "global" };\nexport default defineConfig(async () => ({ ...base }));\n');
    const result = run(process.execPath, [path.join(elsewhere, "node_modules/.bin/dropkit"), "config", "--json"], drop, { env: { GIT_CEILING_DIRECTORIES: path.dirname(drop) } });
    assert.equal(JSON.parse(result.stdout).config.theme, "global");
    assert.ok(!fs.existsSync(path.join(drop, "node_modules")));
  });

  test("the installed CLI reads archives in its worker threads: create over 200 MB of archives", () => {
    const elsewhere = tempDir("dropkit-npx-");
    installTarball(elsewhere, tarball);
    const drop = tempDir("dropkit-drop-");
    fs.mkdirSync(path.join(drop, ".git"));
    // Holes, so no disk: enough bytes that the work goes to worker threads (see planThreads).
    for (const name of ["blog.zip", "shop.zip"]) writeSparseZip(path.join(drop, name), 100_000_000);
    const result = run(process.execPath, [path.join(elsewhere, "node_modules/.bin/dropkit"), "create", "--log-format=json"], drop, { env: { GIT_CEILING_DIRECTORIES: path.dirname(drop) } });
    const cache = result.stderr.split("\n").filter(Boolean).map((l) => JSON.parse(l)).find((r) => r.action === "cache");
    assert.deepEqual(cache.hashed, ["blog.zip", "shop.zip"]);
  });
});

// --- helpers ---

/** The files that must fail to compile: the line of the typo, and the key tsc names (object forms only). */
const typos: Record<string, { line: number; key?: string }> = {
  "typo-top.ts": { line: 3, key: "themes" },
  "typo-nested.ts": { line: 3, key: "exlude" },
  "typo-function.ts": { line: 3 },
  "typo-async.ts": { line: 3 },
  "typo-deep-function.ts": { line: 3 },
};

function writeConsumerFiles(project: string): void {
  const header = 'import { defineConfig } from "dropkit";\n\n';
  const sources: Record<string, string> = {
    "dropkit.config.ts": `${header}export default defineConfig({ theme: "consumer", modules: { exclude: ["test-*"] }, hooks: { onFailure: "fail" } });\n`,
    "typo-top.ts": `${header}export default defineConfig({ theme: "ocean", themes: "forest" });\n`,
    "typo-nested.ts": `${header}export default defineConfig({ modules: { exclude: ["a"], exlude: ["b"] } });\n`,
    "typo-function.ts": `${header}export default defineConfig(() => ({ modules: { include: ["a"], inclde: ["b"] } }));\n`,
    "typo-async.ts": `${header}export default defineConfig(async () => ({ theme: "ocean", presetz: ["standard"] }));\n`,
    "typo-deep-function.ts": `${header}export default defineConfig(async () => { const theme = await Promise.resolve("auto"); return { theme, hooks: { onFailure: "fail", timeout: 3 } }; });\n`,
    "valid.ts": `import { defineConfig, loadConfig, validateConfig, DropkitError, isDropkitError, type DropkitConfig, type Env, type LoadConfigResult } from "dropkit";
import { createCore } from "dropkit/core";
import { openCore, CoreTrap } from "dropkit/abi";

export const object = defineConfig({ $schema: "./node_modules/dropkit/schema.json", schema: 1, theme: "ocean", exclude: ["old-*"], presets: ["standard"] });
export const sync = defineConfig(() => ({ theme: "none", modules: { only: ["blog"] }, cache: { enabled: false } }));
export const asyncConfig = defineConfig(async () => { const theme = await Promise.resolve("auto"); return theme === "auto" ? { theme } : { log: { format: "json" as const } }; });
export const typed: DropkitConfig = { hooks: { initScriptsDir: "./init", onFailure: "continue" } };
export const declared = defineConfig((): DropkitConfig => typed);
const env: Env = { DROPKIT_THEME: "ocean", HOME: undefined };

export async function main(): Promise<string> {
  try {
    const result: LoadConfigResult = await loadConfig({ cwd: ".", env, flags: { theme: "river", exclude: ["x"] } });
    const checked = await validateConfig('{"theme": "ocean"}', { format: "json", source: "x.json" });
    return result.config.theme + String(checked.config?.theme) + result.origins["theme"]?.layer + result.discovery.via;
  } catch (error) {
    if (isDropkitError(error)) return \`\${error.name} \${error.exitCode} \${error.path} \${error.source}\`;
    if (error instanceof DropkitError) return error.diagnostics.map((d) => d.message).join();
    throw error;
  }
}
export const bindings = typeof createCore + typeof openCore + typeof CoreTrap;
`,
  };
  for (const [name, text] of Object.entries(sources)) fs.writeFileSync(path.join(project, name), text);
}

/** The relative specifiers a module imports or re-exports (static and dynamic). */
function relativeImports(text: string): string[] {
  return specifiers(text).filter((s) => s.startsWith("./") || s.startsWith("../"));
}

function bareImports(text: string): string[] {
  return specifiers(text).filter((s) => !s.startsWith("./") && !s.startsWith("../"));
}

function specifiers(text: string): string[] {
  const found = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm)];
  return found.map((m) => (m[1] ?? m[2] ?? m[3])!);
}
