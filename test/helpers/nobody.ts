// Running the built CLI as another user: as root (CI), permission faults need `nobody` (setpriv), since root ignores permissions.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { cliPath, rootOf, runCli, type RunResult } from "./cli.js";

/** The user id (and group id) of `nobody`. */
export const nobody = 65534;

/**
 * Root ignores permissions, so permission faults run the CLI as `nobody` (setpriv). Without root, chmod
 * bites the current user directly. Skipped only when neither works.
 */
export const permissions: { skip: string | false; run: (cwd: string, args: string[], env?: Record<string, string>) => RunResult } = (() => {
  const plain = (cwd: string, args: string[], env: Record<string, string> = {}) => runCli(cwd, args, env);
  if (process.getuid?.() !== 0) return { skip: false, run: plain };
  const probe = spawnSync("setpriv", [`--reuid=${nobody}`, `--regid=${nobody}`, "--clear-groups", process.execPath, "--version"], {
    encoding: "utf8",
  });
  if (probe.status !== 0) return { skip: "running as root and setpriv cannot drop to nobody here", run: plain };
  return {
    skip: false,
    run(cwd, args, env = {}) {
      const result = spawnSync(
        "setpriv",
        [`--reuid=${nobody}`, `--regid=${nobody}`, "--clear-groups", process.execPath, cliPath, ...args],
        {
          cwd,
          env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, GIT_CEILING_DIRECTORIES: path.dirname(rootOf(cwd)), ...env },
          encoding: "utf8",
          timeout: 30_000,
        },
      );
      let records: Array<Record<string, any>> = [];
      try {
        records = result.stderr
          .split("\n")
          .filter((l) => l.trim() !== "")
          .map((l) => JSON.parse(l));
      } catch {
        // Not all JSON: clean() reports it.
      }
      return { status: result.status, stdout: result.stdout, stderr: result.stderr, records };
    },
  };
})();

/** Makes a fixture traversable by nobody: the temp root is 0700 and owned by root. */
export function openUp(root: string): void {
  fs.chmodSync(root, 0o755);
}

/** Whether `permissions.run` runs the CLI as nobody (this process is root), so files it must own are chowned to nobody. */
export const asNobody = process.getuid?.() === 0;
