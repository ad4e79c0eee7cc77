// assembly/ by part: index.ts (asc's entry) declares only the exports, and every other module of the core is in one of
// the folders assembly/README.md lists, each with a README saying what it owns.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";

const assembly = path.join(import.meta.dirname, "../../assembly");

/** The folders assembly/README.md lists, as `[json/](json/README.md)`. */
function listedFolders(): string[] {
  const readme = fs.readFileSync(path.join(assembly, "README.md"), "utf8");
  return [...readme.matchAll(/^- \[(\w+)\/\]\(\1\/README\.md\)/gm)].map((m) => m[1]!);
}

test("assembly/ holds index.ts, its README and the folders its README lists, each with a README of its own", () => {
  const folders = listedFolders();
  assert.ok(folders.length >= 4, `assembly/README.md lists only ${folders.join(", ")}`);
  const entries = fs.readdirSync(assembly).sort();
  assert.deepEqual(entries, ["README.md", "index.ts", ...folders].sort(), "assembly/ has a file or folder its README does not list");
  for (const folder of folders) {
    const files = fs.readdirSync(path.join(assembly, folder));
    assert.ok(
      files.some((f) => f.endsWith(".ts")),
      `assembly/${folder}/ has no module`,
    );
    for (const file of files)
      assert.ok(file.endsWith(".ts") || file === "README.md", `assembly/${folder}/${file} is neither a module nor the README`);
    const readme = fs.readFileSync(path.join(assembly, folder, "README.md"), "utf8");
    assert.match(
      readme,
      new RegExp(`^# assembly/${folder}: \\S`),
      `assembly/${folder}/README.md does not start by saying what the folder owns`,
    );
  }
});

test("assembly/index.ts declares nothing but the exported functions of the ABI", () => {
  const text = fs.readFileSync(path.join(assembly, "index.ts"), "utf8");
  // What starts at column 0 is a declaration, an import, a comment or a closing brace; bodies are indented.
  const tops = text.split("\n").filter((line) => /^\S/.test(line) && !/^(\/\/|\/\*\*| \*|\}$)/.test(line));
  assert.ok(tops.length >= 6, `only ${tops.length} top-level lines read`);
  for (const line of tops)
    assert.match(line, /^(import \{[^}]*\} from "\.\/\w+\/\w+";|export function dk_\w+\()/, `index.ts declares more than exports: ${line}`);
});

test("Biome leaves out exactly the modules of assembly/ with a decorator outside a class, which its parser refuses", () => {
  const biome = JSON.parse(fs.readFileSync(path.join(assembly, "../biome.json"), "utf8")) as { files: { includes: string[] } };
  const left = biome.files.includes.filter((p) => p.startsWith("!assembly/")).map((p) => p.slice("!".length));
  const decorated = fs
    .readdirSync(assembly, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .filter((f) => /^@\w+/m.test(fs.readFileSync(path.join(assembly, f), "utf8")))
    .map((f) => `assembly/${f.split(path.sep).join("/")}`);
  assert.ok(decorated.length > 0, "no module with @inline or @noinline at the top level found");
  assert.deepEqual(
    left.sort(),
    decorated.sort(),
    "biome.json's list of the modules it leaves out of assembly/ is not the list of those it cannot parse",
  );
});
