// The ASCII characters the core reads and writes, by name: JSON's punctuation, path and glob syntax, digits.
//
// Typed u8, the type of a byte of UTF-8 and of the writer's `put`: an `enum` is i32 and would need a cast at
// every store. `@inline`, so that each use compiles to the number itself, as the hex literal it replaces did.
// The standard library's CharCode (util/string) names digits and a few letters but none of JSON's punctuation,
// so one list here serves every module. Bit masks of UTF-8 and surrogates stay numbers.

@inline export const TAB: u8 = 0x09;
@inline export const LINE_FEED: u8 = 0x0a;
@inline export const CARRIAGE_RETURN: u8 = 0x0d;
/** Also the first printable character: every code below it is a control character. */
@inline export const SPACE: u8 = 0x20;
@inline export const EXCLAMATION: u8 = 0x21;
@inline export const QUOTE: u8 = 0x22;
@inline export const PERCENT: u8 = 0x25;
@inline export const STAR: u8 = 0x2a;
@inline export const PLUS: u8 = 0x2b;
@inline export const COMMA: u8 = 0x2c;
@inline export const MINUS: u8 = 0x2d;
@inline export const PERIOD: u8 = 0x2e;
@inline export const SLASH: u8 = 0x2f;
@inline export const DIGIT_0: u8 = 0x30;
@inline export const DIGIT_1: u8 = 0x31;
@inline export const DIGIT_5: u8 = 0x35;
@inline export const DIGIT_9: u8 = 0x39;
@inline export const COLON: u8 = 0x3a;
@inline export const QUESTION: u8 = 0x3f;
@inline export const UPPER_A: u8 = 0x41;
@inline export const UPPER_E: u8 = 0x45;
@inline export const UPPER_Z: u8 = 0x5a;
@inline export const OPEN_BRACKET: u8 = 0x5b;
@inline export const BACKSLASH: u8 = 0x5c;
@inline export const CLOSE_BRACKET: u8 = 0x5d;
@inline export const CARET: u8 = 0x5e;
@inline export const UNDERSCORE: u8 = 0x5f;
@inline export const LOWER_A: u8 = 0x61;
@inline export const LOWER_E: u8 = 0x65;
@inline export const LOWER_U: u8 = 0x75;
@inline export const LOWER_Z: u8 = 0x7a;
@inline export const OPEN_BRACE: u8 = 0x7b;
@inline export const CLOSE_BRACE: u8 = 0x7d;
/** The one ASCII control character above the printable ones. */
@inline export const DELETE: u8 = 0x7f;

/** The bit that sets an ASCII letter in lower case: `c | CASE_BIT` folds a letter's case. */
@inline export const CASE_BIT: u8 = 0x20;

// Two characters stored at once as a little-endian u16: the first in the low byte.
/** `":`, which ends a member's key. */
@inline export const QUOTE_COLON: u16 = 0x3a22;
/** `\u`, which starts a hexadecimal escape. */
@inline export const BACKSLASH_U: u16 = 0x755c;
