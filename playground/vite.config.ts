// Builds the playground into dist/playground/: index.html (classic script, style and the release core inlined), which gives the
// first result on its own, and later-<hash>.js, the part loaded after it; sw.js keeps both for a hosted page offline.

import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { deflateRawSync } from "node:zlib";
import { build, defineConfig, type Plugin } from "vite";

const wasmFile = fileURLToPath(new URL("../dist/dropkit.wasm", import.meta.url));
/** The version of dropkit whose core the page carries, shown on the page: what it validates as. */
const version = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;

/**
 * `import deflated from "virtual:dropkit-wasm"`: the release core that `npm run build:wasm` made, the very file the
 * CLI loads, deflate-raw compressed and base64-encoded. Inlined because the page must work from file:// and
 * offline, where fetch() is not allowed; compressed because base64 of the raw module gzips a quarter worse
 * than the module itself, and the page inflates it with the browser's DecompressionStream.
 */
function inlineWasm(): Plugin {
  const id = "virtual:dropkit-wasm";
  return {
    name: "dropkit-inline-wasm",
    resolveId: (source) => (source === id ? "\0" + id : undefined),
    load(resolved) {
      if (resolved !== "\0" + id) return undefined;
      if (!existsSync(wasmFile)) this.error(`${wasmFile} is missing: run \`npm run build:wasm\` first`);
      this.addWatchFile(wasmFile);
      return `export default ${JSON.stringify(deflateRawSync(readFileSync(wasmFile), { level: 9 }).toString("base64"))};`;
    },
  };
}

/** The packages the page and its later part share: one copy each, in the page, handed to the later part (their state must be one). */
const shared = /^@(codemirror\/(state|view|language)|lezer\/(common|highlight))$/;

/** The later part built: its classic script, and the names it takes from each shared package. */
interface LaterBuild {
  fileName: string;
  code: string;
  imports: Array<{ module: string; names: string[] }>;
}

/**
 * Builds playground/later.ts into one classic script that hands its exports to the page (`__dropkitLater`) and takes the
 * shared packages from it (`__dropkitShared`). Twice: as an ES module only to read which names it imports from each
 * shared package (the page then keeps exactly those, and tree-shakes the rest), then as the script itself.
 */
async function buildLater(): Promise<LaterBuild> {
  const entry = fileURLToPath(new URL("./later.ts", import.meta.url));
  const pass = async (format: "es" | "iife") => {
    const result = await build({
      configFile: false,
      logLevel: "warn",
      publicDir: false,
      root: fileURLToPath(new URL(".", import.meta.url)),
      build: {
        write: false,
        target: "es2022",
        minify: format === "iife",
        modulePreload: false,
        reportCompressedSize: false,
        rolldownOptions: {
          input: entry,
          preserveEntrySignatures: "strict",
          external: (id) => shared.test(id),
          output: { format, name: "__dropkitLater", globals: (id) => `__dropkitShared[${JSON.stringify(id)}]` },
        },
      },
    });
    const outputs = (Array.isArray(result) ? result : [result]) as Array<{ output: Array<{ type: string; code?: string }> }>;
    const chunks = outputs.flatMap((o) => o.output).filter((o) => o.type === "chunk");
    if (chunks.length !== 1) throw new Error(`the later part built into ${chunks.length} chunks, not one`);
    return chunks[0]!.code!;
  };
  const imports: LaterBuild["imports"] = [];
  for (const line of (await pass("es")).split("\n")) {
    if (!line.startsWith("import ")) continue;
    if (/^import \* as /.test(line)) throw new Error(`the later part imports a whole package (${line}): the page would keep all of it`);
    const match = /^import \{([^}]*)\} from "([^"]+)";$/.exec(line);
    if (match) imports.push({ module: match[2]!, names: match[1]!.split(",").map((n) => n.trim().split(/\s+as\s+/)[0]!) });
  }
  const code = await pass("iife");
  return { fileName: `later-${createHash("sha256").update(code).digest("hex").slice(0, 8)}.js`, code, imports };
}

/**
 * `import { loadLater } from "virtual:dropkit-later"`: the part of the page that its first result does not need, in a
 * file of its own loaded after it (the page's first download stays within its budget), and the shared packages' names
 * it takes, set on `__dropkitShared` when the page starts.
 */
function laterPart(): Plugin {
  const id = "virtual:dropkit-later";
  const sharedId = "virtual:dropkit-shared";
  let later: LaterBuild;
  return {
    name: "dropkit-later",
    async buildStart() {
      later = await buildLater();
    },
    resolveId: (source) => (source === id || source === sharedId ? "\0" + source : undefined),
    load(resolved) {
      if (resolved === "\0" + sharedId) {
        const lines = later.imports.map(
          ({ module, names }, i) => `import { ${names.map((n) => `${n} as s${i}_${n}`).join(", ")} } from ${JSON.stringify(module)};`,
        );
        const entries = later.imports.map(
          ({ module, names }, i) => `${JSON.stringify(module)}: { ${names.map((n) => `${n}: s${i}_${n}`).join(", ")} }`,
        );
        return `${lines.join("\n")}\nglobalThis.__dropkitShared = { ${entries.join(", ")} };\n`;
      }
      if (resolved !== "\0" + id) return undefined;
      return `import ${JSON.stringify(sharedId)};
export function loadLater() {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = ${JSON.stringify(`./${later.fileName}`)};
    script.onload = () => resolve(globalThis.__dropkitLater);
    script.onerror = () => reject(new Error(${JSON.stringify(`${later.fileName} could not be loaded`)}));
    document.head.append(script);
  });
}
`;
    },
    generateBundle() {
      this.emitFile({ type: "asset", fileName: later.fileName, source: later.code });
    },
  };
}

/**
 * Moves the bundle into index.html as a classic inline script and an inline style, then fills in the Content
 * Security Policy with their hashes. Chrome runs no module script from file:// (it counts as a cross-origin
 * fetch), and a classic script at the end of <body> needs no file at all.
 */
function singleFile(): Plugin {
  return {
    name: "dropkit-single-file",
    enforce: "post",
    apply: "build",
    generateBundle(_options, bundle) {
      const html = bundle["index.html"];
      if (html?.type !== "asset") this.error("no index.html in the bundle");
      let text = String(html.source);
      let script = "";
      let style = "";
      for (const [name, file] of Object.entries(bundle)) {
        if (file.type === "chunk") script += file.code;
        else if (name.endsWith(".css")) style += String(file.source);
        else continue;
        delete bundle[name];
      }
      // What Vite injected to load the files that are now inline.
      text = text.replace(/<script type="module"[^>]*><\/script>\s*/g, "").replace(/<link rel="stylesheet"[^>]*>\s*/g, "");
      // The script's text must not end its own element early.
      script = script.replace(/<\/(script)/gi, "<\\/$1").trim();
      style = style.trim();
      const hash = (code: string) => `'sha256-${createHash("sha256").update(code).digest("base64")}'`;
      const csp = [
        "default-src 'none'",
        // 'self': the later part, a file beside the page (a hash cannot name a file a file:// page loads: the integrity check
        // that would let it needs a CORS response, which file:// has not).
        `script-src ${hash(script)} 'self' 'wasm-unsafe-eval'`,
        `style-src ${hash(style)}`,
        // Style attributes only: the browser's own editing adds them when typing over highlighted text in the
        // editor. Harmless without markup injection (nothing can load: default-src 'none'); sheets stay hashed.
        "style-src-attr 'unsafe-inline'",
        "img-src data:",
        // The hosted page's offline worker (sw.js, beside it); nothing else may run as a worker.
        "worker-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
      ].join("; ");
      text = text
        .replace("__DROPKIT_CSP__", csp)
        .replace("__DROPKIT_VERSION__", version)
        .replace("</head>", () => `<style>${style}</style>\n  </head>`)
        .replace("</body>", () => `<script>${script}</script>\n  </body>`);
      html.source = text;
      // The offline worker, named after the page it keeps (a new page is a new worker, and replaces the old copy), and
      // keeping the later part too (its name is in the page, so a new one makes a new page).
      const later = Object.keys(bundle).find((name) => /^later-[0-9a-f]+\.js$/.test(name));
      if (!later) this.error("no later part in the bundle");
      const worker = readFileSync(new URL("./sw.js", import.meta.url), "utf8")
        .replace("__DROPKIT_PAGE_HASH__", createHash("sha256").update(text).digest("hex").slice(0, 16))
        .replaceAll("__DROPKIT_LATER__", later);
      this.emitFile({ type: "asset", fileName: "sw.js", source: worker });
    },
  };
}

export default defineConfig(({ command }) => ({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  publicDir: false,
  // A quiet build (it runs inside `npm run build`); `vite preview` still prints its address.
  logLevel: command === "build" ? "warn" : "info",
  plugins: [inlineWasm(), laterPart(), singleFile()],
  build: {
    outDir: "../dist/playground",
    emptyOutDir: true,
    target: "es2022",
    modulePreload: false,
    cssCodeSplit: false,
    reportCompressedSize: false,
    rolldownOptions: {
      // One classic script: an IIFE runs from file://, where Chrome blocks module scripts.
      output: { format: "iife" },
    },
  },
  preview: { host: "127.0.0.1", port: 4173 },
}));
