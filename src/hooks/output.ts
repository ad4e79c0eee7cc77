// A hook's output as text lines for `hook-output` records: split on "\n", invalid UTF-8 replaced, long lines bounded.

import { StringDecoder } from "node:string_decoder";

/**
 * The most UTF-16 code units one `hook-output` record holds. A longer line is written as several records,
 * each but the last marked `continues: true`, so that nothing is lost and a hook that prints without
 * newlines cannot make dropkit buffer without bound.
 *
 * @default 8192
 */
export const maxLineLength = 8192;

/** One line (or piece of a long line) of output. */
export interface OutputLine {
  text: string;
  /** The line goes on in the next piece: it was longer than `maxLineLength`. */
  continues: boolean;
}

/**
 * Cuts a byte stream into lines: "\n" ends a line (a "\r" before it is dropped, so CRLF output reads the
 * same), invalid UTF-8 becomes U+FFFD, a line longer than `maxLength` is cut into pieces, and `end()`
 * flushes a last line that has no newline.
 */
export class LineSplitter {
  private readonly decoder = new StringDecoder("utf8");
  private pending = "";

  /**
   * @param emit - Receives each line or piece, in order.
   * @param maxLength - The longest piece. @default maxLineLength
   */
  constructor(
    private readonly emit: (line: OutputLine) => void,
    private readonly maxLength = maxLineLength,
  ) {}

  /** Takes the next bytes; a UTF-8 sequence split between two chunks is joined. */
  push(chunk: Buffer): void {
    this.pending += this.decoder.write(chunk);
    let newline: number;
    while ((newline = this.pending.indexOf("\n")) !== -1) {
      const line = this.pending.slice(0, newline);
      this.pending = this.pending.slice(newline + 1);
      this.emitLine(line.endsWith("\r") ? line.slice(0, -1) : line);
    }
    while (this.pending.length > this.maxLength) this.pending = this.cut(this.pending);
  }

  /** Flushes what is left: an incomplete UTF-8 sequence (as U+FFFD) and a last line without a newline. */
  end(): void {
    this.pending += this.decoder.end();
    const rest = this.pending;
    this.pending = "";
    if (rest !== "") this.emitLine(rest);
  }

  private emitLine(line: string): void {
    let rest = line;
    while (rest.length > this.maxLength) rest = this.cut(rest);
    this.emit({ text: rest, continues: false });
  }

  /** Emits the first piece of `text` as a continued piece and returns the rest; a surrogate pair is never split. */
  private cut(text: string): string {
    let at = this.maxLength;
    const unit = text.charCodeAt(at - 1);
    if (unit >= 0xd800 && unit <= 0xdbff) at -= 1;
    this.emit({ text: text.slice(0, at), continues: true });
    return text.slice(at);
  }
}
