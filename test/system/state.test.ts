// Tests for the state file (SPEC section 9): reading it, the next state, the .legacy copy, corrupt files, concurrency, kills and read-only folders.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { fitState, nextState, readState } from "../../src/state/file.js";
import { writeState } from "../../src/state/transaction.js";
import { age, cliPath, deadPid, eventsOf, fixture, runCli, startCli, type RunResult } from "../helpers/cli.js";
import { escapeRegExp } from "../helpers/regexp.js";
import { specLegacy, v1File, v1Text } from "../helpers/states.js";

const zip = { zip: { "readme.txt": "hello\n" } };
const json = ["--log-format=json"];
const version = JSON.parse(fs.readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version as string;

const stateName = ".dropkit.json";

describe("reading and the next state (src/state/file.ts)", () => {
  test("readState tells the shapes apart: missing, v1, legacy, corrupt", () => {
    const dir = fixture({
      "v1.json": v1Text,
      "legacy.json": specLegacy,
      "bad.json": "{torn",
      "list.json": "[1]",
      "bom.json": "\ufeff" + v1Text,
    });
    assert.equal(readState(path.join(dir, "none.json")).kind, "missing");
    assert.equal(readState(path.join(dir, "v1.json")).kind, "v1");
    assert.equal(readState(path.join(dir, "bom.json")).kind, "v1");
    assert.equal(readState(path.join(dir, "legacy.json")).kind, "legacy");
    const bad = readState(path.join(dir, "bad.json"));
    assert.equal(bad.kind, "corrupt");
    const list = readState(path.join(dir, "list.json"));
    assert.ok(list.kind === "corrupt" && /a list, not an object/.test(list.reason));
  });

  test("nextState keeps a v1 file's createdAt, migratedFrom and extra, and names what was set aside", () => {
    const plan = { theme: "river", modules: ["blog"], excluded: [], presets: [] };
    const at = "2026-12-01T00:00:00.000Z";
    const dir = fixture({ "v1.json": JSON.stringify({ ...v1File, colour: "blue" }), "legacy.json": specLegacy });
    const fromV1 = nextState("/s", readState(path.join(dir, "v1.json")), plan, "2.0.0", at);
    assert.deepEqual(fromV1.state, {
      schema: 1,
      toolVersion: "2.0.0",
      createdAt: v1File.createdAt,
      updatedAt: at,
      plan,
      migratedFrom: v1File.migratedFrom,
      extra: { ...v1File.extra, colour: "blue" },
    });
    assert.equal(
      fromV1.warning,
      'The state file /s has values dropkit does not use; they are kept verbatim under "extra": colour (unknown key).',
    );
    const lifted = nextState("/s", readState(path.join(dir, "legacy.json")), plan, "2.0.0", at);
    assert.deepEqual(lifted.state.migratedFrom, { version: "0.7.2", at });
    assert.equal(lifted.state.createdAt, new Date(1714557600000).toISOString());
    assert.deepEqual(nextState("/s", { kind: "missing" }, plan, "2.0.0", at), {
      state: { schema: 1, toolVersion: "2.0.0", createdAt: at, updatedAt: at, plan, extra: {} },
    });
  });
});

describe("fitState: the write within the read's limits", () => {
  const at = "2026-11-21T12:00:00.000Z";
  const plan = { theme: null, modules: [], excluded: [], presets: [] };

  test("a state within the limits is written pretty, unchanged, without a warning", () => {
    const state = { schema: 1 as const, toolVersion: "1.0.0", createdAt: at, updatedAt: at, plan, extra: { a: [1] } };
    const fitted = fitState("/s", state, false);
    assert.equal(fitted.text, JSON.stringify(state, null, 2) + "\n");
    assert.equal(fitted.warning, undefined);
  });

  test("a plan alone over 4 MiB is an IOError: nothing could read it back", () => {
    const modules = Array.from({ length: 120_000 }, (_, i) => `a-module-with-a-rather-long-name-${i}`);
    const state = { schema: 1 as const, toolVersion: "1.0.0", createdAt: at, updatedAt: at, plan: { ...plan, modules }, extra: {} };
    assert.throws(
      () => fitState("/s", state, false),
      (e: any) => e.name === "IOError" && /plan alone is .*over the 4 MiB dropkit reads back/.test(e.message),
    );
  });
});

describe("writing the state file (SPEC section 9)", () => {
  const plan = { theme: "river", modules: ["blog"], excluded: [], presets: [] };

  test("the first write lifts a legacy file, keeps it byte for byte as .legacy, records migratedFrom", async () => {
    const dir = fixture({ [stateName]: specLegacy });
    const file = path.join(dir, stateName);
    const now = new Date("2026-11-21T12:00:00.000Z");
    const result = await writeState(file, plan, "1.0.0", { now });
    assert.equal(fs.readFileSync(file + ".legacy", "utf8"), specLegacy);
    const state = JSON.parse(fs.readFileSync(file, "utf8"));
    assert.deepEqual(state, {
      schema: 1,
      toolVersion: "1.0.0",
      createdAt: "2024-05-01T10:00:00.000Z",
      updatedAt: "2026-11-21T12:00:00.000Z",
      plan,
      migratedFrom: { version: "0.7.2", at: "2026-11-21T12:00:00.000Z" },
      extra: {},
    });
    assert.deepEqual(Object.keys(state), ["schema", "toolVersion", "createdAt", "updatedAt", "plan", "migratedFrom", "extra"]);
    assert.deepEqual(
      [result.action, result.read, result.lifted, result.legacyCopy, result.movedAside],
      ["updated", "legacy", true, file + ".legacy", null],
    );
  });

  test("later writes keep createdAt, migratedFrom and extra, and never touch the .legacy copy", async () => {
    const dir = fixture({ [stateName]: JSON.stringify({ ...JSON.parse(specLegacy), colour: "blue" }) });
    const file = path.join(dir, stateName);
    await writeState(file, plan, "1.0.0", { now: new Date("2026-11-21T12:00:00.000Z") });
    const copy = fs.readFileSync(file + ".legacy");
    const copyStat = fs.statSync(file + ".legacy");
    const second = await writeState(file, { ...plan, theme: null }, "1.1.0", { now: new Date("2026-12-01T00:00:00.000Z") });
    const state = JSON.parse(fs.readFileSync(file, "utf8"));
    assert.equal(state.createdAt, "2024-05-01T10:00:00.000Z");
    assert.equal(state.updatedAt, "2026-12-01T00:00:00.000Z");
    assert.equal(state.toolVersion, "1.1.0");
    assert.deepEqual(state.migratedFrom, { version: "0.7.2", at: "2026-11-21T12:00:00.000Z" });
    assert.deepEqual(state.extra, { colour: "blue" });
    assert.equal(state.plan.theme, null);
    assert.deepEqual([second.read, second.lifted, second.legacyCopy], ["v1", false, null]);
    assert.deepEqual(fs.readFileSync(file + ".legacy"), copy);
    assert.equal(fs.statSync(file + ".legacy").mtimeMs, copyStat.mtimeMs);
    assert.deepEqual(fs.readdirSync(dir).sort(), [".dropkit.json", ".dropkit.json.legacy", ".git"]);
  });

  test("the .legacy copy is made once: the same legacy file again reuses it, another one goes next to it", async () => {
    const dir = fixture({ [stateName]: specLegacy });
    const file = path.join(dir, stateName);
    await writeState(file, plan, "1.0.0");
    // The same legacy file is restored (say, from a backup): nothing new to keep.
    fs.writeFileSync(file, specLegacy);
    const again = await writeState(file, plan, "1.0.0");
    assert.equal(again.legacyCopy, file + ".legacy");
    assert.deepEqual(again.warnings, []);
    assert.deepEqual(fs.readdirSync(dir).sort(), [".dropkit.json", ".dropkit.json.legacy", ".git"]);
    // A different legacy file: .legacy is never overwritten; this one is kept beside it, with a warning.
    const other = '{"version":"0.9.1","theme":"forest"}';
    fs.writeFileSync(file, other);
    const third = await writeState(file, plan, "1.0.0", { now: new Date("2026-11-21T12:00:00.000Z") });
    assert.equal(fs.readFileSync(file + ".legacy", "utf8"), specLegacy);
    assert.equal(third.legacyCopy, file + ".legacy-2026-11-21T12-00-00-000Z");
    assert.equal(fs.readFileSync(third.legacyCopy!, "utf8"), other);
    assert.match(third.warnings.join("\n"), /never overwritten/);
    assert.deepEqual(JSON.parse(fs.readFileSync(file, "utf8")).migratedFrom.version, "0.9.1");
  });

  test("a state file that does not parse, or is not an object, is moved aside byte for byte, never overwritten in place", async () => {
    for (const bad of ["{torn", "", "[]", "null", "42", '"text"', "\u0000\u00ff"]) {
      const dir = fixture({ [stateName]: bad });
      const file = path.join(dir, stateName);
      const result = await writeState(file, plan, "1.0.0", { now: new Date("2026-11-21T12:00:00.000Z") });
      const aside = file + ".corrupt-2026-11-21T12-00-00-000Z";
      assert.equal(result.movedAside, aside);
      assert.deepEqual(fs.readFileSync(aside), Buffer.from(bad));
      assert.match(result.warnings[0]!, /is unusable .* moved to .*corrupt-2026/);
      assert.equal(JSON.parse(fs.readFileSync(file, "utf8")).schema, 1);
      assert.deepEqual([result.action, result.read], ["created", "corrupt"]);
    }
  });

  test("debris of a killed writer is removed after a successful write; a live writer's is not", async () => {
    const dir = fixture({});
    const file = path.join(dir, stateName);
    const dead = path.join(dir, `..dropkit.json.${deadPid()}.0123456789ab.tmp`);
    const live = path.join(dir, `..dropkit.json.${process.pid}.0123456789ab.tmp`);
    const fresh = path.join(dir, `..dropkit.json.legacy.${deadPid()}.ba9876543210.tmp`);
    for (const f of [dead, live, fresh]) fs.writeFileSync(f, "{half");
    for (const f of [dead, live]) age(f, 120);
    await writeState(file, plan, "1.0.0");
    assert.ok(!fs.existsSync(dead));
    assert.ok(fs.existsSync(live));
    // Too young to be sure: a writer on another machine sharing the folder might still own it.
    assert.ok(fs.existsSync(fresh));
  });
});

describe("create and the state file", () => {
  test("lifts a legacy file, warns about what it set aside, and logs a state record with the read shape and the copy", () => {
    const legacy = JSON.stringify({ ...JSON.parse(specLegacy), colour: "blue", modules: "blog" });
    const root = fixture({ "blog.zip": zip, [stateName]: legacy });
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 0, run.stderr);
    const file = path.join(root, stateName);
    const [record] = eventsOf(run, "state");
    assert.deepEqual(record, {
      event: "state",
      action: "updated",
      file,
      read: "legacy",
      lifted: true,
      legacyCopy: file + ".legacy",
      movedAside: null,
      plan: { theme: null, modules: ["blog"], excluded: [], presets: ["standard"] },
    });
    const warning = eventsOf(run, "warning").find((w) => /kept verbatim under "extra"/.test(w.message))!;
    assert.match(warning.message, /colour \(unknown key\), modules \(expected a list of names, got a string\)/);
    assert.equal(warning.source, file);
    assert.equal(fs.readFileSync(file + ".legacy", "utf8"), legacy);
    const state = JSON.parse(fs.readFileSync(file, "utf8"));
    assert.equal(state.toolVersion, version);
    assert.deepEqual(state.extra, { colour: "blue", modules: "blog" });
    assert.equal(state.migratedFrom.version, "0.7.2");

    const text = runCli(root, ["create"]);
    assert.match(text.stderr, /state {5}updated .*\.dropkit\.json \(theme none; modules blog\)/);
    const again = eventsOf(runCli(root, ["create", ...json]), "state")[0]!;
    assert.deepEqual([again.read, again.lifted, again.legacyCopy], ["v1", false, null]);
    assert.equal(fs.readFileSync(file + ".legacy", "utf8"), legacy);
  });

  test("a valid v1 file keeps everything but updatedAt, toolVersion and the plan", () => {
    const root = fixture({ "blog.zip": zip, [stateName]: v1Text });
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 0, run.stderr);
    const state = JSON.parse(fs.readFileSync(path.join(root, stateName), "utf8"));
    assert.deepEqual({ ...state, updatedAt: "", plan: null, toolVersion: "" }, { ...v1File, updatedAt: "", plan: null, toolVersion: "" });
    assert.deepEqual(eventsOf(run, "warning"), []);
  });

  for (const start of ["missing", "legacy", "corrupt"] as const) {
    test(`8 concurrent runs in one folder (${start} state file) take turns: one valid v1 file, no lock and no temporary files left`, async () => {
      for (let round = 0; round < 3; round++) {
        const initial = start === "legacy" ? specLegacy : start === "corrupt" ? "{torn" : undefined;
        const root = fixture({ "ocean-theme.zip": zip, "blog.zip": zip, "shop.zip": zip, ...(initial ? { [stateName]: initial } : {}) });
        // Serialised by the lock: on a loaded machine the last of 8 may wait longer than the default 5 s.
        const runs = await Promise.all(
          Array.from({ length: 8 }, () => startCli(root, ["create", ...json], { __DROPKIT_TEST_LOCK_WAIT_MS: "120000" }).done),
        );
        for (const r of runs) assert.equal(r.status, 0, r.stderr);
        const state = JSON.parse(fs.readFileSync(path.join(root, stateName), "utf8"));
        assert.equal(state.schema, 1);
        assert.deepEqual(state.plan, { theme: "ocean", modules: ["blog", "shop"], excluded: [], presets: ["standard"] });
        const names = fs.readdirSync(root);
        assert.deepEqual(
          names.filter((n) => n.endsWith(".tmp")),
          [],
        );
        JSON.parse(fs.readFileSync(path.join(root, ".dropkit-cache.json"), "utf8"));
        if (start === "legacy") {
          assert.equal(state.migratedFrom.version, "0.7.2");
          assert.equal(state.createdAt, "2024-05-01T10:00:00.000Z");
          assert.deepEqual(
            names.filter((n) => n.startsWith(".dropkit.json.legacy")),
            [".dropkit.json.legacy"],
          );
          assert.equal(fs.readFileSync(path.join(root, ".dropkit.json.legacy"), "utf8"), specLegacy);
        }
        if (start === "corrupt") {
          // Only the first run saw the torn file: one copy, the original bytes.
          const copies = names.filter((n) => n.startsWith(".dropkit.json.corrupt-"));
          assert.equal(copies.length, 1);
          assert.equal(fs.readFileSync(path.join(root, copies[0]!), "utf8"), "{torn");
        }
        assert.ok(!names.includes(".dropkit.json.lock"));
      }
    });
  }
});

describe("what create writes, its next run reads back (the reader's limits applied to the write)", () => {
  /** Runs create twice; the second run must read what the first wrote, with nothing moved aside. */
  function twice(root: string): { first: RunResult; second: RunResult } {
    const first = runCli(root, ["create", ...json]);
    assert.equal(first.status, 0, first.stderr);
    const second = runCli(root, ["create", ...json]);
    assert.equal(second.status, 0, second.stderr);
    assert.equal(eventsOf(second, "state")[0]!.read, "v1", second.stderr);
    assert.deepEqual(
      fs.readdirSync(root).filter((name) => name.includes(".corrupt-")),
      [],
    );
    return { first, second };
  }

  test("a legacy key at the 128-level limit is left out of extra (where it would be 129 deep) with a warning; the .legacy copy keeps it", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 127; i++) deep = { a: deep };
    const legacy = JSON.stringify({ version: "0.7.2", theme: "ocean", created: 1714557600000, deep, fine: { kept: true } });
    const root = fixture({ [stateName]: legacy, "ocean-theme.zip": zip });
    const { first } = twice(root);
    const warning = eventsOf(first, "warning").find((w) => /left out of it/.test(w.message));
    assert.match(warning?.message, /deep \(nested deeper than the 128 levels dropkit reads\)/);
    assert.match(warning?.message, /kept only in the copy of the legacy file/);
    // Named once, as left out: the warning about values kept under extra names only what is kept.
    const kept = eventsOf(first, "warning").find((w) => /kept verbatim under "extra"/.test(w.message));
    assert.match(kept?.message, /fine \(unknown key\)/);
    assert.doesNotMatch(kept?.message, /deep/);
    const state = JSON.parse(fs.readFileSync(path.join(root, stateName), "utf8"));
    assert.deepEqual(state.extra, { fine: { kept: true } });
    assert.equal(state.createdAt, "2024-05-01T10:00:00.000Z");
    assert.equal(state.migratedFrom.version, "0.7.2");
    assert.equal(fs.readFileSync(path.join(root, `${stateName}.legacy`), "utf8"), legacy);
  });

  test("a 0.9 MB compact legacy file that pretty-prints to 5.6 MB is written compact, under the 4 MiB read limit, every value kept", () => {
    const rows = Array.from({ length: 150_000 }, (_, i) => [[i % 10]]);
    const legacy = JSON.stringify({ version: "0.7.2", theme: "ocean", created: 1714557600000, rows });
    assert.ok(Buffer.byteLength(JSON.stringify(JSON.parse(legacy), null, 2)) > 4 * 1024 * 1024);
    const root = fixture({ [stateName]: legacy, "ocean-theme.zip": zip });
    const { first, second } = twice(root);
    assert.deepEqual(
      eventsOf(first, "warning").filter((w) => /left out/.test(w.message)),
      [],
    );
    const text = fs.readFileSync(path.join(root, stateName), "utf8");
    assert.ok(Buffer.byteLength(text) <= 4 * 1024 * 1024);
    const state = JSON.parse(text);
    assert.deepEqual(state.extra.rows, rows);
    assert.equal(state.createdAt, "2024-05-01T10:00:00.000Z");
    assert.equal(eventsOf(second, "warning").length, 0, second.stderr);
  });

  test("a state that would pass 4 MiB even compact (a grown plan): the largest extra entries are left out with a warning naming them", () => {
    // A v1 file just under the limit, compact; this run's plan adds 40 modules to it.
    const base = {
      schema: 1,
      toolVersion: "1.0.0",
      createdAt: "2024-05-01T10:00:00.000Z",
      updatedAt: "2024-05-01T10:00:00.000Z",
      plan: { theme: null, modules: [], excluded: [], presets: [] },
      extra: { small: "s", big: "" },
    };
    base.extra.big = "b".repeat(4 * 1024 * 1024 - Buffer.byteLength(JSON.stringify(base)) - 10);
    const files: Record<string, any> = { [stateName]: JSON.stringify(base) };
    for (let i = 0; i < 40; i++) files[`module-with-a-long-name-${i}.zip`] = zip;
    const root = fixture(files);
    const { first } = twice(root);
    const warning = eventsOf(first, "warning").find((w) => /left out of it/.test(w.message));
    assert.match(warning?.message, /big \(too large: the file would pass the 4 MiB dropkit reads\)/);
    assert.doesNotMatch(warning?.message, /small/);
    const state = JSON.parse(fs.readFileSync(path.join(root, stateName), "utf8"));
    assert.deepEqual(state.extra, { small: "s" });
    assert.equal(state.plan.modules.length, 40);
  });
});

describe("a run killed (SIGKILL) in the middle of the state write", () => {
  const shapes = { legacy: specLegacy, v1: v1Text, corrupt: "{torn" } as const;
  const points = ["staged", "copied", "committed"] as const;
  const repeats = 4;

  test(
    `at each step of the write (${points.join(", ")}) × ${Object.keys(shapes).length} shapes × ${repeats}: ` +
      "the old or the new file, both parseable, nothing lost",
    async () => {
      const jobs: Array<() => Promise<void>> = [];
      for (const point of points) {
        for (const [shape, initial] of Object.entries(shapes)) {
          for (let i = 0; i < repeats; i++) {
            jobs.push(async () => {
              const root = fixture({ "blog.zip": zip, [stateName]: initial });
              const run = startCli(root, ["create", ...json], { __DROPKIT_TEST_STATE_PAUSE: point });
              await run.waitFor(`__dropkit_test_state_pause ${point}`);
              run.child.kill("SIGKILL");
              const result = await run.done;
              assert.equal(result.signal, "SIGKILL", `${point}/${shape}: ${result.stderr}`);
              const after = checkKilled(root, initial, `${point}/${shape}`);
              assert.equal(after, point === "committed" ? "new" : "old", `${point}/${shape}`);
              await recoverAfterKill(root, initial, shape, `${point}/${shape}`);
            });
          }
        }
      }
      await inBatches(jobs, 8);
    },
  );

  test("at random moments of a whole run (40 runs): the old or the new file, both parseable, nothing lost", async (t) => {
    // Calibrate: how long a whole run takes here, so that the kills spread over all of it.
    const probe = fixture({ "blog.zip": zip });
    const started = Date.now();
    await startCli(probe, ["create", ...json]).done;
    const runMs = Date.now() - started;
    const jobs: Array<() => Promise<void>> = [];
    const outcomes = { old: 0, new: 0 };
    for (let i = 0; i < 40; i++) {
      const shape = i % 2 === 0 ? "legacy" : "v1";
      const initial = shapes[shape];
      jobs.push(async () => {
        const root = fixture({ "blog.zip": zip, [stateName]: initial });
        const run = startCli(root, ["create", ...json]);
        await delay(Math.random() * runMs * 1.1);
        run.child.kill("SIGKILL");
        await run.done;
        outcomes[checkKilled(root, initial, `random ${i}`)]++;
        await recoverAfterKill(root, initial, shape, `random ${i}`);
      });
    }
    await inBatches(jobs, 4);
    assert.equal(outcomes.old + outcomes.new, 40);
    t.diagnostic(`runs take ${runMs} ms; killed before the rename ${outcomes.old} times, after it ${outcomes.new} times`);
  });
});

describe("a folder where the state cannot be written", () => {
  const readOnly = readOnlyRunner();

  test(`exits 74 with the path and the reason, loses nothing, and writes nothing else (read-only by ${readOnly.how})`, {
    skip: readOnly.skip,
  }, () => {
    // A folder that was migrated before: a v1 file and the .legacy copy must survive as they are.
    const migrated = fixture({ "blog.zip": zip, [stateName]: v1Text, ".dropkit.json.legacy": specLegacy });
    // A folder still holding the legacy file: the lift must not happen halfway.
    const legacy = fixture({ "blog.zip": zip, [stateName]: specLegacy });
    for (const root of [migrated, legacy]) {
      const outside = fixture({
        "init/01-init": { text: '#!/bin/sh\ntouch "$OUT/init-ran"\n', mode: 0o755 },
        "post/01-post": { text: '#!/bin/sh\ntouch "$OUT/post-ran"\n', mode: 0o755 },
      });
      // The hooks must be trusted (not in a folder others can write), so only their output folder is open to all.
      fs.chmodSync(outside, 0o755);
      const out = path.join(outside, "out");
      fs.mkdirSync(out);
      fs.chmodSync(out, 0o777);
      const before = snapshot(root);
      const env = {
        OUT: out,
        DROPKIT_HOOKS_INIT_SCRIPTS_DIR: path.join(outside, "init"),
        DROPKIT_HOOKS_POST_SCRIPTS_DIR: path.join(outside, "post"),
        DROPKIT_CACHE_FILE: path.join(out, "cache.json"),
      };
      const run = readOnly.run!(root, ["create", ...json], env);
      assert.equal(run.status, 74, run.stderr);
      const [error] = eventsOf(run, "error");
      assert.equal(error!.name, "IOError");
      assert.equal(error!.source, path.join(root, stateName));
      assert.match(error!.message, new RegExp(`Cannot write the state file ${escapeRegExp(path.join(root, stateName))} \\((EROFS|EACCES)`));
      assert.deepEqual(snapshot(root), before);
      // The folder's lock is taken before the init hooks, so a folder that cannot be written stops the run before any hook.
      assert.ok(!fs.existsSync(path.join(out, "init-ran")));
      assert.ok(!fs.existsSync(path.join(out, "post-ran")));
      assert.ok(!fs.existsSync(path.join(out, "cache.json")));
    }
  });
});

// --- helpers ---

/**
 * After a kill: the state file is the old bytes or a complete v1 file, the legacy bytes are still
 * somewhere, and every copy made is whole. Returns which of the two the state file is.
 */
function checkKilled(root: string, initial: string, what: string): "old" | "new" {
  const file = path.join(root, stateName);
  const text = fs.readFileSync(file, "utf8");
  const legacyCopy = path.join(root, ".dropkit.json.legacy");
  if (initial === specLegacy) {
    assert.ok(text === specLegacy || fs.readFileSync(legacyCopy, "utf8") === specLegacy, `${what}: the legacy bytes are gone`);
  }
  if (fs.existsSync(legacyCopy)) assert.equal(fs.readFileSync(legacyCopy, "utf8"), specLegacy, `${what}: a torn .legacy copy`);
  for (const name of fs.readdirSync(root).filter((n) => n.startsWith(".dropkit.json.corrupt-"))) {
    assert.equal(fs.readFileSync(path.join(root, name), "utf8"), initial, `${what}: a torn corrupt copy`);
  }
  if (text === initial) return "old";
  const state = JSON.parse(text);
  assert.equal(state.schema, 1, `${what}: neither old nor v1: ${text}`);
  assert.deepEqual(state.plan.modules, ["blog"], what);
  return "new";
}

/** The next run after a kill succeeds, lifts or keeps what it should, and clears the dead run's temporary files. */
async function recoverAfterKill(root: string, initial: string, shape: string, what: string): Promise<void> {
  // The killed run's temporary files are debris only once they are old enough (see removeStaleTempFiles).
  for (const name of fs.readdirSync(root).filter((n) => n.endsWith(".tmp"))) age(path.join(root, name), 120);
  const next = await startCli(root, ["create", ...json]).done;
  assert.equal(next.status, 0, `${what}: ${next.stderr}`);
  const state = JSON.parse(fs.readFileSync(path.join(root, stateName), "utf8"));
  assert.equal(state.schema, 1, what);
  const names = fs.readdirSync(root);
  assert.deepEqual(
    names.filter((n) => n.endsWith(".tmp")),
    [],
    what,
  );
  if (shape === "legacy") {
    assert.equal(state.migratedFrom.version, "0.7.2", what);
    assert.deepEqual(
      names.filter((n) => n.startsWith(".dropkit.json.legacy")),
      [".dropkit.json.legacy"],
      what,
    );
    assert.equal(fs.readFileSync(path.join(root, ".dropkit.json.legacy"), "utf8"), initial, what);
  }
  if (shape === "v1") assert.deepEqual(state.extra, v1File.extra, what);
}

/**
 * How to make a folder really read-only for a CLI run. Not root: `chmod`. Root ignores permissions, so:
 * a read-only bind mount in a private mount namespace (`unshare`), which disappears with the process;
 * else the CLI as `nobody` (`setpriv`) in a folder it does not own; else the test is skipped.
 */
function readOnlyRunner(): {
  how: string;
  skip: string | false;
  run?: (cwd: string, args: string[], env: Record<string, string>) => RunResult;
} {
  const base = (cwd: string, env: Record<string, string>) => ({
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: os.tmpdir(),
    GIT_CEILING_DIRECTORIES: path.dirname(cwd),
    ...env,
  });
  const finish = (r: ReturnType<typeof spawnSync>): RunResult => {
    const stderr = String(r.stderr);
    let records: Array<Record<string, any>> = [];
    try {
      records = stderr
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l));
    } catch {
      // Not all JSON: the assertions show stderr.
    }
    return { status: r.status, stdout: String(r.stdout), stderr, records };
  };
  if (process.getuid?.() !== 0) {
    return {
      how: "chmod 0555",
      skip: false,
      run(cwd, args, env) {
        fs.chmodSync(cwd, 0o555);
        try {
          return finish(spawnSync(process.execPath, [cliPath, ...args], { cwd, env: base(cwd, env), encoding: "utf8", timeout: 30_000 }));
        } finally {
          fs.chmodSync(cwd, 0o755);
        }
      },
    };
  }
  const script = 'd="$1"; shift; mount --bind "$d" "$d" && mount -o remount,ro,bind "$d" "$d" && cd "$d" && exec "$@"';
  const probeDir = fs.mkdtempSync(path.join(os.tmpdir(), "dropkit-ro-"));
  try {
    const probe = spawnSync(
      "unshare",
      ["--mount", "--propagation", "private", "sh", "-c", script, "sh", probeDir, "sh", "-c", "! touch probe 2>/dev/null"],
      { encoding: "utf8" },
    );
    if (probe.status === 0 && !fs.existsSync(path.join(probeDir, "probe"))) {
      return {
        how: "a read-only bind mount (unshare)",
        skip: false,
        run: (cwd, args, env) =>
          finish(
            spawnSync(
              "unshare",
              ["--mount", "--propagation", "private", "sh", "-c", script, "sh", cwd, process.execPath, cliPath, ...args],
              { cwd, env: base(cwd, env), encoding: "utf8", timeout: 30_000 },
            ),
          ),
      };
    }
    fs.chmodSync(probeDir, 0o755);
    const asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups"];
    const drop = spawnSync(
      "setpriv",
      [...asNobody, "sh", "-c", `! touch '${probeDir}/probe' 2>/dev/null && '${process.execPath}' '${cliPath}' --version`],
      { encoding: "utf8" },
    );
    if (drop.status === 0) {
      return {
        how: "running as nobody (setpriv)",
        skip: false,
        run(cwd, args, env) {
          fs.chmodSync(cwd, 0o755);
          return finish(
            spawnSync("setpriv", [...asNobody, process.execPath, cliPath, ...args], {
              cwd,
              env: base(cwd, env),
              encoding: "utf8",
              timeout: 30_000,
            }),
          );
        },
      };
    }
    return {
      how: "nothing",
      skip: "running as root, and neither a read-only bind mount (unshare) nor dropping to nobody (setpriv) works here",
    };
  } finally {
    fs.rmSync(probeDir, { recursive: true, force: true });
  }
}

/** Every file of a folder (but .git) with its bytes, for "nothing changed". */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(root).sort()) {
    if (name === ".git") continue;
    out[name] = fs.readFileSync(path.join(root, name)).toString("base64");
  }
  return out;
}

async function inBatches(jobs: Array<() => Promise<void>>, size: number): Promise<void> {
  for (let i = 0; i < jobs.length; i += size) await Promise.all(jobs.slice(i, i + size).map((job) => job()));
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
