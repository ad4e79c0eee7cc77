// The bin that scripts/build-cli.mjs writes: V8 code caches kept per user and per Node version, in a private directory only.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { age, cliPath, fixture, runBundles } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";

// A drop with one module archive: create needs one (EmptyDrop otherwise).
const drop = fixture({ "dropkit.config.json": '{"theme":"ocean"}', "blog.zip": { zip: { "index.html": "<p>blog</p>" } } });
// Made an hour ago: an archive changed within 2 s of a run is read again by every run, which then saves no code cache.
age(path.join(drop, "blog.zip"));

/** Runs `dropkit config` (or `args`) through the bin with `XDG_CACHE_HOME`; returns whether V8 rejected the bundle's cache, and the output. */
function runBin(cacheHome: string, args: string[] = ["config", "--json"]): { status: number | null; rejected: string; stdout: string } {
  const result = spawnSync(
    process.execPath,
    [
      "-e",
      `process.argv = [process.argv[0], ${JSON.stringify(cliPath)}, ...${JSON.stringify(args)}];
const bin = require(${JSON.stringify(cliPath)});
process.on("exit", () => process.stderr.write("rejected=" + bin.bundle.script.cachedDataRejected + "\\n"));`,
    ],
    {
      cwd: drop,
      env: { PATH: process.env.PATH ?? "", HOME: "/nonexistent", XDG_CACHE_HOME: cacheHome, GIT_CEILING_DIRECTORIES: path.dirname(drop) },
      encoding: "utf8",
    },
  );
  return { status: result.status, rejected: /rejected=(\w+)/.exec(result.stderr)?.[1] ?? "?", stdout: result.stdout };
}

const cacheFiles = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".cache")) : []);

describe("the bin's code caches", () => {
  test("the first run on a Node version saves the bundle's cache in a 0700 directory, and the next run uses it", () => {
    const home = tempDir("dropkit-xdg-");
    const first = runBin(home);
    assert.equal(first.status, 0);
    const dir = path.join(home, "dropkit/v8");
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
    const [file] = cacheFiles(dir);
    assert.match(
      file ?? "",
      new RegExp(`^dropkit-cli-[0-9a-f]{16}-config-${process.version.replace(/\./g, "\\.")}-${process.arch}\\.cache$`),
    );
    assert.equal(fs.statSync(path.join(dir, file!)).mode & 0o777, 0o600);
    const second = runBin(home);
    assert.equal(second.rejected, "false");
    assert.equal(JSON.parse(second.stdout).config.theme, "ocean");
  });

  test("a create that reads archives into the archive cache saves no code cache; the next, cached, create saves the one runs load", () => {
    const home = tempDir("dropkit-xdg-");
    const zips = fixture({ "a.zip": { zip: { "a.txt": "a" } }, "b.zip": { zip: { "b.txt": "b" } } });
    // Aged past the archive cache's guard against racy timestamps, so that the runs after the first read nothing.
    for (const name of ["a.zip", "b.zip"]) age(path.join(zips, name));
    const run = () =>
      spawnSync(process.execPath, [cliPath, "create", "--log-format=json"], {
        cwd: zips,
        env: { PATH: process.env.PATH ?? "", HOME: "/nonexistent", XDG_CACHE_HOME: home, GIT_CEILING_DIRECTORIES: path.dirname(zips) },
        encoding: "utf8",
      });
    const dir = path.join(home, "dropkit/v8");
    const createCaches = () => cacheFiles(dir).filter((f) => f.includes("-create-"));
    assert.equal(run().status, 0);
    assert.deepEqual(createCaches(), [], "the run that read the archives saved no cache");
    assert.equal(run().status, 0);
    const [saved] = createCaches();
    assert.ok(saved, "the cached run saved the cache");
    // A new archive is read again: the cache stays the one cached runs made.
    const before = fs.readFileSync(path.join(dir, saved));
    fs.copyFileSync(path.join(zips, "a.zip"), path.join(zips, "c.zip"));
    assert.equal(run().status, 0);
    assert.deepEqual(fs.readFileSync(path.join(dir, saved)), before);
  });

  test("each command has a cache of its own, holding what that command's run compiled", () => {
    const home = tempDir("dropkit-xdg-");
    assert.equal(runBin(home).status, 0);
    // The first create reads the archive into the archive cache and saves no code cache; the next, cached, one does.
    assert.equal(runBin(home, ["create", "--theme=none", "--log-format=json"]).status, 0);
    assert.equal(runBin(home, ["create", "--theme=none", "--log-format=json"]).status, 0);
    assert.equal(runBin(home, ["--version"]).status, 0);
    const dir = path.join(home, "dropkit/v8");
    const commands = cacheFiles(dir)
      .map((f) => /^dropkit-cli-[0-9a-f]{16}-(\w+)-v/.exec(f)?.[1])
      .sort();
    assert.deepEqual(commands, ["config", "create", "other"]);
    assert.equal(runBin(home, ["create", "--theme=none", "--log-format=json"]).rejected, "false");
    assert.equal(runBin(home).rejected, "false");
  });

  test("a run that fails saves no cache (it compiled too little to keep); the next run that succeeds does", () => {
    const home = tempDir("dropkit-xdg-");
    const dir = path.join(home, "dropkit/v8");
    assert.equal(runBin(home, ["config", "--config=missing.json"]).status, 66);
    assert.deepEqual(cacheFiles(dir), []);
    assert.equal(runBin(home).status, 0);
    assert.equal(cacheFiles(dir).length, 1);
  });

  test("a damaged cache is rejected by V8, the run still works, and the cache is written again", () => {
    const home = tempDir("dropkit-xdg-");
    runBin(home);
    const dir = path.join(home, "dropkit/v8");
    const file = path.join(dir, cacheFiles(dir)[0]!);
    fs.writeFileSync(file, Buffer.alloc(fs.statSync(file).size, 7));
    const damaged = runBin(home);
    assert.equal(damaged.status, 0);
    assert.equal(damaged.rejected, "true");
    assert.equal(runBin(home).rejected, "false");
  });

  test("a cache directory that others may write is never used: nothing read from it, nothing written to it", () => {
    const home = tempDir("dropkit-xdg-");
    const dir = path.join(home, "dropkit/v8");
    fs.mkdirSync(dir, { recursive: true });
    fs.chmodSync(dir, 0o777);
    assert.equal(runBin(home).status, 0);
    assert.deepEqual(cacheFiles(dir), []);
  });

  test("a cache directory owned by another user is never used", {
    skip: process.getuid?.() === 0 ? false : "needs root to give a directory to nobody",
  }, () => {
    const home = tempDir("dropkit-xdg-");
    const dir = path.join(home, "dropkit/v8");
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.chownSync(dir, 65534, 65534);
    assert.equal(runBin(home).status, 0);
    assert.deepEqual(cacheFiles(dir), []);
  });

  test("saving a cache removes the caches no run used for 30 days and old temporary files; a cache in use is kept fresh", () => {
    const home = tempDir("dropkit-xdg-");
    const dir = path.join(home, "dropkit/v8");
    assert.equal(runBin(home).status, 0);
    const [inUse] = cacheFiles(dir);
    const past = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000);
    const files = {
      inUse: inUse!,
      oldBuild: "dropkit-cli-0123456789abcdef-create-v20.0.0-x64.cache",
      oldNode: inUse!.replace(/-v[\d.]+-/, "-v18.0.0-"),
      recentBuild: "dropkit-cli-fedcba9876543210-config-v20.0.0-x64.cache",
      oldJiti: "jiti-0123456789abcdef-v20.0.0-x64.cache",
      killedSave: inUse! + ".4242.tmp",
      other: "notes.txt",
    };
    for (const name of Object.values(files)) {
      if (name !== inUse) fs.writeFileSync(path.join(dir, name), "x");
      if (name !== files.recentBuild) fs.utimesSync(path.join(dir, name), past(40), past(40));
    }
    // A run that loads a cache brings its time forward (it was 40 days old)...
    assert.equal(runBin(home).rejected, "false");
    assert.ok(Date.now() - fs.statSync(path.join(dir, inUse!)).mtimeMs < 60_000, "the cache in use is fresh again");
    // ...and a command with no cache yet saves one, and prunes.
    assert.equal(runBin(home, ["--version"]).status, 0);
    const left = fs.readdirSync(dir).sort();
    for (const kept of [files.inUse, files.recentBuild, files.other]) assert.ok(left.includes(kept), `${kept} is kept`);
    for (const gone of [files.oldBuild, files.oldNode, files.oldJiti, files.killedSave])
      assert.ok(!left.includes(gone), `${gone} is removed`);
    assert.equal(runBin(home).rejected, "false", "the cache in use still works");
  });

  test("without HOME the home directory is the system's (os.homedir()), as for jiti's cache", () => {
    const home = tempDir("dropkit-home-");
    // The user database's answer, stood in for by a preload: the bin asks node:os for it only now.
    const preload = path.join(home, "homedir.cjs");
    fs.writeFileSync(preload, `require("node:os").homedir = () => ${JSON.stringify(home)};\n`);
    const result = spawnSync(process.execPath, ["-r", preload, cliPath, "config", "--json"], {
      cwd: drop,
      env: { PATH: process.env.PATH ?? "", GIT_CEILING_DIRECTORIES: path.dirname(drop) },
      encoding: "utf8",
    });
    assert.equal(result.status, 0, result.stderr);
    assert.ok(
      fs.readdirSync(path.join(home, ".cache", "dropkit", "v8")).some((name) => name.endsWith(".cache")),
      "the bundle's cache is saved under the home directory",
    );
  });

  test("no usable cache directory (a relative XDG_CACHE_HOME, no home): the CLI runs without caches", () => {
    const result = runBin("relative/cache");
    assert.equal(result.status, 0);
    assert.equal(JSON.parse(result.stdout).config.theme, "ocean");
    assert.ok(!fs.existsSync(path.join(drop, "relative")));
  });
});

describe("config runs a bundle of its own, the config command alone", () => {
  /** Runs the bin with `args` in the drop, with a cache directory of its own; returns what `runBundles` does. */
  const bundlesOf = (args: string[]) => runBundles(drop, args, { XDG_CACHE_HOME: tempDir("dropkit-xdg-") });

  test("a config run compiles dropkit-config.cjs only", () => {
    const run = bundlesOf(["config", "--json"]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).config.theme, "ocean");
    assert.deepEqual(run.bundles, ["dropkit-config.cjs"]);
  });

  test("its own help needs only the command; what it cannot parse alone (an unknown flag) goes to the full CLI", () => {
    const help = bundlesOf(["config", "--help"]);
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /Usage/);
    assert.deepEqual(help.bundles, ["dropkit-config.cjs"]);
    const unknown = bundlesOf(["config", "--jsn"]);
    assert.equal(unknown.status, 64);
    assert.match(unknown.stderr, /Unknown flag --jsn for dropkit config\. Did you mean --json\?/);
    assert.deepEqual(unknown.bundles, ["dropkit-config.cjs", "dropkit-cli.cjs"]);
  });

  test("every other command runs the full CLI", () => {
    const run = bundlesOf(["--version"]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.bundles, ["dropkit-cli.cjs"]);
  });
});

describe("only what a command uses is loaded", () => {
  // Preloaded into the run (\`node -e\` would load node:crypto itself; the preload takes Node's module class without
  // loading node:module): at exit, the Node built-ins and packages loaded,
  // and the built-ins the bin and its bundle required (Node loads node:url and node:util itself, Bun does not: the
  // bundles require them only when used, scripts/build/bundles.mjs's lazyBuiltins).
  const preload = path.join(tempDir("dropkit-preload-"), "loaded.cjs");
  fs.writeFileSync(
    preload,
    `const Module = module.constructor;
const required = new Set();
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request.startsWith("node:")) required.add(request.slice(5));
  return load.call(this, request, ...rest);
};
process.on("exit", () => {
  // Taken before anything is written: process.stderr, as a stream, would load modules of its own.
  const text = "\\nloaded=" + JSON.stringify({
    builtins: process.moduleLoadList.filter((n) => n.startsWith("NativeModule ")).map((n) => n.slice(13)),
    required: [...required],
    packages: Object.keys(require.cache).filter((k) => k.includes("node_modules")).map((k) => k.replace(/.*node_modules[\\\\/]/, "")),
    lsp: Object.keys(require.cache).some((k) => k.endsWith("dropkit-lsp.cjs")),
  }) + "\\n";
  require("node:fs").writeSync(2, text);
});\n`,
  );

  type Loaded = { builtins: string[]; required: string[]; packages: string[]; lsp: boolean };
  /** What a run of the bin loaded; `input` is its stdin. */
  function loaded(cwd: string, args: string[], input = ""): Loaded {
    const result = spawnSync(process.execPath, ["-r", preload, cliPath, ...args], {
      cwd,
      input,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: "/nonexistent",
        XDG_CACHE_HOME: tempDir("dropkit-xdg-"),
        GIT_CEILING_DIRECTORIES: path.dirname(cwd),
      },
      encoding: "utf8",
    });
    assert.equal(result.status, 0, result.stderr);
    return JSON.parse(/loaded=(.*)/.exec(result.stderr)![1]!) as Loaded;
  }
  // What only other commands or other inputs need: the digest pool's threads and hashing, init's prompts (and their
  // readline), jiti; node:os (a home directory without HOME, a lock another run holds) and the lock's wait.
  // Nor node:url, node:util (a config's URL off Node, a value no JSON holds), node:tty (clipanion's colour depth:
  // patches/clipanion+3.2.1.patch) or node:module (the bin takes Node's module class from its own module, and the
  // bundles require node:module when they resolve a package), which the bundles must not require at start-up.
  const unused = (l: Loaded) => [
    ...l.builtins.filter((b) => ["worker_threads", "readline", "crypto", "os", "timers/promises", "tty", "module"].includes(b)),
    ...l.required.filter((b) => ["url", "util", "os", "tty", "module"].includes(b)),
    ...l.packages.filter((p) => /^(jiti|@clack)[\\/]/.test(p)),
    // The language server's bundle: `dropkit lsp` alone requires it.
    ...(l.lsp ? ["dropkit-lsp.cjs"] : []),
  ];

  test("config with a JSON config: no digest pool, hashing, prompts or jiti", () => {
    const l = loaded(drop, ["config"]);
    assert.ok(l.builtins.includes("vm"), "the preload sees the bin's own modules");
    assert.ok(l.required.includes("fs"), "and what the bin and its bundle require");
    assert.deepEqual(unused(l), []);
    // A command that only checks whether a signal stopped it makes no AbortSignal (src/signals.ts, StopCheck): Node
    // loads its AbortController module only for one. Its hooks verdict needs the hooks held (src/hooks/held.ts), not
    // what runs them (scripts.ts, which decodes their output).
    assert.deepEqual(
      l.builtins.filter((b) => ["internal/abort_controller", "string_decoder"].includes(b)),
      [],
    );
  });

  test("a cached create of 12 archives: the same", () => {
    const files: Record<string, { zip: Record<string, string> }> = {};
    for (let i = 1; i <= 12; i++) files[`module-${i}.zip`] = { zip: { [`m${i}.txt`]: `module ${i}` } };
    const root = fixture(files);
    // Old enough for the cache's racy-timestamp guard to trust it.
    for (const name of Object.keys(files)) age(path.join(root, name));
    // The first run hashes the archives (node:crypto) and writes the cache; the second reads it.
    assert.ok(loaded(root, ["create"]).builtins.includes("crypto"));
    assert.deepEqual(unused(loaded(root, ["create"])), []);
  });

  test("lsp: the language server's bundle, and still no digest pool, prompts or jiti", () => {
    // A whole session on stdin: initialize, shutdown and exit, after which the server exits with 0.
    const frame = (message: object) => {
      const body = JSON.stringify({ jsonrpc: "2.0", ...message });
      return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    };
    const session = [
      frame({ id: 1, method: "initialize", params: { processId: null, rootUri: null, capabilities: {} } }),
      frame({ id: 2, method: "shutdown" }),
      frame({ method: "exit" }),
    ].join("");
    const l = loaded(drop, ["lsp", "--stdio"], session);
    assert.equal(l.lsp, true);
    // The server's bundle uses node:module (to be required), node:url and node:util, and vscode-jsonrpc node:os and node:crypto.
    const server = ["dropkit-lsp.cjs", "module", "url", "util", "os", "crypto"];
    assert.deepEqual(
      unused(l).filter((name) => !server.includes(name)),
      [],
    );
  });
});

describe("what the build writes for start-up (scripts/build/): each trick's output is in the files", () => {
  const dist = path.dirname(cliPath);
  const bundles = ["dropkit-cli.cjs", "dropkit-config.cjs"].map((name) => ({ name, text: fs.readFileSync(path.join(dist, name), "utf8") }));

  test("the language server is a bundle of its own: the CLI's bundles hold none of its code (its framing's Content-Length)", () => {
    for (const { name, text } of bundles) assert.ok(!text.includes("Content-Length"), `${name} holds the language server's code`);
    assert.ok(fs.readFileSync(path.join(dist, "dropkit-lsp.cjs"), "utf8").includes("Content-Length"));
  });

  test("each bundle is written as the function the bin compiles, with the bin's own parameters", () => {
    for (const { name, text } of bundles) {
      assert.match(text, /^\(function \(exports, require, module, __filename, __dirname, __dropkitImport, __dropkitFullCli, /, name);
      assert.match(text, /\n\}\)$/, name);
    }
  });

  test("ES imports of CommonJS modules read the module itself (commonJsImports): none is esbuild's __toESM copy", () => {
    for (const { name, text } of bundles) {
      assert.ok(text.includes('__dropkitCommonJs(require("node:path"))'), `${name} imports node:path through __dropkitCommonJs`);
      assert.doesNotMatch(text, /__toESM\((require\(|require_)/, name);
    }
  });

  test("typanion comes from its ES module build (the validators used), and clipanion's require of it from three validators", () => {
    for (const { name, text } of bundles) {
      assert.ok(text.includes('"node_modules/typanion/lib/index.mjs"'), name);
      assert.ok(!text.includes('"node_modules/typanion/lib/index.js"'), `${name} holds typanion's CommonJS build`);
    }
  });

  test("the bundles are written without indentation (their whitespace removed; docs/performance.md#tricks-in-place)", () => {
    for (const { name, text } of bundles) {
      // Minified, a line runs many statements together (new lines stay only inside template literals); as written, a few dozen characters.
      const lines = text.split("\n").length;
      assert.ok(lines < text.length / 400, `${name}: ${lines} lines in ${text.length} characters, as if its whitespace were kept`);
    }
  });
});
