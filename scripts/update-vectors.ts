// Regenerates the expected responses of test/vectors/*.json from the current core (review every diff by eye).

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openAbi } from "./lib/abi.js";

const dir = fileURLToPath(new URL("../test/vectors/", import.meta.url));
const abi = openAbi();
let changed = 0;
for (const file of fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort()) {
  const full = path.join(dir, file);
  const vector = JSON.parse(fs.readFileSync(full, "utf8")) as { name: string; request: unknown; status?: number; response: unknown };
  const { status, text } = abi.call(JSON.stringify(vector.request));
  const next = { name: vector.name, request: vector.request, status, response: JSON.parse(text) };
  const out = JSON.stringify(next, null, 2) + "\n";
  if (out !== fs.readFileSync(full, "utf8")) {
    fs.writeFileSync(full, out);
    changed++;
    console.log(`updated ${file}`);
  }
}
console.log(`${changed} vector(s) changed`);
