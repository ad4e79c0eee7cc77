// `dropkit completion bash|zsh|fish`: prints a completion script made from the CLI's own commands and flags.

import { clipanion, t } from "./clipanion.js";
import type { CommandSpec, FlagSpec, Shell } from "../completion.js";

const { Command, Option } = clipanion;

/** Prints the completion script for a shell on stdout. */
export class CompletionCommand extends Command {
  static override paths = [["completion"]];

  static override usage = Command.Usage({
    description: "print a shell completion script (bash, zsh or fish)",
    details: `
      The script completes the commands, their flags, the fixed values (\`--log-format\`, the bundled presets, the config
      keys of \`--explain\`), the directories of \`-C\`, and theme and module names from the \`*.zip\` archives of the
      folder dropkit would run in (the one you are in, or where the line's \`-C <dir>\` lead). It runs no dropkit when
      you press Tab.
    `,
    examples: [
      ["bash, for this shell", "source <($0 completion bash)"],
      ["bash, for good", "$0 completion bash > ~/.local/share/bash-completion/completions/dropkit"],
      ["zsh (a directory of $fpath)", "$0 completion zsh > ~/.zfunc/_dropkit"],
      ["fish", "$0 completion fish > ~/.config/fish/completions/dropkit.fish"],
    ],
  });

  shell = Option.String({ name: "shell", validator: t.isEnum(["bash", "zsh", "fish"]) });

  // Taken (and hidden) so that every command's usage errors come as JSON records when asked, as create's do.
  logFormat = Option.String("--log-format", { hidden: true, validator: t.isEnum(["text", "json"]) });

  // Taken (and hidden) as every command takes it: what this command prints is asked for, and an error still shows.
  quiet = Option.Boolean("-q,--quiet", false, { hidden: true });

  async execute(): Promise<number> {
    const [{ completionScript }, { loadCore }] = await Promise.all([import("../completion.js"), import("../../core/node.js")]);
    this.context.stdout.write(completionScript(this.shell as Shell, commandSpecs(this.cli.definitions(), loadCore())));
    return 0;
  }
}

// --- helpers ---

/** The commands as clipanion defines them, each flag's value completion chosen by its placeholder. */
function commandSpecs(
  definitions: Array<{ path: string; description?: string; options: Array<{ definition: string; description?: string }> }>,
  core: { listPresets(): Array<{ name: string }>; resolveLayers(request: object): { stage: string; origins?: Record<string, unknown> } },
): CommandSpec[] {
  const presets = core.listPresets().map((p) => p.name);
  const resolved = core.resolveLayers({ cwd: "/", presetFiles: [], files: [] });
  const keys = Object.keys(resolved.origins ?? {});
  const values: Record<string, FlagSpec["value"]> = {
    "<path>": "files",
    "<theme>": "themes",
    "<glob>": "modules",
    "<name>": presets,
    "<text|json>": ["text", "json"],
    "<key>": keys,
    "<dir>": "directories",
  };
  const specs: CommandSpec[] = [];
  for (const d of definitions) {
    const name = d.path.split(" ").slice(1).join(" ");
    if (!name || name.startsWith("-")) continue;
    const flags: FlagSpec[] = d.options.map((o) => {
      const [names, placeholder] = o.definition.split(" ");
      const flag: FlagSpec = { names: names!.split(","), description: o.description ?? "" };
      if (placeholder) flag.value = values[placeholder] ?? "files";
      return flag;
    });
    flags.push({ names: ["--help", "-h"], description: "print this command's help" });
    specs.push({ name, description: d.description ?? "", flags });
  }
  const names = specs.map((s) => s.name);
  for (const spec of specs) {
    if (spec.name === "help") spec.argument = names.filter((n) => n !== "help");
    if (spec.name === "completion") spec.argument = ["bash", "zsh", "fish"];
  }
  return specs;
}
