// The shared flags of every command, and turning what a run ends with (its result, a signal, an exception) into log records and an exit code.

import { statSync } from "node:fs";
import path from "node:path";
import { clipanion, t } from "./clipanion.js";
import type { CoreDiagnostic } from "../../core/protocol.js";
import type { ConfigFlags, LoadConfigResult } from "../../config/resolve.js";
import { deriveDecisions } from "../../core/decisions.js";
import { DropkitError, exitCodes, fail } from "../../errors.js";
import { workingDirectory } from "../../files/fsutil.js";
import { DecisionLog, earlyLogFormat, type Problem } from "../../output/log.js";
import { trapSignals, type Interrupted, type StopCheck } from "../../signals.js";

const { Command, Option } = clipanion;

/**
 * The base of every dropkit command: the layer-1 flags of SPEC section 4, `--version`, and error
 * handling. Subclasses implement `run`, which gets the decisions log; `execute` never throws.
 */
export abstract class DropkitCommand extends Command {
  configPath = Option.String("--config", {
    description: "use this config file instead of looking for one (also DROPKIT_CONFIG)",
  });

  theme = Option.String("--theme", {
    description: "the theme: auto, none, a theme name, or a path ending in .zip",
  });

  exclude = Option.Array("--exclude", {
    description: "leave out modules matching this glob (repeatable; wins over everything)",
  });

  preset = Option.Array("--preset", {
    description: "apply this preset (repeatable; replaces the preset list)",
  });

  logFormat = Option.String("--log-format", {
    description: "the decisions log on stderr: text or json",
    validator: t.isEnum(["text", "json"]),
  });

  quiet = Option.Boolean("-q,--quiet", false, { description: "log only warnings and errors on stderr (text or json)" });

  // SPEC section 6 asks for --version on every command, not only at the top level.
  showVersion = Option.Boolean("--version", false, { hidden: true });

  // Declared for help and completion only: src/cli/directory.ts takes -C out of the argv and enters it before parsing.
  directory = Option.String("-C,--directory", {
    description: "run as if dropkit was started in this directory (repeatable: each from the last)",
  });

  /**
   * Runs the command with a decisions log; returns the exit code. `stop` tells of SIGINT, SIGTERM or SIGHUP: check it
   * before writing anything, and pass its `signal` to what can be stopped (hooks, prompts).
   */
  protected abstract run(log: DecisionLog, stop: StopCheck): Promise<number>;

  /**
   * Handles `--version`, sets up the log, and maps whatever `run` throws to an exit code. While `run` runs,
   * SIGINT, SIGTERM and SIGHUP stop it: the command ends with an `Interrupted` error record and exit 130,
   * 143 or 129, however it ended; a second signal hurries it (see `trapSignals`).
   */
  async execute(): Promise<number> {
    if (this.showVersion) {
      this.context.stdout.write(`${this.cli.binaryVersion ?? "unknown"}\n`);
      return 0;
    }
    const log = new DecisionLog(
      earlyLogFormat(this.logFormat ?? this.impliedLogFormat(), this.context.env),
      this.context.stderr,
      this.context.env,
      this.quiet,
    );
    const trap = trapSignals({
      onExit: (reason) => reportInterrupted(log, reason, true),
      whileLoading: this.whileConfigLoads(),
      // The note at a first Ctrl-C while a config's code waits: a warning with a code, so that --quiet keeps it.
      onWaiting: (reason) =>
        log.write({
          event: "warning",
          code: "WaitingForConfig",
          message: reason.waitingNote(),
          source: reason.signal,
          file: reason.loading,
        }),
    });
    try {
      const code = await this.run(log, trap);
      const interrupted = trap.interrupted;
      return interrupted ? reportInterrupted(log, interrupted, false) : code;
    } catch (error) {
      const interrupted = trap.interrupted;
      if (interrupted && error === interrupted) return reportInterrupted(log, interrupted, false);
      const code = await reportFailure(error, log, this.context.env);
      // A failure while stopping is reported too, but the run still ends as interrupted.
      return interrupted ? reportInterrupted(log, interrupted, false) : code;
    } finally {
      trap.release();
    }
  }

  /**
   * What a signal does while a config's code loads (`TrapOptions.whileLoading`): "exit" stops at once, as nothing is
   * written yet; a command whose run is worth finishing cleanly says "wait".
   */
  protected whileConfigLoads(): "exit" | "wait" {
    return "exit";
  }

  /** The flags that take part in the merge. */
  protected configFlags(): ConfigFlags {
    return { config: this.configPath, theme: this.theme, exclude: this.exclude, preset: this.preset, logFormat: this.logFormat };
  }

  /**
   * The log format a command's own flags imply when `--log-format` is not given (`config --json`: JSON error
   * records); it then wins over the environment and the config.
   */
  protected impliedLogFormat(): "json" | undefined {
    return undefined;
  }

  /** The working directory: the drop. */
  protected cwd(): string {
    return workingDirectory(this.context.env);
  }
}

/**
 * Logs how the config was resolved: the file (and the directories searched), warnings, the presets,
 * and, when asked, one decision per leaf. Switches the log to the format the config asks for (unless `keepFormat`). Returns
 * 0, or the exit code of the first problem after logging every problem.
 */
export function reportResolution(
  log: DecisionLog,
  loaded: LoadConfigResult,
  options: { decisions: boolean; keepFormat?: boolean },
): number {
  // A usage error (a flag's value the core refused) keeps the format chosen before the config was read, as every usage error.
  const usage = loaded.errors.some((e) => e.name === "UsageError");
  if (loaded.logFormat && !options.keepFormat && !usage) log.format = loaded.logFormat;
  const d = loaded.discovery;
  log.write({ event: "config", file: d.file, via: d.via, format: d.format, searched: d.searched.map((s) => s.dir), stop: d.stop });
  for (const w of loaded.warnings) log.coreWarning(w);
  if (loaded.presets) {
    for (const p of loaded.presets.applied) log.write({ event: "preset", status: "applied", mode: loaded.presets.mode, ...p });
    for (const p of loaded.presets.skipped) log.write({ event: "preset", status: "skipped", mode: loaded.presets.mode, ...p });
  }
  if (!loaded.ok) return reportProblems(log, loaded.errors);
  if (options.decisions) log.decisions(deriveDecisions(loaded));
  return 0;
}

/**
 * Refuses a hooks setting that names something other than a directory (a file, a FIFO, a path through a file), with
 * the same `IOError` (74) from `create` (before any hook runs or anything is written) and from `config` (the CI
 * validator), at the key and where it was set. A missing directory means no hooks; one that cannot be looked at is
 * left to `runHooks`, which reports it when its phase comes.
 *
 * @throws DropkitError `IOError` (74).
 */
export function requireHookDirectories(loaded: LoadConfigResult, cwd: string): void {
  const hooks = loaded.config!.hooks;
  for (const key of ["initScriptsDir", "postScriptsDir"] as const) {
    const dir = path.resolve(cwd, hooks[key]);
    let why: string;
    try {
      const stats = statSync(dir);
      if (stats.isDirectory()) continue;
      const kind = stats.isFile() ? "a file" : stats.isFIFO() ? "a FIFO" : stats.isSocket() ? "a socket" : "a device";
      why = `it is ${kind}, not a directory`;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOTDIR") continue;
      why = "a folder on its path is a file";
    }
    const origin = loaded.origins?.[`hooks.${key}`];
    fail("IOError", `Cannot list the hooks directory ${dir} (${why}). Fix it, or point hooks.${key} elsewhere.`, {
      path: `hooks.${key}`,
      file: dir,
      source: origin && origin.layer !== "default" ? origin.source : dir,
    });
  }
}

/** Logs every problem the core reported; returns the first one's exit code. */
export function reportProblems(log: DecisionLog, errors: CoreDiagnostic[]): number {
  log.errors(errors.map(toProblem));
  return errors[0]?.exitCode ?? 70;
}

/**
 * Logs a failure and returns its exit code. A `DropkitError` logs each of its problems with its own
 * exit code; a `CoreTrap` or any other exception is a bug (exit 70): the message asks for a report,
 * and the stack trace is printed only with `DROPKIT_DEBUG=1`.
 *
 * @param error - What was thrown.
 * @param log - The decisions log to write to.
 * @param env - Read for `DROPKIT_DEBUG`.
 */
export async function reportFailure(error: unknown, log: DecisionLog, env: NodeJS.ProcessEnv): Promise<number> {
  if (error instanceof DropkitError) {
    log.errors(error.diagnostics.map((d) => ({ ...d, exitCode: exitCodes[d.name] })));
    return error.exitCode;
  }
  // Loaded only for a bug: the commands that never call the core (help, --version) do not load its host at start-up.
  const { CoreTrap } = await import("../../core/host.js");
  const what = error instanceof CoreTrap ? "the wasm core failed" : "dropkit failed unexpectedly";
  const detail = error instanceof Error ? error.message : String(error);
  log.errors([
    {
      name: "InternalError",
      exitCode: exitCodes.InternalError,
      message:
        `${what}: ${detail}. This is a bug in dropkit: please report it with the command you ran, your dropkit version ` +
        `and this message (run again with DROPKIT_DEBUG=1 for the stack trace).`,
    },
  ]);
  if (env.DROPKIT_DEBUG === "1" && error instanceof Error && error.stack) {
    process.stderr.write(`${error.stack}\n`);
    if (error.cause instanceof Error && error.cause.stack) process.stderr.write(`caused by: ${error.cause.stack}\n`);
  }
  return exitCodes.InternalError;
}

// --- helpers ---

/**
 * The record of an interrupted run: an `error` named `Interrupted` whose `source` is the signal. Not in SPEC
 * section 8's list on purpose: it is no problem with the input (and never an InternalError).
 */
function reportInterrupted(log: DecisionLog, reason: Interrupted, exiting: boolean): number {
  log.errors([{ name: reason.name, exitCode: reason.exitCode, path: "", source: reason.signal, message: reason.describe(exiting) }]);
  return reason.exitCode;
}

function toProblem(d: CoreDiagnostic): Problem {
  return {
    name: d.name,
    code: d.code,
    exitCode: d.exitCode,
    message: d.message,
    path: d.path,
    source: d.source,
    file: d.file,
    line: d.line,
    column: d.column,
    length: d.length,
  };
}
