// The zip archives of a drop: finding them (the `*.zip` files directly in the working directory) and judging the zip check's verdicts against the plan.

import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { Plan } from "../core/protocol.js";
import type { DigestOptions } from "./digest-pool.js";
import { notRegularProblem } from "../files/found.js";
import type { FolderListing, ListedEntry } from "../files/listing.js";
import { fail, type Diagnostic } from "../errors.js";
import type { ZipVerdict } from "./zip.js";

/**
 * Lists the `*.zip` files directly in `cwd` (not in subdirectories, not hidden ones), matching the
 * extension in any case (`a.ZIP` counts), sorted by name in plain code-unit order so that every
 * platform sees the same order. Symbolic links to zip files count. One rule for everything else named `*.zip`:
 * an entry that is not a regular file (a directory, a FIFO, a socket, a device), a link that leads to anything but
 * a regular file (or to nothing), and a name that is not valid UTF-8 (no path can reach it) are each left out with a
 * warning saying why, since reading one could block or never end. One directory listing, with a `stat` only for
 * entries that are not plain files: a glob library would cost more to load than this takes for 10,000 archives.
 *
 * @param cwd - The working directory.
 * @param warn - Told about each `*.zip` name that is left out, with the file as its source.
 * @param listing - A listing of `cwd` made earlier in the run, to use instead of listing it again.
 * @returns File names relative to `cwd`, e.g. `["blog.zip", "ocean-theme.zip"]`.
 * @throws DropkitError `IOError` (74) when the directory cannot be listed.
 */
export async function scanArchives(
  cwd: string,
  warn: (message: string, source: string) => void = () => {},
  listing?: FolderListing,
): Promise<string[]> {
  let entries: ListedEntry[];
  try {
    entries = listing?.covers(cwd) ? listing.read() : readdirSync(cwd, { withFileTypes: true });
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    fail("IOError", `Cannot list the archives in ${cwd} (${reason}); check that the folder is readable.`, { file: cwd, source: cwd });
  }
  const archives: string[] = [];
  for (const entry of entries) {
    const name = entry.name;
    if (name.startsWith(".") || name.length < 5 || name.slice(-4).toLowerCase() !== ".zip") continue;
    if (entry.isFile() && !name.includes("\uFFFD")) {
      archives.push(name);
      continue;
    }
    const file = path.join(cwd, name);
    const why = notRegular(file, name);
    if (why) warn(`${file} is left out: ${why}.`, file);
    else archives.push(name);
  }
  // Default sort compares UTF-16 code units, which is locale-independent.
  return archives.sort();
}

/**
 * The zip check's verdicts on archives read without the cache (with `cache.enabled: false`, and for a theme
 * outside the drop): nothing is hashed, only the records are read, on every CPU when there are many.
 *
 * @param cwd - The directory relative names are resolved against.
 * @param names - Archive names or paths.
 * @throws DropkitError `IOError` (74) when an archive cannot be read.
 */
export async function checkArchives(
  cwd: string,
  names: string[],
  options: Pick<DigestOptions, "signal"> = {},
): Promise<Map<string, ZipVerdict>> {
  const jobs = names.map((name) => {
    const file = path.resolve(cwd, name);
    const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
    return { file, size, hash: false, check: true };
  });
  const { digestArchives } = await import("./digest-pool.js");
  const digests = await digestArchives(jobs, options);
  const verdicts = new Map<string, ZipVerdict>();
  for (const [i, digest] of digests.entries()) {
    if (!digest.ok && digest.what !== undefined) {
      verdicts.set(names[i]!, { ok: false, problem: notRegularProblem(digest.what) });
      continue;
    }
    if (!digest.ok)
      fail("IOError", `Cannot read the archive ${jobs[i]!.file} (${digest.code}); check that it is readable.`, {
        file: jobs[i]!.file,
        source: jobs[i]!.file,
      });
    verdicts.set(names[i]!, digest.zip!);
  }
  return verdicts;
}

/**
 * Judges the verdicts against the plan: an unreadable theme or selected module is an `ArchiveInvalid` error (the
 * run stops before anything is written), an unreadable archive the plan leaves out is a warning, and so is a sound
 * one with entries whose data could not be verified (encrypted, or compressed with a method dropkit cannot decode).
 *
 * @param cwd - The drop, for the absolute paths in messages.
 * @param archives - Every archive of the drop, as `scanArchives` returns them.
 * @param verdictOf - The verdict on an archive of the drop by name, or on a theme outside it by its path.
 */
export function judgeArchives(
  cwd: string,
  plan: Plan,
  archives: string[],
  verdictOf: (name: string) => ZipVerdict | undefined,
): { errors: Diagnostic[]; warnings: Array<{ message: string; source: string }> } {
  const errors: Diagnostic[] = [];
  const warnings: Array<{ message: string; source: string }> = [];
  const used = new Map<string, string>();
  if (plan.theme.file !== null) used.set(plan.theme.file, "theme");
  for (const d of plan.decisions) if (d.selected) used.set(d.file, "module");
  const judge = (name: string, role: string | undefined): void => {
    const verdict = verdictOf(name);
    if (!verdict) return;
    const file = path.resolve(cwd, name);
    if (verdict.ok) {
      // unzip -t warns "zipfile is empty" and exits 1: accepted here too, but said, since it ships nothing.
      if (verdict.entries === 0)
        warnings.push({
          message:
            `The archive ${file} is empty: it is a zip with no entries (unzip -t says "zipfile is empty"). ` +
            "It is accepted as it is; if it should hold files, build it again.",
          source: file,
        });
      // Accepted, as unzip -t accepts it, but said: dropkit vouches only for the data it could read.
      if (verdict.note !== undefined)
        warnings.push({
          message: `The archive ${file} has entries whose data cannot be verified: ${verdict.note}. It is accepted; their data was not checked.`,
          source: file,
        });
      return;
    }
    if (role === undefined) {
      warnings.push({
        message: `The archive ${file} is unreadable (${verdict.problem}); the plan leaves it out, so the run goes on.`,
        source: file,
      });
      return;
    }
    const fix =
      role === "theme"
        ? "choose another theme (--theme, or theme in the config)"
        : `leave it out with --exclude=${quoteGlob(name.replace(/\.zip$/i, ""))}`;
    errors.push({
      name: "ArchiveInvalid",
      message: `The ${role} archive ${file} is unreadable: ${verdict.problem}. Replace it with a complete archive (download or build it again), or ${fix}.`,
      file,
      source: file,
    });
  };
  for (const name of archives) judge(name, used.get(name));
  if (plan.theme.file === null && plan.theme.path !== null) judge(plan.theme.path, "theme");
  return { errors, warnings };
}

// --- helpers ---

/** Why `file` (a link, an entry that is no plain file, a name that may not be UTF-8) cannot be read as an archive, or "" for a regular file (after links). */
function notRegular(file: string, name: string): string {
  try {
    const stats = statSync(file);
    if (stats.isFile()) return "";
    const kind = stats.isFIFO()
      ? "a FIFO"
      : stats.isCharacterDevice() || stats.isBlockDevice()
        ? "a device"
        : stats.isSocket()
          ? "a socket"
          : "a directory";
    return `it is ${kind}, not a regular file, so it is not an archive`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    // A name whose bytes are not UTF-8 comes back with U+FFFD in place of them: no string path reaches that file.
    if (name.includes("\uFFFD") && code === "ENOENT") return "its name is not valid UTF-8, so it cannot be opened by name; rename it";
    return `it cannot be read (${code})`;
  }
}

/** A module name as a shell word: quoted when it holds anything a shell would read. */
function quoteGlob(name: string): string {
  return /^[\w.@%+=:,/-]+$/.test(name) ? name : `'${name.replace(/'/g, "'\\''")}'`;
}
