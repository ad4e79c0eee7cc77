// ISO 8601 times in UTC, written without the local time zone: the state file, the lock and the names of kept copies.

/**
 * `date.toISOString()`, the same text, without V8 loading the local time zone: its first `toISOString` reads
 * `/etc/localtime` and sets up the zone (docs/performance.md#a-cached-create), though an ISO time in UTC never needs
 * it. Years outside 0–9999 and invalid dates are left to `toISOString` (its `±YYYYYY` form, its
 * `RangeError`).
 */
export function isoTime(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) return date.toISOString();
  return (
    `${pad(year, 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}` +
    `T${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}.${pad(date.getUTCMilliseconds(), 3)}Z`
  );
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}
