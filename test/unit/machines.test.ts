// Tests for src/cli/machines.ts, machines-encode.ts and the tables generated with them: a shipped parser is clipanion's own,
// is used only for the commands it was computed from, and the committed tables are the ones the commands make.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { generatedTables } from "../../scripts/build/machines.js";
import { everyCli } from "../../src/cli/clis.js";
import * as configOnly from "../../src/cli/commands/config-only.js";
import type { DropkitCli } from "../../src/cli/help.js";
import { type Machine, type MachineBuilder, machineKey, shippedMachine } from "../../src/cli/machines.js";
import { shippedMachines as configTable } from "../../src/cli/machines-config.js";
import { shippedMachines as fullTable } from "../../src/cli/machines-full.js";

type Builder = MachineBuilder & { options: Array<MachineBuilder["options"][number] & { description?: string; allowBinding: boolean }> };
/** clipanion's CliBuilder, as far as these tests use it (compileMachine: patches/clipanion+3.2.1.patch). */
type CliBuilder = { builders: Builder[]; compile(): { machine: Machine }; compileMachine(): { machine: Machine } };
const builderOf = (cli: DropkitCli) => (cli as unknown as { builder: CliBuilder }).builder;

/** Every CLI the bin builds, the full one with the most commands and options. */
const clis = () => everyCli();
const full = () => clis().at(-1)!;
const table = fullTable;

describe("shipped parsers", () => {
  test("the generated tables are up to date: what scripts/build/machines.ts writes for today's commands (npm run build:cli)", () => {
    const root = path.join(import.meta.dirname, "../..");
    for (const { file, text } of generatedTables()) assert.equal(fs.readFileSync(path.join(root, file), "utf8"), text, `${file} is stale`);
  });

  test("each CLI's shipped machine is the one clipanion compiles, is the one it parses with, and holds its builders' own option arrays", () => {
    assert.equal(fullTable.size, 5, "create, config, init and lsp alone, and the full CLI");
    assert.equal(configTable.size, 1, "config alone");
    for (const [cli, shippedIn] of [
      ...clis().map((c) => [c, fullTable] as const),
      ...everyCli(configOnly).map((c) => [c, configTable] as const),
    ]) {
      const { builders } = builderOf(cli);
      const shipped = shippedMachine(builders, shippedIn);
      assert.ok(shipped, `a machine for ${builders.map((b) => b.paths[0]).join(", ")}`);
      assert.deepStrictEqual(shipped, builderOf(cli).compileMachine().machine);
      builderOf(cli).compileMachine = () => assert.fail("compiled, not shipped");
      assert.deepStrictEqual(builderOf(cli).compile().machine, shipped);
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
    test(`${what} changed: no machine is shipped for it, and clipanion compiles one`, () => {
      const cli = full();
      const { builders } = builderOf(cli);
      const key = machineKey(builders);
      change(builders);
      assert.notEqual(machineKey(builders), key);
      assert.equal(shippedMachine(builders, table), undefined);
      const compiled = { nodes: [] };
      builderOf(cli).compileMachine = () => ({ machine: compiled });
      assert.equal(builderOf(cli).compile().machine, compiled, "compile() compiles the machine");
    });
  }

  // These change what parsing reads from the builders' own arrays, which the shipped machine holds as compiling does.
  const live: Array<[string, (b: Builder[]) => void]> = [
    ["an option's description", (b) => (b[1]!.options[0]!.description = "another")],
    ["whether an option binds a value", (b) => (b[1]!.options[0]!.allowBinding = false)],
    ["the option names the batch and bound tests read", (b) => b[1]!.allOptionNames.push("-x")],
  ];
  for (const [what, change] of live) {
    test(`${what} changed: the shipped machine is the one clipanion compiles for the changed commands`, () => {
      const builder = builderOf(full());
      const key = machineKey(builder.builders);
      change(builder.builders);
      assert.equal(machineKey(builder.builders), key);
      assert.deepStrictEqual(shippedMachine(builder.builders, table), builder.compileMachine().machine);
    });
  }

  test("a builder without a command attached gets no machine: compiling fails as clipanion's does", () => {
    const { builders } = builderOf(full());
    builders[0]!.context = undefined;
    assert.equal(shippedMachine(builders, table), undefined);
  });
});
