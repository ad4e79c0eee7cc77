// Glob matching of preset detect globs over file paths (module globs are select.ts's).

import { CARET, EXCLAMATION, MINUS, OPEN_BRACKET, QUESTION, SLASH, STAR } from "../json/chars";
/**
 * Whether a relative file path matches a detect glob: '*' and '?' stay within one path segment,
 * '**' spans segments, "[abc]" is a class; a leading "./" is ignored. Matching is iterative with
 * backtracking, so no input makes it recurse or run away.
 */
export function matchFile(glob: string, path: string): bool {
  const g = glob.startsWith("./") ? glob.slice(2) : glob;
  const p = path.startsWith("./") ? path.slice(2) : path;
  const gn = g.length;
  const pn = p.length;
  let gi = 0;
  let pi = 0;
  // Two backtrack points: the last '*' (within one segment) and the last '**' (across segments).
  let starG = -1;
  let starP = -1;
  let deepG = -1;
  let deepP = -1;
  let deepSlash = false;
  while (pi < pn) {
    if (gi < gn) {
      const c = g.charCodeAt(gi);
      if (c == STAR) {
        if (gi + 1 < gn && g.charCodeAt(gi + 1) == STAR) {
          gi += 2;
          // "**/" matches zero or more whole directories.
          deepSlash = gi < gn && g.charCodeAt(gi) == SLASH;
          if (deepSlash) gi++;
          deepG = gi;
          deepP = pi;
          starG = -1;
        } else {
          gi++;
          starG = gi;
          starP = pi;
        }
        continue;
      }
      if (c == QUESTION && p.charCodeAt(pi) != SLASH) {
        gi++;
        pi++;
        continue;
      }
      if (c == OPEN_BRACKET) {
        const close = g.indexOf("]", gi + 1);
        if (close > gi + 1 && classMatches(g.slice(gi + 1, close), p.charCodeAt(pi))) {
          gi = close + 1;
          pi++;
          continue;
        }
      } else if (c == p.charCodeAt(pi) && c != QUESTION) {
        gi++;
        pi++;
        continue;
      }
    }
    // Backtrack: let the last '*' swallow one more character ('*' never swallows a '/') ...
    if (starG >= 0 && p.charCodeAt(starP) != SLASH) {
      starP++;
      pi = starP;
      gi = starG;
      continue;
    }
    // ... or else the last '**' one more character ("**/": one more whole directory).
    if (deepG >= 0) {
      if (deepSlash) {
        const slash = p.indexOf("/", deepP);
        if (slash < 0) return false;
        deepP = slash + 1;
      } else {
        deepP++;
      }
      pi = deepP;
      gi = deepG;
      starG = -1;
      continue;
    }
    return false;
  }
  while (gi < gn && g.charCodeAt(gi) == STAR) gi++;
  return gi == gn;
}

function classMatches(cls: string, c: i32): bool {
  let negate = false;
  let i = 0;
  if (cls.length > 0 && (cls.charCodeAt(0) == EXCLAMATION || cls.charCodeAt(0) == CARET)) {
    negate = true;
    i = 1;
  }
  let hit = false;
  while (i < cls.length) {
    const lo = cls.charCodeAt(i);
    if (i + 2 < cls.length && cls.charCodeAt(i + 1) == MINUS) {
      if (c >= lo && c <= cls.charCodeAt(i + 2)) hit = true;
      i += 3;
    } else {
      if (c == lo) hit = true;
      i++;
    }
  }
  return hit != negate;
}
