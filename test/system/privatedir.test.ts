// Tests for the private directory of compiled configs and answers (src/files/privatedir.ts): where it is, how it is made and checked, and
// that a compiled file planted by another user (nobody, through setpriv) in a shared or unsafe place never runs.

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, test } from "node:test";
import { privateDir, readPrivateFile, writePrivateFile } from "../../src/files/privatedir.js";
import { age, cliPath, fixture, runCli } from "../helpers/cli.js";
import { waitFor } from "../helpers/processes.js";
import { tempDir } from "../helpers/temp.js";
import { otherUser } from "../helpers/users.js";

const nobody = 65534;
const isRoot = process.getuid?.() === 0;
const canDrop = isRoot && spawnSync("setpriv", [`--reuid=${nobody}`, `--regid=${nobody}`, "--clear-groups", "true"]).status === 0;
const asOtherUser = canDrop ? false : "needs root and setpriv, to act as the user nobody";

type JitiFactory = (id: string, options: Record<string, unknown>) => { import(id: string): Promise<unknown> };
const { createJiti } = createRequire(import.meta.url)("jiti") as { createJiti: JitiFactory };

const modeOf = (p: string) => fs.statSync(p).mode & 0o7777;

/** Why privateDir refuses a cache for `env` (it must refuse). */
function whyNot(env: NodeJS.ProcessEnv): string {
  const cache = privateDir(env);
  assert.equal(cache.dir, null, "a cache directory was accepted");
  return (cache as { why: string }).why;
}

/** Where privateDir's directory is (it must accept one), checked to be the very directory its `dir` reaches. */
function accepted(env: NodeJS.ProcessEnv, platform?: NodeJS.Platform): string {
  const cache = privateDir(env, platform);
  assert.ok(cache.dir !== null, (cache as { why: string }).why);
  assert.equal(fs.statSync(cache.dir).ino, fs.statSync(cache.real).ino);
  return cache.real;
}

/** A drop whose .ts config sets the theme "real"; the planted code would set "planted". */
function drop(): { root: string; config: string } {
  // One module archive: create needs one (EmptyDrop otherwise).
  const root = fixture({ "dropkit.config.ts": 'export default { theme: "real" };\n', "blog.zip": { zip: { "a.txt": "a" } } });
  return { root, config: path.join(root, "dropkit.config.ts") };
}

/** The jiti options of dropkit's (src/config/loader.ts) that name a compiled file: `sourceMaps` adds "+map" to the name. */
const dropkitJitiOptions = { moduleCache: false, interopDefault: false, sourceMaps: true };

/**
 * The name jiti gives `config`'s compiled file and the code planted under it: valid for jiti (its trailer is the
 * one jiti checks, a hash of the real source), setting the theme "planted". Made by jiti itself in a scratch
 * directory, with the options dropkit uses, so the planted file is the one dropkit would read from a shared folder.
 */
async function plantedFile(config: string): Promise<{ name: string; code: string }> {
  const scratch = tempDir("dropkit-jiti-scratch-");
  await createJiti(path.join(scratch, "x.js"), { fsCache: scratch, ...dropkitJitiOptions }).import(config);
  const [name] = fs.readdirSync(scratch).filter((f) => f.endsWith(".mjs"));
  assert.ok(name, "jiti wrote no compiled file");
  const trailer = fs.readFileSync(path.join(scratch, name), "utf8").match(/ \/\* v\d+-[0-9a-f]+ \*\/\n$/)?.[0];
  assert.ok(trailer, "jiti's cache trailer has changed: update this test");
  return { name, code: `exports.default = { theme: "planted" };${trailer}` };
}

/** Writes `file` as nobody (making its directory), as another user on a shared machine would. */
function plantAsNobody(file: string, code: string): void {
  const script =
    "const fs = require('node:fs'); fs.mkdirSync(require('node:path').dirname(process.argv[1]), { recursive: true }); " +
    "fs.writeFileSync(process.argv[1], process.argv[2]);";
  const r = spawnSync("setpriv", [`--reuid=${nobody}`, `--regid=${nobody}`, "--clear-groups", process.execPath, "-e", script, file, code], {
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stderr);
}

/** What jiti loads for `config` with `options` in a fresh process: proves that a planted file would run. */
function jitiLoads(config: string, options: Record<string, unknown>, env: Record<string, string> = {}): string {
  const script =
    "require(process.argv[1]).createJiti(process.argv[2], JSON.parse(process.argv[3]))" +
    ".import(process.argv[4]).then((m) => console.log(m.default.theme));";
  const jiti = createRequire(import.meta.url).resolve("jiti");
  const id = path.join(tempDir("dropkit-jiti-id-"), "x.js");
  const r = spawnSync(process.execPath, ["-e", script, jiti, id, JSON.stringify({ ...dropkitJitiOptions, ...options }), config], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

/** The theme `dropkit config --json` resolves in `root`. */
function themeOf(root: string, env: Record<string, string>): string {
  const r = runCli(root, ["config", "--json"], env);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout).config.theme as string;
}

/** A world-writable, sticky directory like /tmp, for TMPDIR. */
function sharedTemp(): string {
  const dir = tempDir("dropkit-shared-tmp-");
  fs.chmodSync(dir, 0o1777);
  return dir;
}

describe("where the private directory is (privateDir)", () => {
  test("$XDG_CACHE_HOME/dropkit/jiti, made with mode 0700 at each level dropkit adds", () => {
    const xdg = tempDir("dropkit-xdg-");
    assert.equal(accepted({ XDG_CACHE_HOME: xdg }), path.join(xdg, "dropkit", "jiti"));
    assert.equal(modeOf(path.join(xdg, "dropkit")), 0o700);
    assert.equal(modeOf(path.join(xdg, "dropkit", "jiti")), 0o700);
  });

  test("a missing base directory is made too, 0700 (as the XDG spec asks), whatever the umask", () => {
    const xdg = path.join(tempDir("dropkit-xdg-"), "not", "yet");
    const umask = process.umask(0o000);
    try {
      assert.equal(accepted({ XDG_CACHE_HOME: xdg }), path.join(xdg, "dropkit", "jiti"));
    } finally {
      process.umask(umask);
    }
    for (const dir of [xdg, path.join(xdg, "dropkit"), path.join(xdg, "dropkit", "jiti")]) assert.equal(modeOf(dir), 0o700, dir);
  });

  test("without XDG_CACHE_HOME (or with a relative one): ~/.cache, ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows", () => {
    const home = tempDir("dropkit-home-");
    assert.equal(accepted({ HOME: home }, "linux"), path.join(home, ".cache", "dropkit", "jiti"));
    assert.equal(accepted({ HOME: home, XDG_CACHE_HOME: "relative/cache" }, "linux"), path.join(home, ".cache", "dropkit", "jiti"));
    assert.equal(accepted({ HOME: home }, "darwin"), path.join(home, "Library", "Caches", "dropkit", "jiti"));
    const local = tempDir("dropkit-localappdata-");
    assert.deepEqual(privateDir({ LOCALAPPDATA: local }, "win32"), {
      dir: path.join(local, "dropkit", "jiti"),
      real: path.join(local, "dropkit", "jiti"),
    });
    assert.equal(privateDir({}, "win32").dir, null);
  });

  test("a base writable by group or others, and dropkit's directories with unsafe modes or as links, are refused", () => {
    const open = tempDir("dropkit-xdg-");
    fs.chmodSync(open, 0o777);
    assert.match(whyNot({ XDG_CACHE_HOME: open }), /writable by its group and others \(mode 777\)/);
    assert.equal(fs.existsSync(path.join(open, "dropkit")), false, "nothing is made below an unsafe base");

    const xdg = tempDir("dropkit-xdg-");
    fs.mkdirSync(path.join(xdg, "dropkit", "jiti"), { recursive: true });
    fs.chmodSync(path.join(xdg, "dropkit", "jiti"), 0o770);
    assert.match(whyNot({ XDG_CACHE_HOME: xdg }), /jiti is writable by its group \(mode 770\)/);

    const linked = tempDir("dropkit-xdg-");
    const elsewhere = tempDir("dropkit-elsewhere-");
    fs.symlinkSync(elsewhere, path.join(linked, "dropkit"));
    assert.match(whyNot({ XDG_CACHE_HOME: linked }), /dropkit is a symbolic link/);

    const file = tempDir("dropkit-xdg-");
    fs.writeFileSync(path.join(file, "dropkit"), "");
    assert.match(whyNot({ XDG_CACHE_HOME: file }), /dropkit is not a directory/);
  });

  test("a directory owned by another user is refused, the base included (unless root owns it)", { skip: asOtherUser }, () => {
    const xdg = tempDir("dropkit-xdg-");
    fs.mkdirSync(path.join(xdg, "dropkit", "jiti"), { recursive: true, mode: 0o700 });
    fs.chownSync(path.join(xdg, "dropkit", "jiti"), nobody, nobody);
    assert.match(whyNot({ XDG_CACHE_HOME: xdg }), new RegExp(`jiti is owned by user ${nobody}, not by this user \\(0\\)`));

    const base = tempDir("dropkit-xdg-");
    fs.chownSync(base, nobody, nobody);
    assert.match(whyNot({ XDG_CACHE_HOME: base }), new RegExp(`is owned by user ${nobody}`));
  });
});

describe("a compiled config planted by another user never runs (SPEC section 12)", { skip: asOtherUser }, () => {
  test("in jiti's shared default, $TMPDIR/jiti: dropkit no longer looks there, and writes nothing there", async () => {
    const { root, config } = drop();
    const { name, code } = await plantedFile(config);
    const shared = sharedTemp();
    plantAsNobody(path.join(shared, "jiti", name), code);
    // The attack is real: jiti's default cache runs the planted file.
    assert.equal(jitiLoads(config, {}, { TMPDIR: shared }), "planted");
    const xdg = tempDir("dropkit-xdg-");
    assert.equal(themeOf(root, { TMPDIR: shared, XDG_CACHE_HOME: xdg }), "real");
    assert.deepEqual(fs.readdirSync(path.join(shared, "jiti")), [name], "nothing added to the shared folder");
    // The compiled file went to the private directory instead.
    assert.deepEqual(fs.readdirSync(path.join(xdg, "dropkit", "jiti")), [name]);
  });

  test("in a cache directory writable by group and others: it is not used, and the run is still right", async () => {
    const { root, config } = drop();
    const { name, code } = await plantedFile(config);
    const xdg = tempDir("dropkit-xdg-");
    const dir = path.join(xdg, "dropkit", "jiti");
    fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
    fs.chmodSync(xdg, 0o755);
    fs.chmodSync(dir, 0o777);
    plantAsNobody(path.join(dir, name), code);
    assert.equal(jitiLoads(config, { fsCache: dir }), "planted");
    assert.equal(themeOf(root, { XDG_CACHE_HOME: xdg }), "real");
  });

  test("in a cache directory owned by another user, or reached through a link to one: not used", async () => {
    const { root, config } = drop();
    const { name, code } = await plantedFile(config);
    const owned = tempDir("dropkit-xdg-");
    fs.chmodSync(owned, 0o755);
    fs.mkdirSync(path.join(owned, "dropkit"), { mode: 0o755 });
    fs.mkdirSync(path.join(owned, "dropkit", "jiti"), { mode: 0o700 });
    fs.chownSync(path.join(owned, "dropkit", "jiti"), nobody, nobody);
    plantAsNobody(path.join(owned, "dropkit", "jiti", name), code);
    assert.equal(jitiLoads(config, { fsCache: path.join(owned, "dropkit", "jiti") }), "planted");
    assert.equal(themeOf(root, { XDG_CACHE_HOME: owned }), "real");

    const linked = tempDir("dropkit-xdg-");
    const theirs = sharedTemp();
    plantAsNobody(path.join(theirs, "dropkit", "jiti", name), code);
    fs.symlinkSync(path.join(theirs, "dropkit"), path.join(linked, "dropkit"));
    assert.equal(themeOf(root, { XDG_CACHE_HOME: linked }), "real");
  });

  test("XDG_CACHE_HOME that others can write: no file cache at all (nothing made there or in TMPDIR), still right", () => {
    const { root } = drop();
    const open = tempDir("dropkit-xdg-");
    fs.chmodSync(open, 0o777);
    const shared = sharedTemp();
    assert.equal(themeOf(root, { XDG_CACHE_HOME: open, TMPDIR: shared }), "real");
    assert.deepEqual(fs.readdirSync(open), []);
    assert.deepEqual(fs.readdirSync(shared), []);
    // Said once, and only when asked for with DROPKIT_DEBUG=1.
    const debug = runCli(root, ["config"], { XDG_CACHE_HOME: open, DROPKIT_DEBUG: "1" });
    assert.equal(debug.stderr.split("\n").filter((l) => l.includes("without a file cache")).length, 1, debug.stderr);
    assert.doesNotMatch(runCli(root, ["config"], { XDG_CACHE_HOME: open }).stderr, /file cache/);
  });
});

describe("a private file written (writePrivateFile)", () => {
  test("whole, mode 0600, in place of the old one; or not at all, with no temporary file left", () => {
    const dir = tempDir("dropkit-cachefile-");
    const file = path.join(dir, "entry.cache");
    fs.writeFileSync(file, "old");
    writePrivateFile(file, "new text");
    assert.equal(fs.readFileSync(file, "utf8"), "new text");
    assert.equal(modeOf(file), 0o600);
    writePrivateFile(file, new Uint8Array([1, 2, 3]));
    assert.deepEqual([...fs.readFileSync(file)], [1, 2, 3]);
    // A directory at the name: the rename fails, and nothing of the attempt stays.
    const blocked = path.join(dir, "blocked.cache");
    fs.mkdirSync(path.join(blocked, "inside"), { recursive: true });
    writePrivateFile(blocked, "text");
    assert.ok(fs.statSync(blocked).isDirectory());
    // A folder that is gone: nothing is made, nothing is thrown.
    writePrivateFile(path.join(dir, "gone", "entry.cache"), "text");
    assert.deepEqual(fs.readdirSync(dir).sort(), ["blocked.cache", "entry.cache"]);
  });
});

describe("the CLI's cache", () => {
  test("made 0700 under HOME/.cache when XDG_CACHE_HOME is unset, and used: a second run reads the compiled file", () => {
    const { root } = drop();
    const home = tempDir("dropkit-home-");
    assert.equal(themeOf(root, { HOME: home }), "real");
    const dir = path.join(home, ".cache", "dropkit", "jiti");
    assert.equal(modeOf(path.join(home, ".cache", "dropkit")), 0o700);
    assert.equal(modeOf(dir), 0o700);
    const [compiled] = fs.readdirSync(dir);
    assert.ok(compiled?.endsWith(".mjs"), `compiled files: ${fs.readdirSync(dir).join(", ")}`);
    // The private cache is trusted: a change made in it (by the user) is what runs next.
    const file = path.join(dir, compiled);
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('"real"', '"cached"'));
    assert.equal(themeOf(root, { HOME: home }), "cached");
  });
});

describe("another user's home (root run with that user's HOME, as sudo without -H does)", { skip: otherUser.skip }, () => {
  const other = otherUser.user;

  /** The homes to try: a fresh one owned by the other user, as useradd makes it, and the user's real home when it has no ~/.cache. */
  function homes(): string[] {
    const fresh = path.join(tempDir("dropkit-homes-"), other.name);
    fs.mkdirSync(fresh, { mode: 0o755 });
    fs.chownSync(fresh, other.uid, other.gid);
    fs.chmodSync(path.dirname(fresh), 0o755);
    return fs.existsSync(path.join(other.home, ".cache")) ? [fresh] : [fresh, other.home];
  }

  test("privateDir makes no ~/.cache there, and says why", () => {
    for (const home of homes()) {
      const why = whyNot({ HOME: home });
      assert.match(why, new RegExp(`${home}/\\.cache does not exist and ${home} is owned by user ${other.uid}, not by this user \\(0\\)`));
      assert.match(why, /no directory in a home it does not own/);
      assert.equal(fs.existsSync(path.join(home, ".cache")), false);
    }
  });

  test("the CLI (jiti's cache and the bin's V8 caches) compiles a .ts config without a file cache and creates nothing in that home", () => {
    const { root } = drop();
    for (const home of homes()) {
      const before = fs.readdirSync(home).sort();
      assert.equal(themeOf(root, { HOME: home }), "real");
      const r = runCli(root, ["create", "--theme=none"], { HOME: home });
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual(fs.readdirSync(home).sort(), before, `nothing made in ${home}`);
      assert.equal(fs.existsSync(path.join(home, ".cache")), false);
    }
  });

  test("a ~/.cache the user already has, and a home of root's own, are unchanged in behaviour", () => {
    // The other user's ~/.cache is theirs: refused as before (owned by another user), nothing made in it.
    const [home] = homes();
    fs.mkdirSync(path.join(home!, ".cache"), { mode: 0o700 });
    fs.chownSync(path.join(home!, ".cache"), other.uid, other.gid);
    assert.match(whyNot({ HOME: home }), new RegExp(`is owned by user ${other.uid}`));
    assert.deepEqual(fs.readdirSync(path.join(home!, ".cache")), []);
    // Root's own home: ~/.cache is made as before.
    const own = tempDir("dropkit-home-");
    assert.equal(accepted({ HOME: own }, "linux"), path.join(own, ".cache", "dropkit", "jiti"));
  });
});

// --- Caches by identity: what is read is the file that was judged, in the directory that was judged ---

/** Node 22 or 24 (scripts/install-runtimes.sh prints where), which strips a .ts config's types and keeps the code in `ts`. */
const stripNode = process.env.NODE24_BIN || process.env.NODE22_BIN;
const needsStripNode = stripNode || process.env.CI ? false : "set NODE24_BIN or NODE22_BIN (scripts/install-runtimes.sh prints them)";

/** What a run of the built CLI did, and how long it took. */
interface TimedRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Runs the built CLI with the Node binary `node` in `root`. A run still going after `timeoutMs` is killed with SIGKILL:
 * one blocked in `open` (a FIFO) ignores SIGTERM.
 */
function runOn(node: string, root: string, args: string[], env: Record<string, string>, timeoutMs = 10_000): TimedRun {
  const started = Date.now();
  const r = spawnSync(node, [cliPath, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", GIT_CEILING_DIRECTORIES: path.dirname(root), ...env },
    encoding: "utf8",
    timeout: timeoutMs,
    killSignal: "SIGKILL",
  });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - started };
}

/** The theme a `config --json` run printed; the run must have ended with 0. */
function printedTheme(r: TimedRun): string {
  assert.equal(r.status, 0, `status ${r.status}, signal ${r.signal}, ${r.ms} ms: ${r.stderr}`);
  return (JSON.parse(r.stdout) as { config: { theme: string } }).config.theme;
}

/** A private cache home of root's (mode 0700). */
function privateHome(): string {
  const xdg = tempDir("dropkit-xdg-");
  fs.chmodSync(xdg, 0o700);
  return xdg;
}

/** The one file in `dir` whose name matches `pattern`. */
function onlyFile(dir: string, pattern: RegExp): string {
  const names = fs.readdirSync(dir).filter((name) => pattern.test(name));
  assert.equal(names.length, 1, `${dir}: ${fs.readdirSync(dir).join(", ")}`);
  return path.join(dir, names[0]!);
}

describe("a private file read (readPrivateFile) and written (writePrivateFile) by identity", () => {
  test("read: this user's regular file, whole; a FIFO, a link (to /dev/zero, or to a real cache), a file over the bound: a miss, at once", () => {
    const dir = tempDir("dropkit-entries-");
    const file = path.join(dir, "entry.cache");
    fs.writeFileSync(file, "cached");
    assert.equal(readPrivateFile(file, 100)?.toString(), "cached");
    assert.equal(readPrivateFile(file, 5), null, "over the bound");
    assert.equal(readPrivateFile(path.join(dir, "missing.cache"), 100), null);
    const fifo = path.join(dir, "fifo.cache");
    assert.equal(spawnSync("mkfifo", [fifo]).status, 0);
    const started = Date.now();
    assert.equal(readPrivateFile(fifo, 100), null);
    assert.ok(Date.now() - started < 1000, "a FIFO is never waited on");
    const zero = path.join(dir, "zero.cache");
    fs.symlinkSync("/dev/zero", zero);
    assert.equal(readPrivateFile(zero, 1024 * 1024 * 1024), null);
    const linked = path.join(dir, "linked.cache");
    fs.symlinkSync(file, linked);
    assert.equal(readPrivateFile(linked, 100), null, "a link is not followed, even to a good cache");
    fs.chmodSync(file, 0o666);
    assert.equal(readPrivateFile(file, 100), null, "writable by others");
    fs.chmodSync(file, 0o600);
    if (isRoot) {
      fs.chownSync(file, nobody, nobody);
      assert.equal(readPrivateFile(file, 100), null, "another user's");
    }
  });

  test("read with keepFresh: a file older than a week gets its time brought forward; a newer one is left as it is", () => {
    const dir = tempDir("dropkit-entries-");
    const file = path.join(dir, "entry.cache");
    fs.writeFileSync(file, "cached");
    const old = new Date(Date.now() - 10 * 24 * 60 * 60 * 1000);
    fs.utimesSync(file, old, old);
    readPrivateFile(file, 100);
    assert.equal(fs.statSync(file).mtime.getTime(), old.getTime(), "only when asked");
    readPrivateFile(file, 100, true);
    assert.ok(Date.now() - fs.statSync(file).mtimeMs < 60_000);
  });

  test("write: a link planted at the temporary name is never followed; its root-only target stays byte for byte", () => {
    const dir = tempDir("dropkit-entries-");
    const target = path.join(tempDir("dropkit-secret-"), "secret");
    fs.writeFileSync(target, "root's own\n", { mode: 0o600 });
    const before = fs.readFileSync(target);
    const file = path.join(dir, "entry.cache");
    const temporary = `${file}.${process.pid}.tmp`;
    fs.symlinkSync(target, temporary);
    writePrivateFile(file, "new cache");
    assert.deepEqual(fs.readFileSync(target), before);
    assert.equal(modeOf(target), 0o600);
    assert.equal(fs.readlinkSync(temporary), target, "the link itself is left as it was");
    // The cache is written all the same, under a temporary name of its own.
    assert.equal(fs.readFileSync(file, "utf8"), "new cache");
    assert.equal(modeOf(file), 0o600);
    assert.deepEqual(fs.readdirSync(dir).sort(), ["entry.cache", path.basename(temporary)]);
    // A file at the name (a killed run's, with the same pid) is not truncated either.
    fs.unlinkSync(temporary);
    fs.writeFileSync(temporary, "left by a killed run");
    writePrivateFile(file, "newer cache");
    assert.equal(fs.readFileSync(temporary, "utf8"), "left by a killed run");
    assert.equal(fs.readFileSync(file, "utf8"), "newer cache");
  });

  test("the bin's code cache written by root at exit, with a link at its temporary name: the root-only target is unchanged", () => {
    const root = fixture({ "dropkit.config.json": '{ "theme": "ocean" }\n' });
    const xdg = privateHome();
    assert.equal(printedTheme(runOn(process.execPath, root, ["config", "--json"], { XDG_CACHE_HOME: xdg, HOME: xdg })), "ocean");
    const cache = onlyFile(path.join(xdg, "dropkit", "v8"), /-config-.*\.cache$/);
    fs.unlinkSync(cache);
    const target = path.join(tempDir("dropkit-secret-"), "secret");
    fs.writeFileSync(target, "root's own\n", { mode: 0o600 });
    const before = fs.readFileSync(target);
    // The shell plants the link under its own pid, then becomes the CLI (exec keeps the pid): the writer's name exactly.
    const script = 'ln -s "$1" "$2.$$.tmp" && exec "$3" "$4" config --json';
    const r = spawnSync("sh", ["-c", script, "sh", target, cache, process.execPath, cliPath], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", GIT_CEILING_DIRECTORIES: path.dirname(root), XDG_CACHE_HOME: xdg, HOME: xdg },
      encoding: "utf8",
      timeout: 10_000,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(fs.readFileSync(target), before);
    assert.ok(
      fs.readdirSync(path.dirname(cache)).some((name) => /^.*-config-.*\.cache\.\d+\.tmp$/.test(name)),
      "the link was planted",
    );
    assert.ok(fs.lstatSync(cache).isFile(), "the cache was saved under another temporary name");
  });
});

describe("special files at a cache entry's name are a miss: never a wait, never a read without bound", () => {
  /** A drop with `config` and an init hook that, once `wait` exists, says it started and waits: where a signal is sent. */
  function dropWithHook(config: Record<string, string>): string {
    const hook = "#!/bin/sh\n[ -f wait ] || exit 0\necho started > hook.started\nexec sleep 60\n";
    const root = fixture({ ...config, "init-scripts/01-wait": { text: hook, mode: 0o755 }, "blog.zip": { zip: { "a.txt": "a" } } });
    // Made an hour ago: an archive changed within 2 s of a run is read again by every run, which then saves no code cache.
    age(path.join(root, "blog.zip"));
    return root;
  }

  /**
   * With `plant` putting the special files in place before each run: `config --json` ends normally within a few seconds
   * with `theme`, and a `create` whose hook waits (so the run got past every cache) ends with 143 at the first SIGTERM.
   */
  async function endsAndHearsSignals(node: string, root: string, env: Record<string, string>, theme: string, plant: () => void) {
    plant();
    const r = runOn(node, root, ["config", "--json"], env);
    assert.equal(printedTheme(r), theme);
    assert.ok(r.ms < 5000, `the run took ${r.ms} ms`);
    plant();
    fs.writeFileSync(path.join(root, "wait"), "");
    const child = spawn(node, [cliPath, "create", "--theme=none"], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", GIT_CEILING_DIRECTORIES: path.dirname(root), ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    try {
      await waitFor(() => fs.existsSync(path.join(root, "hook.started")), 10_000, "the hook to start (the run to get past the caches)");
      child.kill("SIGTERM");
      const code = await Promise.race([exited, new Promise<string>((resolve) => setTimeout(() => resolve("still running"), 5000))]);
      assert.equal(code, 143, stderr);
    } finally {
      child.kill("SIGKILL");
      fs.rmSync(path.join(root, "wait"), { force: true });
      fs.rmSync(path.join(root, "hook.started"), { force: true });
    }
  }

  /** Makes a FIFO at `file`, in place of what is there. */
  const fifoAt = (file: string) => {
    fs.rmSync(file, { force: true });
    assert.equal(spawnSync("mkfifo", ["-m", "600", file]).status, 0);
  };

  test("a FIFO at the answer cache's file", async () => {
    const root = dropWithHook({ "dropkit.config.json": '{ "theme": "ocean" }\n' });
    const xdg = privateHome();
    const env = { XDG_CACHE_HOME: xdg, HOME: xdg };
    assert.equal(printedTheme(runOn(process.execPath, root, ["config", "--json"], env)), "ocean");
    const answers = onlyFile(path.join(xdg, "dropkit", "answers"), /\.answers$/);
    await endsAndHearsSignals(process.execPath, root, env, "ocean", () => fifoAt(answers));
  });

  test("a link to /dev/zero at the bin's code cache names", async () => {
    const root = dropWithHook({ "dropkit.config.json": '{ "theme": "ocean" }\n' });
    const xdg = privateHome();
    const env = { XDG_CACHE_HOME: xdg, HOME: xdg };
    assert.equal(printedTheme(runOn(process.execPath, root, ["config", "--json"], env)), "ocean");
    // The first create reads the archive into the archive cache and saves no code cache; the next, cached, one does.
    for (let run = 0; run < 2; run++) assert.equal(runOn(process.execPath, root, ["create", "--theme=none"], env).status, 0);
    const v8 = path.join(xdg, "dropkit", "v8");
    const caches = [onlyFile(v8, /-config-.*\.cache$/), onlyFile(v8, /-create-.*\.cache$/)];
    await endsAndHearsSignals(process.execPath, root, env, "ocean", () => {
      for (const cache of caches) {
        fs.rmSync(cache, { force: true });
        fs.symlinkSync("/dev/zero", cache);
      }
    });
  });

  test("a FIFO at a stripped .ts config's entry (Node 22, 24)", { skip: needsStripNode }, async () => {
    const root = dropWithHook({ "dropkit.config.ts": 'const theme: string = "ocean";\nexport default { theme };\n' });
    const xdg = privateHome();
    const env = { XDG_CACHE_HOME: xdg, HOME: xdg };
    assert.equal(printedTheme(runOn(stripNode!, root, ["config", "--json"], env)), "ocean");
    const entry = onlyFile(path.join(xdg, "dropkit", "ts"), /\.js$/);
    await endsAndHearsSignals(stripNode!, root, env, "ocean", () => fifoAt(entry));
  });
});

describe("root with another user's HOME, whose ~/.cache that user flips between root's own cache and theirs", {
  skip: otherUser.skip || (canDrop ? false : "needs setpriv, to act as the other user"),
}, () => {
  const other = otherUser.user;
  const tsConfig = 'const theme: string = "ocean";\nexport default { theme };\n';

  /** A V8 code cache that V8 takes for `bundle`'s (the same length) and whose code writes `marker`: made by `node` itself. */
  function plantedCodeCache(node: string, bundle: string, marker: string): Buffer {
    const script = `const vm = require("node:vm"), fs = require("node:fs");
const [bundle, marker] = process.argv.slice(1);
const length = fs.readFileSync(bundle, "utf8").length;
const payload = "(function (exports, require) { require('node:fs').writeFileSync(" + JSON.stringify(marker) + ", 'planted'); })";
process.stdout.write(new vm.Script(payload + " ".repeat(length - payload.length)).createCachedData().toString("base64"));`;
    const r = spawnSync(node, ["-e", script, bundle, marker], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    return Buffer.from(r.stdout, "base64");
  }

  /** A stripped entry for the same text whose code writes `marker` and exports the theme "planted". */
  function plantedStrip(entry: string, marker: string): string {
    const text = fs.readFileSync(entry, "utf8");
    const newline = text.indexOf("\n");
    const source = text.slice(newline + 1, newline + 1 + Number(text.slice(0, newline)));
    const code = `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "planted");\nexport default { theme: "planted" };\n`;
    return `${source.length}\n${source}${code}`;
  }

  /** The answer file with every answer's "ocean" made "EVIL!" (the same length): the requests are left as they are, so they match. */
  function forgedAnswers(file: string): string {
    const text = fs.readFileSync(file, "utf8");
    const headerEnd = text.indexOf("\n", text.indexOf("\n") + 1) + 1;
    let forged = text.slice(0, headerEnd);
    for (let at = headerEnd; at < text.length; ) {
      const end = text.indexOf("\n", at);
      const [request, answer] = text.slice(at, end).split(" ").map(Number) as [number, number];
      forged += `${text.slice(at, end + 1 + request)}${text.slice(end + 1 + request, end + 1 + request + answer).replaceAll("ocean", "EVIL!")}`;
      at = end + 1 + request + answer;
    }
    assert.notEqual(forged, text, "the answers name the theme");
    return forged;
  }

  test("200 runs: none uses a planted V8 code cache, stripped .ts entry or answer file, and none hangs", { timeout: 600_000 }, async () => {
    const home = path.join(tempDir("dropkit-homes-"), other.name);
    fs.chmodSync(path.dirname(home), 0o755);
    fs.mkdirSync(home, { mode: 0o755 });
    fs.chownSync(home, other.uid, other.gid);
    const ownCache = privateHome();
    const link = path.join(home, ".cache");
    fs.symlinkSync(ownCache, link);
    fs.lchownSync(link, other.uid, other.gid);
    const markers = tempDir("dropkit-markers-");
    const runs = [
      { node: process.execPath, root: fixture({ "dropkit.config.json": '{ "theme": "ocean" }\n' }) },
      ...(stripNode ? [{ node: stripNode, root: fixture({ "dropkit.config.ts": tsConfig }) }] : []),
    ];
    const env = { HOME: home, DROPKIT_DEBUG: "1" };
    for (const { node, root } of runs) assert.equal(printedTheme(runOn(node, root, ["config", "--json"], env)), "ocean");

    // Theirs: the same names as root's own cache files, holding code that writes a marker (run as root, if it ran).
    const theirs = path.join(home, "theirs");
    const planted: Record<string, Map<string, string | Buffer>> = { v8: new Map(), ts: new Map(), answers: new Map() };
    for (const kind of Object.keys(planted)) {
      const dir = path.join(ownCache, "dropkit", kind);
      for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
        const file = path.join(dir, name);
        if (kind === "v8") {
          const run = runs.find(({ node }) => name.includes(`-${spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim()}-`));
          assert.ok(run && name.includes("-config-"), `a code cache of another run: ${name}`);
          planted.v8.set(
            name,
            plantedCodeCache(run.node, path.join(path.dirname(cliPath), "dropkit-config.cjs"), path.join(markers, "v8")),
          );
        } else if (kind === "ts") planted.ts.set(name, plantedStrip(file, path.join(markers, "ts")));
        else planted.answers.set(name, forgedAnswers(file));
      }
    }
    assert.equal(planted.v8.size, runs.length);
    assert.equal(planted.answers.size, runs.length);
    assert.equal(planted.ts.size, stripNode ? 1 : 0);
    /** Writes the planted files of `kinds` into the cache base `base` (the other kinds copied from root's own). */
    const plantIn = (base: string, kinds: string[]) => {
      for (const [kind, files] of Object.entries(planted)) {
        const dir = path.join(base, "dropkit", kind);
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        for (const [name, content] of files) {
          if (kinds.includes(kind)) fs.writeFileSync(path.join(dir, name), content, { mode: 0o600 });
          else fs.copyFileSync(path.join(ownCache, "dropkit", kind, name), path.join(dir, name));
        }
      }
    };

    // The attack is real: in a cache of root's own, each planted file runs its code (or gives its answers).
    const withCodeCaches = privateHome();
    plantIn(withCodeCaches, ["v8"]);
    for (const { node, root } of runs) {
      runOn(node, root, ["config", "--json"], { ...env, XDG_CACHE_HOME: withCodeCaches });
      assert.ok(fs.existsSync(path.join(markers, "v8")), `${node}: the planted code cache ran`);
      fs.rmSync(path.join(markers, "v8"));
    }
    const withEntries = privateHome();
    plantIn(withEntries, ["ts", "answers"]);
    const themes = runs.map(({ node, root }) =>
      printedTheme(runOn(node, root, ["config", "--json"], { ...env, XDG_CACHE_HOME: withEntries })),
    );
    assert.deepEqual(themes, stripNode ? ["EVIL!", "planted"] : ["EVIL!"]);
    if (stripNode) assert.ok(fs.existsSync(path.join(markers, "ts")), "the planted stripped code ran");
    fs.rmSync(path.join(markers, "ts"), { force: true });

    plantIn(theirs, ["v8", "ts", "answers"]);
    assert.equal(spawnSync("chown", ["-R", `${other.uid}:${other.gid}`, theirs]).status, 0);
    // The other user swaps the link as fast as it can (rename over it: never a moment without one).
    const flip = `const fs = require("node:fs");
const [link, ours, theirs] = process.argv.slice(1);
const pause = new Int32Array(new SharedArrayBuffer(4));
for (let i = 0; ; i++) {
  fs.rmSync(link + ".next", { force: true });
  fs.symlinkSync(i % 2 ? theirs : ours, link + ".next");
  fs.renameSync(link + ".next", link);
  Atomics.wait(pause, 0, 0, 0.5);
}`;
    const flipper = spawn(
      "setpriv",
      [`--reuid=${other.uid}`, `--regid=${other.gid}`, "--clear-groups", process.execPath, "-e", flip, link, ownCache, theirs],
      { stdio: "ignore" },
    );
    let fromCache = 0;
    try {
      for (let i = 0; i < 200; i++) {
        const { node, root } = runs[i % runs.length]!;
        const r = runOn(node, root, ["config", "--json"], env);
        assert.deepEqual(fs.readdirSync(markers), [], `run ${i}: planted code ran as root`);
        assert.equal(printedTheme(r), "ocean", `run ${i}`);
        if (/types stripped before, read from/.test(r.stderr)) fromCache++;
      }
      assert.equal(flipper.exitCode, null, "the link was flipped throughout");
    } finally {
      flipper.kill("SIGKILL");
    }
    // The runs that found root's own cache used it: the flips did not simply turn every cache off.
    if (stripNode) assert.ok(fromCache > 0, "no .ts run read root's own stripped entry");
  });
});
