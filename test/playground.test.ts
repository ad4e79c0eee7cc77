// End-to-end tests of the built playground (dist/playground/index.html) in headless Chromium: validation, layers, links, weight.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium, playgroundDir, playgroundFile } from "./helpers/chromium.ts";
import { validate } from "./helpers/core.ts";

/** The budget for everything the page loads, uncompressed. */
const budgetBytes = 150 * 1024;

/** A made-up origin the tests serve the built files from, through route interception: no server, no port. */
const origin = "http://playground.test";

let launched: Promise<Browser> | undefined;

/** The one browser of this file, launched on first use: a missing Chromium fails each test by name, never skips it. */
function chromium(): Promise<Browser> {
  return (launched ??= launchChromium());
}

interface Served {
  context: BrowserContext;
  page: Page;
  /** Bytes of every response the page got. */
  bytes: () => number;
  /** Requests for anything but the playground's own files. */
  foreign: string[];
  /** Console errors and uncaught exceptions (a CSP violation is a console error). */
  problems: string[];
}

/** A fresh browser context whose only reachable files are those of dist/playground, served from `origin`. */
async function open(url = `${origin}/index.html`): Promise<Served> {
  const context = await (await chromium()).newContext({ viewport: { width: 1200, height: 800 } });
  const foreign: string[] = [];
  const problems: string[] = [];
  let bytes = 0;
  await context.route("**/*", async (route) => {
    const requested = new URL(route.request().url());
    const file = path.join(playgroundDir, decodeURIComponent(requested.pathname));
    if (requested.origin !== origin || !file.startsWith(playgroundDir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      foreign.push(route.request().url());
      await route.abort();
      return;
    }
    const body = fs.readFileSync(file);
    bytes += body.length;
    await route.fulfill({ status: 200, contentType: file.endsWith(".html") ? "text/html; charset=utf-8" : undefined, body });
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
  return { context, page, bytes: () => bytes, foreign, problems };
}

/** Waits until the page has rendered the answer for its current inputs (typing is debounced). */
async function settled(page: Page): Promise<void> {
  await page.waitForSelector('body[data-state="ready"]', { timeout: 10_000 });
}

/** Replaces the editor's text as a paste would, and waits for the answer. */
async function paste(page: Page, text: string): Promise<void> {
  await page.getByLabel("Config", { exact: true }).fill(text);
  await settled(page);
}

/** The problems as listed: name, path, where, message. */
async function listedProblems(page: Page): Promise<Array<{ name: string; path: string; where: string; message: string; button: boolean }>> {
  return page.$$eval("#problems li .problem", (items) =>
    items.map((item) => ({
      name: item.querySelector(".name")!.textContent!,
      path: item.querySelector(".path")!.textContent!,
      where: item.querySelector(".where")!.textContent!,
      message: item.querySelector(".message")!.textContent!,
      button: item.tagName === "BUTTON",
    })),
  );
}

/** The resolved table: key → [value, layer, source]. */
async function table(page: Page): Promise<Record<string, [string, string, string]>> {
  const rows = await page.$$eval("#resolved tbody tr", (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent!)));
  return Object.fromEntries(rows.map(([key, value, layer, source]) => [key!, [value!, layer!, source!]]));
}

async function close(served: Served): Promise<void> {
  assert.deepEqual(served.problems, [], "no console errors, no CSP violations, no exceptions");
  await served.context.close();
}

describe("playground", () => {
  after(async () => {
    await (await launched?.catch(() => undefined))?.close();
  });

  test("a valid config: no problems, and the resolved table with the origin of every value", async () => {
    const served = await open();
    const { page } = served;
    await paste(page, '{\n  "theme": "ocean",\n  "modules": { "exclude": ["legacy-*"] }\n}\n');
    assert.deepEqual(await listedProblems(page), []);
    assert.equal(await page.textContent("#problems-summary"), "No problems.");
    assert.match((await page.textContent("#status"))!, /^Valid/);
    const rows = await table(page);
    // Every leaf of the config (docs/abi.md), in order, then the union lists' entries.
    assert.deepEqual(Object.keys(rows).filter((k) => !k.endsWith("]")), [
      "schema", "theme", "modules.include", "modules.exclude", "modules.only", "presets", "presetsSearchPath",
      "hooks.initScriptsDir", "hooks.postScriptsDir", "hooks.onFailure", "cache.file", "cache.enabled", "log.format",
    ]);
    assert.deepEqual(rows.theme, ["ocean", "config", "/drop/dropkit.config.json:2:12"]);
    assert.deepEqual(rows["modules.exclude[2]"], ["legacy-*", "config", "/drop/dropkit.config.json:3:28"]);
    assert.deepEqual(rows["hooks.onFailure"], ["fail", "preset", "standard"]);
    assert.deepEqual(rows.presets, ['["standard"]', "default", "auto-detect"]);
    // The same text as `dropkit config` prints, from the same row function.
    assert.match((await page.textContent("#resolved-text"))!, /^KEY +VALUE +LAYER +SOURCE\nschema +1 +default +default\ntheme +ocean +config +\/drop\/dropkit\.config\.json:2:12\n/);
    // The selection: the theme archive, and each module in or out with why.
    assert.equal(await page.textContent(".theme-line .value"), "ocean-theme.zip");
    const modules = await page.$$eval(".modules li", (items) => items.map((i) => `${i.className} ${i.querySelector(".value")!.textContent}`));
    assert.deepEqual(modules, ["in blog", "out legacy-forum", "in shop", "out test-fixtures"]);
    await close(served);
  });

  test('{"theme": 3, "colour": 1}: two problems with their names, paths and positions, both spans marked', async () => {
    const served = await open();
    const { page } = served;
    await paste(page, '{"theme": 3, "colour": 1}');
    const problems = await listedProblems(page);
    assert.deepEqual(problems.map((p) => [p.name, p.path, p.where, p.button]), [
      ["SchemaValidationError", "theme", "1:11", true],
      ["SchemaValidationError", "colour", "1:14", true],
    ]);
    assert.match(problems[1]!.message, /Unknown key "colour"/);
    assert.deepEqual(await page.$$eval("#highlight mark", (marks) => marks.map((m) => m.textContent)), ["3", '"colour"']);
    assert.match((await page.textContent("#status"))!, /^2 problems/);
    // No resolved config while the config is invalid, and it says so.
    assert.equal(await page.isHidden("#resolved-wrap"), true);
    assert.match((await page.textContent("#resolved-empty"))!, /once every problem above is fixed/);
    await close(served);
  });

  test("clicking a problem (or Enter on it) puts the caret at its offset in the editor", async () => {
    const served = await open();
    const { page } = served;
    const text = '{\n  "schema": 1,\n  "theme": "ocean",\n  "modules": {\n    "include": ["ok", "bad/one"],\n    "onyl": []\n  }\n}\n';
    await paste(page, text);
    // The page's positions are the core's: the same wasm answers in Node.
    const expected = validate(text, { source: "/drop/dropkit.config.json" }).errors;
    assert.equal(expected.length, 2);
    const buttons = page.locator("#problems button");
    assert.equal(await buttons.count(), 2);
    await page.focus("#flag-theme");
    await buttons.nth(1).click();
    const after = await page.evaluate(() => ({ focused: document.activeElement?.id, start: (document.getElementById("config") as HTMLTextAreaElement).selectionStart }));
    assert.deepEqual(after, { focused: "config", start: expected[1]!.offset });
    assert.equal(await page.textContent("#highlight mark.active"), '"onyl"');
    // Keyboard: focus the first problem and press Enter.
    await buttons.nth(0).focus();
    await page.keyboard.press("Enter");
    assert.equal(await page.evaluate(() => (document.getElementById("config") as HTMLTextAreaElement).selectionStart), expected[0]!.offset);
    assert.equal(await page.evaluate(() => document.activeElement?.id), "config");
    await close(served);
  });

  test("DROPKIT_THEME=x changes the resolved theme and its origin", async () => {
    const served = await open();
    const { page } = served;
    await paste(page, '{"theme": "ocean"}');
    assert.deepEqual((await table(page)).theme, ["ocean", "config", "/drop/dropkit.config.json:1:11"]);
    await page.getByLabel("Environment variables").fill("PATH=/usr/bin\nDROPKIT_THEME=x\n");
    await settled(page);
    assert.deepEqual((await table(page)).theme, ["x", "env", "DROPKIT_THEME"]);
    assert.match((await page.textContent(".theme-line .origin"))!, /theme = x from env, DROPKIT_THEME/);
    assert.match((await page.textContent("#env-notes"))!, /PATH is ignored/);
    // There is no x.zip in the simulated folder: the core says so, and the problem points at the variable.
    const problems = await listedProblems(page);
    assert.deepEqual(problems.map((p) => [p.name, p.path, p.where, p.button]), [["ThemeNotFound", "theme", "DROPKIT_THEME", false]]);
    // A theme that is there is picked, and the flag layer wins over the environment.
    await page.getByLabel("Environment variables").fill("DROPKIT_THEME=forest");
    await settled(page);
    assert.equal(await page.textContent(".theme-line .value"), "forest-theme.zip");
    await page.getByLabel("Flag --theme").fill("ocean");
    await settled(page);
    assert.deepEqual((await table(page)).theme, ["ocean", "cli", "--theme"]);
    await close(served);
  });

  test("a package.json is read as one (auto-detect), with positions in the whole file", async () => {
    const served = await open();
    const { page } = served;
    await paste(page, '{\n  "name": "site",\n  "dropkit": { "theme": 3 }\n}\n');
    const problems = await listedProblems(page);
    assert.deepEqual(problems.map((p) => [p.path, p.where]), [["theme", "3:25"]]);
    assert.match((await page.textContent("#status"))!, /package\.json/);
    await paste(page, '{\n  "name": "site",\n  "dropkit": { "theme": "forest" }\n}\n');
    assert.deepEqual((await table(page)).theme, ["forest", "config", "/drop/package.json:3:25"]);
    await close(served);
  });

  test("the URL fragment holds the state: a shared link restores it", async () => {
    const served = await open();
    const { page } = served;
    await paste(page, '{"theme": "ocean", "exclude": ["shop"]}');
    await page.getByLabel("Environment variables").fill("DROPKIT_CACHE_ENABLED=no");
    await page.getByLabel("Flags --exclude").fill("blog, test-*");
    await page.getByLabel("standard").check();
    await page.getByLabel("Flag --log-format").selectOption("json");
    await page.getByLabel("Archives in the folder").fill("ocean-theme.zip\nblog.zip\nshop.zip\nnews.zip");
    await settled(page);
    const link = page.url();
    const before = { table: await table(page), selection: await page.textContent("#selection") };
    assert.match(link, /#config=/);
    await close(served);

    const again = await open(link);
    const restored = await again.page.evaluate(() => ({
      config: (document.getElementById("config") as HTMLTextAreaElement).value,
      env: (document.getElementById("env") as HTMLTextAreaElement).value,
      exclude: (document.getElementById("flag-exclude") as HTMLInputElement).value,
      standard: (document.querySelector('#flag-presets input[value="standard"]') as HTMLInputElement).checked,
      logFormat: (document.getElementById("flag-log-format") as HTMLSelectElement).value,
      archives: (document.getElementById("archives") as HTMLTextAreaElement).value,
    }));
    assert.deepEqual(restored, {
      config: '{"theme": "ocean", "exclude": ["shop"]}',
      env: "DROPKIT_CACHE_ENABLED=no",
      exclude: "blog, test-*",
      standard: true,
      logFormat: "json",
      archives: "ocean-theme.zip\nblog.zip\nshop.zip\nnews.zip",
    });
    assert.deepEqual(await table(again.page), before.table);
    assert.equal(await again.page.textContent("#selection"), before.selection);
    assert.deepEqual((await table(again.page))["cache.enabled"], ["false", "env", "DROPKIT_CACHE_ENABLED"]);
    assert.deepEqual((await table(again.page))["log.format"], ["json", "cli", "--log-format"]);
    await close(again);
  });

  test(`it loads only its own files, at most ${budgetBytes / 1024} KB, and asks for nothing else while used`, async () => {
    const served = await open();
    const { page } = served;
    await paste(page, '{"theme": 3, "colour": 1}');
    await page.getByLabel("Environment variables").fill("DROPKIT_THEME=forest");
    await settled(page);
    await page.locator("#problems button").first().click();
    await page.click("#copy-link");
    assert.deepEqual(served.foreign, []);
    const total = served.bytes();
    assert.ok(total > 0 && total <= budgetBytes, `the page loaded ${total} bytes; the budget is ${budgetBytes}`);
    // Everything is in index.html, so that the file works on its own.
    assert.deepEqual(fs.readdirSync(playgroundDir), ["index.html"]);
    await close(served);
  });

  test("opened as a file:// URL, offline, it validates and resolves", async () => {
    const context = await (await chromium()).newContext({ offline: true });
    const page = await context.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
    page.on("pageerror", (error) => problems.push(error.message));
    const url = pathToFileURL(playgroundFile).href;
    await page.goto(url);
    await settled(page);
    assert.match((await page.textContent("#status"))!, /^Valid/);
    await paste(page, '{"theme": 3, "colour": 1}');
    assert.equal((await listedProblems(page)).length, 2);
    await page.getByLabel("Environment variables").fill("DROPKIT_THEME=x");
    await settled(page);
    // The fragment works on file:// too.
    assert.match(page.url(), /^file:.*#config=/);
    assert.deepEqual(requests, [url]);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test("pasted text is data, never code: markup is shown as text and nothing runs", async () => {
    const served = await open();
    const { page } = served;
    const hostile = '{"theme": "<img src=x onerror=window.pwned=1>", "<script>window.pwned=2</script>": 1}';
    await paste(page, hostile);
    await page.getByLabel("Environment variables").fill("DROPKIT_THEME=<img src=y onerror=window.pwned=3>");
    await settled(page);
    assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
    assert.equal(await page.$$eval("img, main script", (found) => found.length), 0);
    assert.match((await page.textContent("#problems"))!, /<script>window\.pwned=2<\/script>/);
    assert.deepEqual(served.foreign, []);
    await close(served);
  });

  test("every control has a label; the page is usable from the keyboard", async () => {
    const served = await open();
    const { page } = served;
    const unlabelled = await page.$$eval("input, select, textarea, button", (controls) =>
      controls
        .filter((c) => {
          const labels = (c as HTMLInputElement).labels;
          const named = (labels && labels.length > 0 && [...labels].some((l) => l.textContent!.trim() !== "")) || c.getAttribute("aria-label") || (c.tagName === "BUTTON" && c.textContent!.trim() !== "");
          return !named;
        })
        .map((c) => c.outerHTML.slice(0, 80)),
    );
    assert.deepEqual(unlabelled, []);
    assert.equal(await page.getByLabel("Config", { exact: true }).evaluate((e) => e.tagName), "TEXTAREA");
    assert.equal(await page.$eval("#problems", (e) => e.tagName), "UL");
    // Tab moves out of the editor (it is not trapped there) to the next control.
    await page.focus("#config");
    await page.keyboard.press("Tab");
    assert.notEqual(await page.evaluate(() => document.activeElement?.id), "config");
    await close(served);
  });
});
