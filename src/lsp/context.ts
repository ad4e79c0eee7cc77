// What the language server knows beside a document's text: the core, its environment and the drop a config is in (Node side).

import type { Core } from "../core/host.js";
import type { ResolveDone } from "../core/protocol.js";

/** What the server hands its features: read with Node APIs here, so that src/editor/ stays browser-safe. */
export interface ServerContext {
  /** The one core of the server, shared by every document. */
  readonly core: Core;
  /** The server's environment, as `dropkit config` run beside it would read it (DROPKIT_THEME and the rest). */
  readonly env: Readonly<Record<string, string>>;
  /** The file path of a document's URI, or undefined when it is not a file. */
  pathOf(uri: string): string | undefined;
  /** The core's answer for the latest text of an open config document whose diagnostics were published; undefined before, or for others. */
  answerOf(uri: string): ResolveDone | undefined;
}
