// The language server's editor features (completion, hover, quick fixes, "explain this key"), over the browser-safe logic in src/editor/.

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import {
  type CodeAction,
  CodeActionKind,
  type CompletionItem,
  CompletionItemKind,
  type Connection,
  ErrorCodes,
  type Hover,
  MarkupKind,
  ResponseError,
  type ServerCapabilities,
  type TextDocuments,
  type TextEdit,
} from "vscode-languageserver/node";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { scanArchives } from "../archives/scan.js";
import { dropkitKeyInText } from "../config/dropkitkey.js";
import { valueAt } from "../core/decisions.js";
import type { CoreDiagnostic, CoreWarning, ResolveDone } from "../core/protocol.js";
import { readAnswer, stepsOf } from "../editor/answer.js";
import { archiveNames } from "../editor/archives.js";
import { type CompletionFacts, completionEdit, completionsAt } from "../editor/complete.js";
import { explainOutput } from "../editor/explain.js";
import { candidatesFor, type Fix, isSafe, type Judged, locate } from "../editor/fixes.js";
import { hoverAt, hoverMarkdown } from "../editor/hover.js";
import { keyAt } from "../editor/jsonpath.js";
import { type Schema, schemaAt } from "../editor/schema.js";
import { DropkitError } from "../errors.js";
import { limits } from "../files/limits.js";
import { packageRoot } from "../installed.js";
import type { ServerContext } from "./context.js";
import { servedFormat } from "./diagnostics.js";
import { resolveText } from "./resolve.js";
import { configRefusal } from "./trust.js";

/** The command of "explain this key": its arguments are the document's URI and the dotted key; it answers `dropkit config --explain`'s text. */
export const explainCommand = "dropkit.explain";

/** A config document the features serve: its path, its form and its text, within the CLI's limit. */
interface Served {
  uri: string;
  file: string;
  format: "json" | "package.json";
  text: string;
  document: TextDocument;
}

/**
 * Registers the editor features on the server's connection; the server calls it once, before it listens, and answers
 * `initialize` with the capabilities returned here beside its own (diagnostics, formatting).
 */
export function registerEditorFeatures(
  connection: Connection,
  documents: TextDocuments<TextDocument>,
  context: ServerContext,
): ServerCapabilities {
  let schema: Schema | undefined;
  // The shipped schema.json, the page's own; read on first use, as a server that only publishes diagnostics never needs it.
  const schemaNow = () => (schema ??= JSON.parse(readFileSync(path.join(packageRoot(), "schema.json"), "utf8")) as Schema);
  const served = (uri: string): Served | undefined => {
    const document = documents.get(uri);
    const file = context.pathOf(uri);
    const format = file === undefined ? undefined : servedFormat(file);
    if (!document || file === undefined || format === undefined) return undefined;
    const text = document.getText();
    // Over the limit the CLI reads nothing: the one diagnostic says so, and nothing else is offered.
    if (Buffer.byteLength(text, "utf8") > limits.fileBytes) return undefined;
    return { uri, file, format, text, document };
  };

  connection.onCompletion(async (params) => {
    const doc = served(params.textDocument.uri);
    if (!doc) return null;
    const pos = doc.document.offsetAt(params.position);
    const facts = await completionFacts(context, doc);
    const found = completionsAt(doc.text, pos, facts, schemaNow(), { explicit: true });
    if (!found) return null;
    return found.items.map((item, i): CompletionItem => {
      const edit = completionEdit(doc.text, found.from, pos, item);
      const range = { start: doc.document.positionAt(edit.from), end: doc.document.positionAt(edit.to) };
      return {
        label: item.label,
        kind:
          item.kind === "property"
            ? CompletionItemKind.Property
            : item.kind === "enum"
              ? CompletionItemKind.EnumMember
              : CompletionItemKind.Value,
        // The editor filters on what is typed from the edit's start: the opening quote too.
        filterText: doc.text.slice(edit.from, found.from) + item.label,
        sortText: String(i).padStart(4, "0"),
        textEdit: { range, newText: edit.insert },
        ...(item.info ? { documentation: { kind: MarkupKind.PlainText, value: item.info } } : {}),
      };
    });
  });

  connection.onHover(async (params): Promise<Hover | null> => {
    const doc = served(params.textDocument.uri);
    if (!doc) return null;
    const answer = await answerOf(context, doc);
    const facts = { packageJson: doc.format === "package.json", rows: answer ? readAnswer(answer).rows : [] };
    const found = hoverAt(doc.text, doc.document.offsetAt(params.position), facts, schemaNow());
    if (!found) return null;
    const leaf = explainable(schemaNow(), found.key.split("."));
    const link =
      leaf === undefined
        ? undefined
        : `[Explain ${leaf}](command:${explainCommand}?${encodeURIComponent(JSON.stringify([doc.uri, leaf]))})`;
    return {
      contents: { kind: MarkupKind.Markdown, value: hoverMarkdown(found, link) },
      range: { start: doc.document.positionAt(found.from), end: doc.document.positionAt(found.to) },
    };
  });

  connection.onCodeAction(async (params) => {
    const doc = served(params.textDocument.uri);
    if (!doc) return null;
    const from = doc.document.offsetAt(params.range.start);
    const to = doc.document.offsetAt(params.range.end);
    const actions: CodeAction[] = [];
    for (const fix of await safeFixes(context, doc, from, to))
      actions.push({
        title: fix.label,
        kind: CodeActionKind.QuickFix,
        isPreferred: true,
        edit: { changes: { [doc.uri]: [textEditOf(doc, fix)] } },
      });
    // The key under the caret, or the key whose value it is; in a package.json, under its `dropkit` key only.
    let parts = (keyAt(doc.text, from)?.path ?? []).filter((p): p is string => typeof p === "string");
    if (doc.format === "package.json") parts = parts[0] === "dropkit" ? parts.slice(1) : [];
    const leaf = explainable(schemaNow(), parts);
    if (leaf !== undefined) {
      const title = `Explain ${leaf}`;
      actions.push({ title, kind: CodeActionKind.Empty, command: { title, command: explainCommand, arguments: [doc.uri, leaf] } });
    }
    return actions;
  });

  connection.onExecuteCommand(async (params) => {
    if (params.command !== explainCommand)
      throw new ResponseError(ErrorCodes.InvalidParams, `Unknown command ${params.command}: dropkit serves ${explainCommand}.`);
    const [uri, key] = params.arguments ?? [];
    const doc = typeof uri === "string" ? served(uri) : undefined;
    if (!doc || typeof key !== "string")
      throw new ResponseError(
        ErrorCodes.InvalidParams,
        `${explainCommand} takes the URI of an open dropkit config and a dotted key, such as "theme".`,
      );
    const output = await explain(context, doc, key);
    void connection.window.showInformationMessage(output);
    return output;
  });

  return {
    completionProvider: { triggerCharacters: ['"'] },
    hoverProvider: true,
    codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
    executeCommandProvider: { commands: [explainCommand] },
  };
}

// --- helpers ---

/**
 * The dotted leaf that `dropkit config --explain` takes for a key path, or undefined for one it does not (an object such as
 * `hooks`, a key off the schema). The `exclude` shorthand is explained as `modules.exclude`.
 */
function explainable(schema: Schema, parts: string[]): string | undefined {
  const node = parts.length === 0 || parts[0] === "$schema" ? undefined : schemaAt(schema, parts);
  if (!node || node.properties) return undefined;
  const leaf = parts.join(".");
  return leaf === "exclude" ? "modules.exclude" : leaf;
}

/**
 * The config document resolved as it reads now, as `dropkit config` in its folder would; undefined where nothing resolves,
 * a config file the CLI refuses included (its preset files are not read then either).
 */
async function answerOf(context: ServerContext, doc: Served): Promise<ResolveDone | undefined> {
  if (doc.format === "package.json" && !dropkitKeyInText(doc.text)) return undefined;
  if (configRefusal(doc.file, context.env)) return undefined;
  try {
    return await resolveText(context, { cwd: path.dirname(doc.file), config: { source: doc.file, format: doc.format, text: doc.text } });
  } catch (error) {
    // A preset file that cannot be loaded: the diagnostics say so.
    if (error instanceof DropkitError) return undefined;
    throw error;
  }
}

/**
 * What completion knows of the config's drop: the bundled presets, then the preset files of the search path the config
 * resolves to, by name; the themes and modules of the `*.zip` archives beside the config, as `dropkit create` there sees them.
 */
async function completionFacts(context: ServerContext, doc: Served): Promise<CompletionFacts> {
  const dir = path.dirname(doc.file);
  // The answer the diagnostics were published from will do (a search path changes rarely), saving a resolve per keystroke.
  const answer = context.answerOf(doc.uri) ?? (await answerOf(context, doc));
  const searchPath = answer?.config?.presetsSearchPath ?? [];
  const local = new Set<string>();
  for (const entry of searchPath) {
    try {
      for (const name of readdirSync(path.resolve(dir, entry)).sort()) {
        const preset = /^(.+)\.(ts|js|json)$/.exec(name);
        if (preset) local.add(preset[1]!);
      }
    } catch {
      // A missing directory of the search path is the config's warning, not completion's.
    }
  }
  let archives: string[] = [];
  try {
    archives = await scanArchives(dir);
  } catch {
    // An unreadable folder offers no names.
  }
  return {
    packageJson: doc.format === "package.json",
    presetNames: [...context.core.listPresets().map((p) => p.name), ...[...local].sort()],
    ...archiveNames(archives),
  };
}

/** What a fix's safety is judged on, for a document's answer. */
function judgedOf(doc: Served, answer: ResolveDone | undefined): Judged {
  return { source: doc.file, read: answer !== undefined, file: path.basename(doc.file), problems: answer?.errors ?? [] };
}

/**
 * The quick fixes for the problems and warnings whose span in the document meets `from`..`to`: for each, the first of its
 * candidates that is safe, as the playground offers them. A fix edits this document only (a variable or a flag is no
 * text of it), and is tried on a copy first: with it applied, the document has no problem it did not have.
 */
async function safeFixes(context: ServerContext, doc: Served, from: number, to: number): Promise<Fix[]> {
  const answer = await answerOf(context, doc);
  if (!answer) return [];
  const before = judgedOf(doc, answer);
  const textOf = (file: string) => (file === doc.file ? doc.text : undefined);
  const setVariables = new Set(Object.keys(context.env).filter((name) => name.startsWith("DROPKIT_")));
  const fixes: Fix[] = [];
  const offer = async (problem: CoreDiagnostic | CoreWarning, fixesProblem: boolean) => {
    const span = locate(problem, textOf);
    if (!span || span.file !== doc.file || span.to < from || span.from > to) return;
    for (const fix of candidatesFor(problem, textOf, setVariables)) {
      const edit = fix.edit;
      if (edit.target !== "text" || edit.file !== doc.file || doc.text.slice(edit.from, edit.to) !== edit.expect) continue;
      const text = doc.text.slice(0, edit.from) + edit.insert + doc.text.slice(edit.to);
      const after = judgedOf(doc, await answerOf(context, { ...doc, text }));
      if (isSafe(before, after, fix, fixesProblem)) {
        fixes.push(fix);
        return;
      }
    }
  };
  for (const problem of answer.errors) await offer(problem, true);
  for (const warning of answer.warnings) await offer(warning, false);
  return fixes;
}

/** A text fix of the document as the editor applies it. */
function textEditOf(doc: Served, fix: Fix): TextEdit {
  const edit = fix.edit as Extract<Fix["edit"], { target: "text" }>;
  return { range: { start: doc.document.positionAt(edit.from), end: doc.document.positionAt(edit.to) }, newText: edit.insert };
}

/**
 * `dropkit config --explain <key>`'s output for the document as it reads now, resolved as that command resolves its file
 * in the config's folder (its preset files fenced there). A config with problems explains nothing, as the command then
 * exits with them; a config file the command refuses (`configRefusal`) answers its refusal.
 */
async function explain(context: ServerContext, doc: Served, key: string): Promise<string> {
  const refusal = configRefusal(doc.file, context.env);
  if (refusal) throw new ResponseError(ErrorCodes.InvalidRequest, refusal.message);
  let done: ResolveDone;
  try {
    done = await resolveText(context, {
      cwd: path.dirname(doc.file),
      config: { source: doc.file, format: doc.format, text: doc.text },
      explain: key,
    });
  } catch (error) {
    if (error instanceof DropkitError) throw new ResponseError(ErrorCodes.InvalidRequest, error.message);
    throw error;
  }
  const steps = done.explain?.[key];
  if (!done.ok || !steps || !done.config)
    throw new ResponseError(
      ErrorCodes.InvalidRequest,
      done.errors.map((e) => `${e.source}: ${e.message}`).join("\n") || `${key} is not explained.`,
    );
  return explainOutput(key, valueAt(done.config, key), stepsOf(steps, done.origins?.[key]?.entries !== undefined), false);
}
