// Headless Chromium for the playground's tests and bench: Debian's /usr/bin/chromium driven by playwright-core.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "playwright-core";

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
    throw new Error(`Chromium is missing at ${chromiumPath}: install Debian's package (apt-get install chromium; .ci/run does) or set DROPKIT_CHROMIUM. The playground tests need it and do not skip.`);
  }
  if (!fs.existsSync(playgroundFile)) {
    throw new Error(`${playgroundFile} is missing: run \`npm run build\` (or \`npm run playground:build\`) first.`);
  }
  return chromium.launch({
    executablePath: chromiumPath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
}
