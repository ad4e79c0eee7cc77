// `dropkit lsp --stdio`: the language server editors start, loaded from its own bundle only when this command runs.

import { clipanion, t } from "./clipanion.js";

const { Command, Option } = clipanion;

/** Runs the language server over stdin and stdout until the client leaves; nothing else is written to stdout. */
export class LspCommand extends Command {
  static override paths = [["lsp"]];

  static override usage = Command.Usage({
    description: "run the language server for editors (LSP over stdin and stdout)",
    details: `
      Editors start it as \`dropkit lsp --stdio\` and speak the Language Server Protocol with it. It serves \`dropkit.config.json\`
      and a \`package.json\`'s \`dropkit\` key: the problems \`dropkit config\` reports, with their codes and positions, on every
      change (and, as warnings, what \`dropkit create\` would add with the folder's archives), completion, hover, quick fixes, "explain
      this key" and whitespace-only formatting. \`.ts\` and \`.js\` configs are never run by it: they get no diagnostics.

      It reads the environment it was started with (\`DROPKIT_THEME\` and the rest) as \`dropkit config\` would, and exits when its client
      does. How to set it up in Neovim, Helix and VS Code: docs/editors.md.
    `,
    examples: [
      ["What an editor runs", "$0 lsp --stdio"],
      ["The same: stdio is the only transport", "$0 lsp"],
    ],
  });

  // The transport editors name; stdio is the only one, and the default.
  stdio = Option.Boolean("--stdio", true, { description: "speak over stdin and stdout (the default, and the only transport)" });

  // Taken (and hidden) so that every command's usage errors come as JSON records when asked, as create's do.
  logFormat = Option.String("--log-format", { hidden: true, validator: t.isEnum(["text", "json"]) });

  // Taken (and hidden) as every command takes it: the server writes nothing on stderr unless it fails.
  quiet = Option.Boolean("-q,--quiet", false, { hidden: true });

  async execute(): Promise<number> {
    // Started by hand in a terminal, it would wait in silence for JSON-RPC: it says what it is (stdout stays the protocol's).
    if (process.stdin.isTTY)
      this.context.stderr.write(
        "dropkit lsp speaks the Language Server Protocol on stdin and stdout: editors start it (docs/editors.md). Ctrl-D ends it.\n",
      );
    const [{ createRequire }, { builtFile }] = await Promise.all([import("node:module"), import("../../installed.js")]);
    const bundle = builtFile("dropkit-lsp.cjs");
    const { startServer } = createRequire(bundle)(bundle) as typeof import("../../lsp/server.js");
    startServer({ input: process.stdin, output: process.stdout, env: this.context.env, version: this.cli.binaryVersion ?? "" });
    // The server ends the process itself when its client is gone (src/lsp/server.ts): this run never returns.
    return new Promise<number>(() => {});
  }
}
