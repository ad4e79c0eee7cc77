// The test-only hooks (`__DROPKIT_TEST_*`): a pause at a point of the state transaction's commit, and shorter waits for the lock and for a config to settle.

/** The points of the transaction where a test can pause the process (see `pauseForTest`): before the lock, and in the commit. */
export const testPausePoints = ["locking", "staged", "copied", "committed"] as const;

/**
 * Test-only: when `__DROPKIT_TEST_STATE_PAUSE` names this point, says so on stderr and waits up to 10 s
 * (or until SIGUSR2), so that a test can kill the process there or change files under it. The name is
 * outside the `DROPKIT_*` namespace on purpose: it is not configuration. Unset (always, outside tests), it
 * does nothing.
 */
export async function pauseForTest(point: (typeof testPausePoints)[number], env: NodeJS.ProcessEnv): Promise<void> {
  if (env.__DROPKIT_TEST_STATE_PAUSE !== point) return;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      process.removeListener("SIGUSR2", done);
      resolve();
    };
    const timer = setTimeout(done, 10_000);
    // Listening before saying so: a test may send the signal as soon as it reads the line.
    process.once("SIGUSR2", done);
    process.stderr.write(`__dropkit_test_state_pause ${point} ${process.pid}\n`);
  });
}

/**
 * Test-only: the lock wait in ms that `__DROPKIT_TEST_LOCK_WAIT_MS` asks for (tests of many concurrent runs on a
 * loaded machine let them all take their turn), or `undefined` for the usual wait. Outside the `DROPKIT_*`
 * namespace, like `__DROPKIT_TEST_STATE_PAUSE`.
 */
export function testLockWaitMs(env: NodeJS.ProcessEnv): number | undefined {
  const waitMs = Number(env.__DROPKIT_TEST_LOCK_WAIT_MS);
  return Number.isFinite(waitMs) && waitMs >= 0 ? waitMs : undefined;
}

/**
 * Test-only: the time in ms that `__DROPKIT_TEST_CONFIG_SETTLE_MS` gives a config to settle while something keeps the
 * process alive (tests of a config that never settles need not wait a minute), or `undefined` for
 * `limits.configSettleMs`. Outside the `DROPKIT_*` namespace, like `__DROPKIT_TEST_STATE_PAUSE`.
 */
export function testConfigSettleMs(env: NodeJS.ProcessEnv): number | undefined {
  const ms = Number(env.__DROPKIT_TEST_CONFIG_SETTLE_MS);
  return env.__DROPKIT_TEST_CONFIG_SETTLE_MS !== undefined && Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

/**
 * Test-only: `__DROPKIT_TEST_TS_LOADER=jiti` has `.ts` files compiled by jiti even where Node could strip their types
 * (src/config/native.ts), so that the tests check both loading paths on one runtime. Outside the `DROPKIT_*` namespace, like
 * `__DROPKIT_TEST_STATE_PAUSE`.
 */
export function testTsLoader(env: NodeJS.ProcessEnv): "jiti" | undefined {
  return env.__DROPKIT_TEST_TS_LOADER === "jiti" ? "jiti" : undefined;
}
