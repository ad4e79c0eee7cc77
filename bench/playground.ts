// The playground in headless Chromium, from file://: what it weighs, time to the first result, and the page at size (long lists, a
// 1.0 MB package.json, and a 1.3 MB one that the CLI's 1 MiB limit refuses: time to the answer, the main thread's longest task,
// keystroke to result); printed, not asserted.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { bigPackageJson, launchChromium, longList, pasteLarge, playgroundDir, playgroundFile } from "../scripts/lib/chromium.ts";

const runs = Number(process.env.RUNS ?? 15);
const pageUrl = pathToFileURL(playgroundFile).href;

// The same empty-page cost every page pays on this machine (a renderer, a document): the baseline to compare to.
const blankDir = fs.mkdtempSync(path.join(os.tmpdir(), "dropkit-bench-"));
const blankFile = path.join(blankDir, "blank.html");
fs.writeFileSync(blankFile, '<!doctype html><p>blank</p><script>performance.mark("dropkit:script-start")</script>');
const blankUrl = pathToFileURL(blankFile).href;

/** The page's marks (ms since navigation start), once the frame that paints the first result has run. */
async function marks(page: Page, last: string): Promise<Record<string, number>> {
  await page.waitForFunction((name) => performance.getEntriesByName(name).length > 0, last);
  return page.evaluate(() =>
    Object.fromEntries(performance.getEntriesByType("mark").map((m) => [m.name.replace("dropkit:", ""), m.startTime])),
  );
}

async function measure(browser: Browser, url: string, last: string, warm: boolean): Promise<Array<Record<string, number>>> {
  const results: Array<Record<string, number>> = [];
  // Warm: one tab, reloaded (a renderer already up). Cold: a new browser context, so a new renderer, each time.
  const context = warm ? await browser.newContext() : undefined;
  const tab = context ? await context.newPage() : undefined;
  if (tab) await tab.goto(url);
  for (let i = 0; i < runs; i++) {
    const page = tab ?? (await browser.newPage());
    if (tab) await page.reload();
    else await page.goto(url);
    results.push(await marks(page, last));
    if (!tab) await page.context().close();
  }
  await context?.close();
  return results;
}

function stats(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `median ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms, min ${sorted[0]!.toFixed(1)} ms`;
}

/** Pastes `text` into a fresh page: ms to the answer and the longest main-thread task meanwhile (and in the next 500 ms). */
async function pasteCost(browser: Browser, text: string): Promise<{ answer: number; longest: number; page: Page }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(pageUrl);
  await page.waitForSelector('body[data-state="ready"]');
  await page.evaluate(() => {
    const w = window as unknown as { longest: number };
    w.longest = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.longest = Math.max(w.longest, entry.duration);
    }).observe({ type: "longtask" });
  });
  const started = Date.now();
  await pasteLarge(page, text);
  const answer = Date.now() - started;
  await page.waitForTimeout(500);
  return { answer, longest: await page.evaluate(() => (window as unknown as { longest: number }).longest), page };
}

/** Types `count` characters at the start of the big package.json's `dropkit` key: ms from each keydown to its result in the DOM. */
async function keystrokes(page: Page, count: number): Promise<number[]> {
  await page.evaluate(() => {
    const w = window as unknown as { down: number; times: number[] };
    w.times = [];
    document.addEventListener("keydown", () => (w.down = performance.now()), true);
    new MutationObserver(() => {
      if (document.body.dataset.state === "ready" && w.down) {
        w.times.push(performance.now() - w.down);
        w.down = 0;
      }
    }).observe(document.body, { attributes: true, attributeFilter: ["data-state"] });
  });
  await page.locator(".cm-content").click();
  await page.keyboard.press("Control+Home");
  for (let i = 0; i < count; i++) {
    // A space and its deletion, in turn: the text stays a valid package.json.
    await page.keyboard.press(i % 2 === 0 ? "Space" : "Backspace");
    await page.waitForFunction((n) => (window as unknown as { times: number[] }).times.length >= n, i + 1);
    await page.waitForTimeout(150);
  }
  return page.evaluate(() => (window as unknown as { times: number[] }).times);
}

const browser = await launchChromium();
try {
  console.log(
    `playground: ${pageUrl} (${(fs.statSync(playgroundFile).size / 1024).toFixed(1)} KB), ${runs} loads each, ` +
      `${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(2)}`,
  );
  // What each file weighs gzipped (1,024-byte KB): index.html is what the first result needs; the rest comes after it.
  const weights = fs
    .readdirSync(playgroundDir)
    .sort()
    .map((file) => `${file} ${(zlib.gzipSync(fs.readFileSync(path.join(playgroundDir, file)), { level: 9 }).length / 1024).toFixed(1)} KB`);
  console.log(`gzipped: ${weights.join(", ")}`);
  for (const warm of [false, true]) {
    const label = warm ? "warm (reload in one tab)" : "cold (new tab each time)";
    const blank = await measure(browser, blankUrl, "dropkit:script-start", warm);
    const page = await measure(browser, pageUrl, "dropkit:first-validation-frame", warm);
    console.log(`\n${label}`);
    console.log(`  blank page, script runs:           ${stats(blank.map((m) => m["script-start"]!))}`);
    console.log(`  playground, script runs:           ${stats(page.map((m) => m["script-start"]!))}`);
    console.log(`  playground, first result in DOM:   ${stats(page.map((m) => m["first-validation"]!))}`);
    console.log(`  playground, first result's frame:  ${stats(page.map((m) => m["first-validation-frame"]!))}`);
    console.log(`  playground, script to result:      ${stats(page.map((m) => m["first-validation"]! - m["script-start"]!))}`);
  }
  const sizes = Number(process.env.SIZE_RUNS ?? 3);
  console.log(`\nat size (${sizes} pastes each; target: no task over 200 ms, keystroke to result under 150 ms median)`);
  for (const [label, text] of [
    ["5,000-entry list", longList(5_000)],
    ["30,000-entry list", longList(30_000)],
    ["1.0 MB package.json", bigPackageJson(23_000)],
    ["1.3 MB package.json", bigPackageJson()],
  ] as const) {
    const answers: number[] = [];
    const longest: number[] = [];
    let typed: number[] = [];
    for (let i = 0; i < sizes; i++) {
      const run = await pasteCost(browser, text);
      answers.push(run.answer);
      longest.push(run.longest);
      if (label.includes("package.json") && i === sizes - 1) typed = await keystrokes(run.page, 21);
      await run.page.close();
    }
    console.log(
      `  ${label.padEnd(20)} (${(text.length / 1024).toFixed(0)} ` +
        `KB${text.length > 1024 * 1024 ? ", over the 1 MiB limit" : ""}): paste to answer ${stats(answers)}; longest ` +
        `task ${stats(longest)}`,
    );
    if (typed.length > 0) console.log(`  ${"".padEnd(20)} keystroke to result (${typed.length} keys): ${stats(typed)}`);
  }
} finally {
  await browser.close();
  fs.rmSync(blankDir, { recursive: true, force: true });
}
