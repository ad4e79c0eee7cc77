// Writing clipanion's parsers as code: scripts/build/machines.ts generates ./machines-full.ts and ./machines-config.ts with it,
// the machine of every CLI a list of commands builds (./machines.ts looks them up).

import { type Machine, type MachineBuilder, machineKey, type Transition } from "./machines.js";

/** What a CLI gives the encoding: its builders, and clipanion's compile of them (patches/clipanion+3.2.1.patch). */
export interface CompiledCli {
  builder: { builders: MachineBuilder[]; compileMachine?(): { machine: Machine } };
}

/**
 * The source of a generated table (./machines-full.ts): the machine of each of these CLIs, as clipanion compiles it,
 * by its builders' key (a CLI built twice is shipped once), under `header`.
 */
export function machinesModuleSource(clis: ReadonlyArray<CompiledCli>, header: string): string {
  const table = new Map<string, string>();
  for (const { builder } of clis) {
    // Never the shipped machine: a table computed from the one it replaces would never change.
    if (typeof builder.compileMachine !== "function")
      throw new Error("clipanion is not patched (no CliBuilder.compileMachine): run npx patch-package, see patches/README.md");
    table.set(machineKey(builder.builders), machineSource(builder.compileMachine().machine, builder.builders));
  }
  const entries = [...table].map(([key, source]) => `  [${stringLiteral(key)}, ${source}],\n`).join("");
  return `${header}

import { type Dynamics, N, type ShippedMachine, T } from "./machines.js";

export const shippedMachines: ReadonlyMap<string, ShippedMachine> = new Map<string, ShippedMachine>([\n${entries}]);
`;
}

/**
 * A machine these builders compiled, as the source of a function of the builders (`b`) that makes it again: each
 * distinct test and reducer once (`v0`...), with the builders' own arrays where the machine holds them; each
 * distinct list of dynamic transitions once (`l0`...); then the nodes. V8 makes this from the literals in its code
 * cache several times faster than it parses the same data as JSON and rebuilds it. Throws on anything it cannot
 * carry exactly (a value that is not plain data, a statics object with another prototype), so that a clipanion
 * whose machines change shape fails the build instead of shipping a machine that differs.
 */
export function machineSource(machine: Machine, builders: ReadonlyArray<MachineBuilder>): string {
  const references = new Map<unknown, string>();
  for (const [index, b] of builders.entries()) {
    references.set(b.allOptionNames, `b[${index}].allOptionNames`);
    references.set(b.options, `b[${index}].options`);
    for (const [k, option] of b.options.entries()) references.set(option.names, `b[${index}].options[${k}].names`);
  }
  const values: string[] = [];
  const valueNames = new Map<string, string>();
  const value = (callback: unknown): string =>
    callback === undefined ? "undefined" : named(literal(callback, references), "v", values, valueNames);
  const transition = ({ to, reducer }: Transition): string => `T(${to},${value(reducer)})`;
  const lists: string[] = [];
  const listNames = new Map<string, string>();
  const nodes = machine.nodes.map((node) => {
    if (Object.getPrototypeOf(node.statics) !== Object.prototype)
      throw new Error("clipanion's statics changed shape: update src/cli/machines-encode.ts");
    const dynamics = node.dynamics.map(([test, to]) => `[${value(test)},${transition(to)}]`);
    const list = named(`[${dynamics.join(",")}]`, "l", lists, listNames);
    const statics = Object.entries(node.statics).map(
      ([segment, transitions]) => `${JSON.stringify(segment)}:[${transitions.map(transition).join(",")}]`,
    );
    const shortcuts = node.shortcuts.length > 0 ? `,[${node.shortcuts.map(transition).join(",")}]` : "";
    return `N(${list},{${statics.join(",")}}${shortcuts})`;
  });
  const declare = (prefix: string, texts: string[], type: string) =>
    texts.length > 0 ? `const ${texts.map((text, i) => `${prefix}${i}${type}=${text}`).join(",")};` : "";
  return `(b)=>{${declare("v", values, "")}${declare("l", lists, ": Dynamics")}return{nodes:[${nodes.join(",")}]}}`;
}

/** The name of the constant holding `text` (`prefix` and its index in `texts`), declared once. */
function named(text: string, prefix: string, texts: string[], names: Map<string, string>): string {
  let name = names.get(text);
  if (name === undefined) names.set(text, (name = `${prefix}${texts.push(text) - 1}`));
  return name;
}

/** `value` as a JavaScript literal, with the builders' arrays as the expressions `references` gives. */
function literal(value: unknown, references: ReadonlyMap<unknown, string>): string {
  const reference = references.get(value);
  if (reference !== undefined) return reference;
  if (typeof value === "string") return stringLiteral(value);
  if (typeof value === "boolean" || value === null) return JSON.stringify(value);
  // JSON would write NaN and the infinities as null, and -0 as 0.
  if (typeof value === "number" && Number.isFinite(value) && !Object.is(value, -0)) return String(value);
  if (Array.isArray(value)) return `[${value.map((item) => literal(item, references)).join(",")}]`;
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype && !Object.hasOwn(value, "__proto__"))
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${literal(item, references)}`)
      .join(",")}}`;
  throw new Error(`clipanion's machine holds ${String(value)}, which the shipped machines cannot carry: update src/cli/machines-encode.ts`);
}

/** `text` as a string literal, in pieces of at most 100 characters joined by `+`: no line of the module is longer than the formatter's. */
function stringLiteral(text: string): string {
  return (text.match(/.{1,100}/gs) ?? [""]).map((piece) => JSON.stringify(piece)).join(" + ");
}
