// `dropkit help [command]`: the general help with the variables and exit codes, or one command's help.

import { DecisionLog, earlyLogFormat } from "../../output/log.js";
import { closest, usageExitCode, usageProblem } from "../usage.js";
import { clipanion, t } from "./clipanion.js";

const { Command, Option } = clipanion;

/** Prints help on stdout (SPEC section 6); an unknown command is a usage error (64). */
export class HelpCommand extends Command {
  static override paths = [["help"], ["--help"], ["-h"]];

  static override usage = Command.Usage({
    description: "print the help of dropkit or of one command",
    details: `
      Without a command: every command, then the environment variables dropkit reads and its exit codes. With one: that command's flags,
      details and examples, as \`dropkit <command> --help\` prints them.
    `,
    examples: [
      ["Every command, variable and exit code", "$0 help"],
      ["The flags of create", "$0 help create"],
    ],
  });

  command = Option.String({ name: "command", required: false });

  // Taken (and hidden) so that an unknown command's record comes as JSON when asked, as every command's do.
  logFormat = Option.String("--log-format", { hidden: true, validator: t.isEnum(["text", "json"]) });

  // Taken (and hidden) as every command takes it: what this command prints is asked for, and an error still shows.
  quiet = Option.Boolean("-q,--quiet", false, { hidden: true });

  async execute(): Promise<number> {
    if (this.command === undefined) {
      this.context.stdout.write(this.cli.usage(null, { detailed: true }));
      return 0;
    }
    const known = this.cli.definitions().map((d) => d.path.split(" ").slice(1).join(" "));
    if (!known.includes(this.command)) {
      const guess = await closest(this.command, known);
      const message = `Unknown command "${this.command}" for dropkit help.${guess ? ` Did you mean "${guess}"?` : ""} Commands: ${known.join(", ")}.`;
      // A record like every usage error, in the format DROPKIT_LOG_FORMAT asks for.
      new DecisionLog(earlyLogFormat(this.logFormat, this.context.env), this.context.stderr, this.context.env).errors([
        usageProblem(message, this.command),
      ]);
      return usageExitCode;
    }
    return this.cli.run([this.command, "--help"]);
  }
}
