// The core's fixed message texts, named so that hosts and tests can rely on them.

export const MSG_EMPTY = "The text is empty: expected a JSON value such as {}";
export const MSG_TRAILING = "Unexpected text after the JSON value: found ";
export const MSG_EXPECTED_VALUE = "Expected a JSON value (object, array, string, number, true, false or null), found ";
export const MSG_EXPECTED_KEY = "Expected a property name in double quotes, found ";
export const MSG_TRAILING_COMMA = "Trailing comma: remove the ',' before ";
export const MSG_EXPECTED_COLON = "Expected ':' after the property name, found ";
export const MSG_EXPECTED_COMMA_OBJECT = "Expected ',' or '}' after the property value, found ";
export const MSG_EXPECTED_COMMA_ARRAY = "Expected ',' or ']' after the array item, found ";
export const MSG_UNTERMINATED_STRING = "Unterminated string: add the closing '\"'";
export const MSG_CONTROL_CHAR = "Control character in a string: write it escaped, such as \\n or \\t";
export const MSG_BAD_ESCAPE = 'Invalid escape in a string: use one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX';
export const MSG_BAD_UNICODE_ESCAPE = "Invalid \\u escape: expected four hexadecimal digits";
export const MSG_BAD_UTF8 = "The text is not valid UTF-8: save the file as UTF-8";
export const MSG_BAD_NUMBER = "Invalid number: JSON numbers look like 1, -2.5 or 1e3, found ";
export const MSG_TOO_DEEP = "Nesting is deeper than 128 levels: a dropkit config is never that deep";

export const MSG_NOT_OBJECT = "A dropkit config must be a JSON object";
export const MSG_PACKAGE_NOT_OBJECT = "package.json must hold a JSON object";
export const MSG_SCHEMA_VALUE = "schema must be the number 1 (the only config schema version)";
export const MSG_THEME_EMPTY = 'theme must not be empty: use "auto", "none", a theme name or a path ending in .zip';
// A theme of only white space would name an archive no one can see; the value is shown escaped after "found".
export const MSG_THEME_BLANK = 'theme must not be only white space: use "auto", "none", a theme name or a path ending in .zip';
export const MSG_THEME_PATH = "a theme path must end in .zip; a theme name has no '/' or '\\'";
export const MSG_GLOB_EMPTY = "a module glob must not be empty";
export const MSG_GLOB_STAR = "a module glob may hold one '*', only at its end (such as \"shop-*\")";
export const MSG_GLOB_SLASH = "a module glob is a module name (an archive's file name without .zip), not a path";
export const MSG_DETECT_EMPTY = "a detect glob must not be empty";
export const MSG_PATH_EMPTY = "a path must not be empty";
// One string, continued on the next line (a backslash before the line break adds nothing to it).
export const MSG_CACHE_FILE_DIR =
  'a path ending in a separator names a directory, and the cache is a file: name the file \
(such as "sub/.dropkit-cache.json"), or leave cache.file out for the default .dropkit-cache.json';
export const MSG_PRESET_EMPTY = "a preset name must not be empty";
export const MSG_NUL = " must not contain a NUL character (\\u0000), which no file name can hold: remove it";
export const MSG_PRESET_ONLY_KEY = "is not allowed in a preset: a preset holds only theme, modules, exclude, hooks, cache, log and detect";

export const MSG_REQUEST_NOT_JSON = "The request is not valid JSON";
export const MSG_REQUEST_NOT_OBJECT = 'The request must be a JSON object with an "op"';
export const MSG_REQUEST_UNKNOWN_OP = "Unknown op: expected one of validate, resolve, presets, parse, suggest";
