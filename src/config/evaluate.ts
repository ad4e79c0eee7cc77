// Evaluating a .ts/.js config or preset, natively where the runtime can be handed its judged text, else through jiti.
// Compiled only into the user's private cache, `dropkit` the running one where the project has none, its default export
// (or what its function returns) as plain data, process.exit refused, and a throw placed where it was written.

import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { types } from "node:util";
import { privateDir } from "../files/privatedir.js";
import type { JudgedFile } from "../files/judged.js";
import { distrustOfPath, trustPolicy } from "../files/trust.js";
import { DropkitError, fail } from "../errors.js";
import { ownFile, requireDependency, runningPackage } from "../installed.js";
import { withDefaultSignals } from "../signals.js";
import { limits, type ReadBudget } from "../files/limits.js";
import { importNative, nativeTypeScript } from "./native.js";
import { sharedPatch } from "./sharedpatch.js";
import { describeValue, isPlainObject, toJsonValue, type JsonValue } from "./plaindata.js";
import { formatPosition, locateError, plainError, recordCompiledCode, recordJiti } from "./stack.js";

/** What a file is, for messages: a config or a preset. */
export type FileRole = "config" | "preset";

/**
 * Evaluates a `.ts`/`.js` file natively (a `.ts` file on a Node that strips types) or through jiti (loaded only now,
 * so JSON-only runs never pay for it) and converts its default export to plain JSON data: an object, or a sync or
 * async function returning one. The file is known to be a regular file within `limits.fileBytes` (`loadConfigFile`
 * checks it first).
 *
 * @param judged - The file as it was opened and judged (src/files/judged.ts): its code is `text`, never read again by name.
 * @param text - Its text, decoded from the judged bytes.
 * @param budget - What the resolve has read so far, charged with the JSON text of the data.
 * @throws DropkitError `ConfigLoadError` (65) when evaluation throws or exports no object, or the data is over the
 *   limits; `SchemaValidationError` (65, one diagnostic per value) when the export holds values JSON cannot carry.
 */
export async function evaluateConfig(judged: JudgedFile, text: string, budget?: ReadBudget): Promise<{ [key: string]: JsonValue }> {
  const { path: file, role } = judged;
  // Recorded until the data is read: an error's position is mapped through the code jiti ran. Signals are the kernel's
  // while it runs (src/signals.ts): the file's code, its getters included, may block the main thread.
  return withDefaultSignals(file, () =>
    withoutExit(() =>
      recordCompiledCode(async () => {
        try {
          const value = await evaluate(file, text, role);
          return toJsonValue(value, file, budget) as { [key: string]: JsonValue };
        } catch (error) {
          if (error instanceof DropkitError) throw error;
          // The export is user code: a Proxy whose traps throw, a getter on `default`, a throwing `constructor`...
          throw loadError(file, role, "exports a value that cannot be read", plainError(error));
        }
      }),
    ),
  );
}

// --- helpers ---

type Jiti = {
  import(id: string): Promise<unknown>;
  evalModule(source: string, options: { id: string; filename: string; ext: string; async: boolean; forceTranspile: boolean }): unknown;
};

/** The jiti instances by cache directory (or none) and alias, created on first use: requiring jiti costs start-up time. */
const jitis = new Map<string, Jiti>();
let noCacheSaid = false;

/**
 * The jiti instance for the next evaluation. Its compiled files go only to the user's private cache
 * directory, checked again now (src/files/privatedir.ts), or nowhere: jiti's default, `os.tmpdir()/jiti`, is shared,
 * and a file planted there under the predictable name would run instead of the user's config. `alias` (from
 * `dropkitAliases`) makes `dropkit` the running one, for projects that have none.
 */
function getJiti(alias?: Record<string, string>): Jiti {
  const cache = privateDir();
  if (cache.dir === null && !noCacheSaid && process.env.DROPKIT_DEBUG === "1") {
    noCacheSaid = true;
    process.stderr.write(`dropkit: .ts/.js configs are compiled without a file cache: ${cache.why}\n`);
  }
  // Deno's mkdir cannot take a held directory's /proc/self/fd path (jiti then caches nothing): there, jiti gets the real
  // path that was judged, made of directories only this user (or root) can change (src/files/privatedir.ts).
  const fsCache = cache.dir === null ? false : process.versions.deno !== undefined ? cache.real : cache.dir;
  const key = `${alias !== undefined}:${fsCache}`;
  let jiti = jitis.get(key);
  if (!jiti) {
    // From dropkit's own file (in a program's bundle, the bundle's), else its package's: an IOError naming jiti when neither has it.
    let loaded: unknown;
    try {
      loaded = requireDependency("jiti", "(for .js configs, and .ts configs where the runtime cannot strip types)");
    } catch (error) {
      if (error instanceof DropkitError) ownErrors.add(error);
      throw error;
    }
    const { createJiti } = loaded as { createJiti(id: string, options: Record<string, unknown>): Jiti };
    // A CommonJS bundle's `import.meta` is empty: its own file instead.
    jiti = createJiti((import.meta.url as string | undefined) ?? ownFile() ?? process.cwd(), {
      ...(alias ? { alias } : {}),
      // Given here, these win over JITI_* variables: no cache elsewhere, and no ESM temp files in os.tmpdir().
      fsCache,
      rebuildFsCache: false,
      esmEvalTempFile: false,
      // No module cache: a config edited between two loads in one process must be re-read.
      moduleCache: false,
      // Without interop, `default` is exactly the default export, so a file with only named exports
      // can be told apart from one exporting an object.
      interopDefault: false,
      // An inline source map in each compiled file (and in its cache entry): positions in the code V8 runs are
      // mapped back to the file as written when it throws (src/config/stack.ts).
      sourceMaps: true,
    });
    jitis.set(key, jiti);
  }
  return jiti;
}

/**
 * A `.ts`/`.js` file's module, from its judged `text`: a `.ts` file loaded natively where the runtime can be handed the
 * text (src/config/native.ts: Node 22.18+, Bun, Deno), else (a `.js` file, Node 20, syntax Node cannot erase, an import
 * only jiti can resolve) compiled by jiti from the text. Files the config imports are read by the loader, as the
 * config's own business.
 */
async function importModule(file: string, text: string): Promise<unknown> {
  // Looked up when a loader needs them.
  let alias: { value: Record<string, string> | undefined } | undefined;
  const aliases = () => (alias ??= { value: dropkitAliases(file) }).value;
  if (file.endsWith(".ts")) {
    const native =
      nativeTypeScript() === null
        ? { why: "this runtime cannot load it from its judged text (Node 22.18 or later, Bun and Deno can)" }
        : await importNative(file, text, aliases);
    if (!("why" in native)) return native.module;
    if (process.env.DROPKIT_DEBUG === "1") process.stderr.write(`dropkit: ${file} is compiled by jiti: ${native.why}\n`);
  }
  recordJiti();
  // Transpiled whatever its form: jiti would otherwise import a plain module natively, by its name.
  return getJiti(aliases()).evalModule(text, { id: file, filename: file, ext: path.extname(file), async: true, forceTranspile: true });
}

/**
 * jiti aliases that make `import ... from "dropkit"` (and `dropkit/core`, `dropkit/abi`, ...) in `file` load the
 * dropkit that is running, or `undefined` when the project has a dropkit of its own, which then wins as Node would
 * resolve it. A config that imports `defineConfig` thus loads wherever dropkit runs from.
 *
 * The project's own install counts only inside the discovery fence (`fence`: the directory discovery stopped at, or
 * the config's own directory for an explicit one) and only from trusted directories (src/files/trust.ts): a
 * `node_modules/dropkit` above the repository, or in a folder another user can write (`/tmp/node_modules`), is
 * someone else's code, and the running dropkit answers instead.
 *
 * @param file - The absolute path of the config or preset file.
 */
function dropkitAliases(file: string): Record<string, string> | undefined {
  if (hasInstalledDropkit(path.dirname(file))) return undefined;
  return runningAliases();
}

let aliases: { value: Record<string, string> | undefined } | undefined;

/**
 * The package's own exports as absolute paths, read from its package.json, so that every subpath a project could
 * import is covered and none drifts from the package: the package dropkit runs from, or in a program's bundle the one
 * Node finds from the bundle (src/installed.ts). With none, `undefined`: the config's `import "dropkit"` is Node's to
 * resolve from the config, as any other package it imports.
 */
function runningAliases(): Record<string, string> | undefined {
  if (aliases) return aliases.value;
  const root = runningPackage();
  if (root === undefined) {
    aliases = { value: undefined };
    return undefined;
  }
  const { exports } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    exports: Record<string, string | { default: string }>;
  };
  const value: Record<string, string> = {};
  for (const [subpath, target] of Object.entries(exports)) {
    const file = typeof target === "string" ? target : target.default;
    value[subpath === "." ? "dropkit" : `dropkit/${subpath.slice(2)}`] = path.join(root, file);
  }
  aliases = { value };
  return value;
}

/**
 * The fix, when a config's `import "dropkit"` failed because dropkit runs from a program's bundle that has no dropkit
 * package to lend it (src/installed.ts, `runningPackage`), and the project has none: "" otherwise.
 */
function unlentDropkit(message: string): string {
  if (aliases === undefined || aliases.value !== undefined || !/Cannot find (?:module|package) 'dropkit(?:\/[^']*)?'/.test(message))
    return "";
  const fix = "install dropkit in the config's project (npm install --save-dev dropkit) or where the program runs";
  return `. dropkit runs here from ${ownFile() ?? "a bundle"}, a bundle with no dropkit package beside it to lend the config's import: ${fix}.`;
}

/**
 * Whether Node's resolution from `dir` would find a `dropkit` package that the project installed: `node_modules/dropkit`
 * in `dir` or above, up to the repository (the directory holding `.git`) or `dir` itself when there is none, whose
 * `package.json` and the directories to it are trusted.
 */
function hasInstalledDropkit(dir: string): boolean {
  const scope = { policy: trustPolicy(process.env), fence: repositoryOf(dir) };
  for (let current = dir; ; current = path.dirname(current)) {
    const manifest = path.join(current, "node_modules", "dropkit", "package.json");
    if (existsSync(manifest)) return distrustOfPath(manifest, scope) === null;
    if (current === scope.fence || path.dirname(current) === current) return false;
  }
}

/** The nearest directory at or above `dir` holding `.git` (a file or a folder), or `dir` when none does. */
function repositoryOf(dir: string): string {
  for (let current = dir; ; current = path.dirname(current)) {
    if (existsSync(path.join(current, ".git"))) return current;
    if (path.dirname(current) === current) return dir;
  }
}

/** Evaluates a `.ts`/`.js` file and returns its default export, called if it is a function. */
async function evaluate(file: string, text: string, role: FileRole): Promise<object> {
  let mod: unknown;
  try {
    mod = commonJsAsDefault(await settled(importModule(file, text), file, role, "its top-level code"));
  } catch (error) {
    if (ownErrors.has(error as object)) throw error;
    throw loadError(file, role, "could not be evaluated", plainError(error));
  }
  if (typeof mod !== "object" || mod === null || !Object.hasOwn(mod, "default")) {
    const named =
      typeof mod === "object" && mod !== null
        ? Object.keys(mod)
            .filter((k) => k !== "__esModule")
            .sort()
        : [];
    const found = named.length > 0 ? ` (it has named exports: ${named.join(", ")})` : "";
    fail(
      "ConfigLoadError",
      `The ${role} ${file} has no default export${found}. Export the ${role} object: \`export default { ... }\` or \`module.exports = { ... }\`.`,
      { file, source: file },
    );
  }
  let exported = (mod as { default: unknown }).default;
  // TypeScript compiled to CommonJS puts the default export under `exports.default` next to `__esModule`.
  if (
    typeof exported === "object" &&
    exported !== null &&
    (exported as { __esModule?: unknown }).__esModule === true &&
    Object.hasOwn(exported, "default")
  ) {
    exported = (exported as { default: unknown }).default;
  }
  let what = "default export";
  if (typeof exported === "function") {
    what = "function exported by default";
    try {
      exported = await settled(Promise.resolve((exported as () => unknown)()), file, role, "the promise its exported function returned");
    } catch (error) {
      if (ownErrors.has(error as object)) throw error;
      throw loadError(file, role, "threw when its exported function was called", plainError(error));
    }
  }
  if (!isPlainObject(exported)) {
    fail(
      "ConfigLoadError",
      `The ${what} of ${file} is ${describeValue(exported)}, not an object. A ${role} file must export an object, or a function returning one.`,
      { file, source: file },
    );
  }
  return exported;
}

/**
 * The errors dropkit made while a file loads (`settled`'s, and a missing jiti's): told apart from what a config throws
 * without looking at the thrown value, which may be a Proxy whose every trap throws (`instanceof` would run its
 * `getPrototypeOf`).
 */
const ownErrors = new WeakSet<object>();

/**
 * The waits `settled` has running, and the one `beforeExit` listener that serves them all, there while any is: a
 * listener per load passed Node's limit of 10 (a MaxListenersExceededWarning) when a program loaded more configs at once.
 */
const idleWaits = new Set<() => void>();
const onIdle = (): void => {
  for (const idle of [...idleWaits]) idle();
};

/**
 * `pending`, unless it never settles: a config's code that awaits a promise nothing will resolve leaves the event loop
 * with nothing to do, and Node would end the process there, with the code of a success and nothing done. So:
 *
 * - when the event loop would empty (Node's `beforeExit`: no timer, no I/O, no other work left) while `pending` is
 *   still pending, it can never settle: a `ConfigLoadError` naming the file;
 * - when something else keeps the loop alive (a timer or a server the config started, a host program's own work),
 *   it may yet settle, but only within `limits.configSettleMs`, then the same error. The timer is unref'd: it never
 *   keeps a process alive by itself.
 *
 * The same rule holds in the CLI and in the library's `loadConfig`.
 */
function settled<T>(pending: Promise<T>, file: string, role: FileRole, what: string): Promise<T> {
  const limitMs = testConfigSettleMs(process.env) ?? limits.configSettleMs;
  return new Promise<T>((resolve, reject) => {
    const end = (): void => {
      clearTimeout(timer);
      if (idleWaits.delete(idle) && idleWaits.size === 0) process.off("beforeExit", onIdle);
    };
    const never = (why: string): void => {
      end();
      const error = new DropkitError({
        name: "ConfigLoadError",
        message:
          `The ${role} ${file} never settled: ${what} was still pending ${why}. A ${role} file must produce its ` +
          `settings: check for an \`await\` on a promise that is never resolved or rejected (a callback that is never ` +
          `called, a forgotten \`resolve\`).`,
        file,
        source: file,
      });
      ownErrors.add(error);
      reject(error);
    };
    const idle = (): void => never("when nothing was left for it to wait on (no timer, no I/O, no other work)");
    const timer = setTimeout(
      () => never(`after ${limitMs / 1000} s, while a timer, a server or other work kept the process alive`),
      limitMs,
    );
    timer.unref();
    if (idleWaits.size === 0) process.on("beforeExit", onIdle);
    idleWaits.add(idle);
    pending.then(
      (value) => {
        end();
        resolve(value);
      },
      (error: unknown) => {
        end();
        reject(error);
      },
    );
  });
}

/**
 * Test-only: the time in ms that `__DROPKIT_TEST_CONFIG_SETTLE_MS` gives a config to settle while something keeps the
 * process alive (tests of a config that never settles need not wait a minute), or `undefined` for
 * `limits.configSettleMs`. Outside the `DROPKIT_*` namespace, like `__DROPKIT_TEST_STATE_PAUSE`.
 */
function testConfigSettleMs(env: NodeJS.ProcessEnv): number | undefined {
  const ms = Number(env.__DROPKIT_TEST_CONFIG_SETTLE_MS);
  return env.__DROPKIT_TEST_CONFIG_SETTLE_MS !== undefined && Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

/**
 * The module with a CommonJS file's `module.exports` as its default export. jiti gives it so in Node, but in Deno
 * it gives `module.exports` itself: a function or another value that no module is, or an object that is neither a
 * module namespace nor ES module code compiled to CommonJS (`__esModule`), which then becomes the default export.
 */
function commonJsAsDefault(mod: unknown): unknown {
  if (typeof mod !== "object" || mod === null) return { default: mod };
  if (Object.hasOwn(mod, "default")) return mod;
  if (types.isModuleNamespaceObject(mod) || (mod as { __esModule?: unknown }).__esModule === true) return mod;
  return { default: mod };
}

/**
 * Runs a config's code with `process.exit` turned into a throw: a config that ends the process would end the run
 * with its own exit code (even 0, having done nothing), instead of a ConfigLoadError.
 */
const withoutExit = sharedPatch(() => {
  const exit = process.exit;
  const refuse = ((code?: number | string | null) => {
    const error = new Error(
      `it called process.exit(${code ?? ""}); a config or preset file exports its settings and must not end the process`,
    );
    // The stack starts at the call in the config, which is where the error is placed.
    Error.captureStackTrace(error, refuse);
    throw error;
  }) as typeof process.exit;
  process.exit = refuse;
  return () => {
    // Left alone when the config replaced it meanwhile: that is not dropkit's to undo.
    if (process.exit === refuse) process.exit = exit;
  };
});

/**
 * A ConfigLoadError carrying the original message, and the position of the throw when one is known (src/config/stack.ts):
 * `source`, `file`, `line` and `column` are where it was thrown, in another file of the project when a file the config
 * imports threw, and then the message also names the config's line that led there.
 */
function loadError(file: string, role: FileRole, what: string, error: unknown): DropkitError {
  let original = error instanceof Error ? error.message : String(error);
  // Node appends the require stack of module-not-found errors: our internals, not the user's business.
  original = original.split("\nRequire stack:")[0]!;
  // jiti's parse errors end with "\n <file>:line:column", which the source gives.
  if (/^ParseError\b/.test(original)) original = original.replace(/\s*\n\s*\S.*:\d+:\d+\s*$/, "");
  original = original.trim() + unlentDropkit(original);
  const site = error instanceof Error ? locateError(error, file) : undefined;
  if (!site) return new DropkitError({ name: "ConfigLoadError", message: `The ${role} ${file} ${what}: ${original}`, file, source: file });
  const at = site.file === file ? site : site.calledFrom;
  const elsewhere = site.file === file ? "" : `, ${/^ParseError\b/.test(original) ? "in" : "thrown in"} ${formatPosition(site)}`;
  return new DropkitError({
    name: "ConfigLoadError",
    message: `The ${role} ${at ? formatPosition(at) : file} ${what}: ${original}${elsewhere}`,
    file: site.file,
    source: formatPosition(site),
    line: site.line,
    ...(site.column === undefined ? {} : { column: site.column }),
  });
}
