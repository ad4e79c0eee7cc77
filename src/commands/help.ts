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

  names = Option.Rest({ name: "command" });

  async execute(): Promise<number> {
    if (this.names.length === 0) {
      this.context.stdout.write(this.cli.usage(null, { detailed: true }));
      return 0;
    }
    const known = this.cli.definitions().map((d) => d.path.split(" ").slice(1).join(" "));
    const wanted = this.names.join(" ");
    if (!known.includes(wanted)) {
      const guess = known.find((k) => k.startsWith(wanted.slice(0, 2)));
      this.context.stderr.write(`Unknown command "${wanted}" for dropkit help.${guess ? ` Did you mean "${guess}"?` : ""} Commands: ${known.join(", ")}.\n`);
      return 64;
    }
    return this.cli.run([...this.names, "--help"]);
  }
}
