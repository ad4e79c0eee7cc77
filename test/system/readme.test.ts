// The README's promises that a user or a maintainer copies: its completion install lines, run as written on a fresh account, and docs/architecture.md's paths.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { cliPath, fixture, runCli } from "../helpers/cli.js";
import { missing, tmuxPane } from "../helpers/shells.js";
import { tempDir } from "../helpers/temp.js";
import { otherUser } from "../helpers/users.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");

/** The body of the README section under `heading` (up to the next heading of any level outside a code block). */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `the README has no section "${heading}"`);
  const lines = text.slice(start + heading.length + 2).split("\n");
  const body: string[] = [];
  let fenced = false;
  for (const line of lines) {
    if (line.startsWith("```")) fenced = !fenced;
    if (!fenced && /^#{1,6} /.test(line)) break;
    body.push(line);
  }
  return body.join("\n");
}

/** The install lines of each shell: the first sh block of "Shell completion", grouped under its `# bash`, `# zsh`, `# fish` comments. */
function installLines(): Map<string, string[]> {
  const block = /```sh\n([\s\S]*?)```/.exec(section(readme, "### Shell completion"));
  assert.ok(block, "no sh block in the README's Shell completion section");
  const groups = new Map<string, string[]>();
  let shell = "";
  for (const line of block[1]!.split("\n")) {
    const comment = /^# (\w+)/.exec(line);
    if (comment) {
      shell = comment[1]!;
      groups.set(shell, []);
    } else if (line.trim()) {
      assert.ok(shell, `an install line before any "# <shell>" comment: ${line}`);
      groups.get(shell)!.push(line);
    }
  }
  return groups;
}

/**
 * A fresh account: an empty home, `dropkit` on the PATH as a global install puts it, and nothing else of this
 * environment. As root, the account is the second real user (so a line that only root could run, such as writing into
 * a system directory, fails as it would for a user); otherwise this user with an empty home.
 */
function freshAccount() {
  const base = tempDir("dropkit-readme-");
  fs.chmodSync(base, 0o755);
  const home = path.join(base, "home");
  const bin = path.join(base, "bin");
  fs.mkdirSync(home, { mode: 0o700 });
  fs.mkdirSync(bin);
  fs.symlinkSync(cliPath, path.join(bin, "dropkit"));
  fs.symlinkSync(process.execPath, path.join(bin, "node"));
  const drop = fixture({
    "ocean-theme.zip": { zip: { "a.txt": "x" } },
    "forest-theme.zip": { zip: { "a.txt": "x" } },
    "blog.zip": { zip: { "a.txt": "x" } },
  });
  fs.chmodSync(drop, 0o755);
  const other = !otherUser.skip;
  if (other) fs.chownSync(home, otherUser.user.uid, otherUser.user.gid);
  const env = [`HOME=${home}`, `PATH=${bin}:/usr/bin:/bin`, "TERM=xterm", `USER=${other ? otherUser.user.name : "me"}`];
  /** Runs `argv` as that user, in `cwd`, with only that environment. */
  const run = (argv: string[], cwd = home) => {
    const command = ["env", "-i", ...env, ...argv];
    const full = other ? ["runuser", "-u", otherUser.user.name, "--", ...command] : command;
    return spawnSync(full[0]!, full.slice(1), { cwd, encoding: "utf8", timeout: 60_000 });
  };
  return { home, drop, env, other, run };
}

/** Where a `dropkit completion <shell> > file` line writes, `~` expanded; the line must exist. */
function target(lines: string[], shell: string, home: string): string {
  const line = lines.find((l) => l.startsWith(`dropkit completion ${shell} > `));
  assert.ok(line, `no "dropkit completion ${shell} > ..." line for ${shell}`);
  return line.slice(`dropkit completion ${shell} > `.length).trim().replace(/^~/, home);
}

describe("README: the completion install lines, run as written on a fresh account", () => {
  const groups = installLines();

  test("the README lists bash, zsh and fish, and every line of each is run", () => {
    assert.deepEqual([...groups.keys()].sort(), ["bash", "fish", "zsh"]);
    for (const [shell, lines] of groups)
      assert.ok(
        lines.some((l) => l.startsWith("mkdir -p ")),
        `${shell}: no line makes the directory`,
      );
  });

  test("bash: the lines run in bash; a new interactive bash completes dropkit", { skip: missing("bash") }, () => {
    const lines = groups.get("bash")!;
    const account = freshAccount();
    const install = account.run(["bash", "--norc", "--noprofile", "-e", "-c", lines.join("\n")]);
    assert.equal(install.status, 0, install.stderr);
    assert.equal(install.stderr, "");
    const file = target(lines, "bash", account.home);
    assert.match(fs.readFileSync(file, "utf8"), /^complete -F _dropkit dropkit$/m);
    // An interactive bash reads ~/.bashrc, as a new terminal does; COMPREPLY is what Tab would offer.
    const probe = `complete -p dropkit; COMP_WORDS=(dropkit create --theme ''); COMP_CWORD=3; COMPREPLY=(); _dropkit; echo "\${COMPREPLY[*]}"`;
    const shell = account.run(["bash", "-i", "-c", probe], account.drop);
    assert.equal(shell.status, 0, shell.stderr);
    assert.equal(shell.stdout, "complete -F _dropkit dropkit\nauto none forest ocean\n");
  });

  test("bash: where the bash-completion package is installed, its loader finds the file in the user's directory", {
    // In CI the package is installed (.ci/run): there a missing loader fails the test instead of skipping it.
    skip:
      fs.existsSync("/usr/share/bash-completion/bash_completion") || process.env.CI
        ? false
        : "the bash-completion package is not installed",
  }, () => {
    const lines = groups.get("bash")!.filter((l) => !l.includes("~/.bashrc"));
    const account = freshAccount();
    assert.equal(account.run(["bash", "--norc", "--noprofile", "-e", "-c", lines.join("\n")]).status, 0);
    const probe =
      "source /usr/share/bash-completion/bash_completion; complete -p dropkit 2>/dev/null; __load_completion dropkit; complete -p dropkit";
    const shell = account.run(["bash", "--norc", "--noprofile", "-c", probe], account.drop);
    assert.equal(shell.stdout, "complete -F _dropkit dropkit\n", shell.stderr);
  });

  test("fish: the lines run in fish; a new fish completes dropkit from the saved file", { skip: missing("fish") }, () => {
    const lines = groups.get("fish")!;
    const account = freshAccount();
    const install = account.run(["fish", "-c", lines.join("\n")]);
    assert.equal(install.status, 0, install.stderr);
    assert.ok(fs.existsSync(target(lines, "fish", account.home)));
    // A fish with its normal configuration (no --no-config): it loads completions from ~/.config/fish/completions.
    const shell = account.run(["fish", "-c", "complete -C'dropkit create --theme ' | string replace -r '\\t.*' ''"], account.drop);
    assert.equal(shell.status, 0, shell.stderr);
    assert.deepEqual(shell.stdout.trim().split("\n").sort(), ["auto", "forest", "none", "ocean"]);
  });

  test("zsh: the lines run in zsh; Tab in a new interactive zsh completes dropkit", {
    skip: missing("zsh") || missing("tmux"),
  }, async () => {
    const lines = groups.get("zsh")!;
    const account = freshAccount();
    const install = account.run(["zsh", "-f", "-e", "-c", lines.join("\n")]);
    assert.equal(install.status, 0, install.stderr);
    assert.match(fs.readFileSync(target(lines, "zsh", account.home), "utf8"), /^#compdef dropkit$/m);
    // A real interactive zsh (it reads the ~/.zshrc the lines wrote), driven through tmux as a terminal.
    const start = ["env", "-i", ...account.env, "zsh", "-i"];
    const shell = (account.other ? ["runuser", "-u", otherUser.user.name, "--", ...start] : start).map((w) => `'${w}'`).join(" ");
    const pane = tmuxPane(shell, { width: 150, cwd: account.drop });
    try {
      await pane.screen([`cd '${account.drop}' && PS1='ready%% '`, "Enter"], /ready%/);
      assert.match(await pane.screen(["C-u", "dropkit create --theme=", "Tab"], /auto +forest +none +ocean/), /auto +forest +none +ocean/);
    } finally {
      pane.close();
    }
  });
});

/** The rows of the first table in `body`, each a list of its cells (the header and the rule left out). */
function tableRows(body: string): string[][] {
  const lines = body.split("\n").filter((l) => l.startsWith("|"));
  return lines.slice(2).map((l) =>
    l
      .replace(/\\\|/g, "\u0000")
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim().replace(/\u0000/g, "|")),
  );
}

describe("README: what the built CLI says, the README says", () => {
  const drop = fixture({});
  const help = runCli(drop, ["--help"]);
  const lines = (title: string) => {
    const start = help.stdout.indexOf(`\n${title}\n\n`);
    assert.ok(start >= 0, `dropkit --help has no ${title} section`);
    return help.stdout
      .slice(start + title.length + 3)
      .split("\n\n")[0]!
      .split("\n")
      .map((l) => l.trim().split(/\s{2,}/));
  };

  test("Every key: each leaf of `dropkit config --json`, its default as the CLI resolves it, and its variable as `dropkit --help` names it", () => {
    const run = runCli(drop, ["config", "--json"]);
    assert.equal(run.status, 0, run.stderr);
    const { config, origins } = JSON.parse(run.stdout);
    const rows = new Map(tableRows(section(readme, "### Every key")).map((cells) => [cells[0]!.replace(/`/g, ""), cells]));
    const variables = new Map(lines("Environment").map(([name, what]) => [what!.split(/[ :(]/)[0]!, name!]));
    for (const key of Object.keys(origins)) {
      const row = rows.get(key);
      assert.ok(row, `the README's Every key table has no row for ${key}`);
      const value = key.split(".").reduce((o, k) => o[k], config);
      const written = /^`([^`]*)`/.exec(row[2]!)?.[1];
      if (key === "presets") {
        // Resolved in an empty folder, auto-detect applies none; the README says what an omitted list means.
        assert.equal(origins.presets.source, "auto-detect");
        assert.match(row[2]!, /omitted = auto-detect/);
      } else if (typeof value === "string" && path.isAbsolute(value)) {
        assert.equal(path.resolve(drop, written ?? ""), value, `${key}: the README's default ${row[2]}`);
      } else {
        assert.equal(written, JSON.stringify(value).replace(/^"|"$/g, ""), `${key}: the README's default ${row[2]}`);
      }
      const variable = variables.get(key);
      if (variable) assert.equal(/^`([^`]*)`/.exec(row[3]!)?.[1], variable, `${key}: the README's variable`);
      else assert.match(row[3]!, /^\(none/, `${key}: dropkit --help names no variable, the README must say (none)`);
    }
    assert.deepEqual(
      [...rows.keys()].filter((k) => !(k in origins)),
      ["exclude"],
      "a row for a key the CLI does not resolve",
    );
  });

  test("every variable and exit code of `dropkit --help` is in the README's tables", () => {
    const keyed = tableRows(section(readme, "### Every key")).map((cells) => cells[3]!);
    const others = tableRows(section(readme, "### Other environment variables")).map((cells) => cells[0]!);
    for (const [name] of lines("Environment")) {
      assert.ok(
        [...keyed, ...others].some((cell) => cell.startsWith(`\`${name}\``)),
        `the README does not list ${name}`,
      );
    }
    const codes = tableRows(section(readme, "## Exit codes"));
    for (const [code, names] of lines("Exit codes")) {
      assert.ok(
        codes.some(([c]) => c!.split(", ").includes(code!)),
        `the README's exit codes have no row for ${code}`,
      );
      // The error names (CamelCase) of each code: "Interrupted (SIGINT), init cancelled (Ctrl-C or Escape)" names Interrupted.
      for (const [name] of names!.matchAll(/\b[A-Z][a-z]+[A-Z]\w*|\bInterrupted\b/g)) {
        assert.ok(
          codes.some(([c, n]) => c!.split(", ").includes(code!) && n === name),
          `the README's exit codes have no row ${code} ${name}`,
        );
      }
    }
  });

  test("every flag of every command's help is in the README", () => {
    for (const command of ["create", "config", "init", "completion", "help"]) {
      const run = runCli(drop, [command, "--help"]);
      assert.equal(run.status, 0, run.stderr);
      for (const [, flags] of run.stdout.matchAll(/^ {2}(-[^\s]+(?: <[^>]+>)?) {2,}/gm)) {
        for (const flag of flags!.split(" ")[0]!.split(",")) {
          assert.ok(readme.includes(`\`${flag}`) || readme.includes(`(\`${flag}\``), `the README does not name ${command}'s ${flag}`);
        }
      }
    }
  });
});

describe("docs/architecture.md: every path it names exists", () => {
  const doc = fs.readFileSync(path.join(root, "docs/architecture.md"), "utf8");
  const tops = ["assembly/", "src/", "playground/", "test/", "scripts/", "bench/", "examples/", "docs/", "dist/", ".ci/"];

  test("paths from the repository's root, and file names in the folders their bullet names", () => {
    const checked: string[] = [];
    // A top-level bullet ("- `src/`: ...") opens a context: the folders named in it so far are where its bare file names live.
    for (const bullet of doc.split(/\n(?=- |## )/)) {
      const folders: string[] = [""];
      for (const [, token] of bullet.matchAll(/`([^`\s]+)`/g)) {
        const name = token!;
        if (tops.some((top) => name.startsWith(top))) {
          assert.ok(fs.existsSync(path.join(root, name)), `docs/architecture.md names ${name}, which does not exist`);
          if (name.endsWith("/")) folders.push(name);
          checked.push(name);
        } else if (/^[\w-]+\/$/.test(name)) {
          // A folder named from the last one (`commands/` under `src/cli/`).
          const inside = folders.map((f) => f + name).find((f) => fs.existsSync(path.join(root, f)));
          assert.ok(inside, `docs/architecture.md names ${name}, found under none of ${folders.join(", ")}`);
          folders.push(inside);
          checked.push(inside);
        } else if (/^\w[\w.-]*\.(ts|mjs|cjs|js|json|wasm|c|h|css|html|md)$/.test(name) && !name.startsWith("dropkit.config.")) {
          const found = folders.some((f) => fs.existsSync(path.join(root, f, name)));
          assert.ok(found, `docs/architecture.md names ${name}, which is in none of ${folders.map((f) => f || "the root").join(", ")}`);
          checked.push(name);
        }
      }
    }
    // The check would pass on a page that names nothing: it must have read the page's many file names.
    assert.ok(checked.length > 80, `only ${checked.length} paths checked`);
  });

  test("every folder README is linked, and every link leads to a file", () => {
    const readmes = ["assembly", "playground", "test", ...fs.readdirSync(path.join(root, "src")).map((d) => `src/${d}`)]
      .map((dir) => `${dir}/README.md`)
      .filter((file) => fs.existsSync(path.join(root, file)));
    assert.ok(readmes.length >= 8);
    for (const file of readmes) assert.ok(doc.includes(`](../${file})`), `docs/architecture.md does not link ${file}`);
    for (const [, link] of doc.matchAll(/\]\(([^)#\s]+)[^)]*\)/g)) {
      if (/^https?:/.test(link!)) continue;
      assert.ok(fs.existsSync(path.join(root, "docs", link!)), `docs/architecture.md links ${link}, which does not exist`);
    }
  });
});
