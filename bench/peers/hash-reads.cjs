// bench:create's peer with dropkit's own way of reading (1 MiB synchronous reads, as each worker thread does): how much of
// the speed-up is the reading rather than the CPUs.
const { createHash } = require("node:crypto");
const { closeSync, openSync, readSync } = require("node:fs");

const buffer = Buffer.allocUnsafe(1024 * 1024);
for (const file of process.argv.slice(2)) {
  const hash = createHash("sha256");
  const fd = openSync(file, "r");
  for (let n; (n = readSync(fd, buffer, 0, buffer.length, null)) > 0; ) hash.update(buffer.subarray(0, n));
  closeSync(fd);
  hash.digest("hex");
}
