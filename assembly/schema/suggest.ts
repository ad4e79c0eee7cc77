// Did-you-mean: the closest accepted name to a mistyped one, for every message of dropkit (the host asks through the `suggest` op).

import { CASE_BIT, UPPER_A } from "../json/chars";
import { asciiLower } from "../json/strings";

/**
 * The closest of candidates offered one by one (the first of equally close ones), when it is close enough: about one
 * edit per three characters of the word, at least two, and fewer than the word is long, so "colour" finds "color" and
 * "x" finds nothing. Each candidate is measured in rows of scratch space the finder owns and abandoned once it cannot
 * beat the best so far: thousands of module names cost no allocation each.
 */
export class Closest {
  private word: string;
  private limit: i32;
  private bestDistance: i32 = i32.MAX_VALUE;
  private best: string = "";
  // Three rows of the distance table, reused from candidate to candidate.
  private scratch: StaticArray<i32> = new StaticArray<i32>(0);

  constructor(word: string) {
    this.word = asciiLower(word);
    this.limit = max<i32>(2, this.word.length / 3);
  }

  /** Offers `candidate`, or its first `prefix` units (a prefix of a name, for a glob's stem). */
  offer(candidate: string, prefix: i32 = -1): void {
    const m = prefix >= 0 ? min<i32>(prefix, candidate.length) : candidate.length;
    if (this.measure(changetype<usize>(candidate), m)) this.best = m == candidate.length ? candidate : candidate.slice(0, m);
  }

  /** The closest candidate as it is spelt, or "" when none is close. */
  result(): string {
    return this.bestDistance <= this.limit && this.bestDistance < this.word.length ? this.best : "";
  }

  /** Whether the `m` units at `b` are closer than every candidate before them and within the limit. */
  private measure(b: usize, m: i32): bool {
    // Only a candidate at most this far can be the answer: closer than the best so far, and within the limit.
    const cutoff = min<i32>(this.bestDistance - 1, this.limit);
    const n = this.word.length;
    // At least as many edits away as the lengths differ: not worth measuring.
    if (abs<i32>(m - n) > cutoff) return false;
    if (this.scratch.length < 3 * (m + 1)) this.scratch = new StaticArray<i32>(3 * (m + 16));
    const d = distance(changetype<usize>(this.word), n, b, m, cutoff, this.scratch);
    if (d > cutoff) return false;
    this.bestDistance = d;
    return true;
  }
}

/** The closest candidate to `word` by edit distance (case-insensitive), or "" when none is close. */
export function suggest(word: string, candidates: Array<string>): string {
  const closest = new Closest(word);
  for (let i = 0, n = candidates.length; i < n; i++) closest.offer(unchecked(candidates[i]));
  return closest.result();
}


/** " Did you mean "X"?" for a suggestion, or "" for none. */
export function quoted(suggestion: string): string {
  return suggestion.length > 0 ? " Did you mean \"" + suggestion + "\"?" : "";
}

/**
 * The distance between the `n` units at `a` (in lower case) and the `m` units at `b` (ASCII letters folded here), in
 * three rows of `rows`; any number past `cutoff` once it is sure to end past it (two rows in a row entirely past it:
 * every later cell comes from one of them at no less, or from the row before them plus a swap).
 */
function distance(a: usize, n: i32, b: usize, m: i32, cutoff: i32, rows: StaticArray<i32>): i32 {
  if (n == 0) return m;
  if (m == 0) return n;
  const stride = <usize>(m + 1) << 2;
  let prev2 = changetype<usize>(rows);
  let prev = prev2 + stride;
  let cur = prev + stride;
  for (let j = 0; j <= m; j++) store<i32>(prev + (<usize>j << 2), j);
  let prevMin = 0;
  for (let i = 1; i <= n; i++) {
    store<i32>(cur, i);
    let rowMin = i;
    const ca = <i32>load<u16>(a + (<usize>(i - 1) << 1));
    const ca2 = i > 1 ? <i32>load<u16>(a + (<usize>(i - 2) << 1)) : -1;
    for (let j = 1; j <= m; j++) {
      const cb = unitOf(b, j - 1);
      const at = <usize>j << 2;
      let v = min<i32>(min<i32>(load<i32>(prev + at) + 1, load<i32>(cur + at - 4) + 1), load<i32>(prev + at - 4) + (ca == cb ? 0 : 1));
      if (i > 1 && j > 1 && ca == unitOf(b, j - 2) && ca2 == cb) v = min<i32>(v, load<i32>(prev2 + at - 8) + 1);
      store<i32>(cur + at, v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > cutoff && prevMin > cutoff) return cutoff + 1;
    prevMin = rowMin;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return load<i32>(prev + (<usize>m << 2));
}

/** Unit `j` of the units at `b`, ASCII letters in lower case. */
@inline function unitOf(b: usize, j: i32): i32 {
  const c = <i32>load<u16>(b + (<usize>j << 1));
  return <u32>(c - UPPER_A) < 26 ? c | CASE_BIT : c;
}
