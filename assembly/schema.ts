// The config schema of SPEC section 2: its leaves, and the strict validator that turns JSON into a layer.

import { Diagnostic, MAX_LISTED_PROBLEMS, SCHEMA_ERROR } from "./diagnostic";
import { JsonNode, KIND_ARRAY, KIND_BOOL, KIND_NUMBER, KIND_OBJECT, KIND_STRING, Span, isExactlyOne } from "./json";
import {
  MSG_DETECT_EMPTY, MSG_GLOB_EMPTY, MSG_GLOB_SLASH, MSG_GLOB_STAR, MSG_NOT_OBJECT, MSG_NUL, MSG_PATH_EMPTY,
  MSG_PRESET_EMPTY, MSG_PRESET_ONLY_KEY, MSG_SCHEMA_VALUE, MSG_THEME_EMPTY, MSG_THEME_PATH,
} from "./messages";
import { StringSet } from "./set";
import { charText, didYouMean, endsWithIgnoreCase, format, foundText, hasPrefix, hasSuffix, isAbsolutePath, itemPath, positionText, quoteList, resolvePath, splitOn, suggest, words } from "./text";

export const TYPE_SCHEMA: i32 = 0;
export const TYPE_THEME: i32 = 1;
export const TYPE_GLOBS: i32 = 2;
export const TYPE_PRESETS: i32 = 3;
export const TYPE_PATHS: i32 = 4;
export const TYPE_PATH: i32 = 5;
export const TYPE_ENUM: i32 = 6;
export const TYPE_BOOL: i32 = 7;

/** One leaf of the resolved config. */
export class Leaf {
  constructor(
    public key: string,
    public type: i32,
    public env: string,
    public choices: Array<string>,
    public defaultText: string,
  ) {}

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

/** The choices of a leaf that is not an enum. */
const NO_CHOICES = new Array<string>();

/**
 * The leaves in the order the resolved config lists them, from one table of literals (less code than a
 * constructor call each): keys, their types (TYPE_* as digits), defaults ("|" between them), and the
 * choices of each enum leaf in turn. A leaf's variable follows from its key (`envName`).
 */
export const LEAVES: Array<Leaf> = leafTable(
  "schema theme modules.include modules.exclude modules.only presets presetsSearchPath hooks.initScriptsDir " +
    "hooks.postScriptsDir hooks.onFailure cache.file cache.enabled log.format",
  "0122234556576",
  "1|auto||||||./init-scripts|./post-scripts|continue|.dropkit-cache.json|true|text",
  "continue fail|text json",
);

function leafTable(keys: string, types: string, defaults: string, choices: string): Array<Leaf> {
  const names = words(keys);
  const defaultTexts = splitOn(defaults, "|");
  const enums = splitOn(choices, "|");
  const leaves = new Array<Leaf>();
  for (let i = 0, e = 0; i < names.length; i++) {
    const type = types.charCodeAt(i) - 0x30;
    const env = type == TYPE_SCHEMA ? "" : envName(names[i]);
    leaves.push(new Leaf(names[i], type, env, type == TYPE_ENUM ? words(enums[e++]) : NO_CHOICES, defaultTexts[i]));
  }
  return leaves;
}

/** A leaf's variable: DROPKIT_ and its key in upper snake case ("hooks.onFailure": DROPKIT_HOOKS_ON_FAILURE). */
function envName(key: string): string {
  let name = "DROPKIT_";
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    name += c == 0x2e ? "_" : c >= 0x61 ? charText(c - 32) : "_" + charText(c);
  }
  return name;
}

export const CONFIG_KEYS: Array<string> = words("$schema schema theme modules exclude presets presetsSearchPath hooks cache log");
export const PRESET_KEYS: Array<string> = words("theme modules exclude hooks cache log detect");
const MODULES_KEYS: Array<string> = words("include exclude only");
const HOOKS_KEYS: Array<string> = words("initScriptsDir postScriptsDir onFailure");
const CACHE_KEYS: Array<string> = words("file enabled");
const LOG_KEYS: Array<string> = words("format");

// Scalar settings share these empty lists (nothing adds to them); list settings get their own (`addList`).
const NO_STRINGS = new Array<string>();

/** A value that one layer sets for one leaf, with where it came from. */
export class Setting {
  leaf: i32 = 0;
  str: string = "";
  flag: bool = false;
  list: Array<string> = NO_STRINGS;
  /** For lists: the source of each entry. */
  sources: Array<string> = NO_STRINGS;
  source: string = "";
}

export const LAYER_CLI = "cli";
export const LAYER_ENV = "env";
export const LAYER_CONFIG = "config";
export const LAYER_PRESET = "preset";
export const LAYER_DEFAULT = "default";

/** Everything one layer (flags, environment, config, a preset, defaults) sets. */
export class Layer {
  name: string;
  /** The preset's name, for preset layers. */
  label: string = "";
  /** Relative paths in this layer resolve against this directory. */
  baseDir: string;
  settings: Array<Setting | null> = new Array<Setting | null>(LEAVES.length);
  /** Preset layers: the file globs that make auto-detect pick the preset; null when it has none. */
  detect: Array<string> | null = null;
  detectSources: Array<string> = new Array<string>();
  /** Preset layers: the preset's source (a bundled name or a file), its id in auto-detect answers. */
  presetSource: string = "";
  /** Preset layers: why the preset applies or not, and the detect glob that matched. */
  reason: string = "";
  glob: string = "";

  constructor(name: string, baseDir: string) {
    this.name = name;
    this.baseDir = baseDir;
  }

  get(leaf: i32): Setting | null {
    return this.settings[leaf];
  }

  /** Records a scalar setting. */
  setText(leaf: i32, value: string, source: string): Setting {
    const s = new Setting();
    s.leaf = leaf;
    s.str = value;
    s.source = source;
    this.settings[leaf] = s;
    return s;
  }

  setFlag(leaf: i32, value: bool, source: string): Setting {
    const s = this.setText(leaf, value ? "true" : "false", source);
    s.flag = value;
    return s;
  }

  /** Records a list, or for union lists appends to what the layer already holds (the `exclude` shorthand). */
  addList(leaf: i32, values: Array<string>, sources: Array<string>, source: string): Setting {
    let s = this.settings[leaf];
    if (s == null) {
      s = new Setting();
      s.leaf = leaf;
      s.source = source;
      s.list = new Array<string>();
      s.sources = new Array<string>();
      this.settings[leaf] = s;
    }
    if (values.length == 0) return s;
    // A set, not list.includes: a config may hold tens of thousands of globs.
    const seen = new StringSet();
    for (let i = 0; i < s.list.length; i++) seen.add(s.list[i]);
    for (let i = 0; i < values.length; i++) {
      if (!seen.has(values[i])) {
        seen.add(values[i]);
        s.list.push(values[i]);
        s.sources.push(sources[i]);
      }
    }
    return s;
  }
}

/** What kind of document a JSON value is validated as. */
export const DOC_CONFIG: i32 = 0;
export const DOC_PRESET: i32 = 1;

/** Where a document comes from: used for sources, positions and relative paths. */
export class DocContext {
  /** The file, or a name such as "<input>". */
  file: string = "<input>";
  /** Whether spans are real positions in `file` (JSON text) or absent (a .ts/.js value). */
  positions: bool = true;
  doc: i32 = DOC_CONFIG;
  errors: Array<Diagnostic> = new Array<Diagnostic>();
  /** Problems found past MAX_LISTED_PROBLEMS: counted, never built. */
  unlisted: i32 = 0;
  /** Documents: the document node, null when there is none. */
  node: JsonNode | null = null;
  /** Documents: a package.json without a `dropkit` key, not a config. */
  absent: bool = false;

  /** Whether one more problem may be listed; when not, it is counted instead (call before building it). */
  hasRoom(): bool {
    if (this.errors.length < MAX_LISTED_PROBLEMS) return true;
    this.unlisted++;
    return false;
  }
}

/** Validates a config or preset document and returns the layer it sets; problems go to `ctx.errors`. */
export function readDocument(node: JsonNode, ctx: DocContext, layer: Layer): Layer {
  if (node.kind != KIND_OBJECT) {
    error(ctx, "", node, MSG_NOT_OBJECT + (ctx.doc == DOC_PRESET ? " (a preset)" : ""));
    return layer;
  }
  const keys = node.keys;
  const accepted = ctx.doc == DOC_PRESET ? PRESET_KEYS : CONFIG_KEYS;
  for (let i = 0, n = keys.length; i < n; i++) {
    const key = keys[i].text;
    const value = node.items[i];
    if (!accepted.includes(key)) {
      if (ctx.doc == DOC_PRESET && CONFIG_KEYS.includes(key)) {
        errorAtKey(ctx, key, keys[i], format("\"%\" %.", key, MSG_PRESET_ONLY_KEY));
      } else {
        unknownKey(ctx, "", key, keys[i], accepted);
      }
      continue;
    }
    if (key == "$schema") {
      if (value.kind != KIND_STRING) error(ctx, key, value, "$schema must be a string (the URL or path of the JSON Schema)");
    } else if (key == "schema") {
      if (value.kind != KIND_NUMBER || !isExactlyOne(value.text)) error(ctx, key, value, MSG_SCHEMA_VALUE);
      else layer.setText(LEAF_SCHEMA, "1", source(ctx, value));
    } else if (key == "theme") {
      readTheme(ctx, layer, value);
    } else if (key == "exclude") {
      readStringList(ctx, layer, LEAF_EXCLUDE, "exclude", value);
    } else if (key == "presets") {
      readStringList(ctx, layer, LEAF_PRESETS, "presets", value);
    } else if (key == "presetsSearchPath") {
      readStringList(ctx, layer, LEAF_SEARCH_PATH, "presetsSearchPath", value);
    } else if (key == "detect") {
      readDetect(ctx, layer, value);
    } else {
      // modules, hooks, cache and log: objects whose keys are leaves, in the order of LEAVES.
      const modules = key == "modules";
      const group = modules ? MODULES_KEYS : key == "hooks" ? HOOKS_KEYS : key == "cache" ? CACHE_KEYS : LOG_KEYS;
      const first = modules ? LEAF_INCLUDE : key == "hooks" ? LEAF_INIT_DIR : key == "cache" ? LEAF_CACHE_FILE : LEAF_LOG_FORMAT;
      if (!expectObject(ctx, key, value, group)) continue;
      for (let j = 0; j < value.keys.length; j++) {
        const leaf = first + group.indexOf(value.keys[j].text);
        if (modules) readStringList(ctx, layer, leaf, LEAVES[leaf].key, value.items[j]);
        else readScalar(ctx, layer, leaf, value.items[j]);
      }
    }
  }
  return layer;
}

/** What each kind of path-like leaf (TYPE_THEME to TYPE_PATH) is called in the NUL message. */
const NUL_NOUNS: Array<string> = splitOn("a theme|a module glob|a preset name or path|a path|a path", "|");

/** Checks one leaf value given as text (flags, environment, config files); returns "" or what is wrong. */
export function checkText(leaf: i32, value: string): string {
  const type = LEAVES[leaf].type;
  // Every value that names a file or matches file names: a NUL would cut the path short at the system call.
  if (type >= TYPE_THEME && type <= TYPE_PATH && hasNul(value)) return NUL_NOUNS[type - TYPE_THEME] + MSG_NUL;
  if (type == TYPE_THEME) return checkTheme(value);
  if (type == TYPE_GLOBS) return checkModuleGlob(value);
  if (type == TYPE_PRESETS) return value.length == 0 ? MSG_PRESET_EMPTY : "";
  if (type == TYPE_PATHS || type == TYPE_PATH) return value.length == 0 ? MSG_PATH_EMPTY : "";
  if (type == TYPE_ENUM) {
    const choices = LEAVES[leaf].choices;
    if (choices.includes(value)) return "";
    // The suggestion goes in parentheses: callers append ", found ..." to this text.
    const close = suggest(value, choices);
    return "expected one of " + quoteList(choices) + (close.length > 0 ? " (did you mean \"" + close + "\"?)" : "");
  }
  return "";
}

export function checkModuleGlob(glob: string): string {
  if (glob.length == 0) return MSG_GLOB_EMPTY;
  if (glob.includes("/") || glob.includes("\\")) return MSG_GLOB_SLASH;
  const star = glob.indexOf("*");
  if (star >= 0 && star != glob.length - 1) return MSG_GLOB_STAR;
  return "";
}

export function checkTheme(theme: string): string {
  if (theme.length == 0) return MSG_THEME_EMPTY;
  if (isZipPath(theme)) return "";
  if (theme.includes("/") || theme.includes("\\")) return MSG_THEME_PATH;
  return "";
}

export function isZipPath(theme: string): bool {
  return endsWithIgnoreCase(theme, ".zip");
}

/** A `presets` entry names a file when it starts with "." or "/" or ends in .ts, .js or .json. */
export function isPresetPath(entry: string): bool {
  return hasPrefix(entry, ".") || isAbsolutePath(entry) || hasSuffix(entry, ".ts") || hasSuffix(entry, ".js") || hasSuffix(entry, ".json");
}

/** Turns a checked text value into its resolved form: paths become absolute. */
export function normalizeValue(leaf: i32, value: string, baseDir: string): string {
  const type = LEAVES[leaf].type;
  if (type == TYPE_PATH || type == TYPE_PATHS) return resolvePath(baseDir, value);
  if (type == TYPE_THEME && isZipPath(value)) return resolvePath(baseDir, value);
  if (type == TYPE_PRESETS && isPresetPath(value)) return resolvePath(baseDir, value);
  return value;
}

function readTheme(ctx: DocContext, layer: Layer, value: JsonNode): void {
  if (value.kind != KIND_STRING) {
    error(ctx, "theme", value, "theme must be a string (\"auto\", \"none\", a theme name or a path ending in .zip)");
    return;
  }
  const problem = checkText(LEAF_THEME, value.text);
  if (problem.length > 0) {
    error(ctx, "theme", value, capitalize(problem));
    return;
  }
  layer.setText(LEAF_THEME, normalizeValue(LEAF_THEME, value.text, layer.baseDir), source(ctx, value));
}

function readScalar(ctx: DocContext, layer: Layer, leaf: i32, value: JsonNode): void {
  const def = LEAVES[leaf];
  const path = def.key;
  if (def.type == TYPE_BOOL) {
    if (value.kind != KIND_BOOL) error(ctx, path, value, path + " must be true or false");
    else layer.setFlag(leaf, value.flag, source(ctx, value));
    return;
  }
  if (value.kind != KIND_STRING) {
    const expected = def.type == TYPE_ENUM ? "one of " + quoteList(def.choices) : "a string (a path)";
    error(ctx, path, value, path + " must be " + expected);
    return;
  }
  const problem = checkText(leaf, value.text);
  if (problem.length > 0) {
    error(ctx, path, value, path + ": " + problem);
    return;
  }
  layer.setText(leaf, normalizeValue(leaf, value.text, layer.baseDir), source(ctx, value));
}

function readStringList(ctx: DocContext, layer: Layer, leaf: i32, path: string, value: JsonNode): void {
  const what = LEAVES[leaf].type == TYPE_GLOBS ? "module globs" : LEAVES[leaf].type == TYPE_PATHS ? "directory paths" : "preset names or paths";
  if (value.kind != KIND_ARRAY) {
    error(ctx, path, value, path + " must be an array of " + what);
    return;
  }
  const values = new Array<string>();
  const sources = new Array<string>();
  let ok = true;
  for (let i = 0, n = value.items.length; i < n; i++) {
    const item = value.items[i];
    const isString = item.kind == KIND_STRING;
    const problem = isString ? checkText(leaf, item.text) : "";
    if (!isString || problem.length > 0) {
      // The item's path is built only for a problem: most items have none.
      const at = itemPath(path, i);
      error(ctx, at, item, at + (isString ? ": " + problem : " must be a string"));
      ok = false;
      continue;
    }
    values.push(normalizeValue(leaf, item.text, layer.baseDir));
    sources.push(source(ctx, item));
  }
  if (ok) layer.addList(leaf, values, sources, source(ctx, value));
}

function readDetect(ctx: DocContext, layer: Layer, value: JsonNode): void {
  if (value.kind != KIND_ARRAY) {
    error(ctx, "detect", value, "detect must be an array of file globs (such as \"*.zip\")");
    return;
  }
  const globs = new Array<string>();
  for (let i = 0, n = value.items.length; i < n; i++) {
    const item = value.items[i];
    const empty = item.kind != KIND_STRING || item.text.length == 0;
    if (empty || hasNul(item.text)) {
      const at = itemPath("detect", i);
      error(ctx, at, item, empty ? format("%: % and must be a string", at, MSG_DETECT_EMPTY) : at + ": a detect glob" + MSG_NUL);
      continue;
    }
    globs.push(item.text);
    layer.detectSources.push(source(ctx, item));
  }
  layer.detect = globs;
}

function expectObject(ctx: DocContext, path: string, value: JsonNode, accepted: Array<string>): bool {
  if (value.kind != KIND_OBJECT) {
    error(ctx, path, value, path + " must be an object with the keys " + quoteList(accepted));
    return false;
  }
  let ok = true;
  for (let i = 0; i < value.keys.length; i++) {
    if (!accepted.includes(value.keys[i].text)) {
      unknownKey(ctx, path, value.keys[i].text, value.keys[i], accepted);
      ok = false;
    }
  }
  if (!ok) {
    // Validate the known keys anyway, so that every problem is reported at once.
    const known = new JsonNode();
    known.makeContainer(KIND_OBJECT);
    for (let i = 0; i < value.keys.length; i++) {
      if (accepted.includes(value.keys[i].text)) {
        known.keys.push(value.keys[i]);
        known.items.push(value.items[i]);
      }
    }
    value.keys = known.keys;
    value.items = known.items;
  }
  return true;
}

function unknownKey(ctx: DocContext, parent: string, key: string, span: Span, accepted: Array<string>): void {
  // Checked first: the suggestion is the costly part.
  if (!ctx.hasRoom()) return;
  const path = parent.length > 0 ? parent + "." + key : key;
  const where = parent.length > 0 ? "in " + parent : "at the top level";
  const shown = new Array<string>();
  for (let i = 0; i < accepted.length; i++) if (accepted[i] != "$schema") shown.push(accepted[i]);
  errorAtKey(ctx, path, span, format("Unknown key \"%\" %.% Accepted keys: %.", key, where, didYouMean(key, shown), shown.join(", ")));
}

/** Reports a value that is wrong: `message`, then what the value is (", found the number 3."). */
function error(ctx: DocContext, path: string, node: JsonNode, message: string): void {
  if (ctx.hasRoom()) ctx.errors.push(Diagnostic.at(SCHEMA_ERROR, path, foundText(message, node), ctx.file, ctx.positions ? node : null));
}

function errorAtKey(ctx: DocContext, path: string, span: Span, message: string): void {
  if (ctx.hasRoom()) ctx.errors.push(Diagnostic.at(SCHEMA_ERROR, path, message, ctx.file, ctx.positions ? span : null));
}

function source(ctx: DocContext, node: JsonNode): string {
  if (!ctx.positions) return ctx.file;
  return positionText(ctx.file, node.line, node.column);
}

function hasNul(s: string): bool {
  for (let i = 0, n = s.length; i < n; i++) if (s.charCodeAt(i) == 0) return true;
  return false;
}

function capitalize(s: string): string {
  const c = s.length > 0 ? s.charCodeAt(0) : 0;
  return c >= 0x61 && c <= 0x7a ? charText(c - 32) + s.slice(1) : s;
}
