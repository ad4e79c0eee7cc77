// A served config's own trust: its file on disk judged as `dropkit config` run in its folder judges it, on the descriptor opened here.

import { closeSync, constants, fstatSync, openSync } from "node:fs";
import path from "node:path";
import { DropkitError } from "../errors.js";
import { realPathOf, requireTrustedOpened, type TrustScope, trustPolicy } from "../files/trust.js";
import type { Env } from "../types.js";

/**
 * Why `dropkit config` run in the folder of `file` stops before it reads the config, or `null`: the error of a
 * `DROPKIT_SAFE_DIRECTORIES` it cannot read (65), else the config's `UntrustedFile` (77) when the file, or a directory
 * above it up to that folder (the fence: discovery's walk stops where it finds the config), is owned by another user
 * or writable by others. Judged by the CLI's function on this open descriptor's `fstat` and real path, never on a
 * second look at the path. A path with no regular file behind it (a buffer not saved yet, a file removed) has no
 * trust question: `null`. Cheap enough to ask on every change: an open, an fstat and a stat of each directory.
 */
export function configRefusal(file: string, env: Env): DropkitError | null {
  let scope: TrustScope;
  try {
    scope = { policy: trustPolicy(env), fence: path.dirname(file) };
  } catch (error) {
    if (error instanceof DropkitError) return error;
    throw error;
  }
  let fd: number;
  try {
    // Non-blocking, so a FIFO cannot hang the open; O_NOCTTY, so a terminal cannot become the server's.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  } catch {
    return null;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return null;
    requireTrustedOpened(file, realPathOf(fd, file), stats, "config", scope);
    return null;
  } catch (error) {
    if (error instanceof DropkitError) return error;
    throw error;
  } finally {
    closeSync(fd);
  }
}
