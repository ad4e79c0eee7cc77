// `dropkit create`: resolve the config, run hooks, choose theme and modules, write the state and the cache.

import path from "node:path";
import { FolderListing } from "../../files/listing.js";
import { requireThemePath } from "../../config/themepath.js";
import { clipanion } from "./clipanion.js";
import { planWarnings } from "../../core/decisions.js";
import type { FingerprintCache, FingerprintResult } from "../../archives/fingerprints.js";
import type { Plan, ResolvedConfig } from "../../core/protocol.js";
import type { HookOutputRecord, HookRecord } from "../../hooks/scripts.js";
import type { DecisionLog } from "../../output/log.js";
import type { StopCheck } from "../../signals.js";
import type { ProgressLine, ProgressTarget } from "../../output/progress.js";
import type { ZipVerdict } from "../../archives/zip.js";
import type { LoadConfigResult } from "../../config/resolve.js";
import type { TrustScope } from "../../files/trust.js";
import type { StatePlan } from "../../state/file.js";
import { fail } from "../../errors.js";
import { DropkitCommand, reportProblems, reportResolution, requireHookDirectories } from "./base.js";

const { Command, Option } = clipanion;

/** Creates the drop in the working directory (SPEC section 6). */
export class CreateCommand extends DropkitCommand {
  static override paths = [["create"]];

  static override usage = Command.Usage({
    description: "create the drop in the working directory",
    details: `
      Resolves the config (flags, environment, config file, presets, defaults), runs the init scripts, scans the working directory for
      \`*.zip\` archives, chooses the theme and the modules, reads every archive (a SHA-256 and a zip check, on every CPU, only for
      archives the cache does not know), writes the state file \`.dropkit.json\`, updates the archive cache, and runs the post scripts.

      Every decision is logged on stderr: as aligned text by default, or one JSON object per line with \`--log-format=json\`. On a terminal, long
      reading shows a progress line. An invalid config, a folder with no \`*.zip\` (exit 66, EmptyDrop), or a theme or selected module that is not a
      readable zip (exit 65, ArchiveInvalid) stops the run before anything is written.

      \`--dry-run\` resolves, scans and checks the archives and logs the plan, but runs no hook and writes nothing: the folder is left byte for byte
      as it was. \`--strict\` makes any warning raised before the state is written an error (exit 65, StrictWarnings): nothing is written and no post
      hook runs.
    `,
    examples: [
      ["Create the drop with no config at all", "$0 create"],
      ["Pick a theme and leave out some modules", "$0 create --theme=ocean --exclude='test-*'"],
      ["Use only the standard preset, with a JSON log for CI", "$0 create --preset=standard --log-format=json"],
      ["See what would be created, writing nothing", "$0 create --dry-run"],
      ["In CI: fail on any warning (an unmatched glob, an unreadable archive)", "$0 create --strict --log-format=json"],
    ],
  });

  strict = Option.Boolean("--strict", false, {
    description: "make any warning raised before the state is written an error (exit 65; nothing written)",
  });

  dryRun = Option.Boolean("--dry-run", false, {
    description: "resolve, scan and check the archives and log the plan; run no hook and write nothing",
  });

  /**
   * A first Ctrl-C while the config's code waits gets a note, and the run stops once it has loaded (a second quits at
   * once); SIGTERM and SIGHUP stop it at once. Either way nothing is written: the run has not begun.
   */
  protected override whileConfigLoads(): "wait" {
    return "wait";
  }

  protected async run(log: DecisionLog, stop: StopCheck): Promise<number> {
    const [{ loadConfig }, { checkHooksTrust }, { trustScope }, { stateFileName }] = await Promise.all([
      import("../../config/resolve.js"),
      import("../../hooks/held.js"),
      import("../../files/trust.js"),
      import("../../state/file.js"),
    ]);
    const cwd = this.cwd();
    const env = this.context.env;
    // One listing of the drop for discovery, preset detection and the first look for archives; a run that writes lists it
    // again under the lock (below).
    const listing = new FolderListing(cwd);
    const loaded = await loadConfig({ cwd, env, flags: this.configFlags(), listing });
    // Interrupted while a .ts config loaded: stop before logging what it resolved to.
    stop.throwIfInterrupted();
    const resolved = reportResolution(log, loaded, { decisions: true });
    if (resolved !== 0) return resolved;
    // Hooks another user could have written, or a hooks path that is no directory, stop the run here, both phases.
    const trust = trustScope(env, loaded.discovery);
    checkHooksTrust(loaded.config!.hooks, cwd, trust);
    requireHookDirectories(loaded, cwd);
    // A cache.file that is not dropkit's stops the run here, before the lock, the hooks or any write.
    const cache = await loadCacheFor(log, loaded);
    // Then the drop itself: with no archive, the run stops after the settings' own verdicts and before any hook, lock or write.
    const archives = await requireArchives(log, cwd, loaded, listing);
    const run: Run = {
      log,
      loaded,
      config: loaded.config!,
      cwd,
      env,
      cache,
      listing,
      trust,
      stop,
      stateFile: path.join(cwd, stateFileName),
      stderr: this.context.stderr as ProgressTarget,
      strict: this.strict,
    };
    return this.dryRun ? dryRun(run, archives) : writeDrop(run, this.cli.binaryVersion ?? "0.0.0");
  }
}

// --- helpers ---

/** What the steps of one run share, once the config is resolved and the drop is known to hold archives. */
interface Run {
  log: DecisionLog;
  loaded: LoadConfigResult;
  config: ResolvedConfig;
  cwd: string;
  env: NodeJS.ProcessEnv;
  cache: FingerprintCache | null;
  listing: FolderListing;
  trust: TrustScope;
  stop: StopCheck;
  stateFile: string;
  stderr: ProgressTarget;
  strict: boolean;
}

/**
 * The run that writes: under the folder's lock, the init hooks, the scan as they left the folder, the plan, the
 * archives read, then the state and the cache staged and committed, and the post hooks.
 */
async function writeDrop(run: Run, version: string): Promise<number> {
  const [{ runHooks, defaultHookTimeoutMs }, { scanArchives }, { beginTransaction }, { cacheVersion }] = await Promise.all([
    import("../../hooks/scripts.js"),
    import("../../archives/scan.js"),
    import("../../state/transaction.js"),
    import("../../archives/fingerprints.js"),
  ]);
  const { log, config, cwd, env, cache, listing, stop, stateFile } = run;
  // The lock's wait and the hooks take an AbortSignal.
  const signal = stop.signal;
  // In the JSON log a hook's output is captured into hook-output records, so that it can never forge a record.
  const output = log.format === "json" ? (record: HookOutputRecord) => log.write({ ...record }) : undefined;
  const hookOptions = {
    cwd,
    env,
    // DROPKIT_HOOK_TIMEOUT was checked with the rest of the environment (a bad value stopped the run above).
    timeoutMs: run.loaded.hookTimeoutMs ?? defaultHookTimeoutMs,
    onFailure: config.hooks.onFailure,
    onFailureOrigin: failureOrigin(run.loaded),
    log: (record: HookRecord) => log.write({ ...record }),
    output,
    signal,
    trust: run.trust,
  };
  // One create at a time in this folder, from here to the end: the transaction holds the lock, and a
  // run that ends in any failure (a post hook with onFailure "fail", a signal) puts the state back.
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
    if (archives.length === 0) await emptyDrop(cwd, run.loaded, init.ran.length > 0);
    const checked = await planAndRead(run, archives);
    if (typeof checked === "number") return checked;
    const refused = refuseWarnings(log, run.strict, false);
    if (refused !== 0) return refused;
    const { plan, read } = checked;

    // Both files are staged (written and flushed) before either replaces anything, so a state or cache
    // that cannot be written stops the run with exit 74 and nothing changed. A cache whose entries did not
    // change is left as it is (unless it must be rebuilt or lifted to the current layout).
    await transaction.stageState(statePlan(plan, config), version);
    const fingerprinted = read.fingerprinted;
    const rewrite =
      fingerprinted !== undefined &&
      cache !== null &&
      (fingerprinted.changed || cache.found.kind !== "cache" || cache.found.version !== cacheVersion);
    if (rewrite) await transaction.stageCache(config.cache.file, fingerprinted, cache);
    // A signal that came while the plan was made or the state staged stops the run before anything is replaced.
    stop.throwIfInterrupted();
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
    stop.throwIfInterrupted();
    succeeded = true;
    return 0;
  } finally {
    const ended = succeeded ? await transaction.finish(listing) : transaction.abort();
    for (const warning of ended.warnings) log.warn(warning, stateFile);
    if (ended.action) log.write({ event: "state", action: ended.action, file: stateFile });
  }
}

/**
 * `--dry-run`: the plan and the archives' verdicts as a run would make them from the folder as it is, with no lock, no
 * hook and no write (the cache is read, never written), so the folder is left byte for byte as it was. A `state`
 * record with `action: "dry-run"` ends the log with the plan the state file would hold.
 */
async function dryRun(run: Run, archives: string[]): Promise<number> {
  const checked = await planAndRead(run, archives);
  if (typeof checked === "number") return checked;
  const refused = refuseWarnings(run.log, run.strict, true);
  if (refused !== 0) return refused;
  run.log.write({ event: "state", action: "dry-run", file: run.stateFile, plan: statePlan(checked.plan, run.config) });
  return 0;
}

/**
 * The drop's archives as found before anything runs: an `EmptyDrop` error (with the warnings of entries left out, which
 * may say why) when there is none.
 */
async function requireArchives(log: DecisionLog, cwd: string, loaded: LoadConfigResult, listing: FolderListing): Promise<string[]> {
  const { scanArchives } = await import("../../archives/scan.js");
  const leftOut: Array<{ message: string; source: string }> = [];
  const archives = await scanArchives(cwd, (message, source) => leftOut.push({ message, source }), listing);
  // Otherwise these are logged by the scan the run makes (under the lock, or for a dry run, right here).
  if (archives.length === 0) for (const w of leftOut) log.warn(w.message, w.source);
  if (archives.length === 0) await emptyDrop(cwd, loaded, false);
  return archives;
}

/**
 * Throws `EmptyDrop` (66) for a drop with no `*.zip`, naming the folder; when the config in use is in another folder
 * (found by walking up, or named), that folder and how many archives it holds, since that is where the user meant to
 * run, most likely.
 */
async function emptyDrop(cwd: string, loaded: LoadConfigResult, afterHooks: boolean): Promise<never> {
  const { scanArchives } = await import("../../archives/scan.js");
  const when = afterHooks ? " once the init hooks had run" : "";
  const said = [
    `No *.zip archive in ${cwd}${when}, so there is no drop to create: nothing was written${afterHooks ? "" : " and no hook ran"}.`,
  ];
  let advice = `Put the drop's theme and module archives in ${cwd}, or run dropkit in the folder that holds them.`;
  const configFile = loaded.discovery.file;
  const configDir = configFile === null ? null : path.dirname(configFile);
  if (configFile !== null && configDir !== null && configDir !== cwd) {
    let count: number | null = null;
    try {
      count = (await scanArchives(configDir)).length;
    } catch {
      // That folder cannot be listed: it is named without a count.
    }
    const config = `The config in use, ${configFile}, is in ${configDir}`;
    if (count === 0) said.push(`${config}, which holds no *.zip either.`);
    else if (count === null) said.push(`${config}.`);
    else {
      said.push(`${config}, which holds ${count} *.zip archive${count === 1 ? "" : "s"}: run dropkit there (cd ${configDir}).`);
      advice = `Or put this drop's archives in ${cwd}.`;
    }
  }
  fail("EmptyDrop", `${said.join(" ")} ${advice}`, { file: cwd, source: cwd });
}

/**
 * The plan of these archives, logged with its warnings, then every archive read and judged: the plan and what was read,
 * or the exit code of the first problem (after logging every problem). A legacy state file that this run would lift
 * gets a warning for each way the plan differs from the one it recorded.
 */
async function planAndRead(run: Run, archives: string[]): Promise<{ plan: Plan; read: ArchivesRead } | number> {
  const [{ planDrop }, { judgeArchives }, { readState }, { liftChanges }] = await Promise.all([
    import("../../config/resolve.js"),
    import("../../archives/scan.js"),
    import("../../state/file.js"),
    import("../../state/lift.js"),
  ]);
  const { log, cwd } = run;
  const planned = await planDrop(run.loaded, archives);
  // What the plan adds: module globs that match no archive, an only that selects none, names archives share.
  for (const warning of planWarnings(planned)) log.coreWarning(warning);
  if (!planned.ok) return reportProblems(log, planned.errors);
  const plan = planned.plan!;
  await requireThemePath(plan, run.loaded.origins?.theme);
  logPlan(log, plan);

  // Every archive is read (hashed and checked as a zip) before anything is staged, so that a bad one stops the
  // run with nothing changed.
  // A signal stops the reading at once (the worker threads are stopped mid-file) and the progress line is erased.
  const read = await readArchives(log, run.stderr, run.env, cwd, archives, plan, run.cache, run.stop.signal);
  const judged = judgeArchives(cwd, plan, archives, read.verdictOf);
  for (const warning of judged.warnings) log.warn(warning.message, warning.source);
  if (judged.errors.length > 0) {
    const { exitCodeOf } = await import("../../errors.js");
    log.errors(judged.errors.map((d) => ({ ...d, exitCode: exitCodeOf([d]) })));
    return exitCodeOf(judged.errors);
  }
  // Said before the write, so that --strict can refuse it: the lift keeps the legacy file, not its choices.
  const drop = { theme: plan.theme.name, modules: plan.modules, excluded: plan.excluded };
  for (const change of liftChanges(readState(run.stateFile), drop, run.stateFile, run.loaded.discovery.file)) log.coreWarning(change);
  return { plan, read };
}

/** How many warnings a `StrictWarnings` message quotes before it counts the rest. */
const strictQuoted = 10;

/**
 * `--strict`: every warning logged so far (the config's, the scan's, the plan's, the archives', an init hook's, the
 * lift's) is an error: one `StrictWarnings` record (65) quoting them, with its code where a warning has one. 0 when
 * there is none or `--strict` is off.
 */
function refuseWarnings(log: DecisionLog, strict: boolean, dry: boolean): number {
  const warned = log.warned;
  if (!strict || warned.length === 0) return 0;
  const quoted = warned.slice(0, strictQuoted).map((w, i) => `(${i + 1}) ${w.code ? `${w.code}: ` : ""}${w.message}`);
  if (warned.length > strictQuoted) quoted.push(`and ${warned.length - strictQuoted} more`);
  const many = warned.length === 1 ? "1 warning was" : `${warned.length} warnings were`;
  const outcome = dry ? "the dry run fails" : "nothing was written and no post hook ran";
  const message = `${many} raised before the state was written, and --strict makes warnings errors, so ${outcome}: ${quoted.join(" ")}`;
  log.errors([{ name: "StrictWarnings", exitCode: 65, path: "", source: "--strict", message }]);
  return 65;
}

/**
 * Where `hooks.onFailure: "fail"` came from, and how to opt out, for the HookFailed message: the preset that set it
 * (auto-detected or listed), the variable, or the config line. Undefined for `continue`, which never fails a run.
 */
function failureOrigin(loaded: LoadConfigResult): { from: string; fix: string } | undefined {
  const origin = loaded.origins?.["hooks.onFailure"];
  if (!origin || loaded.config!.hooks.onFailure !== "fail") return undefined;
  const keep = 'set hooks.onFailure: "continue" in the config';
  switch (origin.layer) {
    case "preset": {
      const presets = loaded.presets;
      const preset = presets?.applied.find((p) => p.source === origin.source || p.name === origin.source);
      const name = JSON.stringify(preset?.name ?? origin.source);
      if (presets?.mode === "auto") {
        const why = preset?.glob ? `its detect glob ${preset.glob} matched` : (preset?.reason ?? "it was detected");
        return {
          from: ` (set by the preset ${name}, applied automatically because ${why})`,
          fix: `${keep}, or turn automatic presets off with "presets": [] (or --preset=none)`,
        };
      }
      const listed = loaded.origins?.presets;
      const at = listed && listed.layer !== "default" ? ` (listed at ${listed.source})` : "";
      return { from: ` (set by the preset ${name}${at})`, fix: `${keep} (it wins over presets), or take ${name} out of the presets` };
    }
    case "env":
      return { from: ` (set by ${origin.source})`, fix: `unset ${origin.source}, or set it to "continue"` };
    case "config":
      return { from: ` (set at ${origin.source})`, fix: `set it to "continue" there` };
    default:
      return { from: ` (set by ${origin.source})`, fix: 'set hooks.onFailure to "continue"' };
  }
}

/** What the state file records of a plan. */
function statePlan(plan: Plan, config: ResolvedConfig): StatePlan {
  return { theme: plan.theme.name, modules: plan.modules, excluded: plan.excluded, presets: config.presets };
}

/** The archives' verdicts, and with the cache, their fingerprints. */
interface ArchivesRead {
  verdictOf: (name: string) => ZipVerdict | undefined;
  fingerprinted?: FingerprintResult;
}

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
async function loadCacheFor(log: DecisionLog, loaded: LoadConfigResult): Promise<FingerprintCache | null> {
  const config = loaded.config!;
  if (!config.cache.enabled) return null;
  const origin = loaded.origins?.["cache.file"];
  const { loadCache, foreignCacheMessage } = await import("../../archives/fingerprints.js");
  const file = config.cache.file;
  const cache = loadCache(file);
  if (cache.found.kind === "foreign") {
    const source = origin && origin.layer !== "default" ? origin.source : file;
    fail("IOError", foreignCacheMessage(file, cache.found.what), { path: "cache.file", file, source });
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
  cache: FingerprintCache | null,
  signal: AbortSignal,
): Promise<ArchivesRead> {
  const [{ shouldColor }, { checkArchives }] = await Promise.all([import("../../output/log.js"), import("../../archives/scan.js")]);
  const outside =
    plan.theme.file === null && plan.theme.path !== null
      ? await checkArchives(cwd, [plan.theme.path], { signal })
      : new Map<string, ZipVerdict>();
  if (cache === null) {
    const verdicts = await checkArchives(cwd, archives, { signal });
    return { verdictOf: (name) => verdicts.get(name) ?? outside.get(name) };
  }
  const { fingerprintArchives } = await import("../../archives/fingerprints.js");
  // The progress module is loaded only on a terminal, the one place a line can be drawn, and not with --quiet.
  let progress: ProgressLine | undefined;
  if (stderr.isTTY === true && !log.quiet) {
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
