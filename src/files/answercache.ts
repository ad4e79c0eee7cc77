// The answer cache: the core's answers in one folder's last run, kept in the private cache directory, so that a run
// whose requests are all the same as last time's needs no WebAssembly at all (docs/performance.md#the-answer-cache).

import { lstatSync } from "node:fs";
import path from "node:path";
import type { AnswerStore } from "../core/host.js";
import { privateFileName, privateDir, prunePrivateDir, readPrivateFile, writePrivateFile } from "./privatedir.js";

/**
 * What an answer cache is for: the folder the runs are made in, and the core's identity (the module's file, checked by
 * its device, inode, size and modification time, and its content hash when the build knows it), so that another
 * build of the core, or the same build put in place again, never reads answers it did not give.
 */
export interface AnswerCacheKey {
  cwd: string;
  /** The core's `.wasm` file. */
  module: string;
  /** A hash of the module's bytes, when the build wrote one into the bundle. */
  moduleHash?: string;
}

/** The file's first line: the format, so that a later dropkit with another format reads nothing here. */
const formatLine = "dropkit-answers 1";
/** One answer (request and response) longer than this is not kept: a run over 10,000 archives asks the core anew. */
const maxEntryLength = 256 * 1024;
/** A file longer than this is not read (nor written): it is not one this dropkit wrote. */
const maxFileLength = 1024 * 1024;
/** At most this many folders' answers are kept: the least recently used go first. */
const maxFiles = 256;

/**
 * The answer store of the CLI's runs in `key.cwd`, in the private cache directory's `answers` folder (src/files/
 * privatedir.ts: a folder only this user can write, since the answers name the hooks dropkit runs). Nothing is read
 * until the core is first asked, and nothing is written unless the core answered something the file did not hold:
 * then `save` (at exit) writes this run's answers, in place of the last run's, so the file never grows past one run.
 * Without a private cache directory (refused, or on a runtime without one), every request goes to the core.
 */
export class AnswerCache implements AnswerStore {
  private loaded = false;
  private file: string | null = null;
  private header = "";
  private known = new Map<string, string>();
  /** This run's answers, in the order asked: what `save` writes. */
  private readonly used = new Map<string, string>();
  private changed = false;
  /** Whether the file was there when first read: a new one may take the folder past maxFiles. */
  private existed = false;

  constructor(
    private readonly key: AnswerCacheKey,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  recall(request: string): string | undefined {
    if (!this.loaded) this.load();
    const answer = this.known.get(request);
    if (answer !== undefined) this.used.set(request, answer);
    return answer;
  }

  holdsAnswers(): boolean {
    if (!this.loaded) this.load();
    return this.known.size > 0;
  }

  keep(request: string, answer: string): void {
    if (request.length + answer.length > maxEntryLength) return;
    this.used.set(request, answer);
    this.changed = true;
  }

  /** Writes this run's answers when the core gave one the file did not hold: to a temporary file, then renamed. */
  save(): void {
    if (!this.changed || this.file === null) return;
    let text = this.header;
    for (const [request, answer] of this.used) text += `${request.length} ${answer.length}\n${request}${answer}`;
    // Counted in bytes, as the read counts them: a file written is always one that can be read back.
    if (Buffer.byteLength(text) > maxFileLength) return;
    writePrivateFile(this.file, text);
    if (!this.existed) prunePrivateDir(path.dirname(this.file), ".answers", maxFiles);
  }

  private load(): void {
    this.loaded = true;
    const identity = moduleIdentity(this.key);
    if (identity === null) return;
    const dir = privateDir(this.env, process.platform, "answers").dir;
    if (dir === null) return;
    this.header = `${formatLine}\n${JSON.stringify([this.key.cwd, identity])}\n`;
    this.file = path.join(dir, `${privateFileName(this.header)}.answers`);
    const text = readAnswerFile(this.file);
    this.existed = text !== null;
    if (text?.startsWith(this.header)) this.known = parseEntries(text, this.header.length);
  }
}

// --- helpers ---

/** The module's identity, or null when it cannot be looked at (then nothing is remembered). */
function moduleIdentity(key: AnswerCacheKey): string | null {
  try {
    const stats = lstatSync(key.module);
    return `${key.moduleHash ?? "-"} ${stats.dev} ${stats.ino} ${stats.size} ${stats.mtimeMs}`;
  } catch {
    return null;
  }
}

/**
 * The file's text, or null when there is none, or it is not a regular file of this user's that others cannot write, or
 * it is too long (readPrivateFile: opened once, never waiting on a FIFO, judged and read on that descriptor). Keeps a
 * file in use fresh.
 */
function readAnswerFile(file: string): string | null {
  return readPrivateFile(file, maxFileLength, true)?.toString("utf8") ?? null;
}

/**
 * The entries after the header: `<request length> <answer length>\n`, then the request and the answer (lengths in
 * UTF-16 code units, as JavaScript counts them). Anything that does not read so ends the entries: a file cut short
 * or edited by hand answers what it can prove, and every other request goes to the core.
 */
function parseEntries(text: string, start: number): Map<string, string> {
  const entries = new Map<string, string>();
  let at = start;
  while (at < text.length) {
    const end = text.indexOf("\n", at);
    if (end < 0) break;
    const match = /^(\d{1,7}) (\d{1,7})$/.exec(text.slice(at, end));
    if (!match) break;
    const requestEnd = end + 1 + Number(match[1]);
    const answerEnd = requestEnd + Number(match[2]);
    if (answerEnd > text.length) break;
    entries.set(text.slice(end + 1, requestEnd), text.slice(requestEnd, answerEnd));
    at = answerEnd;
  }
  return entries;
}
