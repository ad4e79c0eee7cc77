// A config's text resolved as `dropkit config` resolves its file, on every change: preset files are kept while they are unchanged.

import { readdirSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { loadPresets } from "../config/presetfiles.js";
import { type PresetStage, resolveSource } from "../config/resolve.js";
import { placeValueErrors } from "../config/valuepositions.js";
import type { CoreWarning, ResolveDone, ResolveNeedsPresets } from "../core/protocol.js";
import { DropkitError } from "../errors.js";
import { fileStamp } from "../files/fsutil.js";
import { limits, type ReadBudget } from "../files/limits.js";
import { accountsStamp } from "../files/trust.js";
import type { ServerContext } from "./context.js";

/**
 * What a document is resolved with: its folder (the drop), its text as the config, and, for `create`'s view, the drop's
 * archives; for "explain this key", the key `dropkit config --explain` takes.
 */
export interface TextInput {
  cwd: string;
  config: { source: string; format: "json" | "package.json"; text: string };
  archives?: string[];
  explain?: string;
}

/**
 * Resolves a config's text with the server's environment, as `dropkit config` run in its folder would (no flags):
 * every problem at once. The warnings of the preset files' search path come first, as the CLI logs them.
 *
 * @throws DropkitError for a preset file that cannot be loaded, as `dropkit config` stops on one.
 */
export async function resolveText(context: ServerContext, input: TextInput): Promise<ResolveDone> {
  const warnings: CoreWarning[] = [];
  // The text of each .ts/.js preset, to place its data's problems where their keys are written, as `dropkit config` does.
  const texts = new Map<string, string>();
  // Fenced at the config's folder, as `dropkit config` run there is (its discovery stops where it finds the config): a
  // preset below it is trusted only when every directory up to it is.
  const presets: PresetStage = (needs, _warnings, budget, trust) =>
    keptPresets(needs, input.cwd, budget, warnings, texts, (read) =>
      loadPresets(needs, warnings, budget, { ...trust, fence: input.cwd }, read),
    );
  const done = await resolveSource({
    cwd: input.cwd,
    source: input.config,
    env: context.env,
    core: context.core,
    archives: input.archives,
    explain: input.explain,
    presets,
  });
  done.errors = placeValueErrors(done.errors, texts);
  return warnings.length > 0 ? { ...done, warnings: [...warnings, ...done.warnings] } : done;
}

// --- helpers ---

/** A presets stage's answer (or refusal), its warnings and the `.ts`/`.js` presets' texts, with the state of the files it was made from. */
interface Kept {
  stamp: string;
  /** The resolve's read budget before the stage (the config's bytes), and what the stage's files added to it. */
  start: number;
  charged: number;
  texts: Map<string, string>;
  answer?: Awaited<ReturnType<PresetStage>>;
  error?: DropkitError;
  warnings: CoreWarning[];
}

/** The answers kept, by the stage's needs and the trust fence; a few configs' worth (a workspace has few), the oldest dropped first. */
const kept = new Map<string, Kept>();
const keptMax = 16;

/**
 * The presets stage's answer for `needs`, loaded again only when a file it could read changed: a `.ts`/`.js` preset is
 * evaluated when it or the presets the config asks for change, never on each keystroke in the config. The answer depends
 * on the config's size only through the read budget: it is kept for another size when neither size takes the total over
 * `limits.totalBytes`, and loaded again, as `dropkit config` loads it, when either does.
 */
async function keptPresets(
  needs: ResolveNeedsPresets["needs"],
  fence: string,
  budget: ReadBudget,
  warnings: CoreWarning[],
  texts: Map<string, string>,
  load: (texts: Map<string, string>) => ReturnType<PresetStage>,
): ReturnType<PresetStage> {
  const key = JSON.stringify([fence, needs]);
  const stamp = stampOf(needs);
  const start = budget.used;
  let entry = kept.get(key);
  if (entry === undefined || entry.stamp !== stamp || !sameBudget(entry, start)) {
    const before = warnings.length;
    const read = new Map<string, string>();
    const made = (outcome: { answer: Awaited<ReturnType<PresetStage>> } | { error: DropkitError }): Kept => ({
      stamp,
      start,
      charged: budget.used - start,
      texts: read,
      warnings: warnings.slice(before),
      ...outcome,
    });
    try {
      entry = made({ answer: await load(read) });
    } catch (error) {
      if (!(error instanceof DropkitError)) throw error;
      entry = made({ error });
    }
    warnings.length = before;
    kept.delete(key);
    kept.set(key, entry);
    if (kept.size > keptMax) kept.delete(kept.keys().next().value!);
  } else {
    budget.used += entry.charged;
  }
  warnings.push(...entry.warnings);
  for (const [file, text] of entry.texts) texts.set(file, text);
  if (entry.error) throw entry.error;
  return entry.answer!;
}

/**
 * Whether a kept answer made with `entry.start` bytes already read holds with `start`: the same start, or both totals
 * within the limit, so that no file's charge went over it then and none would now (each charge only adds).
 */
function sameBudget(entry: Kept, start: number): boolean {
  return entry.start === start || (entry.start + entry.charged <= limits.totalBytes && start + entry.charged <= limits.totalBytes);
}

/**
 * The state of every file the stage could read: the search path's entries and the presets named by path, each by device,
 * inode, size and times (a change of owner or mode moves its ctime, so a file that was judged is judged again); then
 * every directory above them, as written and after links, by device, inode, owner and mode: what the trust rule reads
 * of a directory (src/files/trust.ts), so that a folder made writable by others has its presets judged again; and the
 * account files, so that a group that gains a member has its group-writable presets judged again.
 */
function stampOf(needs: ResolveNeedsPresets["needs"]): string {
  const files = needs.presets.filter((p) => p.kind === "path").map((p) => p.ref);
  for (const dir of needs.searchPath) {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (error) {
      files.push(`${dir}:${(error as NodeJS.ErrnoException).code}`);
      continue;
    }
    for (const name of names) files.push(path.join(dir, name));
  }
  const dirs = new Set<string>();
  const stamps = files.map((file) => {
    try {
      const stats = statSync(file);
      for (const named of new Set([file, realpathSync.native(file)]))
        for (let dir = path.dirname(named); !dirs.has(dir); dir = path.dirname(dir)) {
          dirs.add(dir);
          if (path.dirname(dir) === dir) break;
        }
      return `${file}:${fileStamp(stats)}`;
    } catch {
      return `${file}:-`;
    }
  });
  for (const dir of dirs) {
    try {
      const stats = statSync(dir);
      stamps.push(`${dir}:${stats.dev}:${stats.ino}:${stats.uid}:${stats.gid}:${stats.mode}`);
    } catch {
      stamps.push(`${dir}:-`);
    }
  }
  // Whether a group-writable file or folder is trusted depends on who is in its group.
  stamps.push(accountsStamp());
  return stamps.join("\n");
}
