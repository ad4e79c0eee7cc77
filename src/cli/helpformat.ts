// The help's colours at the depth asked for: clipanion's rich format draws its headers in 256 colours whatever the depth, one code out of range.

import { forcedColor } from "../output/log.js";

/** How the help marks its parts: clipanion's `format` interface. */
export interface HelpFormat {
  header: (text: string) => string;
  bold: (text: string) => string;
  error: (text: string) => string;
  code: (text: string) => string;
}

/** Colour levels as chalk and supports-color number them: 1 is 16 colours, 2 is 256, 3 is 24-bit. */
export type ColorLevel = 1 | 2 | 3;

/**
 * The colour level when colours are on: `FORCE_COLOR` 1 (or true) asks for 16 colours, 2 for 256, 3 for 24-bit;
 * otherwise the terminal's colour depth (`depth`, in bits, as Node's `getColorDepth` reads TERM and COLORTERM) decides.
 * At least 16: colours are on (src/output/log.ts, `shouldColor`) whatever else FORCE_COLOR says.
 */
export function colorLevel(env: NodeJS.ProcessEnv, depth: () => number): ColorLevel {
  const force = forcedColor(env);
  if (typeof force === "string") {
    // A number above 3 is 24-bit, as supports-color caps it; anything else (true, yes) is 16 colours.
    const n = Number.parseInt(force, 10);
    return n >= 3 ? 3 : n === 2 ? 2 : 1;
  }
  const bits = depth();
  return bits >= 24 ? 3 : bits >= 8 ? 2 : 1;
}

/** How wide a header's line is, as clipanion draws it. */
const LINE_WIDTH = 80;
/** How many characters at the end of a header's line fade out (256-colour greys 255 down to 232: all of them). */
const FADE = 24;

/**
 * The help's format at `level`: bold headers ruled with `━`, whose last 24 characters fade from light to dark grey
 * in 256 or 24-bit colour and stay plain in 16; bold, red errors and cyan code use the 16 basic colours.
 */
export function helpFormat(level: ColorLevel): HelpFormat {
  const line: string[] = Array(LINE_WIDTH).fill("━");
  if (level >= 2) {
    for (let i = 0; i < FADE; i++) {
      // Grey i of the fade: 256-colour code 255 - i, or its 24-bit value (the 256-colour greys are 8 + 10 * (code - 232)).
      const code = 255 - i;
      const grey = 8 + 10 * (code - 232);
      line[LINE_WIDTH - FADE + i] = `\x1b[${level === 3 ? `38;2;${grey};${grey};${grey}` : `38;5;${code}`}m━`;
    }
  }
  return {
    header: (text) => `\x1b[1m━━━ ${text}${text.length < LINE_WIDTH - 5 ? ` ${line.slice(text.length + 5).join("")}` : ":"}\x1b[0m`,
    bold: (text) => `\x1b[1m${text}\x1b[22m`,
    error: (text) => `\x1b[31m\x1b[1m${text}\x1b[22m\x1b[39m`,
    code: (text) => `\x1b[36m${text}\x1b[39m`,
  };
}
