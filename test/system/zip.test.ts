// Tests for src/archives/zip.ts: archives made by zip, Python's zipfile and 7z pass; broken ones get a reason that says what is wrong.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { before, describe, test } from "node:test";
import { checkZip, checkZipFile, zipCheckMemoryBytes, type ZipVerdict } from "../../src/archives/zip.js";
import { eventsOf, fixture, makeZip, runCli } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";
import { infozipBytes, makeUnsoundZips, makeUnverifiableZips, makeValidZips, zipToolsSkip } from "../helpers/zips.js";

/** Checks bytes as a file would be checked. */
function check(bytes: Buffer): ZipVerdict {
  return checkZip({ size: bytes.length, read: (buffer, position) => bytes.copy(buffer, 0, position, position + buffer.length) });
}

function checkPath(file: string): ZipVerdict {
  const fd = fs.openSync(file, "r");
  try {
    return checkZipFile(fd, fs.fstatSync(fd).size);
  } finally {
    fs.closeSync(fd);
  }
}

/** Where the end record starts (the last signature). */
const endOf = (bytes: Buffer): number => bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));

function problemOf(verdict: ZipVerdict): string {
  assert.equal(verdict.ok, false, "the archive is refused");
  return (verdict as { problem: string }).problem;
}

describe("archives made by real tools", { skip: zipToolsSkip() }, () => {
  let zips: Record<string, string> = {};
  before(() => {
    zips = makeValidZips(tempDir("dropkit-zips-"));
  });

  const expected: Record<string, number> = {
    // readme, lines, noise, sub/, sub/deeper/, page.html
    infozip: 6,
    "infozip-zip64": 6,
    "infozip-stored-comment": 6,
    "infozip-piped": 1,
    prepended: 6,
    "7z": 6,
    "7z-stored": 6,
    zipfile: 3,
    "zipfile-zip64": 3,
    "zipfile-streamed": 3,
    "zipfile-empty": 0,
  };
  for (const [name, entries] of Object.entries(expected)) {
    test(`${name}.zip is readable, with its ${entries} entries`, () => {
      assert.deepEqual(checkPath(zips[name]!), { ok: true, entries, verified: entries });
      // unzip agrees that the archive is fine: the fixture itself is what the test says it is.
      assert.equal(spawnSync("unzip", ["-tqq", zips[name]!]).status, name === "prepended" || name === "zipfile-empty" ? 1 : 0);
    });
  }

  test("the zip64 archives really carry zip64 end records", () => {
    for (const name of ["infozip-zip64", "zipfile-zip64"]) {
      const bytes = fs.readFileSync(zips[name]!);
      assert.ok(bytes.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06])), `${name} has a zip64 end record`);
      assert.ok(bytes.includes(Buffer.from([0x50, 0x4b, 0x06, 0x07])), `${name} has a zip64 locator`);
    }
  });

  test("a zip64 archive whose zip64 end record is cut off is truncated", () => {
    const bytes = fs.readFileSync(zips["infozip-zip64"]!);
    const locator = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x06, 0x07]));
    // The zip64 end record goes, the locator and end record stay: they now point past what is left.
    const cut = Buffer.concat([bytes.subarray(0, locator - 56 - 10), bytes.subarray(locator)]);
    assert.match(problemOf(check(cut)), /^(truncated|corrupt): .*zip64 end-of-central-directory record/);
  });

  test("an archive cut in half is truncated", () => {
    const bytes = fs.readFileSync(zips.infozip!);
    assert.match(problemOf(check(bytes.subarray(0, bytes.length >> 1))), /^truncated: the end-of-central-directory record is missing/);
  });
});

describe("broken archives", { skip: zipToolsSkip() }, () => {
  test("a zero-byte file", () => {
    assert.equal(problemOf(check(Buffer.alloc(0))), "not a zip archive (the file is empty)");
  });

  test("a text file named .zip", () => {
    assert.equal(
      problemOf(check(Buffer.from("meeting notes, not an archive\n"))),
      "not a zip archive (no end-of-central-directory record)",
    );
  });

  test("a file shorter than an end record that starts like a zip", () => {
    assert.match(problemOf(check(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2]))), /^truncated:/);
  });

  test("a central directory that ends past the end of the file", () => {
    const bytes = infozipBytes();
    const end = endOf(bytes);
    bytes.writeUInt32LE(bytes.readUInt32LE(end + 16) + 1_000_000, end + 16);
    assert.equal(problemOf(check(bytes)), "truncated: the central directory ends past the end of the file");
  });

  test("a stretch missing from the middle (the end record intact)", () => {
    const bytes = infozipBytes();
    const cut = Buffer.concat([bytes.subarray(0, 5000), bytes.subarray(9000)]);
    assert.equal(problemOf(check(cut)), "truncated: the central directory ends past the end of the file");
    // Fewer bytes missing than the end record is long: the directory now runs into the end record.
    const short = Buffer.concat([bytes.subarray(0, 5000), bytes.subarray(5010)]);
    assert.match(problemOf(check(short)), /^truncated: the central directory ends past the start of the end record/);
  });

  test("a damaged central directory entry", () => {
    const bytes = infozipBytes();
    const central = bytes.readUInt32LE(endOf(bytes) + 16);
    bytes[central] = 0;
    assert.match(problemOf(check(bytes)), /^corrupt: central directory entry 1 has no entry signature/);
  });

  test("an entry count that disagrees with the directory", () => {
    const bytes = infozipBytes();
    const end = endOf(bytes);
    bytes.writeUInt16LE(bytes.readUInt16LE(end + 10) + 2, end + 10);
    assert.match(problemOf(check(bytes)), /^corrupt: the end record counts 8 entries, the central directory holds 6$/);
  });

  test("a local header that is not where the directory says", () => {
    const bytes = makeZip({ "a.txt": "alpha", "b.txt": "bravo" });
    // The second local header starts after the first entry (30 + 5 + 5 bytes).
    bytes[40] = 0x51;
    assert.equal(problemOf(check(bytes)), 'corrupt: no local header for "b.txt" at offset 40');
  });

  test("entry data that runs into the next entry or into the central directory", () => {
    const bytes = makeZip({ "a.txt": "alpha", "b.txt": "bravo" });
    const central = bytes.readUInt32LE(endOf(bytes) + 16);
    // The first central entry's compressed size, then the second's.
    bytes.writeUInt32LE(50, central + 20);
    assert.equal(problemOf(check(bytes)), 'corrupt: the data of "a.txt" runs into the next entry, "b.txt"');
    const other = makeZip({ "a.txt": "alpha" });
    other.writeUInt32LE(6, other.readUInt32LE(endOf(other) + 16) + 20);
    assert.equal(problemOf(check(other)), 'corrupt: the data of "a.txt" runs into the central directory');
  });

  test("a split archive", () => {
    const bytes = makeZip({ "a.txt": "alpha" });
    bytes.writeUInt16LE(1, endOf(bytes) + 4);
    assert.match(problemOf(check(bytes)), /^unsupported: a split \(multi-part\) archive/);
  });

  test("a file that shrinks while it is read is truncated, never an exception", () => {
    const bytes = infozipBytes();
    const shorter = bytes.subarray(0, bytes.length - 30);
    const verdict = checkZip({
      size: bytes.length,
      read: (buffer, position) => shorter.copy(buffer, 0, Math.min(position, shorter.length), position + buffer.length),
    });
    assert.match(problemOf(verdict), /^(truncated|not a zip archive)/);
  });

  test("every prefix and every one-byte change of a small archive gets a verdict, never an exception", () => {
    const bytes = makeZip({ "a.txt": "alpha", "dir/b.txt": "bravo" });
    for (let n = 0; n <= bytes.length; n++) {
      const verdict = check(bytes.subarray(0, n));
      assert.equal(verdict.ok, n === bytes.length, `prefix of ${n} bytes`);
    }
    for (let i = 0; i < bytes.length; i++) {
      for (const value of [0x00, 0xff]) {
        const changed = Buffer.from(bytes);
        changed[i] = value;
        check(changed);
      }
    }
  });
});

describe("speed of the check", () => {
  test("an archive of 20,000 small entries takes few reads", () => {
    const entries: Record<string, string> = {};
    for (let i = 0; i < 20_000; i++) entries[`f/${i}.txt`] = `entry ${i}`;
    const bytes = makeZip(entries);
    let reads = 0;
    const verdict = checkZip({
      size: bytes.length,
      read: (buffer, position) => {
        reads++;
        return bytes.copy(buffer, 0, position, position + buffer.length);
      },
    });
    assert.deepEqual(verdict, { ok: true, entries: 20_000, verified: 20_000 });
    // The tail, the central directory twice (256 KiB a read), one read per 64 KiB of local headers, and one per entry's data.
    assert.ok(reads <= 1 + 2 * Math.ceil(bytes.length / 262144) + Math.ceil(bytes.length / 65536) + 20_000 + 1, `${reads} reads`);
  });

  test("checkZipFile reads a real file", () => {
    const dir = tempDir();
    const file = path.join(dir, "a.zip");
    fs.writeFileSync(file, makeZip({ "a.txt": "alpha" }));
    assert.deepEqual(checkPath(file), { ok: true, entries: 1, verified: 1 });
  });
});

describe("memory of the check", () => {
  /** A zip of `count` stored entries with zero-length names and no data: a long central directory in a small file. */
  function writeManyEmpty(file: string, count: number): void {
    const locals = Buffer.alloc(30 * count);
    const centrals = Buffer.alloc(46 * count);
    for (let i = 0; i < count; i++) {
      locals.writeUInt32LE(0x04034b50, 30 * i);
      locals.writeUInt16LE(10, 30 * i + 4);
      centrals.writeUInt32LE(0x02014b50, 46 * i);
      centrals.writeUInt16LE(10, 46 * i + 6);
      centrals.writeUInt32LE(30 * i, 46 * i + 42);
    }
    const end = Buffer.alloc(22 + 56 + 20);
    // zip64 end record and locator (the count is past 16 bits), then the end record.
    end.writeUInt32LE(0x06064b50, 0);
    end.writeBigUInt64LE(44n, 4);
    end.writeBigUInt64LE(BigInt(count), 24);
    end.writeBigUInt64LE(BigInt(count), 32);
    end.writeBigUInt64LE(BigInt(centrals.length), 40);
    end.writeBigUInt64LE(BigInt(locals.length), 48);
    end.writeUInt32LE(0x07064b50, 56);
    end.writeBigUInt64LE(BigInt(locals.length + centrals.length), 64);
    end.writeUInt32LE(1, 72);
    end.writeUInt32LE(0x06054b50, 76);
    end.writeUInt16LE(0xffff, 76 + 8);
    end.writeUInt16LE(0xffff, 76 + 10);
    end.writeUInt32LE(0xffffffff, 76 + 12);
    end.writeUInt32LE(0xffffffff, 76 + 16);
    fs.writeFileSync(file, Buffer.concat([locals, centrals, end]));
  }

  /** The check of `file` in a child: its verdict and how much it grew the peak resident size, in bytes. */
  function checkInChild(file: string): { verdict: ZipVerdict; grew: number } {
    const script = `
      const fs = require("node:fs");
      import(${JSON.stringify(new URL("../../src/archives/zip.ts", import.meta.url).href)}).then(({ checkZipFile }) => {
        const fd = fs.openSync(process.argv[1], "r");
        const size = fs.fstatSync(fd).size;
        const before = process.resourceUsage().maxRSS;
        const verdict = checkZipFile(fd, size);
        process.stdout.write(JSON.stringify({ verdict, grew: (process.resourceUsage().maxRSS - before) * 1024 }));
      });`;
    const r = spawnSync(process.execPath, ["--import", "tsx", "-e", script, file], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as { verdict: ZipVerdict; grew: number };
  }

  test("a deflated entry of 400 MB is inflated in pieces: memory bounded, not growing with the entry", { skip: zipToolsSkip() }, () => {
    const file = path.join(tempDir(), "zeros.zip");
    spawnSync("python3", [
      "-c",
      "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n    with " +
        "z.open('zeros.bin', 'w', force_zip64=True) as f:\n        for _ in range(400): f.write(bytes(1000000))",
      file,
    ]);
    const { verdict, grew } = checkInChild(file);
    assert.deepEqual(verdict, { ok: true, entries: 1, verified: 1 });
    assert.ok(grew < zipCheckMemoryBytes, `the check grew the resident size by ${(grew / 1048576).toFixed(1)} MiB`);
  });

  test("a directory of 1,000,000 zero-length names is checked in a bounded amount of memory, not one growing with the names", () => {
    const file = path.join(tempDir(), "many.zip");
    const count = 1_000_000;
    writeManyEmpty(file, count);
    // In a child, so that the peak resident size is the check's alone: the check's own growth of it, in bytes.
    const { verdict, grew } = checkInChild(file);
    assert.deepEqual(verdict, { ok: true, entries: count, verified: count });
    // The file is 76 MB, its directory 46 MB: the whole directory held in memory would be more than this bound.
    assert.ok(grew < zipCheckMemoryBytes, `the check grew the resident size by ${(grew / 1048576).toFixed(1)} MiB`);
  });
});

describe("names that escape and data that does not verify (unzip -t's checks)", { skip: zipToolsSkip() }, () => {
  let unsound: Record<string, string> = {};
  let unverifiable: Record<string, string> = {};
  before(() => {
    const dir = tempDir("dropkit-unsound-");
    unsound = makeUnsoundZips(dir);
    unverifiable = makeUnverifiableZips(dir);
  });

  const expected: Record<string, RegExp> = {
    "drive-letter": /^unsafe name: entry "C:\\\\xt" starts with a drive letter/,
    absolute: /^unsafe name: entry "\/a\.txt" is an absolute path/,
    "dot-dot": /^unsafe name: entry "\.\.\/xt" has a "\.\." segment/,
    backslash: /^unsafe name: entry "a\\\\txt" holds a backslash/,
    "bad-deflate": /^corrupt: the data of "page\.txt" does not inflate \(.+\)$/,
    "bad-crc": /^corrupt: the data of "notes\.txt" does not match its CRC-32 \([0-9a-f]{8}, the directory says [0-9a-f]{8}\)$/,
  };
  for (const [name, problem] of Object.entries(expected)) {
    test(`${name}.zip is refused`, () => {
      assert.match(problemOf(checkPath(unsound[name]!)), problem);
      if (name.startsWith("bad-")) {
        // unzip -t refuses the data too: the fixture is what the test says it is.
        assert.notEqual(spawnSync("unzip", ["-tqq", unsound[name]!]).status, 0);
      }
    });
  }

  test("encrypted entries and an unknown method are accepted, counted out of verified, and named in the note", () => {
    const encrypted = checkPath(unverifiable.encrypted!);
    assert.ok(encrypted.ok);
    assert.deepEqual([encrypted.entries, encrypted.verified], [6, 2], "the two folders' entries are not encrypted");
    assert.match(
      encrypted.note!,
      /^4 entries encrypted \(their data cannot be verified without the password\): "[^"]+", "[^"]+", "[^"]+" and more$/,
    );
    const bzip2 = checkPath(unverifiable.bzip2!);
    // zip stores the six-byte readme as it is (bzip2 would make it larger): that one is verified.
    assert.deepEqual(bzip2, {
      ok: true,
      entries: 2,
      verified: 1,
      note: '1 entry compressed with method 12 (bzip2), which dropkit cannot decode: "lines.txt"',
    });
  });

  test("a directory that lists entries out of data order is checked through its table", () => {
    const bytes = makeZip({ "a.txt": "alpha", "b.txt": "bravo" });
    const central = bytes.readUInt32LE(endOf(bytes) + 16);
    // The two central records swapped: each is 46 + 5 bytes.
    const swapped = Buffer.concat([
      bytes.subarray(0, central),
      bytes.subarray(central + 51, central + 102),
      bytes.subarray(central, central + 51),
      bytes.subarray(central + 102),
    ]);
    assert.deepEqual(check(swapped), { ok: true, entries: 2, verified: 2 });
    swapped.writeUInt32LE(50, central + 51 + 20);
    assert.equal(problemOf(check(swapped)), 'corrupt: the data of "a.txt" runs into the next entry, "b.txt"');
  });
});

describe("a local header that disagrees with the central directory, and method 99 without the encryption flag", () => {
  /** A one-entry archive of `text` made by Python's zipfile, stored or deflated. */
  function pythonZip(text: string, deflated: boolean): Buffer {
    const file = path.join(tempDir("dropkit-local-"), "a.zip");
    const method = deflated ? "ZIP_DEFLATED" : "ZIP_STORED";
    const script = `import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], "w", zipfile.${method}) as z: z.writestr("a.txt", sys.argv[2])`;
    const made = spawnSync("python3", ["-c", script, file, text], { encoding: "utf8" });
    assert.equal(made.status, 0, made.stderr);
    return fs.readFileSync(file);
  }
  /** Where the first central record starts. */
  const centralOf = (bytes: Buffer): number => bytes.readUInt32LE(endOf(bytes) + 16);
  const unzipStatus = (bytes: Buffer): number | null => {
    const file = path.join(tempDir("dropkit-local-"), "x.zip");
    fs.writeFileSync(file, bytes);
    return spawnSync("unzip", ["-tqq", file]).status;
  };

  // Offsets in the local header: 18 the compressed size, 22 the size.
  for (const [what, at, name] of [
    ["compressed size", 18, "its compressed size"],
    ["size", 22, "its size"],
  ] as const) {
    test(`a stored entry whose local ${what} is not the directory's is refused, as unzip -t refuses it`, () => {
      const bytes = makeZip({ "a.txt": "hello world\n" });
      bytes.writeUInt32LE(13, at);
      assert.equal(problemOf(check(bytes)), `corrupt: the local header of "a.txt" gives ${name} as 13 bytes, the central directory as 12`);
      // unzip -t: "ucsize 12 <> csize 13 for STORED entry", a warning (1) or a CRC error (2).
      assert.notEqual(unzipStatus(bytes), 0);
    });

    test(`a deflated entry whose local ${what} is not the directory's is refused (a reader of local headers reads other bytes)`, () => {
      const bytes = pythonZip("hello hello hello hello\n", true);
      assert.deepEqual(check(bytes), { ok: true, entries: 1, verified: 1 });
      const local = bytes.readUInt32LE(at);
      bytes.writeUInt32LE(local + 1, at);
      assert.equal(
        problemOf(check(bytes)),
        `corrupt: the local header of "a.txt" gives ${name} as ${local + 1} bytes, the central directory as ${local}`,
      );
    });
  }

  test("a local header with a data descriptor (bit 3) is not held to its sizes, which follow the data", () => {
    const bytes = makeZip({ "a.txt": "hello world\n" });
    const central = centralOf(bytes);
    for (const flags of [6, central + 8]) bytes.writeUInt16LE(8, flags);
    bytes.writeUInt32LE(0, 18);
    bytes.writeUInt32LE(0, 22);
    assert.deepEqual(check(bytes), { ok: true, entries: 1, verified: 1 });
  });

  test("local zip64 sizes are compared as the 64-bit values they stand for", () => {
    const made = path.join(tempDir("dropkit-local-"), "z.zip");
    const script = [
      "import sys, zipfile",
      "zipfile.ZIP64_LIMIT = 4",
      'with zipfile.ZipFile(sys.argv[1], "w") as z:',
      '    with z.open("a.txt", "w", force_zip64=True) as f: f.write(b"hello world")',
    ].join("\n");
    assert.equal(spawnSync("python3", ["-c", script, made]).status, 0);
    const bytes = fs.readFileSync(made);
    assert.equal(bytes.readUInt32LE(18), 0xffffffff, "the local header's sizes are in its zip64 field");
    assert.deepEqual(check(bytes), { ok: true, entries: 1, verified: 1 });
    // The zip64 field: after the 30-byte header and the 5-byte name, its id and length, then the size and compressed size.
    const field = 30 + 5 + 4;
    bytes.writeBigUInt64LE(12n, field);
    assert.equal(problemOf(check(bytes)), 'corrupt: the local header of "a.txt" gives its size as 12 bytes, the central directory as 11');
  });

  test("method 99 without the encryption flag is an unknown method, not an encrypted entry; with the flag, encrypted", () => {
    const bytes = makeZip({ "a.txt": "hello world\n" });
    const central = centralOf(bytes);
    for (const method of [8, central + 10]) bytes.writeUInt16LE(99, method);
    assert.deepEqual(check(bytes), {
      ok: true,
      entries: 1,
      verified: 0,
      note: `1 entry compressed with method 99 (AES's number, but not flagged as encrypted), which dropkit cannot decode: "a.txt"`,
    });
    // unzip -t: "unsupported compression method 99".
    const file = path.join(tempDir("dropkit-local-"), "m99.zip");
    fs.writeFileSync(file, bytes);
    assert.match(spawnSync("unzip", ["-t", file], { encoding: "utf8" }).stdout, /unsupported compression method 99/);
    for (const flags of [6, central + 8]) bytes.writeUInt16LE(1, flags);
    const encrypted = check(bytes);
    assert.ok(encrypted.ok && encrypted.note!.startsWith("1 entry encrypted"), JSON.stringify(encrypted));
  });

  test("create: a selected module whose local header disagrees is ArchiveInvalid (65); one with method 99 is accepted with a warning naming the method", () => {
    const json = ["--log-format=json", "--theme=none"];
    const root = fixture({ "blog.zip": { zip: { b: "b" } } });
    const bad = makeZip({ "a.txt": "hello world\n" });
    bad.writeUInt32LE(13, 22);
    fs.writeFileSync(path.join(root, "shop.zip"), bad);
    const run = runCli(root, ["create", ...json]);
    assert.equal(run.status, 65, run.stderr);
    const errors = eventsOf(run, "error");
    assert.deepEqual(
      errors.map((e) => [e.name, e.source]),
      [["ArchiveInvalid", path.join(root, "shop.zip")]],
    );
    assert.match(
      errors[0]!.message,
      /is unreadable: corrupt: the local header of "a\.txt" gives its size as 13 bytes, the central directory as 12/,
    );
    assert.ok(!fs.existsSync(path.join(root, ".dropkit.json")), "nothing written");
    // Left out by the plan: a warning, and the run goes on.
    const left = runCli(root, ["create", ...json, "--exclude=shop"]);
    assert.equal(left.status, 0, left.stderr);
    assert.ok(eventsOf(left, "warning").some((w) => /shop\.zip is unreadable \(corrupt: the local header/.test(w.message)));

    const m99 = makeZip({ "a.txt": "hello world\n" });
    for (const method of [8, centralOf(m99) + 10]) m99.writeUInt16LE(99, method);
    fs.writeFileSync(path.join(root, "shop.zip"), m99);
    const accepted = runCli(root, ["create", ...json]);
    assert.equal(accepted.status, 0, accepted.stderr);
    const warnings = eventsOf(accepted, "warning").map((w) => w.message as string);
    assert.ok(
      warnings.some((w) => w.includes("compressed with method 99") && !w.includes("encrypted (")),
      warnings.join("\n"),
    );
  });
});
