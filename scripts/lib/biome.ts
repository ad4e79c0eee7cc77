// Biome's layout of a generated file's text, so that what a script writes is what `biome format` would leave.

import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** `text` as Biome lays out the file `file` (a path in the repository, which decides the language and the settings). */
export function formatted(file: string, text: string): string {
  const biome = path.join(root, "node_modules", ".bin", "biome");
  const result = spawnSync(biome, ["format", `--stdin-file-path=${file}`], { cwd: root, input: text, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`biome format ${file} failed:\n${result.stderr}`);
  return result.stdout;
}
