// A parsed value written back out (whitespace dropped, strings re-escaped, numbers as written): the answers of
// `validate` and `parse`, and the bundled presets.

import { JsonKind, Tape } from "./tape";
import { JsonWriter } from "./writer";

/** Writes value `i` of `tape`; returns the index after it. */
export function writeValue(w: JsonWriter, tape: Tape, i: i32): i32 {
  const kind = tape.kind(i);
  if (kind == JsonKind.String) {
    w.parsedString(tape, i);
    return i + 1;
  }
  if (kind == JsonKind.Number) {
    w.parsedNumber(tape, i);
    return i + 1;
  }
  if (kind == JsonKind.Bool) {
    w.bool(tape.isTrue(i));
    return i + 1;
  }
  if (kind == JsonKind.Null) {
    w.null();
    return i + 1;
  }
  const end = tape.next(i);
  if (kind == JsonKind.Array) {
    w.beginArray();
    for (let j = i + 1; j < end; ) j = writeValue(w, tape, j);
    w.endArray();
    return end;
  }
  w.beginObject();
  for (let j = i + 1; j < end; ) {
    w.parsedString(tape, j, true);
    j = writeValue(w, tape, j + 1);
  }
  w.endObject();
  return end;
}
