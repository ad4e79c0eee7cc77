// The playground's verdict is the CLI's: every case of issue 37 pasted into the built page in Chromium, and the same bytes run through
// `dropkit config --json` and `dropkit create --dry-run` on a real fixture tree: the file read, exit codes, problem names, paths, positions.

import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { pasteLarge } from "../../scripts/lib/chromium.ts";
import { eventsOf, type FixtureFile, fixture, runCli } from "../helpers/cli.ts";
import { close, closeChromium, editor, editorText, listedProblems, open, paste, settled, table } from "../helpers/playground.ts";

/** The page's simulated folder as it opens: these archives, which the fixture holds as real zips. */
const defaultArchives = ["ocean-theme.zip", "forest-theme.zip", "blog.zip", "shop.zip", "legacy-forum.zip", "test-fixtures.zip"];

interface Case {
  title: string;
  text: string;
  /** The page's "read as" choice; auto-detect when absent. */
  readAs?: "json" | "package.json";
  /** The file the page must judge the text as (and the fixture holds it as), or null for none read. */
  file: "dropkit.config.json" | "package.json";
  read?: boolean;
  env?: Record<string, string>;
  archives?: string[];
  /** What the page must say each command exits with, as the CLI does. */
  config: number;
  create: number;
  /** The name of the problem that decides create's exit, when it is not config's. */
  createName?: string;
}

/** A dropkit.config.json of `bytes` bytes: a long exclude list, valid but for its size. */
function configOfSize(bytes: number): string {
  const names: string[] = [];
  let text = "";
  for (let i = 0; text.length < bytes; i++) {
    names.push(`legacy-module-number-${i}-*`);
    if (i % 1000 === 0) text = JSON.stringify({ theme: "ocean", modules: { exclude: names } }, null, 2);
  }
  return JSON.stringify({ theme: "ocean", modules: { exclude: names } }, null, 2);
}

const cases: Case[] = [
  {
    title: "a dropkit.config.json with a stray name key",
    text: '{\n  "name": "site",\n  "theme": "ocean"\n}\n',
    file: "dropkit.config.json",
    config: 65,
    create: 65,
  },
  {
    title: "a dropkit.config.json with a stray version key",
    text: '{"theme": "ocean", "version": "1.0.0"}',
    file: "dropkit.config.json",
    config: 65,
    create: 65,
  },
  {
    title: "a package.json without a dropkit key, auto-detected",
    text: '{\n  "name": "site",\n  "private": true\n}\n',
    file: "dropkit.config.json",
    config: 65,
    create: 65,
  },
  {
    title: "a package.json without a dropkit key, read as package.json",
    text: '{\n  "name": "site",\n  "private": true\n}\n',
    readAs: "package.json",
    file: "package.json",
    read: false,
    config: 0,
    create: 0,
  },
  {
    title: "a misspelt dropKit key, auto-detected",
    text: '{\n  "name": "site",\n  "dropKit": { "theme": "ocean" }\n}\n',
    file: "dropkit.config.json",
    config: 65,
    create: 65,
  },
  {
    title: "a misspelt dropKit key, read as package.json",
    text: '{\n  "name": "site",\n  "dropKit": { "theme": "ocean" }\n}\n',
    readAs: "package.json",
    file: "package.json",
    read: false,
    config: 0,
    create: 0,
  },
  {
    title: "a package.json with a dropkit key",
    text: '{\n  "name": "site",\n  "dropkit": { "theme": 3 }\n}\n',
    file: "package.json",
    config: 65,
    create: 65,
  },
  { title: "an empty editor", text: "", file: "dropkit.config.json", config: 65, create: 65 },
  { title: "only whitespace", text: "  \n", file: "dropkit.config.json", config: 65, create: 65 },
  { title: "a 1.19 MB config", text: configOfSize(1_190_000), file: "dropkit.config.json", config: 65, create: 65 },
  {
    title: "a 1.3 MB package.json with a dropkit key",
    text: JSON.stringify({ name: "big", dropkit: { theme: "ocean" }, description: "x".repeat(1_300_000) }),
    file: "package.json",
    config: 65,
    create: 65,
  },
  {
    title: "a theme no archive has (create only)",
    text: '{ "theme": "midnight" }',
    file: "dropkit.config.json",
    config: 0,
    create: 66,
    createName: "ThemeNotFound",
  },
  {
    title: "a key renamed onto one that is set",
    text: '{\n  "theme": "ocean",\n  "thme": "forest"\n}\n',
    file: "dropkit.config.json",
    config: 65,
    create: 65,
  },
  {
    title: "numbers a formatter must keep",
    text: '{"schema": 1, "cache": {"enabled": true}, "x": 1e400, "y": 12345678901234567890}',
    file: "dropkit.config.json",
    config: 65,
    create: 65,
  },
  { title: "CR-only line endings", text: '{\r  "theme": 3,\r  "colour": 1\r}\r', file: "dropkit.config.json", config: 65, create: 65 },
  { title: "CRLF line endings", text: '{\r\n  "theme": 3,\r\n  "colour": 1\r\n}\r\n', file: "dropkit.config.json", config: 65, create: 65 },
  { title: "a NUL in a value", text: '{"theme": "a\\u0000b"}', file: "dropkit.config.json", config: 65, create: 65 },
  { title: "an unknown preset", text: '{"presets": ["standrd"]}', file: "dropkit.config.json", config: 67, create: 67 },
  {
    title: "a folder with no archive (create only)",
    text: '{"theme": "auto"}',
    archives: ["notes.txt"],
    file: "dropkit.config.json",
    config: 0,
    create: 66,
    createName: "EmptyDrop",
  },
  {
    title: "a variable overrides the config's theme",
    text: '{"theme": "ocean"}',
    env: { DROPKIT_THEME: "forest" },
    file: "dropkit.config.json",
    config: 0,
    create: 0,
  },
  {
    title: "a variable names a theme no archive has",
    text: '{"theme": "ocean"}',
    env: { DROPKIT_THEME: "midnight" },
    file: "dropkit.config.json",
    config: 0,
    create: 66,
    createName: "ThemeNotFound",
  },
];

interface Verdict {
  file: string;
  config: { code: number; name: string | null };
  create: { code: number; name: string | null };
  /** name, path, and `line:column` when the problem is in the file (null otherwise), sorted. */
  problems: string[];
  createOnly: string[];
}

/** What the page says: the file it read, each command's exit, and its problems. */
async function pageVerdict(page: Page): Promise<Verdict> {
  // No named functions inside: the page has no `__name`, which the test's compiler adds to them.
  const raw = await page.evaluate(() => {
    const status = document.getElementById("status")!;
    const exits: Record<string, { code: number; name: string | null }> = {};
    for (const element of status.querySelectorAll<HTMLElement>("[data-command]"))
      exits[element.dataset.command!] = { code: Number(element.dataset.code), name: element.dataset.name ?? null };
    const problems = [...document.querySelectorAll<HTMLElement>("#problems li")].map((li) => ({
      name: li.dataset.name!,
      path: li.querySelector(".path")!.textContent!,
      where: li.querySelector(".where")!.textContent!,
      createOnly: li.dataset.scope === "create",
    }));
    return { file: status.dataset.file!, config: exits.config!, create: exits.create!, problems };
  });
  const line = (p: { name: string; path: string; where: string }) =>
    `${p.name} ${p.path === "(document)" ? "" : p.path} ${/^\d+:\d+$/.test(p.where) ? p.where : "-"}`;
  return {
    file: raw.file,
    config: raw.config,
    create: raw.create,
    problems: raw.problems
      .filter((p) => !p.createOnly)
      .map(line)
      .sort(),
    createOnly: raw.problems.filter((p) => p.createOnly).map((p) => p.name),
  };
}

/** What the CLI says on the same bytes in a real folder: `config --json`, and `create --dry-run` (which writes nothing). */
function cliVerdict(c: Case): Verdict {
  const files: Record<string, FixtureFile> = { [c.file]: c.text };
  for (const name of c.archives ?? defaultArchives)
    files[name] = name.endsWith(".zip") ? { zip: { "index.html": name } } : "not an archive\n";
  const root = fixture(files);
  const config = runCli(root, ["config", "--json"], c.env);
  const create = runCli(root, ["create", "--dry-run", "--log-format=json"], c.env);
  const errors = (result: typeof config) => eventsOf(result, "error");
  // The config record names the file read; a file refused on loading (over the size limit) is named by its error.
  const found = eventsOf(config, "config")[0] ?? errors(config).find((e) => e.name === "ConfigLoadError");
  const first = (result: typeof config) => ({ code: result.status!, name: (errors(result)[0]?.name as string | undefined) ?? null });
  return {
    file: found?.file ? String(found.file).slice(root.length + 1) : "",
    config: first(config),
    create: first(create),
    problems: errors(config)
      // A problem found after parsing (an unknown preset) has its position in its source only: `file:line:column`.
      .map((e) => `${e.name} ${e.path} ${e.line ? `${e.line}:${e.column}` : (/:(\d+:\d+)$/.exec(String(e.source))?.[1] ?? "-")}`)
      .sort(),
    createOnly: [],
  };
}

async function enter(page: Page, c: Case): Promise<void> {
  await page.getByLabel("read as").selectOption(c.readAs ?? "auto");
  await page.getByLabel("Environment variables").fill(
    Object.entries(c.env ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join("\n"),
  );
  await page.getByLabel("Archives in the folder").fill((c.archives ?? defaultArchives).join("\n"));
  if (c.text === "") {
    await editor(page).fill("");
    // The editor takes typed text in on its own time, and the page is still "ready" from the case before until it
    // does; once its text is empty, a run is pending (set on the change itself) until one has read it.
    await page.waitForFunction(
      () =>
        document.body.dataset.state === "ready" &&
        document.getElementById("editor")!.shadowRoot!.querySelector(".cm-content")!.textContent === "",
      undefined,
      { timeout: 30_000, polling: 50 },
    );
  } else await pasteLarge(page, c.text);
  await settled(page);
}

describe("playground: the verdict is the CLI's", () => {
  after(closeChromium);

  test("every case of issue 37: the file read, config's and create's exit codes, and the problems, as the CLI gives them on the same bytes", async () => {
    const served = await open();
    const { page } = served;
    for (const c of cases) {
      await enter(page, c);
      const shown = await pageVerdict(page);
      const cli = cliVerdict(c);
      const read = c.read ?? true;
      assert.equal(shown.file, read ? c.file : "", `${c.title}: the file the page read`);
      assert.equal(cli.file, read ? c.file : "", `${c.title}: the file the CLI read`);
      assert.deepEqual([shown.config.code, shown.create.code], [c.config, c.create], `${c.title}: the page's exit codes`);
      assert.deepEqual(shown.config, cli.config, `${c.title}: config's exit`);
      assert.deepEqual(shown.create, cli.create, `${c.title}: create's exit`);
      assert.deepEqual(shown.problems, cli.problems, `${c.title}: config's problems`);
      if (c.createName) {
        assert.equal(shown.create.name, c.createName, c.title);
        assert.deepEqual(shown.createOnly, [c.createName], `${c.title}: marked create only`);
      } else assert.deepEqual(shown.createOnly, [], c.title);
    }
    await close(served);
  });
});

describe("playground: the verdict's words", () => {
  after(closeChromium);

  test("the status names the file and what each command exits with; a problem only create checks is marked so", async () => {
    const served = await open();
    const { page } = served;
    await paste(page, '{\n  "theme": "midnight",\n  "modules": { "only": ["blgo"] }\n}\n');
    assert.equal(
      await page.textContent("#status"),
      "1 problem, for create only (dropkit.config.json): config 0 · create 66 ThemeNotFound.",
    );
    const problems = await listedProblems(page);
    assert.deepEqual(
      problems.map((p) => [p.name, p.where]),
      [["ThemeNotFound", "2:12"]],
    );
    assert.equal(await page.textContent("#problems li .scope"), "create only");
    assert.match((await page.textContent("#problems-summary"))!, /it is for create only/);
    // The plan's warnings (a module glob that matches no archive) are create's too: config makes no plan.
    const glob = page.locator('#warnings li[data-code="GlobUnmatched"]');
    assert.match((await glob.textContent())!, /create only/);
    // No config file at all: the other layers decide, and both commands pass.
    await page.getByLabel("read as").selectOption("none");
    await settled(page);
    assert.equal(await page.textContent("#status"), "Valid (no config file): config 0 · create 0.");
    await close(served);
  });

  test('a misspelt "dropKit" key gets a did-you-mean whose fix makes the text a package.json that dropkit reads', async () => {
    const served = await open();
    const { page } = served;
    const text = '{\n  "name": "site",\n  "dropKit": { "theme": "forest" }\n}\n';
    // Auto-detect: no dropkit key, so a dropkit.config.json, where both keys are unknown; the near one is named.
    await paste(page, text);
    const problems = await listedProblems(page);
    assert.deepEqual(
      problems.map((p) => [p.path, p.fix]),
      [
        ["name", null],
        ["dropKit", 'Use "dropkit"'],
      ],
    );
    assert.match(problems[1]!.message, /Did you mean "dropkit"\? A package\.json holds dropkit's settings under a "dropkit" key\./);
    await page.locator("#problems").getByRole("button", { name: 'Use "dropkit"' }).click();
    await settled(page);
    assert.equal(await editorText(page), text.replace("dropKit", "dropkit"));
    assert.equal(await page.textContent("#status"), "Valid (package.json): config 0 · create 0.");
    assert.deepEqual((await table(page)).theme, ["forest", "config", "/drop/package.json:3:25"]);
    // Read as a package.json, the CLI passes it over and says nothing: the page says why, with the same fix.
    await paste(page, text);
    await page.getByLabel("read as").selectOption("package.json");
    await settled(page);
    assert.equal(await page.textContent("#status"), 'Valid (package.json, not read: no "dropkit" key): config 0 · create 0.');
    const note = page.locator("#warnings li").first();
    assert.match(
      (await note.textContent())!,
      /has no top-level "dropkit" key, so dropkit does not read it; it has "dropKit"\. Did you mean "dropkit"\?/,
    );
    assert.match((await note.textContent())!, /the page's note: dropkit prints nothing/);
    await note.getByRole("button", { name: 'Use "dropkit"' }).click();
    await settled(page);
    assert.equal(await page.textContent("#status"), "Valid (package.json): config 0 · create 0.");
    await close(served);
  });
});
