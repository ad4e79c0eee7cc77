// The config schema of SPEC section 2: its leaves and keys, and what makes a leaf's value valid.

import { BACKSLASH, DIGIT_0, DIGIT_1, LOWER_E, MINUS, PERIOD, PLUS, SLASH, STAR, UPPER_E } from "../json/chars";
import {
  MSG_CACHE_FILE_DIR, MSG_GLOB_EMPTY, MSG_GLOB_SLASH, MSG_GLOB_STAR, MSG_NUL, MSG_PATH_EMPTY, MSG_PRESET_EMPTY,
  MSG_THEME_BLANK, MSG_THEME_EMPTY, MSG_THEME_PATH,
} from "./messages";
import { isAbsolutePath, resolvePath } from "../resolve/paths";
import { Span, endsWithAscii, isBlank, span, spanIs, spanLen, spanOf, spanPtr, spansOf, startsWithAscii } from "../json/span";
import { Code, Diagnostic } from "./diagnostic";
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
  /** A path that names a file, so not one ending in a separator. */
  File = 6,
  Enum = 7,
  Bool = 8,
}

/** Each type's name in the `schema` op's answer, by LeafType. */
export const LEAF_TYPE_NAMES: Array<string> = words("schema theme globs presets paths path file enum bool");

const NO_VALUES = new Array<string>();

/** One leaf of the resolved config: its dotted key, type, variable, default and description, and the values to offer. */
export class Leaf {
  /** The default value's bytes. */
  defaultValue: Span;
  /** The variable's name, as bytes. */
  envName: Span;
  /** The values an enum takes (those of `values`); empty for the other types. */
  choices: Array<string> = new Array<string>();

  constructor(
    public key: string,
    public type: LeafType,
    public env: string,
    public defaultText: string,
    /** What the leaf is for: the one text that schema.json, the config's types and editors show. */
    public description: string,
    /** Values to offer, each followed by what it means: all an enum takes, or the usual ones of another type. */
    public values: Array<string> = NO_VALUES,
  ) {
    this.defaultValue = spanOf(defaultText);
    this.envName = spanOf(env);
    if (type == LeafType.Enum) for (let i = 0; i < values.length; i += 2) this.choices.push(values[i]);
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

/**
 * The leaves, in the order of the resolved config, with the variable of each (DROPKIT_ + the key in upper snake case).
 * A new leaf is one row here (and one in LeafId); its group, when it is new, one row in TOP. Hosts generate the rest
 * from the `schema` op (scripts/generate-schema.ts), which refuses a leaf without a description.
 */
export const LEAVES: Array<Leaf> = [
  new Leaf("schema", LeafType.Schema, "", "1", "The version of the config format: 1."),
  new Leaf(
    "theme",
    LeafType.Theme,
    "DROPKIT_THEME",
    "auto",
    "`auto` (the only theme archive, or the first by name), `none`, a theme name (`ocean`: `ocean-theme.zip` or `ocean.zip`), or a path ending in `.zip`.",
    ["auto", "The only theme archive in the folder, or with several the first by name (the others are named).", "none", "No theme."],
  ),
  new Leaf(
    "modules.include",
    LeafType.Globs,
    "DROPKIT_MODULES_INCLUDE",
    "",
    "Modules added back after `exclude`, even past `only` (a `--exclude` flag still wins over them).",
  ),
  new Leaf("modules.exclude", LeafType.Globs, "DROPKIT_MODULES_EXCLUDE", "", "Modules left out."),
  new Leaf("modules.only", LeafType.Globs, "DROPKIT_MODULES_ONLY", "", "When not empty, only the modules matching one of these are considered."),
  new Leaf(
    "presets",
    LeafType.Presets,
    "DROPKIT_PRESETS",
    "",
    "Presets to apply in order (a later one wins): bundled names, names of preset files in `presetsSearchPath`, or paths. Omitted: auto-detect; `[]`: none.",
    ["standard", "Bundled: excludes test-* and dev-* modules and stops on a failing hook.", "none", "Bundled: sets nothing."],
  ),
  new Leaf(
    "presetsSearchPath",
    LeafType.Paths,
    "DROPKIT_PRESETS_SEARCH_PATH",
    "",
    "Directories holding preset files (`<name>.ts|.js|.json`), searched in order.",
  ),
  new Leaf(
    "hooks.initScriptsDir",
    LeafType.Path,
    "DROPKIT_HOOKS_INIT_SCRIPTS_DIR",
    "./init-scripts",
    "Executable files run in name order before the drop is created. A missing directory means no hooks.",
  ),
  new Leaf(
    "hooks.postScriptsDir",
    LeafType.Path,
    "DROPKIT_HOOKS_POST_SCRIPTS_DIR",
    "./post-scripts",
    "Executable files run in name order after the drop is created. A missing directory means no hooks.",
  ),
  new Leaf(
    "hooks.onFailure",
    LeafType.Enum,
    "DROPKIT_HOOKS_ON_FAILURE",
    "continue",
    "What a failing hook does: `continue` logs a warning, `fail` stops the run with exit code 1.",
    ["continue", "A failing hook is a warning; the run goes on.", "fail", "A failing hook stops the run (exit 1)."],
  ),
  new Leaf("cache.file", LeafType.File, "DROPKIT_CACHE_FILE", ".dropkit-cache.json", "Where archive fingerprints are kept: a file, not a directory."),
  new Leaf(
    "cache.enabled",
    LeafType.Bool,
    "DROPKIT_CACHE_ENABLED",
    "true",
    "Whether archive fingerprints (size, mtime, sha256) are cached between runs.",
    ["true", "Re-runs hash only the archives that changed.", "false", "Every run hashes every archive."],
  ),
  new Leaf(
    "log.format",
    LeafType.Enum,
    "DROPKIT_LOG_FORMAT",
    "text",
    "The decisions log on stderr: `text` for people, `json` for one JSON object per line.",
    ["text", "One line per record, for people.", "json", "One JSON object per line, for programs."],
  ),
];
// LeafId.Count sizes the layers' tables, which are written unchecked, and a layer's `sets` is a 32-bit mask: a leaf
// added to LEAVES alone must stop the module at start (every test fails), not write past a table. Not `assert`:
// the release build drops asserts.
if (LEAVES.length != LeafId.Count || LeafId.Count > 32) unreachable();

/** What a top-level key of a config or preset is. */
export enum TopKind {
  /** A leaf whose key has no dot. */
  Leaf = 0,
  /** An object whose keys are leaves: `hooks` holds `hooks.initScriptsDir` and the other `hooks.*` leaves. */
  Group = 1,
  /** `$schema`: a string for editors, ignored. */
  SchemaUrl = 2,
  /** Another name for a leaf, merged into it: `exclude` for `modules.exclude`. */
  Shorthand = 3,
  /** A preset's `detect` globs. */
  Detect = 4,
}

/** Each kind's name in the `schema` op's answer, by TopKind. */
export const TOP_KIND_NAMES: Array<string> = words("leaf group schemaUrl shorthand detect");

/** Which documents may hold a top-level key, as bits of TopEntry.documents. */
export const IN_CONFIG: u8 = 1;
export const IN_PRESET: u8 = 2;
const IN_BOTH: u8 = IN_CONFIG | IN_PRESET;

/** A top-level key: its kind, the documents that may hold it, and the leaves it sets (linked at start, from LEAVES). */
export class TopEntry {
  /** Leaf and Shorthand: the leaf it sets; Group: its first leaf (the others follow it in LEAVES); otherwise -1. */
  leaf: i32 = -1;
  /** Group: its leaves' keys after the dot, in the order of LEAVES, and the same as bytes (which keys are matched against). */
  names: Array<string> = new Array<string>();
  nameSpans: Array<Span> = new Array<Span>();

  constructor(
    public key: string,
    public kind: TopKind,
    public documents: u8,
    /** What it is for; a Leaf's is its leaf's. */
    public description: string = "",
    /** Shorthand: the dotted key of the leaf it stands for. */
    public target: string = "",
  ) {}
}

/** Every top-level key either kind of document may hold, in the order messages list them: a new group is one row here. */
export const TOP: Array<TopEntry> = [
  new TopEntry("$schema", TopKind.SchemaUrl, IN_CONFIG, "The JSON Schema of the config, for editors; ignored by dropkit."),
  new TopEntry("schema", TopKind.Leaf, IN_CONFIG),
  new TopEntry("theme", TopKind.Leaf, IN_BOTH),
  new TopEntry(
    "modules",
    TopKind.Group,
    IN_BOTH,
    "Which modules of the drop are used: all (or those matching `only`), less those matching `exclude`, plus those matching `include`.",
  ),
  new TopEntry("exclude", TopKind.Shorthand, IN_BOTH, "Shorthand for `modules.exclude`, merged into it.", "modules.exclude"),
  new TopEntry("presets", TopKind.Leaf, IN_CONFIG),
  new TopEntry("presetsSearchPath", TopKind.Leaf, IN_CONFIG),
  new TopEntry("hooks", TopKind.Group, IN_BOTH, "Hook scripts: each executable file of a directory, run in name order with the working directory as cwd."),
  new TopEntry("cache", TopKind.Group, IN_BOTH, "The archive fingerprint cache, so that a re-run hashes only changed archives."),
  new TopEntry("log", TopKind.Group, IN_BOTH, "The decisions log on stderr."),
  new TopEntry(
    "detect",
    TopKind.Detect,
    IN_PRESET,
    "A preset's globs: the preset applies by itself when one matches a file in the working directory (auto-detect).",
  ),
];

/** The index in LEAVES of the leaf whose dotted key is `key`, or -1. */
export function leafIndex(key: string): i32 {
  for (let i = 0; i < LEAVES.length; i++) if (unchecked(LEAVES[i]).key == key) return i;
  return -1;
}

// Each key's leaves, from LEAVES: every leaf belongs to one Leaf or Group key, and a group's leaves follow one another
// (the validator reads a group's leaf as its first leaf plus the key's index). A table that breaks this stops the
// module at start, as above.
function linkTopKeys(): void {
  let linked = 0;
  for (let t = 0; t < TOP.length; t++) {
    const entry = unchecked(TOP[t]);
    if (entry.kind == TopKind.Leaf || entry.kind == TopKind.Shorthand) {
      entry.leaf = leafIndex(entry.kind == TopKind.Leaf ? entry.key : entry.target);
      if (entry.leaf < 0) unreachable();
      if (entry.kind == TopKind.Leaf) linked++;
    } else if (entry.kind == TopKind.Group) {
      const prefix = entry.key + ".";
      for (let i = 0; i < LEAVES.length; i++) {
        const key = unchecked(LEAVES[i]).key;
        if (!key.startsWith(prefix)) continue;
        if (entry.leaf < 0) entry.leaf = i;
        else if (i != entry.leaf + entry.names.length) unreachable();
        entry.names.push(key.slice(prefix.length));
        linked++;
      }
      if (entry.leaf < 0) unreachable();
      entry.nameSpans = spansOf(entry.names);
    }
  }
  if (linked != LEAVES.length) unreachable();
}
linkTopKeys();

/** The keys of TOP that documents of `documents` (IN_CONFIG, IN_PRESET) may hold; 0: all of them. */
function topKeys(documents: u8): Array<string> {
  const keys = new Array<string>();
  for (let i = 0; i < TOP.length; i++) if (documents == 0 || (unchecked(TOP[i]).documents & documents) != 0) keys.push(unchecked(TOP[i]).key);
  return keys;
}
/** Every top-level key either kind of document may hold, indexed as TOP. */
export const TOP_KEYS: Array<string> = topKeys(0);
export const CONFIG_KEYS: Array<string> = topKeys(IN_CONFIG);
export const PRESET_KEYS: Array<string> = topKeys(IN_PRESET);
// The same keys as bytes, which the validator matches keys against.
export const TOP_KEY_SPANS: Array<Span> = spansOf(TOP_KEYS);

/**
 * What is wrong with the WTF-8 bytes of one value of a text leaf, or "" when nothing is: the rules of SPEC
 * section 2 and docs/abi.md ("Decisions the SPEC left open"), checked on the bytes without making a string.
 */
export function checkBytes(leaf: LeafId, ptr: usize, len: i32): string {
  const type = unchecked(LEAVES[leaf]).type;
  if (type == LeafType.Globs) return checkGlob(ptr, len);
  // Every value that names a file or matches file names: a NUL would cut the path short at the system call.
  if (type >= LeafType.Theme && type <= LeafType.File && hasNul(ptr, len)) {
    return problem(Code.NulCharacter, NUL_NOUNS[type - LeafType.Theme] + MSG_NUL);
  }
  if (type == LeafType.Theme) {
    if (len == 0) return problem(Code.EmptyValue, MSG_THEME_EMPTY);
    if (isBlank(span(ptr, len))) return problem(Code.BlankTheme, MSG_THEME_BLANK);
    if (isZipPath(span(ptr, len))) return "";
    return hasSlash(ptr, len) ? problem(Code.ThemePath, MSG_THEME_PATH) : "";
  }
  if (type == LeafType.Presets) return len == 0 ? problem(Code.EmptyValue, MSG_PRESET_EMPTY) : "";
  if (type == LeafType.Paths || type == LeafType.Path || type == LeafType.File) {
    if (len == 0) return problem(Code.EmptyValue, MSG_PATH_EMPTY);
    // A file's path: a trailing separator names a directory, which the path's normal form would drop.
    const last = load<u8>(ptr + <usize>(len - 1));
    return type == LeafType.File && (last == SLASH || last == BACKSLASH) ? problem(Code.CacheFileDirectory, MSG_CACHE_FILE_DIR) : "";
  }
  if (type == LeafType.Enum) {
    const choices = LEAVES[leaf].choices;
    for (let i = 0; i < choices.length; i++) if (spanIs(span(ptr, len), choices[i])) return "";
    // The suggestion goes in parentheses: callers append ", found ..." to this text.
    const close = suggest(decodeText(ptr, len), choices);
    return problem(Code.NotOneOf, "expected one of " + quoteList(choices) + (close.length > 0 ? ' (did you mean "' + close + '"?)' : ""), close);
  }
  return "";
}

/**
 * What the last check that found a problem found (checkBytes returns only its text, "" for none): its code and
 * did-you-mean, for `checked` to give the problem's Diagnostic. Valid until the next check.
 */
let checkedCode: Code = Code.EmptyValue;
let checkedSuggestion: string = "";

/** Returns a check's problem `text`, noting its code and did-you-mean. */
function problem(code: Code, text: string, suggestion: string = ""): string {
  checkedCode = code;
  checkedSuggestion = suggestion;
  return text;
}

/** Gives `d`, the problem the last check of `leaf` found, that check's code, did-you-mean and, for a choice, the choices. */
export function checked(d: Diagnostic, leaf: LeafId): Diagnostic {
  d.code = checkedCode;
  d.suggestion = checkedSuggestion;
  if (checkedCode == Code.NotOneOf) d.expected = LEAVES[leaf].choices;
  return d;
}

/**
 * What is wrong with a module glob: empty, a NUL, a slash (a glob names a module, not a path), or a '*' before
 * the end, in that order of precedence. One pass, eight bytes at a time, as a config may hold tens of thousands.
 */
function checkGlob(ptr: usize, len: i32): string {
  if (len == 0) return problem(Code.EmptyValue, MSG_GLOB_EMPTY);
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
  if (nul) return problem(Code.NulCharacter, NUL_NOUNS[LeafType.Globs - LeafType.Theme] + MSG_NUL);
  return slash ? problem(Code.GlobPath, MSG_GLOB_SLASH) : star ? problem(Code.GlobStar, MSG_GLOB_STAR) : "";
}

/**
 * Bit 7 set in each byte of `x` that is `b`, and possibly in bytes above such a one (the subtraction's borrow),
 * never below: zero exactly when no byte is `b`.
 */
@inline function hasByte(x: u64, b: u64): u64 {
  const y = x ^ (0x0101010101010101 * b);
  return (y - 0x0101010101010101) & ~y & 0x8080808080808080;
}

/** What each kind of path-like leaf (LeafType.Theme to LeafType.File) is called in the NUL message. */
const NUL_NOUNS: Array<string> = "a theme|a module glob|a preset name or path|a path|a path|a path".split("|");

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
  if (type == LeafType.Path || type == LeafType.Paths || type == LeafType.File) return resolvePath(baseDir, value);
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
