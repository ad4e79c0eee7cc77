// Tests for the private cache of compiled configs (src/files/codecache.ts): where it is, how it is made and checked, and
// that a compiled file planted by another user (nobody, through setpriv) in a shared or unsafe place never runs.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, test } from "node:test";
import { privateCacheDir, writeCacheFile } from "../../src/files/codecache.js";
import { fixture, runCli } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";
import { otherUser } from "../helpers/users.js";

const nobody = 65534;
const isRoot = process.getuid?.() === 0;
const canDrop = isRoot && spawnSync("setpriv", [`--reuid=${nobody}`, `--regid=${nobody}`, "--clear-groups", "true"]).status === 0;
const asOtherUser = canDrop ? false : "needs root and setpriv, to act as the user nobody";

type JitiFactory = (id: string, options: Record<string, unknown>) => { import(id: string): Promise<unknown> };
const { createJiti } = createRequire(import.meta.url)("jiti") as { createJiti: JitiFactory };

const modeOf = (p: string) => fs.statSync(p).mode & 0o7777;

/** Why privateCacheDir refuses a cache for `env` (it must refuse). */
function whyNot(env: NodeJS.ProcessEnv): string {
  const cache = privateCacheDir(env);
  assert.equal(cache.dir, null, "a cache directory was accepted");
  return (cache as { why: string }).why;
}

/** Where privateCacheDir's directory is (it must accept one), checked to be the very directory its `dir` reaches. */
function accepted(env: NodeJS.ProcessEnv, platform?: NodeJS.Platform): string {
  const cache = privateCacheDir(env, platform);
  assert.ok(cache.dir !== null, (cache as { why: string }).why);
  assert.equal(fs.statSync(cache.dir).ino, fs.statSync(cache.real).ino);
  return cache.real;
}

/** A drop whose .ts config sets the theme "real"; the planted code would set "planted". */
function drop(): { root: string; config: string } {
  const root = fixture({ "dropkit.config.ts": 'export default { theme: "real" };\n' });
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
    "const fs = require('node:fs'); fs.mkdirSync(require('node:path').dirname(process.argv[1]), { recursive: true }); fs.writeFileSync(process.argv[1], process.argv[2]);";
  const r = spawnSync("setpriv", [`--reuid=${nobody}`, `--regid=${nobody}`, "--clear-groups", process.execPath, "-e", script, file, code], {
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stderr);
}

/** What jiti loads for `config` with `options` in a fresh process: proves that a planted file would run. */
function jitiLoads(config: string, options: Record<string, unknown>, env: Record<string, string> = {}): string {
  const script = `require(process.argv[1]).createJiti(process.argv[2], JSON.parse(process.argv[3])).import(process.argv[4]).then((m) => console.log(m.default.theme));`;
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

describe("where the cache is (privateCacheDir)", () => {
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
    assert.deepEqual(privateCacheDir({ LOCALAPPDATA: local }, "win32"), {
      dir: path.join(local, "dropkit", "jiti"),
      real: path.join(local, "dropkit", "jiti"),
    });
    assert.equal(privateCacheDir({}, "win32").dir, null);
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

describe("a cache file written (writeCacheFile)", () => {
  test("whole, mode 0600, in place of the old one; or not at all, with no temporary file left", () => {
    const dir = tempDir("dropkit-cachefile-");
    const file = path.join(dir, "entry.cache");
    fs.writeFileSync(file, "old");
    writeCacheFile(file, "new text");
    assert.equal(fs.readFileSync(file, "utf8"), "new text");
    assert.equal(modeOf(file), 0o600);
    writeCacheFile(file, new Uint8Array([1, 2, 3]));
    assert.deepEqual([...fs.readFileSync(file)], [1, 2, 3]);
    // A directory at the name: the rename fails, and nothing of the attempt stays.
    const blocked = path.join(dir, "blocked.cache");
    fs.mkdirSync(path.join(blocked, "inside"), { recursive: true });
    writeCacheFile(blocked, "text");
    assert.ok(fs.statSync(blocked).isDirectory());
    // A folder that is gone: nothing is made, nothing is thrown.
    writeCacheFile(path.join(dir, "gone", "entry.cache"), "text");
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

  test("privateCacheDir makes no ~/.cache there, and says why", () => {
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
