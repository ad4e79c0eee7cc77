// Tests for `dropkit create` on real drops (src/cli/commands/create.ts): archives checked as zips, the progress line, many archives.

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { before, describe, test } from "node:test";
import { age, eventsOf, fixture, makeZip, runCli, startCli } from "../helpers/cli.js";
import { hasScript, keys, Terminal } from "../helpers/pty.js";
import { tempDir } from "../helpers/temp.js";
import { makeUnsoundZips, makeUnverifiableZips, makeValidZips, writeSparseZip, zipToolsSkip } from "../helpers/zips.js";

const json = ["--log-format=json"];

/** The files of a drop, sorted, without .git. */
const listing = (root: string): string[] =>
  fs
    .readdirSync(root)
    .filter((n) => n !== ".git")
    .sort();

describe("archives are checked as zips (SPEC section 6)", { skip: zipToolsSkip() }, () => {
  let valid: Record<string, string> = {};
  before(() => {
    valid = makeValidZips(fixture());
  });

  test("archives made by zip, zipfile and 7z, zip64 ones included, pass", () => {
    const root = fixture();
    for (const [name, file] of Object.entries(valid)) fs.copyFileSync(file, path.join(root, `${name}.zip`));
    fs.copyFileSync(valid["7z"]!, path.join(root, "ocean-theme.zip"));
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 0, run.stderr);
    // The one archive with no entries is accepted, and said (unzip -t warns "zipfile is empty" too).
    assert.deepEqual(
      eventsOf(run, "warning").map((w) => w.source),
      [path.join(root, "zipfile-empty.zip")],
    );
    const summary = eventsOf(run, "plan").at(-1)!;
    // In the order of their file names, as the drop is scanned.
    assert.deepEqual(
      summary.modules,
      Object.keys(valid)
        .map((n) => `${n}.zip`)
        .sort()
        .map((f) => f.slice(0, -4)),
    );
    const cache = eventsOf(run, "state").find((r) => r.action === "cache")!;
    assert.equal(cache.checked.length, Object.keys(valid).length + 1);
  });

  const bad: Array<[string, (root: string) => void, RegExp]> = [
    [
      "a truncated zip",
      (root) => {
        const bytes = fs.readFileSync(valid.infozip!);
        fs.writeFileSync(path.join(root, "shop.zip"), bytes.subarray(0, bytes.length >> 1));
      },
      /The module archive <root>\/shop\.zip is unreadable: truncated: the end-of-central-directory record is missing/,
    ],
    [
      "a zip missing a stretch in the middle",
      (root) => {
        const bytes = fs.readFileSync(valid.infozip!);
        fs.writeFileSync(path.join(root, "shop.zip"), Buffer.concat([bytes.subarray(0, 1000), bytes.subarray(9000)]));
      },
      /<root>\/shop\.zip is unreadable: truncated: the central directory ends past the end of the file/,
    ],
    [
      "a zero-byte .zip",
      (root) => fs.writeFileSync(path.join(root, "shop.zip"), ""),
      /<root>\/shop\.zip is unreadable: not a zip archive \(the file is empty\)/,
    ],
    [
      "a text file named .zip",
      (root) => fs.writeFileSync(path.join(root, "shop.zip"), "meeting notes\n"),
      /<root>\/shop\.zip is unreadable: not a zip archive \(no end-of-central-directory record\)/,
    ],
  ];
  for (const [what, make, message] of bad) {
    test(`${what} selected as a module stops the run with ArchiveInvalid (65), nothing written`, () => {
      const root = fixture({ "blog.zip": { zip: { "a.txt": "a" } }, ".dropkit.json": '{"schema": 1, "plan": {"modules": ["old"]}}' });
      make(root);
      const state = fs.readFileSync(path.join(root, ".dropkit.json"));
      const run = runCli(root, ["create", ...json]);
      assert.equal(run.status, 65, run.stderr);
      const errors = eventsOf(run, "error");
      assert.equal(errors.length, 1);
      assert.equal(errors[0]!.name, "ArchiveInvalid");
      assert.equal(errors[0]!.exitCode, 65);
      assert.equal(errors[0]!.source, path.join(root, "shop.zip"));
      assert.match(errors[0]!.message.split(root).join("<root>"), message);
      assert.match(errors[0]!.message, /--exclude=shop/);
      assert.deepEqual(listing(root), [".dropkit.json", "blog.zip", "shop.zip"]);
      assert.deepEqual(fs.readFileSync(path.join(root, ".dropkit.json")), state);
    });
  }

  test("unsafe names and data that does not verify stop the run with ArchiveInvalid (65) naming the archive and the entry, before anything is written", () => {
    const unsound = makeUnsoundZips(tempDir("dropkit-unsound-"));
    const entryOf: Record<string, string> = {
      "drive-letter": "C:\\xt",
      absolute: "/a.txt",
      "dot-dot": "../xt",
      backslash: "a\\txt",
      "bad-deflate": "page.txt",
      "bad-crc": "notes.txt",
    };
    for (const [name, file] of Object.entries(unsound)) {
      const root = fixture({ "blog.zip": { zip: { b: "b" } } });
      fs.copyFileSync(file, path.join(root, "shop.zip"));
      const run = runCli(root, ["create", ...json]);
      assert.equal(run.status, 65, `${name}: ${run.stderr}`);
      const errors = eventsOf(run, "error");
      assert.deepEqual(
        errors.map((e) => [e.name, e.source]),
        [["ArchiveInvalid", path.join(root, "shop.zip")]],
        name,
      );
      assert.ok(
        errors[0]!.message.includes(`${path.join(root, "shop.zip")} is unreadable: `) &&
          errors[0]!.message.includes(JSON.stringify(entryOf[name]!)),
        `${name}: ${errors[0]!.message}`,
      );
      assert.deepEqual(listing(root), ["blog.zip", "shop.zip"], `${name}: nothing written`);
    }
  });

  test("encrypted entries and an unknown method are accepted with a warning that names them, on the cached re-run too", () => {
    const root = fixture({ "blog.zip": { zip: { b: "b" } } });
    const made = makeUnverifiableZips(root);
    for (const file of [...Object.values(made), path.join(root, "blog.zip")]) age(file);
    for (const pass of ["cold", "cached"]) {
      const run = runCli(root, ["create", ...json]);
      assert.equal(run.status, 0, run.stderr);
      const warnings = eventsOf(run, "warning");
      assert.deepEqual(
        warnings.map((w) => path.basename(w.source)),
        ["bzip2.zip", "encrypted.zip"],
        pass,
      );
      assert.match(
        warnings[0]!.message,
        new RegExp(
          String.raw`bzip2\.zip has entries whose data cannot be verified: 1 entry compressed with method 12 \(bzip2\), ` +
            String.raw`which dropkit cannot decode: "lines\.txt"\. It is accepted`,
        ),
      );
      assert.match(warnings[1]!.message, /4 entries encrypted \(their data cannot be verified without the password\)/);
      const cache = eventsOf(run, "state").find((r) => r.action === "cache")!;
      assert.equal(cache.hashed.length, pass === "cold" ? 3 : 0);
    }
  });

  test("one error record per bad archive, a bad theme among them; the text log names each", () => {
    const root = fixture({ "ocean-theme.zip": "not a zip", "a.zip": "", "b.zip": "nope", "c.zip": { zip: { x: "x" } } });
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 65);
    assert.deepEqual(
      eventsOf(run, "error").map((e) => [e.name, path.basename(e.source)]),
      [
        ["ArchiveInvalid", "a.zip"],
        ["ArchiveInvalid", "b.zip"],
        ["ArchiveInvalid", "ocean-theme.zip"],
      ],
    );
    assert.match(eventsOf(run, "error")[2]!.message, /The theme archive .* is unreadable: .*choose another theme/);
    const text = runCli(root, ["create"]);
    assert.equal(text.status, 65);
    assert.equal(text.stderr.match(/^error +ArchiveInvalid \(exit 65\)/gm)?.length, 3);
  });

  test("a bad archive the plan leaves out only warns: an excluded module, a theme not chosen", () => {
    const root = fixture({
      "ocean-theme.zip": { zip: { t: "t" } },
      "river-theme.zip": "",
      "blog.zip": { zip: { b: "b" } },
      "test-old.zip": "torn",
    });
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 0, run.stderr);
    const warnings = eventsOf(run, "warning").map((w) => [path.basename(w.source), w.message.includes("the plan leaves it out")]);
    assert.deepEqual(warnings, [
      ["river-theme.zip", true],
      ["test-old.zip", true],
    ]);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8")).plan.modules, ["blog"]);
  });

  test("a theme path outside the drop is checked too", () => {
    const root = fixture({ "themes/sea.zip": "not a zip", "themes/ok.zip": { zip: { t: "t" } }, "blog.zip": { zip: { b: "b" } } });
    const run = runCli(root, ["create", ...json, "--theme=./themes/sea.zip"]);
    assert.equal(run.status, 65);
    assert.equal(eventsOf(run, "error")[0]!.source, path.join(root, "themes/sea.zip"));
    assert.equal(runCli(root, ["create", ...json, "--theme=./themes/ok.zip"]).status, 0);
  });

  test("the cache keeps the verdict: a re-run does not read the archive again, unless the file changed, its ctime included", () => {
    const root = fixture({ "blog.zip": { zip: { "a.txt": "alpha" } } });
    const file = path.join(root, "blog.zip");
    age(file);
    const first = runCli(root, ["create", ...json]);
    assert.equal(first.status, 0, first.stderr);
    const second = runCli(root, ["create", ...json]);
    assert.equal(second.status, 0, second.stderr);
    const cache = eventsOf(second, "state").find((r) => r.action === "cache")!;
    assert.deepEqual([cache.hashed, cache.checked, cache.reused], [[], [], ["blog.zip"]]);
    // Same size, same mtime, other bytes: the write changed the ctime, so the cached verdict is not this file's.
    const { mtime, size } = fs.statSync(file);
    fs.writeFileSync(file, Buffer.alloc(size, 0x20));
    fs.utimesSync(file, mtime, mtime);
    for (const env of [{}, { DROPKIT_CACHE_ENABLED: "false" }]) {
      const run = runCli(root, ["create", ...json], env);
      assert.equal(run.status, 65, run.stderr);
      assert.equal(eventsOf(run, "error")[0]!.name, "ArchiveInvalid");
    }
  });
});

describe("the cache file", () => {
  test("an unchanged re-run does not rewrite it; an archive gone does", () => {
    const root = fixture({ "a.zip": { zip: { a: "a" } }, "b.zip": { zip: { b: "b" } } });
    for (const name of ["a.zip", "b.zip"]) age(path.join(root, name));
    const cacheFile = path.join(root, ".dropkit-cache.json");
    assert.equal(eventsOf(runCli(root, ["create", ...json]), "state").find((r) => r.action === "cache")!.written, true);
    const before = fs.statSync(cacheFile);
    const again = runCli(root, ["create", ...json]);
    assert.equal(eventsOf(again, "state").find((r) => r.action === "cache")!.written, false);
    const after = fs.statSync(cacheFile);
    assert.deepEqual([after.ino, after.mtimeMs], [before.ino, before.mtimeMs]);
    assert.match(runCli(root, ["create"]).stderr, /0 archives hashed, 2 reused \(unchanged, not rewritten\)/);
    fs.rmSync(path.join(root, "b.zip"));
    assert.equal(eventsOf(runCli(root, ["create", ...json]), "state").find((r) => r.action === "cache")!.written, true);
    assert.deepEqual(Object.keys(JSON.parse(fs.readFileSync(cacheFile, "utf8")).archives), [path.join(fs.realpathSync(root), "a.zip")]);
  });
});

describe("many archives", () => {
  test("the text log groups module decisions by reason; the JSON log keeps one plan record per module", () => {
    const files: Record<string, { zip: Record<string, string> }> = {};
    for (let i = 0; i < 60; i++) files[`mod-${String(i).padStart(2, "0")}.zip`] = { zip: { i: String(i) } };
    const root = fixture(files);
    const text = runCli(root, ["create", "--exclude=mod-5*"]);
    assert.equal(text.status, 0, text.stderr);
    const plan = text.stderr.split("\n").filter((l) => l.startsWith("plan"));
    assert.deepEqual(plan.slice(1, 3), [
      "plan      modules + 50: included: every module is, by default (mod-00, mod-01, mod-02 and 47 more)",
      'plan      modules - 10: excluded: matched by --exclude "mod-5*" (cli, --exclude); a --exclude flag wins over ' +
        "everything (mod-50, mod-51, mod-52 and 7 more)",
    ]);
    assert.match(plan[3]!, /^plan {6}summary: theme \(none\); modules mod-00, .*, mod-19 and 30 more$/);
    assert.ok(
      text.stderr.split("\n").every((l) => l.length < 300),
      "no line lists every module",
    );
    const records = runCli(root, ["create", ...json, "--exclude=mod-5*"]);
    assert.equal(eventsOf(records, "plan").filter((r) => r.item === "module").length, 60);
  });
});

describe("the progress line", { skip: hasScript() ? false : "needs script(1) (util-linux)" }, () => {
  let root = "";
  before(() => {
    // Enough to hash for about a second on every CPU (holes: no disk, no time to make), so that the line shows and moves.
    const perArchive = 250_000_000;
    const count = Math.max(12, os.availableParallelism() * 6);
    root = fixture();
    for (let i = 0; i < count; i++) writeSparseZip(path.join(root, `module-${String(i).padStart(2, "0")}.zip`), perArchive);
    fs.writeFileSync(path.join(root, "ocean-theme.zip"), makeZip({ "t.txt": "t" }));
  });
  const fresh = (): void => {
    for (const name of [".dropkit.json", ".dropkit-cache.json"]) fs.rmSync(path.join(root, name), { force: true });
  };
  /** The progress texts drawn, in order. */
  const drawn = (raw: string): string[] =>
    [...raw.replace(/\u001b\[[0-9;]*m/g, "").matchAll(/\r\u001b\[K(reading archives[^\r\n]*)/g)].map((m) => m[1]!);

  test("on a terminal: drawn with moving figures, redrawn in place, cleared before the next record", async () => {
    fresh();
    const term = new Terminal(root, ["create"]);
    assert.equal(await term.exit(60_000), 0, term.screen);
    const lines = drawn(term.output);
    assert.ok(lines.length >= 2, `redrawn: ${JSON.stringify(lines)}`);
    for (const line of lines)
      assert.match(
        line,
        /^reading archives {2}\d+\/\d+ {2}[\d.]+ [kMG]?B of [\d.]+ GB( {2}[\d.]+ [kMG]?B\/s {2}about (<1 s|\d+ s|\d+ min \d\d s) left)?$/,
      );
    assert.ok(new Set(lines.map((l) => l.split("  ")[2])).size >= 2, `the byte figures move: ${JSON.stringify(lines)}`);
    assert.ok(term.output.includes("\u001b[36mreading archives\u001b[0m"), "the label is coloured");
    // After the last draw: the line is erased before anything else is written.
    const plain = term.output.replace(/\u001b\[[0-9;]*m/g, "");
    const after = plain.slice(plain.lastIndexOf("reading archives"));
    assert.match(after, /^reading archives[^\r\n]*\r\u001b\[Kstate/);
  });

  test("Ctrl-C while the line is shown: erased, and the run ends by the signal with nothing written", async () => {
    fresh();
    const term = new Terminal(root, ["create"]);
    await term.expect("reading archives", 60_000);
    term.send(keys.ctrlC);
    assert.equal(await term.exit(60_000), 130, term.screen);
    const plain = term.output.replace(/\u001b\[[0-9;]*m/g, "");
    // The last draw is followed by its erasing (the terminal may echo ^C first), then the run's Interrupted record.
    assert.match(plain.slice(plain.lastIndexOf("reading archives")), /^reading archives[^\r\n]*(\^C)?\r\u001b\[K/);
    assert.match(term.screen, /Interrupted \(exit 130\)/);
    assert.ok(!fs.existsSync(path.join(root, ".dropkit.json")) && !fs.existsSync(path.join(root, ".dropkit-cache.json")));
  });

  test("NO_COLOR takes the colour away, not the line", async () => {
    fresh();
    const term = new Terminal(root, ["create"], { NO_COLOR: "1" });
    assert.equal(await term.exit(60_000), 0, term.screen);
    assert.ok(drawn(term.output).length >= 1);
    assert.ok(!/\u001b\[[0-9;]*m/.test(term.output), "no colour codes");
  });

  for (const [what, env, args] of [
    ["TERM=dumb", { TERM: "dumb" }, []],
    ["the JSON log", {}, json],
  ] as const) {
    test(`no line with ${what}, even on a terminal`, async () => {
      fresh();
      const term = new Terminal(root, ["create", ...args], env);
      assert.equal(await term.exit(60_000), 0, term.screen);
      assert.ok(!term.output.includes("reading archives"));
      assert.ok(!term.output.includes("\u001b[K"));
    });
  }

  test("no redraw characters when stderr is a pipe", () => {
    fresh();
    const run = runCli(root, ["create"], {});
    assert.equal(run.status, 0, run.stderr);
    assert.ok(!run.stderr.includes("\r") && !run.stderr.includes("\u001b"), JSON.stringify(run.stderr.slice(0, 500)));
    assert.ok(!run.stderr.includes("reading archives"));
    // The work was long enough that a terminal would have shown the line.
    assert.match(
      eventsOf(runCli(root, ["create", ...json]), "state")
        .find((r) => r.action === "cache")!
        .reused.join(","),
      /module-00/,
    );
  });
});

describe("archives that are not regular files never block a run", () => {
  test("a FIFO named x.zip and a link to it are each left out with a warning: the run ends at once", () => {
    const root = fixture({ "blog.zip": { zip: { b: "b" } } });
    assert.equal(spawnSync("mkfifo", [path.join(root, "x.zip")]).status, 0);
    fs.symlinkSync("x.zip", path.join(root, "link.zip"));
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(
      eventsOf(run, "warning").map((w) => w.message),
      [
        `${path.join(root, "link.zip")} is left out: it is a FIFO, not a regular file, so it is not an archive.`,
        `${path.join(root, "x.zip")} is left out: it is a FIFO, not a regular file, so it is not an archive.`,
      ],
    );
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(root, ".dropkit.json"), "utf8")).plan.modules, ["blog"]);
  });

  test("a name swapped between a zip and a FIFO while runs happen: every run ends, with a clear verdict", async () => {
    const root = fixture({ "blog.zip": { zip: { b: "b" } } });
    const zip = makeZip({ "a.txt": "alpha" });
    fs.writeFileSync(path.join(root, "source.bin"), zip);
    // Swaps x.zip between a copy of the zip and a FIFO, each by an atomic rename, until told to stop.
    const swapper = spawn(
      "python3",
      [
        "-c",
        `
import os, shutil, sys, time
d = sys.argv[1]
while not os.path.exists(os.path.join(d, "stop")):
    shutil.copyfile(os.path.join(d, "source.bin"), os.path.join(d, "z.tmp"))
    os.replace(os.path.join(d, "z.tmp"), os.path.join(d, "x.zip"))
    time.sleep(0.002)
    os.mkfifo(os.path.join(d, "f.tmp"))
    os.replace(os.path.join(d, "f.tmp"), os.path.join(d, "x.zip"))
    time.sleep(0.002)
`,
        root,
      ],
      { stdio: "ignore" },
    );
    const verdicts = new Map<string, number>();
    try {
      for (let i = 0; i < 20; i++) {
        fs.rmSync(path.join(root, ".dropkit-cache.json"), { force: true });
        // A run that blocks is killed after the bound (SIGKILL: a blocked run would not hear SIGTERM), and fails the test.
        const { child, done } = startCli(root, ["create", ...json]);
        const timer = setTimeout(() => child.kill("SIGKILL"), 25_000);
        const run = await done;
        clearTimeout(timer);
        assert.equal(run.signal, null, `run ${i} ended within 25 s`);
        const errors = eventsOf(run, "error");
        let verdict: string;
        if (run.status === 0) {
          verdict = "success";
        } else {
          assert.equal(run.status, 65, run.stderr);
          assert.deepEqual(
            errors.map((e) => e.name),
            ["ArchiveInvalid"],
          );
          assert.match(errors[0]!.message, /x\.zip is unreadable: it is a FIFO \(named pipe\), not a regular file/);
          verdict = "ArchiveInvalid";
        }
        verdicts.set(verdict, (verdicts.get(verdict) ?? 0) + 1);
      }
    } finally {
      fs.writeFileSync(path.join(root, "stop"), "");
      await once(swapper, "close");
    }
    assert.ok((verdicts.get("success") ?? 0) > 0, `verdicts: ${JSON.stringify([...verdicts])}`);
  });
});
