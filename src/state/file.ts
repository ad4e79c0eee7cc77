// The state file `.dropkit.json` (SPEC section 9): reading it within size and depth limits without following a link, the next state, and its text.

import type { Stats } from "node:fs";
import { fail } from "../errors.js";
import { readFound } from "../files/found.js";
import { errorReason } from "../files/fsutil.js";
import { formatBytes, isRecord, nestingExceeds, parseJsonWithin, setOwn, type JsonLimits } from "../files/jsonfile.js";
import { describeType, liftLegacy, orderState, readV1, type ReadState, type StatePlan, type StateV1 } from "./shape.js";

export type { LegacyState, ReadState, StatePlan, StateV1 } from "./shape.js";

/** The name of the state file in the working directory. */
export const stateFileName = ".dropkit.json";

/**
 * A state file larger or deeper than this is treated as corrupt: moved aside with a warning, never
 * parsed (a v1 file is about 1 KB; `extra` may carry more, verbatim).
 */
export const stateFileLimits: JsonLimits = { bytes: 4 * 1024 * 1024, depth: 128 };

/**
 * What was found at the state file's path. `stats` (and `bytes`, for a file) are what the write
 * compares just before it replaces the file, to notice a change made by another program meanwhile.
 */
export type ReadStateResult =
  | { kind: "missing" }
  /** A symbolic link: never followed, neither read nor written through; the write replaces the link itself. */
  | { kind: "link"; target: string; stats: Stats }
  | ({ kind: "v1" | "legacy"; bytes: Buffer; stats: Stats } & ReadState)
  /**
   * Not JSON, JSON that is not an object, or beyond `stateFileLimits`; `reason` says why. `bytes` is the
   * whole file, or its first `stateFileLimits.bytes` when it is larger (`complete: false`).
   */
  | { kind: "corrupt"; reason: string; bytes: Buffer; stats: Stats; complete: boolean };

/** The suffix of the copy of a lifted legacy file. */
export const legacySuffix = ".legacy";

/**
 * Reads the state file tolerantly, never following a symbolic link. A JSON object with `"schema": 1`
 * is v1; any other JSON object is read as the legacy shape (every field optional). Missing fields take
 * their defaults; unknown keys and values of the wrong type are kept verbatim under `extra` and listed
 * in `setAside`. Text that does not parse, JSON that is not an object, and a file beyond
 * `stateFileLimits` are `corrupt`.
 *
 * @param file - Absolute path of the state file.
 * @throws DropkitError `IOError` (74) when something is there but cannot be read, or is not a file.
 */
export function readState(file: string): ReadStateResult {
  let found;
  try {
    found = readFound(file, stateFileLimits.bytes);
  } catch (error) {
    fail("IOError", `Cannot read the state file ${file} (${errorReason(error)}). Check its permissions.`, { file, source: file });
  }
  if (found.kind === "missing") return found;
  if (found.kind === "link") return { kind: "link", target: found.target, stats: found.stats };
  if (found.kind === "other") {
    fail(
      "IOError",
      `Cannot read the state file ${file}: it is ${found.what}, not a file. Move it away; dropkit writes a new state file there.`,
      { file, source: file },
    );
  }
  const { bytes, stats, complete } = found;
  const parsed = parseJsonWithin(bytes.toString("utf8"), complete, stats.size, stateFileLimits);
  if (!parsed.ok) return { kind: "corrupt", reason: parsed.reason, bytes, stats, complete };
  const data = parsed.value;
  if (!isRecord(data)) return { kind: "corrupt", reason: `it holds ${describeType(data)}, not an object`, bytes, stats, complete };
  if (data.schema === 1) return { kind: "v1", bytes, stats, ...readV1(data) };
  return { kind: "legacy", bytes, stats, ...liftLegacy(data) };
}

/**
 * The text of a v1 state file: the fields in the SPEC's order, two-space indentation, a final newline.
 * Safe for any state `readState` returns (its `extra` is within the depth limit).
 */
export function stateText(state: StateV1): string {
  return JSON.stringify(orderState(state), null, 2) + "\n";
}

/**
 * The state as it is written, within the limits `readState` applies (`stateFileLimits`), so that the next run reads
 * back what this one wrote instead of moving it aside as corrupt:
 *
 * - an `extra` entry nested too deep to sit under `extra` (a legacy key at the depth limit goes one level deeper
 *   there) is left out;
 * - a text over the size limit is written compact (no indentation) instead; still over it, the largest `extra`
 *   entries are left out until it fits.
 *
 * What is left out is named in the warning; a lifted legacy file's copy (`.dropkit.json.legacy`) keeps every byte.
 *
 * @param file - The state file, for the warning.
 * @param lifted - Whether the state comes from a legacy file, whose copy keeps what is left out.
 * @throws DropkitError `IOError` (74) when the plan alone is over the size limit: nothing could read it back.
 */
export function fitState(
  file: string,
  state: StateV1,
  lifted: boolean,
): { state: StateV1; text: string; leftOut: string[]; warning?: string } {
  const extra: Record<string, unknown> = {};
  const tooDeep: string[] = [];
  for (const [key, value] of Object.entries(state.extra)) {
    // The file's object is level 1 and `extra` level 2: an entry's own nesting may take the rest.
    if (value !== null && typeof value === "object" && nestingExceeds(JSON.stringify(value), stateFileLimits.depth - 2)) tooDeep.push(key);
    else setOwn(extra, key, value);
  }
  let fitted: StateV1 = { ...state, extra };
  let text = stateText(fitted);
  const tooLarge: string[] = [];
  if (Buffer.byteLength(text) > stateFileLimits.bytes) {
    text = compactText(fitted);
    // Largest first: as few entries as possible are left out.
    const bySize = Object.keys(extra)
      .map((key) => ({ key, bytes: Buffer.byteLength(JSON.stringify(extra[key]) ?? "") }))
      .sort((a, b) => b.bytes - a.bytes);
    while (Buffer.byteLength(text) > stateFileLimits.bytes && bySize.length > 0) {
      const { key } = bySize.shift()!;
      delete extra[key];
      tooLarge.push(key);
      fitted = { ...fitted, extra };
      text = compactText(fitted);
    }
    if (Buffer.byteLength(text) > stateFileLimits.bytes) {
      fail(
        "IOError",
        `Cannot write the state file ${file}: this run's plan alone is ${formatBytes(Buffer.byteLength(text))}, over ` +
          `the ${formatBytes(stateFileLimits.bytes)} dropkit reads back. Nothing was changed; use fewer or shorter-named ` +
          `archives in one drop.`,
        { file, source: file },
      );
    }
  }
  const left = [
    ...tooDeep.map((key) => `${key} (nested deeper than the ${stateFileLimits.depth} levels dropkit reads)`),
    ...tooLarge.map((key) => `${key} (too large: the file would pass the ${formatBytes(stateFileLimits.bytes)} dropkit reads)`),
  ];
  const leftOut = [...tooDeep, ...tooLarge];
  if (left.length === 0) return { state: fitted, text, leftOut };
  const kept = lifted ? ", and kept only in the copy of the legacy file (named in the state record)" : "";
  return {
    state: fitted,
    text,
    leftOut,
    warning: `The state file ${file} would hold values that its next read would refuse; they are left out of it${kept}: ${left.join(", ")}.`,
  };
}

/** The state's text without indentation: the same data, a final newline. */
function compactText(state: StateV1): string {
  return JSON.stringify(orderState(state)) + "\n";
}

/**
 * The state a write puts in place of `previous`: this run's plan and tool version, `updatedAt` now; from a v1 or legacy
 * file, its `createdAt`, its `migratedFrom` (whose `at`, for a lift, is this write) and its `extra`, kept.
 *
 * @param file - The state file, for the warning.
 * @param at - The run's ISO time.
 * @returns The state, and a warning naming what the previous file had that dropkit does not use (kept under `extra`).
 */
export function nextState(
  file: string,
  previous: ReadStateResult,
  plan: StatePlan,
  toolVersion: string,
  at: string,
): { state: StateV1; warning?: string } {
  const state: StateV1 = { schema: 1, toolVersion, createdAt: at, updatedAt: at, plan, extra: {} };
  if (previous.kind !== "v1" && previous.kind !== "legacy") return { state };
  if (previous.state.createdAt) state.createdAt = previous.state.createdAt;
  if (previous.state.migratedFrom) state.migratedFrom = { ...previous.state.migratedFrom, at: previous.state.migratedFrom.at || at };
  state.extra = previous.state.extra;
  const warning = setAsideWarning(file, previous.setAside);
  return warning ? { state, warning } : { state };
}

/** The warning naming what a state file had that dropkit does not use (kept under `extra`), or `undefined` for nothing. */
export function setAsideWarning(file: string, setAside: ReadState["setAside"]): string | undefined {
  if (setAside.length === 0) return undefined;
  const list = setAside.map((s) => `${s.key} (${s.reason})`).join(", ");
  return `The state file ${file} has values dropkit does not use; they are kept verbatim under "extra": ${list}.`;
}
