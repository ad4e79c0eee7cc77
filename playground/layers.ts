// The simulated layers as the core's request wants them: variables from `NAME=value` lines, flags from the fields, paths in /drop.

import type { ResolveRequest } from "../src/core/protocol.ts";
import { archiveNames } from "../src/editor/archives.ts";
import type { CompletionFacts } from "../src/editor/complete.ts";
import type { PageInputs } from "./pageinputs.ts";

/** The simulated working directory: the core needs an absolute one, and a short one keeps sources readable. */
export const cwd = "/drop";

export function parseFlags(state: PageInputs): NonNullable<ResolveRequest["flags"]> {
  const flags: NonNullable<ResolveRequest["flags"]> = {};
  // An empty field is a flag not given; `--theme=` with an empty value would be a usage error nobody meant.
  if (state.theme.trim() !== "") flags.theme = state.theme.trim();
  const exclude = state.exclude
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (exclude.length > 0) flags.exclude = exclude;
  const preset = state.preset.split(",").filter(Boolean);
  if (preset.length > 0) flags.preset = preset;
  if (state.logFormat !== "") flags.logFormat = state.logFormat;
  return flags;
}

/** `NAME=value` lines (an `export ` prefix and one pair of quotes allowed, as in a shell file); only DROPKIT_* are kept. */
export function parseEnv(text: string): { vars: Record<string, string>; notes: string[] } {
  const vars: Record<string, string> = {};
  const notes: string[] = [];
  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const line = raw.trim().replace(/^export\s+/, "");
    if (line === "" || line.startsWith("#")) return;
    const eq = line.indexOf("=");
    if (eq <= 0) {
      notes.push(`Line ${i + 1}: expected NAME=value.`);
      return;
    }
    const name = line.slice(0, eq).trim();
    let value = line.slice(eq + 1);
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0])) value = value.slice(1, -1);
    if (!name.startsWith("DROPKIT_")) {
      notes.push(`Line ${i + 1}: ${name} is ignored; dropkit reads only DROPKIT_* variables.`);
      return;
    }
    vars[name] = value;
  });
  return { vars, notes };
}

/** The distinct non-blank lines of a text. */
export function lines(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/\r\n|\r|\n/)
        .map((l) => l.trim())
        .filter(Boolean),
    ),
  ];
}

/** A path in the simulated folder made absolute: `presets/a.json`, `./presets/a.json` and `/drop/presets/a.json` are one file. */
export function inFolder(path: string): string {
  const parts: string[] = [];
  for (const part of (path.startsWith("/") ? path : `${cwd}/${path}`).split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return "/" + parts.join("/");
}

/** What completion knows of the simulated folder: the bundled presets, then the preset files' names; the archives' themes and modules. */
export function folderFacts(packageJson: boolean, bundled: string[], state: Pick<PageInputs, "presetFiles" | "archives">): CompletionFacts {
  // The preset files by name, as a search path directory lists them.
  const local = state.presetFiles.map((f) => f.path.replace(/^.*\//, "").replace(/\.json$/, "")).sort();
  return { packageJson, presetNames: [...bundled, ...local], ...archiveNames(lines(state.archives)) };
}
