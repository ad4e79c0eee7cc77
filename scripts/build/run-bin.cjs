// Runs the bin as its command would run (node scripts/build/run-bin.cjs <bin> <args...>) and prints, at exit, whether V8
// rejected the code caches of the bundle and of jiti (none: undefined): scripts/build/checks.mjs reads it.
const [bin, ...args] = process.argv.slice(2);
process.argv = [process.argv[0], bin, ...args];
const loaded = require(bin);
process.on("exit", () => {
  process.stdout.write(`rejected: ${loaded.bundle.script.cachedDataRejected} ${loaded.jiti?.script.cachedDataRejected}\n`);
});
