// `-C <dir>`: the directory a run starts in, entered before anything else reads the working directory (discovery, the drop, the state file, the answer cache).

import { type Stats, statSync } from "node:fs";
import path from "node:path";
import type { Problem } from "../output/log.js";
import { isFlag, usageProblem } from "./usage.js";

/**
 * Takes every `-C <dir>` out of `argv` (also `-C<dir>`, `-C=<dir>`, `--directory <dir>` and `--directory=<dir>`,
 * before or after the command, up to `--`) and enters each directory in turn, as git and make do: a relative one
 * from the one before, so `-C a -C b` is `a/b`. The rest of the argv is what the commands parse, and
 * `process.argv` is left holding it, so that a bundle that hands the run to the full CLI (src/cli/main.ts) does not
 * enter the directories twice. A directory that cannot be entered (missing, not a directory, not searchable) or an
 * empty one is a usage error at the flag, and the run stops there with nothing read.
 */
export function enterDirectories(argv: string[]): { argv: string[]; problem?: Problem } {
  // Most runs have no -C: they pay for one look at each word, and nothing is copied.
  if (!argv.some((word) => word.startsWith("-C") || word.startsWith("--directory"))) return { argv };
  const rest: string[] = [];
  const entered: Array<{ flag: string; dir: string }> = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "--") {
      rest.push(...argv.slice(i));
      break;
    }
    let flag: string;
    let dir: string | undefined;
    if (word === "-C" || word === "--directory") {
      flag = word;
      dir = argv[i + 1];
      // The next word is the directory unless it reads as a flag, as for every flag of dropkit.
      if (dir === undefined || isFlag(dir)) return { argv, problem: missingDirectory(word, dir) };
      i++;
    } else if (word.startsWith("--directory=")) {
      flag = "--directory";
      dir = word.slice("--directory=".length);
    } else if (word.startsWith("-C")) {
      flag = "-C";
      dir = word.slice(word[2] === "=" ? 3 : 2);
    } else {
      rest.push(word);
      continue;
    }
    if (dir === "") return { argv, problem: missingDirectory(flag, undefined) };
    entered.push({ flag, dir });
  }
  for (const { flag, dir } of entered) {
    const problem = enter(flag, dir);
    if (problem) return { argv, problem };
  }
  process.argv.splice(2, process.argv.length - 2, ...rest);
  return { argv: rest };
}

// --- helpers ---

/** Enters `dir` (relative to the directory entered last), or says why it cannot. */
function enter(flag: string, dir: string): Problem | undefined {
  const shown = absolute(dir);
  try {
    process.chdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    const why =
      code === "ENOENT"
        ? "it does not exist"
        : code === "ENOTDIR"
          ? notADirectory(shown)
          : code === "EACCES" || code === "EPERM"
            ? `dropkit may not enter it (${code}): it needs search (x) permission`
            : `it cannot be entered (${code})`;
    const from = "a relative one starts from where dropkit was started, or from the -C before it";
    const fix = `Give ${flag} a directory that exists (${from}), or leave ${flag} out to run here.`;
    const problem = usageProblem(`${flag} ${dir}: cannot run in ${shown}: ${why}. ${fix}`, flag, "dropkit [-C <dir>] <command> [flags]");
    return { ...problem, file: shown };
  }
  // A hook or a config that reads PWD sees the directory the run is in, as after cd.
  if (process.env.PWD !== undefined) process.env.PWD = process.cwd();
  return undefined;
}

/** `dir` as an absolute path for a message; as given when the working directory itself is gone. */
function absolute(dir: string): string {
  try {
    return path.resolve(dir);
  } catch {
    return dir;
  }
}

/** Why a path that is not a directory cannot be entered: what stands there, or a file on the way to it. */
function notADirectory(file: string): string {
  let stats: Stats | undefined;
  try {
    stats = statSync(file, { throwIfNoEntry: false });
  } catch {
    // ENOTDIR: a folder on its path is a file.
  }
  if (stats === undefined) return "a folder on its path is a file";
  return stats.isFile() ? "it is a file, not a directory" : "it is not a directory";
}

/** `-C` with no directory after it, or an empty one; `next` is the flag that came instead. */
function missingDirectory(flag: string, next: string | undefined): Problem {
  const form = flag === "-C" ? "-C <dir>" : "--directory=<dir>";
  const instead =
    next === undefined
      ? ""
      : ` ("${next}" after it is read as a flag; for a directory whose name starts with a dash, write ${flag} ./${next})`;
  return usageProblem(
    `${flag} needs a directory: ${form}, to run as if dropkit was started in <dir>${instead}.`,
    flag,
    "dropkit [-C <dir>] <command> [flags]",
  );
}
