// Tests for src/state/transaction.ts under the built CLI: a change made by another program is refused, never lost.
// A run that fails leaves the state as it was; links, limits, modes, owners and syscall faults.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { age, deadPid, eventsOf, fixture, runCli, startCli } from "../helpers/cli.js";
import { faultShim } from "../helpers/faultfs.js";
import { nobody, openUp, permissions } from "../helpers/nobody.js";

const zip = { zip: { "readme.txt": "hello\n" } };
const json = ["--log-format=json"];
const stateName = ".dropkit.json";
const legacy = '{"version": "0.7.2", "theme": "ocean", "modules": ["blog"]}\n';
const v1 =
  JSON.stringify(
    {
      schema: 1,
      toolVersion: "1.0.0",
      createdAt: "2024-05-01T10:00:00.000Z",
      updatedAt: "2024-05-01T10:00:00.000Z",
      plan: { theme: null, modules: [], excluded: [], presets: [] },
      extra: { mine: true },
    },
    null,
    2,
  ) + "\n";
const initial = { missing: undefined, v1, legacy, corrupt: "{torn" } as const;

describe("a change to the state file by another program during the run", () => {
  const changes = {
    "written in place": (file: string) => fs.writeFileSync(file, '{"schema": 1, "extra": {"other": "program"}}\n'),
    "replaced by a rename": (file: string) => {
      fs.writeFileSync(`${file}.other`, '{"schema": 1, "extra": {"other": "program"}}\n');
      fs.renameSync(`${file}.other`, file);
    },
  };
  for (const point of ["staged", "copied"] as const) {
    for (const [shape, before] of Object.entries(initial)) {
      for (const [how, change] of Object.entries(changes)) {
        test(
          `${how} while the run is paused at "${point}" (${shape} state file): ` +
            "refused with 75, the other program's bytes kept, nothing left behind",
          async () => {
            const root = fixture({ "blog.zip": zip, ...(before === undefined ? {} : { [stateName]: before }) });
            const file = path.join(root, stateName);
            const run = startCli(root, ["create", ...json], { __DROPKIT_TEST_STATE_PAUSE: point });
            await run.waitFor(`__dropkit_test_state_pause ${point}`);
            change(file);
            const written = fs.readFileSync(file);
            run.child.kill("SIGUSR2");
            const result = await run.done;
            assert.equal(result.status, 75, result.stderr);
            assert.match(result.stderr, /"name":"StateConflict".*was changed by another program while this run was going on/);
            assert.deepEqual(fs.readFileSync(file), written);
            const names = fs.readdirSync(root);
            assert.deepEqual(
              names.filter((n) => n.endsWith(".tmp") || n.endsWith(".lock")),
              [],
            );
            // What the run read is never lost either: a legacy file's bytes are in their copy when the copy was made.
            if (shape === "legacy" && point === "copied") assert.equal(fs.readFileSync(`${file}.legacy`, "utf8"), legacy);
          },
        );
      }
    }
  }
});

describe("a run that exits non-zero leaves the state as it was", () => {
  const failing = { "post-scripts/fail": { text: "#!/bin/sh\nexit 3\n", mode: 0o755 } };
  for (const [shape, before] of Object.entries(initial)) {
    test(`a post hook failing with onFailure "fail" (${shape} state file): exit 1, the state file back byte for byte, no copy left`, () => {
      const root = fixture({ "blog.zip": zip, ...failing, ...(before === undefined ? {} : { [stateName]: before }) });
      const file = path.join(root, stateName);
      const inode = before === undefined ? 0 : fs.statSync(file).ino;
      const run = runCli(root, ["create", ...json], { DROPKIT_HOOKS_ON_FAILURE: "fail" });
      assert.equal(run.status, 1, run.stderr);
      assert.equal(eventsOf(run, "error")[0]!.name, "HookFailed");
      // The state was committed, then put back when the post hook failed.
      assert.deepEqual(
        eventsOf(run, "state").map((s) => s.action),
        [before === undefined || shape === "corrupt" ? "created" : "updated", "cache", before === undefined ? "removed" : "restored"],
      );
      if (before === undefined) {
        assert.ok(!fs.existsSync(file));
      } else {
        assert.equal(fs.readFileSync(file, "utf8"), before);
        assert.equal(fs.statSync(file).ino, inode, "the very file is back, not a copy");
      }
      assert.deepEqual(
        fs.readdirSync(root).filter((n) => n.startsWith(".dropkit.json")),
        before === undefined ? [] : [stateName],
      );
    });
  }

  // The path a signal handler takes: it stops the hooks and calls process.exit(128 + n) while the transaction is open.
  for (const [shape, before] of [
    ["v1", v1],
    ["missing", undefined],
  ] as const) {
    test(`a process that exits while the state is committed but the run not finished puts it back (${shape} state file), and releases the lock`, () => {
      const root = fixture(before === undefined ? {} : { [stateName]: before });
      const file = path.join(root, stateName);
      const script = [
        `const { beginTransaction } = await import(${JSON.stringify(new URL("../../src/state/transaction.ts", import.meta.url).href)});`,
        "const fs = await import('node:fs');",
        "const t = await beginTransaction(process.argv[1]);",
        "await t.stageState({ theme: null, modules: ['late'], excluded: [], presets: [] }, '9.9.9');",
        "await t.commit();",
        "console.error(fs.readFileSync(process.argv[1], 'utf8').includes('9.9.9') ? 'committed' : 'not committed');",
        "process.exit(143);",
      ].join("\n");
      const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script, file], { encoding: "utf8" });
      assert.equal(run.status, 143, run.stderr);
      assert.match(run.stderr, /^committed/);
      if (before === undefined) assert.ok(!fs.existsSync(file));
      else assert.equal(fs.readFileSync(file, "utf8"), before);
      assert.deepEqual(
        fs.readdirSync(root).filter((n) => n !== ".git" && n !== stateName),
        [],
      );
    });
  }

  test("a post hook that rewrote the state file before a later hook failed: its file is kept, the previous state beside it, a warning", () => {
    const root = fixture({
      "blog.zip": zip,
      [stateName]: v1,
      "post-scripts/01-rewrite": {
        text: `#!/bin/sh\nprintf '{"schema": 1, "extra": {"hook": true}}\\n' > .hook.tmp && mv .hook.tmp ${stateName}\n`,
        mode: 0o755,
      },
      "post-scripts/02-fail": { text: "#!/bin/sh\nexit 3\n", mode: 0o755 },
    });
    const run = runCli(root, ["create", ...json], { DROPKIT_HOOKS_ON_FAILURE: "fail" });
    assert.equal(run.status, 1, run.stderr);
    assert.equal(fs.readFileSync(path.join(root, stateName), "utf8"), '{"schema": 1, "extra": {"hook": true}}\n');
    const previous = fs.readdirSync(root).filter((n) => n.startsWith(`${stateName}.previous-`));
    assert.equal(previous.length, 1);
    assert.equal(fs.readFileSync(path.join(root, previous[0]!), "utf8"), v1);
    assert.match(
      eventsOf(run, "warning")
        .map((w) => w.message)
        .join("\n"),
      /changed by another program after this run wrote it; it is left as it is, and the state from before this run is kept as .*\.previous-/,
    );
  });

  test("a state file that is a symbolic link is put back as that link", () => {
    const root = fixture({ "blog.zip": zip, ...failing, "elsewhere.json": "{}\n" });
    fs.symlinkSync("elsewhere.json", path.join(root, stateName));
    const run = runCli(root, ["create", ...json], { DROPKIT_HOOKS_ON_FAILURE: "fail" });
    assert.equal(run.status, 1, run.stderr);
    assert.equal(fs.readlinkSync(path.join(root, stateName)), "elsewhere.json");
    assert.equal(fs.readFileSync(path.join(root, "elsewhere.json"), "utf8"), "{}\n");
  });

  test("a cache that cannot be staged (its directory is missing): exit 74, the state file untouched, no hook after", () => {
    const root = fixture({ "blog.zip": zip, [stateName]: v1, "post-scripts/mark": { text: "#!/bin/sh\ntouch post-ran\n", mode: 0o755 } });
    const run = runCli(root, ["create", ...json], { DROPKIT_CACHE_FILE: path.join(root, "no", "dir", "cache.json") });
    assert.equal(run.status, 74, run.stderr);
    assert.equal(fs.readFileSync(path.join(root, stateName), "utf8"), v1);
    assert.deepEqual(fs.readdirSync(root).sort(), [".dropkit.json", ".git", "blog.zip", "post-scripts"]);
  });

  test("a cache whose replacement fails (rename EIO): exit 74, the state file untouched", { skip: faultShim.skip }, () => {
    const root = fixture({ "blog.zip": zip, [stateName]: v1 });
    const run = runCli(root, ["create", ...json], faultShim.env({ renameTarget: "/.dropkit-cache.json" }));
    assert.equal(run.status, 74, run.stderr);
    assert.match(eventsOf(run, "error")[0]!.message, /Cannot write the cache .*EIO/);
    assert.equal(fs.readFileSync(path.join(root, stateName), "utf8"), v1);
    assert.deepEqual(
      fs.readdirSync(root).filter((n) => n.endsWith(".tmp") || n.endsWith(".lock")),
      [],
    );
  });

  test("a state file whose replacement fails (rename EIO): exit 74, the state file untouched", { skip: faultShim.skip }, () => {
    const root = fixture({ "blog.zip": zip, [stateName]: legacy });
    const run = runCli(root, ["create", ...json], faultShim.env({ renameTarget: "/.dropkit.json" }));
    assert.equal(run.status, 74, run.stderr);
    assert.equal(fs.readFileSync(path.join(root, stateName), "utf8"), legacy);
    // The legacy copy was made before the commit failed; it is the same file, so it goes with the failed run.
    assert.deepEqual(
      fs.readdirSync(root).filter((n) => n.startsWith(".dropkit.json")),
      [stateName],
    );
  });
});

describe("what is at the state file's path", () => {
  test("a symbolic link to a file elsewhere: the link is replaced by a regular file, the outside file untouched, a warning", () => {
    const outside = fixture({ "secret.json": '{"token": "keep me"}\n' });
    const root = fixture({ "blog.zip": zip });
    fs.symlinkSync(path.join(outside, "secret.json"), path.join(root, stateName));
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(fs.readFileSync(path.join(outside, "secret.json"), "utf8"), '{"token": "keep me"}\n');
    const stats = fs.lstatSync(path.join(root, stateName));
    assert.ok(stats.isFile());
    const state = JSON.parse(fs.readFileSync(path.join(root, stateName), "utf8"));
    assert.deepEqual(state.extra, {}, "the link's target was read");
    assert.match(
      eventsOf(run, "warning")
        .map((w) => w.message)
        .join("\n"),
      /symbolic link to .*secret\.json; dropkit does not follow it/,
    );
    assert.equal(eventsOf(run, "state")[0]!.read, "link");
  });

  test("a state file nested 5,000 deep (10 KB) is moved aside with a warning, exit 0, its bytes kept", () => {
    const deep = "[".repeat(5000) + "]".repeat(5000);
    const root = fixture({ "blog.zip": zip, [stateName]: deep });
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 0, run.stderr);
    const aside = eventsOf(run, "state")[0]!.movedAside as string;
    assert.equal(fs.readFileSync(aside, "utf8"), deep);
    assert.match(
      eventsOf(run, "warning")
        .map((w) => w.message)
        .join("\n"),
      /nested more than 128 levels deep/,
    );
    assert.equal(JSON.parse(fs.readFileSync(path.join(root, stateName), "utf8")).schema, 1);
  });

  test("a state file over 4 MiB is moved aside unread, whole", () => {
    const big = '{"pad": "' + "x".repeat(4 * 1024 * 1024) + '"}';
    const root = fixture({ "blog.zip": zip, [stateName]: big });
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 0, run.stderr);
    const aside = eventsOf(run, "state")[0]!.movedAside as string;
    assert.equal(fs.statSync(aside).size, big.length);
    assert.match(
      eventsOf(run, "warning")
        .map((w) => w.message)
        .join("\n"),
      /more than the 4 MiB dropkit reads/,
    );
  });

  test("a FIFO at the state file's path is an IOError, and the run never blocks on it", () => {
    const root = fixture({ "blog.zip": zip });
    assert.equal(spawnSync("mkfifo", [path.join(root, stateName)]).status, 0);
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 74, run.stderr);
    assert.match(eventsOf(run, "error")[0]!.message, /is a FIFO/);
  });
});

describe("modes, owners and syscall faults", () => {
  test("a 0640 legacy file gives a 0640 .legacy copy, and the new state file is 0640 too", () => {
    const root = fixture({ "blog.zip": zip, [stateName]: legacy });
    fs.chmodSync(path.join(root, stateName), 0o640);
    assert.equal(runCli(root, ["create", ...json]).status, 0);
    assert.equal(fs.statSync(path.join(root, `${stateName}.legacy`)).mode & 0o777, 0o640);
    assert.equal(fs.statSync(path.join(root, stateName)).mode & 0o777, 0o640);
  });

  test("without hard links (link EPERM) the copies and the rollback's second name still work, modes kept", { skip: faultShim.skip }, () => {
    for (const [before, suffix] of [
      [legacy, ".legacy"],
      ["{torn", ".corrupt-"],
    ] as const) {
      const root = fixture({ "blog.zip": zip, [stateName]: before });
      fs.chmodSync(path.join(root, stateName), 0o640);
      const run = runCli(root, ["create", ...json], faultShim.env({ link: true }));
      assert.equal(run.status, 0, run.stderr);
      const copy = fs.readdirSync(root).find((n) => n.startsWith(stateName + suffix))!;
      assert.equal(fs.readFileSync(path.join(root, copy), "utf8"), before);
      assert.equal(fs.statSync(path.join(root, copy)).mode & 0o777, 0o640);
      assert.equal(fs.statSync(path.join(root, copy)).nlink, 1);
    }
    const root = fixture({ "blog.zip": zip, [stateName]: v1, "post-scripts/fail": { text: "#!/bin/sh\nexit 3\n", mode: 0o755 } });
    fs.chmodSync(path.join(root, stateName), 0o640);
    const run = runCli(root, ["create", ...json], { ...faultShim.env({ link: true }), DROPKIT_HOOKS_ON_FAILURE: "fail" });
    assert.equal(run.status, 1, run.stderr);
    assert.equal(fs.readFileSync(path.join(root, stateName), "utf8"), v1);
    assert.equal(fs.statSync(path.join(root, stateName)).mode & 0o777, 0o640);
  });

  test("the .legacy copy is a file of its own: a later change to the state file never reaches it", () => {
    const root = fixture({ "blog.zip": zip, [stateName]: legacy });
    assert.equal(runCli(root, ["create", ...json]).status, 0);
    assert.notEqual(fs.statSync(path.join(root, `${stateName}.legacy`)).ino, fs.statSync(path.join(root, stateName)).ino);
    fs.appendFileSync(path.join(root, stateName), " ");
    assert.equal(fs.readFileSync(path.join(root, `${stateName}.legacy`), "utf8"), legacy);
  });

  test("run as root, a replaced state file keeps its owner and group, and so does the .legacy copy", {
    skip: process.getuid?.() === 0 ? false : "needs root to own files as another user",
  }, () => {
    const root = fixture({ "blog.zip": zip, [stateName]: legacy });
    fs.chownSync(path.join(root, stateName), nobody, nobody);
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 0, run.stderr);
    for (const name of [stateName, `${stateName}.legacy`]) {
      const stats = fs.statSync(path.join(root, name));
      assert.deepEqual([stats.uid, stats.gid], [nobody, nobody], name);
    }
    // The owner's own next run can replace it again.
    openUp(root);
    fs.chmodSync(root, 0o777);
    const next = permissions.run(root, ["create", ...json]);
    assert.equal(next.status, 0, next.stderr);
  });

  test("a directory fsync that fails (EIO) after the rename is a warning; the run succeeds", { skip: faultShim.skip }, () => {
    const root = fixture({ "blog.zip": zip });
    const run = runCli(root, ["create", ...json], faultShim.env({ fsyncDir: true }));
    assert.equal(run.status, 0, run.stderr);
    const warning = eventsOf(run, "warning")
      .map((w) => w.message)
      .join("\n");
    assert.match(warning, new RegExp(`Could not flush the directory ${root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} .*EIO.*power loss`));
    assert.equal(JSON.parse(fs.readFileSync(path.join(root, stateName), "utf8")).schema, 1);
  });

  test("temporary files of killed runs, next to the state and the cache, are removed once their process is gone", () => {
    const root = fixture({ "blog.zip": zip });
    const dead = deadPid();
    const debris = [`..dropkit.json.${dead}.0123456789ab.tmp`, `..dropkit-cache.json.${dead}.0123456789ab.tmp`];
    for (const name of debris) {
      fs.writeFileSync(path.join(root, name), "{half");
      age(path.join(root, name), 120);
    }
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 0, run.stderr);
    for (const name of debris) assert.ok(!fs.existsSync(path.join(root, name)), name);
  });
});
