// bench:create's peer doing on one CPU what create does to each archive, with create's own code: argv[2] is
// src/archives/digest.ts bundled, the rest the archives. The SHA-256, then the zip check with every entry's data verified.
const { digestArchive } = require(process.argv[2]);

const buffer = Buffer.allocUnsafe(1024 * 1024);
for (const file of process.argv.slice(3)) {
  const digest = digestArchive({ file, hash: true, check: true }, buffer);
  if (!digest.ok || !digest.zip.ok || digest.zip.verified !== digest.zip.entries) throw new Error(file + ": " + JSON.stringify(digest));
}
