// A change another program made to the state file between this run's read and its replacement: noticed, and refused (StateConflict, 75), never lost.

import { keepSecondName } from "./copies.js";
import { fail } from "../errors.js";
import { readFound, sameFile } from "../files/found.js";
import { errorReason, unlinkQuietly } from "../files/fsutil.js";
import { stateFileLimits, type ReadStateResult } from "./file.js";

/**
 * What changed at the state file since this run read it as `previous`, or `null` when it is still exactly that:
 * the same file (device, inode, size, modification time) with the same bytes, the same link, or still nothing.
 *
 * @throws The file-system error of reading it again.
 */
export function changeSince(file: string, previous: ReadStateResult): string | null {
  const now = readFound(file, stateFileLimits.bytes);
  if (previous.kind === "missing") return now.kind === "missing" ? null : "a file appeared there";
  const same = now.kind !== "missing" && sameFile(now.stats, previous.stats);
  if (previous.kind === "link") return same && now.kind === "link" && now.target === previous.target ? null : "the link was changed";
  return same && now.kind === "file" && now.bytes.equals(previous.bytes) ? null : "its content or identity changed";
}

/**
 * Gives the state file a second name for the rollback (see `keepSecondName`: the very file, where there are hard
 * links) and checks that it is the file this run read as `previous`, with the same bytes: the first check for a change.
 *
 * @returns The second name.
 * @throws DropkitError `StateConflict` (75) when the file was removed or is another one (the second name is then
 *   removed); `IOError` (74) when the name cannot be made.
 */
export async function secondNameOf(file: string, previous: Exclude<ReadStateResult, { kind: "missing" }>): Promise<string> {
  let kept;
  try {
    kept = await keepSecondName(file, previous);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") refuseConflict(file, "it was removed");
    fail(
      "IOError",
      `Cannot write the state file ${file} (${errorReason(error)}). Nothing was changed; check that the directory is writable.`,
      { file, source: file },
    );
  }
  if (!kept.unchanged) {
    unlinkQuietly(kept.name);
    refuseConflict(file, "it is not the file this run read");
  }
  return kept.name;
}

/**
 * Stops the run: the state file was changed by another program (`what`), so it is not replaced.
 *
 * @throws DropkitError `StateConflict` (75) naming the file and what changed.
 */
export function refuseConflict(file: string, what: string): never {
  fail(
    "StateConflict",
    `The state file ${file} was changed by another program while this run was going on (${what}); it was not replaced, and what the other program wrote is kept. Run dropkit create again.`,
    { file, source: file },
  );
}
