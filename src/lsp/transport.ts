// The server's end of stdio: messages framed by vscode-jsonrpc, and what is no JSON-RPC message answered with the error JSON-RPC 2.0 names.

import {
  ErrorCodes,
  type Message,
  type MessageReader,
  type MessageWriter,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver/node";

/**
 * A reader and a writer over `input` and `output`. vscode-jsonrpc drops a body that is not JSON, or a message that is
 * neither a request, a notification nor a response, with a line in its log; a client then waits for an answer that
 * never comes. Here the first gets a Parse error (-32700) and the second an Invalid Request (-32600), with the
 * request's id when it has a usable one, as JSON-RPC 2.0 asks, and the server goes on.
 */
export function stdioTransport(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): { reader: MessageReader; writer: MessageWriter } {
  const reader = new StreamMessageReader(input);
  const writer = new StreamMessageWriter(output);
  // A client that left cannot be answered: its stdin closing ends the server (src/lsp/server.ts).
  const refuse = (id: number | string | null, code: number, message: string) =>
    void writer.write({ jsonrpc: "2.0", id, error: { code, message } } as Message).catch(() => {});
  reader.onError((error) => refuse(null, ErrorCodes.ParseError, `Parse error: ${error.message}`));
  const checked: MessageReader = {
    onError: reader.onError,
    onClose: reader.onClose,
    onPartialMessage: reader.onPartialMessage,
    listen: (callback) =>
      reader.listen((message) => {
        const problem = invalidMessage(message);
        if (problem === undefined) callback(message);
        else refuse(problem.id, ErrorCodes.InvalidRequest, `Invalid Request: ${problem.why}`);
      }),
    dispose: () => reader.dispose(),
  };
  return { reader: checked, writer };
}

// --- helpers ---

/** Why a parsed body is no JSON-RPC 2.0 message (with the id to answer with), or undefined for a message. */
function invalidMessage(message: unknown): { id: number | string | null; why: string } | undefined {
  if (typeof message !== "object" || message === null || Array.isArray(message)) return { id: null, why: "a message is a JSON object" };
  const m = message as Record<string, unknown>;
  const id = typeof m.id === "number" || typeof m.id === "string" ? m.id : null;
  if (m.jsonrpc !== "2.0") return { id, why: 'a message has "jsonrpc": "2.0"' };
  if ("id" in m && m.id !== null && id === null) return { id: null, why: "an id is a number or a string" };
  if ("method" in m) return typeof m.method === "string" ? undefined : { id, why: "a method is a string" };
  // A response of the client's to a request of the server's.
  if ("id" in m && ("result" in m || "error" in m)) return undefined;
  return { id, why: "a message has a method (a request or a notification), or a result or an error (a response)" };
}
