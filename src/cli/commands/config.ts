// `dropkit config`: the resolved config with the origin of every value, as a table, JSON, or one key explained.

import { clipanion } from "./clipanion.js";
import type { LoadConfigResult } from "../../config/resolve.js";
import { deriveDecisions, deriveListEntries, valueAt } from "../../core/decisions.js";
import type { DecisionLog } from "../../output/log.js";
import type { StopCheck } from "../../signals.js";
import { stepsOf } from "../../editor/answer.js";
import { explainOutput } from "../../editor/explain.js";
import { jsonText } from "../../output/controls.js";
import { configTableLines } from "../../output/table.js";
import { DropkitCommand, reportResolution, requireHookDirectories } from "./base.js";

const { Command, Option } = clipanion;

/** Prints the resolved config (SPEC section 6); writes nothing, so it doubles as a validator. */
export class ConfigCommand extends DropkitCommand {
  static override paths = [["config"]];

  static override usage = Command.Usage({
    description: "print the resolved config and where every value comes from",
    details: `
      Prints every key of the resolved config with its value, the layer that set it (cli, env, config, preset, default) and its source: the
      flag, the variable, \`file:line:column\`, the preset, or \`default\`. A list shows one item a line; an item of the module lists, which
      are the union of every layer, with its own origin.

      \`--json\` prints \`{"config": {...}, "origins": {...}}\` instead (for the module lists, \`origins\` also has each item's origin, in
      \`entries\`). \`--explain <key>\` shows every layer that set one key, the winner first, with the overridden values too.

      Writes nothing, so it doubles as a validator in CI: exit 65 when the config is invalid; the hooks directories get the verdict \`create\` would
      give them (77 untrusted, 74 not a directory).
    `,
    examples: [
      ["Show the resolved config", "$0 config"],
      ["Machine-readable, for scripts", "$0 config --json"],
      ["Why is the theme what it is?", "$0 config --explain theme"],
      ["Validate a config in CI", "$0 config --config=./dropkit.config.json > /dev/null"],
    ],
  });

  json = Option.Boolean("--json", false, { description: "print JSON instead of a table; errors too are JSON records on stderr" });

  explain = Option.String("--explain", { description: "show every layer that set this dotted key, the winner first" });

  /** `--json` asks for machine-readable output: its errors are JSON records too. */
  protected override impliedLogFormat(): "json" | undefined {
    return this.json ? "json" : undefined;
  }

  protected async run(log: DecisionLog, stop: StopCheck): Promise<number> {
    const { loadConfig } = await import("../../config/resolve.js");
    const loaded = await loadConfig({
      cwd: this.cwd(),
      env: this.context.env,
      flags: this.configFlags(),
      // The core checks the key with the flags: an unknown one is a UsageError, with the did-you-mean of every message.
      ...(this.explain !== undefined ? { explainKey: this.explain } : {}),
    });
    // Interrupted while a .ts config loaded: print nothing.
    stop.throwIfInterrupted();
    // The decisions are what stdout prints; logging them on stderr too would only repeat them.
    const code = reportResolution(log, loaded, {
      decisions: false,
      keepFormat: this.logFormat === undefined && this.impliedLogFormat() !== undefined,
    });
    if (code !== 0) return code;
    // The hooks create would run get create's verdict here too, so that `config` as a CI check says what create will.
    const [{ checkHooksTrust }, { trustScope }] = await Promise.all([import("../../hooks/held.js"), import("../../files/trust.js")]);
    checkHooksTrust(loaded.config!.hooks, this.cwd(), trustScope(this.context.env, loaded.discovery));
    requireHookDirectories(loaded, this.cwd());
    const out = this.context.stdout;
    if (this.explain !== undefined) {
      out.write(explainKey(loaded, this.explain, this.json));
    } else if (this.json) {
      // The core's origins as they are: a union list's also has one origin per item (`entries`).
      out.write(jsonText({ config: loaded.config, origins: loaded.origins }, 2) + "\n");
    } else {
      out.write(renderTable(loaded));
    }
    return 0;
  }
}

// --- helpers ---

/** The aligned table: a header, one line per leaf, and a list one item a line (see `configTableLines`). */
function renderTable(loaded: LoadConfigResult): string {
  return configTableLines(deriveDecisions(loaded), deriveListEntries(loaded)).join("\n") + "\n";
}

/** What `--explain` prints for `key`: a key the core knows, as it reports an unknown one with the other problems. */
function explainKey(loaded: LoadConfigResult, key: string, json: boolean): string {
  // Union lists take entries from every layer; every other key has one winner and overridden layers.
  const steps = stepsOf(loaded.explain![key]!, loaded.origins?.[key]?.entries !== undefined);
  return explainOutput(key, valueAt(loaded.config!, key), steps, json);
}
