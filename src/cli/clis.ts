// The clipanion CLIs the bin builds: one holding only the command an argv names, and the full one with every command.

import type { CommandClass } from "clipanion";
import { clipanion } from "./commands/clipanion.js";
import { commands, describingCommands, partial, shippedMachines } from "./commands/index.js";
import { DropkitCli } from "./help.js";
import { type MachineBuilder, type MachineTable, shippedMachine } from "./machines.js";

const { Builtins } = clipanion;

/** `--version` and `-v` (clipanion's), and `dropkit version` as many CLIs take it: all print the version. */
export class VersionCommand extends Builtins.VersionCommand {
  static override paths = [["-v"], ["--version"], ["version"]];
}

/**
 * A list of commands as ./commands/index.ts exports it (the bundle of `dropkit config` holds ./commands/config-only.ts
 * in its place), with the parsers computed ahead of time for the CLIs built from them.
 */
export interface CommandList {
  commands: ReadonlyArray<CommandClass>;
  describingCommands: ReadonlySet<unknown>;
  partial: boolean;
  shippedMachines: MachineTable;
}

/** This bundle's commands. */
const bundled: CommandList = { commands, describingCommands, partial, shippedMachines };

/** Whether this bundle holds only some of the commands, and hands what they cannot parse to the full CLI. */
export const partialCli = partial;

/** Every command of a list, as the full CLI registers them: the one place that says so, for a run and for its parser. */
function inFullCli(listed: ReadonlyArray<CommandClass>): ReadonlyArray<CommandClass> {
  return [...listed, VersionCommand];
}

/** Every command, as the full CLI registers them. */
export const fullCommands: ReadonlyArray<CommandClass> = inFullCli(commands);

/**
 * The commands an argv whose first word is `first` is parsed by before the full CLI, or none. Paths are fixed and
 * disjoint, so a parse that succeeds is the one the full CLI makes; the commands that describe the whole CLI (its
 * help, its completion) need every command registered, so they are the full CLI's.
 */
export function namedCommands(first: string | undefined, list: CommandList = bundled): ReadonlyArray<CommandClass> {
  const named = list.commands.filter((c) => c.paths?.some((path) => path[0] === first));
  return named.some((c) => list.describingCommands.has(c)) ? [] : named;
}

/**
 * A clipanion CLI with these commands registered, parsing with the machine shipped in `table` for exactly these
 * commands (clipanion's CliBuilder consults `shippedMachine`: patches/clipanion+3.2.1.patch), else one it compiles.
 */
export function buildCli(
  registered: ReadonlyArray<CommandClass>,
  options: { binaryVersion: string; enableColors: boolean },
  table: MachineTable = shippedMachines,
): DropkitCli {
  const cli = new DropkitCli({ binaryName: "dropkit", binaryLabel: "dropkit", ...options });
  for (const command of registered) cli.register(command);
  const { builder } = cli as unknown as { builder: { shippedMachine?: (builders: ReadonlyArray<MachineBuilder>) => unknown } };
  builder.shippedMachine = (builders) => shippedMachine(builders, table);
  return cli;
}

/** The machine this bundle ships for these builders, or undefined: for test/system/parsers.test.ts, through the bin. */
export const bundledMachine = (builders: ReadonlyArray<MachineBuilder>) => shippedMachine(builders, shippedMachines);

/**
 * Every CLI a list of commands (this bundle's unless given) builds, as a run builds it: one for each first word that
 * names commands, and the full one unless the list holds only some commands. scripts/build/machines.ts generates
 * their parsers, and test/system/parsers.test.ts checks the bundles' against clipanion's.
 */
export function everyCli(list: CommandList = bundled): DropkitCli[] {
  const firsts = new Set(list.commands.flatMap((c) => (c.paths ?? []).map((path) => path[0])));
  const lists = [...firsts].map((first) => namedCommands(first, list)).filter((named) => named.length > 0);
  if (!list.partial) lists.push(inFullCli(list.commands));
  return lists.map((registered) => buildCli(registered, { binaryVersion: "", enableColors: false }, list.shippedMachines));
}
