// Config and preset files written to fresh temp dirs and loaded as the CLI loads them, for the loader's tests.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { DropkitError } from "../../src/errors.js";
import { loadConfigFile } from "../../src/config/loader.js";
import { tempDir } from "./temp.js";

/** Writes `files` into a fresh temp dir and returns the dir. */
export function tree(files: Record<string, string | Buffer>): string {
  const root = tempDir();
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

/** Loads one file written into a fresh temp dir. */
export async function load(name: string, text: string, extra: Record<string, string> = {}) {
  const root = tree({ [name]: text, ...extra });
  const format = name.endsWith(".json") ? "json" : /\.[mc]?ts$/.test(name) ? "ts" : "js";
  return loadConfigFile(path.join(root, name), format);
}

export async function loadError(name: string, text: string, extra: Record<string, string> = {}): Promise<DropkitError> {
  try {
    await load(name, text, extra);
  } catch (error) {
    assert.ok(error instanceof DropkitError, `expected a DropkitError, got ${String(error)}`);
    return error;
  }
  assert.fail("expected the load to fail");
}
