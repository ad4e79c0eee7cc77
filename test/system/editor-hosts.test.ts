// One editor logic, two hosts: on the playground's examples, the page's answers (its own functions, run here on its inputs as it
// runs them) and those of `dropkit lsp` over JSON-RPC, on the same files in a real folder, are the same: completion items, hover
// text and quick fixes at every token; and "explain this key" answers what `dropkit config --explain` prints there.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { offered, textsOf } from "../../playground/apply.ts";
import { type Example, exampleInputs, examples } from "../../playground/examples.ts";
import { folderFacts, lines, parseEnv } from "../../playground/layers.ts";
import type { PageInputs } from "../../playground/pageinputs.ts";
import { judge, type Verdict } from "../../playground/verdict.ts";
import { LspClient } from "../../scripts/lib/lspclient.ts";
import { completionEdit, completionsAt } from "../../src/editor/complete.ts";
import { candidatesFor } from "../../src/editor/fixes.ts";
import { hoverAt, hoverMarkdown } from "../../src/editor/hover.ts";
import { tokens } from "../../src/editor/jsontext.ts";
import type { Schema } from "../../src/editor/schema.ts";
import { cliPath, fixture, runCli } from "../helpers/cli.ts";
import { core } from "../helpers/core.ts";
import { tempDir } from "../helpers/temp.ts";

const schema = JSON.parse(fs.readFileSync(new URL("../../schema.json", import.meta.url), "utf8")) as Schema;
const bundled = core.listPresets().map((p) => p.name);
/** The LSP's kinds of the page's options (CompletionItemKind: Property, EnumMember, Value). */
const kinds = { property: 10, enum: 20, constant: 12 } as const;

const clients: LspClient[] = [];
after(() => {
  for (const client of clients) client.kill();
});

/** The built server with a clean environment (no DROPKIT_* of the outer one) plus `vars`, initialized. */
async function server(cwd: string, vars: Record<string, string>): Promise<LspClient> {
  const env = { PATH: process.env.PATH ?? "", HOME: cwd, XDG_CACHE_HOME: tempDir("dropkit-hosts-cache-"), ...vars };
  const client = new LspClient(process.execPath, [cliPath, "lsp", "--stdio"], { cwd, env });
  clients.push(client);
  const init = await client.initialize(pathToFileURL(cwd).href);
  assert.equal(init.error, undefined, client.stderr);
  return client;
}

/** A case: an example's inputs as the page holds them, the verdict the page gives them, and the same files in a folder. */
interface Case {
  title: string;
  state: PageInputs;
  verdict: Verdict;
  drop: string;
  file: string;
  uri: string;
}

function caseOf(example: Example, env = ""): Case {
  const state = { ...exampleInputs(example), env };
  const verdict = judge(core, state, { explain: false });
  assert.ok(verdict.file, `${example.id}: the page reads a config file`);
  const zip = { zip: { "readme.txt": "x" } };
  const files: Record<string, string | typeof zip> = { [verdict.file]: state.config };
  for (const name of lines(state.archives)) files[name] = zip;
  for (const preset of state.presetFiles) files[preset.path] = preset.text;
  const drop = fixture(files);
  const file = path.join(drop, verdict.file);
  return { title: example.title, state, verdict, drop, file, uri: pathToFileURL(file).href };
}

/** An LSP position from a UTF-16 offset, and back. */
function positionOf(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length - 1, character: before.at(-1)!.length };
}
function offsetOf(text: string, position: { line: number; character: number }): number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") starts.push(i + 1);
  return starts[position.line]! + position.character;
}

/** Where the two hosts are asked: inside and at the edges of every token, and at the text's ends. */
function offsets(text: string): number[] {
  const at = new Set([0, text.length]);
  for (const token of tokens(text)) for (const pos of [token.from, token.from + 1, token.to]) at.add(Math.min(pos, text.length));
  return [...at].sort((a, b) => a - b);
}

/** The page's answers at an offset, in the LSP's terms (its ranges as offsets), and the server's, the same way. */
function pageCompletion(c: Case, pos: number): unknown {
  const facts = folderFacts(c.verdict.file === "package.json", bundled, c.state);
  const found = completionsAt(c.state.config, pos, facts, schema, { explicit: true });
  return (
    found?.items.map((item) => {
      const edit = completionEdit(c.state.config, found.from, pos, item);
      return { label: item.label, kind: kinds[item.kind], info: item.info, from: edit.from, to: edit.to, insert: edit.insert };
    }) ?? null
  );
}
function serverCompletion(c: Case, result: any): unknown {
  return (
    result?.map((item: any) => ({
      label: item.label,
      kind: item.kind,
      info: item.documentation?.value,
      from: offsetOf(c.state.config, item.textEdit.range.start),
      to: offsetOf(c.state.config, item.textEdit.range.end),
      insert: item.textEdit.newText,
    })) ?? null
  );
}

function pageHover(c: Case, pos: number): unknown {
  const facts = { packageJson: c.verdict.file === "package.json", rows: c.verdict.answer.rows };
  const found = hoverAt(c.state.config, pos, facts, schema);
  return found ? { from: found.from, to: found.to, markdown: hoverMarkdown(found) } : null;
}
function serverHover(c: Case, result: any): unknown {
  if (!result) return null;
  const markdown = (result.contents.value as string)
    .replace(/\n\n\[Explain [^\]]+\]\(command:dropkit\.explain\?[^)]*\)$/, "")
    .replaceAll(c.drop, "/drop");
  return { from: offsetOf(c.state.config, result.range.start), to: offsetOf(c.state.config, result.range.end), markdown };
}

/** The page's quick fixes of the config's text, as it offers them (the first safe candidate of each problem and warning). */
function pageFixes(c: Case): unknown[] {
  const textOf = textsOf(c.state, c.verdict.source);
  const setVariables = new Set(Object.keys(parseEnv(c.state.env).vars));
  const fixes = [
    ...c.verdict.problems.map((p) => offered(core, candidatesFor(p, textOf), c.verdict, c.state, true)),
    ...c.verdict.warnings.map((w) => offered(core, candidatesFor(w, textOf, setVariables), c.verdict, c.state, false)),
  ];
  return fixes
    .flatMap((fix) => (fix?.edit.target === "text" && fix.edit.file === c.verdict.source ? [fix] : []))
    .map((fix) => {
      const edit = fix.edit as Extract<typeof fix.edit, { target: "text" }>;
      return { label: fix.label, from: edit.from, to: edit.to, insert: edit.insert };
    })
    .sort((a, b) => a.from - b.from);
}
function serverFixes(c: Case, actions: any[]): unknown[] {
  return actions
    .filter((a) => a.kind === "quickfix")
    .map((a) => {
      const [edit, ...more] = a.edit.changes[c.uri];
      assert.deepEqual(more, [], "a fix is one edit");
      return {
        label: a.title,
        from: offsetOf(c.state.config, edit.range.start),
        to: offsetOf(c.state.config, edit.range.end),
        insert: edit.newText,
      };
    })
    .sort((a, b) => a.from - b.from);
}

/** Asks the server everything the page answers on a case's text, and compares. */
async function compare(client: LspClient, c: Case): Promise<{ completions: number; hovers: number; fixes: number }> {
  const text = c.state.config;
  client.notify("textDocument/didOpen", { textDocument: { uri: c.uri, languageId: "json", version: 1, text } });
  await client.diagnostics(c.uri);
  const counts = { completions: 0, hovers: 0, fixes: 0 };
  const textDocument = { uri: c.uri };
  for (const pos of offsets(text)) {
    const position = positionOf(text, pos);
    const completion = await client.request("textDocument/completion", { textDocument, position });
    assert.equal(completion.error, undefined);
    const expected = pageCompletion(c, pos);
    assert.deepEqual(serverCompletion(c, completion.result), expected, `${c.title}: completion at ${pos}`);
    if (expected) counts.completions++;
    const hover = await client.request("textDocument/hover", { textDocument, position });
    const page = pageHover(c, pos);
    assert.deepEqual(serverHover(c, hover.result), page, `${c.title}: hover at ${pos}`);
    if (page) counts.hovers++;
  }
  const range = { start: positionOf(text, 0), end: positionOf(text, text.length) };
  const actions = await client.request("textDocument/codeAction", { textDocument, range, context: { diagnostics: [] } });
  assert.equal(actions.error, undefined);
  const fixes = pageFixes(c);
  assert.deepEqual(serverFixes(c, actions.result ?? []), fixes, `${c.title}: quick fixes`);
  counts.fixes = fixes.length;
  client.notify("textDocument/didClose", { textDocument });
  return counts;
}

describe("the page and dropkit lsp give the same answers", { timeout: 120_000 }, () => {
  test("on every example: completion, hover and quick fixes at every token", async () => {
    const cases = examples.map((example) => caseOf(example));
    const client = await server(cases[0]!.drop, {});
    const total = { completions: 0, hovers: 0, fixes: 0 };
    for (const c of cases) {
      const counts = await compare(client, c);
      for (const key of Object.keys(total) as Array<keyof typeof total>) total[key] += counts[key];
    }
    // The comparison would pass on hosts that answer nothing: both answered, on many places, and offered the typos' fixes.
    assert.ok(total.completions > 50 && total.hovers > 50, JSON.stringify(total));
    const broken = cases.find((c) => c.state.config.includes('"standrd"'))!;
    assert.deepEqual(
      pageFixes(broken).map((f: any) => f.label),
      ['Use "standard"', 'Use "exclude"', 'Use "fail"', 'Use "json"'],
    );
  });

  test("with DROPKIT_THEME set: the hover on the theme says the variable overrides it, on the page and in the server alike", async () => {
    const c = caseOf(examples.find((e) => e.id === "minimal")!, "DROPKIT_THEME=forest");
    const client = await server(c.drop, { DROPKIT_THEME: "forest" });
    // The same hovers, the override's among them.
    assert.ok((await compare(client, c)).hovers > 0);
    const pos = c.state.config.indexOf('"theme"') + 2;
    const markdown = (pageHover(c, pos) as any).markdown as string;
    assert.match(
      markdown,
      /Resolved: forest \(env, DROPKIT\\_THEME\)\n\nThe value written here is overridden, so it is not used \(the environment wins/,
    );
    // Named once, as `config --explain` names the winner once and marks the file's value "overridden".
    assert.equal(markdown.split("DROPKIT\\_THEME").length - 1, 1, markdown);
  });

  test('"explain this key" answers what `dropkit config --explain` prints in the config\'s folder', async () => {
    const valid = examples.filter((e) => e.id !== "broken").map((e) => caseOf(e));
    const vars = { DROPKIT_LOG_FORMAT: "text" };
    const client = await server(valid[0]!.drop, vars);
    let compared = 0;
    for (const c of valid) {
      client.notify("textDocument/didOpen", { textDocument: { uri: c.uri, languageId: "json", version: 1, text: c.state.config } });
      await client.diagnostics(c.uri);
      for (const key of ["theme", "modules.exclude", "log.format", "presets"]) {
        const cli = runCli(c.drop, ["config", "--explain", key], vars);
        assert.equal(cli.status, 0, cli.stderr);
        const answer = await client.request("workspace/executeCommand", { command: "dropkit.explain", arguments: [c.uri, key] });
        assert.equal(answer.error, undefined, JSON.stringify(answer.error));
        assert.equal(answer.result, cli.stdout, `${c.title}: explain ${key}`);
        compared++;
      }
    }
    assert.equal(compared, 16);
    // The code action at a key offers it, with the key's leaf; a key of the package's own offers none.
    const minimal = valid.find((c) => c.state.config.startsWith('{\n  "theme"'))!;
    const at = positionOf(minimal.state.config, minimal.state.config.indexOf('"ocean"') + 1);
    const actions = await client.request("textDocument/codeAction", {
      textDocument: { uri: minimal.uri },
      range: { start: at, end: at },
      context: { diagnostics: [] },
    });
    assert.deepEqual(
      actions.result.map((a: any) => [a.title, a.command?.command, a.command?.arguments]),
      [["Explain theme", "dropkit.explain", [minimal.uri, "theme"]]],
    );
    const packageJson = valid.find((c) => c.verdict.file === "package.json")!;
    const name = positionOf(packageJson.state.config, packageJson.state.config.indexOf('"name"') + 1);
    const none = await client.request("textDocument/codeAction", {
      textDocument: { uri: packageJson.uri },
      range: { start: name, end: name },
      context: { diagnostics: [] },
    });
    assert.deepEqual(none.result, []);
    // The hover on a key links to the same answer.
    const hover = await client.request("textDocument/hover", { textDocument: { uri: minimal.uri }, position: at });
    const link = `[Explain theme](command:dropkit.explain?${encodeURIComponent(JSON.stringify([minimal.uri, "theme"]))})`;
    assert.ok((hover.result.contents.value as string).endsWith(`\n\n${link}`), hover.result.contents.value);
  });
});

describe("dropkit lsp's editor features: where they stop", { timeout: 60_000 }, () => {
  test("an unknown key to explain is a JSON-RPC error with the did-you-mean; nothing for a .ts config or one over the limit", async () => {
    const drop = fixture({ "dropkit.config.json": '{"theme": "ocean"}\n', "dropkit.config.ts": "export default {};\n" });
    const client = await server(drop, {});
    const json = pathToFileURL(path.join(drop, "dropkit.config.json")).href;
    client.notify("textDocument/didOpen", { textDocument: { uri: json, languageId: "json", version: 1, text: '{"theme": "ocean"}\n' } });
    await client.diagnostics(json);
    const unknown = await client.request("workspace/executeCommand", { command: "dropkit.explain", arguments: [json, "thme"] });
    assert.equal(unknown.result, undefined);
    assert.match(unknown.error!.message, /Did you mean "theme"\?/);
    const position = { line: 0, character: 3 };
    const ts = pathToFileURL(path.join(drop, "dropkit.config.ts")).href;
    client.notify("textDocument/didOpen", {
      textDocument: { uri: ts, languageId: "typescript", version: 1, text: "export default {};\n" },
    });
    const huge = `{"theme": "ocean", "modules": {"exclude": [${'"x",'.repeat(300_000)}"y"]}}`;
    assert.ok(huge.length > 1024 * 1024);
    client.notify("textDocument/didChange", { textDocument: { uri: json, version: 2 }, contentChanges: [{ text: huge }] });
    await client.diagnostics(json);
    for (const uri of [ts, json]) {
      for (const method of ["textDocument/completion", "textDocument/hover"]) {
        const answer = await client.request(method, { textDocument: { uri }, position });
        assert.equal(answer.error, undefined);
        assert.equal(answer.result, null, `${method} on ${uri}`);
      }
    }
  });
});
