// The mark of a run that did work the next runs skip: set where the work is done (the archives read into the fingerprint
// cache), read by the bin before it saves V8 code caches. Process-global, since the bin and the bundle it runs each hold a
// copy of this module.

/** Shared by every copy of this module in the process (the bin's and the bundle's). */
const oneOffWork = Symbol.for("dropkit.oneOffWork");

/**
 * Marks this run as one that read archives into the fingerprint cache: work the next runs in the drop skip. The bin
 * saves a missing code cache at exit holding every function the run compiled, so such a run saves none: the next run
 * saves the cache later runs load, without the archive reading's code, which a cached `create` would otherwise load on
 * every start (docs/performance.md#v8-code-caches). Read by the bin through `didOneOffWork`.
 */
export function markOneOffWork(): void {
  (globalThis as Record<symbol, unknown>)[oneOffWork] = true;
}

/** Whether this run called `markOneOffWork`. */
export function didOneOffWork(): boolean {
  return (globalThis as Record<symbol, unknown>)[oneOffWork] === true;
}
