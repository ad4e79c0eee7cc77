// The config schema of SPEC section 2: its leaves and keys, and what makes a leaf's value valid.

import {
  MSG_GLOB_EMPTY, MSG_GLOB_SLASH, MSG_GLOB_STAR, MSG_NUL, MSG_PATH_EMPTY, MSG_PRESET_EMPTY, MSG_THEME_EMPTY, MSG_THEME_PATH,
} from "./messages";
import { isAbsolutePath, resolvePath } from "./paths";
import { Span, endsWithAscii, span, spanIs, spanLen, spanOf, spanPtr, spansOf, startsWithAscii } from "./span";
import { suggest } from "./suggest";
import { quoteList, words } from "./text";
import { decodeText } from "./utf8";

export const TYPE_SCHEMA: i32 = 0;
export const TYPE_THEME: i32 = 1;
export const TYPE_GLOBS: i32 = 2;
export const TYPE_PRESETS: i32 = 3;
export const TYPE_PATHS: i32 = 4;
export const TYPE_PATH: i32 = 5;
export const TYPE_ENUM: i32 = 6;
export const TYPE_BOOL: i32 = 7;

/** One leaf of the resolved config: its dotted key, type, variable, choices and default. */
export class Leaf {
  /** The default value's bytes. */
  defaultValue: Span;
  /** The variable's name, as bytes. */
  envName: Span;

  constructor(
    public key: string,
    public type: i32,
    public env: string,
    public choices: Array<string>,
    public defaultText: string,
  ) {
    this.defaultValue = spanOf(defaultText);
    this.envName = spanOf(env);
  }

  isList(): bool {
    return this.type == TYPE_GLOBS || this.type == TYPE_PRESETS || this.type == TYPE_PATHS;
  }

  /** Union lists gather entries from every layer; other lists are replaced by the highest layer. */
  isUnion(): bool {
    return this.type == TYPE_GLOBS;
  }
}

export const LEAF_SCHEMA: i32 = 0;
export const LEAF_THEME: i32 = 1;
export const LEAF_INCLUDE: i32 = 2;
export const LEAF_EXCLUDE: i32 = 3;
export const LEAF_ONLY: i32 = 4;
export const LEAF_PRESETS: i32 = 5;
export const LEAF_SEARCH_PATH: i32 = 6;
export const LEAF_INIT_DIR: i32 = 7;
export const LEAF_POST_DIR: i32 = 8;
export const LEAF_ON_FAILURE: i32 = 9;
export const LEAF_CACHE_FILE: i32 = 10;
export const LEAF_CACHE_ENABLED: i32 = 11;
export const LEAF_LOG_FORMAT: i32 = 12;
export const LEAF_COUNT: i32 = 13;

const NO_CHOICES = new Array<string>();

/** The leaves, in the order of the resolved config, with the variable of each (DROPKIT_ + the key in upper snake case). */
export const LEAVES: Array<Leaf> = [
  new Leaf("schema", TYPE_SCHEMA, "", NO_CHOICES, "1"),
  new Leaf("theme", TYPE_THEME, "DROPKIT_THEME", NO_CHOICES, "auto"),
  new Leaf("modules.include", TYPE_GLOBS, "DROPKIT_MODULES_INCLUDE", NO_CHOICES, ""),
  new Leaf("modules.exclude", TYPE_GLOBS, "DROPKIT_MODULES_EXCLUDE", NO_CHOICES, ""),
  new Leaf("modules.only", TYPE_GLOBS, "DROPKIT_MODULES_ONLY", NO_CHOICES, ""),
  new Leaf("presets", TYPE_PRESETS, "DROPKIT_PRESETS", NO_CHOICES, ""),
  new Leaf("presetsSearchPath", TYPE_PATHS, "DROPKIT_PRESETS_SEARCH_PATH", NO_CHOICES, ""),
  new Leaf("hooks.initScriptsDir", TYPE_PATH, "DROPKIT_HOOKS_INIT_SCRIPTS_DIR", NO_CHOICES, "./init-scripts"),
  new Leaf("hooks.postScriptsDir", TYPE_PATH, "DROPKIT_HOOKS_POST_SCRIPTS_DIR", NO_CHOICES, "./post-scripts"),
  new Leaf("hooks.onFailure", TYPE_ENUM, "DROPKIT_HOOKS_ON_FAILURE", words("continue fail"), "continue"),
  new Leaf("cache.file", TYPE_PATH, "DROPKIT_CACHE_FILE", NO_CHOICES, ".dropkit-cache.json"),
  new Leaf("cache.enabled", TYPE_BOOL, "DROPKIT_CACHE_ENABLED", NO_CHOICES, "true"),
  new Leaf("log.format", TYPE_ENUM, "DROPKIT_LOG_FORMAT", words("text json"), "text"),
];
// LEAF_COUNT sizes the layers' tables, which are written unchecked, and a layer's `sets` is a 32-bit mask: a leaf
// added to LEAVES alone must stop the module at start (every test fails), not write past a table. Not `assert`:
// the release build drops asserts.
if (LEAVES.length != LEAF_COUNT || LEAF_COUNT > 32) unreachable();

// The keys of a config and of a preset, at the top level (`$schema` is accepted and ignored), and of each group.
export const KEY_SCHEMA_URL: i32 = 0;
export const KEY_SCHEMA: i32 = 1;
export const KEY_THEME: i32 = 2;
export const KEY_MODULES: i32 = 3;
export const KEY_EXCLUDE: i32 = 4;
export const KEY_PRESETS: i32 = 5;
export const KEY_SEARCH_PATH: i32 = 6;
export const KEY_HOOKS: i32 = 7;
export const KEY_CACHE: i32 = 8;
export const KEY_LOG: i32 = 9;
export const KEY_DETECT: i32 = 10;
/** Every top-level key either kind of document may hold, indexed by the KEY_* numbers. */
export const TOP_KEYS: Array<string> = words("$schema schema theme modules exclude presets presetsSearchPath hooks cache log detect");
export const CONFIG_KEYS: Array<string> = words("$schema schema theme modules exclude presets presetsSearchPath hooks cache log");
export const PRESET_KEYS: Array<string> = words("theme modules exclude hooks cache log detect");

/** The keys of the group object `key` (KEY_MODULES, KEY_HOOKS, KEY_CACHE or KEY_LOG), each a leaf from `groupFirstLeaf` on. */
export const GROUP_KEYS: Array<Array<string>> = [words("include exclude only"), words("initScriptsDir postScriptsDir onFailure"), words("file enabled"), words("format")];

// The same keys as bytes, which the validator matches keys against.
export const TOP_KEY_SPANS: Array<Span> = spansOf(TOP_KEYS);
export const GROUP_KEY_SPANS: Array<Array<Span>> = [spansOf(GROUP_KEYS[0]), spansOf(GROUP_KEYS[1]), spansOf(GROUP_KEYS[2]), spansOf(GROUP_KEYS[3])];

export function groupOf(key: i32): i32 {
  return key == KEY_MODULES ? 0 : key == KEY_HOOKS ? 1 : key == KEY_CACHE ? 2 : 3;
}

export function groupFirstLeaf(group: i32): i32 {
  return group == 0 ? LEAF_INCLUDE : group == 1 ? LEAF_INIT_DIR : group == 2 ? LEAF_CACHE_FILE : LEAF_LOG_FORMAT;
}

/**
 * What is wrong with the WTF-8 bytes of one value of a text leaf, or "" when nothing is: the rules of SPEC
 * section 2 and docs/abi.md ("Decisions the SPEC left open"), checked on the bytes without making a string.
 */
export function checkBytes(leaf: i32, ptr: usize, len: i32): string {
  const type = unchecked(LEAVES[leaf]).type;
  if (type == TYPE_GLOBS) return checkGlob(ptr, len);
  // Every value that names a file or matches file names: a NUL would cut the path short at the system call.
  if (type >= TYPE_THEME && type <= TYPE_PATH && hasNul(ptr, len)) return NUL_NOUNS[type - TYPE_THEME] + MSG_NUL;
  if (type == TYPE_THEME) {
    if (len == 0) return MSG_THEME_EMPTY;
    if (isZipPath(span(ptr, len))) return "";
    return hasSlash(ptr, len) ? MSG_THEME_PATH : "";
  }
  if (type == TYPE_PRESETS) return len == 0 ? MSG_PRESET_EMPTY : "";
  if (type == TYPE_PATHS || type == TYPE_PATH) return len == 0 ? MSG_PATH_EMPTY : "";
  if (type == TYPE_ENUM) {
    const choices = LEAVES[leaf].choices;
    for (let i = 0; i < choices.length; i++) if (spanIs(span(ptr, len), choices[i])) return "";
    // The suggestion goes in parentheses: callers append ", found ..." to this text.
    const close = suggest(decodeText(ptr, len), choices);
    return "expected one of " + quoteList(choices) + (close.length > 0 ? " (did you mean \"" + close + "\"?)" : "");
  }
  return "";
}

/**
 * What is wrong with a module glob: empty, a NUL, a slash (a glob names a module, not a path), or a '*' before
 * the end, in that order of precedence. One pass, eight bytes at a time, as a config may hold tens of thousands.
 */
function checkGlob(ptr: usize, len: i32): string {
  if (len == 0) return MSG_GLOB_EMPTY;
  let nul = false;
  let slash = false;
  let star = false;
  if (len < 8) {
    for (let i = 0; i < len; i++) {
      const c = load<u8>(ptr + <usize>i);
      if (c == 0) nul = true;
      if (c == 0x2f || c == 0x5c) slash = true;
      if (c == 0x2a && i < len - 1) star = true;
    }
  } else {
    // The last word overlaps the one before, so that it ends with the glob.
    for (let i = 0; i < len; i += 8) {
      const at = min(i, len - 8);
      const x = load<u64>(ptr + <usize>at);
      if (hasByte(x, 0) != 0) nul = true;
      if ((hasByte(x, 0x2f) | hasByte(x, 0x5c)) != 0) slash = true;
      // A '*' as the glob's last byte (the top byte of the last word) is the allowed one.
      if ((hasByte(x, 0x2a) & (at + 8 == len ? 0x0080808080808080 : 0x8080808080808080)) != 0) star = true;
    }
  }
  if (nul) return NUL_NOUNS[TYPE_GLOBS - TYPE_THEME] + MSG_NUL;
  return slash ? MSG_GLOB_SLASH : star ? MSG_GLOB_STAR : "";
}

/**
 * Bit 7 set in each byte of `x` that is `b`, and possibly in bytes above such a one (the subtraction's borrow),
 * never below: zero exactly when no byte is `b`.
 */
@inline function hasByte(x: u64, b: u64): u64 {
  const y = x ^ (0x0101010101010101 * b);
  return (y - 0x0101010101010101) & ~y & 0x8080808080808080;
}

/** What each kind of path-like leaf (TYPE_THEME to TYPE_PATH) is called in the NUL message. */
const NUL_NOUNS: Array<string> = "a theme|a module glob|a preset name or path|a path|a path".split("|");

/** Whether the bytes hold a NUL. */
export function hasNul(ptr: usize, len: i32): bool {
  for (let i = 0; i < len; i++) if (load<u8>(ptr + <usize>i) == 0) return true;
  return false;
}

/** `checkBytes` of a value's span. */
export function checkSpan(leaf: i32, value: Span): string {
  return checkBytes(leaf, spanPtr(value), spanLen(value));
}

/** Whether a theme is a path to an archive: it ends in .zip, in any letter case. */
export function isZipPath(theme: Span): bool {
  return endsWithAscii(theme, ".zip", true);
}

/** A `presets` entry names a file when it starts with "." or "/" or ends in .ts, .js or .json. */
export function isPresetPath(entry: Span): bool {
  return startsWithAscii(entry, ".") || isAbsolutePath(entry) || endsWithAscii(entry, ".ts") || endsWithAscii(entry, ".js") || endsWithAscii(entry, ".json");
}

/** Turns a checked value into its resolved form: paths (and a zip theme, and preset files) become absolute. */
export function normalizeValue(leaf: i32, value: Span, baseDir: Span): Span {
  const type = unchecked(LEAVES[leaf]).type;
  if (type == TYPE_PATH || type == TYPE_PATHS) return resolvePath(baseDir, value);
  if (type == TYPE_THEME && isZipPath(value)) return resolvePath(baseDir, value);
  if (type == TYPE_PRESETS && isPresetPath(value)) return resolvePath(baseDir, value);
  return value;
}

function hasSlash(ptr: usize, len: i32): bool {
  for (let i = 0; i < len; i++) {
    const c = load<u8>(ptr + <usize>i);
    if (c == 0x2f || c == 0x5c) return true;
  }
  return false;
}


/** Whether the text of a JSON number (`n` bytes at `ptr`) denotes exactly 1 (as "1", "1.0", "10e-1" and "0.1e1" do), without rounding. */
export function isExactlyOne(ptr: usize, n: i32): bool {
  // The mantissa's digits (without the dot) must be zeros and one 1: the number is then 10 to the power
  // (integer digits - position of the 1 - 1 + exponent), which is 1 when that is 0.
  let digits = 0;
  let integerDigits = 0;
  let one = -1;
  let fraction = false;
  let i = 0;
  for (; i < n; i++) {
    const c = load<u8>(ptr + <usize>i);
    if (c == 0x2e) {
      fraction = true;
      continue;
    }
    if (c == 0x65 || c == 0x45) break;
    if (c != 0x30) {
      // A sign, a digit other than 0 and 1, or a second 1.
      if (c != 0x31 || one >= 0) return false;
      one = digits;
    }
    digits++;
    if (!fraction) integerDigits++;
  }
  if (one < 0) return false;
  let exp: i32 = 0;
  if (i < n) {
    i++;
    let sign: i32 = 1;
    const s = i < n ? load<u8>(ptr + <usize>i) : 0;
    if (s == 0x2b) i++;
    else if (s == 0x2d) {
      sign = -1;
      i++;
    }
    let e: i32 = 0;
    for (; i < n; i++) {
      e = e * 10 + (<i32>load<u8>(ptr + <usize>i) - 0x30);
      if (e > 100000) return false;
    }
    exp = sign * e;
  }
  return integerDigits - one - 1 + exp == 0;
}
