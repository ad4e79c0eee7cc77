// Tests for src/archives/digest-pool.ts and src/archives/digest.ts: the same digests on the main thread and in worker threads.
// Also progress, abort, and unreadable files.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { describe, test } from "node:test";
import { digestArchives, planThreads, workerScript, type SizedJob } from "../../src/archives/digest-pool.js";
import { tempDir } from "../helpers/temp.js";
import { writeSparseZip } from "../helpers/zips.js";

const sha = (bytes: Buffer): string => createHash("sha256").update(bytes).digest("hex");

describe("planThreads", () => {
  const job = (size: number, hash = true): SizedJob => ({ file: "/x", size, hash, check: true });
  test("small work stays on the main thread, where no worker has to start", () => {
    assert.equal(planThreads([], 8), 0);
    assert.equal(planThreads([job(1000), job(2_000_000)], 8), 0);
    // A job that only checks reads the data too (its CRC-32, inflating deflated entries): its size counts.
    assert.equal(planThreads([job(500_000_000, false)], 8), 1);
  });
  test("large work gets a thread per CPU, at most one per archive", () => {
    assert.equal(planThreads([job(200_000_000)], 8), 1);
    assert.equal(planThreads([job(200_000_000), job(1), job(1)], 2), 2);
    // Many small archives are work too: opening and reading each one's records.
    assert.equal(
      planThreads(
        Array.from({ length: 5000 }, () => job(2000)),
        2,
      ),
      2,
    );
  });
});

describe("digestArchives", () => {
  test("the worker script is built where the pool looks for it", () => {
    assert.ok(fs.existsSync(workerScript()), workerScript());
  });

  for (const [where, megabytes, threads] of [
    ["the main thread", 1, 2],
    ["worker threads", 40, 2],
    ["one worker thread", 40, 1],
  ] as const) {
    test(`on ${where}: sha256, identity (device, inode, size, mtime, ctime) and the zip verdict of each archive, in job order`, async () => {
      const dir = tempDir();
      const files = ["a.zip", "b.zip", "c.zip"].map((n) => path.join(dir, n));
      const contents = files.map((f, i) => {
        writeSparseZip(f, (megabytes + i) * 1_000_000);
        return fs.readFileSync(f);
      });
      fs.writeFileSync(path.join(dir, "notes.zip"), "meeting notes");
      const jobs: SizedJob[] = [...files, path.join(dir, "notes.zip")].map((file) => ({
        file,
        size: fs.statSync(file).size,
        hash: true,
        check: true,
      }));
      assert.equal(planThreads(jobs, threads) > 0, megabytes > 1, "the case runs where its name says");
      const progress: Array<[number, number]> = [];
      const digests = await digestArchives(jobs, { threads, onProgress: (done, bytes) => progress.push([done, bytes]) });
      for (const [i, file] of files.entries()) {
        const { dev, ino, mtimeMs, ctimeMs } = fs.statSync(file);
        assert.deepEqual(digests[i], {
          ok: true,
          dev,
          ino,
          size: contents[i]!.length,
          mtimeMs,
          ctimeMs,
          sha256: sha(contents[i]!),
          zip: { ok: true, entries: 1, verified: 1 },
        });
      }
      assert.equal(digests[3]!.ok && digests[3]!.zip?.ok, false);
      // Progress only grows, and ends with everything.
      const total = jobs.reduce((s, j) => s + j.size, 0);
      assert.deepEqual(progress.at(-1), [4, total]);
      for (let i = 1; i < progress.length; i++) assert.ok(progress[i]![0] >= progress[i - 1]![0] && progress[i]![1] >= progress[i - 1]![1]);
    });
  }

  test("a job that only checks verifies the data without hashing it", async () => {
    const dir = tempDir();
    const file = path.join(dir, "a.zip");
    writeSparseZip(file, 60_000_000);
    const [digest] = await digestArchives([{ file, size: fs.statSync(file).size, hash: false, check: true }]);
    const { dev, ino, size, mtimeMs, ctimeMs } = fs.statSync(file);
    assert.deepEqual(digest, { ok: true, dev, ino, size, mtimeMs, ctimeMs, zip: { ok: true, entries: 1, verified: 1 } });
  });

  test("an archive that cannot be read gives its error code, on either side", async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, "dir.zip"));
    const big = path.join(dir, "big.zip");
    writeSparseZip(big, 60_000_000);
    const jobs: SizedJob[] = [
      { file: path.join(dir, "gone.zip"), size: 0, hash: true, check: true },
      { file: path.join(dir, "dir.zip"), size: 0, hash: true, check: true },
    ];
    for (const extra of [[], [{ file: big, size: fs.statSync(big).size, hash: true, check: true }]]) {
      const digests = await digestArchives([...jobs, ...extra], { threads: 2 });
      assert.deepEqual(digests.slice(0, 2), [
        { ok: false, code: "ENOENT" },
        { ok: false, code: "EISDIR" },
      ]);
    }
  });

  test("an abort stops the workers and rejects with the signal's reason", async () => {
    const dir = tempDir();
    const jobs: SizedJob[] = ["a.zip", "b.zip"].map((n) => {
      const file = path.join(dir, n);
      writeSparseZip(file, 2_000_000_000);
      return { file, size: fs.statSync(file).size, hash: true, check: true };
    });
    const controller = new AbortController();
    let calls = 0;
    let bytes = 0;
    const running = digestArchives(jobs, {
      threads: 2,
      signal: controller.signal,
      onProgress: (_, b) => {
        calls++;
        bytes = b;
        if (b > 0) controller.abort(new Error("stop"));
      },
    });
    await assert.rejects(running, /stop/);
    const total = jobs.reduce((s, j) => s + j.size, 0);
    assert.ok(bytes > 0 && bytes < total, `stopped part way: ${bytes} of ${total} bytes`);
    // The workers are gone: nothing reports any more.
    const after = calls;
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(calls, after);
  });
});

describe("what is not a regular file when it is opened (replaced after the scan)", () => {
  /** A FIFO, a link to it and a socket, each named like an archive; the socket's server is closed by the caller. */
  async function specials(): Promise<{ dir: string; close: () => void }> {
    const dir = tempDir();
    assert.equal(spawnSync("mkfifo", [path.join(dir, "pipe.zip")]).status, 0);
    fs.symlinkSync("pipe.zip", path.join(dir, "link.zip"));
    const server = net.createServer().listen(path.join(dir, "socket.zip"));
    await once(server, "listening");
    return { dir, close: () => server.close() };
  }

  test("a FIFO, a link to one and a socket are opened without blocking and named, on either side", async () => {
    const { dir, close } = await specials();
    try {
      const big = path.join(dir, "big.zip");
      writeSparseZip(big, 60_000_000);
      const jobs: SizedJob[] = ["pipe.zip", "link.zip", "socket.zip"].map((n) => ({
        file: path.join(dir, n),
        size: 0,
        hash: true,
        check: true,
      }));
      for (const extra of [[], [{ file: big, size: fs.statSync(big).size, hash: true, check: true }]]) {
        const digests = await digestArchives([...jobs, ...extra], { threads: 2 });
        assert.deepEqual(digests.slice(0, 3), [
          { ok: false, code: "ENOTREG", what: "a FIFO (named pipe)" },
          { ok: false, code: "ENOTREG", what: "a FIFO (named pipe)" },
          { ok: false, code: "ENOTREG", what: "a socket" },
        ]);
      }
    } finally {
      close();
    }
  });

  test("a link to an archive is still read through its target", async () => {
    const dir = tempDir();
    writeSparseZip(path.join(dir, "real.zip"), 1000);
    fs.symlinkSync("real.zip", path.join(dir, "via-link.zip"));
    fs.symlinkSync("via-link.zip", path.join(dir, "twice.zip"));
    const [a, b] = await digestArchives(
      ["via-link.zip", "twice.zip"].map((n) => ({ file: path.join(dir, n), size: 1100, hash: true, check: true })),
    );
    const expected = sha(fs.readFileSync(path.join(dir, "real.zip")));
    assert.ok(a!.ok && b!.ok && a!.sha256 === expected && b!.sha256 === expected);
  });
});
