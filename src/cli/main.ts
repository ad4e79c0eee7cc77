#!/usr/bin/env node
// The dropkit executable: builds the clipanion CLI from the command list and maps its outcomes to exit codes.

import { readFileSync } from "node:fs";
import path from "node:path";
import type { Writable } from "node:stream";
import type { CommandClass } from "clipanion";
import { reportFailure } from "./commands/base.js";
import { buildCli as buildCommandsCli, fullCommands, namedCommands, partialCli } from "./clis.js";
import type { DropkitCli } from "./help.js";
import { useAnswers } from "../core/node.js";
import { AnswerCache } from "../files/answercache.js";
import { limits } from "../files/limits.js";
import { builtFile, packageRoot } from "../installed.js";
import { DecisionLog, earlyLogFormat, shouldColor, type Problem } from "../output/log.js";
import { flushed, standardStream, writeFailure, type StandardStream } from "../output/stdio.js";
import { enterDirectories } from "./directory.js";
import { helpOrVersion, parseProblem, usageExitCode, usageProblem } from "./usage.js";

/** The package version, set by the bundle build (scripts/build-cli.mjs); undefined when run from tsc's output. */
declare const __DROPKIT_VERSION__: string | undefined;
/** A hash of dist/dropkit.wasm, set by the bundle build; undefined when run from tsc's output. */
declare const __DROPKIT_CORE_HASH__: string | undefined;
/** Runs the full CLI in this process: given by the bin to a bundle that holds only some commands (scripts/build-cli.mjs). */
declare const __dropkitFullCli: (() => void) | undefined;

// `-C <dir>`, anywhere before `--`, is taken first: the run is as if started in <dir> (src/cli/directory.ts).
const entered = enterDirectories(process.argv.slice(2));

// The core's answers are kept for the next run in this folder, and saved as the process exits (src/files/answercache.ts).
if (entered.problem === undefined) rememberAnswers();

// stdout and stderr are Node's streams only on a terminal (src/output/stdio.ts).
const stdout = standardStream(1);
const stderr = standardStream(2);

// The run is over when its command is: a handle that a config (or a module it imports) left open, a timer or a
// server, must not keep dropkit alive after it has its answer. What is written is flushed first, then the process
// exits with the command's code.
const ran =
  entered.problem === undefined
    ? runCli(entered.argv, stdout, stderr)
    : Promise.resolve(reportUsageError(process.argv.slice(2), stderr, entered.problem));
void ran.then(async (code) => {
  // This bundle could not take the argv (it holds only some commands) and wrote nothing: the full CLI takes the run.
  if (code === null) return __dropkitFullCli!();
  await flushed([stdout, stderr]);
  const exitCode = await withOutputFailure(code, stderr);
  process.exitCode = exitCode;
  process.exit(exitCode);
});

/**
 * Runs dropkit with `argv` and returns the exit code. Usage problems go to stderr (clipanion would
 * print them on stdout, which carries only the data a user asked for) and end with 64; `--help` and
 * `--version` print on stdout and end with 0. `null`: this bundle holds only some commands, none of which took the
 * argv, and nothing was written.
 */
async function runCli(argv: string[], stdout: StandardStream, stderr: StandardStream): Promise<number | null> {
  // clipanion adds the rest of its default context itself (lazily in the bundle); spreading it here would create
  // process.stdin, which only init reads.
  // clipanion types them as Writable; dropkit's commands (and clipanion's help) only call write() and read isTTY.
  const context = { env: process.env, stdout: stdout as unknown as Writable, stderr: stderr as unknown as Writable };
  if (argv.length > limits.arguments) {
    return reportUsageError(
      argv,
      stderr,
      usageProblem(
        `Too many arguments (${argv.length}): dropkit takes at most ${limits.arguments.toLocaleString("en-US")}. ` +
          "List module globs in the config (modules.exclude) or in DROPKIT_MODULES_EXCLUDE rather than repeating --exclude.",
      ),
    );
  }
  try {
    // Start-up: clipanion's parser covers every registered command (shipped in the bundle, ./machines.ts, or
    // compiled), so an argv naming a command is first parsed by that command alone: a smaller parser to read and
    // to run. Paths are fixed and disjoint, so a parse that succeeds is the one the full CLI makes; anything else
    // is left to the full CLI.
    const named = namedCommands(argv[0]);
    if (named.length > 0) {
      const cli = buildCli(named, stdout);
      let command;
      try {
        command = cli.process(argv, context);
      } catch (error) {
        if (!isClipanionError(error)) throw error;
      }
      if (command) return await cli.run(command, context);
    }
    if (partialCli && typeof __dropkitFullCli === "function") return null;
    const cli = buildCli(fullCommands, stdout);
    if (argv.length === 0) {
      // No command is not a request for help: a usage error, on stderr like any other.
      const names = cli.commandUsages().map((c) => c.name);
      return reportUsageError(
        argv,
        stderr,
        usageProblem(
          `No command given: dropkit ${names.slice(0, -1).join(", ")} or ${names.at(-1)}. Run dropkit --help for details.`,
          "",
          "dropkit <command> [flags]",
        ),
      );
    }
    let command;
    try {
      command = cli.process(argv, context);
    } catch (error) {
      if (!isClipanionError(error)) throw error;
      const commands = cli.commandUsages();
      // --help and --version where the parser takes neither (after an argument, on help or completion): as git and npm.
      const asked = helpOrVersion(argv, commands);
      if (asked?.ask === "help") return await cli.run(asked.command === undefined ? ["--help"] : [asked.command, "--help"], context);
      if (asked?.ask === "version") {
        stdout.write(`${readVersion()}\n`);
        return 0;
      }
      return reportUsageError(argv, stderr, await parseProblem(error, argv, commands));
    }
    // Help output goes to stdout: it was asked for.
    return await cli.run(command, context);
  } catch (error) {
    return await reportFailure(error, new DecisionLog(earlyLogFormat(logFormatFlag(argv), process.env), stderr), process.env);
  }
}

// For tests (test/system/parsers.test.ts, through the bin): every CLI this bundle builds, and the parser it ships for one.
export { bundledMachine as shippedMachine, everyCli } from "./clis.js";

// --- helpers ---

/**
 * The exit code once the output is known to be written. A run that succeeded but whose requested output could not
 * be written to stdout (a full disk, an I/O error; not a reader that left, EPIPE) did not deliver what was asked:
 * IOError (74). stderr carries only the log: when it cannot be written (`2>/dev/full`), the run's own code stands,
 * 0 for a run that did everything it was asked, so that no failure code is reported that means something else.
 */
async function withOutputFailure(code: number, stderr: StandardStream): Promise<number> {
  const failed = writeFailure(1);
  if (code !== 0 || failed === undefined) return code;
  const argv = process.argv.slice(2);
  const { DropkitError } = await import("../errors.js");
  const error = new DropkitError({
    name: "IOError",
    message:
      `Cannot write the output to standard output (${failed}): what was asked for did not reach its destination. ` +
      "Check the disk or device stdout goes to, and run again.",
    source: "stdout",
  });
  const exitCode = await reportFailure(error, new DecisionLog(earlyLogFormat(logFormatFlag(argv), process.env), stderr), process.env);
  await flushed([stderr]);
  return exitCode;
}

/** A clipanion CLI with these commands registered, printing on `stdout`. */
function buildCli(registered: ReadonlyArray<CommandClass>, stdout: StandardStream): DropkitCli {
  // Colours follow the stream help is printed on; usage errors are stripped of them when stderr is not a terminal.
  return buildCommandsCli(registered, { binaryVersion: readVersion(), enableColors: colorOn(stdout) });
}

/**
 * Writes a usage problem to stderr as one error record, in the log format the arguments or DROPKIT_LOG_FORMAT ask
 * for (the config is not read: the command line is checked first).
 */
function reportUsageError(argv: string[], stderr: StandardStream, problem: Problem): number {
  new DecisionLog(earlyLogFormat(logFormatFlag(argv), process.env), stderr, process.env).errors([problem]);
  return usageExitCode;
}

/**
 * The value of `--log-format` in `argv`, read by hand because parsing failed (or has not happened yet); `json`
 * when there is none (or it is not text or json) but `--json` asks for JSON output.
 */
function logFormatFlag(argv: string[]): string | undefined {
  let value: string | undefined;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") break;
    if (arg.startsWith("--log-format=")) value = arg.slice("--log-format=".length);
    else if (arg === "--log-format") value = argv[++i];
    else if (arg === "--json") json = true;
  }
  return value === "text" || value === "json" ? value : json ? "json" : undefined;
}

/** Makes the core consult the answer cache of this folder's runs, saved at exit; none when the folder is gone. */
function rememberAnswers(): void {
  let cwd: string;
  try {
    cwd = process.cwd();
  } catch {
    return;
  }
  const moduleHash = typeof __DROPKIT_CORE_HASH__ === "string" ? __DROPKIT_CORE_HASH__ : undefined;
  const answers = new AnswerCache({ cwd, module: builtFile("dropkit.wasm"), moduleHash }, process.env);
  useAnswers(answers);
  process.once("exit", () => answers.save());
}

/** Clipanion's parse errors (unknown command or flag, bad value) carry a `clipanion` marker. */
function isClipanionError(error: unknown): error is Error {
  return error instanceof Error && "clipanion" in error;
}

function colorOn(stream: StandardStream): boolean {
  return shouldColor(stream, process.env);
}

/** The version from the package's own package.json (inlined by the bundle, read otherwise), so it never drifts from it. */
function readVersion(): string {
  if (typeof __DROPKIT_VERSION__ === "string") return __DROPKIT_VERSION__;
  const text = readFileSync(path.join(packageRoot(), "package.json"), "utf8");
  return (JSON.parse(text) as { version: string }).version;
}
