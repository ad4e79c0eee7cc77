// The playground's automatic changes are safe, in Chromium: no fix adds a problem, "Apply all" applies only safe ones, Format
// changes whitespace only, the focus lands on what a fix changed; and the values a higher layer overrides are marked in the editor.

import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { pasteLarge } from "../../scripts/lib/chromium.ts";
import { validate } from "../helpers/core.ts";
import { close, closeChromium, editor, editorText, listedProblems, open, paste, settled } from "../helpers/playground.ts";

/** The editor's text exactly, CRs included, from the state the address holds (the page's own record of its inputs). */
async function exactText(page: Page): Promise<string> {
  // The address is written once typing pauses (0.8 s).
  await page.waitForTimeout(1200);
  return page.evaluate(async () => {
    const body = location.hash.slice(3).replace(/-/g, "+").replace(/_/g, "/");
    const bytes = Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return (JSON.parse(await new Response(stream).text()) as { config: string }).config;
  });
}

describe("playground: safe automatic changes", () => {
  after(closeChromium);

  test('a rename onto a key that is set offers removal instead ("thme" beside "theme"), and applying it adds no problem', async () => {
    const served = await open();
    const { page } = served;
    const text = '{\n  "theme": "ocean",\n  "thme": "forest",\n  "log": { "format": "json" }\n}\n';
    await paste(page, text);
    const before = await listedProblems(page);
    assert.deepEqual(
      before.map((p) => [p.path, p.fix]),
      [["thme", 'Remove "thme"']],
    );
    // What "Use "theme"" would have made: a duplicate key, as many problems as before.
    assert.deepEqual(
      validate(text.replace('"thme"', '"theme"')).errors.map((e) => e.message.slice(0, 21)),
      ['Duplicate key "theme"'],
    );
    await page.getByRole("button", { name: 'Remove "thme"' }).click();
    await settled(page);
    assert.equal(await editorText(page), '{\n  "theme": "ocean",\n  "log": { "format": "json" }\n}\n');
    assert.deepEqual(await listedProblems(page), []);
    // The last property removed takes the comma before it, so that no trailing comma is left.
    await paste(page, '{"theme": "ocean", "thme": "forest"}');
    await page.getByRole("button", { name: 'Remove "thme"' }).click();
    await settled(page);
    assert.equal(await editorText(page), '{"theme": "ocean"}');
    assert.match((await page.textContent("#status"))!, /^Valid/);
    await close(served);
  });

  test("in a large file a fix is tried when it is pressed: an unsafe one is not applied, and the removal is offered instead", async () => {
    const served = await open();
    const { page } = served;
    const names = Array.from({ length: 20_000 }, (_, i) => `"module-${i}"`).join(", ");
    const text = `{"theme": "ocean", "thme": "forest", "modules": {"exclude": [${names}]}}`;
    assert.ok(text.length > 256 * 1024);
    await pasteLarge(page, text);
    assert.deepEqual(
      (await listedProblems(page)).map((p) => p.fix),
      ['Use "theme"'],
    );
    await page.getByRole("button", { name: 'Use "theme"', exact: true }).click();
    await settled(page);
    assert.match((await page.textContent("#status"))!, /^Not applied: Use "theme" would add a problem\. 1 problem/);
    assert.deepEqual(
      (await listedProblems(page)).map((p) => p.fix),
      ['Remove "thme"'],
    );
    await page.getByRole("button", { name: 'Remove "thme"', exact: true }).click();
    await settled(page);
    assert.match((await page.textContent("#status"))!, /^Valid/);
    await close(served);
  });

  test("Apply all applies every safe fix one after another, never two that clash, and says how many", async () => {
    const served = await open();
    const { page } = served;
    await page.getByLabel("example").selectOption({ label: "Broken: typos to fix" });
    await settled(page);
    assert.equal((await listedProblems(page)).length, 5);
    const all = page.getByRole("button", { name: "Apply all 4 fixes" });
    await all.click();
    await settled(page);
    assert.deepEqual(
      (await listedProblems(page)).map((p) => [p.path, p.fix]),
      [["colour", null]],
    );
    assert.match(await editorText(page), /"presets": \["standard"\],\n {2}"modules": \{\n {4}"exclude": \["legacy-\*"\]/);
    assert.match((await page.textContent("#status"))!, /^4 fixes applied\. 1 problem/);
    // Two keys that each mean "theme": each rename alone is safe, both together would clash; the second becomes a removal.
    await paste(page, '{\n  "thme": "ocean",\n  "them": "forest",\n  "log": { "format": "jsn" }\n}');
    assert.deepEqual(
      (await listedProblems(page)).map((p) => p.fix),
      ['Use "theme"', 'Use "theme"', 'Use "json"'],
    );
    await page.getByRole("button", { name: "Apply all 3 fixes" }).click();
    await settled(page);
    assert.equal(await editorText(page), '{\n  "theme": "ocean",\n  "log": { "format": "json" }\n}');
    assert.deepEqual(await listedProblems(page), []);
    await close(served);
  });

  test("Format re-indents from the tokens: numbers and strings stay as written (1e400, 12345678901234567890, escapes), CRLF stays", async () => {
    const served = await open();
    const { page } = served;
    await paste(page, '{"schema":1,"x":1e400,"y":12345678901234567890,"z":[0.10,-0E+2],"s":"\\u00e9\\n\\/","e":{},"a":[]}');
    await page.getByRole("button", { name: "Format", exact: true }).click();
    await settled(page);
    assert.equal(
      await editorText(page),
      '{\n  "schema": 1,\n  "x": 1e400,\n  "y": 12345678901234567890,\n  "z": [\n    0.10,\n    -0E+2\n  ],\n  "s": ' +
        '"\\u00e9\\n\\/",\n  "e": {},\n  "a": []\n}\n',
    );
    // The problems are the same ones, only their positions moved: a formatter changes whitespace, nothing else.
    assert.deepEqual(
      (await listedProblems(page)).map((p) => [p.name, p.path]),
      [
        ["SchemaValidationError", "x"],
        ["SchemaValidationError", "y"],
        ["SchemaValidationError", "z"],
        ["SchemaValidationError", "s"],
        ["SchemaValidationError", "e"],
        ["SchemaValidationError", "a"],
      ],
    );
    // A CRLF file keeps its line endings.
    await page.evaluate(() => {
      const content = document.getElementById("editor")!.shadowRoot!.querySelector<HTMLElement>(".cm-content")!;
      content.focus();
      document.execCommand("selectAll");
      const data = new DataTransfer();
      data.setData("text/plain", '{"theme":"ocean",\r\n"log":{"format":"json"}}\r\n');
      content.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await settled(page);
    await page.getByRole("button", { name: "Format", exact: true }).click();
    await settled(page);
    assert.equal(await exactText(page), '{\r\n  "theme": "ocean",\r\n  "log": {\r\n    "format": "json"\r\n  }\r\n}\r\n');
    await close(served);
  });

  test("after a fix from the keyboard, the focus is on what it changed: the variables, the flag, the preset file, the editor", async () => {
    const served = await open();
    const { page } = served;
    await paste(page, '{"theme": "ocean"}');
    await page.getByLabel("Environment variables").fill("DROPKIT_LOG_FORMAT=jsn");
    await page.getByLabel("Flag --theme").fill("forrest");
    await settled(page);
    const pressFix = async (name: string) => {
      await page.getByRole("button", { name, exact: true }).focus();
      await page.keyboard.press("Enter");
      await settled(page);
    };
    await pressFix('Use "json"');
    assert.equal(await page.evaluate(() => document.activeElement?.id), "env");
    await pressFix('Use "forest"');
    assert.equal(await page.evaluate(() => document.activeElement?.id), "flag-theme");
    // A preset file's problem shows once the config's own are fixed (the core loads presets only for a config without them).
    await page.getByRole("button", { name: "Add a preset file" }).click();
    await page.getByLabel("Contents of preset file 1").fill('{"hooks": {"onFailure": "fial"}}');
    await paste(page, '{"presetsSearchPath": ["./presets"], "presets": ["preset-1"], "thme": "ocean"}');
    await pressFix('Use "theme"');
    assert.equal(await editor(page).evaluate((e) => (e.getRootNode() as ShadowRoot).activeElement === e), true);
    await pressFix('Use "fail"');
    assert.equal(await page.evaluate(() => document.activeElement?.id), "preset-file-1-text");
    assert.equal(await page.getByLabel("Contents of preset file 1").inputValue(), '{"hooks": {"onFailure": "fail"}}');
    assert.match((await page.textContent("#status"))!, /^Valid/);
    await close(served);
  });
});

describe("playground: overrides in the editor", () => {
  after(closeChromium);

  test("a value a higher layer overrides is marked where it is written; hover and the caret name the winning layer and source", async () => {
    const served = await open();
    const { page } = served;
    await paste(page, '{\n  "theme": "ocean",\n  "presets": ["standard"],\n  "log": { "format": "json" }\n}');
    assert.equal(await page.locator(".cm-overridden").count(), 0);
    await page.getByLabel("Environment variables").fill("DROPKIT_THEME=forest");
    await page.getByLabel("Flag --log-format").selectOption("text");
    await settled(page);
    assert.deepEqual(await page.locator(".cm-overridden").allTextContents(), ['"ocean"', '"json"']);
    assert.match(
      (await page.locator(".cm-overridden").first().getAttribute("title"))!,
      /^theme: overridden by DROPKIT_THEME=forest, so this value is not used \(the environment wins over the config file and the presets\)\.$/,
    );
    // Hover.
    await page.locator(".cm-overridden", { hasText: '"json"' }).hover();
    const hovered = page.locator(".cm-tooltip-hover .cm-tooltip-override");
    await hovered.waitFor();
    assert.match((await hovered.textContent())!, /log\.format: overridden by --log-format=text/);
    // The caret in the value, by the keyboard: a tooltip of its own, shown while the editor has the focus.
    await page.mouse.move(0, 0);
    await page.locator(".cm-line").nth(1).click();
    await page.keyboard.press("End");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    const caret = page.locator(".cm-tooltip-caret");
    await caret.waitFor();
    assert.match((await caret.textContent())!, /theme: overridden by DROPKIT_THEME=forest/);
    await page.getByLabel("Flag --theme").focus();
    await caret.waitFor({ state: "hidden" });
    // A flag wins over the variable: the mark follows.
    await page.getByLabel("Flag --theme").fill("ocean");
    await settled(page);
    assert.match((await page.locator(".cm-overridden").first().getAttribute("title"))!, /^theme: overridden by --theme=ocean/);
    // A list the flag replaces is marked too; a union list (modules.exclude) never is.
    await page.getByLabel("standard").check();
    await paste(page, '{\n  "presets": ["none"],\n  "modules": { "exclude": ["a"] }\n}');
    await page.getByLabel("Flags --exclude").fill("b");
    await settled(page);
    assert.deepEqual(await page.locator(".cm-overridden").allTextContents(), ['["none"]']);
    assert.match((await page.locator(".cm-overridden").first().getAttribute("title"))!, /^presets: overridden by --preset=standard/);
    await close(served);
  });

  test("a preset file's values that the config, a variable or a later preset override are listed under it", async () => {
    const served = await open();
    const { page } = served;
    await page.getByLabel("example").selectOption({ label: "Monorepo: shared local presets" });
    await page.getByLabel("Environment variables").fill("DROPKIT_LOG_FORMAT=text");
    await settled(page);
    const notes = await page.locator("#preset-file-1-overrides li").allTextContents();
    assert.deepEqual(notes, [
      "theme (line 2, column 12): overridden by /drop/dropkit.config.json:4:12, so this value is not used (the config file wins over the presets).",
      "log.format (line 4, column 22): overridden by DROPKIT_LOG_FORMAT=text, so this value is not used (the " +
        "environment wins over the config file and the presets).",
    ]);
    // The preset that is not applied, and a union list's entries (modules.exclude), are never overridden.
    assert.equal(await page.locator("#preset-file-2-overrides").isHidden(), true);
    // A later preset wins over an earlier one.
    await page.getByLabel("Path of preset file 2").fill("presets/late.json");
    await page.getByLabel("Contents of preset file 2").fill('{"log": {"format": "text"}}');
    await page.getByLabel("Environment variables").fill("");
    await paste(page, '{"presetsSearchPath": ["./presets"], "presets": ["company", "late"]}');
    assert.deepEqual(await page.locator("#preset-file-1-overrides li").allTextContents(), [
      "log.format (line 4, column 22): overridden by the preset at /drop/presets/late.json:1:20, so this value is " +
        "not used (a later preset wins over an earlier one).",
    ]);
    await close(served);
  });

  test("on a phone, a tap in an overridden value names what wins", async () => {
    const served = await open(undefined, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const { page } = served;
    await paste(page, '{\n  "theme": "ocean"\n}');
    await page.getByLabel("Environment variables").fill("DROPKIT_THEME=forest");
    await settled(page);
    await page.locator(".cm-overridden").tap();
    const caret = page.locator(".cm-tooltip-caret");
    await caret.waitFor();
    assert.match((await caret.textContent())!, /theme: overridden by DROPKIT_THEME=forest/);
    const box = (await caret.boundingBox())!;
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `the tooltip is on the screen: ${JSON.stringify(box)}`);
    await close(served);
  });
});
