// The values a higher layer overrides, where each is written, and what wins: "overridden by DROPKIT_THEME=forest".

import type { Origin } from "../core/protocol.js";
import { formatValue } from "../output/table.js";
import type { Step } from "./answer.js";

/** A value that a layer overrides, where it is written (`file`, `line`, `column`), and what wins. */
export interface Overridden {
  key: string;
  file: string;
  line: number;
  column: number;
  /** `overridden by DROPKIT_THEME=forest, so this value is not used (...)`: lower case, for a sentence to start. */
  message: string;
}

/**
 * Every value written in a file (a config file, a preset file) that another layer overrides, from the core's override chains
 * (`explain`). `env` holds the variables as set, so that the winner reads as the user wrote it.
 */
export function overriddenValues(chains: Record<string, Step[]> | undefined, env: Readonly<Record<string, string>>): Overridden[] {
  if (!chains) return [];
  const out: Overridden[] = [];
  for (const [key, steps] of Object.entries(chains)) {
    const winner = steps[0];
    // A union list merges every layer's entries: nothing in it is overridden.
    if (winner?.status !== "wins") continue;
    for (const step of steps.slice(1)) {
      const at = /^(.*):(\d+):(\d+)$/.exec(step.source);
      if (!at || step.layer === "default") continue;
      out.push({
        key,
        file: at[1]!,
        line: Number(at[2]),
        column: Number(at[3]),
        message: overrideMessage(winner, env),
      });
    }
  }
  return out;
}

/** What a value that `winner` overrides is told: `overridden by DROPKIT_THEME=forest, so this value is not used (...)`. */
export function overrideMessage(winner: Origin & { value: unknown }, env: Readonly<Record<string, string>>): string {
  return `overridden by ${winnerText(winner, env)}, so this value is not used (${layerWins(winner)}).`;
}

/** What a value that `winner` overrides is told when the winner is named already: `overridden, so it is not used (...)`. */
export function overriddenHere(winner: Origin): string {
  return `overridden, so it is not used (${layerWins(winner)}).`;
}

/** The winning setting as the user wrote it: `DROPKIT_THEME=forest`, `--theme=forest`, the preset, the config line. */
function winnerText(step: Origin & { value: unknown }, env: Readonly<Record<string, string>>): string {
  if (step.layer === "env") return `${step.source}=${env[step.source] ?? formatValue(step.value)}`;
  if (step.layer === "cli")
    return Array.isArray(step.value)
      ? step.value.map((v) => `${step.source}=${String(v)}`).join(" ")
      : `${step.source}=${String(step.value)}`;
  if (step.layer === "preset") return /:\d+:\d+$/.test(step.source) ? `the preset at ${step.source}` : `the preset ${step.source}`;
  return step.source;
}

function layerWins(step: Origin): string {
  if (step.layer === "cli") return "a flag wins over every other layer";
  if (step.layer === "env") return "the environment wins over the config file and the presets";
  if (step.layer === "config") return "the config file wins over the presets";
  return "a later preset wins over an earlier one";
}
