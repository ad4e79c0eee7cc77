// Tests for the core's JSON parser (assembly/json/parser.ts) through the parse and validate ops of the built wasm.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import * as M from "../../assembly/schema/messages.js";
import { openAbi } from "../../scripts/lib/abi.js";
import { only, parse, positionOf, validate } from "../helpers/core.js";

const abi = openAbi();

/** The one syntax error of a text that must not parse. */
function syntaxError(text: string) {
  const r = parse(text);
  assert.equal(r.ok, false, `expected ${JSON.stringify(text)} to be rejected`);
  const e = only(r.errors);
  assert.equal(e.name, "ConfigSyntaxError");
  assert.equal(e.exitCode, 65);
  return e;
}

describe("positions", () => {
  test("line and column are 1-based, offset 0-based, on the offending token", () => {
    const text = '{\n  "theme": "x",\n  "modules": oops\n}';
    const e = syntaxError(text);
    assert.deepEqual([e.line, e.column, e.offset, e.length], [3, 14, text.indexOf("oops"), 1]);
    assert.equal(e.source, `<input>:3:14`);
    assert.equal(e.path, "modules");
  });

  test("a CRLF line break counts the carriage return as a column of the line it ends", () => {
    const e = syntaxError('{\r\n  "a": x}');
    assert.deepEqual([e.line, e.column, e.offset], [2, 8, 10]);
  });

  test("validation errors cover the offending value: offset and length in UTF-16 units", () => {
    const text = '{\n\t"theme": ["auto"]\n}';
    const e = only(validate(text).errors);
    assert.deepEqual([e.line, e.column, e.offset, e.length], [2, 11, text.indexOf("["), '["auto"]'.length]);
  });

  test("a key's error covers the key with its quotes", () => {
    const text = '{"themes": "auto"}';
    const e = only(validate(text).errors);
    assert.deepEqual([e.line, e.column, e.offset, e.length], [1, 2, 1, '"themes"'.length]);
  });

  test("a leading byte-order mark is tolerated: not a column, but counted in offsets", () => {
    const ok = parse('\uFEFF{"a": 1}');
    assert.deepEqual(ok, { ok: true, value: { a: 1 }, errors: [] });
    const text = '\uFEFF{"a": x}';
    const e = syntaxError(text);
    assert.deepEqual([e.line, e.column, e.offset], [1, 7, 7]);
    assert.deepEqual(positionOf(text, "x"), { line: 1, column: 7, offset: 7 });
  });

  test("a byte-order mark anywhere else is not whitespace", () => {
    const e = syntaxError('{"a": 1}\uFEFF');
    assert.match(e.message, /^Unexpected text after the JSON value: found a non-ASCII character/);
  });

  const samples: Array<[string, string]> = [
    ["two-byte UTF-8 (é)", '{"café": "crème", "b": BAD}'],
    ["three-byte UTF-8 (中, €)", '{"中文": "€€€", "b": BAD}'],
    ["astral characters (😀, 𝄞) are two UTF-16 units", '{"😀": "𝄞x😀", "b": BAD}'],
    ["escapes count as their source text", '{"\\u00e9\\ud83d\\ude00": "\\n\\t", "b": BAD}'],
    ["non-ASCII on earlier lines does not shift later lines", '{\n"ü😀": "😀😀",\n  "b": BAD}'],
    ["non-ASCII on the same line after a line break", '{"x": 1,\n "😀é中": 2, "b": BAD}'],
  ];
  for (const [name, text] of samples) {
    test(`columns in UTF-16 units: ${name}`, () => {
      const e = syntaxError(text);
      const at = positionOf(text, "BAD");
      assert.deepEqual({ line: e.line, column: e.column, offset: e.offset }, at);
      assert.equal(e.path, "b");
    });
  }

  test("a key after astral characters has its own exact position in a duplicate-key error", () => {
    const text = '{"😀😀": 1, "a": 2, "a": 3}';
    const e = only(parse(text).errors);
    const second = positionOf(text, '"a"', text.indexOf('"a"') + 1);
    assert.deepEqual({ line: e.line, column: e.column, offset: e.offset }, second);
    assert.equal(e.length, 3);
    const first = positionOf(text, '"a"');
    assert.match(e.message, new RegExp(`line ${first.line}, column ${first.column}\\.`));
  });

  test("a validation error after multi-byte text points at the value in UTF-16 units", () => {
    const text = '{"$schema": "ünïcödé 😀", "theme": 7}';
    const e = only(validate(text).errors);
    assert.deepEqual({ line: e.line, column: e.column, offset: e.offset }, positionOf(text, "7"));
  });
});

describe("key paths in errors", () => {
  test("a syntax error inside nested containers names the dotted path with indexes", () => {
    assert.equal(syntaxError('{"modules": {"include": ["a", "b", nope]}}').path, "modules.include[2]");
    assert.equal(syntaxError('{"a": [1, {"b": {"c": [0, 1, 2, tru]}}]}').path, "a[1].b.c[3]");
    assert.equal(syntaxError("[[1], [2, [3, x]]]").path, "[1][1][1]");
  });

  test("a top-level syntax error has the empty path", () => {
    assert.equal(syntaxError("nope").path, "");
    assert.equal(syntaxError("{} {}").path, "");
  });

  test("validation names the element of a list", () => {
    const e = only(validate('{"modules": {"include": ["blog", "shop-*", "a*b"]}}').errors);
    assert.equal(e.path, "modules.include[2]");
    assert.match(e.message, /^modules\.include\[2\]: /);
  });
});

describe("comments", () => {
  test("a comment is named as one, with where comments can go, wherever it stands", () => {
    const line = syntaxError('{\n  // the theme\n  "theme": "ocean"\n}');
    assert.equal(
      line.message,
      `${M.MSG_EXPECTED_KEY}a comment ('//'): JSON has none; write comments in a dropkit.config.ts, or remove them`,
    );
    assert.deepEqual([line.line, line.column], [2, 3]);
    assert.match(
      syntaxError('{"theme": "ocean" /* x */}').message,
      /found a comment \('\/\*'\): JSON has none; write comments in a dropkit\.config\.ts/,
    );
    assert.match(syntaxError("[1, // one\n 2]").message, /found a comment \('\/\/'\)/);
    // A lone slash is no comment: it is named as the character it is.
    assert.match(syntaxError('{"a": 1 /}').message, /found '\/'$/);
  });
});

describe("duplicate keys", () => {
  test("are SchemaValidationErrors at the second key, naming the first occurrence", () => {
    const text = '{\n  "theme": "a",\n  "theme": "b"\n}';
    const r = validate(text);
    assert.equal(r.ok, false);
    const e = only(r.errors);
    assert.equal(e.name, "SchemaValidationError");
    assert.equal(e.path, "theme");
    assert.deepEqual([e.line, e.column, e.offset, e.length], [3, 3, text.lastIndexOf('"theme"'), 7]);
    assert.equal(e.message, 'Duplicate key "theme": it is also set at line 2, column 3. Keep one of them.');
  });

  test("parsing goes on past them: every duplicate is reported, nested ones with their path", () => {
    const r = parse('{"a": 1, "b": {"x": 1, "x": 2}, "a": 3, "a": 4}');
    assert.equal(r.ok, false);
    assert.deepEqual(
      r.errors.map((e) => [e.path, e.column]),
      [
        ["b.x", 24],
        ["a", 33],
        ["a", 41],
      ],
    );
    assert.ok(r.errors.every((e) => /line 1, column (2|16)\./.test(e.message)));
  });

  test("are found in objects with more than 16 keys, before and after the 16th", () => {
    const keys = Array.from({ length: 40 }, (_, i) => `k${i}`);
    // k3 repeats as the 21st member, k30 as the last; k0 repeats twice.
    const members = keys.map((k) => `"${k}": 0`);
    members.splice(20, 0, '"k3": 1');
    members.push('"k30": 1', '"k0": 1', '"k0": 2');
    const text = "{\n" + members.join(",\n") + "\n}";
    const r = parse(text);
    assert.equal(r.ok, false);
    assert.deepEqual(
      r.errors.map((e) => e.path),
      ["k3", "k30", "k0", "k0"],
    );
    const lines = text.split("\n");
    const lineOf = (member: string, nth = 0) => lines.map((l, i) => [l, i + 1] as const).filter(([l]) => l.startsWith(member))[nth][1];
    assert.equal(r.errors[0].line, lineOf('"k3": 1'));
    assert.match(r.errors[0].message, new RegExp(`at line ${lineOf('"k3": 0')}, column 1\\.`));
    assert.equal(r.errors[1].line, lineOf('"k30": 1'));
    assert.match(r.errors[1].message, new RegExp(`at line ${lineOf('"k30": 0')}, column 1\\.`));
    // Both later k0s point back at the first k0.
    assert.match(r.errors[2].message, /at line 2, column 1\./);
    assert.match(r.errors[3].message, /at line 2, column 1\./);
  });

  test("exactly 16 and 17 distinct keys are not duplicates", () => {
    for (const n of [16, 17, 100]) {
      const obj = Object.fromEntries(Array.from({ length: n }, (_, i) => [`key${i}`, i]));
      assert.deepEqual(parse(JSON.stringify(obj)), { ok: true, value: obj, errors: [] });
    }
  });

  test("keys equal after unescaping are duplicates", () => {
    const e = only(parse('{"é": 1, "\\u00e9": 2}').errors);
    assert.equal(e.path, "é");
  });
});

describe("exact numbers", () => {
  const numbers = [
    "1.0",
    "-0",
    "0.1e1",
    "10e-1",
    "1E+2",
    "12345678901234567890123",
    "1e400",
    "-1e-400",
    "0.30000000000000004",
    "123.456e-789",
    "9007199254740993",
  ];

  test("are written back with their source text", () => {
    const input = `[${numbers.join(",")}]`;
    const { status, text } = abi.call(JSON.stringify({ op: "parse", text: input }));
    assert.equal(status, 0);
    assert.equal(text, `{"ok":true,"value":[${numbers.join(",")}],"errors":[]}`);
  });

  test("a host's JSON.parse reads the same numbers from the response as from the input", () => {
    for (const n of numbers) {
      const input = `{"n": ${n}, "list": [${n}]}`;
      const { text } = abi.call(JSON.stringify({ op: "parse", text: input }));
      assert.deepEqual(JSON.parse(text).value, JSON.parse(input), n);
    }
  });

  test("validate returns the config as written, numbers included", () => {
    const { text } = abi.call(JSON.stringify({ op: "validate", text: '{"schema": 10e-1}' }));
    assert.equal(text, '{"ok":true,"config":{"schema":10e-1},"errors":[],"warnings":[]}');
  });
});

describe("strings", () => {
  test("escapes decode to the same string JSON.parse gives", () => {
    const input = String.raw`["\"\\\/\b\f\n\r\t", "\u0041\u00e9\u4e2d\ud83d\ude00", "plain", "é中😀"]`;
    assert.deepEqual(parse(input).value, JSON.parse(input));
  });

  test("lone surrogates come back as \\u escapes, so the response stays valid UTF-8", () => {
    const { text } = abi.call(JSON.stringify({ op: "parse", text: String.raw`["\ud800", "\udc00x", "a\ud83d"]` }));
    assert.equal(text, String.raw`{"ok":true,"value":["\ud800","\udc00x","a\ud83d"],"errors":[]}`);
  });

  test("control characters are written escaped", () => {
    const { text } = abi.call(JSON.stringify({ op: "parse", text: String.raw`"\u0000\u001f\u007f"` }));
    assert.equal(text, '{"ok":true,"value":"\\u0000\\u001f\u007f","errors":[]}');
  });

  test("every character that is not plain ASCII is written right at every place in a run, as JSON.stringify writes it", () => {
    // The writer copies plain ASCII four code units at a time: each special character at each offset.
    for (const special of ['"', "\\", "\n", "\u0001", "\u001f", " ", "~", "\u007f", "\u0080", "é", "\u2028", "中", "😀", "\ud800"]) {
      for (let at = 0; at <= 9; at++) {
        for (const length of [at + 1, at + 4, 11]) {
          const value = ("abcdefghijk".slice(0, at) + special + "ABCDEFGHIJK").slice(0, Math.max(length, at + special.length));
          const { text } = abi.call(JSON.stringify({ op: "parse", text: JSON.stringify(value) }));
          assert.equal(text, `{"ok":true,"value":${JSON.stringify(value)},"errors":[]}`, JSON.stringify(value));
        }
      }
    }
  });
});

describe("nesting limit", () => {
  const nest = (depth: number, open = "[", close = "]") => open.repeat(depth) + close.repeat(depth);
  const objects = (depth: number) => '{"a":'.repeat(depth - 1) + "{}" + "}".repeat(depth - 1);

  test("128 levels of arrays or objects parse", () => {
    assert.equal(parse(nest(128)).ok, true);
    assert.equal(parse(objects(128)).ok, true);
  });

  test("129 levels are a ConfigSyntaxError at the 129th opening, never a trap", () => {
    for (const text of [nest(129), objects(129)]) {
      const e = syntaxError(text);
      assert.equal(e.code, "TooDeep");
      assert.equal(e.message, M.MSG_TOO_DEEP);
      assert.equal(e.line, 1);
      assert.equal(e.column, text[0] === "[" ? 129 : 128 * 5 + 1);
    }
  });

  test("validate reports the same error for a deep config", () => {
    const e = only(validate(`{"modules": ${nest(128)}}`).errors);
    assert.equal(e.name, "ConfigSyntaxError");
    assert.equal(e.message, M.MSG_TOO_DEEP);
    assert.match(e.path, /^modules(\[0\])+$/);
  });
});

describe("syntax error messages", () => {
  // The code of each message: what hosts match, the message's words being for people.
  const codes: Array<[string, string]> = [
    [M.MSG_EMPTY, "EmptyText"],
    [M.MSG_TRAILING, "TrailingText"],
    [M.MSG_EXPECTED_VALUE, "ExpectedValue"],
    [M.MSG_EXPECTED_KEY, "ExpectedKey"],
    [M.MSG_TRAILING_COMMA, "TrailingComma"],
    [M.MSG_EXPECTED_COLON, "ExpectedColon"],
    [M.MSG_EXPECTED_COMMA_OBJECT, "ExpectedComma"],
    [M.MSG_EXPECTED_COMMA_ARRAY, "ExpectedComma"],
    [M.MSG_UNTERMINATED_STRING, "UnterminatedString"],
    [M.MSG_CONTROL_CHAR, "ControlCharacter"],
    [M.MSG_BAD_ESCAPE, "InvalidEscape"],
    [M.MSG_BAD_UNICODE_ESCAPE, "InvalidUnicodeEscape"],
    [M.MSG_BAD_NUMBER, "InvalidNumber"],
  ];
  const cases: Array<[string, string, number, number]> = [
    ["", M.MSG_EMPTY, 1, 1],
    [" \n\t ", M.MSG_EMPTY, 2, 3],
    ['{"a": 1} x', M.MSG_TRAILING + "'x'", 1, 10],
    ['{"a": 1} {', M.MSG_TRAILING + "'{'", 1, 10],
    ['{"a": }', M.MSG_EXPECTED_VALUE + "'}'", 1, 7],
    ['{"a": ', M.MSG_EXPECTED_VALUE + "the end of the text", 1, 7],
    ["[1, , 2]", M.MSG_EXPECTED_VALUE + "','", 1, 5],
    ["tru", M.MSG_EXPECTED_VALUE + "'t'", 1, 1],
    ["nulls", M.MSG_EXPECTED_VALUE + "'n'", 1, 1],
    ["'a'", M.MSG_EXPECTED_VALUE + "'''", 1, 1],
    ["[\u00e9]", M.MSG_EXPECTED_VALUE + "a non-ASCII character", 1, 2],
    ["{a: 1}", M.MSG_EXPECTED_KEY + "'a'", 1, 2],
    ["{ 1: 2}", M.MSG_EXPECTED_KEY + "'1'", 1, 3],
    ["{", M.MSG_EXPECTED_KEY + "the end of the text", 1, 2],
    ['{"a": 1, "b": 2,}', M.MSG_TRAILING_COMMA + "'}'", 1, 17],
    ["[1, 2,\n]", M.MSG_TRAILING_COMMA + "']'", 2, 1],
    ['{"a" 1}', M.MSG_EXPECTED_COLON + "'1'", 1, 6],
    ['{"a"', M.MSG_EXPECTED_COLON + "the end of the text", 1, 5],
    ['{"a": 1 "b": 2}', M.MSG_EXPECTED_COMMA_OBJECT + "'\"'", 1, 9],
    ['{"a": 1', M.MSG_EXPECTED_COMMA_OBJECT + "the end of the text", 1, 8],
    ["[1 2]", M.MSG_EXPECTED_COMMA_ARRAY + "'2'", 1, 4],
    ["[1\u00a0]", M.MSG_EXPECTED_COMMA_ARRAY + "a non-ASCII character", 1, 3],
    ["[1", M.MSG_EXPECTED_COMMA_ARRAY + "the end of the text", 1, 3],
    ['{"a": "abc', M.MSG_UNTERMINATED_STRING, 1, 7],
    ['["x", "\u00e9\u{1F600}', M.MSG_UNTERMINATED_STRING, 1, 7],
    ['"a\nb"', M.MSG_CONTROL_CHAR, 1, 3],
    ['"a\tb"', M.MSG_CONTROL_CHAR, 1, 3],
    ['"\\x"', M.MSG_BAD_ESCAPE, 1, 2],
    ['"\\\'"', M.MSG_BAD_ESCAPE, 1, 2],
    ['"\\u12G4"', M.MSG_BAD_UNICODE_ESCAPE, 1, 2],
    ['"\\u12"', M.MSG_BAD_UNICODE_ESCAPE, 1, 2],
    // After escapes and text, on the same line: each escape is two columns.
    ['"a\\n\\"b\\x"', M.MSG_BAD_ESCAPE, 1, 8],
    ['"\\t\u0001"', M.MSG_CONTROL_CHAR, 1, 4],
    ['"\\n\\u12"', M.MSG_BAD_UNICODE_ESCAPE, 1, 4],
    ['["\\n\\n", "\\/\\b', M.MSG_UNTERMINATED_STRING, 1, 10],
    ['"\\', M.MSG_BAD_ESCAPE, 1, 2],
    ["-", M.MSG_BAD_NUMBER + "the end of the text", 1, 2],
    ["01", M.MSG_BAD_NUMBER + "'1'", 1, 2],
    ["1.", M.MSG_BAD_NUMBER + "the end of the text", 1, 3],
    ["1.e3", M.MSG_BAD_NUMBER + "'e'", 1, 3],
    ["1e+", M.MSG_BAD_NUMBER + "the end of the text", 1, 4],
    ["[1x]", M.MSG_BAD_NUMBER + "'x'", 1, 3],
    ["+1", M.MSG_EXPECTED_VALUE + "'+'", 1, 1],
    [".5", M.MSG_EXPECTED_VALUE + "'.'", 1, 1],
    ["[1\u0001]", M.MSG_EXPECTED_COMMA_ARRAY + "a control character", 1, 3],
    ["[1 ]x", M.MSG_TRAILING + "'x'", 1, 5],
    ["[1] ", "", 0, 0],
  ];
  for (const [text, message, line, column] of cases) {
    test(`${JSON.stringify(text)} → ${message || "parses"}`, () => {
      if (message === "") {
        assert.equal(parse(text).ok, true);
        return;
      }
      const e = syntaxError(text);
      assert.equal(e.message, message);
      assert.equal(e.code, codes.find(([start]) => message.startsWith(start))?.[1]);
      assert.deepEqual([e.line, e.column], [line, column]);
      assert.equal(e.source, `<input>:${line}:${column}`);
    });
  }

  test("an unterminated string's span runs from its opening quote to the end of the text", () => {
    const text = '{"a": "abc';
    const e = syntaxError(text);
    assert.deepEqual([e.offset, e.length], [6, 4]);
  });

  test("invalid UTF-8 in a config is a ConfigSyntaxError, not a trap (raw ABI: the request itself)", () => {
    // Raw bytes cannot travel inside a JSON string, so the invalid byte sits in the request's own text.
    const bytes = Buffer.concat([Buffer.from('{"op":"parse","text":"a'), Buffer.from([0xff]), Buffer.from('"}')]);
    const { status, text } = abi.callBytes(bytes);
    assert.equal(status, 1);
    const e = only(JSON.parse(text).errors as Array<{ name: string; message: string }>);
    assert.equal(e.name, "RequestError");
    assert.equal(e.message, `${M.MSG_REQUEST_NOT_JSON}: ${M.MSG_BAD_UTF8} at line 1, column 24`);
  });

  test("only the first syntax error is reported, and no duplicates before it are dropped silently", () => {
    const r = parse('{"a": 1, "a": 2, "b": x, "c": y}');
    assert.equal(r.ok, false);
    const e = only(r.errors);
    assert.equal(e.name, "ConfigSyntaxError");
    assert.equal(e.path, "b");
  });
});

// JSONTestSuite (https://github.com/nst/JSONTestSuite), vendored under test/conformance with its licence.
//
// Files are bytes, but a parse request is JSON, whose strings hold text, not bytes. Decision: each
// file is decoded with TextDecoder({fatal: true, ignoreBOM: true}) — the same strict UTF-8 check
// the host applies to config files (src/config/loader.ts), keeping a byte-order mark so that the core sees
// it. A file that is not valid UTF-8 cannot be a config (the host rejects it as a ConfigSyntaxError
// before the core sees it); such files may only be n_ or i_ cases. To still exercise the core's own
// UTF-8 check on them, every file is also sent as raw request bytes through the plain ABI: the core
// must then call it "not valid JSON" (status 1) when it is an n_ case, and must never trap.
describe("JSONTestSuite conformance", () => {
  const dir = fileURLToPath(new URL("../conformance/JSONTestSuite/test_parsing/", import.meta.url));
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();
  // y_ files with duplicate keys: valid JSON, but a duplicate key is an error in dropkit (SPEC section 2).
  const duplicateKeyExceptions = new Set(["y_object_duplicated_key.json", "y_object_duplicated_key_and_value.json"]);
  const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

  test("the corpus is there", () => {
    assert.ok(files.filter((f) => f.startsWith("y_")).length >= 90);
    assert.ok(files.filter((f) => f.startsWith("n_")).length >= 180);
  });

  for (const file of files) {
    const kind = file[0];
    test(file, () => {
      const bytes = fs.readFileSync(path.join(dir, file));
      let text: string | null = null;
      try {
        text = strict.decode(bytes);
      } catch {
        assert.notEqual(kind, "y", "a y_ file must be valid UTF-8");
      }

      // Raw bytes as the request: the core parses them itself (they are never a valid request).
      const raw = abi.callBytes(bytes);
      assert.ok(raw.status === 1 || raw.status === 2, `status ${raw.status}`);
      const rawMessage = (JSON.parse(raw.text).errors[0] as { message: string }).message;
      const rawNotJson = rawMessage.startsWith(M.MSG_REQUEST_NOT_JSON);
      if (kind === "n") assert.ok(rawNotJson, `n_ accepted as raw JSON: ${rawMessage}`);
      if (kind === "y" && !duplicateKeyExceptions.has(file)) assert.ok(!rawNotJson, `y_ rejected as raw JSON: ${rawMessage}`);

      if (text === null) return;
      const r = parse(text);
      if (kind === "y") {
        if (duplicateKeyExceptions.has(file)) {
          assert.equal(r.ok, false);
          assert.equal(only(r.errors).code, "DuplicateKey");
          return;
        }
        assert.equal(r.ok, true, `rejected: ${r.errors[0]?.message}`);
        assert.deepEqual(r.value, JSON.parse(text));
      } else if (kind === "n") {
        assert.equal(r.ok, false, "accepted");
        assert.equal(only(r.errors).name, "ConfigSyntaxError");
      } else if (r.ok) {
        // i_: either way; when both accept, they agree (a BOM is tolerated by the core only).
        let expected: unknown;
        try {
          expected = JSON.parse(text.replace(/^\uFEFF/, ""));
        } catch {
          return;
        }
        assert.deepEqual(r.value, expected);
      } else {
        assert.equal(only(r.errors).name, "ConfigSyntaxError");
      }
    });
  }
});
