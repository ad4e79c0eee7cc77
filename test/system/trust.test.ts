// Tests for the trust rule (src/files/trust.ts, SPEC section 12): configs, presets and hooks that another user (the real
// user dropkit-other) owns or could have written never run, discovery never walks into such a directory, and
// DROPKIT_SAFE_DIRECTORIES allows what the user trusts.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { eventsOf, fixture, makeZip, runCli, type RunResult } from "../helpers/cli.js";
import { asNobody, nobody, openUp, permissions } from "../helpers/nobody.js";
import { tempDir } from "../helpers/temp.js";
import { otherUser, teamGroup } from "../helpers/users.js";

const other = otherUser.user;

/** A .ts config that writes `marker` when it runs (it must never run unless allowed), setting the theme "planted". */
const plantedConfig = (marker: string) =>
  `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\nexport default { ` +
  `theme: "none", modules: { exclude: ["planted"] } };\n`;

/** A hook that writes `marker` when it runs. */
const plantedHook = (marker: string) => `#!/bin/sh\necho ran > '${marker}'\n`;

/** Writes `file` (making its directory as root) and gives it to the other user, as if that user had put it there. */
function plant(file: string, text: string, mode = 0o644): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  fs.chmodSync(file, mode);
  fs.chownSync(file, other.uid, other.gid);
}

/** A directory owned by the other user. */
function plantDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.chownSync(dir, other.uid, other.gid);
}

/**
 * A tree with no `.git`: `<top>/shared` (mode `sharedMode`, root's, like /tmp) above `<top>/shared/proj/work`, the
 * working directory; GIT_CEILING_DIRECTORIES is `<top>`, above the shared folder, so the walk can reach it and no
 * further. `marker` is where planted code would write.
 */
function sharedTree(sharedMode = 0o1777): { top: string; shared: string; cwd: string; marker: string; env: Record<string, string> } {
  const top = tempDir("dropkit-trust-");
  fs.chmodSync(top, 0o755);
  const shared = path.join(top, "shared");
  fs.mkdirSync(shared);
  fs.chmodSync(shared, sharedMode);
  const cwd = path.join(shared, "proj", "work");
  fs.mkdirSync(cwd, { recursive: true });
  return { top, shared, cwd, marker: path.join(top, "marker"), env: { GIT_CEILING_DIRECTORIES: top } };
}

function json(cwd: string, args: string[], env: Record<string, string> = {}): RunResult {
  return runCli(cwd, [...args, "--log-format=json"], env);
}

function errorOf(result: RunResult): Record<string, any> {
  const [error] = eventsOf(result, "error");
  assert.ok(error, `no error record: ${result.stderr}`);
  return error;
}

describe("discovery never walks into a directory another user can write (a 1777 folder above, no .git)", { skip: otherUser.skip }, () => {
  test("another user's dropkit.config.ts in a sticky 1777 folder above the working directory: not run, a warning, the walk stops below it", () => {
    const { shared, cwd, marker, env } = sharedTree(0o1777);
    const planted = path.join(shared, "dropkit.config.ts");
    plant(planted, plantedConfig(marker));
    // A drop with an archive: create in a folder with none is EmptyDrop.
    fs.writeFileSync(path.join(cwd, "blog.zip"), makeZip({ a: "a" }));
    for (const command of [["config"], ["create"]]) {
      const r = json(cwd, command, env);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(fs.existsSync(marker), false, "the planted config ran");
      const [config] = eventsOf(r, "config");
      assert.equal(config!.file, null);
      assert.deepEqual(config!.stop, { dir: shared, reason: "untrusted" });
      assert.deepEqual(config!.searched, [cwd, path.dirname(cwd)]);
      const warning = eventsOf(r, "warning").find((w) => w.source === planted);
      assert.ok(warning, r.stderr);
      assert.match(warning.message, new RegExp(`owned by ${other.name} \\(uid ${other.uid}\\)`));
      assert.match(warning.message, /writable by its group and others \(mode 1777\).*sticky bit/);
      assert.match(warning.message, new RegExp(`DROPKIT_SAFE_DIRECTORIES=${shared}`));
    }
    // The text log says where and why the walk stopped.
    assert.match(runCli(cwd, ["config"], env).stderr, new RegExp(`stopped: untrusted at ${shared}`));
  });

  test("a /tmp-like sticky folder is no place for code even when root owns the config there; a 0777 folder neither", () => {
    for (const mode of [0o1777, 0o777]) {
      const { shared, cwd, marker, env } = sharedTree(mode);
      const config = path.join(shared, "dropkit.config.ts");
      fs.writeFileSync(config, plantedConfig(marker));
      const r = json(cwd, ["config"], env);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(fs.existsSync(marker), false, `the config in a ${mode.toString(8)} folder ran`);
      assert.equal(eventsOf(r, "config")[0]!.stop.reason, "untrusted");
      const warning = eventsOf(r, "warning").find((w) => w.source === config);
      assert.match(
        warning?.message ?? "",
        new RegExp(`owned by root \\(uid 0\\).*writable by its group and others \\(mode ${mode.toString(8)}\\)`),
      );
    }
  });

  test("a directory above owned by another user stops the walk too", () => {
    const { top, env } = sharedTree();
    const theirs = path.join(top, "theirs");
    plantDir(theirs);
    fs.chmodSync(theirs, 0o755);
    const marker = path.join(top, "marker");
    plant(path.join(theirs, "dropkit.config.ts"), plantedConfig(marker));
    const cwd = path.join(theirs, "mine");
    fs.mkdirSync(cwd);
    const r = json(cwd, ["config"], env);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(fs.existsSync(marker), false);
    assert.deepEqual(eventsOf(r, "config")[0]!.stop, { dir: theirs, reason: "untrusted" });
    assert.match(
      eventsOf(r, "warning")
        .map((w) => w.message)
        .join("\n"),
      new RegExp(`${theirs} is owned by ${other.name} \\(uid ${other.uid}\\)`),
    );
  });
});

describe("a shared 1777 drop folder holding another user's config and hooks", { skip: otherUser.skip }, () => {
  function drop(): { cwd: string; marker: string; env: Record<string, string> } {
    const { shared, marker, env } = sharedTree();
    plant(path.join(shared, "dropkit.config.ts"), plantedConfig(marker));
    plantDir(path.join(shared, "init-scripts"));
    plant(path.join(shared, "init-scripts", "10-own"), plantedHook(marker + "-hook"), 0o755);
    return { cwd: shared, marker, env };
  }

  test("create and config refuse the config: exit 77 UntrustedFile naming the file, its owner and how to allow it; nothing runs or is written", () => {
    const { cwd, marker, env } = drop();
    for (const command of [["config"], ["config", "--json"], ["create"]]) {
      const r = json(cwd, command, env);
      assert.equal(r.status, 77, r.stderr);
      const error = errorOf(r);
      assert.equal(error.name, "UntrustedFile");
      assert.equal(error.exitCode, 77);
      assert.equal(error.source, path.join(cwd, "dropkit.config.ts"));
      assert.match(
        error.message,
        new RegExp(`The config ${cwd}/dropkit.config.ts is not used: it is owned by ${other.name} \\(uid ${other.uid}\\)`),
      );
      assert.match(error.message, new RegExp(`DROPKIT_SAFE_DIRECTORIES=${cwd}`));
      assert.doesNotMatch(r.stderr, /\n\s+at .+:\d+:\d+\)?\n/, "no stack trace");
    }
    assert.equal(fs.existsSync(marker), false, "the planted config ran");
    assert.equal(fs.existsSync(marker + "-hook"), false, "the planted hook ran");
    assert.equal(fs.existsSync(path.join(cwd, ".dropkit.json")), false, "a state file was written");
  });

  test("without the config, the hooks directory is refused before anything runs or is written (config gives the same verdict)", () => {
    const { cwd, marker, env } = drop();
    fs.rmSync(path.join(cwd, "dropkit.config.ts"));
    const checked = json(cwd, ["config"], env);
    assert.equal(checked.status, 77, checked.stderr);
    assert.equal(errorOf(checked).source, path.join(cwd, "init-scripts"));
    const r = json(cwd, ["create"], env);
    assert.equal(r.status, 77, r.stderr);
    const error = errorOf(r);
    assert.equal(error.source, path.join(cwd, "init-scripts"));
    assert.match(
      error.message,
      new RegExp(`The init hooks directory ${cwd}/init-scripts is not used: it is owned by ${other.name} \\(uid ${other.uid}\\)`),
    );
    assert.equal(fs.existsSync(marker + "-hook"), false, "the planted hook ran");
    assert.equal(fs.existsSync(path.join(cwd, ".dropkit.json")), false);
    assert.deepEqual(eventsOf(r, "hook"), []);
    // The drop's archives are data: with no code planted, the shared folder is a drop like any other.
    fs.rmSync(path.join(cwd, "init-scripts"), { recursive: true });
    fs.writeFileSync(path.join(cwd, "blog.zip"), fs.readFileSync(path.join(fixture({ "x.zip": { zip: { a: "a" } } }), "x.zip")));
    fs.chownSync(path.join(cwd, "blog.zip"), other.uid, other.gid);
    const plain = json(cwd, ["create"], env);
    assert.equal(plain.status, 0, plain.stderr);
    assert.deepEqual(eventsOf(plain, "plan").find((p) => p.item === "summary")?.modules, ["blog"]);
  });

  test("a root-owned hooks directory in the shared folder is refused too: it sits in a directory others can write", () => {
    const { shared, marker, env } = sharedTree();
    fs.mkdirSync(path.join(shared, "post-scripts"));
    fs.writeFileSync(path.join(shared, "post-scripts", "notify"), plantedHook(marker), { mode: 0o755 });
    const r = json(shared, ["create"], env);
    assert.equal(r.status, 77, r.stderr);
    assert.match(
      errorOf(r).message,
      new RegExp(
        `The post hooks directory ${shared}/post-scripts is not used: it is in ${shared}, which is writable by its group and others \\(mode 1777\\)`,
      ),
    );
    assert.equal(fs.existsSync(marker), false);
    assert.equal(fs.existsSync(path.join(shared, ".dropkit.json")), false, "refused before anything was written");
  });

  test("DROPKIT_SAFE_DIRECTORIES allows it (the directory, or *): the config and the hooks run", () => {
    for (const allow of ["DIR", "*"]) {
      const { cwd, marker, env } = drop();
      // A module the planted config's exclude glob matches (an empty drop is EmptyDrop; an unmatched glob a warning).
      fs.writeFileSync(path.join(cwd, "planted.zip"), makeZip({ a: "a" }));
      const r = json(cwd, ["create"], { ...env, DROPKIT_SAFE_DIRECTORIES: allow === "DIR" ? cwd : allow });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(eventsOf(r, "config")[0]!.file, path.join(cwd, "dropkit.config.ts"));
      assert.equal(fs.readFileSync(marker, "utf8"), "ran");
      assert.equal(fs.readFileSync(marker + "-hook", "utf8").trim(), "ran");
      assert.deepEqual(eventsOf(r, "warning"), [], "no warning about an unknown DROPKIT_* variable");
    }
  });
});

describe("configs, presets and hooks in the user's own tree", { skip: otherUser.skip }, () => {
  test("a config writable by a group with another member is refused (77), the mode named; chmod g-w makes it usable", () => {
    const team = teamGroup()!;
    const root = fixture({ "dropkit.config.json": '{"theme": "none"}\n' });
    const config = path.join(root, "dropkit.config.json");
    fs.chmodSync(config, 0o664);
    fs.chownSync(config, 0, team.gid);
    const r = json(root, ["config"]);
    assert.equal(r.status, 77, r.stderr);
    assert.match(
      errorOf(r).message,
      /it is writable by its group \(mode 664\), owned by root \(uid 0\).*a group counts only when it has another member.*chmod go-w/,
    );
    fs.chmodSync(config, 0o644);
    assert.equal(json(root, ["config"]).status, 0);
  });

  test("a config in a directory of the project writable by a group with another member is refused", () => {
    const team = teamGroup()!;
    const root = fixture({ "sub/dropkit.config.json": '{"theme": "none"}\n' });
    fs.chmodSync(path.join(root, "sub"), 0o775);
    fs.chownSync(path.join(root, "sub"), 0, team.gid);
    const r = json(path.join(root, "sub"), ["config"]);
    // The working directory itself fails: its config is refused, not passed over.
    assert.equal(r.status, 77, r.stderr);
    assert.match(errorOf(r).message, /it is in .*sub, which is writable by its group \(mode 775\)/);
  });

  test("group write for a user-private group (no other member) is harmless: a 664 config in a 775 folder is used", () => {
    // root's group 0 has no member but root, as a user's own group under Debian's and Fedora's umask 002.
    const root = fixture({ "sub/dropkit.config.json": '{"theme": "none"}\n' });
    fs.chmodSync(path.join(root, "sub"), 0o775);
    fs.chmodSync(path.join(root, "sub", "dropkit.config.json"), 0o664);
    const r = json(path.join(root, "sub"), ["config"]);
    assert.equal(r.status, 0, r.stderr);
  });

  test("--config and DROPKIT_CONFIG naming another user's file: refused all the same (naming it does not make it safe)", () => {
    const root = fixture();
    const marker = path.join(root, "marker");
    fs.chmodSync(root, 0o755);
    const theirs = path.join(root, "theirs.config.ts");
    plant(theirs, plantedConfig(marker));
    for (const [args, env] of [
      [["config", `--config=${theirs}`], {}],
      [["config"], { DROPKIT_CONFIG: theirs }],
    ] as const) {
      const r = json(root, [...args], env);
      assert.equal(r.status, 77, r.stderr);
      assert.match(errorOf(r).message, new RegExp(`The config ${theirs} is not used: it is owned by ${other.name}`));
    }
    assert.equal(fs.existsSync(marker), false);
    // Allowed: it runs.
    const allowed = json(root, ["config", `--config=${theirs}`], { DROPKIT_SAFE_DIRECTORIES: root });
    assert.equal(allowed.status, 0, allowed.stderr);
    assert.equal(fs.existsSync(marker), true);
  });

  test("a preset file owned by another user (named, or found by auto-detect) is refused before it is loaded", () => {
    const root = fixture({ "dropkit.config.json": '{"presetsSearchPath": ["./presets"], "presets": ["ci"]}\n' });
    const marker = path.join(root, "marker");
    plant(path.join(root, "presets", "ci.ts"), plantedConfig(marker).replace('theme: "none", ', ""));
    const r = json(root, ["config"]);
    assert.equal(r.status, 77, r.stderr);
    assert.match(
      errorOf(r).message,
      new RegExp(`The preset ${root}/presets/ci.ts is not used: it is owned by ${other.name} \\(uid ${other.uid}\\)`),
    );
    // Auto-detect loads every preset file of the search path: the same verdict.
    fs.writeFileSync(path.join(root, "dropkit.config.json"), '{"presetsSearchPath": ["./presets"]}\n');
    const auto = json(root, ["create"]);
    assert.equal(auto.status, 77, auto.stderr);
    assert.equal(fs.existsSync(marker), false, "the planted preset ran");
    assert.equal(fs.existsSync(path.join(root, ".dropkit.json")), false);
    // Allowed through its directory.
    const allowed = json(root, ["config"], { DROPKIT_SAFE_DIRECTORIES: path.join(root, "presets") });
    assert.equal(allowed.status, 0, allowed.stderr);
  });

  test("a hook owned by another user in the user's own hooks directory is refused; no hook runs", () => {
    const root = fixture({ "init-scripts/10-mine": { text: "#!/bin/sh\necho mine > mine.txt\n", mode: 0o755 } });
    const marker = path.join(root, "marker");
    plant(path.join(root, "init-scripts", "20-theirs"), plantedHook(marker), 0o755);
    const r = json(root, ["create"]);
    assert.equal(r.status, 77, r.stderr);
    assert.match(errorOf(r).message, new RegExp(`The init hook ${root}/init-scripts/20-theirs is not used: it is owned by ${other.name}`));
    assert.equal(fs.existsSync(marker), false);
    assert.equal(fs.existsSync(path.join(root, "mine.txt")), false, "checked before the first hook runs");
  });

  test("under sudo, root trusts the files of the user who ran it (SUDO_UID), as git does", () => {
    const root = fixture();
    fs.chmodSync(root, 0o755);
    const cwd = path.join(root, "proj");
    plantDir(cwd);
    fs.chmodSync(cwd, 0o755);
    plant(path.join(cwd, "dropkit.config.json"), '{"theme": "none"}\n');
    assert.equal(json(cwd, ["config"]).status, 77);
    const r = json(cwd, ["config"], { SUDO_UID: String(other.uid) });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(eventsOf(r, "config")[0]!.file, path.join(cwd, "dropkit.config.json"));
  });

  test("DROPKIT_SAFE_DIRECTORIES with a relative entry is a SchemaValidationError naming the variable", () => {
    const r = json(fixture(), ["config"], { DROPKIT_SAFE_DIRECTORIES: "shared/drops" });
    assert.equal(r.status, 65, r.stderr);
    assert.equal(errorOf(r).source, "DROPKIT_SAFE_DIRECTORIES");
    assert.match(errorOf(r).message, /"shared\/drops" is not an absolute path/);
  });
});

describe("a user other than root running on root's files", {
  skip: permissions.skip || !asNobody ? "needs root to run as nobody" : false,
}, () => {
  test("nobody trusts root's config, presets and hooks (root is always trusted)", () => {
    const root = fixture({
      "dropkit.config.json": '{"theme": "none", "presetsSearchPath": ["./presets"], "presets": ["ci"]}\n',
      "presets/ci.json": '{"exclude": ["old-*"]}\n',
      "init-scripts/10-ok": { text: "#!/bin/sh\nexit 0\n", mode: 0o755 },
    });
    openUp(root);
    const r = permissions.run(root, ["config", "--json"]);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).config.modules.exclude, ["old-*"]);
    // The user's own file is trusted too; another user's (root's is not another's) is not.
    fs.chownSync(path.join(root, "presets", "ci.json"), nobody, nobody);
    assert.equal(permissions.run(root, ["config", "--json"]).status, 0);
  });
});
