// The playground's smaller promises, in Chromium: on a phone (390×844) the completion's description covers no option and stays on the
// screen, the explain view fits the screen; at 200 % zoom the table does not scroll sideways; a NUL reads \u0000; axe on a phone in
// both schemes with a config long enough to scroll the editor.

import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import type { Page } from "playwright-core";
import {
  axeViolations,
  close,
  closeChromium,
  editor,
  listedProblems,
  open,
  openCompletion,
  paste,
  settled,
} from "../helpers/playground.ts";

const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** A box as [left, top, right, bottom], rounded: the page's own geometry, in CSS pixels. */
type Box = [number, number, number, number];

async function boxesIn(page: Page, selector: string): Promise<Box[]> {
  // A string, not a function: the page has none of the helpers the test's compiler adds to named functions.
  return page.evaluate(`[...document.getElementById("editor").shadowRoot.querySelectorAll(${JSON.stringify(selector)})].map((e) => {
    const r = e.getBoundingClientRect();
    return [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)];
  })`);
}

const overlaps = (a: Box, b: Box) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

describe("playground: smaller promises", () => {
  after(closeChromium);

  test("on a phone, a completion's description covers none of the options and stays on the screen", async () => {
    const served = await open(undefined, phone);
    const { page } = served;
    await page.waitForFunction(() => (document.getElementById("examples") as HTMLSelectElement).options.length > 1);
    await paste(page, '{"log": {"format": ""}}');
    await page.locator(".cm-line").first().click();
    await page.keyboard.press("End");
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowLeft");
    await openCompletion(page);
    await page.waitForSelector(".cm-completionInfo");
    const options = await boxesIn(page, ".cm-tooltip-autocomplete li");
    const [info] = await boxesIn(page, ".cm-completionInfo");
    assert.equal(options.length, 2);
    for (const option of options) assert.ok(!overlaps(info!, option), `the description ${info} covers the option ${option}`);
    assert.ok(info![0] >= 0 && info![2] <= 390, `the description runs off the screen: ${info}`);
    assert.match((await page.textContent(".cm-completionInfo"))!, /One line per record, for people\./);
    await close(served);
  });

  test("on a phone, the explain view fits the screen: every column in sight, the status too", async () => {
    const served = await open(undefined, phone);
    const { page } = served;
    await paste(page, '{"theme": "ocean"}');
    await page.getByLabel("Environment variables").fill("DROPKIT_THEME=forest");
    await settled(page);
    await page.locator("#resolved button.key", { hasText: /^theme$/ }).click();
    await page.waitForSelector("#explain td.status");
    const wraps = await page.$$eval("#explain .table-wrap", (els) => els.map((e) => [e.scrollWidth, e.clientWidth]));
    for (const [scroll, client] of wraps) assert.ok(scroll! <= client!, `the explain table is ${scroll}px wide in ${client}px`);
    const statuses = await page.$$eval("#explain td.status", (cells) => cells.map((c) => [c.textContent, c.getBoundingClientRect().right]));
    assert.deepEqual(
      statuses.map(([text]) => text),
      ["wins", "overridden", "overridden"],
    );
    for (const [, right] of statuses) assert.ok((right as number) <= 390);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
    await close(served);
  });

  test("at 200 % zoom (a 1280-pixel window is 640 CSS pixels wide) the resolved table does not scroll sideways", async () => {
    const served = await open(undefined, { viewport: { width: 640, height: 450 }, deviceScaleFactor: 2 });
    const { page } = served;
    await paste(
      page,
      '{\n  "theme": "ocean",\n  "presetsSearchPath": ["./presets/shared"],\n  "hooks": { "initScriptsDir": "./scripts/before-the-drop" }\n}',
    );
    const [scroll, client] = await page.$eval("#resolved-wrap", (e) => [e.scrollWidth, e.clientWidth]);
    assert.ok(scroll! <= client!, `the table is ${scroll}px wide in ${client}px`);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 640);
    await close(served);
  });

  test("a NUL in a value reads \\u0000 in the problem, never a box or nothing", async () => {
    const served = await open();
    const { page } = served;
    await paste(page, '{"theme": "a\\u0000b"}');
    const [problem] = await listedProblems(page);
    assert.equal(problem!.name, "SchemaValidationError");
    assert.ok(!problem!.message.includes("\u0000"), "no raw NUL is shown");
    assert.match(problem!.message, /found the string "a\\u0000b"/);
    await close(served);
  });

  for (const colorScheme of ["light", "dark"] as const) {
    test(`axe on a phone in ${colorScheme} mode, with a config long enough to scroll the editor: no violations`, async () => {
      const served = await open(undefined, { ...phone, colorScheme, bypassCSP: true });
      const { page } = served;
      const names = Array.from({ length: 60 }, (_, i) => `"a-rather-long-module-name-that-runs-past-the-edge-${i}-*"`);
      await editor(page).fill(`{\n  "theme": "ocean",\n  "modules": { "exclude": [${names.join(", ")}] }\n}`);
      await settled(page);
      const scrolls = await page.evaluate(
        `(() => { const s = document.getElementById("editor").shadowRoot.querySelector(".cm-scroller"); return s.scrollWidth > s.clientWidth; })()`,
      );
      assert.equal(scrolls, true, "the editor scrolls");
      assert.deepEqual(await axeViolations(page), []);
      await close(served);
    });
  }
});
