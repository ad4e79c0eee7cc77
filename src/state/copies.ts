// The copies kept of a replaced state file, and the second name a failed run puts back.
// `.dropkit.json.legacy` of a lifted legacy file, `.dropkit.json.corrupt-<timestamp>` of an unusable one.

import { linkSync, lstatSync, readdirSync, readlinkSync, renameSync, symlinkSync, type Stats, unlinkSync } from "node:fs";
import path from "node:path";
import { readFound, sameFile } from "../files/found.js";
import { noHardLinks, syncDirectory, unlinkQuietly } from "../files/fsutil.js";
import { createFileExclusive, linkOrCopy } from "../files/staging.js";
import { tempName } from "../files/tempfile.js";
import { legacySuffix, stateFileLimits, type ReadStateResult } from "./file.js";

/** What is copied: the file as read (its stats, and its bytes when `complete`), and a name of it to stream from when not. */
export interface CopySource {
  stats: Stats;
  bytes: Buffer;
  complete: boolean;
  /** A name of the very file (the transaction's second name for it). */
  path: string;
}

/** What `keepCopies` kept. */
export interface KeptCopies {
  /** Where the legacy file's bytes are kept (made now, or already there), or `null`. */
  legacyCopy: string | null;
  /** Where an unusable file's bytes are kept, or `null`. */
  movedAside: string | null;
  /** The copies made by this call. */
  made: string[];
  warnings: string[];
}

/**
 * Keeps what a write is about to replace: a legacy file as `.legacy`, an unusable one as
 * `.corrupt-<timestamp>` (see `keepLegacyCopy`), from the bytes read (or, for a file too large to read
 * whole, from `secondName`, the transaction's second name for the very file).
 */
export async function keepCopies(file: string, previous: ReadStateResult, secondName: string, at: string): Promise<KeptCopies> {
  if (previous.kind === "corrupt") {
    const aside = await keepCorruptCopy(
      file,
      { stats: previous.stats, bytes: previous.bytes, complete: previous.complete, path: secondName },
      at,
    );
    return {
      legacyCopy: null,
      movedAside: aside,
      made: [aside],
      warnings: [`The state file ${file} is unusable (${previous.reason}); it was moved to ${aside} and a new one is written.`],
    };
  }
  if (previous.kind !== "legacy") return { legacyCopy: null, movedAside: null, made: [], warnings: [] };
  const kept = await keepLegacyCopy(file, { stats: previous.stats, bytes: previous.bytes, complete: true, path: secondName }, at);
  return { legacyCopy: kept.file, movedAside: null, made: kept.made ? [kept.file] : [], warnings: kept.warning ? [kept.warning] : [] };
}

/**
 * Removes the copies a failed run made when the state file in place holds exactly what they hold (they
 * add nothing); a copy whose original another program changed meanwhile is the only copy of those bytes,
 * and stays.
 */
export function removeRedundantCopies(file: string, previous: ReadStateResult | undefined, made: string[]): void {
  if (made.length === 0 || !previous || (previous.kind !== "legacy" && previous.kind !== "corrupt")) return;
  if (previous.kind === "corrupt" && !previous.complete) return;
  const current = readFound(file, stateFileLimits.bytes);
  if (current.kind !== "file" || !current.complete || !current.bytes.equals(previous.bytes)) return;
  for (const copy of made) unlinkQuietly(copy);
}

/**
 * Keeps the legacy file `source` as `<file>.legacy`, once: an existing copy with the same bytes is reused
 * and never overwritten. A copy with other bytes (a second legacy file, restored from a backup) stays as
 * it is, and this one goes to `<file>.legacy-<timestamp>`, with a warning. A copy is a file of its own
 * (a later change to the state file never reaches it) with the original's mode, and owner when run as root.
 *
 * @param file - The state file.
 * @param source - The legacy file as read.
 * @param at - The run's ISO time, for the timestamp.
 */
export async function keepLegacyCopy(
  file: string,
  source: CopySource,
  at: string,
): Promise<{ file: string; made: boolean; warning?: string }> {
  const first = file + legacySuffix;
  if (await copyTo(first, source)) return { file: first, made: true };
  const same = findIdentical(file, source.bytes);
  if (same) return { file: same, made: false };
  const other = await keepCopy(file, `${first}-${stamp(at)}`, source);
  return {
    file: other,
    made: true,
    warning: `${first} already holds another legacy state file and is never overwritten; this legacy file is kept as ${other}.`,
  };
}

/** Keeps an unusable state file as `<file>.corrupt-<timestamp>`, like `keepLegacyCopy`; returns the name. */
export async function keepCorruptCopy(file: string, source: CopySource, at: string): Promise<string> {
  return keepCopy(file, `${file}.corrupt-${stamp(at)}`, source);
}

/** A timestamp usable in a file name on every platform: the ISO time with `:` and `.` replaced by `-`. */
export function stamp(at: string): string {
  return at.replace(/[:.]/g, "-");
}

/**
 * Gives the state file a second name next to it (a temporary name, so debris of a killed run is cleaned
 * up): a hard link, the very file (a symbolic link is linked itself, or recreated where there are no hard
 * links), or a copy with its mode. A failed run renames it back. `unchanged` says whether it is the file
 * `previous` describes, with the same bytes.
 *
 * @throws The underlying file-system error (ENOENT: the state file is gone).
 */
export async function keepSecondName(
  file: string,
  previous: Exclude<ReadStateResult, { kind: "missing" }>,
): Promise<{ name: string; unchanged: boolean }> {
  const name = tempName(file);
  if (previous.kind === "link") {
    try {
      linkSync(file, name);
    } catch (error) {
      if (!noHardLinks((error as NodeJS.ErrnoException).code)) throw error;
      symlinkSync(previous.target, name);
    }
  } else {
    await linkOrCopy(file, name);
  }
  if (previous.kind === "link") {
    const stats = lstatSync(name);
    const same = stats.ino === previous.stats.ino && stats.dev === previous.stats.dev;
    return { name, unchanged: (same || stats.isSymbolicLink()) && readlinkSync(name) === previous.target };
  }
  // One look at the name (its own lstat, then the open file's fstat), its identity and its bytes from the same read.
  const now = readFound(name, stateFileLimits.bytes);
  if (now.kind === "missing") throw Object.assign(new Error(`ENOENT: no such file, ${name}`), { code: "ENOENT" });
  const same = now.stats.ino === previous.stats.ino && now.stats.dev === previous.stats.dev;
  if (!(same ? sameFile(now.stats, previous.stats) : now.stats.size === previous.stats.size)) return { name, unchanged: false };
  return { name, unchanged: now.kind === "file" && now.bytes.equals(previous.bytes) };
}

/**
 * The rollback of a committed state: the previous file (`secondName`, its second name) back in place, or the new file
 * removed when there was none, if the state file is still the one this run committed (`committed`). If another
 * program replaced it since, its file is left as it is and the previous state is kept beside it as
 * `<file>.previous-<timestamp>`, with a warning. Synchronous: an exiting process calls it.
 *
 * @param at - The run's ISO time, for the timestamp.
 * @returns `restored`, `removed` or `null` (left as it is), and a warning.
 */
export function putBack(
  file: string,
  committed: Stats,
  secondName: string | null,
  at: string,
): { action: "restored" | "removed" | null; warning?: string } {
  const now = lstatSync(file, { throwIfNoEntry: false });
  if (!now || now.dev !== committed.dev || now.ino !== committed.ino) {
    const kept = secondName ? keepBeside(secondName, `${file}.previous-${stamp(at)}`) : null;
    return {
      action: null,
      warning:
        `The state file ${file} was changed by another program after this run wrote it; it is left as it ` +
        `is${kept ? `, and the state from before this run is kept as ${kept}` : ""}.`,
    };
  }
  if (secondName) renameSync(secondName, file);
  else unlinkSync(file);
  const warning = syncDirectory(path.dirname(file), file);
  return { action: secondName ? "restored" : "removed", ...(warning ? { warning } : {}) };
}

/** Gives `file` the first free name of `wanted`, `wanted-2`, …; `null` when it cannot. */
export function keepBeside(file: string, wanted: string): string | null {
  for (let n = 1; n < 100; n++) {
    const name = n === 1 ? wanted : `${wanted}-${n}`;
    try {
      linkSync(file, name);
      unlinkQuietly(file);
      return name;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return null;
    }
  }
  return null;
}

// --- helpers ---

/** Makes a copy of `source` at `wanted`, or at `wanted-2`, `wanted-3`… when the name is taken. */
async function keepCopy(file: string, wanted: string, source: CopySource): Promise<string> {
  for (let n = 1; ; n++) {
    const name = n === 1 ? wanted : `${wanted}-${n}`;
    if (await copyTo(name, source)) return name;
    if (n >= 100) throw new Error(`too many copies named ${path.basename(wanted)} next to ${file}`);
  }
}

/** A copy of the bytes as read; a file too large to have been read whole is streamed from its second name. */
function copyTo(name: string, source: CopySource): Promise<boolean> {
  return createFileExclusive(name, source.complete ? source.bytes : { copyOf: source.path }, source.stats);
}

/** An existing legacy copy (`.legacy` or `.legacy-*`) next to `file` with exactly these bytes; links and odd files are skipped, never followed. */
function findIdentical(file: string, bytes: Buffer): string | undefined {
  const dir = path.dirname(file);
  const prefix = path.basename(file) + legacySuffix;
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n === prefix || n.startsWith(`${prefix}-`))
      .sort();
  } catch {
    return undefined;
  }
  for (const name of names) {
    try {
      const found = readFound(path.join(dir, name), stateFileLimits.bytes);
      if (found.kind === "file" && found.complete && found.bytes.equals(bytes)) return path.join(dir, name);
    } catch {
      // An unreadable file by that name cannot be the copy.
    }
  }
  return undefined;
}
