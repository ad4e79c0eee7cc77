// Config and preset files written to fresh temp dirs and loaded as the CLI loads them, for the loader's tests.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { DropkitError } from "../../src/errors.js";
import { detectFormat, type ConfigFormat } from "../../src/config/discovery.js";
import { loadConfigFile, type FileRole, type LoadedConfig } from "../../src/config/loader.js";
import { openJudged } from "../../src/files/judged.js";
import type { ReadBudget } from "../../src/files/limits.js";
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
  return loadPath(path.join(root, name), format);
}

/** Opens a file once (not judged by the trust rule) and loads it, as a resolve does with a discovered config. */
export async function loadPath(file: string, format: ConfigFormat, role: FileRole = "config", budget?: ReadBudget): Promise<LoadedConfig> {
  return loadConfigFile(openJudged(file, role, null), format, budget);
}

/** Loads a preset file as the presets stage does: its form from its name, a package.json as plain JSON. */
export async function loadPreset(file: string, budget?: ReadBudget): Promise<LoadedConfig> {
  const format = detectFormat(file);
  return loadPath(file, format === "package.json" ? "json" : format, "preset", budget);
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
