// `dropkit init`: seven questions (or their defaults with --yes) to a minimal, validated dropkit.config.json.

import path from "node:path";
import { clipanion } from "./clipanion.js";
import { deriveDecisions } from "../../core/decisions.js";
import type { DecisionLog } from "../../output/log.js";
import type { StopCheck } from "../../signals.js";
import { fail } from "../../errors.js";
import { DropkitCommand, reportProblems } from "./base.js";

const { Command, Option } = clipanion;

/** Exit code for Ctrl-C at a prompt: 128 + SIGINT, what shells report for an interrupted command. */
const cancelledExitCode = 130;

/** Writes `dropkit.config.json` from seven answers (SPEC section 6). */
export class InitCommand extends DropkitCommand {
  static override paths = [["init"]];

  static override usage = Command.Usage({
    description: "write a dropkit.config.json from seven questions",
    details: `
      Asks for the theme, the presets, modules to exclude, modules \`only\`, \`hooks.onFailure\`, \`cache.enabled\` and
      \`log.format\`, offering what the folder holds: its theme archives, its modules, and the preset files in \`./presets\`.
      The answers are checked as config and create check the same flags (a theme must be in the folder), then
      \`dropkit.config.json\` is written atomically, holding only what differs from what the presets and defaults give, plus
      \`"schema": 1\` and, when dropkit is installed in this folder or one above (\`node_modules/dropkit/schema.json\`), a
      \`$schema\` path to its schema for editors.

      init resolves as config does: invalid \`DROPKIT_*\` variables stop it with config's exit code, and the decisions it prints
      (to stderr) are those the next run will use, variables included. With \`DROPKIT_CONFIG\` set it exits 64: the new file
      would never be read. Under a config in a folder above (a monorepo root's \`package.json\` or \`dropkit.config.*\`), which
      the new file will shadow, init says so and starts from that config's values, relative paths rebased, so that config
      resolves the same before and after \`init --yes\`.

      \`--yes\` takes every default without asking (for CI); \`--theme\`, \`--preset\` and \`--exclude\` change those defaults.
      Without \`--yes\`, init needs a terminal and exits 64 when there is none. An existing config in the folder (any of the
      four forms) is never replaced without \`--force\`: exit 73. Ctrl-C at any question writes nothing and exits 130.
    `,
    examples: [
      ["Answer the questions", "$0 init"],
      ["Take every default, e.g. in CI", "$0 init --yes"],
      ["Defaults with a theme and the standard preset", "$0 init --yes --theme=ocean --preset=standard"],
      ["Replace the existing config", "$0 init --force"],
    ],
  });

  yes = Option.Boolean("--yes,-y", false, { description: "take every default without asking (no terminal needed)" });

  force = Option.Boolean("--force,-f", false, { description: "write even when the folder already has a config" });

  // Shared by every command, but init always writes in the working directory: accepted only to say so (exit 64),
  // and not listed in init's help.
  override configPath = Option.String("--config", { hidden: true });

  // For init the flag seeds an answer, written to the file as modules.exclude, which later runs merge as any config
  // line: the shared description ("wins over everything") is create's and config's.
  override exclude = Option.Array("--exclude", {
    description: "start the modules-to-exclude answer with this glob (repeatable; written to modules.exclude)",
  });

  protected async run(log: DecisionLog, stop: StopCheck): Promise<number> {
    const [init, { loadCore }, { scanArchives }, { resolveSource }, { requireThemePath }] = await Promise.all([
      import("../../config/starter.js"),
      import("../../core/node.js"),
      import("../../archives/scan.js"),
      import("../../config/resolve.js"),
      import("../../config/themepath.js"),
    ]);
    const { stdin, stderr, env } = this.context;
    this.refuseUnusable(init.initFileName, isTTY(stdin) && isTTY(stderr));
    const cwd = this.cwd();
    const file = path.join(cwd, init.initFileName);
    const existing = await init.existingConfigs(cwd, env);
    // As `dropkit config` resolves here now: invalid variables get its verdict, and a config above is inherited.
    const before = await init.resolveBefore(cwd, env, this.configFlags(), existing.length > 0);
    if (!before.done.ok) return reportProblems(log, before.done.errors);
    const { inherited } = before;
    const core = loadCore();
    const archives = await scanArchives(cwd);
    const survey = init.surveyFolder(cwd, archives, core);
    const defaults = {
      theme: this.theme ?? inherited?.answers.theme ?? "auto",
      presets: this.preset ?? inherited?.answers.presets ?? ("auto" as const),
      exclude: [...new Set([...(inherited?.answers.exclude ?? []), ...(this.exclude ?? [])])],
      only: inherited?.answers.only ?? [],
    };
    // The flags meet the checks config and create give them, at the flag, before any question or file text.
    const flagOrigin = this.theme === undefined ? undefined : { layer: "cli" as const, source: "--theme" };
    await requireThemePath(await init.checkAnswers(cwd, defaults, survey, archives, inherited), flagOrigin);
    if (existing.length > 0 && !this.force) refuseExisting(existing, init.initFileName);
    if (inherited) log.warn(init.shadowsInherited(inherited, file), inherited.file);

    const baseline = (presets: typeof defaults.presets | string[]) => init.baselineFor(cwd, presets, survey, inherited);
    const startFrom = inherited?.answers ?? {};
    let answers;
    if (this.yes) {
      const base = await baseline(defaults.presets);
      answers = {
        ...defaults,
        onFailure: startFrom.onFailure ?? base.hooks.onFailure,
        cacheEnabled: startFrom.cacheEnabled ?? base.cache.enabled,
        logFormat: startFrom.logFormat ?? base.log.format,
      };
    } else {
      const { askAll } = await import("../prompts.js");
      const checkTheme = (theme: string) => init.themeProblem(core, cwd, archives, theme);
      const originOf = this.originOf(inherited === null ? undefined : path.relative(cwd, inherited.file));
      const io = { input: stdin, output: stderr, signal: stop.signal };
      answers = await askAll({ survey, defaults, startFrom, originOf, baseline, checkTheme, core, io });
      if (answers === null) return cancelledExitCode;
      // The answers, as the flags were: the same checks, before the file text is built.
      await requireThemePath(await init.checkAnswers(cwd, answers, survey, archives, inherited), undefined);
    }

    const config = init.buildConfig(answers, survey, await baseline(answers.presets), { schema: init.findSchema(cwd), inherited });
    const text = init.renderConfig(config);
    // The answers were checked above; the whole file still goes through the validator and a resolve before it is
    // written. What either finds in it has no position: the file is not on disk yet (or is the one being replaced).
    // The resolve has the environment: the decisions printed are those the next run will use.
    const checked = core.validateConfig(text, { source: file });
    if (!checked.ok) return reportProblems(log, init.unwrittenProblems(checked.errors, file));
    const resolved = await resolveSource({ cwd, source: { source: file, format: "json", text }, env });
    init.throwIfFailed(resolved, file);

    stop.throwIfInterrupted();
    await writeConfig(file, text, log, existing.includes(file));
    for (const other of existing.filter((f) => f !== file)) log.warn(shadowWarning(path.basename(other), other, file), other);
    for (const w of resolved.warnings) log.warn(w.message, w.source);
    log.decisions(deriveDecisions(resolved));
    // The hint is for people; the JSON log keeps to the events of SPEC section 7, and --quiet to warnings and errors.
    if (log.format === "text" && !log.quiet)
      stderr.write(`${log.paint("next".padEnd(10), "dim")}run dropkit create (dropkit config shows where every value comes from)\n`);
    return 0;
  }

  /**
   * Exits 64 where init cannot do its job: `--config` or `DROPKIT_CONFIG` (every command would read that file, never
   * the one init writes here), or questions to ask without a terminal.
   */
  private refuseUnusable(fileName: string, terminal: boolean): void {
    if (this.configPath !== undefined) {
      fail(
        "UsageError",
        `init always writes ${fileName} in the working directory; --config does not apply. Run it in the folder the config is for.`,
        {
          source: "--config",
        },
      );
    }
    const fromEnv = this.context.env.DROPKIT_CONFIG;
    // Empty counts as unset (SPEC section 4).
    if (fromEnv !== undefined && fromEnv !== "") {
      fail(
        "UsageError",
        `DROPKIT_CONFIG is set (to ${JSON.stringify(fromEnv)}): every dropkit command reads that file, ` +
          `so the ${fileName} init writes here would never be read. Unset DROPKIT_CONFIG to run init, or edit that file.`,
        { source: "DROPKIT_CONFIG" },
      );
    }
    // Checked first and at once: a CI job without --yes must fail fast, not hang on a question.
    if (!this.yes && !terminal) {
      fail(
        "UsageError",
        "init asks questions and needs a terminal, but stdin or stderr is not one. " +
          "Run dropkit init --yes to take every default (for CI), or run it in a terminal.",
      );
    }
  }

  /** Where a default the prompts offer came from, as the option's hint: the flag, or the config inherited from above. */
  private originOf(parent: string | undefined): (question: "theme" | "presets" | "exclude" | "only", value: string) => string {
    const flags: Record<string, string[]> = {
      theme: this.theme === undefined ? [] : [this.theme],
      presets: this.preset ?? [],
      exclude: this.exclude ?? [],
      only: [],
    };
    const flagName = { theme: "--theme", presets: "--preset", exclude: "--exclude", only: "" };
    return (question, value) => (flags[question].includes(value) ? `from ${flagName[question]}` : parent ? `from ${parent}` : "");
  }
}

// --- helpers ---

/** Exit 73: init never replaces a config without --force. */
function refuseExisting(existing: string[], fileName: string): never {
  const what = existing.map((f) => (path.basename(f) === "package.json" ? `${f} (dropkit key)` : f)).join(" and ");
  fail(
    "ConfigExists",
    `This folder already has a config: ${what}. Nothing was written. Run dropkit init --force to write ${fileName} anyway.`,
    {
      source: existing[0],
    },
  );
}

/** Writes the file atomically and logs it; a failure is an IOError that says nothing was written. */
async function writeConfig(file: string, text: string, log: DecisionLog, replaced: boolean): Promise<void> {
  const { writeFileAtomic } = await import("../../files/staging.js");
  let flushWarning: string | undefined;
  try {
    flushWarning = await writeFileAtomic(file, text);
  } catch (error) {
    fail("IOError", `Cannot write ${file}: ${(error as Error).message}. Nothing was written; check the folder's permissions.`, {
      source: file,
      file,
    });
  }
  log.write({ event: "state", action: replaced ? "overwritten" : "written", file });
  if (flushWarning) log.warn(flushWarning, file);
}

function isTTY(stream: unknown): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}

/** What a config form left beside the new file means, since init never edits or deletes it. */
function shadowWarning(name: string, other: string, file: string): string {
  if (name === "package.json") return `${other} still has a dropkit key; ${file} wins over it, but remove the key to keep one config.`;
  return `${other} still wins over ${file} (it comes first in discovery); remove it to use the new file.`;
}
