// Filesystem faults under the built CLI: unreadable, missing, looping and unwritable files each give a clear error or warning, never a stack trace.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { eventsOf, fixture, runCli, type RunResult } from "../helpers/cli.js";
import { asNobody, nobody, openUp, permissions } from "../helpers/nobody.js";

const json = ["--log-format=json"];

/** No stack frame and only JSON records on stderr; the first error record, if any. */
function clean(r: RunResult): Record<string, any> | undefined {
  assert.doesNotMatch(r.stderr, /\n\s+at .+:\d+:\d+\)?\n/, `a stack trace:\n${r.stderr}`);
  assert.ok(r.records.length > 0 || r.stderr === "", `stderr is not all JSON records:\n${r.stderr}`);
  return eventsOf(r, "error")[0];
}

/** Runs `command` (as nobody, when root) in `root` with `entry` unreadable (mode 000); `writable` lets it write in `root`. */
function runWithUnreadable(root: string, entry: string, command: string, writable = false): RunResult {
  openUp(root);
  if (writable) fs.chmodSync(root, 0o777);
  fs.chmodSync(path.join(root, entry), 0o000);
  return permissions.run(root, [command, ...json]);
}

describe("unreadable and odd config files", () => {
  test("an unreadable config (EACCES) exits 66 naming the file and the reason", { skip: permissions.skip }, () => {
    const root = fixture({ "dropkit.config.json": '{"theme": "ocean"}' });
    const r = runWithUnreadable(root, "dropkit.config.json", "config");
    const e = clean(r);
    assert.equal(r.status, 66, r.stderr);
    assert.equal(e?.name, "ConfigNotFound");
    assert.match(e!.message, /EACCES/);
    assert.ok(e!.message.includes(path.join(root, "dropkit.config.json")));
  });

  test("an unreadable .ts config (EACCES) exits 65 or 66 with the file named, no stack trace", { skip: permissions.skip }, () => {
    const root = fixture({ "dropkit.config.ts": "export default {};\n" });
    const r = runWithUnreadable(root, "dropkit.config.ts", "config");
    const e = clean(r);
    assert.ok(r.status === 65 || r.status === 66, r.stderr);
    assert.ok(e!.message.includes(path.join(root, "dropkit.config.ts")), e!.message);
  });

  test("a config that is a broken symbolic link exits 66 saying so, instead of silently using the defaults", () => {
    const root = fixture({});
    fs.symlinkSync("../shared/dropkit.config.json", path.join(root, "dropkit.config.json"));
    const r = runCli(root, ["config", ...json]);
    const e = clean(r);
    assert.equal(r.status, 66, r.stderr);
    assert.equal(e?.name, "ConfigNotFound");
    assert.match(e!.message, /broken symbolic link \(to \.\.\/shared\/dropkit\.config\.json\)/);
  });

  test("a .ts config that is a broken symbolic link says so too", () => {
    const root = fixture({});
    fs.symlinkSync("gone.ts", path.join(root, "dropkit.config.ts"));
    const r = runCli(root, ["config", ...json]);
    const e = clean(r);
    assert.equal(r.status, 66, r.stderr);
    assert.match(e!.message, /broken symbolic link \(to gone\.ts\)/);
  });

  test("a symbolic link loop on the discovery path is reported with ELOOP, not a crash", () => {
    const root = fixture({ "sub/deeper/": "" });
    fs.symlinkSync("dropkit.config.json", path.join(root, "dropkit.config.json"));
    const r = runCli(path.join(root, "sub", "deeper"), ["config", ...json]);
    const e = clean(r);
    assert.equal(r.status, 66, r.stderr);
    assert.match(e!.message, /ELOOP: a loop of symbolic links/);
    assert.ok(e!.message.includes(path.join(root, "dropkit.config.json")));
  });

  test("a loop of directory links below the working directory does not hang auto-detect or the archive scan", () => {
    const root = fixture({
      "blog.zip": { zip: { a: "a" } },
      "presets/deep.json": '{"detect": ["**/*.never"]}',
      "dropkit.config.json": '{"presetsSearchPath": ["./presets"]}',
    });
    fs.symlinkSync(".", path.join(root, "loop"));
    fs.symlinkSync("b", path.join(root, "a"));
    fs.symlinkSync("a", path.join(root, "b"));
    const started = Date.now();
    const r = runCli(root, ["create", ...json]);
    clean(r);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(Date.now() - started < 20_000);
  });

  test("a directory where a config file is expected: --config=<dir> exits 66, a directory named like a config is skipped", () => {
    const root = fixture({ "dropkit.config.json/": "", "cfg/": "" });
    const r = runCli(root, ["config", "--config=cfg", ...json]);
    assert.equal(r.status, 66);
    assert.match(clean(r)!.message, /not a file/);
    const skipped = runCli(root, ["config", ...json]);
    assert.equal(skipped.status, 0, skipped.stderr);
    assert.equal(eventsOf(skipped, "config")[0]?.via, "none");
  });

  test("a preset path that is a directory is PresetNotFound (67), not a crash", () => {
    const root = fixture({ "dropkit.config.json": '{"presets": ["./presets/ci.json"]}', "presets/ci.json/": "" });
    const r = runCli(root, ["config", ...json]);
    assert.equal(r.status, 67, r.stderr);
    assert.equal(clean(r)?.name, "PresetNotFound");
  });
});

describe("hooks", () => {
  test("a missing hooks directory means no hooks: recorded, exit 0", () => {
    const root = fixture({ "blog.zip": { zip: { a: "a" } } });
    const r = runCli(root, ["create", ...json]);
    clean(r);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(
      eventsOf(r, "hook").map((h) => h.status),
      ["no-directory", "no-directory"],
    );
  });

  test("a hook that hangs is stopped at DROPKIT_HOOK_TIMEOUT: a warning with continue, and the run goes on", () => {
    // An archive (an empty drop runs no hook), and no presets: the standard preset's onFailure "fail" would stop the run.
    const root = fixture({
      "blog.zip": { zip: { a: "a" } },
      "dropkit.config.json": '{"presets": []}',
      "init-scripts/hang": { text: "#!/bin/sh\nexec sleep 30\n", mode: 0o755 },
    });
    const started = Date.now();
    const r = runCli(root, ["create", ...json], { DROPKIT_HOOK_TIMEOUT: "0.5" });
    clean(r);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(Date.now() - started < 15_000, "the hang was not cut short");
    assert.equal(eventsOf(r, "hook")[0]?.status, "timed-out");
    assert.match(
      eventsOf(r, "warning")
        .map((w) => w.message)
        .join("\n"),
      /timed out after 0\.5 s.*DROPKIT_HOOK_TIMEOUT/,
    );
  });

  test("an invalid DROPKIT_HOOK_TIMEOUT stops the run before any hook, naming the variable", () => {
    const root = fixture({ "init-scripts/mark": { text: "#!/bin/sh\ntouch ran\n", mode: 0o755 } });
    const r = runCli(root, ["create", ...json], { DROPKIT_HOOK_TIMEOUT: "-1" });
    assert.equal(r.status, 65);
    assert.match(clean(r)!.message, /DROPKIT_HOOK_TIMEOUT/);
    assert.equal(fs.existsSync(path.join(root, "ran")), false);
  });

  test("a hooks directory that cannot be listed (EACCES) is an IOError naming it", { skip: permissions.skip }, () => {
    const root = fixture({ "blog.zip": { zip: { a: "a" } }, "init-scripts/a": { text: "#!/bin/sh\n", mode: 0o755 } });
    const r = runWithUnreadable(root, "init-scripts", "create", true);
    fs.chmodSync(path.join(root, "init-scripts"), 0o755);
    assert.equal(r.status, 74, r.stderr);
    const e = clean(r);
    assert.equal(e?.name, "IOError");
    assert.ok(e!.message.includes(path.join(root, "init-scripts")));
  });
});

describe("state and cache files that cannot be written or read", () => {
  test("a state file that cannot be written (a folder nobody may write) exits 74, nothing written", { skip: permissions.skip }, () => {
    const root = fixture({ "blog.zip": { zip: { a: "a" } } });
    openUp(root);
    const r = permissions.run(root, ["create", ...json]);
    assert.equal(r.status, 74, r.stderr);
    const e = clean(r);
    assert.equal(e?.name, "IOError");
    assert.ok(e!.message.includes(path.join(root, ".dropkit.json")));
    assert.equal(fs.existsSync(path.join(root, ".dropkit.json")), false);
  });

  test("a state file that cannot be read (EACCES) exits 74 naming it", { skip: permissions.skip }, () => {
    const root = fixture({ "blog.zip": { zip: { a: "a" } }, ".dropkit.json": '{"schema": 1}' });
    const r = runWithUnreadable(root, ".dropkit.json", "create", true);
    assert.equal(r.status, 74, r.stderr);
    assert.match(clean(r)!.message, /Cannot read the state file .*EACCES/);
  });

  test("a cache file that cannot be written (its folder is read-only) exits 74 naming it and the ways out", {
    skip: permissions.skip,
  }, () => {
    const root = fixture({
      "drop/blog.zip": { zip: { a: "a" } },
      "drop/dropkit.config.json": '{"cache": {"file": "../locked/cache.json"}}',
      "locked/": "",
    });
    openUp(root);
    // The drop is the user's own (a drop others can write is no place for its config: src/files/trust.ts).
    if (asNobody) fs.chownSync(path.join(root, "drop"), nobody, nobody);
    const r = permissions.run(path.join(root, "drop"), ["create", ...json]);
    assert.equal(r.status, 74, r.stderr);
    const e = clean(r);
    assert.equal(e?.name, "IOError");
    assert.ok(e!.message.includes(path.join(root, "locked", "cache.json")));
    assert.match(e!.message, /cache\.enabled: false/);
  });

  test("a cache file that cannot be read (EACCES) is a warning; it is rebuilt and the run succeeds", { skip: permissions.skip }, () => {
    const root = fixture({ "blog.zip": { zip: { a: "a" } }, ".dropkit-cache.json": "{}" });
    const r = runWithUnreadable(root, ".dropkit-cache.json", "create", true);
    clean(r);
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      eventsOf(r, "warning")
        .map((w) => w.message)
        .join("\n"),
      /Cannot read the cache .*EACCES/,
    );
  });
});

describe("unreadable archives", () => {
  for (const [what, env] of [
    ["with the cache", {}],
    ["without it", { DROPKIT_CACHE_ENABLED: "false" }],
  ] as const) {
    test(`an archive that cannot be read (EACCES) exits 74 naming it, ${what}, nothing written`, { skip: permissions.skip }, () => {
      const root = fixture({ "blog.zip": { zip: { a: "a" } }, "shop.zip": { zip: { b: "b" } } });
      openUp(root);
      fs.chmodSync(root, 0o777);
      fs.chmodSync(path.join(root, "shop.zip"), 0o000);
      const r = permissions.run(root, ["create", ...json], env);
      assert.equal(r.status, 74, r.stderr);
      const e = clean(r);
      assert.equal(e?.name, "IOError");
      assert.match(e!.message, new RegExp(`Cannot read the archive ${path.join(root, "shop.zip")} \\(EACCES\\)`));
      // No state, cache, lock or temporary file (HOME is the drop here, so dropkit's per-user caches may appear under .cache).
      assert.deepEqual(
        fs.readdirSync(root).filter((n) => n.startsWith(".dropkit")),
        [],
      );
    });
  }
});
