// Tests for src/cli/machines.ts and machines-encode.ts: a shipped parser is clipanion's own, and is used only for the commands it was computed from.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { everyCli } from "../../src/cli/clis.js";
import type { DropkitCli } from "../../src/cli/help.js";
import { machinesTableSource } from "../../src/cli/machines-encode.js";
import { type MachineBuilder, type ShippedMachine, machineKey, shippedMachine } from "../../src/cli/machines.js";

type Builder = MachineBuilder & { options: Array<MachineBuilder["options"][number] & { description?: string; allowBinding: boolean }> };
/** clipanion's CliBuilder, as far as these tests use it. */
type CliBuilder = { builders: Builder[]; compile(): { machine: unknown } };
const builderOf = (cli: DropkitCli) => (cli as unknown as { builder: CliBuilder }).builder;

/** The table a bundle holding these CLIs ships (the module's text, loaded as a module). */
async function tableOf(clis: DropkitCli[]): Promise<ReadonlyMap<string, ShippedMachine>> {
  const source = machinesTableSource(clis as unknown as Parameters<typeof machinesTableSource>[0]);
  const loaded = await import(`data:text/javascript,${encodeURIComponent(source)}`);
  return loaded.shippedMachines;
}

/** Every CLI the bin builds, the full one with the most commands and options. */
const clis = () => everyCli();
const full = () => clis().at(-1)!;

describe("shipped parsers", () => {
  test("each CLI's shipped machine is the one clipanion compiles, and holds its builders' own option arrays", async () => {
    const table = await tableOf(clis());
    assert.equal(table.size, 4, "create, config and init alone, and the full CLI");
    for (const cli of clis()) {
      const { builders } = builderOf(cli);
      const shipped = shippedMachine(builders, table);
      assert.ok(shipped, `a machine for ${builders.map((b) => b.paths[0]).join(", ")}`);
      assert.deepStrictEqual(shipped, builderOf(cli).compile().machine);
      const [test] = shipped.nodes.flatMap((node) => node.dynamics).find(([test]) => Array.isArray(test) && test[0] === "isBoundOption")!;
      const index =
        (test as unknown[])[1] === builders[0]!.allOptionNames ? 0 : builders.findIndex((b) => b.allOptionNames === (test as unknown[])[1]);
      assert.ok(index >= 0, "the bound-option test holds a builder's own list of names");
      assert.equal((test as unknown[])[2], builders[index]!.options, "and its own options");
    }
  });

  // Each changes what compiling reads: the machine would differ, so none is shipped for it.
  const changes: Array<[string, (b: Builder[]) => void]> = [
    ["an option's arity", (b) => (b[1]!.options[1]!.arity = 0)],
    ["an option hidden", (b) => (b[1]!.options[0]!.hidden = true)],
    ["an option required", (b) => (b[1]!.options[0]!.required = true)],
    ["an option's name", (b) => (b[1]!.options[0]!.names = ["--configuration"])],
    ["an option added", (b) => b[1]!.options.push({ names: ["--extra"], arity: 0, hidden: false, required: false, allowBinding: true })],
    ["a path", (b) => (b[1]!.paths = [["conf"]])],
    ["a path added", (b) => b[1]!.paths.push(["cfg"])],
    ["a positional argument", (b) => b[1]!.arity.leading.push("file")],
    ["an optional positional argument", (b) => (b[3]!.arity.extra as string[]).push("more")],
    ["a rest argument", (b) => (b[1]!.arity.extra = Symbol("NoLimits"))],
    ["a proxy", (b) => (b[1]!.arity.proxy = true)],
    ["the binary's name", (b) => (b[0]!.cliOpts = { binaryName: "dk" })],
    ["the commands' order", (b) => b.reverse()],
    ["a command left out", (b) => b.pop()],
  ];
  for (const [what, change] of changes) {
    test(`${what} changed: no machine is shipped for it, and clipanion compiles one`, async () => {
      const table = await tableOf(clis());
      const cli = full();
      const { builders } = builderOf(cli);
      const key = machineKey(builders);
      change(builders);
      assert.notEqual(machineKey(builders), key);
      assert.equal(shippedMachine(builders, table), undefined);
    });
  }

  // These change what parsing reads from the builders' own arrays, which the shipped machine holds as compiling does.
  const live: Array<[string, (b: Builder[]) => void]> = [
    ["an option's description", (b) => (b[1]!.options[0]!.description = "another")],
    ["whether an option binds a value", (b) => (b[1]!.options[0]!.allowBinding = false)],
    ["the option names the batch and bound tests read", (b) => b[1]!.allOptionNames.push("-x")],
  ];
  for (const [what, change] of live) {
    test(`${what} changed: the shipped machine is the one clipanion compiles for the changed commands`, async () => {
      const table = await tableOf(clis());
      const builder = builderOf(full());
      const key = machineKey(builder.builders);
      change(builder.builders);
      assert.equal(machineKey(builder.builders), key);
      assert.deepStrictEqual(shippedMachine(builder.builders, table), builder.compile().machine);
    });
  }

  test("a builder without a command attached gets no machine: compiling fails as clipanion's does", async () => {
    const table = await tableOf(clis());
    const { builders } = builderOf(full());
    builders[0]!.context = undefined;
    assert.equal(shippedMachine(builders, table), undefined);
  });

  test("outside the bundle the table is empty and every parser is compiled", () => {
    assert.equal(shippedMachine(builderOf(full()).builders), undefined);
  });
});
