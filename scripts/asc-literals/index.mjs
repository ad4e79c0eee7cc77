// An asc transform that stores the core's string literals as one compressed blob instead of one UTF-16
// object each.
//
// asc gives every distinct string literal its own object in the data section: a 20-byte header and two
// bytes per character, split by binaryen into two data segments. The core's messages and JSON keys are
// ASCII, so that is about four bytes of module for every byte of text. This transform rewrites each
// ASCII literal in assembly/ (except the blob itself) to `__literal(ref)`, which decodes it on demand
// from `BLOB` in assembly/literal.ts, and fills that blob in: the literals as bytes, frequent words
// (" must be ", ", found ", "preset") replaced by one byte 0x80-0xff each, laid out so that literals
// share bytes where one occurs in another, packed two bytes to a UTF-16 code unit. The source keeps its
// literals and named message constants; only their storage changes. A literal is decoded at its first
// use and cached (literal.ts), so later uses cost a lookup.
//
// asconfig.json names the transform as a package (a `file:` dev dependency) because asc turns a relative
// transform path in asconfig.json into a bare module name, which Node cannot resolve.
import { Node } from "assemblyscript";
import { Transform } from "assemblyscript/transform";

const NodeKind = { Identifier: 7, Call: 10, Literal: 17, PropertyAccess: 22, Export: 36, Import: 43, Variable: 48 };
// Methods whose first argument, a literal, is passed as its ref (`w.key("ok")` calls `w.keyAt(ref)`,
// which decodes it): JsonWriter's key and field, JsonNode's get; some 110 uses, each one call shorter.
const BY_REF = new Map([["key", "keyAt"], ["field", "fieldAt"], ["get", "getAt"]]);
const LiteralKind = { String: 2 };
const CONST = 8;
const BLOB_FILE = "assembly/literal";
const BLOB_NAME = "BLOB";
// The size of the arena literal.ts decodes into: per literal, its UTF-16 bytes, a 20-byte object header
// and up to 15 bytes of padding to the next 16-byte boundary; once more for the arena's own start.
const ARENA_NAME = "ARENA_BYTES";
const arenaBytes = (texts) => texts.reduce((sum, text) => sum + 2 * text.length + 35, 35);

// A ref is the literal's offset in the blob, where it ends with a zero byte: every ref fits a two-byte
// i32.const (the length would cost a third byte at each of some 500 uses; a terminator costs one byte a
// literal, none for a literal that ends another one), and indexes literal.ts's table of 8,192 slots.
const MAX_OFFSET = 8191;
const END = "\0";
// The literals are ASCII, so bytes 0x80-0xff are free: each stands for a word of a dictionary.
const MAX_WORDS = 128;
const TABLE_ENTRY = 3;

/**
 * Picks the dictionary greedily, each time the substring (of 3 to 24 bytes, possibly holding earlier
 * words) that saves the most: an occurrence saves all but one of its bytes; the word costs its bytes and
 * a table entry. Returns the words and the texts written with them, both as byte strings.
 */
function compress(texts) {
  let encoded = texts.slice();
  const words = [];
  while (words.length < MAX_WORDS) {
    const counts = new Map();
    for (const text of encoded) {
      const seen = new Set();
      for (let i = 0; i < text.length; i++) {
        for (let n = 3; n <= 24 && i + n <= text.length; n++) {
          const s = text.slice(i, i + n);
          if (seen.has(s)) continue;
          seen.add(s);
          counts.set(s, (counts.get(s) ?? 0) + 1);
        }
      }
    }
    let best = null;
    let bestGain = TABLE_ENTRY;
    for (const [s, count] of counts) {
      const gain = count * (s.length - 1) - (s.length + TABLE_ENTRY);
      if (gain > bestGain) {
        best = s;
        bestGain = gain;
      }
    }
    if (best === null) break;
    const token = String.fromCharCode(0x80 + words.length);
    words.push(best);
    encoded = encoded.map((text) => text.split(best).join(token));
  }
  return { words, encoded };
}

/**
 * Lays byte strings out in one buffer, longest first: one that already occurs in it (as "include" does in
 * "modules.include") takes no bytes of its own, and a new one overlaps the end of what is there as far
 * as it can. Returns the bytes and each string's offset.
 */
function layOut(strings) {
  const distinct = [...new Set(strings)].sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
  let blob = Buffer.alloc(0);
  const offsets = new Map();
  for (const string of distinct) {
    const bytes = Buffer.from(string, "latin1");
    let at = blob.indexOf(bytes);
    if (at < 0) {
      let overlap = Math.min(bytes.length - 1, blob.length);
      while (overlap > 0 && !blob.subarray(blob.length - overlap).equals(bytes.subarray(0, overlap))) overlap--;
      at = blob.length - overlap;
      blob = Buffer.concat([blob, bytes.subarray(overlap)]);
    }
    offsets.set(string, at);
  }
  return { blob, offsets };
}

// A ref below 64 fits a one-byte i32.const: the literals used most, for their size, start there.
const ONE_BYTE_REFS = 64;

/**
 * The blob: the offset of the word table (one byte), the literals used most, the table of the words
 * (offset: u16, length: u8), then the words and the other literals, encoded. `counts` is how many uses
 * each text has.
 */
function buildBlob(texts, counts) {
  const { words, encoded } = compress(texts);
  const terminated = encoded.map((text) => text + END);
  const byValue = texts.map((_, i) => i).sort((a, b) => counts[b] / terminated[b].length - counts[a] / terminated[a].length || a - b);
  let head = Buffer.alloc(1);
  const headAt = new Map();
  for (const i of byValue) {
    if (head.length >= ONE_BYTE_REFS) break;
    if (counts[i] < 2 || headAt.has(terminated[i])) continue;
    headAt.set(terminated[i], head.length);
    head = Buffer.concat([head, Buffer.from(terminated[i], "latin1")]);
  }
  if (head.length > 255) throw new Error("literals transform: the word table must start within 255 bytes");
  head[0] = head.length;
  const table = Buffer.alloc(words.length * TABLE_ENTRY);
  const { blob, offsets } = layOut([...words, ...terminated.filter((t) => !headAt.has(t))]);
  const base = head.length + table.length;
  const at = (string) => headAt.get(string) ?? base + offsets.get(string);
  words.forEach((word, i) => {
    table.writeUInt16LE(at(word), i * TABLE_ENTRY);
    table.writeUInt8(word.length, i * TABLE_ENTRY + 2);
  });
  const refs = new Map(texts.map((text, i) => [text, at(terminated[i])]));
  return { bytes: Buffer.concat([head, table, blob]), refs };
}

function isStringLiteral(node) {
  return node.kind === NodeKind.Literal && node.literalKind === LiteralKind.String;
}

function userSources(parser) {
  return parser.sources.filter((source) => source.internalPath.startsWith("assembly/"));
}

export default class LiteralsTransform extends Transform {
  afterParse(parser) {
    // Each use becomes `__literal(ref)` now; the refs are filled in once every literal is known.
    const uses = [];
    let blobDeclaration = null;
    let arenaDeclaration = null;
    // Empty literals are shared with the standard library already; only ASCII leaves the bytes 0x80-0xff
    // to the dictionary, and a zero byte ends a literal.
    const storable = (text) => text.length > 0 && !/[^\x01-\x7f]/.test(text);
    const refOf = (text, range) => {
      const ref = Node.createIntegerLiteralExpression(globalThis.i64_new(0, 0), range);
      uses.push({ text, ref });
      return ref;
    };
    const replace = (node) => {
      if (!storable(node.value)) return node;
      const range = node.range;
      return Node.createCallExpression(Node.createIdentifierExpression("__literal", range), null, [refOf(node.value, range)], range);
    };
    // The text of a literal argument (a string literal or a text constant), or null.
    const literalText = (node) => {
      const text = isStringLiteral(node) ? node.value : node.kind === NodeKind.Identifier && constants.has(node.text) ? constants.get(node.text) : null;
      return text !== null && storable(text) ? text : null;
    };
    const byRef = (call) => {
      const callee = call.expression;
      if (callee.kind !== NodeKind.PropertyAccess || !BY_REF.has(callee.property.text) || call.args.length === 0) return;
      const text = literalText(call.args[0]);
      if (text === null) return;
      callee.property = Node.createIdentifierExpression(BY_REF.get(callee.property.text), callee.property.range);
      call.args[0] = refOf(text, call.args[0].range);
    };
    const visit = (node) => {
      for (const key of Object.keys(node)) {
        // Ranges point back at their source; decorators and import paths must stay literals.
        // Names that are declared or accessed as properties are not uses of a constant.
        if (key === "range" || key === "decorators" || key === "parent" || key === "name" || key === "property") continue;
        if (node.kind === NodeKind.Import || node.kind === NodeKind.Export) continue;
        const value = node[key];
        if (Array.isArray(value)) {
          for (let i = 0; i < value.length; i++) value[i] = visitChild(value[i]);
        } else if (value && typeof value === "object") {
          node[key] = visitChild(value);
        }
      }
    };
    const visitChild = (child) => {
      if (!child || typeof child !== "object" || typeof child.kind !== "number" || !child.range) return child;
      if (isStringLiteral(child)) return replace(child);
      if (child.kind === NodeKind.Identifier && constants.has(child.text)) return replace({ value: constants.get(child.text), range: child.range });
      if (child.kind === NodeKind.Call) byRef(child);
      visit(child);
      return child;
    };
    // A top-level `const NAME = "text"` would be a global string object of its own, set at start:
    // each use of NAME becomes the literal instead. Only SCREAMING_CASE names declared once at the top
    // level of a file in assembly/ qualify, so that no local variable or other declaration is mistaken.
    const constants = new Map();
    const declaredTwice = new Set();
    const declarations = [];
    for (const source of userSources(parser)) {
      for (const statement of source.statements) {
        if (statement.kind !== NodeKind.Variable) continue;
        for (const d of statement.declarations) {
          const name = d.name.text;
          if (constants.has(name)) declaredTwice.add(name);
          const init = d.initializer;
          const isText = d.flags & CONST && init && isStringLiteral(init) && init.value.length > 0;
          constants.set(name, isText && /^[A-Z][A-Z0-9_]*$/.test(name) ? init.value : null);
          if (isText) declarations.push(d);
        }
      }
    }
    for (const [name, text] of constants) if (text === null || declaredTwice.has(name)) constants.delete(name);
    // The declarations stay (imports name them), marked @lazy so that, unused now, they are not compiled.
    for (const d of declarations) {
      if (!constants.has(d.name.text)) continue;
      const lazy = Node.createDecorator(Node.createIdentifierExpression("lazy", d.range), null, d.range);
      d.decorators = d.decorators ? [...d.decorators, lazy] : [lazy];
    }
    for (const source of userSources(parser)) {
      for (let i = 0; i < source.statements.length; i++) {
        const statement = source.statements[i];
        if (source.internalPath === BLOB_FILE && statement.kind === NodeKind.Variable) {
          const declaration = statement.declarations.find((d) => d.name.text === BLOB_NAME);
          if (declaration) {
            blobDeclaration = declaration;
            continue;
          }
          arenaDeclaration ??= statement.declarations.find((d) => d.name.text === ARENA_NAME) ?? null;
        }
        source.statements[i] = visitChild(statement);
      }
    }
    if (!blobDeclaration || !arenaDeclaration) throw new Error(`literals transform: ${BLOB_FILE}.ts must declare ${BLOB_NAME} and ${ARENA_NAME}`);
    const texts = [...new Set(uses.map((use) => use.text))];
    const counts = texts.map((text) => uses.filter((use) => use.text === text).length);
    const { bytes: blob, refs } = buildBlob(texts, counts);
    if (blob.length > MAX_OFFSET) throw new Error(`literals transform: the blob outgrew ${MAX_OFFSET} bytes`);
    for (const { text, ref } of uses) ref.value = globalThis.i64_new(refs.get(text), 0);
    const bytes = [...blob, ...(blob.length % 2 ? [0] : [])];
    let packed = "";
    for (let i = 0; i < bytes.length; i += 2) packed += String.fromCharCode(bytes[i] | (bytes[i + 1] << 8));
    blobDeclaration.initializer.value = packed;
    arenaDeclaration.initializer.value = globalThis.i64_new(arenaBytes(texts), 0);
  }
}
