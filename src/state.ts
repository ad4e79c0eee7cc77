// The state file `.dropkit.json` (SPEC section 9): tolerant reading of the legacy and v1 shapes, the lift to v1, and the atomic write.

import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fail } from "./errors.js";
import { createFileExclusive, removeStaleTempFiles, stageFile, type StagedFile } from "./fsutil.js";

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
  /** Present when the file was lifted from a legacy file; kept by every later write. */
  migratedFrom?: { version?: string; at: string };
  /** Keys this version does not know and values of the wrong type, kept verbatim so that nothing is lost. */
  extra: Record<string, unknown>;
}

/** The legacy state file written by dropkit 0.6.0–0.9.x; every field is optional. */
export interface LegacyState {
  version?: string;
  theme?: string | null;
  modules?: string[];
  excluded?: string[];
  preset?: string;
  presets?: string[];
  /** Epoch milliseconds or an ISO string. */
  created?: number | string;
  lastRun?: string;
  [key: string]: unknown;
}

/** A v1 state as read: everything usable, plus what was set aside under `extra` and why. */
export interface ReadState {
  /** The state in v1 form. For a legacy file, `updatedAt` is its `lastRun` and `migratedFrom.at` is "" until the lift is written. */
  state: StateV1;
  /** One entry per value set aside under `extra`: its key there and why (`unknown key`, `expected a string, got a number`). */
  setAside: Array<{ key: string; reason: string }>;
}

/** What was found at the state file's path. */
export type ReadStateResult =
  | { kind: "missing" }
  | ({ kind: "v1" | "legacy"; bytes: Buffer } & ReadState)
  /** Not JSON, or JSON that is not an object; `reason` says why. */
  | { kind: "corrupt"; reason: string; bytes: Buffer };

/** What `writeState` did: the fields of the `state` record in the decisions log. */
export interface WriteStateResult {
  state: StateV1;
  /** `created` when there was no usable file, `updated` otherwise. */
  action: "created" | "updated";
  /** The shape that was read: `missing`, `v1`, `legacy` or `corrupt`. */
  read: ReadStateResult["kind"];
  /** Whether a legacy file was lifted to v1 by this write. */
  lifted: boolean;
  /** Where the legacy file's bytes are kept (made now, or already there), or `null` when nothing was lifted. */
  legacyCopy: string | null;
  /** Where an unusable file was moved, or `null`. */
  movedAside: string | null;
  /** Problems to log as warnings (values set aside, a file moved aside, a second legacy copy). */
  warnings: string[];
}

/** Options of `writeState`. */
export interface WriteStateOptions {
  /** The time of the write. @default new Date() */
  now?: Date;
  /** Read for the test-only `__DROPKIT_TEST_STATE_PAUSE`. @default process.env */
  env?: NodeJS.ProcessEnv;
}

/** The points of `writeState` where a test can pause the process to kill it (see `pauseForTest`). */
export const testPausePoints = ["staged", "copied", "committed"] as const;

/** The suffix of the copy of a lifted legacy file. */
export const legacySuffix = ".legacy";

/** The top-level keys of a v1 state file. */
const v1Keys = new Set(["schema", "toolVersion", "createdAt", "updatedAt", "plan", "migratedFrom", "extra"]);

/** The keys of a v1 `plan`. */
const planKeys = new Set(["theme", "modules", "excluded", "presets"]);

/** The keys of the legacy shape. */
const legacyKeys = new Set(["version", "theme", "modules", "excluded", "preset", "presets", "created", "lastRun"]);

/**
 * Reads the state file tolerantly. A JSON object with `"schema": 1` is v1; any other JSON object is
 * read as the legacy shape (every field optional). Missing fields take their defaults; unknown keys and
 * values of the wrong type are kept verbatim under `extra` and listed in `setAside`. Text that does not
 * parse, or JSON that is not an object, is `corrupt`.
 *
 * @param file - Absolute path of the state file.
 * @throws DropkitError `IOError` (74) when the file exists but cannot be read.
 */
export function readState(file: string): ReadStateResult {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { kind: "missing" };
    fail("IOError", `Cannot read the state file ${file} (${errorReason(error)}). Check its permissions.`, { file, source: file });
  }
  const text = bytes.toString("utf8");
  let data: unknown;
  try {
    data = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    return { kind: "corrupt", reason: (error as Error).message, bytes };
  }
  if (!isRecord(data)) return { kind: "corrupt", reason: `it holds ${describeType(data)}, not an object`, bytes };
  if (data.schema === 1) return { kind: "v1", bytes, ...readV1(data) };
  return { kind: "legacy", bytes, ...liftLegacy(data) };
}

/**
 * Reads a parsed v1 object: known fields of the right type are used, everything else goes under
 * `extra` (nested keys by dotted path, e.g. `plan.theme`). A valid v1 object comes back unchanged.
 *
 * @param data - A parsed JSON object with `"schema": 1`.
 */
export function readV1(data: Record<string, unknown>): ReadState {
  const aside = new SetAside();
  if (isRecord(data.extra)) {
    for (const [key, value] of Object.entries(data.extra)) setOwn(aside.extra, key, value);
  } else if ("extra" in data) {
    aside.keep("extra", data.extra, expected("an object", data.extra));
  }
  for (const [key, value] of Object.entries(data)) {
    if (!v1Keys.has(key)) aside.keep(key, value, "unknown key");
  }
  const state: StateV1 = {
    schema: 1,
    toolVersion: aside.string(data, "toolVersion") ?? "",
    createdAt: aside.isoTime(data, "createdAt", false) ?? "",
    updatedAt: aside.isoTime(data, "updatedAt", false) ?? "",
    plan: { theme: null, modules: [], excluded: [], presets: [] },
    extra: aside.extra,
  };
  if (isRecord(data.plan)) {
    const plan = data.plan;
    for (const [key, value] of Object.entries(plan)) {
      if (!planKeys.has(key)) aside.keep(`plan.${key}`, value, "unknown key");
    }
    state.plan = {
      theme: aside.theme(plan, "theme", "plan.theme"),
      modules: aside.names(plan, "modules", "plan.modules") ?? [],
      excluded: aside.names(plan, "excluded", "plan.excluded") ?? [],
      presets: aside.names(plan, "presets", "plan.presets") ?? [],
    };
  } else if ("plan" in data) {
    aside.keep("plan", data.plan, expected("an object", data.plan));
  }
  const from = data.migratedFrom;
  if (isRecord(from) && isIsoTime(from.at) && (from.version === undefined || typeof from.version === "string") && Object.keys(from).every((k) => k === "at" || k === "version")) {
    state.migratedFrom = from.version === undefined ? { at: from.at } : { version: from.version, at: from.at };
  } else if ("migratedFrom" in data) {
    aside.keep("migratedFrom", from, "expected an object with an ISO time `at` and an optional string `version`");
  }
  // Rebuild in the written order so that a state read and written back has the same shape.
  return { state: orderState(state), setAside: aside.reasons };
}

/**
 * Lifts a parsed legacy object to v1 (SPEC section 9): `version` → `migratedFrom.version`; `theme`,
 * `modules`, `excluded` → `plan.*`; `preset` (a string) or `presets` (a list) → `plan.presets`;
 * `created` (epoch ms or ISO string) → `createdAt`; `lastRun` → `updatedAt`. Every other key, and
 * every value of the wrong type, goes verbatim under `extra`. `migratedFrom.at` is left "" for the
 * writer to set.
 *
 * @param data - A parsed JSON object without `"schema": 1`.
 */
export function liftLegacy(data: Record<string, unknown>): ReadState {
  const aside = new SetAside();
  for (const [key, value] of Object.entries(data)) {
    if (!legacyKeys.has(key)) aside.keep(key, value, "unknown key");
  }
  const state: StateV1 = {
    schema: 1,
    toolVersion: "",
    createdAt: aside.isoTime(data, "created", true) ?? "",
    updatedAt: aside.isoTime(data, "lastRun", true) ?? "",
    plan: {
      theme: aside.theme(data, "theme", "theme"),
      modules: aside.names(data, "modules", "modules") ?? [],
      excluded: aside.names(data, "excluded", "excluded") ?? [],
      presets: [],
    },
    migratedFrom: { at: "" },
    extra: aside.extra,
  };
  const version = aside.string(data, "version");
  if (version !== undefined) state.migratedFrom = { version, at: "" };
  const list = aside.names(data, "presets", "presets");
  const single = "preset" in data ? aside.presetName(data.preset) : undefined;
  if (list !== undefined) {
    state.plan.presets = list;
    // Both forms: the list wins; a single name that says something else is kept, not dropped.
    if (single !== undefined && !(list.length === 1 && list[0] === single)) aside.keep("preset", single, "`presets` is also set and wins");
  } else if (single !== undefined) {
    state.plan.presets = [single];
  }
  return { state: orderState(state), setAside: aside.reasons };
}

/**
 * Writes the v1 state file. Reads what is there first: a v1 file keeps its `createdAt`, `migratedFrom`
 * and `extra`; a legacy file is lifted to v1, its bytes kept once as `.dropkit.json.legacy`, and
 * `migratedFrom` recorded; a file that is not a JSON object is moved aside to
 * `.dropkit.json.corrupt-<timestamp>`, never overwritten in place.
 *
 * The order makes every failure safe: the new file is written and flushed under a temporary name
 * first (so a folder that cannot be written fails before anything changes), then the copy of the
 * legacy or corrupt file is made, then the temporary file is renamed over the state file. A crash at
 * any point leaves the old file or the new one, and the original bytes are always somewhere.
 *
 * @param file - Absolute path of the state file.
 * @param plan - What `create` chose.
 * @param toolVersion - The dropkit version writing the file.
 * @param options - The time of the write, and the environment.
 * @throws DropkitError `IOError` (74) when the file cannot be read, copied or written; nothing is changed then.
 */
export async function writeState(file: string, plan: StatePlan, toolVersion: string, options: WriteStateOptions = {}): Promise<WriteStateResult> {
  const at = (options.now ?? new Date()).toISOString();
  const env = options.env ?? process.env;
  const warnings: string[] = [];
  const previous = readState(file);
  const state: StateV1 = { schema: 1, toolVersion, createdAt: at, updatedAt: at, plan, extra: {} };
  if (previous.kind === "v1" || previous.kind === "legacy") {
    if (previous.state.createdAt) state.createdAt = previous.state.createdAt;
    if (previous.state.migratedFrom) state.migratedFrom = { ...previous.state.migratedFrom, at: previous.state.migratedFrom.at || at };
    state.extra = previous.state.extra;
    if (previous.setAside.length > 0) {
      const list = previous.setAside.map((s) => `${s.key} (${s.reason})`).join(", ");
      warnings.push(`The state file ${file} has values dropkit does not use; they are kept verbatim under "extra": ${list}.`);
    }
  }
  const text = JSON.stringify(orderState(state), null, 2) + "\n";

  let staged: StagedFile;
  try {
    staged = await stageFile(file, text);
  } catch (error) {
    fail("IOError", `Cannot write the state file ${file} (${errorReason(error)}). Nothing was changed; check that the directory is writable.`, { file, source: file });
  }
  let legacyCopy: string | null = null;
  let movedAside: string | null = null;
  try {
    await pauseForTest("staged", env);
    if (previous.kind === "legacy") {
      const kept = await keepLegacyCopy(file, previous.bytes, at);
      legacyCopy = kept.file;
      if (kept.warning) warnings.push(kept.warning);
    } else if (previous.kind === "corrupt") {
      movedAside = await keepCopy(file, `${file}.corrupt-${stamp(at)}`, previous.bytes);
      warnings.push(`The state file ${file} does not parse (${previous.reason}); it was moved to ${movedAside} and a new one is written.`);
    }
    await pauseForTest("copied", env);
    await staged.commit();
  } catch (error) {
    await staged.discard();
    const step = previous.kind === "legacy" && legacyCopy === null ? "keep a copy of the legacy state file" : previous.kind === "corrupt" && movedAside === null ? "move the unreadable state file aside" : "write the state file";
    fail("IOError", `Cannot ${step} ${file} (${errorReason(error)}). The state file was not changed; check that the directory is writable.`, { file, source: file });
  }
  await pauseForTest("committed", env);
  // Debris of runs killed mid-write (their rename never happened, so it holds nothing of value); only
  // now, so that a run that fails has changed nothing.
  removeStaleTempFiles(file);
  return {
    state: orderState(state),
    action: previous.kind === "v1" || previous.kind === "legacy" ? "updated" : "created",
    read: previous.kind,
    lifted: previous.kind === "legacy",
    legacyCopy,
    movedAside,
    warnings,
  };
}

// --- helpers ---

/** Collects values set aside under `extra`, and reads typed fields, setting aside those of the wrong type. */
class SetAside {
  readonly extra: Record<string, unknown> = {};
  readonly reasons: Array<{ key: string; reason: string }> = [];

  /** Keeps `value` under `extra` as `key`, or `key~2`, `key~3`… when `extra` already holds another value there. */
  keep(key: string, value: unknown, reason: string): void {
    let name = key;
    for (let n = 2; Object.hasOwn(this.extra, name); n++) {
      if (sameJson(this.extra[name], value)) return;
      name = `${key}~${n}`;
    }
    setOwn(this.extra, name, value);
    this.reasons.push({ key: name, reason });
  }

  string(data: Record<string, unknown>, key: string): string | undefined {
    const value = data[key];
    if (value === undefined) return undefined;
    if (typeof value === "string") return value;
    this.keep(key, value, expected("a string", value));
    return undefined;
  }

  /** A theme: a non-empty string, or null for none. */
  theme(data: Record<string, unknown>, key: string, where: string): string | null {
    const value = data[key];
    if (value === undefined || value === null) return null;
    if (typeof value === "string" && value !== "") return value;
    this.keep(where, value, expected("a theme name or null", value));
    return null;
  }

  /** A list of non-empty strings; a list with anything else in it is set aside whole. */
  names(data: Record<string, unknown>, key: string, where: string): string[] | undefined {
    const value = data[key];
    if (value === undefined) return undefined;
    if (Array.isArray(value) && value.every((v) => typeof v === "string" && v !== "")) return [...(value as string[])];
    this.keep(where, value, expected("a list of names", value));
    return undefined;
  }

  presetName(value: unknown): string | undefined {
    if (typeof value === "string" && value !== "") return value;
    this.keep("preset", value, expected("a preset name", value));
    return undefined;
  }

  /** An ISO time; with `epoch`, also epoch milliseconds (a number). Normalised to `toISOString()`. */
  isoTime(data: Record<string, unknown>, key: string, epoch: boolean): string | undefined {
    const value = data[key];
    if (value === undefined) return undefined;
    if (epoch && typeof value === "number" && Number.isFinite(value)) {
      const date = new Date(value);
      if (!Number.isNaN(date.getTime())) return date.toISOString();
    }
    if (isIsoTime(value)) return new Date(value).toISOString();
    this.keep(key, value, expected(epoch ? "epoch milliseconds or an ISO time" : "an ISO time", value));
    return undefined;
  }
}

/**
 * Keeps the bytes of a lifted legacy file as `<file>.legacy`, once: an existing copy with the same
 * bytes is reused and never overwritten. A copy with other bytes (a second legacy file, restored from a
 * backup) stays as it is, and these bytes go to `<file>.legacy-<timestamp>`, with a warning.
 */
async function keepLegacyCopy(file: string, bytes: Buffer, at: string): Promise<{ file: string; warning?: string }> {
  const first = file + legacySuffix;
  if (await createFileExclusive(first, bytes)) return { file: first };
  const same = findIdentical(file, bytes);
  if (same) return { file: same };
  const other = await keepCopy(file, `${first}-${stamp(at)}`, bytes);
  return { file: other, warning: `${first} already holds another legacy state file and is never overwritten; this legacy file is kept as ${other}.` };
}

/** Creates a copy of `bytes` at `wanted`, or at `wanted-2`, `wanted-3`… when the name is taken (two runs in the same millisecond). */
async function keepCopy(file: string, wanted: string, bytes: Buffer): Promise<string> {
  for (let n = 1; ; n++) {
    const name = n === 1 ? wanted : `${wanted}-${n}`;
    if (await createFileExclusive(name, bytes)) return name;
    if (n >= 100) throw new Error(`too many copies named ${path.basename(wanted)} next to ${file}`);
  }
}

/** An existing legacy copy (`.legacy` or `.legacy-*`) next to `file` with exactly these bytes. */
function findIdentical(file: string, bytes: Buffer): string | undefined {
  const dir = path.dirname(file);
  const prefix = path.basename(file) + legacySuffix;
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n === prefix || n.startsWith(`${prefix}-`)).sort();
  } catch {
    return undefined;
  }
  for (const name of names) {
    try {
      if (readFileSync(path.join(dir, name)).equals(bytes)) return path.join(dir, name);
    } catch {
      // A directory or an unreadable file by that name cannot be the copy.
    }
  }
  return undefined;
}

/**
 * Test-only: when `__DROPKIT_TEST_STATE_PAUSE` names this point, says so on stderr and waits up to 10 s,
 * so that a test can kill the process there. The name is outside the `DROPKIT_*` namespace on purpose:
 * it is not configuration, and the core does not look at it. Unset (always, outside tests), it does nothing.
 */
async function pauseForTest(point: (typeof testPausePoints)[number], env: NodeJS.ProcessEnv): Promise<void> {
  if (env.__DROPKIT_TEST_STATE_PAUSE !== point) return;
  process.stderr.write(`__dropkit_test_state_pause ${point} ${process.pid}\n`);
  await new Promise((resolve) => setTimeout(resolve, 10_000));
}

/** The fields in the order the file is written (the SPEC's order); `migratedFrom` only when set. */
function orderState(s: StateV1): StateV1 {
  return {
    schema: 1,
    toolVersion: s.toolVersion,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    plan: { theme: s.plan.theme, modules: s.plan.modules, excluded: s.plan.excluded, presets: s.plan.presets },
    ...(s.migratedFrom ? { migratedFrom: s.migratedFrom.version === undefined ? { at: s.migratedFrom.at } : { version: s.migratedFrom.version, at: s.migratedFrom.at } } : {}),
    extra: s.extra,
  };
}

/** An ISO 8601 date-time string that `Date` understands (a date alone, or free text like "May 1", is not). */
function isIsoTime(value: unknown): value is string {
  return typeof value === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) && !Number.isNaN(Date.parse(value));
}

/** A timestamp usable in a file name on every platform. */
function stamp(at: string): string {
  return at.replace(/[:.]/g, "-");
}

/** "ENOSPC: no space left on device", without the temporary file's path that Node appends. */
function errorReason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  const message = (error instanceof Error ? error.message : String(error)).replace(/, \w+ '[^']*'( -> '[^']*')?$/, "");
  return e.code && !message.startsWith(e.code) ? `${e.code}: ${message}` : message;
}

function expected(what: string, value: unknown): string {
  return `expected ${what}, got ${describeType(value)}`;
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return value === "" ? "an empty string" : "a string";
  return `a ${typeof value}`;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Sets an own data property: plain assignment of a `__proto__` key would replace the prototype instead. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
