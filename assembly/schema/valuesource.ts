// Where a value was set, as the answer names it: a flag, a variable, a preset, the defaults, a file, or a place
// in a file (`file:line:column`), kept as its parts and written as bytes.

import { Span, isPlain, spanOf, spanText } from "../json/span";
import { positionText } from "../json/strings";
import { JsonWriter } from "../json/writer";

export class Source {
  /** The flag, variable, preset, file or "default". */
  name: Span;
  /** 1-based, in a file with positions; 0 otherwise. */
  line: i32;
  column: i32;
  /** Whether the name's bytes are written as they are (printable ASCII, no quote or backslash): see `isPlain`. */
  plain: bool;

  constructor(name: Span, line: i32 = 0, column: i32 = 0, plain: bool = isPlain(name)) {
    this.name = name;
    this.line = line;
    this.column = column;
    this.plain = plain;
  }

  /** As a string, for messages. */
  text(): string {
    const name = spanText(this.name);
    return this.line > 0 ? positionText(name, this.line, this.column) : name;
  }

  /** Writes the source as parts of a string being written (`openString` ... `closeString`). */
  writeParts(w: JsonWriter): void {
    if (this.plain) w.escapedPart(this.name);
    else w.spanPart(this.name);
    if (this.line > 0) w.positionPart(this.line, this.column);
  }

  /** Writes the source as a string value. */
  write(w: JsonWriter): void {
    w.openString();
    this.writeParts(w);
    w.closeString();
  }
}

/** The defaults' source. */
export const DEFAULT_SOURCE = new Source(spanOf("default"));
