// The config schema of SPEC section 2: its leaves and keys, and what makes a leaf's value valid.

import { BACKSLASH, DIGIT_0, DIGIT_1, LOWER_E, MINUS, PERIOD, PLUS, SLASH, STAR, UPPER_E } from "../json/chars";
import {
  MSG_CACHE_FILE_DIR, MSG_GLOB_EMPTY, MSG_GLOB_SLASH, MSG_GLOB_STAR, MSG_NUL, MSG_PATH_EMPTY, MSG_PRESET_EMPTY,
  MSG_THEME_BLANK, MSG_THEME_EMPTY, MSG_THEME_PATH,
} from "./messages";
import { isAbsolutePath, resolvePath } from "../resolve/paths";
import { Span, endsWithAscii, isBlank, span, spanIs, spanLen, spanOf, spanPtr, spansOf, startsWithAscii } from "../json/span";
import { suggest } from "./suggest";
import { quoteList, words } from "../json/strings";
import { decodeText } from "../json/utf8";

/** What values a leaf takes: which of the rules of SPEC section 2 it follows. */
export enum LeafType {
  Schema = 0,
  Theme = 1,
  Globs = 2,
  Presets = 3,
  Paths = 4,
  Path = 5,
  Enum = 6,
  Bool = 7,
}

/** One leaf of the resolved config: its dotted key, type, variable, choices and default. */
export class Leaf {
  /** The default value's bytes. */
  defaultValue: Span;
  /** The variable's name, as bytes. */
  envName: Span;

  constructor(
    public key: string,
    public type: LeafType,
    public env: string,
    public choices: Array<string>,
    public defaultText: string,
  ) {
    this.defaultValue = spanOf(defaultText);
    this.envName = spanOf(env);
  }

  isList(): bool {
    return this.type == LeafType.Globs || this.type == LeafType.Presets || this.type == LeafType.Paths;
  }

  /** Union lists gather entries from every layer; other lists are replaced by the highest layer. */
  isUnion(): bool {
    return this.type == LeafType.Globs;
  }
}

/** The leaves, by their index in LEAVES; Count is how many there are. */
export enum LeafId {
  Schema = 0,
  Theme = 1,
  Include = 2,
  Exclude = 3,
  Only = 4,
  Presets = 5,
  SearchPath = 6,
  InitDir = 7,
  PostDir = 8,
  OnFailure = 9,
  CacheFile = 10,
  CacheEnabled = 11,
  LogFormat = 12,
  Count = 13,
}

const NO_CHOICES = new Array<string>();

/** The leaves, in the order of the resolved config, with the variable of each (DROPKIT_ + the key in upper snake case). */
export const LEAVES: Array<Leaf> = [
  new Leaf("schema", LeafType.Schema, "", NO_CHOICES, "1"),
  new Leaf("theme", LeafType.Theme, "DROPKIT_THEME", NO_CHOICES, "auto"),
  new Leaf("modules.include", LeafType.Globs, "DROPKIT_MODULES_INCLUDE", NO_CHOICES, ""),
  new Leaf("modules.exclude", LeafType.Globs, "DROPKIT_MODULES_EXCLUDE", NO_CHOICES, ""),
  new Leaf("modules.only", LeafType.Globs, "DROPKIT_MODULES_ONLY", NO_CHOICES, ""),
  new Leaf("presets", LeafType.Presets, "DROPKIT_PRESETS", NO_CHOICES, ""),
  new Leaf("presetsSearchPath", LeafType.Paths, "DROPKIT_PRESETS_SEARCH_PATH", NO_CHOICES, ""),
  new Leaf("hooks.initScriptsDir", LeafType.Path, "DROPKIT_HOOKS_INIT_SCRIPTS_DIR", NO_CHOICES, "./init-scripts"),
  new Leaf("hooks.postScriptsDir", LeafType.Path, "DROPKIT_HOOKS_POST_SCRIPTS_DIR", NO_CHOICES, "./post-scripts"),
  new Leaf("hooks.onFailure", LeafType.Enum, "DROPKIT_HOOKS_ON_FAILURE", words("continue fail"), "continue"),
  new Leaf("cache.file", LeafType.Path, "DROPKIT_CACHE_FILE", NO_CHOICES, ".dropkit-cache.json"),
  new Leaf("cache.enabled", LeafType.Bool, "DROPKIT_CACHE_ENABLED", NO_CHOICES, "true"),
  new Leaf("log.format", LeafType.Enum, "DROPKIT_LOG_FORMAT", words("text json"), "text"),
];
// LeafId.Count sizes the layers' tables, which are written unchecked, and a layer's `sets` is a 32-bit mask: a leaf
// added to LEAVES alone must stop the module at start (every test fails), not write past a table. Not `assert`:
// the release build drops asserts.
if (LEAVES.length != LeafId.Count || LeafId.Count > 32) unreachable();

// The keys of a config and of a preset, at the top level (`$schema` is accepted and ignored), and of each group.
export enum TopKey {
  SchemaUrl = 0,
  Schema = 1,
  Theme = 2,
  Modules = 3,
  Exclude = 4,
  Presets = 5,
  SearchPath = 6,
  Hooks = 7,
  Cache = 8,
  Log = 9,
  Detect = 10,
}
/** Every top-level key either kind of document may hold, indexed by TopKey. */
export const TOP_KEYS: Array<string> = words("$schema schema theme modules exclude presets presetsSearchPath hooks cache log detect");
export const CONFIG_KEYS: Array<string> = words("$schema schema theme modules exclude presets presetsSearchPath hooks cache log");
export const PRESET_KEYS: Array<string> = words("theme modules exclude hooks cache log detect");

/** The keys of the group object `key` (TopKey.Modules, TopKey.Hooks, TopKey.Cache or TopKey.Log), each a leaf from `groupFirstLeaf` on. */
export const GROUP_KEYS: Array<Array<string>> = [
  words("include exclude only"),
  words("initScriptsDir postScriptsDir onFailure"),
  words("file enabled"),
  words("format"),
];

// The same keys as bytes, which the validator matches keys against.
export const TOP_KEY_SPANS: Array<Span> = spansOf(TOP_KEYS);
export const GROUP_KEY_SPANS: Array<Array<Span>> = [spansOf(GROUP_KEYS[0]), spansOf(GROUP_KEYS[1]), spansOf(GROUP_KEYS[2]), spansOf(GROUP_KEYS[3])];

export function groupOf(key: TopKey): i32 {
  return key == TopKey.Modules ? 0 : key == TopKey.Hooks ? 1 : key == TopKey.Cache ? 2 : 3;
}

export function groupFirstLeaf(group: i32): LeafId {
  return group == 0 ? LeafId.Include : group == 1 ? LeafId.InitDir : group == 2 ? LeafId.CacheFile : LeafId.LogFormat;
}

/**
 * What is wrong with the WTF-8 bytes of one value of a text leaf, or "" when nothing is: the rules of SPEC
 * section 2 and docs/abi.md ("Decisions the SPEC left open"), checked on the bytes without making a string.
 */
export function checkBytes(leaf: LeafId, ptr: usize, len: i32): string {
  const type = unchecked(LEAVES[leaf]).type;
  if (type == LeafType.Globs) return checkGlob(ptr, len);
  // Every value that names a file or matches file names: a NUL would cut the path short at the system call.
  if (type >= LeafType.Theme && type <= LeafType.Path && hasNul(ptr, len)) return NUL_NOUNS[type - LeafType.Theme] + MSG_NUL;
  if (type == LeafType.Theme) {
    if (len == 0) return MSG_THEME_EMPTY;
    if (isBlank(span(ptr, len))) return MSG_THEME_BLANK;
    if (isZipPath(span(ptr, len))) return "";
    return hasSlash(ptr, len) ? MSG_THEME_PATH : "";
  }
  if (type == LeafType.Presets) return len == 0 ? MSG_PRESET_EMPTY : "";
  if (type == LeafType.Paths || type == LeafType.Path) {
    if (len == 0) return MSG_PATH_EMPTY;
    // cache.file names a file: a trailing separator names a directory, which the path's normal form would drop.
    const last = load<u8>(ptr + <usize>(len - 1));
    return leaf == LeafId.CacheFile && (last == SLASH || last == BACKSLASH) ? MSG_CACHE_FILE_DIR : "";
  }
  if (type == LeafType.Enum) {
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
      if (c == SLASH || c == BACKSLASH) slash = true;
      if (c == STAR && i < len - 1) star = true;
    }
  } else {
    // The last word overlaps the one before, so that it ends with the glob.
    for (let i = 0; i < len; i += 8) {
      const at = min(i, len - 8);
      const x = load<u64>(ptr + <usize>at);
      if (hasByte(x, 0) != 0) nul = true;
      if ((hasByte(x, SLASH) | hasByte(x, BACKSLASH)) != 0) slash = true;
      // A '*' as the glob's last byte (the top byte of the last word) is the allowed one.
      if ((hasByte(x, STAR) & (at + 8 == len ? 0x0080808080808080 : 0x8080808080808080)) != 0) star = true;
    }
  }
  if (nul) return NUL_NOUNS[LeafType.Globs - LeafType.Theme] + MSG_NUL;
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

/** What each kind of path-like leaf (LeafType.Theme to LeafType.Path) is called in the NUL message. */
const NUL_NOUNS: Array<string> = "a theme|a module glob|a preset name or path|a path|a path".split("|");

/** Whether the bytes hold a NUL. */
export function hasNul(ptr: usize, len: i32): bool {
  for (let i = 0; i < len; i++) if (load<u8>(ptr + <usize>i) == 0) return true;
  return false;
}

/** `checkBytes` of a value's span. */
export function checkSpan(leaf: LeafId, value: Span): string {
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
export function normalizeValue(leaf: LeafId, value: Span, baseDir: Span): Span {
  const type = unchecked(LEAVES[leaf]).type;
  if (type == LeafType.Path || type == LeafType.Paths) return resolvePath(baseDir, value);
  if (type == LeafType.Theme && isZipPath(value)) return resolvePath(baseDir, value);
  if (type == LeafType.Presets && isPresetPath(value)) return resolvePath(baseDir, value);
  return value;
}

function hasSlash(ptr: usize, len: i32): bool {
  for (let i = 0; i < len; i++) {
    const c = load<u8>(ptr + <usize>i);
    if (c == SLASH || c == BACKSLASH) return true;
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
    if (c == PERIOD) {
      fraction = true;
      continue;
    }
    if (c == LOWER_E || c == UPPER_E) break;
    if (c != DIGIT_0) {
      // A sign, a digit other than 0 and 1, or a second 1.
      if (c != DIGIT_1 || one >= 0) return false;
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
    if (s == PLUS) i++;
    else if (s == MINUS) {
      sign = -1;
      i++;
    }
    let e: i32 = 0;
    for (; i < n; i++) {
      e = e * 10 + (<i32>load<u8>(ptr + <usize>i) - DIGIT_0);
      if (e > 100000) return false;
    }
    exp = sign * e;
  }
  return integerDigits - one - 1 + exp == 0;
}
