// The state file `.dropkit.json` (SPEC section 9, v1 only): what the last `create` chose, written atomically.

import { readFileSync, renameSync } from "node:fs";
import { fail } from "./errors.js";
import { writeFileAtomic } from "./fsutil.js";

/** The name of the state file in the working directory. */
export const stateFileName = ".dropkit.json";

/** What `create` chose. */
export interface StatePlan {
  /** The theme's name (`ocean` for `ocean-theme.zip`), the path of a theme outside the drop, or `null` for none. */
  theme: string | null;
  /** The selected modules, by name. */
  modules: string[];
  /** The modules that were left out, by name. */
  excluded: string[];
  /** The presets that applied, in order. */
  presets: string[];
}

/** The v1 state file. */
export interface StateV1 {
  schema: 1;
  toolVersion: string;
  /** ISO time of the first write; kept by every later write. */
  createdAt: string;
  /** ISO time of the last write. */
  updatedAt: string;
  plan: StatePlan;
  /** Present when the file was lifted from a legacy file (written by the legacy migration). */
  migratedFrom?: { version?: string; at: string };
  /** Keys this version does not know, kept verbatim so that nothing is lost. */
  extra: Record<string, unknown>;
}

/** What was found at the state file's path. */
export type ReadStateResult =
  | { kind: "missing" }
  | { kind: "v1"; state: StateV1 }
  /** JSON object that is not a v1 state file (legacy or newer): its keys go under `extra`. */
  | { kind: "other"; data: Record<string, unknown> }
  /** Not a JSON object; `reason` says why. */
  | { kind: "corrupt"; reason: string };

/** What `writeState` did. */
export interface WriteStateResult {
  state: StateV1;
  /** `created` for a new file, `updated` otherwise. */
  action: "created" | "updated";
  /** Problems to log as warnings (a file moved aside, a file that was not v1). */
  warnings: string[];
}

/** The keys of a v1 state file; anything else goes under `extra`. */
const knownKeys = new Set(["schema", "toolVersion", "createdAt", "updatedAt", "plan", "migratedFrom", "extra"]);

/**
 * Reads the state file tolerantly: a missing file, a v1 file (unknown keys gathered under `extra`),
 * another JSON object, or something unusable.
 *
 * @param file - Absolute path of the state file.
 * @throws DropkitError `IOError` (74) when the file exists but cannot be read.
 */
export function readState(file: string): ReadStateResult {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { kind: "missing" };
    fail("IOError", `Cannot read the state file ${file} (${code ?? String(error)}). Check its permissions.`, { file, source: file });
  }
  let data: unknown;
  try {
    data = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    return { kind: "corrupt", reason: (error as Error).message };
  }
  if (!isRecord(data)) return { kind: "corrupt", reason: `it holds ${Array.isArray(data) ? "an array" : JSON.stringify(data)}, not an object` };
  if (data.schema !== 1) return { kind: "other", data };
  const extra: Record<string, unknown> = isRecord(data.extra) ? { ...data.extra } : {};
  for (const [key, value] of Object.entries(data)) {
    if (!knownKeys.has(key)) setOwn(extra, key, value);
  }
  const plan = isRecord(data.plan) ? data.plan : {};
  const state: StateV1 = {
    schema: 1,
    toolVersion: typeof data.toolVersion === "string" ? data.toolVersion : "",
    createdAt: typeof data.createdAt === "string" ? data.createdAt : "",
    updatedAt: typeof data.updatedAt === "string" ? data.updatedAt : "",
    plan: {
      theme: typeof plan.theme === "string" ? plan.theme : null,
      modules: stringList(plan.modules),
      excluded: stringList(plan.excluded),
      presets: stringList(plan.presets),
    },
    extra,
  };
  if (isRecord(data.migratedFrom) && typeof data.migratedFrom.at === "string") state.migratedFrom = data.migratedFrom as StateV1["migratedFrom"];
  return { kind: "v1", state };
}

/**
 * Writes the v1 state file atomically (temporary file + rename). `createdAt` and unknown keys of an
 * existing v1 file are kept. A file that is not JSON is moved aside to `<file>.corrupt-<timestamp>`
 * first, never overwritten in place. A JSON object that is not v1 (a legacy file) is not migrated yet:
 * all of its keys are kept under `extra`, with a warning.
 *
 * @param file - Absolute path of the state file.
 * @param plan - What `create` chose.
 * @param toolVersion - The dropkit version writing the file.
 * @param now - The time of the write. @default new Date()
 * @throws DropkitError `IOError` (74) when the file cannot be read, moved aside or written.
 */
export async function writeState(file: string, plan: StatePlan, toolVersion: string, now: Date = new Date()): Promise<WriteStateResult> {
  const at = now.toISOString();
  const warnings: string[] = [];
  const previous = readState(file);
  let createdAt = at;
  let extra: Record<string, unknown> = {};
  let migratedFrom: StateV1["migratedFrom"];
  if (previous.kind === "v1") {
    createdAt = previous.state.createdAt || at;
    extra = previous.state.extra;
    migratedFrom = previous.state.migratedFrom;
  } else if (previous.kind === "other") {
    extra = { ...previous.data };
    warnings.push(`The state file ${file} is not a v1 state file (no "schema": 1); its keys are kept under "extra".`);
  } else if (previous.kind === "corrupt") {
    const aside = `${file}.corrupt-${at.replace(/[:.]/g, "-")}`;
    try {
      renameSync(file, aside);
    } catch (error) {
      fail("IOError", `Cannot move the unreadable state file ${file} aside to ${aside} (${(error as NodeJS.ErrnoException).code ?? String(error)}).`, { file, source: file });
    }
    warnings.push(`The state file ${file} does not parse (${previous.reason}); it was moved to ${aside} and a new one is written.`);
  }
  const state: StateV1 = {
    schema: 1,
    toolVersion,
    createdAt,
    updatedAt: at,
    plan,
    ...(migratedFrom ? { migratedFrom } : {}),
    extra,
  };
  try {
    await writeFileAtomic(file, JSON.stringify(state, null, 2) + "\n");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    fail("IOError", `Cannot write the state file ${file} (${reason}). Check that the directory is writable.`, { file, source: file });
  }
  return { state, action: previous.kind === "missing" ? "created" : "updated", warnings };
}

// --- helpers ---

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Sets an own data property: plain assignment of a `__proto__` key would replace the prototype instead. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
