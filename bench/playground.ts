// Time to the playground's first validation result in headless Chromium, from file://; printed, not asserted.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { launchChromium, playgroundFile } from "../test/helpers/chromium.ts";

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
  return page.evaluate(() => Object.fromEntries(performance.getEntriesByType("mark").map((m) => [m.name.replace("dropkit:", ""), m.startTime])));
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

const browser = await launchChromium();
try {
  console.log(`playground: ${pageUrl} (${(fs.statSync(playgroundFile).size / 1024).toFixed(1)} KB), ${runs} loads each, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(2)}`);
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
} finally {
  await browser.close();
  fs.rmSync(blankDir, { recursive: true, force: true });
}
