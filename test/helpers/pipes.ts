// A reader that comes late to a full pipe left non-blocking (EAGAIN for the writer), made with python3.

import { spawnSync, type SpawnSyncOptions } from "node:child_process";

/**
 * Runs `command` with its stderr on a pipe whose write end is non-blocking, reads nothing for `delaySeconds` (so the
 * pipe fills and the writer meets EAGAIN), then reads to the end and saves what arrived in `out`. The result's
 * status is the command's, or 99 when it has not ended `timeoutSeconds` after the reading started (it is killed).
 */
export function runWithLateReader(
  command: string[],
  out: string,
  options: Omit<SpawnSyncOptions, "encoding"> & { delaySeconds?: number; timeoutSeconds?: number } = {},
) {
  const { delaySeconds = 1, timeoutSeconds = 60, ...spawnOptions } = options;
  const python = `
import os, subprocess, sys, time
r, w = os.pipe()
os.set_blocking(w, False)
p = subprocess.Popen(sys.argv[1:], stderr=w, stdout=subprocess.DEVNULL)
os.close(w)
time.sleep(${delaySeconds})
data = b""
while True:
    chunk = os.read(r, 65536)
    if not chunk: break
    data += chunk
open(${JSON.stringify(out)}, "wb").write(data)
try:
    sys.exit(p.wait(timeout=${timeoutSeconds}))
except subprocess.TimeoutExpired:
    p.kill()
    sys.exit(99)
`;
  return spawnSync("python3", ["-c", python, ...command], { timeout: 120_000, ...spawnOptions, encoding: "utf8" });
}
