// Module hooks that run the repository's .ts files on Node: transpiled by esbuild as tsx does, kept in a cache on disk,
// without tsx's start-up in each of the processes a test run starts.

import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository, with its trailing separator. */
const root = fileURLToPath(new URL("../../", import.meta.url));
/** What esbuild reads of the root tsconfig.json (class fields, imports kept or elided), as tsx hands it the nearest one. */
const tsconfigRaw = readFileSync(path.join(root, "tsconfig.json"), "utf8");
const esbuildVersion = JSON.parse(readFileSync(path.join(root, "node_modules/esbuild/package.json"), "utf8")).version;
/**
 * One entry per module of the repository, its first line the hash of the text it was made from. Modules elsewhere (the
 * fixtures tests write to temporary folders, new in every run) are transpiled each time: the cache holds no more entries
 * than the repository has modules.
 */
const cache = path.join(root, "node_modules/.cache/dropkit-test-ts");

/** esbuild, loaded at the first module the cache has no entry for. */
let esbuild;

const sha256 = (text) => createHash("sha256").update(text).digest("hex");

export async function resolve(specifier, context, nextResolve) {
  // NodeNext's rule, which tsc checks in src/: a relative import names the .js file a .ts module becomes. As tsc and
  // tsx, the .ts module is taken where there is one, even beside a .js file.
  if (specifier.endsWith(".js") && /^\.\.?\//.test(specifier) && context.parentURL?.startsWith("file:")) {
    const ts = new URL(`${specifier.slice(0, -3)}.ts`, context.parentURL);
    if (existsSync(ts)) return { url: ts.href, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

/** How esbuild transpiles `file`. */
const optionsFor = (file) => ({
  loader: "ts",
  format: "esm",
  target: `node${process.versions.node}`,
  sourcemap: "inline",
  sourcefile: file,
  tsconfigRaw,
});

/** The cache's entry for `file`, or undefined for a module outside the repository. */
export function cacheEntry(file) {
  if (!file.startsWith(root)) return undefined;
  return path.join(cache, `${sha256(`${esbuildVersion}\0${JSON.stringify(optionsFor(file))}`)}.js`);
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith("file:") || !new URL(url).pathname.endsWith(".ts")) return nextLoad(url, context);
  const file = fileURLToPath(url);
  const text = readFileSync(file, "utf8");
  const entry = cacheEntry(file);
  const header = `// ${sha256(text)}\n`;
  const cached = entry && existsSync(entry) ? readFileSync(entry, "utf8") : "";
  if (cached.startsWith(header)) return { format: "module", source: cached.slice(header.length), shortCircuit: true };
  esbuild ??= await import("esbuild");
  const { code } = await esbuild.transform(text, optionsFor(file));
  if (entry) {
    // Written whole under another name first: a process reading the entry at the same time finds all of it, or the old one.
    mkdirSync(cache, { recursive: true });
    const temp = `${entry}.${randomBytes(6).toString("hex")}.tmp`;
    writeFileSync(temp, header + code);
    renameSync(temp, entry);
  }
  return { format: "module", source: code, shortCircuit: true };
}
