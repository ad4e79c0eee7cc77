// The answer cache (src/files/answercache.ts): the core's answers kept between runs in a folder, the same output with
// and without them, the core never compiled when every request is known, and no answer read that this core did not give.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { Core } from "../../src/core/host.js";
import { AnswerCache } from "../../src/files/answercache.js";
import { wasmBytes } from "../../scripts/lib/abi.js";
import { age, cliPath, fixture, runCli, type FixtureFile, type RunResult } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";

const hasStrace = spawnSync("strace", ["-V"]).status === 0;
const needsStrace = hasStrace || process.env.CI ? false : "needs strace";

/** A private cache home of its own, and the environment that points dropkit at it. */
function cacheHome(): { home: string; env: Record<string, string> } {
  const home = tempDir("dropkit-answers-home-");
  return { home, env: { XDG_CACHE_HOME: home } };
}

/** The answer files under a cache home. */
function answerFiles(home: string): string[] {
  const dir = path.join(home, "dropkit", "answers");
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((n) => n.endsWith(".answers"))
        .map((n) => path.join(dir, n))
    : [];
}

/** A run's output, all of it: what must not change when the answers come from the cache. */
const output = (r: RunResult) => ({ status: r.status, stdout: r.stdout, stderr: r.stderr });

/** Whether a run of the CLI opened the core's module (strace sees every file the process opens). */
function opensCore(cwd: string, args: string[], env: Record<string, string>): boolean {
  const trace = path.join(tempDir("dropkit-answers-trace-"), "trace");
  const r = spawnSync("strace", ["-f", "-e", "trace=openat", "-o", trace, process.execPath, cliPath, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", GIT_CEILING_DIRECTORIES: path.dirname(cwd), ...env },
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stderr);
  return /openat\([^)]*dropkit\.wasm"/.test(fs.readFileSync(trace, "utf8"));
}

describe("the answer cache: the same run, without the core", () => {
  // Valid and invalid configs, presets, flags, variables, --explain and the JSON log: each run twice in its folder.
  const cases: Array<{ name: string; files: Record<string, FixtureFile>; args: string[]; env?: Record<string, string> }> = [
    { name: "no config", files: {}, args: ["config"] },
    { name: "a JSON config", files: { "dropkit.config.json": '{ "theme": "ocean", "exclude": ["legacy-*"] }\n' }, args: ["config"] },
    { name: "an invalid config (two problems)", files: { "dropkit.config.json": '{ "theme": 3, "exlude": [] }\n' }, args: ["config"] },
    { name: "a syntax error", files: { "dropkit.config.json": '{ "theme": "a",, }\n' }, args: ["config"] },
    {
      name: "a preset file and the dropkit key",
      files: {
        "package.json": JSON.stringify({ dropkit: { presets: ["./team.json"], theme: "x" } }),
        "team.json": '{ "exclude": ["b-*"] }\n',
      },
      args: ["config", "--json"],
    },
    {
      name: "flags and variables",
      files: {},
      args: ["config", "--theme", "t", "--exclude", "a-*"],
      env: { DROPKIT_MODULES_EXCLUDE: "z-*", DROPKIT_NOPE: "1" },
    },
    { name: "--explain a key", files: { "dropkit.config.json": '{ "theme": "ocean" }\n' }, args: ["config", "--explain", "theme"] },
    { name: "the JSON log", files: { "dropkit.config.json": '{ "theme": "ocean" }\n' }, args: ["config", "--log-format", "json"] },
  ];
  for (const c of cases) {
    test(`${c.name}: the second run says exactly what the first said`, () => {
      const { home, env } = cacheHome();
      const root = fixture(c.files);
      const first = runCli(root, c.args, { ...env, ...c.env });
      assert.equal(answerFiles(home).length, 1, "the first run kept its answers");
      const second = runCli(root, c.args, { ...env, ...c.env });
      assert.deepEqual(output(second), output(first));
      // And the same as a run that keeps no answers (its cache home refused: writable by others).
      const refused = tempDir("dropkit-answers-refused-");
      fs.chmodSync(refused, 0o777);
      assert.deepEqual(output(runCli(root, c.args, { XDG_CACHE_HOME: refused, ...c.env })), output(first));
      assert.deepEqual(fs.readdirSync(refused), []);
    });
  }

  test("a cached create does the same with its answers kept", () => {
    const { home, env } = cacheHome();
    const root = fixture({ "theme-ocean.zip": { zip: { "index.css": "a" } }, "mod-a.zip": { zip: { "a.js": "1" } } });
    // Aged past the archive cache's guard against racy timestamps, so that the runs after the first are cached ones.
    for (const name of ["theme-ocean.zip", "mod-a.zip"]) age(path.join(root, name));
    const first = runCli(root, ["create", "--theme", "theme-ocean"], env);
    assert.equal(first.status, 0, first.stderr);
    // The state file as a run leaves it, but for the time of its last update.
    const state = () => ({ ...JSON.parse(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8")), updatedAt: null });
    const before = state();
    const again = [runCli(root, ["create", "--theme", "theme-ocean"], env), runCli(root, ["create", "--theme", "theme-ocean"], env)];
    assert.equal(again[1]!.status, 0);
    assert.deepEqual(output(again[1]!), output(again[0]!));
    assert.deepEqual(state(), before);
    assert.equal(answerFiles(home).length, 1);
  });

  test("a run whose every request is known never opens the core; a new request does", { skip: needsStrace }, () => {
    const { env } = cacheHome();
    const root = fixture({ "dropkit.config.json": '{ "theme": "ocean" }\n' });
    assert.equal(opensCore(root, ["config"], env), true, "the first run asks the core");
    assert.equal(opensCore(root, ["config"], env), false, "the second run is answered from the cache");
    fs.writeFileSync(path.join(root, "dropkit.config.json"), '{ "theme": "sand" }\n');
    assert.equal(opensCore(root, ["config"], env), true, "a changed config is a new request");
    assert.match(runCli(root, ["config"], env).stdout, /sand/);
  });

  test("the file keeps one run's answers: a changed config replaces them, it does not add to them", () => {
    const { home, env } = cacheHome();
    const root = fixture({ "dropkit.config.json": '{ "theme": "ocean" }\n' });
    runCli(root, ["config"], env);
    const [file] = answerFiles(home);
    const size = fs.statSync(file!).size;
    for (const theme of ["a", "b", "c", "d"]) {
      fs.writeFileSync(path.join(root, "dropkit.config.json"), `{ "theme": "${theme}cean" }\n`);
      runCli(root, ["config"], env);
    }
    assert.equal(answerFiles(home).length, 1);
    assert.equal(fs.statSync(file!).size, size);
    assert.match(fs.readFileSync(file!, "utf8"), /dcean/);
    assert.doesNotMatch(fs.readFileSync(file!, "utf8"), /ocean/);
  });
});

describe("the answer cache: what it trusts", () => {
  test("a cache home writable by others is refused: nothing is read or written there", () => {
    const home = tempDir("dropkit-answers-open-");
    fs.chmodSync(home, 0o777);
    const root = fixture({ "dropkit.config.json": '{ "theme": "ocean" }\n' });
    assert.equal(runCli(root, ["config"], { XDG_CACHE_HOME: home }).status, 0);
    assert.deepEqual(fs.readdirSync(home), []);
  });

  test("an answers folder writable by its group is not used", () => {
    const { home, env } = cacheHome();
    const root = fixture({ "dropkit.config.json": '{ "theme": "ocean" }\n' });
    runCli(root, ["config"], env);
    const [file] = answerFiles(home);
    // A planted answer: what the core would never say for this config.
    fs.writeFileSync(file!, fs.readFileSync(file!, "utf8").replaceAll('"ocean"', '"plant"'));
    fs.chmodSync(path.dirname(file!), 0o770);
    const r = runCli(root, ["config"], env);
    assert.match(r.stdout, /ocean/);
    assert.doesNotMatch(r.stdout, /plant/);
  });

  test("answers kept for another build of the core are not read", () => {
    // A copy of the package: the same core's bytes at another file, as an upgrade puts a new one in place.
    const { home, env } = cacheHome();
    const install = tempDir("dropkit-answers-install-");
    fs.cpSync(path.dirname(cliPath), path.join(install, "dist"), { recursive: true });
    fs.copyFileSync(new URL("../../package.json", import.meta.url), path.join(install, "package.json"));
    fs.symlinkSync(path.resolve(path.dirname(cliPath), "../node_modules"), path.join(install, "node_modules"));
    const root = fixture({ "dropkit.config.json": '{ "theme": "ocean" }\n' });
    const run = () =>
      spawnSync(process.execPath, [path.join(install, "dist/dropkit.cjs"), "config"], {
        cwd: root,
        env: { PATH: process.env.PATH ?? "", GIT_CEILING_DIRECTORIES: path.dirname(root), ...env },
        encoding: "utf8",
      });
    assert.equal(run().status, 0);
    const [file] = answerFiles(home);
    fs.writeFileSync(file!, fs.readFileSync(file!, "utf8").replaceAll('"ocean"', '"plant"'));
    assert.match(run().stdout, /plant/, "the same core reads its answers (this test's premise)");
    // The module replaced (same bytes, a new file): another core as far as the cache can tell.
    const wasm = path.join(install, "dist/dropkit.wasm");
    const bytes = fs.readFileSync(wasm);
    fs.rmSync(wasm);
    fs.writeFileSync(wasm, bytes);
    const r = run();
    assert.match(r.stdout, /ocean/);
    assert.doesNotMatch(r.stdout, /plant/);
  });
});

describe("the answer store behind the core", () => {
  const moduleFile = (): string => {
    const file = path.join(tempDir("dropkit-answers-module-"), "dropkit.wasm");
    fs.writeFileSync(file, wasmBytes());
    return file;
  };

  /** A module file, a cache home, one request, and the module's bytes counting each time they are read. */
  const counted = () => {
    const { env } = cacheHome();
    const key = { cwd: "/project", module: moduleFile() };
    const request = JSON.stringify({ op: "suggest", name: "cnofig", candidates: ["config", "create"] });
    const reads = { count: 0 };
    const bytes = () => {
      reads.count++;
      return fs.readFileSync(key.module);
    };
    return { env, key, request, reads, bytes };
  };

  test("a core whose every request is known never compiles its module", () => {
    const { env, key, request, reads, bytes } = counted();
    const first = new AnswerCache(key, env);
    const answer = new Core(bytes, { answers: first }).callText(request);
    first.save();
    assert.equal(reads.count, 1);
    const core = new Core(bytes, { answers: new AnswerCache(key, env) });
    assert.equal(core.callText(request), answer);
    assert.equal(core.lastStatus, 0);
    assert.deepEqual(core.call(request), { ok: true, suggestion: "config" });
    assert.equal(reads.count, 1, "answered from the store, the module was not compiled");
  });

  test("prepare compiles the module meanwhile when the store holds no answer, and leaves it when the store has some", async () => {
    const { env, key, request, reads, bytes } = counted();
    const empty = new AnswerCache(key, env);
    const first = new Core(bytes, { answers: empty });
    await first.prepare();
    assert.equal(reads.count, 1, "an empty store: the module is compiled in the background");
    const answer = first.callText(request);
    assert.equal(reads.count, 1, "the request ran on the module prepare compiled");
    empty.save();
    const second = new Core(bytes, { answers: new AnswerCache(key, env) });
    await second.prepare();
    assert.equal(reads.count, 1, "a store with answers: nothing is compiled");
    assert.equal(second.callText(request), answer);
    // Without a store (the library's cores), and with a request made before the compile ends: the same answer.
    const third = new Core(bytes);
    const pending = third.prepare();
    assert.equal(third.callText(request), answer);
    await pending;
    assert.equal(third.callText(request), answer);
    // Bytes that are no module: prepare settles, and the request reports the failure as before.
    const broken = new Core(() => new Uint8Array([0, 97, 115, 109, 9, 9, 9, 9]));
    await broken.prepare();
    assert.throws(() => broken.callText(request), WebAssembly.CompileError);
  });

  test("a request the core rejects (status 2) is not kept", () => {
    const { home, env } = cacheHome();
    const store = new AnswerCache({ cwd: "/p", module: moduleFile() }, env);
    const core = new Core(wasmBytes(), { answers: store });
    core.callText('{"op":"nope"}');
    assert.equal(core.lastStatus, 2);
    store.save();
    assert.deepEqual(answerFiles(home), []);
  });

  test("another folder, or another module file, has answers of its own", () => {
    const { home, env } = cacheHome();
    const module = moduleFile();
    const remember = (cwd: string, file: string) => {
      const store = new AnswerCache({ cwd, module: file }, env);
      store.recall("q");
      store.keep("q", `answer in ${cwd}`);
      store.save();
    };
    remember("/a", module);
    remember("/b", module);
    assert.equal(answerFiles(home).length, 2);
    assert.equal(new AnswerCache({ cwd: "/a", module }, env).recall("q"), "answer in /a");
    assert.equal(new AnswerCache({ cwd: "/a", module, moduleHash: "other" }, env).recall("q"), undefined);
    fs.utimesSync(module, new Date(), new Date(Date.now() - 1000));
    assert.equal(new AnswerCache({ cwd: "/a", module }, env).recall("q"), undefined);
  });

  test("a damaged file answers only what it can prove; the rest goes to the core", () => {
    const { home, env } = cacheHome();
    const key = { cwd: "/d", module: moduleFile() };
    const store = new AnswerCache(key, env);
    store.recall("one");
    store.keep("one", "1");
    store.keep("two", "2");
    store.save();
    const [file] = answerFiles(home);
    const text = fs.readFileSync(file!, "utf8");
    fs.writeFileSync(file!, text.slice(0, -1));
    const cut = new AnswerCache(key, env);
    assert.equal(cut.recall("one"), "1");
    assert.equal(cut.recall("two"), undefined);
    for (const damaged of [
      "",
      "dropkit-answers 1\n",
      text.replace("3 1\n", "x 1\n"),
      text.replace("dropkit-answers 1", "dropkit-answers 9"),
    ]) {
      fs.writeFileSync(file!, damaged);
      assert.doesNotThrow(() => new AnswerCache(key, env).recall("one"));
    }
    fs.writeFileSync(file!, text.replace("dropkit-answers 1", "dropkit-answers 9"));
    assert.equal(new AnswerCache(key, env).recall("one"), undefined);
  });

  test("an answer larger than 256 KB is not kept; nothing new, nothing written", () => {
    const { home, env } = cacheHome();
    const store = new AnswerCache({ cwd: "/big", module: moduleFile() }, env);
    store.recall("q");
    store.keep("q", "x".repeat(300 * 1024));
    store.save();
    assert.deepEqual(answerFiles(home), []);
  });

  test("at most 256 folders' answers are kept: the least recently used go", () => {
    const { home, env } = cacheHome();
    const module = moduleFile();
    const remember = (i: number) => {
      const store = new AnswerCache({ cwd: `/f${i}`, module }, env);
      store.recall("q");
      store.keep("q", String(i));
      store.save();
    };
    for (let i = 0; i < 4; i++) remember(i);
    // The first four, used a day ago: the least recently used.
    for (const file of answerFiles(home)) fs.utimesSync(file, new Date(), new Date(Date.now() - 86_400_000));
    for (let i = 4; i < 260; i++) remember(i);
    assert.equal(answerFiles(home).length, 256);
    for (let i = 0; i < 4; i++) assert.equal(new AnswerCache({ cwd: `/f${i}`, module }, env).recall("q"), undefined);
    assert.equal(new AnswerCache({ cwd: "/f4", module }, env).recall("q"), "4");
    assert.equal(new AnswerCache({ cwd: "/f259", module }, env).recall("q"), "259");
  });
});
