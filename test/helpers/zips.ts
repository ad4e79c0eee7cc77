// Zip archives made by real tools (Info-ZIP `zip`, Python's `zipfile`, `7z`) for the archive check's tests.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { tempDir } from "./temp.js";

/** The tools the archive tests need, by command, with the Debian package that has each. */
const tools = { zip: "zip", unzip: "unzip", python3: "python3", "7z": "p7zip-full" } as const;

/** The tools that are not installed here, as `command (package)`. */
export function missingZipTools(): string[] {
  return Object.entries(tools)
    .filter(([command]) => spawnSync("sh", ["-c", `command -v ${command}`]).status !== 0)
    .map(([command, pkg]) => `${command} (${pkg})`);
}

/**
 * Whether to skip the archive tests: never in CI (a missing tool is then a failure, so that a CI that does not
 * install the tools cannot pass without them), elsewhere only when a tool is missing, saying which.
 */
export function zipToolsSkip(): string | false {
  const missing = missingZipTools();
  const inCi = Boolean(process.env.CI) && process.env.CI !== "false";
  return missing.length > 0 && !inCi ? `needs ${missing.join(", ")} (Debian: apt-get install zip unzip p7zip-full python3)` : false;
}

/** The files every tool archives: text, incompressible bytes and a nested folder. */
function sourceTree(): string {
  const dir = tempDir("dropkit-zip-src-");
  fs.writeFileSync(path.join(dir, "readme.txt"), "hello\n");
  fs.writeFileSync(path.join(dir, "lines.txt"), Array.from({ length: 5000 }, (_, i) => `line ${i}`).join("\n"));
  // Incompressible, so that entries are large and stored data lies across many read windows.
  fs.writeFileSync(path.join(dir, "noise.bin"), Buffer.from(Array.from({ length: 150_000 }, (_, i) => (i * 2654435761) >>> 24)));
  fs.mkdirSync(path.join(dir, "sub/deeper"), { recursive: true });
  fs.writeFileSync(path.join(dir, "sub/deeper/page.html"), "<p>deep</p>\n");
  return dir;
}

function run(command: string, args: string[], cwd: string, input?: string): void {
  const r = spawnSync(command, args, { cwd, input, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${r.status}): ${r.stderr}${r.error?.message ?? ""}`);
}

/** Python's zipfile, writing `entries` of text to `file`; `zip64` forces every zip64 record by lowering its limits. */
function pythonZip(file: string, options: { zip64?: boolean; streamed?: boolean } = {}): void {
  run(
    "python3",
    [
      "-c",
      `
import io, sys, zipfile
if ${options.zip64 ? "True" : "False"}:
    zipfile.ZIP64_LIMIT = 16
    zipfile.ZIP_FILECOUNT_LIMIT = 1
class Unseekable(io.RawIOBase):
    def __init__(self, f): self.f = f
    def writable(self): return True
    def write(self, b): return self.f.write(b)
with open(sys.argv[1], "wb") as out:
    target = Unseekable(out) if ${options.streamed ? "True" : "False"} else out
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("readme.txt", "hello\\n")
        z.writestr("data/lines.txt", "\\n".join("line %d" % i for i in range(5000)))
        with z.open("data/forced.bin", "w", force_zip64=True) as f:
            f.write(bytes(range(256)) * 64)
`,
      file,
    ],
    path.dirname(file),
  );
}

/** Every kind of valid archive the tests use, by a short name, each made in `dir`. */
export function makeValidZips(dir: string): Record<string, string> {
  const src = sourceTree();
  const made: Record<string, string> = {};
  const out = (name: string) => (made[name] = path.join(dir, `${name}.zip`));
  run("zip", ["-qr", out("infozip"), "."], src);
  // -fz: zip64 records for every entry and a zip64 end record, as for archives over 4 GB.
  run("zip", ["-qr", "-fz", out("infozip-zip64"), "."], src);
  // Stored (no compression), with an archive comment.
  run("zip", ["-qr0", "-z", out("infozip-stored-comment"), "."], src, "release notes PK\u0005\u0006 inside a comment\n.\n");
  // From a pipe: the entry has a data descriptor after its data, sizes unknown in its local header.
  run("sh", ["-c", `printf 'piped\\n' | zip -q "${out("infozip-piped")}" -`], src);
  run("7z", ["a", "-tzip", "-bd", "-bso0", out("7z"), "."], src);
  run("7z", ["a", "-tzip", "-mx=0", "-bd", "-bso0", out("7z-stored"), "."], src);
  pythonZip(out("zipfile"));
  pythonZip(out("zipfile-zip64"), { zip64: true });
  pythonZip(out("zipfile-streamed"), { streamed: true });
  run("python3", ["-c", "import sys, zipfile; zipfile.ZipFile(sys.argv[1], 'w').close()", out("zipfile-empty")], dir);
  // A self-extractor: an executable stub before the archive; unzip and zipfile read it.
  fs.writeFileSync(
    out("prepended"),
    Buffer.concat([Buffer.from("#!/bin/sh\necho self-extracting stub\nexit 0\n"), fs.readFileSync(made.infozip!)]),
  );
  return made;
}

/** A valid archive from `zip` (its bytes), for tests that break it on purpose. */
export function infozipBytes(): Buffer {
  const dir = tempDir("dropkit-zip-");
  const file = path.join(dir, "a.zip");
  run("zip", ["-qr0", file, "."], sourceTree());
  return fs.readFileSync(file);
}

/**
 * A valid zip of one stored entry of `dataBytes` zero bytes (below 4 GB), written as a hole: large archives for
 * hashing and progress tests that cost no disk to make, with the CRC-32 of their zeros (remembered by size).
 */
export function writeSparseZip(file: string, dataBytes: number): void {
  const name = "data.bin";
  const crc = zerosCrc(dataBytes);
  const head = localHeader(name, dataBytes, crc);
  const tail = Buffer.concat([centralHeader(name, dataBytes, crc, 0), endRecord(1, 46 + Buffer.byteLength(name), head.length + dataBytes)]);
  const fd = fs.openSync(file, "w");
  try {
    fs.writeSync(fd, head, 0, head.length, 0);
    fs.writeSync(fd, tail, 0, tail.length, head.length + dataBytes);
  } finally {
    fs.closeSync(fd);
  }
}

const zerosCrcs = new Map<number, number>();

/** The CRC-32 of `bytes` zero bytes. */
function zerosCrc(bytes: number): number {
  let crc = zerosCrcs.get(bytes);
  if (crc === undefined) {
    const zeros = Buffer.alloc(1024 * 1024);
    crc = 0;
    for (let done = 0; done < bytes; done += zeros.length) crc = zlib.crc32(zeros.subarray(0, Math.min(zeros.length, bytes - done)), crc);
    zerosCrcs.set(bytes, crc);
  }
  return crc;
}

/** A local file header of a stored entry, with its name. */
export function localHeader(name: string, size: number, crc: number): Buffer {
  const nameBytes = Buffer.from(name);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt32LE(crc, 14);
  header.writeUInt32LE(size, 18);
  header.writeUInt32LE(size, 22);
  header.writeUInt16LE(nameBytes.length, 26);
  return Buffer.concat([header, nameBytes]);
}

/** A central directory entry of a stored entry whose local header is at `offset`, with its name. */
export function centralHeader(name: string, size: number, crc: number, offset: number): Buffer {
  const nameBytes = Buffer.from(name);
  const header = Buffer.alloc(46);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(20, 6);
  header.writeUInt32LE(crc, 16);
  header.writeUInt32LE(size, 20);
  header.writeUInt32LE(size, 24);
  header.writeUInt16LE(nameBytes.length, 28);
  header.writeUInt32LE(offset, 42);
  return Buffer.concat([header, nameBytes]);
}

/** The end-of-central-directory record. */
export function endRecord(entries: number, centralSize: number, centralOffset: number): Buffer {
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries, 8);
  end.writeUInt16LE(entries, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(centralOffset, 16);
  return end;
}

/**
 * Archives `unzip -t` refuses though their records are sound, by a short name, each made in `dir` with Python's
 * zipfile: unsafe entry names, deflate data corrupted in the middle (the central directory intact), a CRC mismatch.
 */
export function makeUnsoundZips(dir: string): Record<string, string> {
  const made: Record<string, string> = {};
  const names: Record<string, string> = { "drive-letter": "C:\\xt", absolute: "/a.txt", "dot-dot": "../xt", backslash: "a\\txt" };
  for (const [key, name] of Object.entries(names)) {
    made[key] = path.join(dir, `${key}.zip`);
    run(
      "python3",
      [
        "-c",
        "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w') as z:\n    z.writestr('ok.txt', 'fine')\n    " +
          "z.writestr(zipfile.ZipInfo(sys.argv[2]), 'x')",
        made[key]!,
        name,
      ],
      dir,
    );
  }
  // Text-like data deflated, then bytes in the middle of the deflate stream overwritten.
  made["bad-deflate"] = path.join(dir, "bad-deflate.zip");
  run(
    "python3",
    [
      "-c",
      `
import sys, zipfile
text = "".join("line %d of a page that compresses well\\n" % i for i in range(20000)).encode()
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("page.txt", text)
with zipfile.ZipFile(sys.argv[1]) as z:
    info = z.getinfo("page.txt")
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
data = bytearray(open(sys.argv[1], "rb").read())
middle = start + info.compress_size // 2
data[middle:middle + 16] = b"\\xff" * 16
open(sys.argv[1], "wb").write(data)
`,
      made["bad-deflate"]!,
    ],
    dir,
  );
  // A stored entry whose data no longer matches its CRC-32.
  made["bad-crc"] = path.join(dir, "bad-crc.zip");
  run(
    "python3",
    [
      "-c",
      `
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    z.writestr("notes.txt", "meeting notes\\n")
data = open(sys.argv[1], "rb").read().replace(b"meeting notes", b"meeting NOTES", 1)
open(sys.argv[1], "wb").write(data)
`,
      made["bad-crc"]!,
    ],
    dir,
  );
  return made;
}

/** Archives whose data dropkit cannot verify and accepts with a warning: encrypted (`zip -P`), bzip2 (`zip -Z bzip2`). */
export function makeUnverifiableZips(dir: string): Record<string, string> {
  const src = sourceTree();
  const made = { encrypted: path.join(dir, "encrypted.zip"), bzip2: path.join(dir, "bzip2.zip") };
  run("zip", ["-qr", "-P", "secret", made.encrypted, "."], src);
  run("zip", ["-qr", "-Z", "bzip2", made.bzip2, "readme.txt", "lines.txt"], src);
  return made;
}
