// One request in, one response out: reads the JSON request, runs its op, writes the JSON response.

import { Diagnostic, REQUEST_ERROR, Warning } from "./diagnostic";
import { FORMAT_JSON, FORMAT_PACKAGE, listUnlisted, parseDocument, readInto } from "./document";
import { JsonNode, JsonWriter, KIND_OBJECT, KIND_STRING, MAX_DEPTH, REQUEST_ENVELOPE_DEPTH, parseJson, stringField } from "./json";
import { MSG_REQUEST_NOT_JSON, MSG_REQUEST_NOT_OBJECT, MSG_REQUEST_UNKNOWN_OP } from "./messages";
import { BUNDLED_NAMES, bundledLayer, bundledNode } from "./preset";
import { resolveRequest } from "./resolve";
import { writeDiagnostics, writeWarnings } from "./response";
import { DOC_CONFIG, DOC_PRESET, Layer } from "./schema";
import { format, intText } from "./text";

/** The request was handled (its response may still report problems with its inputs). */
export const STATUS_DONE: i32 = 0;
/** The request is not JSON, or not an object. */
export const STATUS_UNREADABLE: i32 = 1;
/** The request is JSON but not a request: unknown op, or fields of the wrong shape. */
export const STATUS_MALFORMED: i32 = 2;

/** The status of the last request that `handle` answered (a global: no object for a number). */
export let lastStatus: i32 = STATUS_DONE;

/** Handles `len` bytes of UTF-8 JSON at `ptr`; returns the response bytes and sets `lastStatus`. */
export function handle(ptr: usize, len: i32): ArrayBuffer {
  lastStatus = STATUS_DONE;
  const parsed = parseJson(ptr, len, MAX_DEPTH + REQUEST_ENVELOPE_DEPTH);
  const req = parsed.value;
  if (req == null || req.kind != KIND_OBJECT) {
    const syntax = parsed.syntaxError;
    const detail = syntax != null ? format(": % at line %, column %", syntax.message, intText(syntax.line), intText(syntax.column)) : "";
    lastStatus = STATUS_UNREADABLE;
    return requestError(req == null ? MSG_REQUEST_NOT_JSON + detail : MSG_REQUEST_NOT_OBJECT);
  }
  const op = stringField(req, "op", "");
  const problems = new Array<string>();
  const body = new JsonWriter();
  if (op == "validate") validateRequest(req, body, problems);
  else if (op == "resolve") resolveRequest(req, body, problems);
  else if (op == "presets") presetsRequest(body);
  else if (op == "parse") parseRequest(req, body, problems);
  else problems.push(MSG_REQUEST_UNKNOWN_OP + (op.length > 0 ? ", found \"" + op + "\"" : ""));
  if (problems.length > 0) {
    lastStatus = STATUS_MALFORMED;
    return requestError("Malformed " + (op.length > 0 ? op + " " : "") + "request: " + problems.join("; "));
  }
  return body.toBuffer();
}

/** `validate`: one config (or preset) text checked on its own. */
function validateRequest(req: JsonNode, w: JsonWriter, problems: Array<string>): void {
  const text = req.get("text");
  if (text == null || text.kind != KIND_STRING) {
    problems.push("text must be a string");
    return;
  }
  const format = stringField(req, "format", FORMAT_JSON);
  if (format != FORMAT_JSON && format != FORMAT_PACKAGE) {
    problems.push("format must be \"json\" or \"package.json\"");
    return;
  }
  const kind = stringField(req, "kind", "config");
  if (kind != "config" && kind != "preset") {
    problems.push("kind must be \"config\" or \"preset\"");
    return;
  }
  const doc = parseDocument(text.text, format, stringField(req, "source", "<input>"), kind == "preset" ? DOC_PRESET : DOC_CONFIG);
  const node = doc.node;
  readInto(doc, new Layer("config", "/"));
  const errors = doc.errors;
  w.beginObject();
  w.key("ok").bool(errors.length == 0);
  if (errors.length == 0) {
    w.key("config");
    if (node != null) w.node(node);
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
    const name = BUNDLED_NAMES[i];
    w.beginObject();
    w.field("name", name);
    w.key("preset").node(bundledNode(name));
    const detect = bundledLayer(name, "/").detect;
    w.key("detect");
    if (detect != null) w.stringArray(detect);
    else w.null();
    w.endObject();
  }
  w.endArray();
  w.endObject();
}

/** `parse`: the JSON parser on its own, for conformance and differential tests. */
function parseRequest(req: JsonNode, w: JsonWriter, problems: Array<string>): void {
  const text = req.get("text");
  if (text == null || text.kind != KIND_STRING) {
    problems.push("text must be a string");
    return;
  }
  const doc = parseDocument(text.text, FORMAT_JSON, stringField(req, "source", "<input>"), DOC_CONFIG);
  listUnlisted(doc);
  const errors = doc.errors;
  w.beginObject();
  w.key("ok").bool(errors.length == 0);
  if (errors.length == 0) w.key("value").node(doc.node!);
  writeDiagnostics(w, "errors", errors);
  w.endObject();
}

/** The response to a request the core cannot read. */
function requestError(message: string): ArrayBuffer {
  const w = new JsonWriter();
  w.beginObject();
  w.key("ok").bool(false);
  const errors = new Array<Diagnostic>();
  errors.push(Diagnostic.from(REQUEST_ERROR, "", message, "request"));
  writeDiagnostics(w, "errors", errors);
  w.endObject();
  return w.toBuffer();
}

