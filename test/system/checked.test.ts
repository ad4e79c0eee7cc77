// What is checked is what is used (SPEC section 12): a config is opened once, judged on its descriptor and loaded from
// the bytes judged; links into a team folder another user can flip never run their code; `import "dropkit"` never
// reaches another user's install; a size limit never turns a config into "no config"; a user's own umask 002 is trusted.

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { loadConfigFile } from "../../src/config/loader.js";
import { openJudged } from "../../src/files/judged.js";
import { cliPath, eventsOf, fixture, makeZip, runCli, type RunResult } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";
import { otherUser, teamGroup } from "../helpers/users.js";

const other = otherUser.user;

function json(cwd: string, args: string[], env: Record<string, string> = {}): RunResult {
  return runCli(cwd, [...args, "--log-format=json"], env);
}

/** A config that writes `marker` when it runs. */
const writes = (marker: string, ts = false) =>
  `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\n` +
  `const theme${ts ? ": string" : ""} = "none";\nexport default { theme };\n`;

describe("a judged file is loaded from the bytes that were judged", () => {
  for (const name of ["c.json", "c.ts", "c.js"]) {
    test(`${name}: replaced on disk after it was opened and judged, the judged text is what loads`, async () => {
      const root = tempDir();
      const file = path.join(root, name);
      const text = (theme: string) =>
        name.endsWith(".json") ? JSON.stringify({ theme }) : `export default { theme: ${JSON.stringify(theme)} };\n`;
      fs.writeFileSync(file, text("judged"));
      const judged = openJudged(file, "config", null);
      // Another file renamed over the name: a loader that opened the name again would read it.
      fs.writeFileSync(`${file}.new`, text("swapped"));
      fs.renameSync(`${file}.new`, file);
      const loaded = await loadConfigFile(judged, name.endsWith(".json") ? "json" : name.endsWith(".ts") ? "ts" : "js");
      if (loaded.format === "value") assert.deepEqual(loaded.value, { theme: "judged" });
      else assert.equal(JSON.parse(loaded.text).theme, "judged");
    });
  }
});

describe("a config linked into a team folder whose last component another user flips", { skip: otherUser.skip }, () => {
  // One form: the trust check comes before any loader, so a .ts config meets the same judgement (loader.test.ts, checked above).
  for (const form of ["js"] as const) {
    test(`dropkit.config.${form} → <team>/current.${form}, flipped between root's file and theirs for 200 runs: their code never runs`, async () => {
      const team = teamGroup()!;
      const top = tempDir("dropkit-team-");
      fs.chmodSync(top, 0o755);
      const folder = path.join(top, "team");
      fs.mkdirSync(folder);
      fs.chownSync(folder, 0, team.gid);
      fs.chmodSync(folder, 0o2775);
      const victimMarker = path.join(top, "victim-ran");
      const theirMarker = path.join(top, "theirs-ran");
      // root's file, in the team folder; theirs, written by the other user.
      fs.writeFileSync(path.join(folder, `victim.${form}`), writes(victimMarker, form === "ts"));
      const theirs = path.join(folder, `theirs.${form}`);
      spawnSync("runuser", ["-u", other.name, "--", "sh", "-c", `cat > '${theirs}'`], { input: writes(theirMarker, form === "ts") });
      assert.equal(fs.statSync(theirs).uid, other.uid);
      const current = path.join(folder, `current.${form}`);
      fs.symlinkSync(`victim.${form}`, current);
      const repo = fixture({});
      fs.symlinkSync(current, path.join(repo, `dropkit.config.${form}`));
      // The other user flips current.<form> between the two by rename, as fast as it can, in one process (no fork a flip).
      const flip = `const fs = require("fs"); process.chdir(${JSON.stringify(folder)});
        for (let i = 0; ; i++) { const to = i % 2 ? "victim.${form}" : "theirs.${form}";
          try { fs.unlinkSync("next.${form}"); } catch {}
          fs.symlinkSync(to, "next.${form}"); fs.renameSync("next.${form}", "current.${form}"); }`;
      const flipper = spawn("runuser", ["-u", other.name, "--", process.execPath, "-e", flip], { stdio: "ignore", detached: true });
      try {
        const codes = new Map<number | null, number>();
        for (let run = 0; run < 200; run++) {
          const r = json(repo, ["config"]);
          codes.set(r.status, (codes.get(r.status) ?? 0) + 1);
          assert.equal(fs.existsSync(theirMarker), false, `run ${run} ran the other user's config:\n${r.stderr}`);
          // Each run refuses the config: whichever file it opened, it is in a folder a second member of its group can write.
          assert.ok(r.status === 77, `run ${run}: exit ${r.status}\n${r.stderr}`);
        }
        assert.deepEqual([...codes.keys()], [77]);
        // The flips went on all along: a flipper that died at once would prove nothing.
        assert.equal(flipper.exitCode, null, "the flipping process ended early");
        assert.ok(fs.lstatSync(current).isSymbolicLink());
      } finally {
        process.kill(-flipper.pid!, "SIGKILL");
      }
      assert.equal(fs.existsSync(theirMarker), false);
      assert.equal(fs.existsSync(victimMarker), false, "a config in a folder others can write never runs, the user's own included");
    });
  }
});

describe('`import "dropkit"` outside the repository or from a folder others can write', { skip: otherUser.skip }, () => {
  /** A dropkit package planted by the other user: its index writes `marker` when imported. */
  function plantDropkit(dir: string, marker: string, owner: number): void {
    const pkg = path.join(dir, "node_modules", "dropkit");
    fs.mkdirSync(pkg, { recursive: true });
    fs.writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ name: "dropkit", version: "9.9.9", main: "index.js" }));
    fs.writeFileSync(
      path.join(pkg, "index.js"),
      `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");\nexports.defineConfig = (c) => c;\n`,
    );
    for (const p of [path.join(dir, "node_modules"), pkg, path.join(pkg, "package.json"), path.join(pkg, "index.js")])
      fs.chownSync(p, owner, owner);
  }

  for (const form of ["ts", "js"] as const) {
    test(`a root-owned repository under a 1777 folder whose node_modules/dropkit is another user's: the running dropkit answers (.${form})`, () => {
      const top = tempDir("dropkit-import-");
      fs.chmodSync(top, 0o1777);
      const marker = path.join(top, "planted-ran");
      plantDropkit(top, marker, other.uid);
      const repo = path.join(top, "repo");
      fs.mkdirSync(path.join(repo, ".git"), { recursive: true });
      fs.chmodSync(repo, 0o755);
      fs.writeFileSync(
        path.join(repo, `dropkit.config.${form}`),
        `import { defineConfig } from "dropkit";\nexport default defineConfig({ theme: "none" });\n`,
      );
      const r = json(repo, ["config"], { GIT_CEILING_DIRECTORIES: path.dirname(top) });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(fs.existsSync(marker), false, "another user's node_modules/dropkit ran as root");
    });
  }

  test("the project's own install inside the repository still wins (it is trusted)", () => {
    const repo = fixture({});
    const marker = path.join(repo, "own-ran");
    plantDropkit(repo, marker, 0);
    fs.writeFileSync(
      path.join(repo, "dropkit.config.js"),
      `import { defineConfig } from "dropkit";\nexport default defineConfig({ theme: "none" });\n`,
    );
    const r = json(repo, ["config"]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(fs.existsSync(marker), true, "the project's own dropkit was not used");
  });

  test("an install above the repository is not the project's: the running dropkit answers", () => {
    const top = tempDir("dropkit-above-");
    const marker = path.join(top, "above-ran");
    plantDropkit(top, marker, 0);
    const repo = path.join(top, "repo");
    fs.mkdirSync(path.join(repo, ".git"), { recursive: true });
    fs.writeFileSync(
      path.join(repo, "dropkit.config.js"),
      `import { defineConfig } from "dropkit";\nexport default defineConfig({ theme: "none" });\n`,
    );
    const r = json(repo, ["config"], { GIT_CEILING_DIRECTORIES: path.dirname(top) });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(fs.existsSync(marker), false);
  });
});

describe("a limit never turns a config into no config: package.json over 1 MiB", () => {
  const padding = "x".repeat(1024 * 1024 + 10);
  const late = JSON.stringify({ name: "app", description: padding, dropkit: { theme: "none" } });
  const early = JSON.stringify({ name: "app", dropkit: { theme: "none" }, description: padding });

  for (const [where, text] of [
    ["past the first MiB", late],
    ["before the mark", early],
  ] as const) {
    test(`its dropkit key ${where}: discovery and --config both exit 65, ConfigLoadError naming the file`, () => {
      const root = fixture({ "package.json": text });
      for (const args of [["config"], ["config", "--config=package.json"], ["create"]]) {
        const r = json(root, args);
        assert.equal(r.status, 65, `${args.join(" ")}: ${r.stderr}`);
        const [error] = eventsOf(r, "error");
        assert.equal(error!.name, "ConfigLoadError");
        assert.equal(error!.file, path.join(root, "package.json"));
        assert.match(error!.message, /over the limit of 1 MiB/);
      }
    });
  }

  test("a package.json over 1 MiB that never mentions dropkit is no config, as any package.json without the key", () => {
    const root = fixture({ "package.json": JSON.stringify({ name: "app", description: padding }) });
    const r = json(root, ["config"]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(eventsOf(r, "config")[0]!.file, null);
  });
});

describe("the user's own umask 002 (a user-private group)", { skip: otherUser.skip }, () => {
  test("init then create as a user with umask 002: the 664 config and the 775 folders are that user's own, exit 0", () => {
    const top = tempDir("dropkit-umask-");
    fs.chmodSync(top, 0o755);
    fs.chownSync(top, other.uid, other.gid);
    const drop = path.join(top, "drop");
    const run = (args: string[]) =>
      spawnSync(
        "runuser",
        ["-u", other.name, "--", "sh", "-c", 'umask 002 && cd "$0" && exec "$@"', drop, process.execPath, cliPath, ...args],
        {
          encoding: "utf8",
          env: { PATH: process.env.PATH, HOME: other.home, GIT_CEILING_DIRECTORIES: top },
        },
      );
    const made = spawnSync("runuser", ["-u", other.name, "--", "sh", "-c", `umask 002 && mkdir -p '${drop}/.git' '${drop}/post-scripts'`]);
    assert.equal(made.status, 0, String(made.stderr));
    fs.writeFileSync(path.join(drop, "blog.zip"), makeZip({ "a.txt": "a" }));
    fs.chownSync(path.join(drop, "blog.zip"), other.uid, other.gid);
    const init = run(["init", "--yes"]);
    assert.equal(init.status, 0, init.stderr);
    const config = fs.statSync(path.join(drop, "dropkit.config.json"));
    assert.equal(config.mode & 0o777, 0o664);
    assert.equal(fs.statSync(drop).mode & 0o777, 0o775);
    const create = run(["create"]);
    assert.equal(create.status, 0, create.stderr);
    assert.ok(fs.existsSync(path.join(drop, ".dropkit.json")));
  });
});
