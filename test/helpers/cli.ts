// Running the built CLI on fixture trees: temp dirs fenced with .git and GIT_CEILING_DIRECTORIES.

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "./temp.js";
import { centralHeader, endRecord, localHeader } from "./zips.js";

/** The built executable; the tests run what users run. */
export const cliPath = fileURLToPath(new URL("../../dist/dropkit.cjs", import.meta.url));

/** A file's content: text, or `{ text, mode }` for an executable script, or a zip made from entries. */
export type FixtureFile = string | { text: string; mode: number } | { zip: Record<string, string> };

/**
 * A temp tree from `{ "a/b.json": "text" }` with a `.git` directory at its root, so that discovery
 * never walks into the real file system. A key ending in "/" is an empty directory.
 */
export function fixture(files: Record<string, FixtureFile> = {}): string {
  const root = tempDir("dropkit-cli-");
  fs.mkdirSync(path.join(root, ".git"));
  for (const [name, content] of Object.entries(files)) {
    const full = path.join(root, name);
    if (name.endsWith("/")) {
      fs.mkdirSync(full, { recursive: true });
      continue;
    }
    fs.mkdirSync(path.dirname(full), { recursive: true });
    if (typeof content === "string") {
      fs.writeFileSync(full, content);
    } else if ("zip" in content) {
      fs.writeFileSync(full, makeZip(content.zip));
    } else {
      fs.writeFileSync(full, content.text, { mode: content.mode });
    }
  }
  return root;
}

/** What a run of the CLI produced. */
export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
  /** stderr parsed as NDJSON records (only when every line is JSON). */
  records: Array<Record<string, any>>;
}

/**
 * The command that runs the CLI: this Node, or `CLI_RUNTIME` (a Bun binary, or `/path/to/deno run -A`), with which
 * .ci/run runs the CLI suite on the other runtimes.
 */
export const cliRuntime: string[] = process.env.CLI_RUNTIME ? process.env.CLI_RUNTIME.split(" ").filter(Boolean) : [process.execPath];

/**
 * Runs `node dist/dropkit.cjs ...args` in `cwd` with a clean environment: no DROPKIT_* from the outer
 * environment, no colour settings, and a ceiling at the fixture root's parent.
 */
export function runCli(cwd: string, args: string[], env: Record<string, string> = {}): RunResult {
  const base: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? os.tmpdir() };
  const result = spawnSync(cliRuntime[0]!, [...cliRuntime.slice(1), cliPath, ...args], {
    cwd,
    env: { ...base, GIT_CEILING_DIRECTORIES: path.dirname(rootOf(cwd)), ...env },
    encoding: "utf8",
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, records: parseRecords(result.stderr) };
}

/** A CLI run in the background, as `runCli` runs it: its process, a promise of its end (with the signal), and a wait for a text on stderr. */
export function startCli(cwd: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [cliPath, ...args], {
    cwd,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? os.tmpdir(),
      GIT_CEILING_DIRECTORIES: path.dirname(rootOf(cwd)),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const waiters: Array<{ text: string; resolve: () => void }> = [];
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => {
    stderr += d;
    for (const w of waiters.filter((w) => stderr.includes(w.text))) w.resolve();
  });
  const done = new Promise<RunResult & { signal: NodeJS.Signals | null }>((resolve) => {
    child.on("close", (status, signal) => resolve({ status, signal, stdout, stderr, records: parseRecords(stderr) }));
  });
  const waitFor = (text: string) =>
    new Promise<void>((resolve, reject) => {
      if (stderr.includes(text)) return resolve();
      waiters.push({ text, resolve });
      void done.then(() => reject(new Error(`the run ended before printing ${text}: ${stderr}`)));
    });
  return { child, done, waitFor };
}

/**
 * Runs the bin in `cwd` with `args`, loaded by a script that reads what it compiled, with no home (HOME=/nonexistent:
 * no code cache unless `env` names a cache directory); returns the exit code, the output and the bundles the run
 * compiled, in order (the bin's `bundles`).
 */
export function runBundles(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): { status: number | null; stdout: string; stderr: string; bundles: string[] } {
  const result = spawnSync(
    process.execPath,
    [
      "-e",
      `process.argv = [process.argv[0], ${JSON.stringify(cliPath)}, ...${JSON.stringify(args)}];
const bin = require(${JSON.stringify(cliPath)});
process.on("exit", () => process.stderr.write("\\nbundles=" + JSON.stringify(bin.bundles) + "\\n"));`,
    ],
    {
      cwd,
      env: { PATH: process.env.PATH ?? "", HOME: "/nonexistent", GIT_CEILING_DIRECTORIES: path.dirname(rootOf(cwd)), ...env },
      encoding: "utf8",
    },
  );
  const bundles = JSON.parse(/bundles=(.*)/.exec(result.stderr)?.[1] ?? "null") as string[];
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, bundles };
}

/** The records of one event. */
export function eventsOf(result: RunResult, event: string): Array<Record<string, any>> {
  return result.records.filter((r) => r.event === event);
}

/** Sets a file's mtime well in the past, so the cache's racy-timestamp guard trusts it. */
export function age(file: string, seconds = 3600): void {
  const when = new Date(Date.now() - seconds * 1000);
  fs.utimesSync(file, when, when);
}

/** A process id that is not running (that of a process that has just exited: `node --version`, which starts no engine). */
export function deadPid(): number {
  const child = spawnSync(process.execPath, ["--version"]);
  assert.equal(child.status, 0);
  return child.pid;
}

/** A small valid zip (stored entries) with the given text files, made by hand so tests need no zip tool. */
export function makeZip(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const data = Buffer.from(text);
    const crc = crc32(data);
    const local = localHeader(name, data.length, crc);
    locals.push(local, data);
    centrals.push(centralHeader(name, data.length, crc, offset));
    offset += local.length + data.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  return Buffer.concat([...locals, ...centrals, endRecord(centrals.length, centralSize, offset)]);
}

// --- helpers ---

function parseRecords(stderr: string): Array<Record<string, any>> {
  const lines = stderr.split("\n").filter((l) => l.trim() !== "");
  try {
    return lines.map((l) => JSON.parse(l) as Record<string, any>);
  } catch {
    return [];
  }
}

/** The fixture root holding `cwd` (the nearest directory with .git), for the ceiling. */
export function rootOf(cwd: string): string {
  let dir = cwd;
  while (!fs.existsSync(path.join(dir, ".git")) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
