// Temp directories for tests, removed when the test file ends.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after } from "node:test";

const roots: string[] = [];
after(() => {
  for (const root of roots) {
    // Read-only directories made by a test must be writable again before they can be removed.
    spawnSync("chmod", ["-R", "u+w", root]);
    fs.rmSync(root, { recursive: true, force: true });
  }
});

/** A new empty directory under the OS temp dir, its real path (no symlinks), removed after the file's tests. */
export function tempDir(prefix = "dropkit-"): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  roots.push(root);
  return root;
}

/** An environment whose ceiling keeps config discovery inside the fixture `root` (the walk stops below its parent). */
export function fenced(root: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { GIT_CEILING_DIRECTORIES: path.dirname(root), ...extra };
}
