// Files that look like a dropkit config but are none of the forms discovery reads (SPEC section 3), and what to do with each.

import path from "node:path";

/** A file discovery passed over although it looks like a config, and what would make dropkit read it. */
export interface NearMiss {
  /** Absolute path of the file. */
  file: string;
  /** The config file it should become (absolute): renamed or moved when `--config` can read it as it is, else rewritten. */
  target: string;
  /** Whether `--config=<file>` reads it as it is (JavaScript, TypeScript or JSON); false for YAML, TOML and the like. */
  readable: boolean;
}

/** Extensions a config file could plausibly have, by the form dropkit would read them as. */
const scriptExtensions: Record<string, string> = { js: "js", mjs: "js", cjs: "js", ts: "ts", mts: "ts", cts: "ts" };
const jsonExtensions = new Set(["json", "jsonc", "json5"]);
const foreignExtensions = new Set(["yaml", "yml", "toml", "ini", "conf", "cfg"]);

/** The names discovery reads, which are never near misses themselves. */
const exactNames = new Set(["dropkit.config.ts", "dropkit.config.js", "dropkit.config.json"]);

/**
 * The near misses among the entries of one searched directory: `dropkit.config.<other extension>` (`.mjs`, `.cjs`,
 * `.mts`, `.cts`, `.yaml`, `.jsonc`, ...), `dropkit.<config extension>` (`dropkit.json`, `dropkit.yaml`),
 * `dropkit.config`, `.dropkitrc` and `.dropkitrc.*`, and a form in other letter case (`Dropkit.config.JSON`) that is
 * not the file discovery found. Entries of a `.config` folder are checked by `nearMissesInDotConfig`.
 *
 * @param dir - The directory.
 * @param names - Its entries, as `readdirSync` lists them.
 * @param found - The config files discovery found in `dir`.
 */
export function nearMissesIn(dir: string, names: string[], found: string[] = []): NearMiss[] {
  const foundNames = new Set(found.map((f) => path.basename(f)));
  const misses: NearMiss[] = [];
  for (const name of names) {
    if (exactNames.has(name)) continue;
    const lower = name.toLowerCase();
    // A form in other letter case is the found file itself on a case-insensitive file system (no exact name listed).
    if (exactNames.has(lower)) {
      if (!foundNames.has(lower) || names.includes(lower))
        misses.push({ file: path.join(dir, name), target: path.join(dir, lower), readable: true });
      continue;
    }
    const ext = configExtension(lower);
    if (ext !== undefined) misses.push(nearMiss(dir, name, ext));
  }
  return misses.sort(byFile);
}

/** The near misses in a directory's `.config` folder (`.config/dropkit.json`, `.config/dropkitrc`, ...), which dropkit never reads. */
export function nearMissesInDotConfig(dotConfig: string, names: string[]): NearMiss[] {
  const misses: NearMiss[] = [];
  for (const name of names) {
    const lower = name.toLowerCase();
    if (lower !== "dropkit" && !lower.startsWith("dropkit.") && !lower.startsWith("dropkitrc") && !lower.startsWith(".dropkitrc")) continue;
    if (lower.endsWith(".d.ts") || lower.endsWith(".map")) continue;
    misses.push(nearMiss(path.dirname(dotConfig), path.join(".config", name), extensionOf(lower)));
  }
  return misses.sort(byFile);
}

/**
 * The warning for one near miss: what was passed over, what dropkit reads, and what to do.
 *
 * @param cwd - The working directory, which a suggested `--config` path is relative to.
 */
export function nearMissWarning(miss: NearMiss, cwd: string): string {
  const target = path.basename(miss.target);
  const move = path.dirname(miss.file) === path.dirname(miss.target) ? `rename it to ${target}` : `move it to ${miss.target}`;
  const ext = extensionOf(miss.file.toLowerCase());
  const comments = ext === "jsonc" || ext === "json5" ? " (as JSON without comments)" : "";
  const fix = miss.readable
    ? `${move}${comments}, or pass --config=${path.relative(cwd, miss.file) || miss.file}`
    : `dropkit reads no ${ext === "yml" ? "YAML" : ext.toUpperCase()}; write it as ${target}`;
  return (
    `${miss.file} looks like a dropkit config, but dropkit reads only dropkit.config.ts, dropkit.config.js, ` +
    `dropkit.config.json or a "dropkit" key in package.json, so it is ignored: ${fix}.`
  );
}

/**
 * What to add to a syntax error in a config whose extension says it is not JSON (`--config=c.yaml`): dropkit reads
 * every config that is not `.ts`/`.js` as JSON, and reads no YAML, TOML or INI. "" for any other file.
 */
export function unreadFormatHint(file: string): string {
  const ext = extensionOf(file.toLowerCase());
  if (!foreignExtensions.has(ext)) return "";
  const name = ext === "yml" || ext === "yaml" ? "YAML" : ext.toUpperCase();
  return (
    ` ${path.basename(file)} was read as JSON: dropkit reads no ${name}. Write the config as JSON (a .json file) ` +
    `or as a .ts or .js module that exports it.`
  );
}

// --- helpers ---

/** A near miss for `name` (relative to `dir`), to become the config form its extension calls for. */
function nearMiss(dir: string, name: string, ext: string): NearMiss {
  const readable = !foreignExtensions.has(ext);
  return { file: path.join(dir, name), target: path.join(dir, `dropkit.config.${scriptExtensions[ext] ?? "json"}`), readable };
}

/** The extension of a name that looks like a config ("" for none, as in `.dropkitrc`), or `undefined` when it does not. */
function configExtension(lower: string): string | undefined {
  let ext: string;
  if (lower === "dropkit.config" || lower === ".dropkitrc" || lower === "dropkitrc") ext = "";
  else if (lower.startsWith("dropkit.config.")) ext = lower.slice("dropkit.config.".length);
  else if (lower.startsWith(".dropkitrc.")) ext = lower.slice(".dropkitrc.".length);
  else if (lower.startsWith("dropkit.")) {
    ext = lower.slice("dropkit.".length);
    // dropkit.zip is a module archive and dropkit.md a note: only config-like extensions count here.
    if (!(ext in scriptExtensions) && !jsonExtensions.has(ext) && !foreignExtensions.has(ext)) return undefined;
  } else return undefined;
  // Type declarations and source maps sit next to configs and are not configs.
  if (ext === "d.ts" || ext.endsWith(".map")) return undefined;
  return extensionOf(`x.${ext}`);
}

/** The last extension of a lower-case name, or "" for none (a leading dot, as in `.dropkitrc`, is no extension). */
function extensionOf(lower: string): string {
  const base = path.basename(lower);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1) : "";
}

function byFile(a: NearMiss, b: NearMiss): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : 0;
}
