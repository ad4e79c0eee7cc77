// bench:create's peer: one CPU hashing the files of argv in one process, one stream after another, as a script would.
const { createHash } = require("node:crypto");
const { createReadStream } = require("node:fs");

(async () => {
  for (const file of process.argv.slice(2)) {
    const hash = createHash("sha256");
    for await (const chunk of createReadStream(file)) hash.update(chunk);
    hash.digest("hex");
  }
})();
