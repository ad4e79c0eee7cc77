// A worker thread of the digest pool: takes jobs from the shared queue until it is empty, posting results in batches.

import { parentPort, workerData } from "node:worker_threads";
import { digestArchive, type Digest, type DigestJob } from "./digest.js";

/** What the pool gives each worker. */
export interface DigestWorkerData {
  jobs: DigestJob[];
  /** Int32 slots: [0] the next job to take, [1] jobs done. */
  queue: SharedArrayBuffer;
  /** BigInt64 slot [0]: bytes hashed so far, by every worker. */
  bytes: SharedArrayBuffer;
}

/** A batch of results, by job index; an empty batch with `done` says the worker has finished. */
export interface DigestWorkerMessage {
  results: Array<[number, Digest]>;
  done: boolean;
}

/** Results are posted at least this often (ms), so that a slow batch does not hold back the others. */
const postIntervalMs = 50;
/** ... or when this many are waiting: one message per archive would cost more than reading a small one. */
const batchSize = 256;

if (parentPort) runWorker(workerData as DigestWorkerData, (message) => parentPort!.postMessage(message));

function runWorker(data: DigestWorkerData, post: (message: DigestWorkerMessage) => void): void {
  const queue = new Int32Array(data.queue);
  const bytes = new BigInt64Array(data.bytes);
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  const onBytes = (n: number): void => {
    Atomics.add(bytes, 0, BigInt(n));
  };
  let pending: Array<[number, Digest]> = [];
  let postedAt = performance.now();
  for (;;) {
    const i = Atomics.add(queue, 0, 1);
    if (i >= data.jobs.length) break;
    pending.push([i, digestArchive(data.jobs[i]!, buffer, onBytes)]);
    Atomics.add(queue, 1, 1);
    const now = performance.now();
    if (pending.length >= batchSize || now - postedAt >= postIntervalMs) {
      post({ results: pending, done: false });
      pending = [];
      postedAt = now;
    }
  }
  post({ results: pending, done: true });
}
