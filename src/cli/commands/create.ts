// `dropkit create`: resolve the config, run hooks, choose theme and modules, write the state and the cache.

import path from "node:path";
import { FolderListing } from "../../files/listing.js";
import { requireThemePath } from "../../config/themepath.js";
import { clipanion } from "./clipanion.js";
import { planWarnings } from "../../core/decisions.js";
import type { Cache, FingerprintResult } from "../../archives/cache.js";
import type { Plan, ResolvedConfig } from "../../core/protocol.js";
import type { HookOutputRecord, HookRecord } from "../../hooks/scripts.js";
import type { DecisionLog } from "../../output/log.js";
import type { ProgressLine, ProgressTarget } from "../../output/progress.js";
import type { ZipVerdict } from "../../archives/zip.js";
import { DropkitCommand, reportProblems, reportResolution } from "./base.js";

const { Command } = clipanion;

/** Creates the drop in the working directory (SPEC section 6). */
export class CreateCommand extends DropkitCommand {
  static override paths = [["create"]];

  static override usage = Command.Usage({
    description: "create the drop in the working directory",
    details: `
      Resolves the config (flags, environment, config file, presets, defaults), runs the init scripts, scans the working directory for \`*.zip\` archives, chooses the theme and the modules, reads every archive (a SHA-256 and a zip check, on every core, only for archives the cache does not know), writes the state file \`.dropkit.json\`, updates the archive cache, and runs the post scripts.

      Every decision is logged on stderr: as aligned text by default, or one JSON object per line with \`--log-format=json\`. On a terminal, long reading shows a progress line. An invalid config, or a theme or selected module that is not a readable zip (exit 65, ArchiveInvalid), stops the run before anything is written.
    `,
    examples: [
      ["Create the drop with no config at all", "$0 create"],
      ["Pick a theme and leave out some modules", "$0 create --theme=ocean --exclude='test-*'"],
      ["Use only the standard preset, with a JSON log for CI", "$0 create --preset=standard --log-format=json"],
    ],
  });

  protected async run(log: DecisionLog, signal: AbortSignal): Promise<number> {
    const [
      { loadConfig, planDrop },
      { runHooks, defaultHookTimeoutMs, checkHooksTrust },
      { scanArchives, judgeArchives },
      { beginTransaction },
      { stateFileName },
      { cacheVersion },
      { trustScope },
    ] = await Promise.all([
      import("../../config/resolve.js"),
      import("../../hooks/scripts.js"),
      import("../../archives/scan.js"),
      import("../../state/transaction.js"),
      import("../../state/file.js"),
      import("../../archives/cache.js"),
      import("../../files/trust.js"),
    ]);
    const cwd = this.cwd();
    const env = this.context.env;
    // One listing of the drop for discovery and preset detection; the scan and the cleanup list it again under the
    // lock (below).
    const listing = new FolderListing(cwd);
    const loaded = await loadConfig({ cwd, env, flags: this.configFlags(), listing });
    const resolved = reportResolution(log, loaded, { decisions: true });
    if (resolved !== 0) return resolved;
    const config = loaded.config!;
    // DROPKIT_HOOK_TIMEOUT was checked with the rest of the environment (a bad value stopped the run above).
    const timeoutMs = loaded.hookTimeoutMs ?? defaultHookTimeoutMs;
    // In the JSON log a hook's output is captured into hook-output records, so that it can never forge a record.
    const output = log.format === "json" ? (record: HookOutputRecord) => log.write({ ...record }) : undefined;
    // Hooks another user could have written stop the run here, both phases, before the lock or any write.
    const trust = trustScope(env, loaded.discovery);
    checkHooksTrust(config.hooks, cwd, trust);
    const hookOptions = {
      cwd,
      env,
      timeoutMs,
      onFailure: config.hooks.onFailure,
      log: (record: HookRecord) => log.write({ ...record }),
      output,
      signal,
      trust,
    };
    // A cache.file that is not dropkit's stops the run here, before the lock, the hooks or any write.
    const origin = loaded.origins?.["cache.file"];
    const cache = await loadCacheFor(log, config, origin && origin.layer !== "default" ? origin.source : undefined);

    // One create at a time in this folder, from here to the end: the transaction holds the lock, and a
    // run that ends in any failure (a post hook with onFailure "fail", a signal) puts the state back.
    const stateFile = path.join(cwd, stateFileName);
    const transaction = await beginTransaction(stateFile, {
      env,
      onLockWait: (holder, file) => log.write({ event: "state", action: "waiting", file, holder }),
      onWarning: (message) => log.warn(message, stateFile),
      signal,
    });
    // The lock names the running hook's group: a run killed with SIGKILL is not over while its hook works in the folder.
    const onGroup = (pgid: number | null): void => transaction.recordHookGroup(pgid);
    // Another create may have changed the archives between the listing and the lock (its hooks run under its lock,
    // and it may have released it a moment before this run took it): from here on, the drop is listed as the lock
    // keeps it.
    listing.forget();
    let succeeded = false;
    try {
      const init = await runHooks(config.hooks.initScriptsDir, { ...hookOptions, phase: "init", onGroup });
      for (const warning of init.warnings) log.warn(warning.message, warning.source);
      // An init hook may add, replace or remove archives: the scan lists the folder as the hooks left it.
      if (init.ran.length > 0) listing.forget();

      const archives = await scanArchives(cwd, (message, source) => log.warn(message, source), listing);
      const planned = await planDrop(loaded, archives);
      // What the plan adds: module globs that match no archive, an only that selects none, names archives share.
      for (const warning of planWarnings(planned)) log.coreWarning(warning);
      if (!planned.ok) return reportProblems(log, planned.errors);
      const plan = planned.plan!;
      await requireThemePath(plan, loaded.origins?.theme);
      logPlan(log, plan);

      // Every archive is read (hashed and checked as a zip) before anything is staged, so that a bad one stops the
      // run with nothing changed.
      // A signal stops the reading at once (the worker threads are stopped mid-file) and the progress line is erased.
      const read = await readArchives(log, this.context.stderr as ProgressTarget, env, cwd, archives, plan, cache, signal);
      const judged = judgeArchives(cwd, plan, archives, read.verdictOf);
      for (const warning of judged.warnings) log.warn(warning.message, warning.source);
      if (judged.errors.length > 0) {
        const { exitCodeOf } = await import("../../errors.js");
        log.errors(judged.errors.map((d) => ({ ...d, exitCode: exitCodeOf([d]) })));
        return exitCodeOf(judged.errors);
      }

      // Both files are staged (written and flushed) before either replaces anything, so a state or cache
      // that cannot be written stops the run with exit 74 and nothing changed. A cache whose entries did not
      // change is left as it is (unless it must be rebuilt or lifted to the current layout).
      await transaction.stageState(
        { theme: plan.theme.name, modules: plan.modules, excluded: plan.excluded, presets: config.presets },
        this.cli.binaryVersion ?? "0.0.0",
      );
      const fingerprinted = read.fingerprinted;
      const rewrite =
        fingerprinted !== undefined &&
        cache !== null &&
        (fingerprinted.changed || cache.found.kind !== "cache" || cache.found.version !== cacheVersion);
      if (rewrite) await transaction.stageCache(config.cache.file, fingerprinted, cache);
      // A signal that came while the plan was made or the state staged stops the run before anything is replaced.
      signal.throwIfAborted();
      const written = await transaction.commit();
      for (const warning of written.warnings) log.warn(warning, stateFile);
      log.write({
        event: "state",
        action: written.action,
        file: stateFile,
        read: written.read,
        lifted: written.lifted,
        legacyCopy: written.legacyCopy,
        movedAside: written.movedAside,
        plan: written.state.plan,
      });
      if (fingerprinted) {
        log.write({
          event: "state",
          action: "cache",
          file: config.cache.file,
          hashed: fingerprinted.hashed,
          reused: fingerprinted.reused,
          checked: fingerprinted.checked,
          written: rewrite,
          movedAside: written.cacheMovedAside ?? null,
        });
      }

      const post = await runHooks(config.hooks.postScriptsDir, { ...hookOptions, phase: "post", onGroup });
      for (const warning of post.warnings) log.warn(warning.message, warning.source);
      // The last check: from here to the exit code nothing can run in between, so a signal always puts the state back.
      signal.throwIfAborted();
      succeeded = true;
      return 0;
    } finally {
      const ended = succeeded ? await transaction.finish(listing) : transaction.abort();
      for (const warning of ended.warnings) log.warn(warning, stateFile);
      if (ended.action) log.write({ event: "state", action: ended.action, file: stateFile });
    }
  }
}

// --- helpers ---

/** Past this many modules, the text log has a line per reason instead of a line per module. */
const moduleLinesMax = 40;

/**
 * One `plan` record for the theme, one per module, and a summary. With many modules the text log, which people
 * read, groups them: one line per reason with the count and the first names; the JSON log keeps every record.
 */
function logPlan(log: DecisionLog, plan: Plan): void {
  const theme = plan.theme.file ?? plan.theme.path;
  log.write({ event: "plan", item: "theme", value: theme, reason: plan.theme.reason, alternatives: plan.theme.alternatives });
  if (log.format === "text" && plan.decisions.length > moduleLinesMax) {
    const groups = new Map<string, { selected: boolean; reason: string; names: string[] }>();
    for (const d of plan.decisions) {
      const key = `${d.selected ? "+" : "-"}${d.reason}`;
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { selected: d.selected, reason: d.reason, names: [] }));
      group.names.push(d.name);
    }
    for (const group of groups.values()) log.write({ event: "plan", item: "modules", ...group });
  } else {
    for (const d of plan.decisions) log.write({ event: "plan", item: "module", ...d });
  }
  log.write({ event: "plan", item: "summary", theme, modules: plan.modules, excluded: plan.excluded });
}

/**
 * Reads the cache when it is enabled. A `cache.file` that is not a dropkit cache (another file, the
 * config, an archive) is an `IOError` naming `cache.file` and where it was set.
 */
async function loadCacheFor(log: DecisionLog, config: ResolvedConfig, origin: string | undefined): Promise<Cache | null> {
  if (!config.cache.enabled) return null;
  const { loadCache, foreignCacheMessage } = await import("../../archives/cache.js");
  const file = config.cache.file;
  const cache = loadCache(file);
  if (cache.found.kind === "foreign") {
    const { fail } = await import("../../errors.js");
    fail("IOError", foreignCacheMessage(file, cache.found.what), { path: "cache.file", file, source: origin ?? file });
  }
  if (cache.warning) log.warn(cache.warning, file);
  return cache;
}

/**
 * Reads the archives: with the cache, fingerprints them (hashing only changed ones, checking each hashed one as a
 * zip); without it, only checks them. A theme outside the drop is checked too. Long work shows the progress line,
 * erased before this returns or throws.
 */
async function readArchives(
  log: DecisionLog,
  stderr: ProgressTarget,
  env: NodeJS.ProcessEnv,
  cwd: string,
  archives: string[],
  plan: Plan,
  cache: Cache | null,
  signal: AbortSignal,
): Promise<{ verdictOf: (name: string) => ZipVerdict | undefined; fingerprinted?: FingerprintResult }> {
  const [{ shouldColor }, { checkArchives }] = await Promise.all([import("../../output/log.js"), import("../../archives/scan.js")]);
  const outside =
    plan.theme.file === null && plan.theme.path !== null
      ? await checkArchives(cwd, [plan.theme.path], { signal })
      : new Map<string, ZipVerdict>();
  if (cache === null) {
    const verdicts = await checkArchives(cwd, archives, { signal });
    return { verdictOf: (name) => verdicts.get(name) ?? outside.get(name) };
  }
  const { fingerprintArchives } = await import("../../archives/cache.js");
  // The progress module is loaded only on a terminal, the one place a line can be drawn.
  let progress: ProgressLine | undefined;
  if (stderr.isTTY === true) {
    const { canShowProgress, ProgressLine } = await import("../../output/progress.js");
    if (canShowProgress(stderr, env, log.format)) progress = new ProgressLine(stderr, { color: shouldColor(stderr, env) });
  }
  try {
    const result = await fingerprintArchives(cwd, archives, cache, { progress, signal });
    return {
      verdictOf: (name) =>
        Object.hasOwn(result.fingerprints, name) ? result.fingerprints[name]!.zip : (result.refused[name] ?? outside.get(name)),
      fingerprinted: result,
    };
  } finally {
    progress?.stop();
  }
}
