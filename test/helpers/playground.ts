// The built playground in headless Chromium, for its tests: served from a made-up origin (or file://), driven as a user drives it.

import assert from "node:assert/strict";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import zlib from "node:zlib";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { launchChromium, playgroundDir } from "../../scripts/lib/chromium.ts";

/** A made-up origin the tests serve the built files from, through route interception: no server, no port. */
export const origin = "https://playground.test";

let launched: Promise<Browser> | undefined;

/** The one browser of a test file, launched on first use: a missing Chromium fails each test by name, never skips it. */
export function chromium(): Promise<Browser> {
  return (launched ??= launchChromium());
}

/** Closes the browser, if one was launched: for the test file's `after`. */
export async function closeChromium(): Promise<void> {
  const browser = launched;
  launched = undefined;
  await (await browser?.catch(() => undefined))?.close();
}

export interface Served {
  context: BrowserContext;
  page: Page;
  /** Bytes of every file the page got, and the same bytes gzipped. */
  bytes: () => number;
  gzipped: () => number;
  /** Requests for anything but the playground's own files. */
  foreign: string[];
  /** Console errors and uncaught exceptions (a CSP violation is a console error). */
  problems: string[];
}

/** A fresh browser context whose only reachable files are those of dist/playground, served from `origin`. */
export async function open(url = `${origin}/index.html`, options: BrowserContextOptions = {}): Promise<Served> {
  const context = await (await chromium()).newContext({ viewport: { width: 1200, height: 900 }, ...options });
  const foreign: string[] = [];
  const problems: string[] = [];
  // Per file: the offline worker fetches index.html again to keep it, which is no second download for the reader.
  const files = new Map<string, { bytes: number; gzipped: number }>();
  await context.route("**/*", async (route) => {
    const requested = new URL(route.request().url());
    const file = path.join(playgroundDir, decodeURIComponent(requested.pathname));
    if (requested.origin !== origin || !file.startsWith(playgroundDir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      foreign.push(route.request().url());
      await route.abort();
      return;
    }
    const body = fs.readFileSync(file);
    files.set(requested.pathname, { bytes: body.length, gzipped: zlib.gzipSync(body, { level: 9 }).length });
    await route.fulfill({
      status: 200,
      contentType: file.endsWith(".html") ? "text/html; charset=utf-8" : file.endsWith(".js") ? "text/javascript" : undefined,
      body,
    });
  });
  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("request", (request) => {
    // Routes see http(s) only; anything else the page asks for (besides its own file:// load) is noted here.
    const url = request.url();
    if (!url.startsWith("http") && !url.startsWith("file:") && !url.startsWith("data:")) foreign.push(url);
  });
  await page.goto(url);
  await settled(page);
  const sum = (key: "bytes" | "gzipped") => [...files.values()].reduce((total, file) => total + file[key], 0);
  return { context, page, bytes: () => sum("bytes"), gzipped: () => sum("gzipped"), foreign, problems };
}

/** Waits until the page has rendered the answer for its current inputs (typing is debounced). */
export async function settled(page: Page): Promise<void> {
  await page.waitForSelector('body[data-state="ready"]', { timeout: 10_000 });
}

/** The editor: the element named "Config". */
export function editor(page: Page) {
  return page.getByRole("textbox", { name: "Config", exact: true });
}

/** Replaces the editor's text as a paste would, and waits for the answer. */
export async function paste(page: Page, text: string): Promise<void> {
  await editor(page).fill(text);
  await settled(page);
}

/** The editor's text, as its lines show it. */
export async function editorText(page: Page): Promise<string> {
  return (await page.locator(".cm-line").allTextContents()).join("\n");
}

/** The problems as listed: name, path, where, message, whether it is a button, and its fix. */
export async function listedProblems(
  page: Page,
): Promise<Array<{ name: string; path: string; where: string; message: string; button: boolean; fix: string | null }>> {
  return page.$$eval("#problems li", (items) =>
    items.map((item) => {
      const body = item.querySelector(".problem")!;
      return {
        name: body.querySelector(".name")!.textContent!,
        path: body.querySelector(".path")!.textContent!,
        where: body.querySelector(".where")!.textContent!,
        message: body.querySelector(".message")!.textContent!,
        button: body.tagName === "BUTTON",
        fix: item.querySelector("button.fix")?.textContent ?? null,
      };
    }),
  );
}

/** The resolved table: key → [value, layer, source]. */
export async function table(page: Page): Promise<Record<string, [string, string, string]>> {
  const rows = await page.$$eval("#resolved tbody tr:not(.more)", (trs) =>
    trs.map((tr) => [tr.querySelector("th button")!.textContent!, ...[...tr.querySelectorAll("td")].map((c) => c.textContent!)]),
  );
  return Object.fromEntries(rows.map(([key, value, layer, source]) => [key!, [value!, layer!, source!]]));
}

/** The explain view's first table: [layer, value, source, status] per row. */
export async function explainRows(page: Page, index = 0): Promise<string[][]> {
  return page
    .locator("#explain table")
    .nth(index)
    .locator("tbody tr")
    .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent!)));
}

/**
 * Ctrl-Space, until the completion list shows: a key pressed while the editor still applies a paste or a click (a
 * loaded machine) can be taken before the cursor has moved, and the list then never opens for that press.
 */
export async function openCompletion(page: Page): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press("Control+Space");
    try {
      await page.waitForSelector(".cm-tooltip-autocomplete", { timeout: attempt < 3 ? 5000 : 30000 });
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

/**
 * Moves down the open completion list to the option `label` and presses Enter, as a user does. CodeMirror
 * ignores keys for 75 ms after the list changes, so each key waits for the list to settle.
 */
export async function accept(page: Page, label: string): Promise<void> {
  const selected = page.locator(".cm-tooltip-autocomplete li[aria-selected]");
  await selected.waitFor();
  for (let i = 0; i < 20; i++) {
    await page.waitForTimeout(120);
    if ((await selected.textContent()) === label) {
      await page.keyboard.press("Enter");
      return;
    }
    await page.keyboard.press("ArrowDown");
  }
  throw new Error(`no completion option ${label}`);
}

/** Opens "As dropkit config prints it" and waits for its text, which is made when it opens. */
export async function openTableText(page: Page): Promise<void> {
  await page.click("#resolved-details summary");
  await page.waitForFunction(() => document.getElementById("resolved-text")!.textContent !== "");
}

export async function close(served: Served): Promise<void> {
  assert.deepEqual(served.problems, [], "no console errors, no CSP violations, no exceptions");
  await served.context.close();
}

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe-core's violations on the page as it is (the page's CSP is bypassed only to inject axe). */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  const results = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (context: Document, options: object) => Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown }> }> }>;
        };
      }
    ).axe;
    return axe.run(document, { resultTypes: ["violations"] });
  });
  return results.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}
