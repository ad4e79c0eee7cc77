// Tests for src/files/listing.ts: one listing of the drop per run, and `create` listing it again when the folder may have changed.

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { FolderListing } from "../../src/files/listing.js";
import { cliPath, eventsOf, fixture, makeZip, runCli, startCli } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";

const json = ["--log-format=json"];
const zip = { zip: { "index.html": "<p>x</p>" } };

describe("FolderListing", () => {
  test("lists once, keeps what it read until forget, then lists again", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "a.zip"), "");
    const listing = new FolderListing(dir);
    assert.deepEqual(listing.names(), ["a.zip"]);
    fs.writeFileSync(path.join(dir, "b.zip"), "");
    assert.deepEqual(listing.names(), ["a.zip"]);
    assert.equal(listing.read()[0]!.isFile(), true);
    listing.forget();
    assert.deepEqual(listing.names()!.sort(), ["a.zip", "b.zip"]);
  });

  test("a directory that cannot be listed: read throws its error every time, names is null", () => {
    const listing = new FolderListing(path.join(tempDir(), "missing"));
    assert.throws(
      () => listing.read(),
      (e: NodeJS.ErrnoException) => e.code === "ENOENT",
    );
    assert.throws(
      () => listing.read(),
      (e: NodeJS.ErrnoException) => e.code === "ENOENT",
    );
    assert.equal(listing.names(), null);
  });

  test("covers its directory, however it is spelled, and no other", () => {
    const dir = tempDir();
    const listing = new FolderListing(path.join(dir, "."));
    assert.equal(listing.covers(dir), true);
    assert.equal(listing.covers(`${dir}/sub/..`), true);
    assert.equal(listing.covers(path.dirname(dir)), false);
  });
});

describe("create lists the drop before its lock and again under it, and again when a hook may have changed it", () => {
  test("an init hook that adds one archive and removes another: the plan is made from the folder as the hook left it", () => {
    const root = fixture({
      "blog.zip": zip,
      "shop.zip": zip,
      "init-scripts/fetch": { text: "#!/bin/sh\ncp blog.zip late.zip\nrm shop.zip\n", mode: 0o755 },
    });
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(eventsOf(run, "plan").at(-1)!.modules, ["blog", "late"]);
  });

  test("a run that waited for the lock plans with the archives the other run left", async () => {
    const root = fixture({ "blog.zip": zip });
    const holder = spawn("sleep", ["30"], { stdio: "ignore" });
    const lock = path.join(root, ".dropkit.json.lock");
    try {
      fs.writeFileSync(lock, JSON.stringify({ pid: holder.pid, hostname: os.hostname(), startedAt: "2026-11-21T12:00:00.000Z" }) + "\n");
      const run = startCli(root, ["create", ...json], { __DROPKIT_TEST_LOCK_WAIT_MS: "20000" });
      await run.waitFor('"action":"waiting"');
      // What the holder's run did to the folder while this one waited.
      fs.writeFileSync(path.join(root, "shop.zip"), makeZip({ "index.html": "<p>shop</p>" }));
      fs.unlinkSync(lock);
      const done = await run.done;
      assert.equal(done.status, 0, done.stderr);
      assert.deepEqual(eventsOf(done, "plan").at(-1)!.modules, ["blog", "shop"]);
    } finally {
      holder.kill();
    }
  });

  test("archives changed by another program between the first listing and the lock are planned as the lock finds them", async () => {
    const root = fixture({ "blog.zip": zip });
    const run = startCli(root, ["create", ...json], { __DROPKIT_TEST_STATE_PAUSE: "locking" });
    // Discovery and preset detection have listed the drop; the lock is not taken yet.
    await run.waitFor("__dropkit_test_state_pause locking");
    fs.copyFileSync(path.join(root, "blog.zip"), path.join(root, "shop.zip"));
    fs.rmSync(path.join(root, "blog.zip"));
    run.child.kill("SIGUSR2");
    const done = await run.done;
    assert.equal(done.status, 0, done.stderr);
    // (Its stderr holds the pause line besides the records: the state file says what was planned.)
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8")).plan.modules, ["shop"]);
  });

  test("with nothing in between, the drop is listed twice: before the lock and under it (counted under strace)", {
    skip: straceSkip(),
  }, () => {
    const root = fixture({ "blog.zip": zip, "ocean-theme.zip": zip });
    assert.equal(runCli(root, ["create", ...json]).status, 0);
    const trace = path.join(tempDir(), "trace");
    // -y names each descriptor's path, so that the drop's listings can be told from any other.
    const run = spawnSync("strace", ["-f", "-y", "-e", "trace=getdents64", "-o", trace, process.execPath, cliPath, "create", ...json], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? os.tmpdir(),
        GIT_CEILING_DIRECTORIES: path.dirname(root),
      },
      encoding: "utf8",
    });
    assert.equal(run.status, 0, run.stderr);
    // A listing reads the entries, then gets 0 at the end of the directory.
    const ends = fs
      .readFileSync(trace, "utf8")
      .split("\n")
      .filter((line) => line.includes(`getdents64(`) && line.includes(`<${root}>`) && / = 0$/.test(line));
    assert.equal(ends.length, 2, fs.readFileSync(trace, "utf8"));
  });
});

// --- helpers ---

function straceSkip(): string | false {
  return spawnSync("strace", ["-V"], { stdio: "ignore" }).status === 0 ? false : "needs strace";
}
