// Finding the config file: --config, DROPKIT_CONFIG, or the walk up from the working directory (SPEC section 3).

import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, realpathSync } from "node:fs";
import path from "node:path";
import { fail } from "../errors.js";
import { describeNonFile } from "../files/found.js";
import { isFile, statOrNull } from "../files/fsutil.js";
import { judge, openJudged, type JudgedFile, type OpenedFile } from "../files/judged.js";
import { limits, readOpened } from "../files/limits.js";
import type { FolderListing } from "../files/listing.js";
import { nearMissesIn, nearMissesInDotConfig, type NearMiss } from "./lookalikes.js";
import {
  distrustOfDirectory,
  distrustOfPath,
  realPathOf,
  trustPolicy,
  untrusted,
  untrustedCandidateWarning,
  type TrustPolicy,
  type TrustScope,
} from "../files/trust.js";
import type { Env } from "../types.js";
import { dropkitKeyInText } from "./dropkitkey.js";

/** The form of a config file, which decides how it is loaded. */
export type ConfigFormat = "ts" | "js" | "json" | "package.json";

/** Why the walk up stopped; `untrusted`: the next directory up is owned by someone else or writable by others (src/files/trust.ts). */
export type StopReason = "found" | "repository-root" | "ceiling" | "filesystem-root" | "untrusted";

/** The result of looking for a config: which file (if any), how it was chosen, and what was searched. */
export interface Discovery {
  /** Absolute path of the config file, or `null` when there is none (which is normal). */
  file: string | null;
  /** How to load `file`; `null` when there is no file. */
  format: ConfigFormat | null;
  /** How the file was chosen: the walk up, `--config`, `DROPKIT_CONFIG`, or no config at all. */
  via: "discovery" | "flag" | "env" | "none";
  /** Every directory searched, nearest first; empty when a path was given explicitly. */
  searched: Array<{ dir: string }>;
  /**
   * Where and why the search ended. For `ceiling` and `untrusted`, `dir` is the directory that was not entered;
   * otherwise it is the last directory searched.
   */
  stop: { dir: string; reason: StopReason };
  /** Other config forms in the winning directory, which lose to `file` (worth a warning). */
  shadowed: string[];
  /**
   * Files in the searched directories that look like a config but are none of the forms discovery reads
   * (`dropkit.config.mjs`, `.dropkitrc`, `.config/dropkit.json`, ...), each with what to do (worth a warning).
   */
  nearMisses: NearMiss[];
  /** Configs in the directory the walk did not enter because it is not trusted, each with why (worth a warning). */
  untrusted: Array<{ file: string; message: string }>;
}

/**
 * What `locateConfig` found, with the config as it was opened, judged by the trust rule on that descriptor and read
 * (src/files/judged.ts): what is loaded, never the file opened again by name; `null` without a config. Kept out of
 * the public `Discovery`, whose types need no Node types and which a program may print.
 */
export interface LocatedConfig extends Discovery {
  judged: JudgedFile | null;
}

/** The file names looked for in each directory, in order of precedence (SPEC section 3). */
export const configFileNames = ["dropkit.config.ts", "dropkit.config.js", "dropkit.config.json"] as const;

/**
 * Chooses the config file: `--config` wins, then `DROPKIT_CONFIG`, then discovery from `cwd`.
 * An empty `DROPKIT_CONFIG` counts as unset (SPEC section 4).
 *
 * @param cwd - The working directory; relative explicit paths resolve against it.
 * @param env - The environment to read `DROPKIT_CONFIG` and `GIT_CEILING_DIRECTORIES` from.
 * @param flagPath - The value of `--config`, when given.
 * @param listing - A listing of `cwd` to use (and fill) instead of listing it here.
 * The config chosen must be trusted (src/files/trust.ts): a discovered one, like the directories the walk entered; an
 * explicit one, with the directory that holds it.
 *
 * @throws DropkitError `ConfigNotFound` (exit 66) when an explicit path does not exist or is not a file;
 *   `UsageError` (exit 64) when `--config` is given an empty value or one with a NUL character (or `cwd` has one),
 *   `SchemaValidationError` (exit 65) when `DROPKIT_CONFIG` has one (or `DROPKIT_SAFE_DIRECTORIES` a bad entry),
 *   `UntrustedFile` (exit 77) when the config is owned by another user or writable by others, or is in such a directory.
 */
export async function locateConfig(cwd: string, env: Env, flagPath?: string, listing?: FolderListing): Promise<LocatedConfig> {
  // No shell can pass a NUL, but a program calling loadConfig can: node:fs would throw ERR_INVALID_ARG_VALUE.
  if (cwd.includes("\0"))
    fail("UsageError", `The working directory ${JSON.stringify(cwd)} contains a NUL character (\\u0000), which no path can hold.`);
  const policy = trustPolicy(env);
  if (flagPath !== undefined) {
    if (flagPath === "") {
      fail("UsageError", "--config needs a path, e.g. --config=./dropkit.config.json", { source: "--config" });
    }
    if (flagPath.includes("\0"))
      fail(
        "UsageError",
        `--config must not contain a NUL character (\\u0000), which no file name can hold: found ${JSON.stringify(flagPath)}.`,
        { source: "--config" },
      );
    return explicitConfig(cwd, flagPath, "flag", policy);
  }
  const fromEnv = env.DROPKIT_CONFIG;
  if (fromEnv?.includes("\0")) {
    fail(
      "SchemaValidationError",
      `Invalid value in DROPKIT_CONFIG: a path must not contain a NUL character (\\u0000), which no file name can hold, found ${JSON.stringify(fromEnv)}.`,
      { source: "DROPKIT_CONFIG" },
    );
  }
  if (fromEnv !== undefined && fromEnv !== "") return explicitConfig(cwd, fromEnv, "env", policy);
  const found = await findConfig(cwd, env, listing, policy);
  if (!found.file) return { ...found, judged: null };
  const scope: TrustScope = { policy, fence: found.stop.dir };
  const read = walkReads.get(found);
  // A package.json the walk read whole is judged on that read; any other form is opened now, once.
  return { ...found, judged: read ? judge(read, scope) : openJudged(found.file, "config", scope) };
}

/** The walk's read of its winning package.json, by result: judged and loaded as it was read, not read again. */
const walkReads = new WeakMap<Discovery, OpenedFile>();

/**
 * Walks up from `cwd` looking for a config (SPEC section 3). In each directory the first of
 * `dropkit.config.ts`, `dropkit.config.js`, `dropkit.config.json`, and a `package.json` with a
 * top-level `dropkit` key wins. The walk checks the directory holding `.git` and stops there, stops at
 * the filesystem root, and never enters a directory listed in `GIT_CEILING_DIRECTORIES`.
 *
 * A `package.json` that does not parse but mentions `"dropkit"` is returned as the match, so that the
 * core can report the syntax error with its line and column.
 *
 * With a trust `policy`, the walk never enters a directory owned by another user or writable by others (src/files/trust.ts):
 * it stops below it (`untrusted`), and a config there is named in `untrusted` (for a warning). The working directory
 * itself is where the walk starts: when it is not trusted, a config in it is refused and the walk goes no further.
 *
 * @param cwd - The directory to start from.
 * @param env - The environment to read `GIT_CEILING_DIRECTORIES` from.
 * @param listing - A listing of `cwd` to use (and fill) instead of listing it here.
 * @param policy - Whose directories the walk may enter; none: every directory (for `init`, which only asks
 *   whether the working directory has a config).
 * @throws DropkitError `UntrustedFile` (77) when the working directory is not trusted and holds a config.
 */
export async function findConfig(cwd: string, env: Env, listing?: FolderListing, policy?: TrustPolicy): Promise<Discovery> {
  const ceilings = ceilingDirectories(env.GIT_CEILING_DIRECTORIES);
  const searched: Array<{ dir: string }> = [];
  const nearMisses: NearMiss[] = [];
  let dir = path.resolve(cwd);
  for (;;) {
    const distrust = policy ? distrustOfDirectory(dir, policy) : null;
    if (distrust) {
      const candidates = configFormsIn(dir, listing?.covers(dir) ? listing.names() : listNames(dir));
      // The working directory: its config would have been the one, so it is refused rather than passed over.
      if (searched.length === 0 && candidates.length > 0) {
        const file = candidates[0]!.file;
        throw untrusted(file, "config", distrustOfPath(file, { policy: policy!, fence: dir }) ?? distrust, policy!);
      }
      const refused = candidates.map(({ file }) => ({ file, message: untrustedCandidateWarning(file, distrust) }));
      return { ...notFound(searched, dir, "untrusted", nearMisses), untrusted: refused };
    }
    searched.push({ dir });
    const names = listing?.covers(dir) ? listing.names() : listNames(dir);
    const found = configFormsIn(dir, names);
    if (names)
      nearMisses.push(
        ...nearMissesAround(
          dir,
          names,
          found.map((f) => f.file),
        ),
      );
    if (found.length > 0) {
      const [winner, ...others] = found;
      const result: Discovery = {
        file: winner!.file,
        format: winner!.format,
        via: "discovery",
        searched,
        stop: { dir, reason: "found" },
        shadowed: others.map((f) => f.file),
        nearMisses,
        untrusted: [],
      };
      if (winner!.read) walkReads.set(result, winner!.read);
      return result;
    }
    if ((!names || names.includes(".git")) && exists(path.join(dir, ".git"))) return notFound(searched, dir, "repository-root", nearMisses);
    const parent = path.dirname(dir);
    if (parent === dir) return notFound(searched, dir, "filesystem-root", nearMisses);
    if (ceilings.has(parent)) return notFound(searched, parent, "ceiling", nearMisses);
    dir = parent;
  }
}

/**
 * The form of a config file named explicitly: `package.json` by its base name, `.ts`/`.mts`/`.cts` is
 * TypeScript, `.js`/`.mjs`/`.cjs` is JavaScript, anything else is read as JSON.
 */
export function detectFormat(file: string): ConfigFormat {
  if (path.basename(file) === "package.json") return "package.json";
  const ext = path.extname(file).toLowerCase();
  if (ext === ".ts" || ext === ".mts" || ext === ".cts") return "ts";
  if (ext === ".js" || ext === ".mjs" || ext === ".cjs") return "js";
  return "json";
}

// --- helpers ---

function explicitConfig(cwd: string, given: string, via: "flag" | "env", policy: TrustPolicy): LocatedConfig {
  const file = path.resolve(cwd, given);
  const origin = via === "flag" ? `--config=${given}` : `DROPKIT_CONFIG=${given}`;
  const source = via === "flag" ? "--config" : "DROPKIT_CONFIG";
  const unset = via === "flag" ? "drop --config" : "unset DROPKIT_CONFIG";
  // Looked at by name only to say what is wrong; what is loaded is what the open below judges.
  const stats = statOrNull(file);
  if (!stats) {
    fail(
      "ConfigNotFound",
      `Config file not found: ${file} (from ${origin}). Check the path, or ${unset} to let dropkit discover the config.`,
      { source, file },
    );
  }
  if (stats.isDirectory()) {
    const example = path.join(file, "dropkit.config.json");
    fail(
      "ConfigNotFound",
      `Config path is a directory, not a file: ${file} (from ${origin}). Give the config file itself, e.g. ${example}.`,
      {
        source,
        file,
      },
    );
  }
  if (!stats.isFile()) {
    fail(
      "ConfigNotFound",
      `Config path is ${describeNonFile(stats)}, not a regular file: ${file} (from ${origin}). ` +
        `Give the path of a dropkit.config.json, .ts or .js file, or ${unset} to let dropkit discover the config.`,
      { source, file },
    );
  }
  const format = detectFormat(file);
  // Naming a file does not make another user's code safe to run: it is judged with the directory that holds it. A
  // file over the size limit is refused here whatever it holds, a package.json included.
  const judged = openJudged(file, "config", { policy, fence: null });
  // Named on purpose, a package.json without the key would otherwise be an empty config, used without a word.
  if (format === "package.json" && dropkitKeyInText(new TextDecoder().decode(judged.bytes)) === false) {
    fail(
      "ConfigNotFound",
      `No dropkit config in ${file} (from ${origin}): it has no top-level "dropkit" key. ` +
        `Add a "dropkit" key holding the settings, point ${source} at a dropkit.config.json, or ${unset} to let dropkit discover the config.`,
      { source, file },
    );
  }
  return {
    file,
    format,
    via,
    searched: [],
    stop: { dir: path.dirname(file), reason: "found" },
    shadowed: [],
    nearMisses: [],
    untrusted: [],
    judged,
  };
}

function notFound(searched: Array<{ dir: string }>, dir: string, reason: StopReason, nearMisses: NearMiss[]): Discovery {
  return { file: null, format: null, via: "none", searched, stop: { dir, reason }, shadowed: [], nearMisses, untrusted: [] };
}

/**
 * The entries of `dir`, read once per searched directory: they say which names exist (sparing a stat of each
 * form that is not there) and which files look like configs. `null` when the directory cannot be listed (it may
 * still be searchable), in which case every form is looked up by name.
 */
function listNames(dir: string): string[] | null {
  try {
    return readdirSync(dir);
  } catch {
    return null;
  }
}

/**
 * Whether `names` holds `name`, in any letter case: on a case-insensitive file system `Dropkit.Config.JSON` is
 * `dropkit.config.json`, and the stat that follows decides.
 */
function hasName(names: string[], name: string): boolean {
  return names.some((n) => n.length === name.length && n.toLowerCase() === name);
}

/** The near misses of a searched directory and of its `.config` folder (listed only when there is one). */
function nearMissesAround(dir: string, names: string[], found: string[]): NearMiss[] {
  const misses = nearMissesIn(dir, names, found);
  if (names.includes(".config")) {
    const dotConfig = path.join(dir, ".config");
    const inside = listNames(dotConfig);
    if (inside) misses.push(...nearMissesInDotConfig(dotConfig, inside));
  }
  return misses;
}

/**
 * Every config form present in `dir`, in order of precedence; `names` (its listing, when known) spares the stats. A
 * package.json comes with the read that decided it (when it was read whole), for the config to be judged and loaded on.
 */
function configFormsIn(dir: string, names: string[] | null = null): Array<{ file: string; format: ConfigFormat; read?: OpenedFile }> {
  const found: Array<{ file: string; format: ConfigFormat; read?: OpenedFile }> = [];
  for (const name of configFileNames) {
    if (names && !hasName(names, name)) continue;
    const file = path.join(dir, name);
    // A symbolic link that resolves to nothing (broken, a loop, unreadable) is a config that cannot be
    // loaded, not a missing one: loading it then says why, instead of silently using the defaults.
    if (isFile(file) || isDanglingLink(file)) found.push({ file, format: detectFormat(file) });
  }
  const pkg = path.join(dir, "package.json");
  if (!names || hasName(names, "package.json")) {
    const read = readPackageJson(pkg);
    if (read?.holdsKey) found.push({ file: pkg, format: "package.json", ...(read.whole ? { read: read.whole } : {}) });
  }
  return found;
}

/** How far past `limits.fileBytes` a package.json is searched for a mention of dropkit: further, it counts as one. */
const packageScanBytes = 64 * 1024 * 1024;

/**
 * A package.json on the walk, read once: whether it holds a top-level `dropkit` key, with the read itself when it is
 * within `limits.fileBytes` (the config is then judged and loaded on it). An unparsable one that mentions `"dropkit"`
 * counts, so that the core reports its syntax error. One over the limit counts when `"dropkit"` appears anywhere in
 * it (or it is too large to search), so that loading it says it is too large wherever the key lies: a limit never
 * makes a config "no config". `null`: not a regular file, or it cannot be read (an unreadable package.json higher up
 * must not break every run below it).
 */
function readPackageJson(file: string): { holdsKey: boolean; whole?: OpenedFile } | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return null;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return null;
    const { bytes, over } = readOpened(fd, stats.size, limits.fileBytes);
    if (over) return { holdsKey: bytes.includes('"dropkit"') || mentionsLater(fd, bytes) };
    const holdsKey = dropkitKeyInText(bytes.toString("utf8"));
    return holdsKey ? { holdsKey, whole: { path: file, realPath: realPathOf(fd, file), stats, bytes, role: "config" } } : { holdsKey };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Whether `"dropkit"` appears in the rest of an open file (read in pieces, each overlapping the last); true past `packageScanBytes`. */
function mentionsLater(fd: number, start: Buffer): boolean {
  const needle = Buffer.from('"dropkit"');
  const piece = Buffer.allocUnsafe(1024 * 1024);
  let carry = start.subarray(start.length - (needle.length - 1));
  for (let read = start.length; read <= packageScanBytes; ) {
    carry.copy(piece);
    const n = readSync(fd, piece, carry.length, piece.length - carry.length, null);
    if (n === 0) return false;
    const window = piece.subarray(0, carry.length + n);
    if (window.includes(needle)) return true;
    carry = Buffer.from(window.subarray(window.length - (needle.length - 1)));
    read += n;
  }
  return true;
}

/**
 * The absolute directories of GIT_CEILING_DIRECTORIES, as written and with symlinks resolved, since
 * git compares both. Relative entries are ignored, as git does.
 */
function ceilingDirectories(value: string | undefined): Set<string> {
  const dirs = new Set<string>();
  if (!value) return dirs;
  for (const entry of value.split(path.delimiter)) {
    if (entry === "" || !path.isAbsolute(entry)) continue;
    const dir = path.resolve(entry);
    dirs.add(dir);
    try {
      dirs.add(realpathSync.native(dir));
    } catch {
      // A ceiling that does not exist still applies by name.
    }
  }
  return dirs;
}

/** A symbolic link whose target cannot be reached: missing, a loop, or behind a permission. */
function isDanglingLink(file: string): boolean {
  return isSymbolicLink(file) && statOrNull(file) === null;
}

/** Whether `file` is a symbolic link itself (whatever it points to); false when it cannot be looked at. */
export function isSymbolicLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

function exists(file: string): boolean {
  return statOrNull(file) !== null;
}
