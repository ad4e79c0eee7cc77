// src/ and assembly/ have no import cycle: every static import (type-only ones too) runs one way, so each module can be read,
// tested and bundled after the ones it imports. A dynamic import() is a load on first use, not part of the graph.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";

const src = path.join(import.meta.dirname, "../../src");
const assembly = path.join(import.meta.dirname, "../../assembly");

/**
 * Each module's relative static imports and re-exports, as paths of `root` (src/ by default). Specifiers name a
 * module by `.js` in src/ and by no extension in assembly/ (asc's resolution): both become the `.ts` file.
 */
function importGraph(root = src): Map<string, string[]> {
  const files = fs
    .readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => f.split(path.sep).join("/"));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    const specifiers = [...text.matchAll(/^\s*(?:import|export)\b(?:[^;]*?\bfrom\s*)?["'](\.{1,2}\/[^"']+)["']/gm)].map((m) => m[1]!);
    graph.set(
      file,
      specifiers.map((s) => path.posix.join(path.posix.dirname(file), s).replace(/\.js$|(?<!\.ts)$/, ".ts")),
    );
  }
  return graph;
}

/** The cycles of `graph`, each as the modules around it, the first repeated at the end. */
function cyclesOf(graph: ReadonlyMap<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

test("the check finds a cycle, type-only or not, and reads every module of src/", () => {
  assert.deepEqual(
    cyclesOf(
      new Map([
        ["a.ts", ["b.ts"]],
        ["b.ts", ["c.ts"]],
        ["c.ts", ["a.ts"]],
      ]),
    ),
    [["a.ts", "b.ts", "c.ts", "a.ts"]],
  );
  const graph = importGraph();
  assert.ok(graph.size > 70, `only ${graph.size} modules read`);
  assert.ok(graph.get("cli/help.ts")?.includes("cli/commands/clipanion.ts"), "a value import is read");
  assert.ok(graph.get("cli/usage.ts")?.includes("output/log.ts"), "a type-only import is read");
  for (const [file, imports] of graph) for (const target of imports) assert.ok(graph.has(target), `${file} imports ${target}, not found`);
});

test("src/ has no import cycle", () => {
  assert.deepEqual(cyclesOf(importGraph()), []);
});

test("assembly/ has no import cycle, and the check reads every module of it", () => {
  const graph = importGraph(assembly);
  assert.ok(graph.size > 30, `only ${graph.size} modules read`);
  assert.ok(graph.get("index.ts")?.includes("abi/ops.ts"), "an import from a folder below is read");
  assert.ok(graph.get("schema/validate.ts")?.includes("json/tape.ts"), "an import from a sibling folder is read");
  for (const [file, imports] of graph) for (const target of imports) assert.ok(graph.has(target), `${file} imports ${target}, not found`);
  assert.deepEqual(cyclesOf(graph), []);
});
