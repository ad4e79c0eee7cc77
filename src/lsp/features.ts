// The language server's editor features (completion, hover, code actions), over the browser-safe logic in src/editor/.

import type { Connection, ServerCapabilities, TextDocuments } from "vscode-languageserver/node";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { ServerContext } from "./context.js";

/**
 * Registers the editor features on the server's connection; the server calls it once, before it listens, and answers
 * `initialize` with the capabilities returned here beside its own (diagnostics, formatting).
 */
export function registerEditorFeatures(
  _connection: Connection,
  _documents: TextDocuments<TextDocument>,
  _context: ServerContext,
): ServerCapabilities {
  // completion, hover and code actions are registered here
  return {};
}
