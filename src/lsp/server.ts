// The language server of `dropkit lsp`, bundled alone into dist/dropkit-lsp.cjs: the protocol over stdio, for dropkit.config.json and package.json.

import { fileURLToPath } from "node:url";
import {
  type Connection,
  createConnection,
  ErrorCodes,
  ResponseError,
  TextDocumentSyncKind,
  TextDocuments,
  type TextEdit,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { ResolveDone } from "../core/protocol.js";
import { loadCore } from "../core/node.js";
import { formatJson } from "../editor/jsontext.js";
import type { Env } from "../types.js";
import type { ServerContext } from "./context.js";
import { judgeDocument, servedFormat } from "./diagnostics.js";
import { registerEditorFeatures } from "./features.js";
import { stdioTransport } from "./transport.js";

/** Where the server speaks: the client's end of a pipe (stdin and stdout for `--stdio`), and the environment it reads. */
export interface ServerOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  env: Env;
  version: string;
}

/**
 * Starts the server on `input` and `output`. It ends the process when its client is gone: at the `exit` notification
 * (0 after `shutdown`, else 1), when `input` ends (the same codes), and when the process the client named in
 * `initialize` is gone (vscode-languageserver's own watch). A malformed message is answered with a JSON-RPC error
 * (src/lsp/transport.ts) and the server goes on.
 */
export function startServer(options: ServerOptions): Connection {
  const { reader, writer } = stdioTransport(options.input, options.output);
  const connection = createConnection(reader, writer);
  // stdout carries the protocol alone: anything logged goes to stderr, which editors show as the server's log.
  console.log = console.info = console.debug = console.error;
  // The client is gone when its end of stdin closes: the process ends, 0 when it had asked for a shutdown. The messages
  // read before the end are handled first (vscode-jsonrpc queues them): an `exit` among them ends the process itself.
  let shutdown = false;
  connection.onShutdown(() => {
    shutdown = true;
  });
  const leave = () => setTimeout(() => process.exit(shutdown ? 0 : 1), 100);
  options.input.on("end", leave);
  options.input.on("close", leave);
  const documents = new TextDocuments(TextDocument);
  const answers = new Map<string, ResolveDone>();
  const context: ServerContext = {
    core: loadCore(),
    env: definedVariables(options.env),
    pathOf,
    answerOf: (uri) => answers.get(uri),
  };
  const features = registerEditorFeatures(connection, documents, context);
  connection.onInitialize(() => ({
    capabilities: {
      ...features,
      // Saves are asked for and judged again: the owner and mode the verdict reads can change with no edit of the text.
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
      documentFormattingProvider: true,
    },
    serverInfo: { name: "dropkit", version: options.version },
  }));

  // One judgement at a time per document; a change that comes meanwhile is judged when it ends, on the latest text,
  // and a verdict on an older text than the document's is never published.
  const running = new Set<string>();
  const again = new Set<string>();
  const judge = async (uri: string): Promise<void> => {
    if (running.has(uri)) {
      again.add(uri);
      return;
    }
    running.add(uri);
    try {
      for (;;) {
        again.delete(uri);
        const document = documents.get(uri);
        const file = pathOf(uri);
        const format = file === undefined ? undefined : servedFormat(file);
        if (document === undefined || file === undefined || format === undefined) return;
        const judged = await judgeDocument(document, file, format, context);
        if (again.has(uri)) continue;
        if (documents.get(uri)?.version !== document.version) return;
        if (judged.answer) answers.set(uri, judged.answer);
        else answers.delete(uri);
        await connection.sendDiagnostics({ uri, version: document.version, diagnostics: judged.diagnostics });
        return;
      }
    } catch (error) {
      connection.console.error(`dropkit could not judge ${uri}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      running.delete(uri);
    }
  };
  documents.onDidChangeContent((change) => void judge(change.document.uri));
  documents.onDidSave((event) => void judge(event.document.uri));
  documents.onDidClose((event) => {
    answers.delete(event.document.uri);
    // A client that left cannot be told: its stdin closing ends the server.
    connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] }).catch(() => {});
  });
  connection.onDocumentFormatting((params) => {
    if (typeof params?.textDocument?.uri !== "string")
      throw new ResponseError(ErrorCodes.InvalidParams, "textDocument/formatting takes { textDocument: { uri }, options }");
    const document = documents.get(params.textDocument.uri);
    return document === undefined ? [] : formatEdits(context, document);
  });
  documents.listen(connection);
  connection.listen();
  return connection;
}

// --- helpers ---

/**
 * The whitespace-only formatting of a JSON config (src/editor/jsontext.ts, the playground's Format): none for a text
 * that does not parse or is formatted already, else one edit of the whole text (editors keep the caret on such an edit).
 */
function formatEdits(context: ServerContext, document: TextDocument): TextEdit[] {
  const text = document.getText();
  if (!context.core.parseJson(text).ok) return [];
  const formatted = formatJson(text);
  return formatted === text
    ? []
    : [{ range: { start: { line: 0, character: 0 }, end: document.positionAt(text.length) }, newText: formatted }];
}

/** The file path of a `file:` URI, or undefined for any other scheme (an unsaved buffer, a remote file). */
function pathOf(uri: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/** The variables that are set, as the core takes an environment. */
function definedVariables(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value;
  return out;
}
