// Usage errors: what the command-line parser rejects, said as one error record (what, at which argument, how to fix).

import { withPlaceholders } from "./help.js";
import type { Problem } from "../output/log.js";

/** Exit code for an unknown command or flag, or a bad flag value (SPEC section 8). */
export const usageExitCode = 64;

/** A command as a usage error speaks of it. */
export interface CommandUsage {
  /** The word after `dropkit`: `create`. */
  name: string;
  /** Its usage line without the `$ `: `dropkit create [--config <path>] ...`. */
  usage: string;
  /** Its flags, each with its aliases (`--yes`, `-y`), and whether it takes a value. */
  flags: Array<{ names: string[]; value: boolean }>;
}

/** A usage error found by dropkit itself (no parser error behind it). */
export function usageProblem(message: string, source = "", usage?: string): Problem {
  return { name: "UsageError", exitCode: usageExitCode, path: "", source, message, ...(usage ? { usage } : {}) };
}

/**
 * The record for an error of clipanion's parser: an unknown command (with the closest one), an unknown flag (with
 * the closest of the command's), a flag without its value (with the `=` form when the next argument starts with a
 * dash), a value a validator rejected, or an argument too many or too few.
 *
 * @param error - What clipanion threw (`UnknownSyntaxError`, `AmbiguousSyntaxError` or `UsageError`).
 * @param argv - The arguments, as given.
 * @param commands - Every command, to name and suggest.
 */
export async function parseProblem(error: Error, argv: string[], commands: CommandUsage[]): Promise<Problem> {
  const first = argv[0] ?? "";
  const command = commands.find((c) => c.name === first);
  if (!command) {
    if (!first.startsWith("-")) {
      const guess = await closest(
        first,
        commands.map((c) => c.name),
      );
      const hint = guess ? ` Did you mean "dropkit ${guess}"?` : "";
      const usage = guess ? commands.find((c) => c.name === guess)!.usage : undefined;
      return usageProblem(`Unknown command "${first}".${hint} Run dropkit --help for the commands.`, first, usage);
    }
    const flag = flagName(first);
    return usageProblem(
      `No command given before ${flag}: flags follow a command, as in dropkit <command> ${first}. Run dropkit --help for the commands.`,
      flag,
      "dropkit <command> [flags]",
    );
  }
  const usage = command.usage;
  // A validator's verdict (a bad --log-format value, an unknown shell) is already said well.
  if (error.name === "UsageError") {
    const at = /^Invalid value for (\S+?):/.exec(error.message)?.[1] ?? "";
    // A positional argument is named as the usage line names it: <shell>.
    const source = at.startsWith("-") || at === "" ? at : `<${at}>`;
    return usageProblem(withPlaceholders(error.message).replace(`for ${at}:`, `for ${source}:`), source, usage);
  }
  const reasons = new Set(((error as { candidates?: Array<{ reason: string | null }> }).candidates ?? []).map((c) => c.reason));
  const reason = reasons.size === 1 ? ([...reasons][0] ?? "") : "";
  const unknown = /^(?:Invalid|Unsupported) option name \("(.*)"\)\.$/s.exec(reason);
  if (unknown) return unknownFlag(unknown[1]!, command);
  const missing = /^Not enough arguments to option (\S+)\.$/.exec(reason);
  if (missing) return missingValue(missing[1]!, argv, command);
  const extra = /^Extraneous positional argument \("(.*)"\)\.$/s.exec(reason);
  if (extra) return usageProblem(`Unexpected argument "${extra[1]}": ${takes(command)}.`, extra[1], usage);
  if (reason === "Not enough positional arguments.")
    return usageProblem(`dropkit ${command.name} is missing an argument: ${usage}.`, command.name, usage);
  // Arguments the parser could not place in any one way (dropkit help a b).
  return usageProblem(
    `These arguments do not fit dropkit ${command.name}: ${argv.slice(1).join(" ")}. ${takes(command)}.`,
    command.name,
    usage,
  );
}

/**
 * The core's did-you-mean (the one of every dropkit message). The core is loaded here, on the error path only: a
 * command line that parses never pays for it.
 */
export async function closest(name: string, candidates: string[]): Promise<string | undefined> {
  const { loadCore } = await import("../core/node.js");
  return loadCore().suggest(name, candidates);
}

// --- helpers ---

/** `--colour` of `--colour=red`. */
function flagName(arg: string): string {
  const eq = arg.indexOf("=");
  return arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
}

async function unknownFlag(arg: string, command: CommandUsage): Promise<Problem> {
  const name = flagName(arg);
  const known = command.flags.find((f) => f.names.includes(name));
  // A flag the command has, given a value it does not take (--json=1, -y=no).
  if (known && !known.value) return usageProblem(`${name} takes no value, found "${arg}".`, name, command.usage);
  const names = command.flags.flatMap((f) => f.names).filter((n) => n.startsWith("--"));
  const guess = await closest(
    name.replace(/^-+/, ""),
    names.map((n) => n.slice(2)),
  );
  const hint = guess ? ` Did you mean --${guess}?` : "";
  return usageProblem(
    `Unknown flag ${name} for dropkit ${command.name}.${hint} Run dropkit ${command.name} --help for its flags.`,
    name,
    command.usage,
  );
}

function missingValue(flag: string, argv: string[], command: CommandUsage): Problem {
  const next = argv[argv.lastIndexOf(flag) + 1];
  const placeholder = /\[\S+ (<[^>\]]+>)\]/.exec(command.usage.slice(command.usage.indexOf(`[${flag} `)))?.[1] ?? "<value>";
  // A value that starts with a dash reads as the next flag: only the = form passes it as the value.
  const fix =
    next?.startsWith("-") && next !== "--"
      ? `; "${next}" after it is read as a flag. For a value that starts with a dash, write ${flag}=${next}.`
      : `: ${flag}=${placeholder}.`;
  return usageProblem(`${flag} needs a value${fix}`, flag, command.usage);
}

/** What the command takes, in words. */
function takes(command: CommandUsage): string {
  const positional = command.usage
    .replace(/\[--?[^\]]*\]/g, "")
    .trim()
    .split(/\s+/)
    .slice(2);
  return positional.length === 0
    ? `dropkit ${command.name} takes no arguments, only flags`
    : `dropkit ${command.name} takes ${positional.join(" ")}`;
}
