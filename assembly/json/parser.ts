// The strict JSON parser: UTF-8 text in, a tape out, with the first syntax error and every duplicate key.
//
// One loop over the text with an explicit stack of open arrays and objects (at most MAX_DEPTH), so that no
// input can exhaust the call stack. Problems carry the key path of where they are, built from the stack only
// when there is a problem: the path of a value nobody complains about is never made.

import { CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, DIGIT_0, MINUS, OPEN_BRACE, OPEN_BRACKET, QUOTE } from "./chars";
import { Code, Diagnostic, MAX_LISTED_PROBLEMS, SCHEMA_ERROR, SYNTAX_ERROR } from "../schema/diagnostic";
import { KeySet } from "./keyset";
import {
  MSG_BAD_ESCAPE,
  MSG_BAD_NUMBER,
  MSG_BAD_UNICODE_ESCAPE,
  MSG_BAD_UTF8,
  MSG_CONTROL_CHAR,
  MSG_EMPTY,
  MSG_EXPECTED_COLON,
  MSG_EXPECTED_COMMA_ARRAY,
  MSG_EXPECTED_COMMA_OBJECT,
  MSG_EXPECTED_KEY,
  MSG_EXPECTED_VALUE,
  MSG_TOO_DEEP,
  MSG_TRAILING,
  MSG_TRAILING_COMMA,
  MSG_UNTERMINATED_STRING,
} from "../schema/messages";
import { Positions, hasByteOrderMark } from "./positions";
import { ScanProblem, byteAt, describeAt, isWordAt, scanAt, scanEscaped, scanNumber, scanProblem, scanString, skipSpace } from "./scanner";
import { JsonKind, NodeFlag, Tape } from "./tape";
import { format, intText } from "./strings";

/** Deepest nesting of arrays and objects the parser accepts; deeper input is an error, not a trap. */
export const MAX_DEPTH: i32 = 128;
/**
 * A request may nest this much deeper than a document: room for the envelope around a `value` source
 * (`presetFiles[i].value` starts at level 4), so that a value as deep as a JSON config may be is readable.
 */
export const REQUEST_ENVELOPE_DEPTH: i32 = 3;
const DEEPEST: i32 = MAX_DEPTH + REQUEST_ENVELOPE_DEPTH;

/**
 * Up to this many keys, an object's new key is compared with each one before it (cheaper than hashing for the
 * few keys of a config); past it, the object's keys go into a hash set, so that 3,000 dependencies stay linear.
 */
const LINEAR_KEYS: i32 = 16;

/** A parsed text: its tape, the root value (-1 when it does not parse), and the problems found. */
export class Parsed {
  tape: Tape;
  root: i32 = -1;
  /** The syntax error, if any: parsing stops at the first one. */
  syntaxError: Diagnostic | null = null;
  /** Duplicate keys (schema errors): parsing goes on past them, so all of them are found (the first MAX_LISTED_PROBLEMS listed). */
  duplicates: Array<Diagnostic> = new Array<Diagnostic>();
  /** Duplicate keys found past those listed: counted, never built. */
  unlisted: i32 = 0;
  private lines: Positions | null = null;

  constructor(tape: Tape) {
    this.tape = tape;
  }

  /** Positions in the text, made on first use: a text without problems or sources never needs them. */
  positions(): Positions {
    let lines = this.lines;
    if (lines == null) this.lines = lines = new Positions(this.tape.ptr, this.tape.len);
    return lines;
  }
}

/**
 * Parses `len` bytes of UTF-8 at `ptr`, which must stay alive as long as the result, nested at most `maxDepth`
 * deep. With a `scope`, only duplicate keys inside that top-level key are recorded (package.json's `dropkit`).
 */
export function parseJson(ptr: usize, len: i32, maxDepth: i32 = MAX_DEPTH, scope: string = ""): Parsed {
  return new Parser(ptr, len, maxDepth, scope).run();
}

// The open containers, innermost last: the node, whether it is an object, how many items (or members) it
// has so far, and the key of the member being read (-1 before the first) or the index of the item.
const frameNode = new StaticArray<i32>(DEEPEST);
const frameObject = new StaticArray<bool>(DEEPEST);
const frameItems = new StaticArray<i32>(DEEPEST);
const frameKey = new StaticArray<i32>(DEEPEST);
// One key set per open object that has grown past LINEAR_KEYS keys (null until then, set when a frame opens).
const frameKeys = new StaticArray<KeySet | null>(DEEPEST);

class Parser {
  ptr: usize;
  len: i32;
  tape: Tape;
  result: Parsed;
  depth: i32 = 0;
  maxDepth: i32;
  scope: string;

  constructor(ptr: usize, len: i32, maxDepth: i32, scope: string) {
    this.ptr = ptr;
    this.len = len;
    this.maxDepth = min(maxDepth, DEEPEST);
    this.scope = scope;
    // The tape grows in place as it fills: a request holding a large text has only a few nodes.
    const tape = new Tape(ptr, len, 64);
    this.tape = tape;
    this.result = new Parsed(tape);
  }

  run(): Parsed {
    const ptr = this.ptr;
    const len = this.len;
    let pos = skipSpace(ptr, len, hasByteOrderMark(ptr, len) ? 3 : 0);
    if (pos >= len) return this.fail(Code.EmptyText, MSG_EMPTY, pos, pos);
    while (true) {
      // A value at `pos`.
      const c = byteAt(ptr, len, pos);
      if (c == OPEN_BRACE || c == OPEN_BRACKET) {
        if (this.depth == this.maxDepth) return this.fail(Code.TooDeep, MSG_TOO_DEEP, pos, pos);
        const isObject = c == OPEN_BRACE;
        const node = this.tape.add(isObject ? JsonKind.Object : JsonKind.Array, pos, pos);
        pos = skipSpace(ptr, len, pos + 1);
        if (byteAt(ptr, len, pos) == (isObject ? CLOSE_BRACE : CLOSE_BRACKET)) {
          this.tape.close(node, ++pos);
        } else {
          const d = this.depth++;
          unchecked((frameNode[d] = node));
          unchecked((frameObject[d] = isObject));
          unchecked((frameItems[d] = 0));
          unchecked((frameKey[d] = isObject ? -1 : 0));
          unchecked((frameKeys[d] = null));
          pos = this.nextItem(pos);
          if (pos < 0) return this.result;
          continue;
        }
      } else if (c == QUOTE) {
        const end = scanString(ptr, len, pos);
        if (end < 0) return this.failScan();
        this.tape.add(JsonKind.String | (scanEscaped ? NodeFlag.Escaped : 0), pos, end);
        pos = end;
      } else if (c == MINUS || c - DIGIT_0 < 10) {
        const end = scanNumber(ptr, len, pos);
        if (end < 0) return this.failScan();
        this.tape.add(JsonKind.Number, pos, end);
        pos = end;
      } else if (isWordAt(ptr, len, pos, "true")) {
        this.tape.add(JsonKind.Bool | NodeFlag.True, pos, pos + 4);
        pos += 4;
      } else if (isWordAt(ptr, len, pos, "false")) {
        this.tape.add(JsonKind.Bool, pos, pos + 5);
        pos += 5;
      } else if (isWordAt(ptr, len, pos, "null")) {
        this.tape.add(JsonKind.Null, pos, pos + 4);
        pos += 4;
      } else {
        return this.fail(Code.ExpectedValue, MSG_EXPECTED_VALUE + describeAt(this.ptr, this.len, pos), pos, pos);
      }
      // After a value: the end of the text, or of the containers it closes, or the next item.
      while (true) {
        pos = skipSpace(ptr, len, pos);
        if (this.depth == 0) {
          if (pos < len) return this.fail(Code.TrailingText, MSG_TRAILING + describeAt(this.ptr, this.len, pos), pos, pos);
          this.result.root = 0;
          return this.result;
        }
        const d = this.depth - 1;
        const isObject = unchecked(frameObject[d]);
        unchecked(frameItems[d]++);
        const sep = byteAt(ptr, len, pos);
        if (sep == COMMA) {
          pos = this.nextItem(skipSpace(ptr, len, pos + 1));
          if (pos < 0) return this.result;
          break;
        }
        if (sep != (isObject ? CLOSE_BRACE : CLOSE_BRACKET)) {
          return this.fail(
            Code.ExpectedComma,
            (isObject ? MSG_EXPECTED_COMMA_OBJECT : MSG_EXPECTED_COMMA_ARRAY) + describeAt(this.ptr, this.len, pos),
            pos,
            pos,
          );
        }
        this.tape.close(unchecked(frameNode[d]), ++pos);
        this.depth = d;
      }
    }
  }

  /**
   * Before an item of the innermost container, at `pos` (past whitespace): in an object, reads the key and
   * its colon. Returns where the value starts, or -1 after a syntax error.
   */
  nextItem(pos: i32): i32 {
    const ptr = this.ptr;
    const len = this.len;
    const d = this.depth - 1;
    const items = unchecked(frameItems[d]);
    const c = byteAt(ptr, len, pos);
    if (unchecked(frameObject[d])) {
      if (c != QUOTE) {
        const trailing = items > 0 && c == CLOSE_BRACE;
        this.fail(
          trailing ? Code.TrailingComma : Code.ExpectedKey,
          (trailing ? MSG_TRAILING_COMMA : MSG_EXPECTED_KEY) + describeAt(this.ptr, this.len, pos),
          pos,
          pos,
        );
        return -1;
      }
      const end = scanString(ptr, len, pos);
      if (end < 0) {
        this.failScan();
        return -1;
      }
      const key = this.tape.add(JsonKind.String | (scanEscaped ? NodeFlag.Escaped : 0), pos, end);
      unchecked((frameKey[d] = key));
      this.checkDuplicate(d, key, items);
      pos = skipSpace(ptr, len, end);
      if (byteAt(ptr, len, pos) != COLON) {
        this.fail(Code.ExpectedColon, MSG_EXPECTED_COLON + describeAt(this.ptr, this.len, pos), pos, pos);
        return -1;
      }
      pos = skipSpace(ptr, len, pos + 1);
      if (pos >= len) {
        this.fail(Code.ExpectedValue, MSG_EXPECTED_VALUE + describeAt(this.ptr, this.len, pos), pos, pos);
        return -1;
      }
      return pos;
    }
    if (pos >= len) {
      this.fail(Code.ExpectedValue, MSG_EXPECTED_VALUE + describeAt(this.ptr, this.len, pos), pos, pos);
      return -1;
    }
    if (items > 0 && c == CLOSE_BRACKET) {
      this.fail(Code.TrailingComma, MSG_TRAILING_COMMA + describeAt(this.ptr, this.len, pos), pos, pos);
      return -1;
    }
    unchecked((frameKey[d] = items));
    return pos;
  }

  /** Reports `key` when an earlier key of the same object (the `items` before it) has the same value. */
  checkDuplicate(d: i32, key: i32, items: i32): void {
    const tape = this.tape;
    let first: i32;
    if (items < LINEAR_KEYS) {
      first = KeySet.firstBefore(tape, unchecked(frameNode[d]), key);
    } else {
      let set = unchecked(frameKeys[d]);
      if (set == null) {
        set = KeySet.of(tape, unchecked(frameNode[d]), key);
        unchecked((frameKeys[d] = set));
      }
      first = set.addFirst(key);
    }
    if (first < 0 || !this.inScope()) return;
    if (this.result.duplicates.length >= MAX_LISTED_PROBLEMS) {
      this.result.unlisted++;
      return;
    }
    const lines = this.result.positions();
    lines.locate(tape.start(first));
    const firstLine = lines.line;
    const firstColumn = lines.column;
    const problem = new Diagnostic();
    problem.name = SCHEMA_ERROR;
    problem.code = Code.DuplicateKey;
    problem.path = this.path();
    problem.message = format(
      'Duplicate key "%": it is also set at line %, column %. Keep one of them.',
      tape.text(key),
      intText(firstLine),
      intText(firstColumn),
    );
    lines.locate(tape.start(key));
    problem.place("", lines.line, lines.column, lines.offset, lines.offsetOf(tape.end(key)));
    this.result.duplicates.push(problem);
  }

  /** Whether the parser is inside the top-level key `scope` (always, without a scope). */
  inScope(): bool {
    if (this.scope.length == 0) return true;
    return unchecked(frameObject[0]) && this.tape.equals(unchecked(frameKey[0]), this.scope);
  }

  /** The key path of where the parser is: "modules.include[2]". */
  path(): string {
    let out = "";
    for (let i = 0; i < this.depth; i++) {
      if (unchecked(frameObject[i])) {
        const key = unchecked(frameKey[i]);
        // A dot after any outer level, even one whose key is "": the path names every level.
        if (i > 0) out += ".";
        if (key >= 0) out += this.tape.text(key);
      } else {
        out += "[" + intText(unchecked(frameKey[i])) + "]";
      }
    }
    return out;
  }

  /** The syntax error of the last failed scan. */
  failScan(): Parsed {
    const at = scanAt;
    const problem = scanProblem;
    if (problem == ScanProblem.Unterminated) return this.fail(Code.UnterminatedString, MSG_UNTERMINATED_STRING, at, this.len);
    if (problem == ScanProblem.Control) return this.fail(Code.ControlCharacter, MSG_CONTROL_CHAR, at, at);
    if (problem == ScanProblem.Escape) return this.fail(Code.InvalidEscape, MSG_BAD_ESCAPE, at, at);
    if (problem == ScanProblem.UnicodeEscape) return this.fail(Code.InvalidUnicodeEscape, MSG_BAD_UNICODE_ESCAPE, at, at);
    if (problem == ScanProblem.Utf8) return this.fail(Code.InvalidUtf8, MSG_BAD_UTF8, at, at);
    return this.fail(Code.InvalidNumber, MSG_BAD_NUMBER + describeAt(this.ptr, this.len, at), at, at);
  }

  /**
   * Records the syntax error at byte `at`. Its span runs to `to`, where the parser gave up, and is at least
   * one unit long (an unterminated string spans the rest of the text).
   */
  fail(code: Code, message: string, at: i32, to: i32): Parsed {
    const lines = this.result.positions();
    lines.locate(at);
    const line = lines.line;
    const column = lines.column;
    const offset = lines.offset;
    const problem = new Diagnostic();
    problem.name = SYNTAX_ERROR;
    problem.code = code;
    problem.path = this.path();
    problem.message = message;
    problem.place("", line, column, offset, max<i32>(offset + 1, lines.offsetOf(to)));
    this.result.syntaxError = problem;
    this.result.root = -1;
    return this.result;
  }
}
