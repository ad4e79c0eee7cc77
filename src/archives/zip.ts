// Checking that a file is a sound zip archive without extracting it, as `unzip -t` does: the end record (zip64 too), the central directory,
// safe entry names, where each entry's data lies, and the data itself.

import { readSync } from "node:fs";
import zlib from "node:zlib";
import { InflateRaw } from "minizlib";

/**
 * The verdict on one archive: sound, with its entry count and how many entries' data was verified (`note` says why
 * the others could not be: encrypted, or a compression method dropkit cannot decode), or the reason it is not.
 * A verdict without `verified` was made before entry data was verified (an older cache) and is made again.
 */
export type ZipVerdict = { ok: true; entries: number; verified: number; note?: string } | { ok: false; problem: string };

/** Random access to a file's bytes; `read` may return fewer bytes than asked only at the end of the file. */
export interface ZipSource {
  /** The file's size in bytes. */
  size: number;
  /** Reads up to `buffer.length` bytes at `position`; returns how many were read. */
  read(buffer: Uint8Array, position: number): number;
}

/**
 * The most entries of a central directory that does not list them in the order of their data: such a directory is
 * checked through a table of 20 bytes an entry (20 MiB at most); one in data order, as every common writer makes it,
 * is streamed whatever its length.
 */
export const maxUnorderedEntries = 1024 * 1024;
/**
 * How much checking one archive may grow the process's peak memory, whatever its directory lists or its entries hold
 * (docs/reliability.md#limits, with the peak measured): the read windows and data buffer (1.3 MiB), the inflater's
 * output for one 16 KiB piece of input (16.5 MiB at most), for a directory out of data order its table (20 MiB), and
 * inflated output the collector has not freed yet; the tests hold the check to it.
 */
export const zipCheckMemoryBytes = 64 * 1024 * 1024;
/** The read window over the central directory: larger than the largest record (46 bytes and three 16-bit lengths). */
const directoryWindowBytes = 256 * 1024;

const sig = { local: 0x04034b50, central: 0x02014b50, end: 0x06054b50, end64: 0x06064b50, locator64: 0x07064b50 } as const;
const endLength = 22;
const locator64Length = 20;
const end64Length = 56;
const maxComment = 0xffff;
const localHeaderLength = 30;
const centralHeaderLength = 46;

/** Input given to the inflater at once: its output for one piece is at most about 1,032 times as much (16.5 MiB). */
const inflatePieceBytes = 16 * 1024;
/** The read buffer for entry data. */
const dataBufferBytes = 1024 * 1024;

/** One central directory record: what the data check needs, and where the next record starts. */
interface Entry {
  name: string;
  offset: number;
  compressedSize: number;
  uncompressedSize: number;
  /** The general purpose bit flags (bit 0: encrypted). */
  flags: number;
  /** The compression method: 0 stored, 8 deflated. */
  method: number;
  crc: number;
  /** The position of the next record, relative to the start of the directory. */
  next: number;
}

/**
 * Reads the records of a zip archive as unzip and Python's `zipfile` do (extra bytes before the archive and after
 * its end record are tolerated, as both tolerate them) and checks that every entry's name is safe to unpack (no
 * absolute path, no drive letter, no `..` segment, no backslash), that its local header is where the central
 * directory says and gives the same sizes (unless they follow the data), that its data ends before the next entry and
 * before the central directory, and that the data is whole: a stored entry's length and CRC-32, a deflated entry
 * inflated (in pieces: bounded memory) to its length and CRC-32. An encrypted entry, or one of another method, cannot
 * be verified: it is counted out of `verified` and named in `note`. Problems start with `not a zip archive`,
 * `truncated:`, `corrupt:`, `unsafe name:` or `unsupported:`.
 *
 * @param source - The file: the records, then each entry's header and data in file order.
 */
export function checkZip(source: ZipSource): ZipVerdict {
  try {
    return readArchive(source);
  } catch (error) {
    if (error instanceof ZipProblem) return { ok: false, problem: error.message };
    throw error;
  }
}

/** `checkZip` on an open file descriptor (read with positional reads, so the descriptor's offset does not matter). */
export function checkZipFile(fd: number, size: number): ZipVerdict {
  return checkZip({ size, read: (buffer, position) => readFully(fd, buffer, position) });
}

// --- helpers ---

class ZipProblem extends Error {}

function problem(message: string): never {
  throw new ZipProblem(message);
}

function readArchive(source: ZipSource): ZipVerdict {
  const { size } = source;
  if (size === 0) problem("not a zip archive (the file is empty)");
  const tailLength = Math.min(size, endLength + maxComment);
  const tailStart = size - tailLength;
  const tail = readExactly(source, tailStart, tailLength, "the end of the file");
  const endAt = findEndRecord(tail);
  if (endAt < 0) {
    const head = tail.length === size ? tail : readExactly(source, 0, Math.min(size, 4), "the start of the file");
    if (head.length >= 4 && view(head).getUint32(0, true) === sig.local) {
      problem("truncated: the end-of-central-directory record is missing; the file starts as a zip archive but its end is cut off");
    }
    problem("not a zip archive (no end-of-central-directory record)");
  }
  const end = view(tail, endAt);
  const endPosition = tailStart + endAt;
  let disk = end.getUint16(4, true);
  let centralDisk = end.getUint16(6, true);
  let count = end.getUint16(10, true);
  let centralSize = end.getUint32(12, true);
  let centralOffset = end.getUint32(16, true);
  // Where the central directory must end: the zip64 end record when there is one, else the end record.
  let recordsStart = endPosition;
  let zip64 = false;
  if (endPosition >= locator64Length) {
    const locator =
      endAt >= locator64Length
        ? view(tail, endAt - locator64Length)
        : view(readExactly(source, endPosition - locator64Length, locator64Length, "the zip64 locator"));
    if (locator.getUint32(0, true) === sig.locator64) {
      zip64 = true;
      const disks = locator.getUint32(16, true);
      if (disks > 1) problem(`unsupported: a split archive of ${disks} parts, which cannot be read as one file`);
      const { end64, end64Position } = readEnd64(source, locator, endPosition - locator64Length);
      disk = end64.getUint32(16, true);
      centralDisk = end64.getUint32(20, true);
      count = readUint64(end64, 32, "the zip64 entry count");
      centralSize = readUint64(end64, 40, "the zip64 central directory size");
      centralOffset = readUint64(end64, 48, "the zip64 central directory offset");
      recordsStart = end64Position;
    }
  }
  if (disk !== 0 || centralDisk !== 0) problem("unsupported: a split (multi-part) archive, which cannot be read as one file");
  if (centralOffset + centralSize > size) problem("truncated: the central directory ends past the end of the file");
  // Bytes before the archive (a self-extractor stub, a concatenation) shift every offset, as unzip and zipfile allow.
  const shift = recordsStart - (centralOffset + centralSize);
  if (shift < 0) problem("truncated: the central directory ends past the start of the end record (part of the file is missing)");
  const directory = new Directory(source, centralOffset + shift, centralSize);
  const entries = scanDirectory(directory, count, zip64);
  const unverified = checkEntryData(source, directory, entries, shift);
  const verdict: ZipVerdict = { ok: true, entries: entries.count, verified: entries.count - unverified.count };
  if (unverified.count > 0) verdict.note = unverified.describe();
  return verdict;
}

/**
 * The zip64 end record: right before its locator (where every writer puts it, and where it still is when bytes were
 * prepended to the archive), else where the locator says.
 */
function readEnd64(source: ZipSource, locator: DataView, locatorPosition: number): { end64: DataView; end64Position: number } {
  const stated = readUint64(locator, 8, "the zip64 end record's offset");
  for (const end64Position of new Set([locatorPosition - end64Length, stated])) {
    if (end64Position < 0 || end64Position + end64Length > locatorPosition) continue;
    const end64 = view(readExactly(source, end64Position, end64Length, "the zip64 end record"));
    if (end64.getUint32(0, true) === sig.end64) return { end64, end64Position };
  }
  problem(
    stated + end64Length > source.size
      ? "truncated: the zip64 end-of-central-directory record lies past the end of the file"
      : `corrupt: no zip64 end-of-central-directory record where its locator points (offset ${stated})`,
  );
}

/** The position of the end record in `tail` (the file's last bytes): the last signature whose comment fits, or -1. */
function findEndRecord(tail: Uint8Array): number {
  const v = view(tail);
  for (let at = tail.length - endLength; at >= 0; at--) {
    if (tail[at] !== 0x50 || v.getUint32(at, true) !== sig.end) continue;
    if (at + endLength + v.getUint16(at + 20, true) <= tail.length) return at;
  }
  return -1;
}

/** The central directory, read record by record through a window: never held whole, so its length costs no memory. */
class Directory {
  private readonly window: Window;
  private readonly decoder = new TextDecoder();

  constructor(
    source: ZipSource,
    readonly start: number,
    readonly size: number,
  ) {
    this.window = new Window(source, directoryWindowBytes, "a central directory record");
  }

  /**
   * The record at `at` (relative to the start), the `n`th of the directory (for messages); its name is decoded only
   * `withName` (a first pass over the directory needs none).
   */
  record(at: number, n: number, withName = true): Entry {
    if (at + centralHeaderLength > this.size) problem(`corrupt: central directory entry ${n} is cut short`);
    const { window } = this;
    let p = window.at(this.start + at, centralHeaderLength);
    let v = window.view;
    if (v.getUint32(p, true) !== sig.central)
      problem(`corrupt: central directory entry ${n} has no entry signature (at byte ${at} of the directory)`);
    const nameLength = v.getUint16(p + 28, true);
    const extraLength = v.getUint16(p + 30, true);
    const commentLength = v.getUint16(p + 32, true);
    const length = centralHeaderLength + nameLength + extraLength + commentLength;
    if (at + length > this.size) problem(`corrupt: central directory entry ${n} runs past the end of the directory`);
    p = window.at(this.start + at, length);
    v = window.view;
    const nameAt = p + centralHeaderLength;
    const nameBytes = window.bytes.subarray(nameAt, nameAt + nameLength);
    const unsafe = unsafeName(nameBytes);
    let name = withName || unsafe ? this.decoder.decode(nameBytes) : "";
    if (unsafe) problem(`unsafe name: entry ${JSON.stringify(name)} ${unsafe}`);
    let compressedSize = v.getUint32(p + 20, true);
    let offset = v.getUint32(p + 42, true);
    let uncompressedSize = v.getUint32(p + 24, true);
    const diskStart = v.getUint16(p + 34, true);
    if (compressedSize === 0xffffffff || offset === 0xffffffff || uncompressedSize === 0xffffffff || diskStart === 0xffff) {
      name ||= this.decoder.decode(nameBytes);
      const extra = window.bytes.subarray(nameAt + nameLength, nameAt + nameLength + extraLength);
      ({ compressedSize, offset, uncompressedSize } = readZip64Extra(extra, name, {
        uncompressed: uncompressedSize,
        compressedSize,
        offset,
        diskStart,
      }));
    }
    return {
      name,
      offset,
      compressedSize,
      uncompressedSize,
      flags: v.getUint16(p + 8, true),
      method: v.getUint16(p + 10, true),
      crc: v.getUint32(p + 16, true),
      next: at + length,
    };
  }
}

/** What a first pass over the directory found: how many records, and whether they list their data in file order. */
interface DirectoryScan {
  count: number;
  ordered: boolean;
}

/** Reads every record once, keeping nothing of them; checks the count against the end record's. */
function scanDirectory(directory: Directory, count: number, zip64: boolean): DirectoryScan {
  let n = 0;
  let ordered = true;
  let lastOffset = -1;
  for (let at = 0; at < directory.size; n++) {
    const entry = directory.record(at, n + 1, false);
    if (entry.offset <= lastOffset) ordered = false;
    lastOffset = entry.offset;
    at = entry.next;
  }
  // Without zip64 the count field has 16 bits, and some writers store the true count modulo 65536.
  if (n !== count && (zip64 || n % 0x10000 !== count)) {
    problem(`corrupt: the end record counts ${count} entr${count === 1 ? "y" : "ies"}, the central directory holds ${n}`);
  }
  return { count: n, ordered };
}

/**
 * The records in the order of their data, one at a time: the directory's own order when it is that order (streamed),
 * else through a table of each record's data offset and position, sorted (at most `maxUnorderedEntries`).
 */
function* inDataOrder(directory: Directory, scan: DirectoryScan): Generator<Entry> {
  if (scan.ordered) {
    for (let at = 0, n = 1; at < directory.size; n++) {
      const entry = directory.record(at, n);
      yield entry;
      at = entry.next;
    }
    return;
  }
  if (scan.count > maxUnorderedEntries)
    problem(
      `unsupported: a central directory of ${scan.count} entries not in the order of their data (dropkit reads at most ${maxUnorderedEntries} such entries)`,
    );
  const offsets = new Float64Array(scan.count);
  const positions = new Float64Array(scan.count);
  for (let at = 0, i = 0; i < scan.count; i++) {
    const entry = directory.record(at, i + 1, false);
    offsets[i] = entry.offset;
    positions[i] = at;
    at = entry.next;
  }
  const order = new Uint32Array(scan.count).map((_, i) => i).sort((a, b) => offsets[a]! - offsets[b]!);
  for (const i of order) yield directory.record(positions[i]!, i + 1);
}

/** The zip64 extended information field: the 64-bit values of the fields whose 32-bit value is all ones, in order. */
function readZip64Extra(
  extra: Uint8Array,
  name: string,
  fields: { uncompressed: number; compressedSize: number; offset: number; diskStart: number },
): { compressedSize: number; offset: number; uncompressedSize: number } {
  const v = view(extra);
  for (let at = 0; at + 4 <= extra.length; ) {
    const id = v.getUint16(at, true);
    const length = v.getUint16(at + 2, true);
    if (id === 0x0001) {
      const field = view(extra.subarray(at + 4, Math.min(extra.length, at + 4 + length)));
      let p = 0;
      const next = (what: string): number => {
        if (p + 8 > field.byteLength) problem(`corrupt: entry "${name}" lacks the zip64 ${what} its header calls for`);
        const value = readUint64(field, p, `the zip64 ${what} of "${name}"`);
        p += 8;
        return value;
      };
      const uncompressedSize = fields.uncompressed === 0xffffffff ? next("size") : fields.uncompressed;
      const compressedSize = fields.compressedSize === 0xffffffff ? next("compressed size") : fields.compressedSize;
      const offset = fields.offset === 0xffffffff ? next("header offset") : fields.offset;
      return { compressedSize, offset, uncompressedSize };
    }
    at += 4 + length;
  }
  if (fields.compressedSize === 0xffffffff || fields.offset === 0xffffffff)
    problem(`corrupt: entry "${name}" has no zip64 field for its 64-bit sizes`);
  return { ...fields, uncompressedSize: fields.uncompressed };
}

/**
 * Checks each entry's local header, that its data ends before the next entry's header (in data order) and before
 * the central directory, and the data itself. Headers are read in offset order through a window, so that many small
 * entries cost few reads. Returns the entries whose data could not be verified.
 */
function checkEntryData(source: ZipSource, directory: Directory, scan: DirectoryScan, shift: number): Unverified {
  const window = new Window(source, 64 * 1024, "a local header");
  const data = new EntryData(source);
  let entry: Entry | undefined;
  for (const next of inDataOrder(directory, scan)) {
    if (entry) checkEntry(source, window, data, entry, shift, directory.start, next);
    entry = next;
  }
  if (entry) checkEntry(source, window, data, entry, shift, directory.start, undefined);
  return data.unverified;
}

/**
 * Checks one entry's local header (its sizes too) and where its data ends: before `next` (the following entry in data
 * order) or the directory; then its data.
 */
function checkEntry(
  source: ZipSource,
  window: Window,
  data: EntryData,
  entry: Entry,
  shift: number,
  centralStart: number,
  next: Entry | undefined,
): void {
  const at = entry.offset + shift;
  const limit = next ? next.offset + shift : centralStart;
  if (at + localHeaderLength > centralStart)
    problem(`corrupt: the local header of "${entry.name}" lies past the start of the central directory`);
  const p = window.at(at, localHeaderLength);
  const header = window.view;
  if (header.getUint32(p, true) !== sig.local) problem(`corrupt: no local header for "${entry.name}" at offset ${at}`);
  const nameLength = header.getUint16(p + 26, true);
  const extraLength = header.getUint16(p + 28, true);
  const dataStart = at + localHeaderLength + nameLength + extraLength;
  if (dataStart + entry.compressedSize > limit)
    problem(`corrupt: the data of "${entry.name}" runs into ${next ? `the next entry, "${next.name}"` : "the central directory"}`);
  // Bit 3: the sizes follow the data (a data descriptor), and the local header's are zeros or anything.
  if ((header.getUint16(p + 6, true) & 8) === 0) {
    const sizes = { compressed: header.getUint32(p + 18, true), uncompressed: header.getUint32(p + 22, true) };
    checkLocalSizes(entry, sizes, () =>
      readExactly(source, at + localHeaderLength + nameLength, extraLength, `the local header of "${entry.name}"`),
    );
  }
  data.verify(entry, dataStart);
}

/**
 * Checks that a local header's sizes are the central directory's: a reader that streams local headers (and `unzip -t`,
 * for a stored entry) would read other bytes than the directory says, so the archive means two things. A size of all
 * ones is in the local zip64 field (size, then compressed size, as APPNOTE 4.5.3 has it), read only then; a local
 * header that has no such field is not held to it.
 */
function checkLocalSizes(entry: Entry, local: { compressed: number; uncompressed: number }, extra: () => Uint8Array): void {
  let { compressed, uncompressed } = local;
  const bigSize = uncompressed === 0xffffffff;
  const bigCompressed = compressed === 0xffffffff;
  if (bigSize || bigCompressed) {
    const field = zip64Field(extra());
    if (field === undefined) return;
    // Both sizes when the field has room for them (the format asks for both); else the one that is all ones.
    const both = field.byteLength >= 16;
    let at = 0;
    if (bigSize || both) {
      if (field.byteLength < 8) return;
      uncompressed = readUint64(field, 0, `the local zip64 size of "${entry.name}"`);
      at = 8;
    }
    if (bigCompressed || both) {
      if (field.byteLength < at + 8) return;
      compressed = readUint64(field, at, `the local zip64 compressed size of "${entry.name}"`);
    }
  }
  const differs = (what: string, inLocal: number, inCentral: number): void => {
    if (inLocal !== inCentral)
      problem(`corrupt: the local header of "${entry.name}" gives ${what} as ${inLocal} bytes, the central directory as ${inCentral}`);
  };
  differs("its compressed size", compressed, entry.compressedSize);
  differs("its size", uncompressed, entry.uncompressedSize);
}

/** The zip64 extended information field's data among extra fields, or undefined when there is none. */
function zip64Field(extra: Uint8Array): DataView | undefined {
  const v = view(extra);
  for (let at = 0; at + 4 <= extra.length; ) {
    const length = v.getUint16(at + 2, true);
    if (v.getUint16(at, true) === 0x0001) return view(extra.subarray(at + 4, Math.min(extra.length, at + 4 + length)));
    at += 4 + length;
  }
  return undefined;
}

/**
 * Why a name is unsafe to unpack, as the zip format's note on file names has it (APPNOTE 4.4.17: a relative path,
 * forward slashes, no drive letter), or "" when it is safe. Checked on the bytes: every rule is about ASCII.
 */
function unsafeName(name: Uint8Array): string {
  if (name[0] === 0x2f) return 'is an absolute path (it starts with "/")';
  if (name.length >= 2 && name[1] === 0x3a && (name[0]! | 0x20) >= 0x61 && (name[0]! | 0x20) <= 0x7a)
    return "starts with a drive letter (an absolute path on Windows)";
  if (name.includes(0x5c)) return 'holds a backslash, which unpacks outside the intended path on Windows (zip names use "/")';
  for (let start = 0; start <= name.length; ) {
    let end = name.indexOf(0x2f, start);
    if (end < 0) end = name.length;
    if (end - start === 2 && name[start] === 0x2e && name[start + 1] === 0x2e)
      return 'has a ".." segment, which leaves the folder it is unpacked into';
    start = end + 1;
  }
  return "";
}

/** Entries whose data could not be verified, by reason, with the first few names of each. */
class Unverified {
  count = 0;
  private readonly reasons = new Map<string, { count: number; names: string[] }>();

  add(reason: string, name: string): void {
    this.count++;
    const known = this.reasons.get(reason) ?? { count: 0, names: [] };
    known.count++;
    if (known.names.length < 3) known.names.push(JSON.stringify(name));
    this.reasons.set(reason, known);
  }

  /** e.g. `2 entries encrypted (no password to decrypt them): "a.txt", "b.txt"`. */
  describe(): string {
    return [...this.reasons]
      .map(
        ([reason, { count, names }]) =>
          `${count} entr${count === 1 ? "y" : "ies"} ${reason}: ${names.join(", ")}${count > names.length ? " and more" : ""}`,
      )
      .join("; ");
  }
}

/** Names of the compression methods dropkit cannot decode, for the note. */
const methodNames: Record<number, string> = {
  1: "shrunk",
  6: "imploded",
  9: "deflate64",
  12: "bzip2",
  14: "LZMA",
  93: "zstd",
  95: "xz",
  98: "PPMd",
  // Only reached without the encryption flag (an encrypted entry is named as such first).
  99: "AES's number, but not flagged as encrypted",
};

/** Verifies entry data as `unzip -t` does: a stored entry's length and CRC-32, a deflated one inflated to its length and CRC-32. */
class EntryData {
  readonly unverified = new Unverified();
  private readonly buffer = new Uint8Array(dataBufferBytes);

  constructor(private readonly source: ZipSource) {}

  verify(entry: Entry, dataStart: number): void {
    const what = JSON.stringify(entry.name);
    // Method 99 is AES's marker, but only bit 0 says an entry is encrypted: without it, 99 is a method unzip does not know either.
    if (entry.flags & 1) {
      this.unverified.add("encrypted (their data cannot be verified without the password)", entry.name);
      return;
    }
    if (entry.method !== 0 && entry.method !== 8) {
      this.unverified.add(
        `compressed with method ${entry.method}${methodNames[entry.method] ? ` (${methodNames[entry.method]})` : ""}, which dropkit cannot decode`,
        entry.name,
      );
      return;
    }
    if (entry.method === 0 && entry.compressedSize !== entry.uncompressedSize)
      problem(`corrupt: the stored entry ${what} has ${entry.compressedSize} bytes of data but a size of ${entry.uncompressedSize}`);
    let crc = 0;
    let length = 0;
    const take = (bytes: Uint8Array): void => {
      length += bytes.length;
      if (length > entry.uncompressedSize)
        problem(`corrupt: the data of ${what} inflates to more than its stated size of ${entry.uncompressedSize} bytes`);
      crc = crc32(bytes, crc);
    };
    // A deflated entry of no bytes at all (some writers make one for an empty file) has nothing to inflate.
    const inflater = entry.method === 8 && entry.compressedSize > 0 ? new Inflater(what, take) : undefined;
    for (let done = 0; done < entry.compressedSize; ) {
      const n = this.source.read(this.buffer.subarray(0, Math.min(this.buffer.length, entry.compressedSize - done)), dataStart + done);
      if (n === 0) problem(`truncated: the file ends inside the data of ${what}`);
      const piece = this.buffer.subarray(0, n);
      if (inflater) inflater.push(piece);
      else take(piece);
      done += n;
    }
    inflater?.finish();
    if (length !== entry.uncompressedSize)
      problem(
        `corrupt: the data of ${what} ${entry.method === 8 ? "inflates" : "comes"} to ${length} bytes, not its stated size of ${entry.uncompressedSize}`,
      );
    if (crc !== entry.crc)
      problem(`corrupt: the data of ${what} does not match its CRC-32 (${hex(crc)}, the directory says ${hex(entry.crc)})`);
  }
}

/**
 * Raw deflate, inflated synchronously in pieces: minizlib drives node:zlib's inflater one write at a time (as
 * node-tar does), where node:zlib's own streams are asynchronous and its synchronous calls take the whole input at
 * once; so a large entry never needs its whole data or output in memory, and a worker reads one archive straight
 * through.
 */
class Inflater {
  private readonly stream = new InflateRaw({});
  private failure: Error | undefined;

  constructor(
    private readonly what: string,
    take: (bytes: Uint8Array) => void,
  ) {
    this.stream.on("data", take);
    this.stream.on("error", (error: unknown) => (this.failure ??= error instanceof Error ? error : new Error(String(error))));
  }

  push(input: Uint8Array): void {
    for (let at = 0; at < input.length && !this.failure; at += inflatePieceBytes)
      this.stream.write(Buffer.from(input.buffer, input.byteOffset + at, Math.min(inflatePieceBytes, input.length - at)));
    this.check();
  }

  finish(): void {
    if (!this.failure) this.stream.end();
    this.check();
  }

  private check(): void {
    if (this.failure) problem(`corrupt: the data of ${this.what} does not inflate (${this.failure.message.replace(/^zlib: /, "")})`);
  }
}

/** CRC-32 (the zip one): zlib's where the runtime has it (Node 20.15 and later), else by table. */
const crc32: (bytes: Uint8Array, crc: number) => number =
  typeof (zlib as { crc32?: unknown }).crc32 === "function"
    ? (zlib as unknown as { crc32(b: Uint8Array, c: number): number }).crc32
    : tableCrc32;

let crcTable: Uint32Array | undefined;

function tableCrc32(bytes: Uint8Array, crc: number): number {
  const table = (crcTable ??= new Uint32Array(256).map((_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c;
  }));
  let c = ~crc >>> 0;
  for (const byte of bytes) c = table[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

function hex(n: number): string {
  return n.toString(16).padStart(8, "0");
}

/** Reads small records near each other with one positional read per window (64 KiB for local headers). */
class Window {
  /** The window's bytes, and a view of them: `at` says where a record starts in them. */
  readonly bytes: Uint8Array;
  readonly view: DataView;
  private start = 0;
  private length = 0;

  /** `what` names the records read, for a file that ends inside one ("a local header"). */
  constructor(
    private readonly source: ZipSource,
    size: number,
    private readonly what: string,
  ) {
    this.bytes = new Uint8Array(size);
    this.view = new DataView(this.bytes.buffer);
  }

  /** Where the `length` bytes at `position` of the file are in `bytes`, read there first when the window lacks them. */
  at(position: number, length: number): number {
    if (position < this.start || position + length > this.start + this.length) {
      this.start = position;
      this.length = this.source.read(this.bytes, position);
      if (this.length < length) problem(`truncated: the file ends at byte ${position + this.length}, inside ${this.what}`);
    }
    return position - this.start;
  }
}

function readExactly(source: ZipSource, position: number, length: number, what: string): Uint8Array {
  const buffer = new Uint8Array(length);
  const read = source.read(buffer, position);
  if (read < length) problem(`truncated: the file ends inside ${what}`);
  return buffer;
}

/** A little-endian u64 as a number; values past 2^53 cannot be offsets or sizes of a real file. */
function readUint64(v: DataView, at: number, what: string): number {
  const value = v.getBigUint64(at, true);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) problem(`corrupt: ${what} is ${value}, past any file's size`);
  return Number(value);
}

function view(bytes: Uint8Array, at = 0): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset + at, bytes.byteLength - at);
}

/** Reads until `buffer` is full or the file ends (a positional read may return less than asked). */
function readFully(fd: number, buffer: Uint8Array, position: number): number {
  let done = 0;
  while (done < buffer.length) {
    const n = readSync(fd, buffer, done, buffer.length - done, position + done);
    if (n === 0) break;
    done += n;
  }
  return done;
}
