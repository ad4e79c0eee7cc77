// Builds the core with asc: dist/dropkit.wasm, the release module (-O3), and build/dropkit.debug.wasm, for debugging
// the core (asconfig.json has both targets).
//
// Two steps around asc stay because `npm run bench:instructions` and the module's gzipped size show each pays for
// itself (docs/performance.md#the-builds-transform has the figures with and without each part):
// - `@noinline`, which asc accepts and ignores, is made real: Binaryen calls what is marked so instead of copying it
//   into every caller. Standard library functions (LIBRARY_NOINLINE) are marked where that saves size at no speed
//   the bench can see; in assembly/ each mark says whether it is for size or speed.
// - asc writes each static string as data segments of its own, over five hundred of them, each with its own header;
//   those apart by no more than a string's header are merged (MERGE_GAP): a little more raw and less gzipped, which
//   is the size a page downloads and the one the module's ceiling (32 KB gzipped) holds. Data only: the code, and so
//   the instruction counts, are the same.

import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { main } from "assemblyscript/asc";
import binaryen from "assemblyscript/binaryen";

/**
 * Standard library functions never inlined (Binaryen wildcards over internal names), each for size: hot loops
 * read arrays with `unchecked()`, and elsewhere a call is as fast as the bounds check or bump it would copy.
 */
const LIBRARY_NOINLINE = [
  // Size, at no speed the bench can see.
  "~lib/array/Array<*>#__get",
  // Size, and the large validates (bench:core's measures 1 and 2) faster, the small resolve a little slower.
  "~lib/rt/stub/__alloc",
  // Size, at no cost.
  "~lib/string/String#charCodeAt",
];

/** The transform: asc gives it the program and Binaryen before it optimizes. */
export class NoInline {
  afterCompile(module) {
    const names = [...LIBRARY_NOINLINE];
    for (const [name, element] of this.program.instancesByName) {
      const decorators = element.prototype?.decoratorNodes ?? element.decoratorNodes ?? [];
      if (decorators.some((d) => d.name?.text === "noinline")) names.push(name);
    }
    // The transform reads asc's internals: when they change, it must fail the build rather than mark nothing.
    if (names.length === LIBRARY_NOINLINE.length)
      throw new Error("NoInline found no @noinline function in the program: asc's program API changed; update scripts/build-wasm.mjs");
    const functions = [];
    for (let i = 0; i < module.getNumFunctions(); i++) functions.push(this.binaryen.getFunctionInfo(module.getFunctionByIndex(i)).name);
    for (const name of names) {
      const pattern = new RegExp("^" + name.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*") + "$");
      if (!functions.some((f) => pattern.test(f)))
        throw new Error(`NoInline: no function of the module is named ${name}; update LIBRARY_NOINLINE or the decorator`);
    }
    // The no-inline pass marks the functions whose names match its argument; the mark lasts through asc's passes.
    for (const name of names) {
      this.binaryen.setPassArgument("no-inline", name);
      module.runPasses(["no-inline"]);
    }
    this.binaryen.clearPassArguments();
  }
}

/**
 * Data segments closer than this many bytes are merged, the zeros between them included: asc writes each static
 * string as segments of its own, split at the zeros of its header (mostly 11 bytes), and a segment's own header
 * (its offset and length) costs about 7 bytes. Merging across a string's header costs a few raw bytes and saves
 * more gzipped ones; longer runs of zeros stay out of the module.
 */
const MERGE_GAP = 11;

/** The module with its active data segments merged across gaps of up to MERGE_GAP bytes (which are zeros). */
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
  segments.sort((a, b) => a.offset - b.offset);
  const merged = [];
  for (const s of segments) {
    const last = merged.at(-1);
    if (last !== undefined && s.offset - (last.offset + last.data.length) <= MERGE_GAP) {
      const data = new Uint8Array(s.offset + s.data.length - last.offset);
      data.set(last.data);
      data.set(s.data, s.offset - last.offset);
      last.data = data;
    } else {
      merged.push(s);
    }
  }
  const memory = module.getMemoryInfo();
  if (memory.module) throw new Error("an imported memory: the merge would make it a defined one");
  // The memory's export stays as it is (null: no new export).
  const active = merged.map((s) => ({ offset: module.i32.const(s.offset), data: s.data, passive: false }));
  module.setMemory(memory.initial, memory.max ?? -1, null, active, memory.shared, memory.is64, "0");
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
