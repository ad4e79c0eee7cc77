// Builds the playground into dist/playground/index.html: one self-contained file (classic script, style and the release core inlined).

import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { deflateRawSync } from "node:zlib";
import { defineConfig, type Plugin } from "vite";

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

/** `import { loadLater } from "virtual:dropkit-later"`: the part of the page that comes after its first result. */
function laterPart(): Plugin {
  const id = "virtual:dropkit-later";
  const entry = fileURLToPath(new URL("./later.ts", import.meta.url));
  return {
    name: "dropkit-later",
    resolveId: (source) => (source === id ? "\0" + id : undefined),
    load: (resolved) => (resolved === "\0" + id ? `export const loadLater = () => import(${JSON.stringify(entry)});` : undefined),
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
        `script-src ${hash(script)} 'wasm-unsafe-eval'`,
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
      // The offline worker, named after the page it keeps (a new page is a new worker, and replaces the old copy).
      const worker = readFileSync(new URL("./sw.js", import.meta.url), "utf8").replace(
        "__DROPKIT_PAGE_HASH__",
        createHash("sha256").update(text).digest("hex").slice(0, 16),
      );
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
