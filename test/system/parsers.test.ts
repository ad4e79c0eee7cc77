// The parsers shipped in the built bundles (src/cli/machines.ts): each is exactly the machine the bundle's clipanion compiles for its CLI.
// clipanion uses it, and a CLI built from other commands gets a parser compiled for it.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, test } from "node:test";
import { cliPath, fixture } from "../helpers/cli.js";

const drop = fixture({ "dropkit.config.json": '{"theme":"ocean"}' });

/**
 * Runs the bin with `args` (which choose the bundle: `config` the config command's own, anything else the full
 * CLI's) and, at exit, `check`: a function of that bundle's exports (`everyCli`, `shippedMachine`), as text; returns
 * what it returned.
 */
function inBundle(args: string[], check: string): any {
  const result = spawnSync(
    process.execPath,
    [
      "-e",
      `process.argv = [process.argv[0], ${JSON.stringify(cliPath)}, ...${JSON.stringify(args)}];
const bin = require(${JSON.stringify(cliPath)});
process.on("exit", () => {
  const exported = bin.bundleExports[bin.bundles[0]];
  process.stderr.write("\\nRESULT " + JSON.stringify((${check})(exported, require("node:assert"))) + "\\n");
});`,
    ],
    { cwd: drop, env: { PATH: process.env.PATH ?? "", HOME: "/nonexistent", GIT_CEILING_DIRECTORIES: drop }, encoding: "utf8" },
  );
  const line = /^RESULT (.*)$/m.exec(result.stderr);
  assert.ok(line, `no result: exit ${result.status}\n${result.stderr}`);
  return JSON.parse(line[1]!);
}

/**
 * For every CLI the bundle builds: its commands' first paths, whether a machine is shipped for it, whether that
 * machine deep-equals the one clipanion compiles (true, or the difference), and whether clipanion's compile()
 * returned it without compiling (compileMachine made to throw).
 */
const everyParser = `(bundle, assert) => bundle.everyCli().map((cli) => {
  const { builder } = cli;
  const shipped = bundle.shippedMachine(builder.builders);
  let equal = true;
  try { assert.deepStrictEqual(shipped, builder.compileMachine().machine); } catch (error) { equal = error.message; }
  builder.compileMachine = () => { throw new Error("compiled"); };
  let used = true;
  try { assert.deepStrictEqual(builder.compile().machine, shipped); } catch (error) { used = error.message; }
  return { commands: builder.builders.map((b) => b.paths[0].join(" ")), shipped: shipped !== undefined, equal, used };
})`;

describe("the parsers shipped in the bundles", () => {
  test("the config command's bundle: its one CLI's machine is clipanion's, and is used", () => {
    assert.deepEqual(inBundle(["config", "--version"], everyParser), [{ commands: ["config"], shipped: true, equal: true, used: true }]);
  });

  test("the full bundle: each command a user can name alone, and every command with --version, each machine clipanion's and used", () => {
    const parsers = inBundle(["--version"], everyParser);
    assert.deepEqual(
      parsers.map((p: { commands: string[] }) => p.commands),
      [["create"], ["config"], ["init"], ["lsp"], ["create", "config", "init", "help", "completion", "lsp", "-v"]],
    );
    for (const parser of parsers) assert.deepEqual(parser, { ...parser, shipped: true, equal: true, used: true });
  });

  test("a CLI whose commands differ from the ones its machine was computed from gets a machine compiled for it", () => {
    const result = inBundle(
      ["--version"],
      `(bundle) => {
        const parse = (change, argv) => {
          const cli = bundle.everyCli().find((c) => c.builder.builders.length === 1 && c.builder.builders[0].paths[0][0] === "config");
          const [builder] = cli.builder.builders;
          change(builder, cli);
          const shipped = bundle.shippedMachine(cli.builder.builders) !== undefined;
          try {
            return { shipped, options: cli.builder.compile().process(argv).options };
          } catch (error) {
            return { shipped, error: error.message.split("\\n")[0] };
          }
        };
        return {
          unchanged: parse(() => {}, ["config", "--explain"]),
          flag: parse((b) => (b.options.find((o) => o.names[0] === "--explain").arity = 0), ["config", "--explain"]),
          added: parse((b) => b.addOption({ names: ["--extra"] }), ["config", "--extra"]),
          path: parse((b) => b.addPath(["cfg"]), ["cfg"]),
        };
      }`,
    );
    // As shipped, --explain takes a value.
    assert.deepEqual(result.unchanged, { shipped: true, error: "Not enough arguments to option --explain." });
    assert.deepEqual(result.flag, { shipped: false, options: [{ name: "--explain", value: true }] });
    assert.deepEqual(result.added, { shipped: false, options: [{ name: "--extra", value: true }] });
    assert.deepEqual(result.path, { shipped: false, options: [] });
  });
});
