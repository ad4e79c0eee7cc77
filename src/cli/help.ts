// What dropkit's help says beyond clipanion's: value placeholders instead of `#0`, and a footer with the variables and exit codes.

import { clipanion } from "./commands/clipanion.js";
import { colorLevel, helpFormat } from "./helpformat.js";
import { exitCodes } from "../errors.js";
import type { SchemaLeaf } from "../core/protocol.js";
import { schemaLeaves } from "../core/schema-table.js";
import { signalExitCodes } from "../signals.js";

const { Cli } = clipanion;

/** The value each flag takes, as help shows it (clipanion would print `--config #0`). */
export const placeholders: Record<string, string> = {
  "--config": "<path>",
  "--theme": "<theme>",
  "--exclude": "<glob>",
  "--preset": "<name>",
  "--log-format": "<text|json>",
  "--explain": "<key>",
  "--directory": "<dir>",
};

/** What help says a leaf's variable takes: the key it sets, and its values when they are few, from the core's table. */
function variableUse(leaf: SchemaLeaf): string {
  if (leaf.type === "enum") return `${leaf.key}: ${leaf.choices.join(" or ")}`;
  if (leaf.type === "bool") return `${leaf.key}: true, false, 1, 0, yes, no`;
  return leaf.type === "globs" || leaf.type === "presets" || leaf.type === "paths" ? `${leaf.key} (comma-separated)` : leaf.key;
}

/** The environment variables dropkit reads, with what each does, in the order help lists them: the leaves' first. */
export const helpVariables: Array<[string, string]> = [
  ...schemaLeaves.flatMap((leaf): Array<[string, string]> => (leaf.env === null ? [] : [[leaf.env, variableUse(leaf)]])),
  ["DROPKIT_CONFIG", "like --config"],
  ["DROPKIT_HOOK_TIMEOUT", "seconds a hook may run before it is stopped (default 60)"],
  ["DROPKIT_DEBUG", "1 adds the stack trace to an internal error"],
  ["DROPKIT_SAFE_DIRECTORIES", 'directories (":"-separated, * for all) whose configs, presets and hooks are used whoever owns them'],
  ["GIT_CEILING_DIRECTORIES", "directories the config search never enters (as git)"],
  ["NO_COLOR", "no colour, even on a terminal (nor with TERM=dumb)"],
  ["FORCE_COLOR", "colour even off a terminal: 1 16 colours, 2 256, 3 24-bit (0 or false: none); NO_COLOR wins"],
];

/** The footer of the general help: every variable and every exit code, grouped by code from errors.ts so that none drifts. */
export function helpFooter(): string {
  const width = Math.max(...helpVariables.map(([name]) => name.length)) + 2;
  let text = "\nEnvironment\n\n";
  for (const [name, what] of helpVariables) text += `  ${name.padEnd(width)}${what}\n`;
  const byCode = new Map<number, string[]>([[0, ["success"]]]);
  for (const [name, code] of Object.entries(exitCodes)) byCode.set(code, [...(byCode.get(code) ?? []), name]);
  for (const [signal, code] of Object.entries(signalExitCodes)) byCode.set(code, [`Interrupted (${signal})`]);
  byCode.set(130, [...byCode.get(130)!, "init cancelled (Ctrl-C or Escape)"]);
  text += "\nExit codes\n\n";
  for (const [code, names] of [...byCode].sort(([a], [b]) => a - b)) text += `  ${String(code).padEnd(5)}${names.join(", ")}\n`;
  text += "\nEvery error, with an example and its fix: docs/errors.md in the package.\n";
  return text;
}

/** A command as a usage error speaks of it. */
export interface CommandUsage {
  /** The word after `dropkit`: `create`. */
  name: string;
  /** Its usage line without the `$ `: `dropkit create [--config <path>] ...`. */
  usage: string;
  /** Its flags, hidden ones too, each with its aliases (`--yes`, `-y`), and whether it takes a value. */
  flags: Array<{ names: string[]; value: boolean }>;
  /** How many positional arguments it takes: at least `min`, at most `max`. */
  positionals: { min: number; max: number };
}

/** `text` with each flag's `#0` replaced by its placeholder. */
export function withPlaceholders(text: string): string {
  return text.replace(/(--[a-z-]+) #0/g, (whole, flag: string) => (placeholders[flag] ? `${flag} ${placeholders[flag]}` : whole));
}

/**
 * clipanion's Cli with dropkit's help: placeholders in every usage line (help, usage errors, definitions), the
 * footer under the general help, and a pointer to it under each command's.
 */
export class DropkitCli extends Cli {
  protected override getUsageByIndex(
    n: number,
    opts?: { detailed?: boolean; inlineOptions?: boolean },
  ): { usage: string; options: Array<{ definition: string; description: string; required: boolean }> } {
    const { usage, options } = super.getUsageByIndex(n, opts);
    return { usage: withPlaceholders(usage), options: options.map((o) => ({ ...o, definition: withPlaceholders(o.definition) })) };
  }

  /**
   * Every documented command as usage errors check an argv against it: its name, its usage line, every flag (hidden
   * ones too: `help --log-format`) and how many positional arguments it takes, from what clipanion registered.
   */
  commandUsages(): CommandUsage[] {
    type Registered = { index: number; builder: { options: Array<{ names: string[]; arity: number }>; arity: Arity } };
    type Arity = { leading: string[]; trailing: string[]; extra: string[] | symbol };
    const { registrations } = this as unknown as { registrations: Map<{ usage?: unknown }, Registered> };
    const usages: CommandUsage[] = [];
    for (const [commandClass, { index, builder }] of registrations) {
      if (commandClass.usage === undefined) continue;
      const { usage: path } = this.getUsageByIndex(index, { detailed: false });
      const { usage } = this.getUsageByIndex(index, { detailed: true });
      const { leading, trailing, extra } = builder.arity;
      const min = leading.length + trailing.length;
      usages.push({
        name: path.split(" ").slice(1).join(" "),
        usage,
        flags: builder.options.map((o) => ({ names: o.names, value: o.arity > 0 })),
        // Anything but a list of optional names is clipanion's NoLimits (a rest).
        positionals: { min, max: Array.isArray(extra) ? min + extra.length : Number.POSITIVE_INFINITY },
      });
    }
    return usages;
  }

  /** The help's marks at the colour level asked for (FORCE_COLOR 1 is 16 colours), not clipanion's 256 always. */
  override format(colored?: boolean): ReturnType<InstanceType<typeof Cli>["format"]> {
    if (!(colored ?? this.enableColors ?? false)) return super.format(false);
    return helpFormat(colorLevel(process.env, () => Cli.defaultContext.colorDepth));
  }

  override usage(
    command: Parameters<InstanceType<typeof Cli>["usage"]>[0] = null,
    opts: Parameters<InstanceType<typeof Cli>["usage"]>[1] = {},
  ): string {
    const text = super.usage(command, opts);
    // The general help asked for (dropkit help, --help); not the usage printed with a usage error.
    if (command === null) return opts.detailed ? text + helpFooter() : text;
    if (opts.detailed) return text + "\nEnvironment variables and exit codes: dropkit help\n";
    return text;
  }
}
