// A file dropkit takes settings or code from, held as the file itself: opened once, judged on its descriptor, read from it.

import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, type Stats } from "node:fs";
import path from "node:path";
import { fail } from "../errors.js";
import { describeNonFile } from "./found.js";
import { limits, readOpened, sizeText } from "./limits.js";
import { requireTrustedOpened, realPathOf, type FileStatus, type TrustScope } from "./trust.js";

/** What an opened file is, for messages: a config or a preset. */
export type OpenedRole = "config" | "preset";

/**
 * A config or preset file as it was opened: the bytes read from one descriptor, with what `fstat` said of that
 * descriptor and the path it had after every link. Nothing downstream opens the file by name again.
 */
export interface OpenedFile {
  /** The path as named (absolute): the name in messages and the base of the file's relative paths. */
  readonly path: string;
  /** The path of the opened file after every link (the kernel's name for the descriptor on Linux). */
  readonly realPath: string;
  /** `fstat` of the descriptor the bytes were read from. */
  readonly stats: FileStatus & { size: number };
  /** Its bytes: the whole file, within the bound it was opened with. */
  readonly bytes: Uint8Array;
  readonly role: OpenedRole;
}

/** An opened file that passed the trust rule (src/files/trust.ts) on the same descriptor: what loaders take. */
export interface JudgedFile extends OpenedFile {
  readonly judged: true;
}

/**
 * Opens `file` once (non-blocking, so a FIFO cannot hang the open), refuses anything but a regular file within `max`
 * bytes, and reads it from that descriptor; not judged by the trust rule (`init`'s and the tests' reads, and a file
 * that is judged later on what this read saw: `judge`).
 *
 * @throws DropkitError `ConfigNotFound` (66) when it cannot be opened or is not a regular file (naming what it is),
 *   `ConfigLoadError` (65) when it is larger than `max`.
 */
export function openFile(file: string, role: OpenedRole, max: number = limits.fileBytes): OpenedFile {
  return openAndRead(file, role, max, null);
}

/**
 * Opens a config or preset file once and judges it on that descriptor before a byte is read: a regular file (else
 * 66), trusted by `scope` (else 77: `null`, not judged), within `max` bytes (else 65); then reads it from the
 * descriptor. What loaders take: nothing downstream opens the file by name again.
 *
 * @throws DropkitError `ConfigNotFound` (66), `UntrustedFile` (77), `ConfigLoadError` (65).
 */
export function openJudged(file: string, role: OpenedRole, scope: TrustScope | null, max: number = limits.fileBytes): JudgedFile {
  return { ...openAndRead(file, role, max, scope), judged: true };
}

/**
 * Judges a file read before (`openFile`, or the discovery walk's read of a package.json) on what its descriptor
 * said then (owner, mode) and the directories of its path, as written and as resolved.
 *
 * @throws DropkitError `UntrustedFile` (77).
 */
export function judge(opened: OpenedFile, scope: TrustScope | null): JudgedFile {
  if (scope) requireTrustedOpened(opened.path, opened.realPath, opened.stats, opened.role, scope);
  return { ...opened, judged: true };
}

/** Refuses a file over `max` bytes (`size` is `max + 1` when only "more" is known). */
export function tooLarge(file: string, role: OpenedRole, size: number, max: number = limits.fileBytes): never {
  const what = size > max + 1 ? `is ${sizeText(size)}` : `has more than ${sizeText(max)}`;
  const hint = path.basename(file) === "package.json" ? ", or move the dropkit key to a dropkit.config.json" : "";
  fail(
    "ConfigLoadError",
    `The ${role} ${file} ${what}, over the limit of ${sizeText(max)} for a ${role} file. ` +
      `A dropkit ${role} is a few KB: check that this is the right file${hint}.`,
    { file, source: file },
  );
}

// --- helpers ---

function openAndRead(file: string, role: OpenedRole, max: number, scope: TrustScope | null): OpenedFile {
  const fd = openOrFail(file, role);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) notAFile(file, role, stats);
    const realPath = realPathOf(fd, file);
    if (scope) requireTrustedOpened(file, realPath, stats, role, scope);
    // Judged on the size fstat gives before a byte is read; the read is bounded whatever the size says.
    if (stats.size > max) tooLarge(file, role, stats.size, max);
    const { bytes, over } = readOpened(fd, stats.size, max);
    if (over) tooLarge(file, role, max + 1, max);
    return { path: file, realPath, stats, bytes, role };
  } finally {
    closeSync(fd);
  }
}

function openOrFail(file: string, role: OpenedRole): number {
  try {
    // O_NOCTTY: a terminal named as a config must not become this process's controlling terminal.
    return openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    const target = code === "ENOENT" ? linkTarget(file) : undefined;
    if (code === "ENOENT")
      fail(
        "ConfigNotFound",
        `The ${role} file ${file} ${target ? `is a broken symbolic link (to ${target})` : "does not exist"}. Check the path.`,
        {
          file,
          source: file,
        },
      );
    const why = code === "ELOOP" ? "ELOOP: a loop of symbolic links" : code;
    fail("ConfigNotFound", `Cannot read the ${role} ${file} (${why}). Check that it exists and is readable.`, { file, source: file });
  }
}

/** Where `file` points when it is a symbolic link (to nothing, when the open said ENOENT), or undefined. */
function linkTarget(file: string): string | undefined {
  try {
    return lstatSync(file).isSymbolicLink() ? readlinkSync(file) : undefined;
  } catch {
    return undefined;
  }
}

function notAFile(file: string, role: OpenedRole, stats: Stats): never {
  const what = describeNonFile(stats);
  const hint = stats.isDirectory() ? `Give the ${role} file itself, e.g. ${path.join(file, "dropkit.config.json")}.` : "Check the path.";
  fail("ConfigNotFound", `The ${role} file ${file} is ${what}, not a regular file. ${hint}`, { file, source: file });
}
