// `dropkit completion bash|zsh|fish`: each script loaded into a real shell and asked for completions in a drop.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { fixture, runCli } from "../helpers/cli.js";

const zip = { zip: { "readme.txt": "x" } };
const drop = fixture({ "ocean-theme.zip": zip, "forest-theme.zip": zip, "blog.zip": zip, "shop.zip": zip });

/** The script for `shell`, written to a file in the drop. */
function script(shell: string): string {
  const run = runCli(drop, ["completion", shell]);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stderr, "");
  const file = path.join(drop, `completion.${shell}`);
  fs.writeFileSync(file, run.stdout);
  return file;
}

/** Whether a shell is installed; in CI a missing one fails the test instead of skipping it (.ci/run installs them). */
function missing(command: string): string | false {
  if (spawnSync("sh", ["-c", `command -v ${command}`]).status === 0) return false;
  if (process.env.CI) assert.fail(`${command} is not installed`);
  return `${command} is not installed`;
}

const cases: Array<[string, string[]]> = [
  ["dropkit ", ["completion", "config", "create", "help", "init"]],
  ["dropkit cr", ["create"]],
  ["dropkit create --th", ["--theme"]],
  ["dropkit create --theme ", ["auto", "forest", "none", "ocean"]],
  ["dropkit create --exclude ", ["blog", "shop"]],
  ["dropkit create --preset ", ["none", "standard"]],
  ["dropkit config --log-format ", ["json", "text"]],
  ["dropkit config --explain hooks.", ["hooks.initScriptsDir", "hooks.onFailure", "hooks.postScriptsDir"]],
  ["dropkit init --f", ["--force"]],
  ["dropkit help ", ["completion", "config", "create", "init"]],
  ["dropkit completion ", ["bash", "fish", "zsh"]],
];

describe("dropkit completion", () => {
  test("an unknown shell is a usage error (64) on stderr", () => {
    const run = runCli(drop, ["completion", "tcsh"]);
    assert.equal(run.status, 64);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /tcsh/);
  });

  test("bash: sourced, it registers _dropkit, which completes commands, flags and values", { skip: missing("bash") }, () => {
    const file = script("bash");
    const probe = cases.map(([line]) => {
      const words = line.split(" ");
      return `COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; COMPREPLY=(); _dropkit; echo "$(printf '%s\\n' "\${COMPREPLY[@]}" | sort | tr '\\n' ' ')"`;
    });
    const result = spawnSync("bash", ["--norc", "--noprofile", "-c", `source ${file} && complete -p dropkit && ${probe.join(" && ")}`], {
      cwd: drop,
      encoding: "utf8",
    });
    assert.equal(result.status, 0, result.stderr);
    const [registration, ...answers] = result.stdout.trimEnd().split("\n");
    assert.equal(registration, "complete -F _dropkit dropkit");
    cases.forEach(([line, expected], i) => {
      assert.deepEqual(
        answers[i]!.trim().split(" ").filter(Boolean),
        line === "dropkit " ? [...expected, "--help", "--version"].sort() : expected,
        line,
      );
    });
    // `--theme=` is split at "=" by bash: the value after it still completes.
    const equals = spawnSync(
      "bash",
      [
        "--norc",
        "-c",
        `source ${file}; COMP_WORDS=(dropkit create --theme = oc); COMP_CWORD=4; _dropkit; echo "\${COMPREPLY[*]}"; compgen -W "$(__dropkit_modules)" -- s`,
      ],
      { cwd: drop, encoding: "utf8" },
    );
    assert.equal(equals.stdout, "ocean\nshop\n");
  });

  test("fish: complete -C answers from the script", { skip: missing("fish") }, () => {
    const file = script("fish");
    const probe = cases.map(([line]) => `complete -C'${line}' | string replace -r '\\t.*' '' | sort | string join ' '`);
    const result = spawnSync("fish", ["--no-config", "-c", `source ${file}; ${probe.join("; ")}`], { cwd: drop, encoding: "utf8" });
    assert.equal(result.status, 0, result.stderr);
    const answers = result.stdout.trimEnd().split("\n");
    cases.forEach(([line, expected], i) => {
      const got = answers[i]!.split(" ").filter(Boolean);
      // fish offers both the long and the short names where a flag has both.
      assert.deepEqual(
        got.filter((w) => !/^-[a-z]$/.test(w)),
        expected,
        line,
      );
    });
    // Each candidate is one line "word<TAB>description": no empty line after a command (a description ending in a newline).
    const raw = spawnSync("fish", ["--no-config", "-c", `source ${file}; complete -C'dropkit '; complete -C'dropkit create --'`], {
      cwd: drop,
      encoding: "utf8",
    });
    const lines = raw.stdout.split("\n").slice(0, -1);
    assert.ok(lines.length >= 10, raw.stdout);
    for (const l of lines) assert.match(l, /^\S+\t\S.*\S$/, JSON.stringify(raw.stdout));
  });

  test("zsh: after compinit, Tab in an interactive zsh completes values", { skip: missing("zsh") || missing("tmux") }, async () => {
    const file = script("zsh");
    assert.equal(spawnSync("zsh", ["-n", file]).status, 0, "the zsh script does not parse");
    const session = "zsh";
    // A server of its own (its own socket): other tmux users on the machine neither see nor stop it.
    const socket = path.join(drop, "tmux.sock");
    const tmux = (...args: string[]) => spawnSync("tmux", ["-S", socket, ...args], { encoding: "utf8" });
    tmux("new-session", "-d", "-s", session, "-x", "150", "-y", "40", `env -i HOME=${drop} TERM=xterm PATH=/usr/bin:/bin zsh -f`);
    try {
      const screen = async (keys: string[], wanted: RegExp): Promise<string> => {
        tmux("send-keys", "-t", session, "C-u", ...keys);
        let text = "";
        for (let i = 0; i < 150 && !wanted.test(text); i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          text = tmux("capture-pane", "-p", "-t", session).stdout;
        }
        return text;
      };
      await screen(
        [`autoload -U compinit && compinit -u -d ${drop}/.zcompdump && source ${file} && cd ${drop} && PS1='ready%% '`, "Enter"],
        /ready%/,
      );
      assert.match(await screen(["dropkit cr", "Tab"], /dropkit create/), /dropkit create/);
      assert.match(await screen(["dropkit create --theme=", "Tab"], /auto +forest +none +ocean/), /auto +forest +none +ocean/);
      assert.match(await screen(["dropkit create --exclude ", "Tab"], /blog +shop/), /blog +shop/);
      assert.match(await screen(["dropkit config --log-format ", "Tab"], /json +text/), /json +text/);
    } finally {
      tmux("kill-server");
    }
  });
});
