// The clipanion CLIs the bin builds: one holding only the command an argv names, and the full one with every command.

import type { CommandClass } from "clipanion";
import { clipanion } from "./commands/clipanion.js";
import { commands, describingCommands, partial } from "./commands/index.js";
import { DropkitCli } from "./help.js";

const { Builtins } = clipanion;

/** `--version` and `-v` (clipanion's), and `dropkit version` as many CLIs take it: all print the version. */
export class VersionCommand extends Builtins.VersionCommand {
  static override paths = [["-v"], ["--version"], ["version"]];
}

/** Whether this bundle holds only some of the commands, and hands what they cannot parse to the full CLI. */
export const partialCli = partial;

/** Every command, as the full CLI registers them. */
export const fullCommands: ReadonlyArray<CommandClass> = [...commands, VersionCommand];

/**
 * The commands an argv whose first word is `first` is parsed by before the full CLI, or none. Paths are fixed and
 * disjoint, so a parse that succeeds is the one the full CLI makes; the commands that describe the whole CLI (its
 * help, its completion) need every command registered, so they are the full CLI's.
 */
export function namedCommands(first: string | undefined): ReadonlyArray<CommandClass> {
  const named = commands.filter((c) => c.paths?.some((path) => path[0] === first));
  return named.some((c) => describingCommands.has(c)) ? [] : named;
}

/** A clipanion CLI with these commands registered. */
export function buildCli(registered: ReadonlyArray<CommandClass>, options: { binaryVersion: string; enableColors: boolean }): DropkitCli {
  const cli = new DropkitCli({ binaryName: "dropkit", binaryLabel: "dropkit", ...options });
  for (const command of registered) cli.register(command);
  return cli;
}

/**
 * Every CLI this bundle can build, as a run builds it: one for each first word that names commands, and the full
 * one unless the bundle holds only some commands. scripts/build-cli.mjs ships their parsers in the bundle
 * (./machines.ts), and test/system/parsers.test.ts checks them against clipanion's.
 */
export function everyCli(): DropkitCli[] {
  const firsts = new Set(commands.flatMap((c) => (c.paths ?? []).map((path) => path[0])));
  const lists = [...firsts].map(namedCommands).filter((named) => named.length > 0);
  if (!partialCli) lists.push(fullCommands);
  return lists.map((registered) => buildCli(registered, { binaryVersion: "", enableColors: false }));
}
