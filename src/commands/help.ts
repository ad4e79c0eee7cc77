// `dropkit help [command]`: the general help with the variables and exit codes, or one command's help.

import { clipanion } from "./clipanion.js";

const { Command, Option } = clipanion;

/** Prints help on stdout (SPEC section 6); an unknown command is a usage error (64). */
export class HelpCommand extends Command {
  static override paths = [["help"], ["--help"], ["-h"]];

  static override usage = Command.Usage({
    description: "print the help of dropkit or of one command",
    details: `
      Without a command: every command, then the environment variables dropkit reads and its exit codes. With one: that command's flags, details and examples, as \`dropkit <command> --help\` prints them.
    `,
    examples: [
      ["Every command, variable and exit code", "$0 help"],
      ["The flags of create", "$0 help create"],
    ],
  });

  command = Option.String({ name: "command", required: false });

  async execute(): Promise<number> {
    if (this.command === undefined) {
      this.context.stdout.write(this.cli.usage(null, { detailed: true }));
      return 0;
    }
    const known = this.cli.definitions().map((d) => d.path.split(" ").slice(1).join(" "));
    if (!known.includes(this.command)) {
      const guess = known.find((k) => k.startsWith(this.command!.slice(0, 2)));
      this.context.stderr.write(`Unknown command "${this.command}" for dropkit help.${guess ? ` Did you mean "${guess}"?` : ""} Commands: ${known.join(", ")}.\n`);
      return 64;
    }
    return this.cli.run([this.command, "--help"]);
  }
}
