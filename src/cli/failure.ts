// Turning an exception into error records and an exit code: expected failures, core traps, and bugs.

import { CoreTrap } from "../core/host.js";
import { DropkitError, exitCodes } from "../errors.js";
import type { DecisionLog } from "../output/log.js";

/**
 * Logs a failure and returns its exit code. A `DropkitError` logs each of its problems with its own
 * exit code; a `CoreTrap` or any other exception is a bug (exit 70): the message asks for a report,
 * and the stack trace is printed only with `DROPKIT_DEBUG=1`.
 *
 * @param error - What was thrown.
 * @param log - The decisions log to write to.
 * @param env - Read for `DROPKIT_DEBUG`.
 */
export function reportFailure(error: unknown, log: DecisionLog, env: NodeJS.ProcessEnv): number {
  if (error instanceof DropkitError) {
    log.errors(error.diagnostics.map((d) => ({ ...d, exitCode: exitCodes[d.name] })));
    return error.exitCode;
  }
  const what = error instanceof CoreTrap ? "the wasm core failed" : "dropkit failed unexpectedly";
  const detail = error instanceof Error ? error.message : String(error);
  log.errors([
    {
      name: "InternalError",
      exitCode: exitCodes.InternalError,
      message: `${what}: ${detail}. This is a bug in dropkit: please report it with the command you ran, your dropkit version and this message (run again with DROPKIT_DEBUG=1 for the stack trace).`,
    },
  ]);
  if (env.DROPKIT_DEBUG === "1" && error instanceof Error && error.stack) {
    process.stderr.write(`${error.stack}\n`);
    if (error.cause instanceof Error && error.cause.stack) process.stderr.write(`caused by: ${error.cause.stack}\n`);
  }
  return exitCodes.InternalError;
}
