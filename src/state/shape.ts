// The state's data, whatever file it came from: the v1 and legacy shapes read tolerantly from parsed JSON, the lift to v1,
// and the order the file is written in.

import { isRecord, setOwn } from "../files/jsonfile.js";
import { isoTime } from "../isotime.js";

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

/** The top-level keys of a v1 state file. */
const v1Keys = new Set(["schema", "toolVersion", "createdAt", "updatedAt", "plan", "migratedFrom", "extra"]);

/** The keys of a v1 `plan`. */
const planKeys = new Set(["theme", "modules", "excluded", "presets"]);

/** The keys of the legacy shape. */
const legacyKeys = new Set(["version", "theme", "modules", "excluded", "preset", "presets", "created", "lastRun"]);

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
  if (
    isRecord(from) &&
    isIsoTime(from.at) &&
    (from.version === undefined || typeof from.version === "string") &&
    Object.keys(from).every((k) => k === "at" || k === "version")
  ) {
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

/** The fields in the order the file is written (the SPEC's order); `migratedFrom` only when set. */
export function orderState(s: StateV1): StateV1 {
  return {
    schema: 1,
    toolVersion: s.toolVersion,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    plan: { theme: s.plan.theme, modules: s.plan.modules, excluded: s.plan.excluded, presets: s.plan.presets },
    ...(s.migratedFrom
      ? {
          migratedFrom:
            s.migratedFrom.version === undefined ? { at: s.migratedFrom.at } : { version: s.migratedFrom.version, at: s.migratedFrom.at },
        }
      : {}),
    extra: s.extra,
  };
}

/** "null", "a list", "an object", "an empty string", "a number"...: what a value read from JSON is, for messages. */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return value === "" ? "an empty string" : "a string";
  return `a ${typeof value}`;
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
      if (!Number.isNaN(date.getTime())) return isoTime(date);
    }
    if (isIsoTime(value)) return isoTime(new Date(value));
    this.keep(key, value, expected(epoch ? "epoch milliseconds or an ISO time" : "an ISO time", value));
    return undefined;
  }
}

/** An ISO 8601 date-time string that `Date` understands (a date alone, or free text like "May 1", is not). */
function isIsoTime(value: unknown): value is string {
  return typeof value === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) && !Number.isNaN(Date.parse(value));
}

function expected(what: string, value: unknown): string {
  return `expected ${what}, got ${describeType(value)}`;
}

/** Compares two values read from a state file; they are within `stateFileLimits.depth`, so the recursion is bounded. */
function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
