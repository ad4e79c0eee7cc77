// `dropkit init`: seven questions (or their defaults with --yes) to a minimal, validated dropkit.config.json.

import path from "node:path";
import { clipanion } from "./clipanion.js";
import { deriveDecisions } from "../../core/decisions.js";
import type { DecisionLog } from "../../output/log.js";
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
      Asks for the theme, the presets, modules to exclude, modules \`only\`, \`hooks.onFailure\`, \`cache.enabled\` and \`log.format\`, offering what the folder holds: its theme archives, its modules, and the preset files in \`./presets\`. The answers are checked as config and create check the same flags (a theme must be in the folder), then \`dropkit.config.json\` is written atomically, holding only what differs from what the presets and defaults give, plus \`"schema": 1\` and a \`$schema\` pointer for editors. The resolved result goes to stderr.

      \`--yes\` takes every default without asking (for CI); \`--theme\`, \`--preset\` and \`--exclude\` change those defaults. Without \`--yes\`, init needs a terminal and exits 64 when there is none. An existing config in the folder (any of the four forms) is never replaced without \`--force\`: exit 73. Ctrl-C at any question writes nothing and exits 130.
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

  protected async run(log: DecisionLog, signal: AbortSignal): Promise<number> {
    const [{ fail }, init, { loadCore }, { scanArchives }, { resolveSource }, { requireThemePath }] = await Promise.all([
      import("../../errors.js"),
      import("../../config/starter.js"),
      import("../../core/node.js"),
      import("../../archives/scan.js"),
      import("../../config/resolve.js"),
      import("../../config/themepath.js"),
    ]);
    if (this.configPath !== undefined) {
      fail(
        "UsageError",
        `init always writes ${init.initFileName} in the working directory; --config does not apply. Run it in the folder the config is for.`,
        { source: "--config" },
      );
    }
    const { stdin, stderr, env } = this.context;
    // Checked first and at once: a CI job without --yes must fail fast, not hang on a question.
    if (!this.yes && !(isTTY(stdin) && isTTY(stderr))) {
      fail(
        "UsageError",
        "init asks questions and needs a terminal, but stdin or stderr is not one. Run dropkit init --yes to take every default (for CI), or run it in a terminal.",
      );
    }
    const cwd = this.cwd();
    const file = path.join(cwd, init.initFileName);
    const core = loadCore();
    const archives = await scanArchives(cwd);
    const survey = init.surveyFolder(cwd, archives, core);
    const defaults = {
      theme: this.theme ?? "auto",
      presets: this.preset ?? ("auto" as const),
      exclude: this.exclude ?? [],
      only: [],
    };
    // The flags meet the checks config and create give them, at the flag, before any question or file text.
    await requireThemePath(
      await init.checkAnswers(cwd, defaults, survey, archives),
      this.theme === undefined ? undefined : { layer: "cli", source: "--theme" },
    );
    const existing = await init.existingConfigs(cwd, env);
    if (existing.length > 0 && !this.force) {
      const what = existing.map((f) => (path.basename(f) === "package.json" ? `${f} (dropkit key)` : f)).join(" and ");
      fail(
        "ConfigExists",
        `This folder already has a config: ${what}. Nothing was written. Run dropkit init --force to write ${init.initFileName} anyway.`,
        { source: existing[0] },
      );
    }

    const baseline = (presets: typeof defaults.presets | string[]) => init.baselineFor(cwd, presets, survey);
    let answers;
    if (this.yes) {
      const base = await baseline(defaults.presets);
      answers = { ...defaults, onFailure: base.hooks.onFailure, cacheEnabled: base.cache.enabled, logFormat: base.log.format };
    } else {
      const { askAll } = await import("../prompts.js");
      const checkTheme = (theme: string) => init.themeProblem(core, cwd, archives, theme);
      answers = await askAll({ survey, defaults, baseline, checkTheme, core, io: { input: stdin, output: stderr, signal } });
      if (answers === null) return cancelledExitCode;
      // The answers, as the flags were: the same checks, before the file text is built.
      await requireThemePath(await init.checkAnswers(cwd, answers, survey, archives), undefined);
    }

    const text = init.renderConfig(init.buildConfig(answers, survey, await baseline(answers.presets)));
    // The answers were checked above; the whole file still goes through the validator and a resolve before it is
    // written. What either finds in it has no position: the file is not on disk yet (or is the one being replaced).
    const checked = core.validateConfig(text, { source: file });
    if (!checked.ok) return reportProblems(log, init.unwrittenProblems(checked.errors, file));
    const resolved = await resolveSource({ cwd, source: { source: file, format: "json", text } });
    init.throwIfFailed(resolved, file);

    const { writeFileAtomic } = await import("../../files/staging.js");
    signal.throwIfAborted();
    let flushWarning: string | undefined;
    try {
      flushWarning = await writeFileAtomic(file, text);
    } catch (error) {
      fail("IOError", `Cannot write ${file}: ${(error as Error).message}. Nothing was written; check the folder's permissions.`, {
        source: file,
        file,
      });
    }
    log.write({ event: "state", action: existing.includes(file) ? "overwritten" : "written", file });
    if (flushWarning) log.warn(flushWarning, file);
    for (const other of existing.filter((f) => f !== file)) log.warn(shadowWarning(path.basename(other), other, file), other);
    for (const w of resolved.warnings) log.warn(w.message, w.source);
    log.decisions(deriveDecisions(resolved));
    // The hint is for people; the JSON log keeps to the events of SPEC section 7.
    if (log.format === "text")
      stderr.write(`${log.paint("next".padEnd(10), "dim")}run dropkit create (dropkit config shows where every value comes from)\n`);
    return 0;
  }
}

// --- helpers ---

function isTTY(stream: unknown): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}

/** What a config form left beside the new file means, since init never edits or deletes it. */
function shadowWarning(name: string, other: string, file: string): string {
  if (name === "package.json") return `${other} still has a dropkit key; ${file} wins over it, but remove the key to keep one config.`;
  return `${other} still wins over ${file} (it comes first in discovery); remove it to use the new file.`;
}
