// The dependencies as installed carry the patches of patches/ (applied by patch-package at install): what tsx runs
// from src/ is what the bundles hold.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { Cli } from "clipanion";

const root = path.join(import.meta.dirname, "../..");
const patches = fs.readdirSync(path.join(root, "patches")).filter((name) => name.endsWith(".patch"));

test("every patch in patches/ is applied to node_modules: it reverses cleanly, and does not apply again", () => {
  assert.deepEqual(patches.sort(), ["clipanion+3.2.1.patch"]);
  for (const patch of patches) {
    const apply = (...flags: string[]) =>
      spawnSync("git", ["apply", "--check", ...flags, path.join("patches", patch)], { cwd: root, encoding: "utf8" });
    const reversed = apply("--reverse");
    assert.equal(reversed.status, 0, `${patch} is not applied (run npx patch-package): ${reversed.stderr}`);
    assert.notEqual(apply().status, 0, `${patch} could be applied again`);
  }
});

test("clipanion as installed: a lazy default context, and a compile that takes a shipped machine", async () => {
  for (const name of ["stdin", "stdout", "stderr", "colorDepth"])
    assert.equal(typeof Object.getOwnPropertyDescriptor(Cli.defaultContext, name)?.get, "function", `defaultContext.${name} is a getter`);
  const cli = new Cli({ binaryName: "x" });
  const builder = (cli as unknown as { builder: { shippedMachine?: () => unknown; compile(): { machine: unknown } } }).builder;
  const machine = { nodes: [] };
  builder.shippedMachine = () => machine;
  assert.equal(builder.compile().machine, machine);
});
