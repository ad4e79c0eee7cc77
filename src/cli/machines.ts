// clipanion's parsers (state machines) computed ahead of time (./machines-full.ts, ./machines-config.ts), and used by a CLI built
// from exactly the same commands instead of compiling them at every start-up.

/**
 * What clipanion's CommandBuilder holds once a command is registered: everything compiling its machine reads
 * (clipanion 3.2.1, node_modules/clipanion/lib/core.js).
 */
export interface MachineBuilder {
  cliIndex: number;
  cliOpts: { binaryName: string };
  paths: string[][];
  arity: { leading: string[]; trailing: string[]; extra: string[] | symbol; proxy: boolean };
  options: Array<{ names: string[]; arity: number; hidden: boolean; required: boolean }>;
  allOptionNames: string[];
  context?: unknown;
}

/** A transition's test or reducer: a name, or a name and its arguments. */
type Callback = string | unknown[];
export type Transition = { to: number; reducer: Callback | undefined };
export type MachineNode = { dynamics: Array<[Callback, Transition]>; shortcuts: Transition[]; statics: Record<string, Transition[]> };
/** A state machine as clipanion's CliBuilder compiles it. */
export type Machine = { nodes: MachineNode[] };
/** A node's dynamic transitions, as the generated tables declare each distinct list once. */
export type Dynamics = Array<[Callback, Transition]>;

/** A transition, as the generated tables write one. */
export const T = (to: number, reducer: Callback | undefined): Transition => ({ to, reducer });
/** A node with its own copy of a list of dynamic transitions (clipanion adds to a node's list while parsing). */
export const N = (dynamics: Dynamics, statics: MachineNode["statics"], shortcuts: Transition[] = []): MachineNode => ({
  dynamics: dynamics.slice(),
  shortcuts,
  statics,
});

/**
 * Everything compiling these builders' machine reads, and only that: the command's index and the binary's name, its
 * paths, its positional arguments, and each option's names, arity, and whether it is hidden or required. Two CLIs
 * with the same key compile the same machine, up to the arrays of its builders a machine holds (option names,
 * options with their descriptions and whether they bind a value): parsing reads those, and a shipped machine takes
 * them from the builders it is given, as compiling does.
 */
export function machineKey(builders: ReadonlyArray<MachineBuilder>): string {
  return JSON.stringify(
    builders.map((b) => [
      b.cliIndex,
      b.cliOpts.binaryName,
      b.paths,
      b.arity.leading,
      b.arity.trailing,
      // Anything but a list of optional names is clipanion's NoLimits (a rest or a proxy).
      Array.isArray(b.arity.extra) ? b.arity.extra : null,
      b.arity.proxy,
      b.options.map((o) => [o.names, o.arity, o.hidden, o.required]),
    ]),
  );
}

/** A shipped machine: a function of the builders it was computed from, which returns it holding their own arrays. */
export type ShippedMachine = (builders: ReadonlyArray<MachineBuilder>) => Machine;
/** The shipped machines of a list of commands, by their builders' key (machineKey). */
export type MachineTable = ReadonlyMap<string, ShippedMachine>;

/**
 * The machine shipped for exactly these builders, or undefined: then clipanion compiles one. A builder without a
 * context gets none, so that compiling fails as clipanion's does.
 */
export function shippedMachine(builders: ReadonlyArray<MachineBuilder>, table: MachineTable): Machine | undefined {
  if (builders.some((b) => b.context === undefined)) return undefined;
  return table.get(machineKey(builders))?.(builders);
}
