// Usage errors: what the command-line parser rejects, said as one error record (what, at which argument, how to fix).

import { type CommandUsage, withPlaceholders } from "./help.js";
import type { Problem } from "../output/log.js";

/** Exit code for an unknown command or flag, or a bad flag value (SPEC section 8). */
export const usageExitCode = 64;

/** A usage error found by dropkit itself (no parser error behind it). */
export function usageProblem(message: string, source = "", usage?: string): Problem {
  return { name: "UsageError", exitCode: usageExitCode, path: "", source, message, ...(usage ? { usage } : {}) };
}

/**
 * The record for an error of clipanion's parser, found by reading the argv again, word by word, as the parser does:
 * an unknown command (with the closest one); else the first flag, in any position and form (`--flag value`,
 * `--flag=value`, first or last), that the command does not have (with the closest of its flags), that is given a
 * value it does not take, or that has no value (with the `=` form when the next word starts with a dash); else a
 * value a validator rejected, or an argument too many or too few. Clipanion's own reasons are not used: with several
 * flags on the line they name whichever word its last branches failed on (a valid `--theme=ocean` before a typo).
 *
 * @param error - What clipanion threw (`UnknownSyntaxError`, `AmbiguousSyntaxError` or `UsageError`).
 * @param argv - The arguments, as given (without `-C`, which src/cli/directory.ts has taken).
 * @param commands - Every command, to name and suggest.
 */
export async function parseProblem(error: Error, argv: string[], commands: CommandUsage[]): Promise<Problem> {
  const at = commandAt(argv, commands);
  if (at === -1) return noCommand(argv, commands);
  const command = commands.find((c) => c.name === argv[at])!;
  const usage = command.usage;
  // A validator's verdict (a bad --log-format value, an unknown shell) is already said well; it comes only once
  // every word was placed.
  if (error.name === "UsageError") {
    const at = /^Invalid value for (\S+?):/.exec(error.message)?.[1] ?? "";
    // A positional argument is named as the usage line names it: <shell>.
    const source = at.startsWith("-") || at === "" ? at : `<${at}>`;
    return usageProblem(withPlaceholders(error.message).replace(`for ${at}:`, `for ${source}:`), source, usage);
  }
  const { problem, positionals } = await readFlags(argv, at, command);
  if (problem) return problem;
  if (positionals.length > command.positionals.max) {
    const extra = positionals[command.positionals.max]!;
    return usageProblem(`Unexpected argument "${extra}": ${takes(command)}.`, extra, usage);
  }
  if (positionals.length < command.positionals.min)
    return usageProblem(`dropkit ${command.name} is missing an argument: ${usage}.`, command.name, usage);
  // Arguments the parser could not place in any one way.
  return usageProblem(
    `These arguments do not fit dropkit ${command.name}: ${argv.filter((_, i) => i !== at).join(" ")}. ${takes(command)}.`,
    command.name,
    usage,
  );
}

/**
 * Where `--help` or `--version` (`-h`, `-v`) is asked for in an argv the parser refused (after a positional argument,
 * on a command that has no such flag, beside a typo), as git and npm take them anywhere: `help` wins over `version`,
 * and the command is the one named, if any. Undefined when neither is there, or the first word names no command.
 */
export function helpOrVersion(argv: string[], commands: CommandUsage[]): { ask: "help" | "version"; command?: string } | undefined {
  const end = endOfFlags(argv);
  const words = argv.slice(0, end);
  const ask = words.some((w) => w === "--help" || w === "-h")
    ? "help"
    : words.some((w) => w === "--version" || w === "-v")
      ? "version"
      : undefined;
  if (ask === undefined) return undefined;
  const at = commandAt(argv, commands);
  // A first word that is no command is a mistake to report (dropkit craete --help), not a request for the general help.
  if (at === -1 && words[0] !== undefined && !isFlag(words[0])) return undefined;
  return at === -1 ? { ask } : { ask, command: argv[at] };
}

/**
 * The core's did-you-mean (the one of every dropkit message). The core is loaded here, on the error path only: a
 * command line that parses never pays for it.
 */
export async function closest(name: string, candidates: string[]): Promise<string | undefined> {
  const { loadCore } = await import("../core/node.js");
  return loadCore().suggest(name, candidates);
}

/** Whether a word is read as a flag: clipanion takes `-` alone as a value, and everything after `--` as arguments. */
export function isFlag(word: string): boolean {
  return word.startsWith("-") && word !== "-";
}

// --- helpers ---

/** The index of `--` in `argv` (its length when there is none): no word after it is a flag. */
function endOfFlags(argv: string[]): number {
  const end = argv.indexOf("--");
  return end === -1 ? argv.length : end;
}

/**
 * The index of the first word before `--` that is neither a flag nor the value of one given as the next word
 * (clipanion takes flags before the command too: `dropkit --config x.json config`), or -1 when there is none.
 */
function firstWord(argv: string[], commands: CommandUsage[]): number {
  const valued = new Set(commands.flatMap((c) => c.flags.filter((f) => f.value).flatMap((f) => f.names)));
  const end = endOfFlags(argv);
  for (let i = 0; i < end; i++) {
    const word = argv[i]!;
    if (!isFlag(word)) return i;
    if (valued.has(word)) i++;
  }
  return -1;
}

/**
 * The index of the word that names the command: the first word (firstWord); -1 when that word names no command, or
 * there is none. A command name taken as a flag's value (`dropkit --config create`) is still the command: the flag
 * then has no value, and readFlags says so.
 */
function commandAt(argv: string[], commands: CommandUsage[]): number {
  const first = firstWord(argv, commands);
  if (first !== -1) return commands.some((c) => c.name === argv[first]) ? first : -1;
  const end = endOfFlags(argv);
  const names = new Set(commands.map((c) => c.name));
  for (let i = 0; i < end; i++) if (names.has(argv[i]!)) return i;
  return -1;
}

/** No command named: an unknown one (with the closest), or flags with no command at all. */
async function noCommand(argv: string[], commands: CommandUsage[]): Promise<Problem> {
  const at = firstWord(argv, commands);
  if (at !== -1) {
    const word = argv[at]!;
    const guess = await closest(
      word,
      commands.map((c) => c.name),
    );
    const hint = guess ? ` Did you mean "dropkit ${guess}"?` : "";
    const usage = guess ? commands.find((c) => c.name === guess)!.usage : undefined;
    return usageProblem(`Unknown command "${word}".${hint} Run dropkit --help for the commands.`, word, usage);
  }
  const first = argv[0]!;
  const flag = flagName(first);
  return usageProblem(
    `No command given before ${flag}: flags follow a command, as in dropkit <command> ${first}. Run dropkit --help for the commands.`,
    flag,
    "dropkit <command> [flags]",
  );
}

/**
 * Reads the flags of `argv` (all but the command's own word, at `at`) left to right against the command's: the first
 * unknown flag, flag given a value it does not take, or flag without its value, else every positional argument.
 */
async function readFlags(argv: string[], at: number, command: CommandUsage): Promise<{ problem?: Problem; positionals: string[] }> {
  const end = endOfFlags(argv);
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (i === at || i === end) continue;
    if (i > end || !isFlag(word)) {
      positionals.push(word);
      continue;
    }
    const name = flagName(word);
    const flag = command.flags.find((f) => f.names.includes(name));
    if (!flag) {
      // A batch of short boolean flags (-yf) is taken when each is one.
      const booleans = command.flags.filter((f) => !f.value).flatMap((f) => f.names);
      if (/^-[a-zA-Z]{2,}$/.test(word) && [...word.slice(1)].every((letter) => booleans.includes(`-${letter}`))) continue;
      return { problem: await unknownFlag(name, command), positionals };
    }
    // A flag the command has, given a value it does not take (--json=1, -y=no).
    if (!flag.value) {
      if (name !== word) return { problem: usageProblem(`${name} takes no value, found "${word}".`, name, command.usage), positionals };
      continue;
    }
    // Its value is bound (--theme=ocean), or the next word, which cannot be a flag, `--`, or the command's name.
    if (name !== word) continue;
    const next = argv[i + 1];
    if (next === undefined || i + 1 === at || i + 1 === end || isFlag(next)) {
      // A dash value is worth the = form only when it is no flag of the command (--exclude -legacy, not --config --theme=x).
      const dashValue = next !== undefined && isFlag(next) && next !== "--" && !command.flags.some((f) => f.names.includes(flagName(next)));
      return { problem: missingValue(name, dashValue ? next : undefined, command), positionals };
    }
    i++;
  }
  return { positionals };
}

/** `--colour` of `--colour=red`. */
function flagName(arg: string): string {
  const eq = arg.indexOf("=");
  return eq > 1 ? arg.slice(0, eq) : arg;
}

async function unknownFlag(name: string, command: CommandUsage): Promise<Problem> {
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

/** A flag that takes a value, given none: `dashValue` is the word after it when that may be a value meant for it. */
function missingValue(flag: string, dashValue: string | undefined, command: CommandUsage): Problem {
  const placeholder = /\[\S+ (<[^>\]]+>)\]/.exec(command.usage.slice(command.usage.indexOf(`[${flag} `)))?.[1] ?? "<value>";
  // A value that starts with a dash reads as the next flag: only the = form passes it as the value.
  const fix =
    dashValue !== undefined
      ? `; "${dashValue}" after it is read as a flag. For a value that starts with a dash, write ${flag}=${dashValue}.`
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
