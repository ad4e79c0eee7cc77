// Tests for src/config/themepath.ts under the built CLI: a theme path that is missing, or that is there but is not a regular file.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { describe, test } from "node:test";
import { eventsOf, fixture, runCli } from "../helpers/cli.js";

const json = ["--log-format=json"];

/** The one error record of a run, which must exit 66 with ThemeNotFound. */
function themeNotFound(root: string, theme: string): { message: string; source: string } {
  const run = runCli(root, ["create", ...json, `--theme=${theme}`]);
  assert.equal(run.status, 66, run.stderr);
  const errors = eventsOf(run, "error");
  assert.deepEqual(
    errors.map((e) => e.name),
    ["ThemeNotFound"],
  );
  return errors[0] as { message: string; source: string };
}

describe("a --theme path that is not a regular file", () => {
  test("a FIFO is named as one, and its own name is never suggested; the run does not wait for a writer", () => {
    const root = fixture({ "blog.zip": { zip: { a: "a" } } });
    assert.equal(spawnSync("mkfifo", [path.join(root, "fifo.zip")]).status, 0);
    const error = themeNotFound(root, "./fifo.zip");
    assert.match(error.message, /^Theme archive \S*fifo\.zip is a FIFO \(named pipe\), not a regular file \(the theme set by --theme\)\./);
    assert.doesNotMatch(error.message, /Did you mean|not found|Archives in/);
    assert.ok(!fs.existsSync(path.join(root, ".dropkit.json")), "nothing written");
  });

  test("a directory, a character device and a socket are each named for what they are", async () => {
    const root = fixture({ "blog.zip": { zip: { a: "a" } } });
    fs.mkdirSync(path.join(root, "folder.zip"));
    assert.match(themeNotFound(root, "./folder.zip").message, /folder\.zip is a directory, not a regular file/);
    // A theme path ends in .zip: a link by that name stands for the device.
    fs.symlinkSync("/dev/null", path.join(root, "null.zip"));
    assert.match(themeNotFound(root, "./null.zip").message, /null\.zip is a character device, not a regular file/);
    const server = net.createServer();
    const socket = path.join(root, "sock.zip");
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      const error = themeNotFound(root, "./sock.zip");
      assert.match(error.message, /sock\.zip is a socket, not a regular file/);
      assert.doesNotMatch(error.message, /Did you mean/);
    } finally {
      server.close();
    }
  });

  test("a missing path still gets the closest archive of its folder, never the name given", () => {
    const root = fixture({ "blog.zip": { zip: { a: "a" } }, "themes/sea.zip": { zip: { t: "t" } } });
    assert.match(themeNotFound(root, "./themes/se.zip").message, /not found .*Did you mean \S*themes\/sea\.zip\?/);
    // A link loop is there but cannot be looked at: it is not offered as its own correction.
    fs.symlinkSync("loop.zip", path.join(root, "themes/loop.zip"));
    const loop = themeNotFound(root, "./themes/loop.zip");
    assert.match(loop.message, /loop\.zip cannot be read \(ELOOP\)/);
    assert.doesNotMatch(loop.message, /Did you mean \S*loop\.zip/);
  });
});
