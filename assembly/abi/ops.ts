// The ops: one request in, one response out. Reads the JSON request, runs its op, writes the JSON response.

import { Code, Diagnostic, REQUEST_ERROR, Warning, writeDiagnostics, writeWarnings } from "../schema/diagnostic";
import { Document, DocumentKind, FORMAT_JSON, FORMAT_PACKAGE, textDocument } from "../schema/document";
import { MSG_REQUEST_NOT_JSON, MSG_REQUEST_NOT_OBJECT, MSG_REQUEST_UNKNOWN_OP } from "../schema/messages";
import { MAX_DEPTH, REQUEST_ENVELOPE_DEPTH, parseJson } from "../json/parser";
import { BUNDLED_NAMES, bundledLayer, bundledTape } from "../resolve/presets";
import { Span, spanOf, spanText } from "../json/span";
import { spanList } from "../resolve/flags";
import { resolveRequest } from "../resolve/resolve";
import { writeSchema } from "../schema/describe";
import { suggest } from "../schema/suggest";
import { JsonKind, Tape } from "../json/tape";
import { format, intText } from "../json/strings";
import { listUnlisted, readInto } from "../schema/validate";
import { JsonWriter, writeValue } from "../json/writer";

/** What `dk_call` returns: whether the request itself could be read. */
export enum Status {
  /** The request was handled (its response may still report problems with its inputs). */
  Done = 0,
  /** The request is not JSON, or not an object. */
  Unreadable = 1,
  /** The request is JSON but not a request: unknown op, or fields of the wrong shape. */
  Malformed = 2,
}

/** The name of a text without a `source`. */
const INPUT_NAME = spanOf("<input>");

/** The status of the last request that `handle` answered. */
export let lastStatus: Status = Status.Done;
/** Where the last response's bytes are, and how many. */
export let responsePtr: usize = 0;
export let responseLen: i32 = 0;

/** Handles `len` bytes of UTF-8 JSON at `ptr`: sets `lastStatus`, `responsePtr` and `responseLen`. */
export function handle(ptr: usize, len: i32): void {
  lastStatus = Status.Done;
  const parsed = parseJson(ptr, len, MAX_DEPTH + REQUEST_ENVELOPE_DEPTH);
  const tape = parsed.tape;
  const req = parsed.root;
  if (req < 0 || tape.kind(req) != JsonKind.Object) {
    const syntax = parsed.syntaxError;
    const detail = syntax != null ? format(": % at line %, column %", syntax.message, intText(syntax.line), intText(syntax.column)) : "";
    lastStatus = Status.Unreadable;
    requestError(req < 0 ? Code.RequestNotJson : Code.RequestNotObject, req < 0 ? MSG_REQUEST_NOT_JSON + detail : MSG_REQUEST_NOT_OBJECT);
    return;
  }
  const op = tape.stringMember(req, "op", "");
  const problems = new Array<string>();
  const w = new JsonWriter();
  if (op == "validate") validateRequest(tape, req, w, problems);
  else if (op == "resolve") resolveRequest(tape, req, w, problems);
  else if (op == "presets") presetsRequest(w);
  else if (op == "parse") parseRequest(tape, req, w, problems);
  else if (op == "suggest") suggestRequest(tape, req, w, problems);
  else if (op == "schema") writeSchema(w);
  else problems.push(MSG_REQUEST_UNKNOWN_OP + (op.length > 0 ? ', found "' + op + '"' : ""));
  if (problems.length > 0) {
    lastStatus = Status.Malformed;
    requestError(Code.BadRequest, "Malformed " + (op.length > 0 ? op + " " : "") + "request: " + problems.join("; "));
    return;
  }
  respond(w);
}

/** `validate`: one config (or preset) text checked on its own; its value is echoed when it is valid. */
function validateRequest(tape: Tape, req: i32, w: JsonWriter, problems: Array<string>): void {
  const text = tape.member(req, "text");
  if (text < 0 || tape.kind(text) != JsonKind.String) {
    problems.push("text must be a string");
    return;
  }
  const format = tape.stringMember(req, "format", FORMAT_JSON);
  if (format != FORMAT_JSON && format != FORMAT_PACKAGE) {
    problems.push('format must be "json" or "package.json"');
    return;
  }
  const kind = tape.stringMember(req, "kind", "config");
  if (kind != "config" && kind != "preset") {
    problems.push('kind must be "config" or "preset"');
    return;
  }
  const doc = textDocument(
    tape,
    text,
    format,
    tape.spanMember(req, "source", INPUT_NAME),
    kind == "preset" ? DocumentKind.Preset : DocumentKind.Config,
  );
  // No layer: only the problems. The config is the text's own value, written back from its bytes.
  readInto(doc, null);
  const errors = doc.errors;
  echoRoom(w, doc);
  w.beginObject();
  w.key("ok").bool(errors.length == 0);
  if (errors.length == 0) {
    w.key("config");
    if (doc.node >= 0) writeValue(w, doc.tape!, doc.node);
    else w.null();
  }
  writeDiagnostics(w, "errors", errors);
  writeWarnings(w, new Array<Warning>());
  w.endObject();
}

/** `presets`: the bundled presets, with their settings and detect globs. */
function presetsRequest(w: JsonWriter): void {
  w.beginObject();
  w.key("ok").bool(true);
  w.key("presets").beginArray();
  for (let i = 0; i < BUNDLED_NAMES.length; i++) {
    w.beginObject();
    w.field("name", BUNDLED_NAMES[i]);
    w.key("preset");
    writeValue(w, bundledTape(i), 0);
    const detect = bundledLayer(i, 0).detect;
    w.key("detect");
    if (detect != null) w.stringArray(detect);
    else w.null();
    w.endObject();
  }
  w.endArray();
  w.endObject();
}

/** `parse`: the JSON parser on its own, for conformance and differential tests. */
function parseRequest(tape: Tape, req: i32, w: JsonWriter, problems: Array<string>): void {
  const text = tape.member(req, "text");
  if (text < 0 || tape.kind(text) != JsonKind.String) {
    problems.push("text must be a string");
    return;
  }
  const doc = textDocument(tape, text, FORMAT_JSON, tape.spanMember(req, "source", INPUT_NAME), DocumentKind.Config);
  listUnlisted(doc);
  const errors = doc.errors;
  echoRoom(w, doc);
  w.beginObject();
  w.key("ok").bool(errors.length == 0);
  if (errors.length == 0) {
    w.key("value");
    writeValue(w, doc.tape!, doc.node);
  }
  writeDiagnostics(w, "errors", errors);
  w.endObject();
}

/** `suggest`: the did-you-mean of the core's own messages, for the names the host checks (commands, flags, archives). */
function suggestRequest(tape: Tape, req: i32, w: JsonWriter, problems: Array<string>): void {
  const name = tape.member(req, "name");
  if (name < 0 || tape.kind(name) != JsonKind.String) problems.push("name must be a string");
  const node = tape.member(req, "candidates");
  if (node < 0) problems.push("candidates must be an array of strings");
  const spans = node >= 0 ? spanList(tape, node, "candidates", problems) : new Array<Span>();
  if (problems.length > 0) return;
  const candidates = new Array<string>(spans.length);
  for (let i = 0; i < spans.length; i++) candidates[i] = spanText(unchecked(spans[i]));
  const closest = suggest(tape.text(name), candidates);
  w.beginObject();
  w.key("ok").bool(true);
  w.key("suggestion");
  if (closest.length > 0) w.string(closest);
  else w.null();
  w.endObject();
}

/**
 * Room for a response that echoes a document: written back without whitespace and with escapes no longer
 * than they were, the value takes at most the text's length. Reserved in one step, so that the writer
 * neither copies itself as it grows nor holds more than it needs.
 */
function echoRoom(w: JsonWriter, doc: Document): void {
  const tape = doc.tape;
  if (tape != null) w.reserve(tape.len + 256);
}

/** The response to a request the core cannot read. */
function requestError(code: Code, message: string): void {
  const w = new JsonWriter();
  w.beginObject();
  w.key("ok").bool(false);
  const errors = new Array<Diagnostic>();
  errors.push(Diagnostic.from(REQUEST_ERROR, code, "", message, "request"));
  writeDiagnostics(w, "errors", errors);
  w.endObject();
  respond(w);
}

function respond(w: JsonWriter): void {
  responsePtr = w.ptr();
  responseLen = w.len;
}
