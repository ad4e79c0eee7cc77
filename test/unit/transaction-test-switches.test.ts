// Tests for the test-only switches of src/state/transaction.ts: they do nothing unless asked, and do what they say when asked.

import assert from "node:assert/strict";
import { test } from "node:test";
import { pauseForTest, testLockWaitMs } from "../../src/state/transaction.js";

test("testLockWaitMs: a whole or decimal number of ms, else the usual wait", () => {
  assert.equal(testLockWaitMs({}), undefined);
  assert.equal(testLockWaitMs({ __DROPKIT_TEST_LOCK_WAIT_MS: "600" }), 600);
  assert.equal(testLockWaitMs({ __DROPKIT_TEST_LOCK_WAIT_MS: "0" }), 0);
  for (const bad of ["-1", "soon", "Infinity"]) assert.equal(testLockWaitMs({ __DROPKIT_TEST_LOCK_WAIT_MS: bad }), undefined, bad);
});

test("pauseForTest: at once when unset or another point; at its point it waits until SIGUSR2", async () => {
  const started = performance.now();
  await pauseForTest("staged", {});
  await pauseForTest("staged", { __DROPKIT_TEST_STATE_PAUSE: "committed" });
  assert.ok(performance.now() - started < 1000);
  const written: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((text: string) => written.push(text)) as typeof process.stderr.write;
  try {
    const paused = pauseForTest("copied", { __DROPKIT_TEST_STATE_PAUSE: "copied" });
    assert.deepEqual(written, [`__dropkit_test_state_pause copied ${process.pid}\n`]);
    process.kill(process.pid, "SIGUSR2");
    await paused;
  } finally {
    process.stderr.write = write;
  }
});
