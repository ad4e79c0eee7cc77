// Syscall-level faults for CLI runs: test/helpers/faultfs.c, built once per test file and loaded with LD_PRELOAD.

import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { tempDir } from "./temp.js";

/** The faults the shim can inject (see faultfs.c). */
export interface Faults {
  /** fsync() of a directory fails with EIO. */
  fsyncDir?: boolean;
  /** link() fails with EPERM, as on a file system without hard links. */
  link?: boolean;
  /** rename() to a path ending in this fails with EIO. */
  renameTarget?: string;
}

const inCi = Boolean(process.env.CI) && process.env.CI !== "false";

/** The built shim, or why the tests using it are skipped (never in CI, where a missing compiler is a failure). */
export const faultShim: { skip: string | false; env: (faults: Faults) => Record<string, string> } = (() => {
  const source = fileURLToPath(new URL("./faultfs.c", import.meta.url));
  const lib = path.join(tempDir("dropkit-faultfs-"), "faultfs.so");
  const built = spawnSync("cc", ["-shared", "-fPIC", "-O1", "-o", lib, source, "-ldl"], { encoding: "utf8" });
  const failed = built.error ? String(built.error.message) : built.status !== 0 ? built.stderr : "";
  if (failed && !inCi)
    return { skip: `needs a C compiler for the LD_PRELOAD fault shim (${failed.trim().split("\n")[0]})`, env: () => ({}) };
  if (failed) throw new Error(`cannot build test/helpers/faultfs.c: ${failed}`);
  return {
    skip: false,
    env(faults) {
      // UV_USE_IO_URING=0: libuv must make these calls through libc, where the shim sits.
      const env: Record<string, string> = { LD_PRELOAD: lib, UV_USE_IO_URING: "0" };
      if (faults.fsyncDir) env.FAULT_FSYNC_DIR = "1";
      if (faults.link) env.FAULT_LINK = "1";
      if (faults.renameTarget) env.FAULT_RENAME_TARGET = faults.renameTarget;
      return env;
    },
  };
})();
