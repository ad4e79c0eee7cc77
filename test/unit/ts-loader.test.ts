// What the tiers' loader of .ts files (test/loader/) must do as tsx did: NodeNext's .js specifiers, an edit seen, stacks on the .ts text.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { cacheEntry } from "../loader/hooks.mjs";
import { tempDir } from "../helpers/temp.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** Whether this process runs the loader (not tsx, with which a single file may be run by hand). */
const skip = !process.execArgv.some((arg) => arg.endsWith("test/loader/register.mjs")) && "this process does not run test/loader/";

test("a relative import of x.js loads x.ts where there is one, as tsc reads it, and x.js where there is not", { skip }, async () => {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, "main.ts"), 'export { a } from "./a.js";\nexport { b } from "./b.js";\nexport { c } from "./c.js";\n');
  for (const name of ["a.ts", "b.ts", "b.js", "c.js"]) {
    fs.writeFileSync(path.join(dir, name), `export const ${name[0]}${name.endsWith(".ts") ? ": string" : ""} = "${name}";\n`);
  }
  assert.deepEqual({ ...(await import(pathToFileURL(path.join(dir, "main.ts")).href)) }, { a: "a.ts", b: "b.ts", c: "c.js" });
});

test("a module of the repository edited since it was last transpiled runs its new text, its cache entry made again", { skip }, async () => {
  // Below the repository, as its own modules are (a fixture elsewhere is never cached), in a folder of this run's own.
  const parent = path.join(root, "node_modules/.cache/dropkit-test-ts-fixtures");
  fs.mkdirSync(parent, { recursive: true });
  const file = path.join(fs.mkdtempSync(path.join(parent, "edit-")), "m.ts");
  const entry = cacheEntry(file)!;
  try {
    for (const value of [1, 2, 1]) {
      fs.writeFileSync(file, `export const value: number = ${value};\n`);
      // Another URL each time: the module map keeps what it loaded by URL, the cache by file.
      assert.equal((await import(`${pathToFileURL(file).href}?${value}-${Math.random()}`)).value, value);
      assert.match(fs.readFileSync(entry, "utf8"), new RegExp(`value = ${value};`));
    }
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    fs.rmSync(entry, { force: true });
  }
});

test("a stack trace names the line and column in the .ts text, which erased types and interfaces make differ from the JavaScript", {
  skip,
}, async () => {
  const file = path.join(tempDir(), "throws.ts");
  const text = "interface Shape {\n  a: number;\n}\nexport function fail(shape: Shape): never {\n  throw new Error(String(shape.a));\n}\n";
  fs.writeFileSync(file, text);
  const { fail } = await import(pathToFileURL(file).href);
  assert.throws(
    () => fail({ a: 1 }),
    (e: Error) => /\/throws\.ts:5:9\)$/m.test(e.stack!),
  );
});
