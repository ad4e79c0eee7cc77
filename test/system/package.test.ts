// The package as other projects get it: `npm pack`, installed offline into fresh consumer projects, compiled with tsc and run.

import assert from "node:assert/strict";
import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { before, describe, test } from "node:test";
import * as configs from "../helpers/consumer-configs.js";
import { installTarball, packRepo, repoRoot, run } from "../helpers/pack.js";
import { tempDir } from "../helpers/temp.js";
import { writeSparseZip } from "../helpers/zips.js";

const root = repoRoot;
const tsc = path.join(root, "node_modules/typescript/bin/tsc");
// A second major, as a devDependency alias (`typescript-6`): the types must hold in both.
const tsc6 = path.join(root, "node_modules/typescript-6/bin/tsc");

let tarball = "";
let files: string[] = [];

before(() => {
  ({ tarball, files } = packRepo());
});

describe("the packed files", () => {
  test("hold the bin, the library, the wasm, the schema and the docs, and no tests, caches or playground", () => {
    for (const file of [
      "package.json",
      "README.md",
      "LICENSE",
      "schema.json",
      "dist/dropkit.cjs",
      "dist/dropkit-cli.cjs",
      "dist/dropkit-config.cjs",
      "dist/dropkit-lsp.cjs",
      "dist/digest-worker.cjs",
      "dist/dropkit.wasm",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/core/host.js",
      "dist/core/index.js",
    ]) {
      assert.ok(files.includes(file), `${file} is not in the package: ${files.join(", ")}`);
    }
    for (const file of files) {
      assert.doesNotMatch(
        file,
        /^test\/|\.test\.|\.cache$|^dist\/playground\/|^src\/|^assembly\/|tsbuildinfo/,
        `${file} should not be in the package`,
      );
    }
  });

  test("the packed package.json is the repository's without scripts and devDependencies (no install script runs in a consumer's install)", () => {
    const packed = JSON.parse(run("tar", ["-xzOf", tarball, "package/package.json"], root).stdout) as Record<string, unknown>;
    const repo = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as Record<string, unknown>;
    assert.equal("scripts" in packed, false, JSON.stringify(packed.scripts));
    assert.equal("devDependencies" in packed, false);
    const { scripts, devDependencies: _dev, ...rest } = repo;
    assert.deepEqual(packed, rest);
    // npm install and npm ci in the repository (and an install from git) still build, and patch the dependencies.
    assert.equal((scripts as Record<string, string>).prepare, "npm run build");
    assert.ok((scripts as Record<string, string>).postinstall, "the repository's install patches");
  });

  test("every file npm selects is packed, and patches/ is not shipped", () => {
    const listed = JSON.parse(run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], root).stdout)[0].files.map(
      (f: { path: string }) => f.path,
    );
    assert.deepEqual(files, listed.sort());
    assert.ok(files.includes("dist/dropkit.cjs") && files.includes("schema.json"));
    assert.deepEqual(
      files.filter((file) => file.startsWith("patches/")),
      [],
    );
  });

  test("npm publish of the repository itself stops before packing anything, and says to publish the staged tarball", () => {
    const result = run("npm", ["publish", "--dry-run"], root, { allowFailure: true });
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /published from its staged tarball.*npm run pack.*npm publish \.\/dropkit-<version>\.tgz/);
  });

  test("the LICENSE is the MIT license package.json names, and is shipped", () => {
    assert.equal(JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).license, "MIT");
    assert.match(fs.readFileSync(path.join(root, "LICENSE"), "utf8"), /^MIT License\n\nCopyright \(c\) 2026 the dropkit authors\n/);
    assert.ok(files.includes("LICENSE"), `LICENSE is not in the package: ${files.join(", ")}`);
  });

  // .attw.json: the esm-only profile (the package has no CommonJS build: docs/library.md), and `./dropkit.wasm` left
  // out, an asset export that attw would resolve as a JavaScript module.
  test("@arethetypeswrong/cli passes the tarball (esm-only profile, the wasm asset left out)", () => {
    const result = run(
      process.execPath,
      [path.join(root, "node_modules/@arethetypeswrong/cli/dist/index.js"), "--format", "json", tarball],
      root,
      { allowFailure: true },
    );
    assert.equal(result.status, 0, result.stdout + result.stderr);
    // What the profile lets pass is only that: a CommonJS `require` meets ESM (Node's require(esm) loads it).
    const report = JSON.parse(result.stdout) as { problems?: Record<string, Array<{ kind: string; resolutionKind: string }>> };
    const problems = Object.values(report.problems ?? {}).flat();
    for (const problem of problems)
      assert.deepEqual([problem.kind, problem.resolutionKind], ["CJSResolvesToESM", "node16-cjs"], result.stdout);
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
    for (const entry of ["dist/core/host.js", "dist/core/index.js"]) {
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
    for (const field of ["repository", "homepage", "bugs", "keywords", "types", "main"])
      assert.ok(pkg[field], `package.json has no ${field}`);
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

  test("tsc (node10, nodenext, bundler; skipLibCheck false, no @types/node): the library's types compile", () => {
    for (const resolution of ["node10", "nodenext", "bundler"] as const) {
      const result = compile(project, tsc, { resolution, lib: ["es2022", "dom"], files: ["valid.ts", "dropkit.config.ts"] });
      assert.equal(result.status, 0, `${resolution}:\n${result.stdout}`);
    }
  });

  // Every form of defineConfig, with two TypeScript majors, with and without the DOM library, in both module
  // resolutions of ESM projects: one tsc run per configuration, one file per case, errors mapped back to files.
  for (const [major, compiler] of [
    ["5", tsc],
    ["6", tsc6],
  ] as const) {
    for (const resolution of ["nodenext", "bundler"] as const) {
      for (const lib of [["es2022"], ["es2022", "dom"]]) {
        test(
          `defineConfig under TypeScript ${major} (${resolution}, lib ${lib.join("+")}): ${Object.keys(configs.valid).length} ` +
            `valid configs compile, ${Object.keys(configs.invalid).length} with an unknown key fail naming it`,
          () => {
            const files = [...caseFiles.keys(), "valid.ts"];
            const result = compile(project, compiler, { resolution, lib, files });
            const errors = errorsByFile(result.stdout);
            const expected = [...caseFiles]
              .filter(([, c]) => c.fails)
              .map(([file]) => file)
              .sort();
            assert.deepEqual([...errors.keys()].sort(), expected, `errors in other files than the invalid ones:\n${result.stdout}`);
            for (const [file, { key }] of caseFiles) {
              if (!key) continue;
              const leaf = key.slice(key.lastIndexOf(".") + 1).replace(/\$/g, "\\$");
              // Ours names the dotted path; a `satisfies DropkitConfig` fails first with TypeScript's own message.
              const named = new RegExp(`unknown config key '${key.replace(/[$.]/g, "\\$&")}'|'${leaf}' does not exist in type`);
              assert.match(errors.get(file)!, named, `${file} fails without naming ${key}`);
            }
          },
        );
      }
    }
  }

  test("the installed bin loads a .ts config that imports dropkit (the project's own copy)", () => {
    const result = run(process.execPath, [path.join(project, "node_modules/.bin/dropkit"), "config", "--json"], project, {
      env: { GIT_CEILING_DIRECTORIES: path.dirname(project) },
    });
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
      let missing;
      try { await loadConfig({ cwd: "./no-such-folder" }); } catch (e) { missing = e; }
      console.log(JSON.stringify({ theme: loaded.config.theme, file: loaded.discovery.file, checked: checked.config, isError: isDropkitError(error),
        instance: error instanceof DropkitError, name: error.name, exitCode: error.exitCode, path: error.path, source: error.source,
        code: error.code, at: [error.file, error.line, error.column], count: error.diagnostics.length, core: core.ok,
        missing: [isDropkitError(missing), missing.name, missing.exitCode, missing.code, missing.file, missing.message] }));`;
    fs.writeFileSync(path.join(project, "library.mjs"), script);
    const result = run(process.execPath, ["library.mjs"], project, { env: { GIT_CEILING_DIRECTORIES: path.dirname(project) } });
    assert.deepEqual(JSON.parse(result.stdout), {
      theme: "consumer",
      file: path.join(project, "dropkit.config.ts"),
      checked: { theme: "ocean" },
      isError: true,
      instance: true,
      name: "SchemaValidationError",
      exitCode: 65,
      path: "theme",
      source: "x.json:1:11",
      count: 2,
      core: true,
      code: "ERR_DROPKIT_SCHEMA_VALIDATION_ERROR",
      at: ["x.json", 1, 11],
      missing: [
        true,
        "IOError",
        74,
        "ERR_DROPKIT_IO_ERROR",
        path.join(project, "no-such-folder"),
        `The working directory ${path.join(project, "no-such-folder")} (the cwd option) cannot be used: it does not exist. Pass an existing folder.`,
      ],
    });
  });

  // ESM only: CommonJS code has Node's require(esm) (20.19+, 22.12+), which refuses a module graph with top-level await.
  test("CommonJS code loads the package with require()", {
    skip: !(process.features as { require_module?: boolean }).require_module && "this Node has no require(esm)",
  }, () => {
    const script =
      'const d = require("dropkit"); console.log(JSON.stringify([typeof d.defineConfig, typeof d.loadConfig, d.defineConfig({ theme: "x" }).theme]));';
    const result = run(process.execPath, ["--input-type=commonjs", "-e", script], project);
    assert.deepEqual(JSON.parse(result.stdout), ["function", "function", "x"]);
  });

  test("dropkit installed outside the project (as npx or a global install does) loads a .ts config importing dropkit", () => {
    const elsewhere = tempDir("dropkit-npx-");
    installTarball(elsewhere, tarball);
    const drop = tempDir("dropkit-drop-");
    fs.mkdirSync(path.join(drop, ".git"));
    fs.writeFileSync(
      path.join(drop, "dropkit.config.ts"),
      'import { defineConfig } from "dropkit";\nimport type { DropkitConfig } from "dropkit";\nconst base: ' +
        'DropkitConfig = { theme: "global" };\nexport default defineConfig(async () => ({ ...base }));\n',
    );
    const result = run(process.execPath, [path.join(elsewhere, "node_modules/.bin/dropkit"), "config", "--json"], drop, {
      env: { GIT_CEILING_DIRECTORIES: path.dirname(drop) },
    });
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
    const result = run(process.execPath, [path.join(elsewhere, "node_modules/.bin/dropkit"), "create", "--log-format=json"], drop, {
      env: { GIT_CEILING_DIRECTORIES: path.dirname(drop) },
    });
    const cache = result.stderr
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((r) => r.action === "cache");
    assert.deepEqual(cache.hashed, ["blog.zip", "shop.zip"]);
  });
});

// --- helpers ---

/** The matrix's files: each case's file name, whether it must fail, and the key its error must name. */
const caseFiles = new Map<string, { fails: boolean; key?: string; text: string }>([
  ...Object.entries(configs.valid).map(([name, text]) => [`config-valid-${name}.ts`, { fails: false, text }] as const),
  ...Object.entries(configs.invalid).map(([name, [text, key]]) => [`config-invalid-${name}.ts`, { fails: true, key, text }] as const),
  ...Object.entries(configs.wrongValues).map(([name, text]) => [`config-wrong-${name}.ts`, { fails: true, text }] as const),
]);

/** Runs one tsc over `files` with the consumer's settings: strict, skipLibCheck false, no @types/node. */
function compile(
  project: string,
  compiler: string,
  options: { resolution: "node10" | "nodenext" | "bundler"; lib: string[]; files: string[] },
): { status: number | null; stdout: string } {
  const module = options.resolution === "node10" ? "commonjs" : options.resolution === "nodenext" ? "nodenext" : "esnext";
  const tsconfig = `tsconfig.${path.basename(path.dirname(path.dirname(compiler)))}.${options.resolution}.${options.lib.join("-")}.json`;
  fs.writeFileSync(
    path.join(project, tsconfig),
    JSON.stringify({
      compilerOptions: {
        target: "es2022",
        lib: options.lib,
        module,
        moduleResolution: options.resolution,
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: [],
        pretty: false,
      },
      files: options.files,
    }),
  );
  assert.ok(!fs.existsSync(path.join(project, "node_modules/@types/node")), "the consumer must not have @types/node");
  return run(process.execPath, [compiler, "-p", tsconfig], project, { allowFailure: true });
}

/** tsc's errors by file, each with its indented continuation lines (the whole message chain). */
function errorsByFile(stdout: string): Map<string, string> {
  const errors = new Map<string, string>();
  let file = "";
  for (const line of stdout.split("\n")) {
    const start = /^(\S[^(]*)\(\d+,\d+\): error TS\d+/.exec(line);
    if (start) file = start[1]!;
    else if (!line.startsWith(" ")) file = line.trim() ? line : "";
    if (file) errors.set(file, (errors.get(file) ?? "") + line + "\n");
  }
  return errors;
}

function writeConsumerFiles(project: string): void {
  const header = 'import { defineConfig } from "dropkit";\n\n';
  const sources: Record<string, string> = {
    "dropkit.config.ts": `${header}export default defineConfig({ theme: "consumer", modules: { exclude: ["test-*"] }, hooks: { onFailure: "fail" } });\n`,
    "valid.ts": `import {
  defineConfig, loadConfig, validateConfig, DropkitError, isDropkitError, type DropkitConfig, type Env, type LoadConfigResult,
} from "dropkit";
import { createCore } from "dropkit/core";
import { openCore, CoreTrap } from "dropkit/abi";

export const object = defineConfig({ $schema: "./node_modules/dropkit/schema.json", schema: 1, theme: "ocean", exclude: ["old-*"], presets: ["standard"] });
export const sync = defineConfig(() => ({ theme: "none", modules: { only: ["blog"] }, cache: { enabled: false } }));
export const asyncConfig = defineConfig(async () => {
  const theme = await Promise.resolve("auto");
  return theme === "auto" ? { theme } : { log: { format: "json" as const } };
});
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
  for (const [name, { text }] of caseFiles) fs.writeFileSync(path.join(project, name), `${configs.header}${text}\n`);
}

/** The relative specifiers a module imports or re-exports (static and dynamic). */
function relativeImports(text: string): string[] {
  return specifiers(text).filter((s) => s.startsWith("./") || s.startsWith("../"));
}

function bareImports(text: string): string[] {
  return specifiers(text).filter((s) => !s.startsWith("./") && !s.startsWith("../"));
}

function specifiers(text: string): string[] {
  const found = [
    ...text.matchAll(
      /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm,
    ),
  ];
  return found.map((m) => (m[1] ?? m[2] ?? m[3])!);
}
