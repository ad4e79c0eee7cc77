// Headless Chromium for the playground's tests and bench: Debian's /usr/bin/chromium driven by playwright-core.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";

/** Where `.ci/run` installs Chromium (Debian's package); never a Playwright-downloaded browser. */
export const chromiumPath = process.env.DROPKIT_CHROMIUM ?? "/usr/bin/chromium";

/** The built page, as `npm run build` (or `npm run playground:build`) leaves it. */
export const playgroundDir = fileURLToPath(new URL("../../dist/playground/", import.meta.url));
export const playgroundFile = path.join(playgroundDir, "index.html");

/**
 * Launches headless Chromium. Throws (so that the tests fail, never skip) when the browser or the built page
 * is missing: a playground nobody tested must not pass CI.
 */
export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(chromiumPath)) {
    throw new Error(
      `Chromium is missing at ${chromiumPath}: install Debian's package (apt-get install chromium; .ci/run does) or ` +
        `set DROPKIT_CHROMIUM. The playground tests need it and do not skip.`,
    );
  }
  if (!fs.existsSync(playgroundFile)) {
    throw new Error(`${playgroundFile} is missing: run \`npm run build\` (or \`npm run playground:build\`) first.`);
  }
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
}

// Large inputs for the playground, pasted as a user pastes them: shared by its tests and bench/playground.ts.

/** A config whose `modules.exclude` lists `n` names, on one line (its list starts at line 1, column 38). */
export function longList(n: number): string {
  return `{"schema": 1, "modules": {"exclude": [${Array.from({ length: n }, (_, i) => `"module-${i}"`).join(", ")}]}}`;
}

/**
 * A package.json with a small `dropkit` key and `count` dependencies: 1.3 MB with 30,000, over the CLI's 1 MiB limit for a
 * config file (refused, as the CLI refuses it); 1.0 MB with 23,000, within it (resolved).
 */
export function bigPackageJson(count = 30_000): string {
  const dependencies = Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`@scope-${i}/package-${i}`, `^${i % 10}.${i % 7}.${i % 13}`]),
  );
  return JSON.stringify({ name: "big", version: "1.0.0", dropkit: { theme: "ocean" }, dependencies }, null, 2);
}

/** Pastes a text as a user does (a paste event with the text on the clipboard), replacing the editor's, and waits for the answer. */
export async function pasteLarge(page: Page, text: string): Promise<void> {
  await page.evaluate((text) => {
    const content = document.getElementById("editor")!.shadowRoot!.querySelector<HTMLElement>(".cm-content")!;
    content.focus();
    document.execCommand("selectAll");
    const clipboardData = new DataTransfer();
    clipboardData.setData("text/plain", text);
    content.dispatchEvent(new ClipboardEvent("paste", { clipboardData, bubbles: true, cancelable: true }));
  }, text);
  await page.waitForFunction(() => document.body.dataset.state === "ready", undefined, { timeout: 30_000, polling: 50 });
}
