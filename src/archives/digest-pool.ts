// Reading archives on every CPU: worker threads share one queue of jobs; small work stays on the main thread, where no worker has to start.

import { availableParallelism } from "node:os";
import type { Worker as WorkerType } from "node:worker_threads";
import { builtFile } from "../installed.js";
import { digestArchive, type Digest, type DigestJob } from "./digest.js";
import type { DigestWorkerData, DigestWorkerMessage } from "./digest-worker.js";

/** A job with the size the caller's `stat` saw, to plan the work. */
export interface SizedJob extends DigestJob {
  size: number;
}

/** Options of `digestArchives`. */
export interface DigestOptions {
  /** Called about ten times a second while workers run, and once at the end, with archives done and bytes hashed. */
  onProgress?: (done: number, bytes: number) => void;
  /** Stops the workers; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** How many worker threads at most. @default os.availableParallelism() */
  threads?: number;
}

/**
 * Work below this estimate (ms) is done on the main thread: starting a worker costs about this much, so that a
 * re-run with a few changed archives is not slower than reading them in place.
 */
const inPlaceBudgetMs = 40;
/** Hashing speed assumed by the estimate: one CPU with SHA extensions, bytes per ms. */
const bytesPerMs = 1_000_000;
/** Cost assumed per archive besides its bytes (open, stat, the zip records, close), ms. */
const perArchiveMs = 0.03;
/** How often the progress callback is called while workers run, ms. */
const progressIntervalMs = 100;

/**
 * Reads every job's archive once (SHA-256 and the zip check, as each job asks) and returns the digests in job
 * order. Large work goes to one worker thread per CPU (at most one per job), which take the jobs largest first
 * from a shared queue; the main thread only collects results, so it stays free for the progress line and signals.
 */
export async function digestArchives(jobs: SizedJob[], options: DigestOptions = {}): Promise<Digest[]> {
  const threads = planThreads(jobs, options.threads ?? availableParallelism());
  return threads === 0 ? digestInPlace(jobs, options) : digestInWorkers(jobs, threads, options);
}

/** How many worker threads to read `jobs` with: 0 (the main thread) when the work is smaller than starting a worker, else one per CPU, at most one per job. */
export function planThreads(jobs: SizedJob[], cpus: number): number {
  // The check reads every entry's data too (its CRC-32, inflating deflated entries): counted as much as hashing.
  const hashBytes = jobs.reduce((sum, j) => sum + (j.hash ? j.size : 0) + (j.check ? j.size : 0), 0);
  const estimateMs = hashBytes / bytesPerMs + jobs.length * perArchiveMs;
  return estimateMs < inPlaceBudgetMs ? 0 : Math.max(0, Math.min(cpus, jobs.length));
}

/** Where the built worker script is: dist/digest-worker.cjs, also when this module runs from src/ (tests). */
export function workerScript(): string {
  return builtFile("digest-worker.cjs");
}

// --- helpers ---

function digestInPlace(jobs: SizedJob[], options: DigestOptions): Digest[] {
  options.signal?.throwIfAborted();
  let bytes = 0;
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  const digests = jobs.map((job) => digestArchive(job, buffer, (n) => (bytes += n)));
  options.onProgress?.(jobs.length, bytes);
  return digests;
}

async function digestInWorkers(jobs: SizedJob[], threads: number, options: DigestOptions): Promise<Digest[]> {
  const { Worker } = await import("node:worker_threads");
  options.signal?.throwIfAborted();
  // Largest first, so that no core is left with one big archive at the end while the others are idle.
  const order = jobs.map((_, i) => i).sort((a, b) => jobs[b]!.size - jobs[a]!.size);
  const data: DigestWorkerData = {
    jobs: order.map((i) => ({ file: jobs[i]!.file, hash: jobs[i]!.hash, check: jobs[i]!.check })),
    queue: new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT),
    bytes: new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT),
  };
  const queue = new Int32Array(data.queue);
  const bytes = new BigInt64Array(data.bytes);
  const report = (): void => options.onProgress?.(Atomics.load(queue, 1), Number(Atomics.load(bytes, 0)));
  const digests = new Array<Digest>(jobs.length);
  const workers: WorkerType[] = [];
  const timer = options.onProgress ? setInterval(report, progressIntervalMs) : undefined;
  timer?.unref();
  try {
    await new Promise<void>((resolve, reject) => {
      let running = threads;
      const onAbort = (): void => reject(options.signal!.reason);
      options.signal?.addEventListener("abort", onAbort, { once: true });
      const settle = (error?: unknown): void => {
        options.signal?.removeEventListener("abort", onAbort);
        if (error === undefined) resolve();
        else reject(error);
      };
      for (let t = 0; t < threads; t++) {
        const worker = new Worker(workerScript(), { workerData: data, stdout: false, stderr: false });
        workers.push(worker);
        worker.on("message", (message: DigestWorkerMessage) => {
          for (const [i, digest] of message.results) digests[order[i]!] = digest;
          if (message.done && --running === 0) settle();
        });
        worker.on("error", (error) =>
          settle(new Error(`An archive reading thread failed: ${error instanceof Error ? error.message : String(error)}`)),
        );
        worker.on("exit", (code) => {
          if (code !== 0) settle(new Error(`An archive reading thread stopped with code ${code}.`));
        });
      }
    });
  } finally {
    if (timer) clearInterval(timer);
    // Workers have ended by themselves on success; on failure or abort they are stopped mid-file.
    await Promise.all(workers.map((w) => w.terminate()));
  }
  report();
  return digests;
}
