// Writing the parts that answers share: problems, warnings, one layer's value of a leaf, the opening of a resolve answer.

import { Diagnostic, Warning, WarningCode, warningCodeName } from "./diagnostic";
import { Items } from "./items";
import { Layer } from "./layer";
import { LEAVES, LeafId, LeafType } from "./schema";
import { Span, spanLen } from "./span";
import { JsonWriter } from "./writer";

export function writeDiagnostics(w: JsonWriter, key: string, list: Array<Diagnostic>): void {
  w.key(key).beginArray();
  for (let i = 0; i < list.length; i++) writeDiagnostic(w, list[i]);
  w.endArray();
}

function writeDiagnostic(w: JsonWriter, d: Diagnostic): void {
  w.beginObject();
  w.field("name", d.name);
  w.key("exitCode").int(d.exitCode());
  w.field("path", d.path);
  w.field("source", d.source);
  if (d.hasPosition) {
    w.field("file", d.file);
    w.key("line").int(d.line);
    w.key("column").int(d.column);
    w.key("offset").int(d.offset);
    // Every span is at least one unit long, so that an editor can always underline something.
    w.key("length").int(max<i32>(1, d.end - d.offset));
  }
  w.field("message", d.message);
  w.endObject();
}

export function writeWarnings(w: JsonWriter, list: Array<Warning>): void {
  w.key("warnings").beginArray();
  for (let i = 0; i < list.length; i++) {
    w.beginObject();
    const d = list[i];
    w.field("message", d.message);
    w.field("source", d.source);
    if (d.code != WarningCode.None) w.field("code", warningCodeName(d.code));
    if (d.key.length > 0) w.field("key", d.key);
    if (d.glob.length > 0) w.field("glob", d.glob);
    const files = d.files;
    if (files != null) w.key("files").stringArray(files).field("used", d.used);
    if (d.suggestion.length > 0) w.field("suggestion", d.suggestion);
    w.endObject();
  }
  w.endArray();
}

/** Writes one layer's value for a leaf, with the leaf's JSON type. */
export function writeSetting(w: JsonWriter, leaf: LeafId, layer: Layer): void {
  const def = unchecked(LEAVES[leaf]);
  if (def.isList()) writeValues(w, layer.list(leaf));
  else if (def.type == LeafType.Bool) w.bool(layer.flag(leaf));
  else if (def.type == LeafType.Schema) w.numberText("1");
  else w.spanString(layer.value(leaf));
}

/** The values of a list, as an array of strings. */
export function writeValues(w: JsonWriter, items: Items): void {
  w.beginArray();
  for (let i = 0, n = items.length; i < n; i++) w.spanString(items.value(i));
  w.endArray();
}

/** Opens a resolve answer: `{"ok":...,"stage":...,"logFormat":...` (every stage starts so). */
export function beginStage(w: JsonWriter, ok: bool, stage: string, logFormat: Span): void {
  w.beginObject();
  w.key("ok").bool(ok);
  w.field("stage", stage);
  if (spanLen(logFormat) > 0) w.key("logFormat").spanString(logFormat);
}
