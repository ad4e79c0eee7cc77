// A global replaced for as long as any of several overlapping loads needs it (process.exit by evaluate.ts, node:vm's runInThisContext by stack.ts).
// A module of its own, as both patches use it and it belongs to neither (stack.ts, which evaluate.ts imports, is about
// where a config failed).

/**
 * A wrapper that runs functions with a patch in place: `install` puts it in and returns what takes it out. Runs may
 * overlap (the library can load two configs at once) and end in any order: the first to start installs the patch and
 * the last to end removes it, so no run ever puts back another run's patch as if it were the original.
 *
 * @param install - Installs the patch; returns the function that removes it.
 */
export function sharedPatch(install: () => () => void): <T>(run: () => Promise<T>) => Promise<T> {
  let active = 0;
  let remove: (() => void) | undefined;
  return async (run) => {
    if (active++ === 0) remove = install();
    try {
      return await run();
    } finally {
      if (--active === 0) {
        remove?.();
        remove = undefined;
      }
    }
  };
}
