// `dropkit completion bash|zsh|fish`: each script loaded into a real shell and asked for completions in a drop.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { type CommandSpec, completionScript } from "../../src/cli/completion.js";
import { fixture, runCli } from "../helpers/cli.js";
import { missing, tmuxPane } from "../helpers/shells.js";

const zip = { zip: { "readme.txt": "x" } };
const drop = fixture({
  "ocean-theme.zip": zip,
  "forest-theme.zip": zip,
  "blog.zip": zip,
  "shop.zip": zip,
  "sub/river-theme.zip": zip,
  "sub/lake.zip": zip,
});

/** The script for `shell`, written to a file in the drop. */
function script(shell: string): string {
  const run = runCli(drop, ["completion", shell]);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stderr, "");
  const file = path.join(drop, `completion.${shell}`);
  fs.writeFileSync(file, run.stdout);
  return file;
}

/** An interactive shell in tmux, as `shellSession` starts it. */
interface Session {
  /** Types `keys` after clearing the line, and waits for the pane to match `wanted` (the pane is returned either way). */
  screen: (keys: string[], wanted: RegExp) => Promise<string>;
  /** Clears the screen, types `line` and Tab, and waits for the pane to match `wanted`: the pane shows this answer alone. */
  tab: (line: string, wanted: RegExp) => Promise<string>;
  close: () => void;
}

/**
 * An interactive shell with the script sourced, in `cwd` (also its HOME), in a tmux pane: `zsh -f` after compinit, or
 * bash without rc files, set to list the candidates at the first Tab as zsh does.
 */
async function shellSession(shell: "bash" | "zsh", file: string, cwd: string): Promise<Session> {
  const start = shell === "zsh" ? "zsh -f" : "bash --norc --noprofile";
  const pane = tmuxPane(`env -i HOME=${cwd} TERM=xterm PATH=/usr/bin:/bin ${start}`, { width: 200 });
  const screen = (keys: string[], wanted: RegExp): Promise<string> => pane.screen(["C-u", ...keys], wanted);
  const tab = async (line: string, wanted: RegExp): Promise<string> => {
    pane.send("C-u", "C-l");
    await pane.wait(/^\s*ready[%$]\s*$/);
    return pane.screen([line, "Tab"], wanted);
  };
  const setup =
    shell === "zsh"
      ? `autoload -U compinit && compinit -u -d ${cwd}/.zcompdump && source ${file} && cd ${cwd} && PS1='ready%% '`
      : `bind 'set show-all-if-ambiguous on' && bind 'set bell-style none' && source ${file} && cd ${cwd} && PS1='ready$ '`;
  try {
    // The prompt's space is not matched: capture-pane drops the spaces at the end of a line.
    await screen([setup, "Enter"], /^ready[%$]/m);
  } catch (e) {
    pane.close();
    throw e;
  }
  return { screen, tab, close: pane.close };
}

/** A description each shell must show as it is written: quotes of every kind, brackets, a colon, a backslash, `$(...)`. */
const HOSTILE = 'it\'s [a] "b" $(echo no) `x` \\ c: d; e & f';

/** Two commands with hostile descriptions, one with a hostile flag, as the script generator takes them. */
const hostileSpecs: CommandSpec[] = [
  { name: "other", description: `${HOSTILE}\n`, flags: [] },
  {
    name: "create",
    description: "make it's",
    flags: [
      { names: ["--odd"], description: HOSTILE },
      { names: ["--help", "-h"], description: "print this command's help" },
    ],
  },
];

const cases: Array<[string, string[]]> = [
  ["dropkit ", ["completion", "config", "create", "help", "init", "lsp"]],
  ["dropkit cr", ["create"]],
  ["dropkit create --th", ["--theme"]],
  ["dropkit create --theme ", ["auto", "forest", "none", "ocean"]],
  ["dropkit create --exclude ", ["blog", "shop"]],
  ["dropkit create --preset ", ["none", "standard"]],
  ["dropkit config --log-format ", ["json", "text"]],
  ["dropkit config --explain hooks.", ["hooks.initScriptsDir", "hooks.onFailure", "hooks.postScriptsDir"]],
  ["dropkit init --f", ["--force"]],
  ["dropkit help ", ["completion", "config", "create", "init", "lsp"]],
  ["dropkit completion ", ["bash", "fish", "zsh"]],
  // After -C <dir> (before or after the command), the command is found past it, and names come from <dir>.
  ["dropkit -C sub cr", ["create"]],
  ["dropkit -C sub create --theme ", ["auto", "none", "river"]],
  ["dropkit create -C sub --exclude ", ["lake"]],
  ["dropkit --directory sub config --log-format ", ["json", "text"]],
  ["dropkit -C sub help ", ["completion", "config", "create", "init", "lsp"]],
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
      const set = `COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; COMP_LINE='${line}'; COMPREPLY=()`;
      return `${set}; _dropkit; echo "$(printf '%s\\n' "\${COMPREPLY[@]}" | sort | tr '\\n' ' ')"`;
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
        line === "dropkit " ? [...expected, "--directory", "--help", "--version", "-C"].sort() : expected,
        line,
      );
    });
    // `--theme=` is split at "=" by bash: the value after it still completes.
    const equals = spawnSync(
      "bash",
      [
        "--norc",
        "-c",
        `source ${file}; COMP_WORDS=(dropkit create --theme = oc); COMP_CWORD=4; COMP_LINE='dropkit create --theme=oc'; _dropkit; ` +
          `echo "\${COMPREPLY[*]}"; compgen -W "$(__dropkit_modules)" -- s`,
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
    // An apostrophe in a description arrives as written, not dropped ("this commands help").
    assert.ok(lines.includes("--help\tprint this command's help"), raw.stdout);
  });

  test("fish: any description arrives as written (quotes, brackets, $(...), a backslash), on one line", { skip: missing("fish") }, () => {
    const file = path.join(drop, "hostile.fish");
    fs.writeFileSync(file, completionScript("fish", hostileSpecs));
    const raw = spawnSync("fish", ["--no-config", "-c", `source ${file}; complete -C'dropkit '; complete -C'dropkit create --'`], {
      cwd: drop,
      encoding: "utf8",
    });
    assert.equal(raw.status, 0, raw.stderr);
    assert.deepEqual(raw.stdout.split("\n").slice(0, -1).sort(), [
      "--help\tprint this command's help",
      `--odd\t${HOSTILE}`,
      "create\tmake it's",
      `other\t${HOSTILE}`,
    ]);
  });

  test("bash: the script holds no description (bash's completion lists words only), so none can be cut", { skip: missing("bash") }, () => {
    const text = fs.readFileSync(script("bash"), "utf8");
    assert.doesNotMatch(text, /help\b[^\n]*command/);
    assert.equal(completionScript("bash", hostileSpecs).includes("it's"), false);
  });

  test("zsh: after compinit, Tab in an interactive zsh completes values", { skip: missing("zsh") || missing("tmux") }, async () => {
    const file = script("zsh");
    assert.equal(spawnSync("zsh", ["-n", file]).status, 0, "the zsh script does not parse");
    const zsh = await shellSession("zsh", file, drop);
    try {
      const { screen } = zsh;
      assert.match(await screen(["dropkit cr", "Tab"], /dropkit create/), /dropkit create/);
      assert.match(await screen(["dropkit create --theme=", "Tab"], /auto +forest +none +ocean/), /auto +forest +none +ocean/);
      assert.match(await screen(["dropkit create --exclude ", "Tab"], /blog +shop/), /blog +shop/);
      assert.match(await screen(["dropkit config --log-format ", "Tab"], /json +text/), /json +text/);
      // An apostrophe in a description arrives as written, not replaced ("command s help").
      assert.match(await screen(["dropkit create -", "Tab"], /-- print this command's help/), /--help +-h +-- print this command's help/);
    } finally {
      zsh.close();
    }
  });

  test("zsh: any description arrives as written, in the command list and a flag's", {
    skip: missing("zsh") || missing("tmux"),
  }, async () => {
    const dir = fixture({});
    const file = path.join(dir, "hostile.zsh");
    fs.writeFileSync(file, completionScript("zsh", hostileSpecs));
    assert.equal(spawnSync("zsh", ["-n", file]).status, 0, "the zsh script does not parse");
    const zsh = await shellSession("zsh", file, dir);
    const shown = HOSTILE.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    try {
      const commands = await zsh.screen(["dropkit ", "Tab"], new RegExp(`other +-- ${shown}`));
      assert.match(commands, new RegExp(`other +-- ${shown}\n`), commands);
      assert.match(commands, /create +-- make it's\n/, commands);
      const flags = await zsh.screen(["dropkit create -", "Tab"], new RegExp(`--odd +-- ${shown}`));
      assert.match(flags, new RegExp(`--odd +-- ${shown}\n`), flags);
    } finally {
      zsh.close();
    }
  });
});

/**
 * A tree for `-C`: the shell starts in `work` (also its HOME), which holds archives of its own; a folder with a space
 * and one whose name is shell code hold others. Nothing may run that code: `work/pwned` must never appear.
 */
function tree(): string {
  const work = path.join(
    fixture({
      "work/here-theme.zip": zip,
      "work/local.zip": zip,
      "work/proj/p-theme.zip": zip,
      "work/proj/inner/deep-theme.zip": zip,
      "work/proj/inner/deepmod.zip": zip,
      "work/my dir/sea-theme.zip": zip,
      "work/my dir/boat.zip": zip,
      "work/my dir/sub one/": "",
      "work/it's $(touch pwned)/odd-theme.zip": zip,
    }),
    "work",
  );
  return work;
}

/**
 * What Tab does after each line, in every shell: `fish` lists the candidates `complete -C` gives (without descriptions),
 * `screen` is what an interactive bash or zsh shows (the line completed, or the candidates listed), and `not` what the
 * list must not hold.
 */
const directoryCases: Array<{ line: string; fish: string[]; screen: RegExp; not?: RegExp }> = [
  // -C completes directories (not files), from where the shell is.
  { line: "dropkit -C ", fish: ["it's $(touch pwned)/", "my dir/", "proj/"], screen: /my\\? dir\/ +proj\//, not: /local|here-theme/ },
  { line: "dropkit -C my\\ d", fish: ["my dir/"], screen: /dropkit -C my\\ dir\/\s*$/m },
  { line: 'dropkit -C "my d', fish: ["my dir/"], screen: /dropkit -C (my\\ dir|"my dir"?)\/"?\s*$/m },
  { line: "dropkit --directory=pr", fish: ["--directory=proj/"], screen: /dropkit --directory=proj\/\s*$/m },
  { line: "dropkit -Cpr", fish: ["-Cproj/"], screen: /dropkit -Cproj\/\s*$/m },
  // A second -C completes from where the first leads, as dropkit enters it (../ included).
  { line: "dropkit -C proj -C ", fish: ["inner/"], screen: /dropkit -C proj -C inner\/\s*$/m },
  { line: "dropkit -C proj/inner -C ../../my\\ d", fish: ["../../my dir/"], screen: /-C \.\.\/\.\.\/my\\ dir\/\s*$/m },
  // After -C <dir> in any form, the command is found, and commands and flags complete as without it.
  {
    line: "dropkit -C proj -C inner ",
    fish: ["completion", "config", "create", "help", "init", "lsp"],
    screen: /config[\s\S]*create[\s\S]*help[\s\S]*init/,
  },
  { line: "dropkit -C my\\ dir init --th", fish: ["--theme"], screen: /dropkit -C my\\ dir init --theme/ },
  // Theme and module names are those of the directory the line's -C lead to, each -C from the last.
  {
    line: "dropkit -Cproj --directory=inner create --theme ",
    fish: ["auto", "deep", "none"],
    screen: /auto +deep +none/,
    not: /here|\bp\b/,
  },
  { line: 'dropkit create -C "my dir" --exclude ', fish: ["boat"], screen: /--exclude boat\s*$/m },
  { line: "dropkit -C ~/proj config --theme ", fish: ["auto", "none", "p"], screen: /auto +none +p\s*$/m },
  { line: "dropkit -C it\\'s\\ \\$\\(touch\\ pwned\\) create --theme ", fish: ["auto", "none", "odd"], screen: /auto +none +odd/ },
];

describe("completion after -C <dir>", () => {
  for (const shell of ["bash", "zsh"] as const) {
    test(`${shell}: in an interactive ${shell}, Tab completes -C's directories, and the command and names after it`, {
      skip: missing(shell) || missing("tmux"),
    }, async () => {
      const work = tree();
      const session = await shellSession(shell, script(shell), work);
      try {
        for (const { line, screen, not } of directoryCases) {
          const shown = await session.tab(line, screen);
          assert.match(shown, screen, line);
          if (not) assert.doesNotMatch(shown, not, line);
        }
      } finally {
        session.close();
      }
      assert.equal(fs.existsSync(path.join(work, "pwned")), false, "a directory's name ran as code");
    });
  }

  test("fish: complete -C completes -C's directories, and the command and names after it", { skip: missing("fish") }, () => {
    const work = tree();
    const file = script("fish");
    // Each line in fish's single quotes as it is, trailing space and all.
    const probe = directoryCases.map(
      ({ line }) => `complete -C '${line.replace(/[\\']/g, "\\$&")}' | string replace -r '\\t.*' '' | sort | string join '|'`,
    );
    const result = spawnSync("fish", ["--no-config", "-c", `source ${file}; ${probe.join("; ")}`], {
      cwd: work,
      env: { HOME: work, PATH: "/usr/bin:/bin" },
      encoding: "utf8",
    });
    assert.equal(result.status, 0, result.stderr);
    const answers = result.stdout.split("\n");
    directoryCases.forEach(({ line, fish }, i) => {
      // fish offers both the long and the short names where a flag has both.
      assert.deepEqual(
        answers[i]!.split("|").filter((w) => w && !/^-[a-z]$/.test(w)),
        fish,
        line,
      );
    });
    assert.equal(fs.existsSync(path.join(work, "pwned")), false, "a directory's name ran as code");
  });
});
