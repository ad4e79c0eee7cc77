// Builds the core with asc: dist/dropkit.wasm, the release module (-O3), and build/dropkit.debug.wasm, for debugging
// the core (asconfig.json has both targets).
//
// Two steps around asc keep the release module within its ceiling, 64 KB raw and 24 KB gzipped (docs/performance.md,
// "Size"), without costing its hot paths speed:
// - `@noinline`, which asc accepts and ignores, is made real: Binaryen calls what the core marks so (cold code, and
//   helpers whose copies would cost more bytes than their calls cost time) instead of copying it into every caller.
//   So does it the standard library's checked array read (`array[i]`): hot loops read with `unchecked()`, and
//   elsewhere a call is as fast and far smaller than a bounds check copied into every read.
// - asc writes each static string as data segments of its own, over five hundred of them, each with its own header;
//   they become one, the zeros between them included: about 1.5 KB more raw and 1.6 KB less gzipped, which is the
//   size a page downloads.

import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { main } from "assemblyscript/asc";
import binaryen from "assemblyscript/binaryen";

/** Standard library functions never inlined (Binaryen wildcards over internal names). */
const LIBRARY_NOINLINE = ["~lib/array/Array<*>#__get", "~lib/staticarray/StaticArray<*>#__get", "~lib/rt/stub/__alloc", "~lib/string/String#charCodeAt"];

/** The transform: asc gives it the program and Binaryen before it optimizes. */
export class NoInline {
  afterCompile(module) {
    const names = [...LIBRARY_NOINLINE];
    for (const [name, element] of this.program.instancesByName) {
      const decorators = element.prototype?.decoratorNodes ?? element.decoratorNodes ?? [];
      if (decorators.some((d) => d.name?.text === "noinline")) names.push(name);
    }
    // The no-inline pass marks the functions whose names match its argument; the mark lasts through asc's passes.
    for (const name of names) {
      this.binaryen.setPassArgument("no-inline", name);
      module.runPasses(["no-inline"]);
    }
    this.binaryen.clearPassArguments();
  }
}

/** The module with its active data segments merged into one (they only initialize memory, so the gaps are zeros). */
export function mergeData(bytes) {
  const module = binaryen.readBinary(bytes);
  // Only to validate: the binary declares no features, and asc's use bulk memory and more.
  module.setFeatures(binaryen.Features.All);
  const segments = [];
  for (let i = 0; i < module.getNumDataSegments(); i++) {
    const info = module.getDataSegmentInfo(module.getDataSegmentByIndex(i));
    if (info.passive) throw new Error("a passive data segment: the merge expects active ones only");
    segments.push({ offset: info.offset, data: new Uint8Array(info.data) });
  }
  if (segments.length < 2) return bytes;
  segments.sort((a, b) => a.offset - b.offset);
  const start = segments[0].offset;
  const end = Math.max(...segments.map((s) => s.offset + s.data.length));
  const data = new Uint8Array(end - start);
  for (const s of segments) data.set(s.data, s.offset - start);
  const memory = module.getMemoryInfo();
  // The memory's export stays as it is (null: no new export).
  module.setMemory(memory.initial, memory.max ?? -1, null, [{ offset: module.i32.const(start), data, passive: false }], memory.shared, memory.is64, "0");
  if (!module.validate()) throw new Error("the module with merged data segments does not validate");
  const out = module.emitBinary();
  module.dispose();
  return out;
}

/** Builds one target of asconfig.json; `args` are more asc options (such as `-o` and `--debug`, for a profile). */
export async function buildTarget(target, args = []) {
  const release = target === "release";
  const { error } = await main(["assembly/index.ts", "--target", target, ...args], {
    stdout: process.stdout,
    stderr: process.stderr,
    transforms: release ? [NoInline] : [],
    writeFile(name, contents, baseDir) {
      const file = path.resolve(baseDir, name);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, release && name.endsWith(".wasm") ? mergeData(contents) : contents);
    },
  });
  if (error) throw new Error(`asc --target ${target} failed: ${error.message}`);
}

// Run as a script, it builds both targets.
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    for (const target of ["release", "debug"]) await buildTarget(target);
  } catch (error) {
    console.error(error.message);
    process.exitCode = 1;
  }
}
