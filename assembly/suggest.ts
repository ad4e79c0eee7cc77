// Did-you-mean: the closest accepted name to a mistyped one, for every message of dropkit (the host asks through the `suggest` op).

import { asciiLower } from "./text";

/** The closest candidate to `word` by edit distance (case-insensitive), or "" when none is close. */
export function suggest(word: string, candidates: Array<string>): string {
  const lower = asciiLower(word);
  let best = "";
  let bestDistance = i32.MAX_VALUE;
  // Allow about one edit per three characters, at least two, so "colour" finds "color" but "x" finds nothing.
  const limit = max<i32>(2, lower.length / 3);
  for (let i = 0, n = candidates.length; i < n; i++) {
    const candidate = candidates[i];
    // At least as many edits away as the lengths differ: past the limit, never the answer, so not worth measuring
    // (a name of a megabyte against short candidates stays cheap).
    if (abs<i32>(candidate.length - lower.length) > limit) continue;
    const d = editDistance(lower, asciiLower(candidate));
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return bestDistance <= limit && bestDistance < lower.length ? best : "";
}

/** " Did you mean X?" or "". */
export function didYouMean(word: string, candidates: Array<string>): string {
  const s = suggest(word, candidates);
  return s.length > 0 ? " Did you mean \"" + s + "\"?" : "";
}

/** Levenshtein distance with adjacent transpositions counted as one edit. */
export function editDistance(a: string, b: string): i32 {
  const n = a.length;
  const m = b.length;
  if (n == 0) return m;
  if (m == 0) return n;
  let prev2 = new StaticArray<i32>(m + 1);
  let prev = new StaticArray<i32>(m + 1);
  let cur = new StaticArray<i32>(m + 1);
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= m; j++) {
      const cb = b.charCodeAt(j - 1);
      const cost = ca == cb ? 0 : 1;
      let v = min<i32>(min<i32>(prev[j] + 1, cur[j - 1] + 1), prev[j - 1] + cost);
      if (i > 1 && j > 1 && ca == b.charCodeAt(j - 2) && a.charCodeAt(i - 2) == cb) v = min<i32>(v, prev2[j - 2] + 1);
      cur[j] = v;
    }
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[m];
}
