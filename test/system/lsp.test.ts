// `dropkit lsp --stdio` driven as editors drive it: JSON-RPC over the built server's stdin and stdout, and Neovim's own client.

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { LspClient, within } from "../../scripts/lib/lspclient.js";
import { cliPath, eventsOf, fixture, runCli } from "../helpers/cli.js";
import { hasScript, Terminal } from "../helpers/pty.js";
import { tempDir } from "../helpers/temp.js";
import { otherUser, soloGroup } from "../helpers/users.js";

const zip = { zip: { "readme.txt": "x" } };
const drop = fixture({ "ocean-theme.zip": zip, "blog.zip": zip, "dropkit.config.json": '{ "theme": "ocean" }\n' });
const configUri = pathToFileURL(path.join(drop, "dropkit.config.json")).href;
const packageUri = pathToFileURL(path.join(drop, "package.json")).href;

/** A clean environment: no DROPKIT_* of the outer one, a cache of the test's own. */
const env = { PATH: process.env.PATH ?? "", HOME: drop, XDG_CACHE_HOME: tempDir("dropkit-lsp-cache-") };

const clients: LspClient[] = [];
after(() => {
  for (const client of clients) client.kill();
});

/** The built server, started as an editor starts it, and initialized for the drop. */
async function started(extraEnv: NodeJS.ProcessEnv = {}): Promise<LspClient> {
  const client = new LspClient(process.execPath, [cliPath, "lsp", "--stdio"], { cwd: drop, env: { ...env, ...extraEnv } });
  clients.push(client);
  const init = await client.initialize(pathToFileURL(drop).href);
  assert.equal(init.error, undefined, client.stderr);
  return client;
}

/** Opens a document of `text` at `uri` and returns the diagnostics published for it. */
async function opened(client: LspClient, uri: string, text: string): Promise<any[]> {
  client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "json", version: 1, text } });
  return (await client.diagnostics(uri)).diagnostics;
}

/** A text with LSP text edits applied (positions in UTF-16 code units, lines split at \n). */
function applyEdits(text: string, edits: Array<{ range: any; newText: string }>): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") starts.push(i + 1);
  const offset = (p: { line: number; character: number }) => starts[p.line]! + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  for (const edit of sorted) text = text.slice(0, offset(edit.range.start)) + edit.newText + text.slice(offset(edit.range.end));
  return text;
}

describe("dropkit lsp over JSON-RPC", { timeout: 60_000 }, () => {
  test("initialize answers with the server's capabilities and name", async () => {
    const client = new LspClient(process.execPath, [cliPath, "lsp", "--stdio"], { cwd: drop, env });
    clients.push(client);
    const init = await client.initialize(pathToFileURL(drop).href);
    assert.equal(init.result.serverInfo.name, "dropkit");
    assert.ok(init.result.capabilities.textDocumentSync, "documents are synced");
    assert.equal(init.result.capabilities.documentFormattingProvider, true);
    assert.deepEqual(await client.shutdown(), { code: 0, signal: null });
  });

  test("didOpen and didChange: the core's problems with their codes, ranges and did-you-mean; none once fixed", async () => {
    const client = await started();
    const text = '{\n  "themee": "ocean"\n}\n';
    const [unknown, ...others] = await opened(client, configUri, text);
    assert.deepEqual(others, []);
    assert.equal(unknown.code, "UnknownKey");
    assert.equal(unknown.severity, 1);
    assert.equal(unknown.source, "dropkit");
    assert.equal(unknown.range.start.line, 1);
    assert.equal(unknown.range.start.character, 2);
    assert.equal(unknown.range.end.line, 1);
    assert.ok(unknown.range.end.character > 2, "the range covers the key");
    const related = (unknown.relatedInformation ?? []).map((r: any) => r.message).join("\n");
    assert.match(related, /Did you mean "theme"\?/);
    assert.match(related, /Accepted keys: .*\btheme\b/);

    // An incremental change: the key fixed where it is written.
    client.notify("textDocument/didChange", {
      textDocument: { uri: configUri, version: 2 },
      contentChanges: [{ range: { start: { line: 1, character: 3 }, end: { line: 1, character: 9 } }, text: "theme" }],
    });
    assert.deepEqual(await client.diagnostics(configUri), { uri: configUri, version: 2, diagnostics: [] });

    client.notify("textDocument/didChange", {
      textDocument: { uri: configUri, version: 3 },
      contentChanges: [{ text: '{\n  "log": { "format": "jsn" }\n}\n' }],
    });
    const published = await client.diagnostics(configUri);
    assert.equal(published.version, 3);
    assert.deepEqual(
      published.diagnostics.map((d: any) => [d.code, d.range.start.line, d.range.start.character]),
      [["NotOneOf", 1, 21]],
    );
    assert.match(published.diagnostics[0].relatedInformation.map((r: any) => r.message).join("\n"), /Did you mean "json"\?/);
  });

  test("a theme no archive in the folder has: a warning that only create checks", async () => {
    const client = await started();
    const [warning, ...others] = await opened(client, configUri, '{ "theme": "forest" }\n');
    assert.deepEqual(others, []);
    assert.equal(warning.code, "ThemeNotFound");
    assert.equal(warning.severity, 2);
    assert.match(warning.message, /^Only `dropkit create` checks this/);
  });

  test("a package.json: its dropkit key's problems, placed in the whole file; none without the key", async () => {
    const client = await started();
    const text = '{\n  "name": "site",\n  "dropkit": { "log": { "format": 1 } }\n}\n';
    const diagnostics = await opened(client, packageUri, text);
    assert.deepEqual(
      diagnostics.map((d: any) => [d.code, d.range.start.line]),
      [["WrongType", 2]],
    );
    client.notify("textDocument/didChange", {
      textDocument: { uri: packageUri, version: 2 },
      contentChanges: [{ text: '{ "name": "site" }\n' }],
    });
    assert.deepEqual((await client.diagnostics(packageUri)).diagnostics, []);
  });

  test("a .ts or .js config is never run: no diagnostics for it", async () => {
    const client = await started();
    const marker = path.join(drop, "ran.txt");
    const code = `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\nexport default { themee: 1 };\n`;
    for (const name of ["dropkit.config.ts", "dropkit.config.js"])
      client.notify("textDocument/didOpen", {
        textDocument: { uri: pathToFileURL(path.join(drop, name)).href, languageId: "typescript", version: 1, text: code },
      });
    // Messages are handled in order: once the JSON config's diagnostics are in, any for the two before them would be too.
    await opened(client, configUri, '{ "theme": "ocean" }\n');
    await assert.rejects(client.notification((n) => n.method === "textDocument/publishDiagnostics" && n.params.uri !== configUri, 0));
    assert.equal(fs.existsSync(marker), false);
  });

  test("formatting changes whitespace only, and leaves a text that does not parse as it is", async () => {
    const client = await started();
    const text = '{"theme":"ocean","modules":{"exclude":["legacy-*"],"only":[]}}';
    await opened(client, configUri, text);
    const formatted = await client.request("textDocument/formatting", {
      textDocument: { uri: configUri },
      options: { tabSize: 2, insertSpaces: true },
    });
    const after = applyEdits(text, formatted.result);
    assert.equal(after, '{\n  "theme": "ocean",\n  "modules": {\n    "exclude": [\n      "legacy-*"\n    ],\n    "only": []\n  }\n}\n');
    assert.equal(after.replace(/\s/g, ""), text.replace(/\s/g, ""));
    client.notify("textDocument/didChange", { textDocument: { uri: configUri, version: 2 }, contentChanges: [{ text: '{"theme": ' }] });
    const none = await client.request("textDocument/formatting", {
      textDocument: { uri: configUri },
      options: { tabSize: 2, insertSpaces: true },
    });
    assert.deepEqual(none.result, []);
  });

  test("a document over the CLI's 1 MiB limit: the CLI's ConfigLoadError, as one diagnostic", async () => {
    const client = await started();
    const text = `{ "theme": "ocean", "x": "${"a".repeat(1024 * 1024)}" }\n`;
    const diagnostics = await opened(client, configUri, text);
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0].code, "ConfigLoadError");
    assert.match(diagnostics[0].message, /over the limit of 1 MiB/);
  });

  test("malformed messages get JSON-RPC errors, and the server goes on answering", async () => {
    const client = await started();
    assert.equal((await client.request("dropkit/noSuchMethod", {})).error?.code, -32601);
    // A method the server has, with parameters that are not what it takes.
    assert.equal((await client.request("textDocument/formatting", { textDocument: 42 })).error?.code, -32602);
    // A body that is not JSON: Parse error, with a null id.
    const parseError = client.response(null);
    client.sendText("{ this is not json");
    assert.equal((await parseError).error?.code, -32700);
    // JSON that is no JSON-RPC message: Invalid Request, with its id.
    const invalid = client.response(99);
    client.send({ jsonrpc: "2.0", id: 99, method: 7 });
    assert.equal((await invalid).error?.code, -32600);
    // A notification whose parameters are wrong has no answer to give; the server stays up.
    client.notify("textDocument/didOpen", {});
    assert.deepEqual(await opened(client, configUri, '{ "theme": "ocean" }\n'), []);
    assert.deepEqual(await client.shutdown(), { code: 0, signal: null });
  });

  test("the client gone: stdin closed, the server exits", async () => {
    const client = await started();
    client.process.stdin!.end();
    const exit = await within(client.exited, 5000, "the server to exit");
    assert.equal(exit.signal, null);
  });

  test("the client's process gone: the server exits", async () => {
    const parent = spawn("sleep", ["60"]);
    const client = new LspClient(process.execPath, [cliPath, "lsp", "--stdio"], { cwd: drop, env });
    clients.push(client);
    await client.initialize(pathToFileURL(drop).href, parent.pid!);
    parent.kill("SIGKILL");
    const exit = await within(client.exited, 10_000, "the server to exit");
    assert.equal(exit.signal, null);
  });
});

const hasStrace = spawnSync("strace", ["-V"]).status === 0;
// In CI a missing strace is a failure, elsewhere a skip: it is how a kept answer is told from a file read again.
const needsStrace = hasStrace || process.env.CI ? false : "needs strace (Debian: apt-get install strace)";

/**
 * The built server under `strace -f -e trace=openat`, initialized as `started` does, and how many times it has opened
 * `file` so far: strace writes each call as it returns, so a count read after a verdict arrived covers its reads.
 */
async function traced(): Promise<{ client: LspClient; opens: (file: string) => number }> {
  const trace = path.join(tempDir("dropkit-lsp-trace-"), "trace");
  const command = ["-f", "-e", "trace=openat", "-o", trace, process.execPath, cliPath, "lsp", "--stdio"];
  const client = new LspClient("strace", command, { cwd: drop, env });
  clients.push(client);
  const init = await client.initialize(pathToFileURL(drop).href);
  assert.equal(init.error, undefined, client.stderr);
  const opens = (file: string) =>
    fs
      .readFileSync(trace, "utf8")
      .split("\n")
      .filter((line) => line.includes(`openat(AT_FDCWD, ${JSON.stringify(file)},`)).length;
  return { client, opens };
}

/** Sends `text` as the whole of the document's next `version` and returns the diagnostics published for that version. */
async function changed(client: LspClient, uri: string, version: number, text: string): Promise<any[]> {
  client.notify("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [{ text }] });
  const published = await client.diagnostics(uri);
  assert.equal(published.version, version);
  return published.diagnostics;
}

/** The errors among diagnostics as `dropkit config` records them: code and message. */
const errorsOf = (diagnostics: any[]) => diagnostics.filter((d) => d.severity === 1).map((d) => [d.code, d.message]);

/** `dropkit config` run in `dir`: its exit code and its errors' codes (the core's, else the error's name) and messages. */
function cliVerdict(dir: string): { status: number | null; errors: string[][] } {
  const run = runCli(dir, ["config", "--log-format=json"]);
  return { status: run.status, errors: eventsOf(run, "error").map((e) => [e.code ?? e.name, e.message]) };
}

/** Asserts that `diagnostics` are the one UntrustedFile that `dropkit config` run in `dir` gives (exit 77): one rule, one answer. */
function assertUntrustedAsCli(diagnostics: any[], dir: string): void {
  assert.deepEqual(
    diagnostics.map((d) => d.code),
    ["UntrustedFile"],
  );
  const cli = cliVerdict(dir);
  assert.equal(cli.status, 77);
  assert.deepEqual(errorsOf(diagnostics), cli.errors);
}

/** A file's identity and times, as the server's kept answers are stamped by them. */
function identity(file: string): { ino: number; size: number; mtimeMs: number; ctimeMs: number } {
  const { ino, size, mtimeMs, ctimeMs } = fs.statSync(file);
  return { ino, size, mtimeMs, ctimeMs };
}

/** A .ts preset that leaves `marker` behind when it is run, with a theme an archive of `tree` has. */
const markerPreset = (marker: string) =>
  `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\nexport default { theme: "ocean" };\n`;

describe("dropkit lsp on configs that use preset files", { timeout: 120_000 }, () => {
  // Theme values of one length: a rewrite from one to another keeps the preset file's size.
  const ocean = '{ "theme": "ocean" }\n';
  const coral = '{ "theme": "coral" }\n';
  const number = '{ "theme": 1234567 }\n';
  const uses = (preset: string) => `{ "presets": [${JSON.stringify(preset)}] }\n`;
  const tree = (files: Record<string, string>) => fixture({ "ocean-theme.zip": zip, "blog.zip": zip, ...files });
  const uriOf = (dir: string) => pathToFileURL(path.join(dir, "dropkit.config.json")).href;

  test("a listed JSON preset's values: a theme no archive has as create's warning, a wrong type as the CLI's error", async () => {
    const dir = tree({ "dropkit.config.json": uses("./team.json"), "team.json": coral });
    const client = await started();
    const [warning, ...others] = await opened(client, uriOf(dir), uses("./team.json"));
    assert.deepEqual(others, []);
    assert.deepEqual([warning.code, warning.severity], ["ThemeNotFound", 2]);
    // The config's own theme wins over the preset's: nothing left to say.
    assert.deepEqual(await changed(client, uriOf(dir), 2, '{ "theme": "ocean", "presets": ["./team.json"] }\n'), []);

    const wrong = tree({ "dropkit.config.json": uses("./team.json"), "team.json": number });
    const diagnostics = await opened(client, uriOf(wrong), uses("./team.json"));
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character]),
      [["WrongType", 0, 0]],
    );
    // Placed in the preset file, where the CLI places it.
    const team = pathToFileURL(path.join(wrong, "team.json")).href;
    assert.deepEqual(
      diagnostics[0].relatedInformation.map((r: any) => [r.location.uri, r.location.range.start]),
      [[team, { line: 0, character: 11 }]],
    );
    const cli = cliVerdict(wrong);
    assert.equal(cli.status, 65);
    assert.deepEqual(errorsOf(diagnostics), cli.errors);
  });

  test("a .ts preset's wrong value: placed at its key in the preset, at the CLI's line and column, and again from the kept answer", async () => {
    const dir = tree({ "dropkit.config.json": uses("./presets/team.ts"), "presets/team.ts": "export default {\n  theme: 123,\n};\n" });
    const client = await started();
    const diagnostics = await opened(client, uriOf(dir), uses("./presets/team.ts"));
    const run = runCli(dir, ["config", "--log-format=json"]);
    assert.equal(run.status, 65);
    const [record, ...more] = eventsOf(run, "error");
    assert.deepEqual(more, []);
    const team = path.join(dir, "presets", "team.ts");
    assert.deepEqual([record.code, record.source, record.line, record.column], ["WrongType", `${team}:2:3`, 2, 3]);
    const placed = (found: any[]) =>
      found.map((d) => [d.code, d.relatedInformation?.map((r: any) => [r.location.uri, r.location.range.start])]);
    const expected = [["WrongType", [[pathToFileURL(team).href, { line: record.line - 1, character: record.column - 1 }]]]];
    assert.deepEqual(placed(diagnostics), expected);
    assert.deepEqual(errorsOf(diagnostics), [[record.code, record.message]]);
    // An edit of the config with the preset unchanged: its kept answer, placed the same way.
    assert.deepEqual(placed(await changed(client, uriOf(dir), 2, ` ${uses("./presets/team.ts")}`)), expected);
  });

  test("presets found by their detect globs in the search path; a preset file added there is read", async () => {
    const config = '{ "presetsSearchPath": ["./presets"] }\n';
    const dir = tree({ "dropkit.config.json": config, "presets/team.json": '{ "theme": "coral", "detect": ["*.zip"] }\n' });
    const client = await started();
    const [warning, ...others] = await opened(client, uriOf(dir), config);
    assert.deepEqual(others, []);
    assert.equal(warning.code, "ThemeNotFound");
    // Applied after team (name order), so its theme wins.
    fs.writeFileSync(path.join(dir, "presets", "zed.json"), '{ "theme": "ocean", "detect": ["blog.zip"] }\n');
    assert.deepEqual(await changed(client, uriOf(dir), 2, config), []);
  });

  test("kept: edits of the config while the preset file is unchanged give the same diagnostics, without reading it again", {
    skip: needsStrace,
  }, async () => {
    const dir = tree({ "dropkit.config.json": uses("./team.json"), "team.json": number });
    const team = path.join(dir, "team.json");
    const { client, opens } = await traced();
    const first = await opened(client, uriOf(dir), uses("./team.json"));
    assert.deepEqual(
      first.map((d) => d.code),
      ["WrongType"],
    );
    assert.equal(opens(team), 1, "the preset file is read for the first verdict");
    assert.deepEqual(await changed(client, uriOf(dir), 2, `\n${uses("./team.json")}\n`), first);
    assert.deepEqual(await changed(client, uriOf(dir), 3, '{ "presets": ["./team.json"], "log": { "format": "json" } }\n'), first);
    assert.equal(opens(team), 1, "the kept answer is used");
    // The positive control: the trace does see a read of the file.
    fs.writeFileSync(team, coral);
    assert.equal((await changed(client, uriOf(dir), 4, uses("./team.json")))[0]?.code, "ThemeNotFound");
    assert.equal(opens(team), 2);
    assert.deepEqual(await client.shutdown(), { code: 0, signal: null });
  });

  test("the read budget counts the config's own bytes, as the CLI's does: over 4 MiB with its presets, the CLI's ConfigLoadError", async () => {
    // Four presets of 1,000,000 bytes (whitespace pads them): under the 4 MiB total alone, over it with a config of 200,000.
    const presets = Object.fromEntries([1, 2, 3, 4].map((n) => [`p${n}.json`, `{ "theme": "ocean" }${" ".repeat(1_000_000 - 20)}`]));
    const small = `{ "presets": ["./p1.json", "./p2.json", "./p3.json", "./p4.json"] }\n`;
    const large = small + " ".repeat(200_000);
    const dir = tree({ "dropkit.config.json": large, ...presets });
    const cli = cliVerdict(dir);
    assert.equal(cli.status, 65);
    assert.deepEqual(
      cli.errors.map(([code]) => code),
      ["ConfigLoadError"],
    );
    const client = await started();
    // The small config first, so that the kept answer was made with less read: the large one is judged again, not from it.
    assert.deepEqual(errorsOf(await opened(client, uriOf(dir), small)), []);
    assert.deepEqual(errorsOf(await changed(client, uriOf(dir), 2, large)), cli.errors);
    // And back: the refusal is not kept for a config that fits.
    assert.deepEqual(errorsOf(await changed(client, uriOf(dir), 3, small)), []);
    fs.writeFileSync(path.join(dir, "dropkit.config.json"), small);
    assert.equal(cliVerdict(dir).status, 0);
  });

  test("judged again: the same size rewritten, chmod o+w (ctime alone moves) as the CLI's UntrustedFile, chmod back", {
    skip: needsStrace,
  }, async () => {
    const dir = tree({ "dropkit.config.json": uses("./team.json"), "team.json": ocean });
    const team = path.join(dir, "team.json");
    const uri = uriOf(dir);
    const { client, opens } = await traced();
    assert.deepEqual(await opened(client, uri, uses("./team.json")), []);

    // The same inode and size: the content and its times alone tell it from the file that was judged.
    const before = identity(team);
    fs.writeFileSync(team, coral);
    const rewritten = identity(team);
    assert.deepEqual([rewritten.ino, rewritten.size], [before.ino, before.size]);
    assert.notEqual(rewritten.mtimeMs, before.mtimeMs);
    const [coralWarning, ...others] = await changed(client, uri, 2, uses("./team.json"));
    assert.deepEqual(others, []);
    assert.equal(coralWarning.code, "ThemeNotFound");
    assert.equal(opens(team), 2);

    fs.chmodSync(team, 0o646);
    const widened = identity(team);
    assert.deepEqual([widened.ino, widened.size, widened.mtimeMs], [rewritten.ino, rewritten.size, rewritten.mtimeMs]);
    assert.notEqual(widened.ctimeMs, rewritten.ctimeMs);
    assertUntrustedAsCli(await changed(client, uri, 3, uses("./team.json")), dir);

    fs.chmodSync(team, 0o644);
    assert.deepEqual(await changed(client, uri, 4, uses("./team.json")), [coralWarning]);
    assert.equal(cliVerdict(dir).status, 0);
    assert.deepEqual(await client.shutdown(), { code: 0, signal: null });
  });

  test("judged again: the preset's folder made writable by others, as the CLI's UntrustedFile; made private again", async () => {
    const dir = tree({ "dropkit.config.json": uses("./presets/team.json"), "presets/team.json": coral });
    const presets = path.join(dir, "presets");
    const uri = uriOf(dir);
    const client = await started();
    const [warning] = await opened(client, uri, uses("./presets/team.json"));
    assert.equal(warning.code, "ThemeNotFound");

    // The file itself is untouched (its ctime too): the folder's mode alone changes the verdict.
    fs.chmodSync(presets, 0o757);
    assertUntrustedAsCli(await changed(client, uri, 2, uses("./presets/team.json")), dir);

    fs.chmodSync(presets, 0o755);
    assert.deepEqual(await changed(client, uri, 3, uses("./presets/team.json")), [warning]);
    assert.deepEqual(await client.shutdown(), { code: 0, signal: null });
  });

  test("judged again: another user added to the group of a group-writable preset folder, as the CLI's UntrustedFile; the .ts preset not run", {
    skip: otherUser.skip,
  }, async () => {
    const group = soloGroup()!;
    const marker = path.join(tempDir("dropkit-lsp-marker-"), "ran");
    const dir = tree({ "dropkit.config.json": uses("./presets/team.ts"), "presets/team.ts": markerPreset(marker) });
    const presets = path.join(dir, "presets");
    // Group-writable, and the group has no member: only root can write it, so its preset is trusted and run.
    fs.chownSync(presets, 0, group.gid);
    fs.chmodSync(presets, 0o775);
    const uri = uriOf(dir);
    const client = await started();
    try {
      assert.deepEqual(await opened(client, uri, uses("./presets/team.ts")), []);
      assert.ok(fs.existsSync(marker), "the preset runs while its folder's group has no other member");
      fs.rmSync(marker);

      // Nothing of the preset or its folder changes: /etc/group alone does.
      group.join(otherUser.user.name);
      assertUntrustedAsCli(await changed(client, uri, 2, uses("./presets/team.ts")), dir);
      assert.ok(!fs.existsSync(marker), "never run while another user can write its folder");

      group.leave(otherUser.user.name);
      assert.deepEqual(await changed(client, uri, 3, uses("./presets/team.ts")), []);
      assert.ok(fs.existsSync(marker));
    } finally {
      spawnSync("gpasswd", ["-M", "", group.name]);
    }
    assert.deepEqual(await client.shutdown(), { code: 0, signal: null });
  });

  test("judged again: another file renamed over the preset (a new inode, same size and mtime)", { skip: needsStrace }, async () => {
    const dir = tree({ "dropkit.config.json": uses("./team.json"), "team.json": ocean });
    const team = path.join(dir, "team.json");
    const uri = uriOf(dir);
    // Whole seconds, which a file's times hold exactly: the file renamed over it can have the very same mtime.
    fs.utimesSync(team, 1_700_000_000, 1_700_000_000);
    const { client, opens } = await traced();
    assert.deepEqual(await opened(client, uri, uses("./team.json")), []);
    assert.deepEqual(await changed(client, uri, 2, uses("./team.json")), []);
    assert.equal(opens(team), 1);

    // As editors save: a new file beside it, renamed over it.
    const before = fs.statSync(team);
    const next = path.join(dir, "team.json.new");
    fs.writeFileSync(next, number);
    fs.utimesSync(next, 1_700_000_000, 1_700_000_000);
    fs.renameSync(next, team);
    const after = identity(team);
    assert.notEqual(after.ino, before.ino);
    assert.deepEqual([after.size, after.mtimeMs], [before.size, before.mtimeMs]);
    const replaced = await changed(client, uri, 3, uses("./team.json"));
    assert.deepEqual(
      replaced.map((d) => d.code),
      ["WrongType"],
    );
    assert.equal(opens(team), 2);
    assert.deepEqual(await client.shutdown(), { code: 0, signal: null });
  });

  test("a .ts preset in a config's folder others can write is never run: the config itself is refused, as the CLI refuses it", async () => {
    const dir = tree({ "dropkit.config.json": uses("./presets/team.ts") });
    const marker = path.join(dir, "ran.txt");
    fs.mkdirSync(path.join(dir, "presets"));
    fs.writeFileSync(path.join(dir, "presets", "team.ts"), markerPreset(marker));
    fs.chmodSync(dir, 0o757);
    const client = await started();
    const diagnostics = await opened(client, uriOf(dir), uses("./presets/team.ts"));
    assert.equal(fs.existsSync(marker), false, "the preset ran");
    assertUntrustedAsCli(diagnostics, dir);
    assert.equal(diagnostics[0].relatedInformation, undefined, "the config's refusal, not its preset's");
    assert.equal(fs.existsSync(marker), false);
  });

  test("a .ts preset in a private folder within one others can write, in the config's folder, is never run: fenced there", async () => {
    const dir = tree({ "dropkit.config.json": uses("./presets/team/team.ts") });
    const marker = path.join(dir, "ran.txt");
    fs.mkdirSync(path.join(dir, "presets", "team"), { recursive: true });
    fs.writeFileSync(path.join(dir, "presets", "team", "team.ts"), markerPreset(marker));
    fs.chmodSync(path.join(dir, "presets"), 0o757);
    const client = await started();
    const diagnostics = await opened(client, uriOf(dir), uses("./presets/team/team.ts"));
    assert.equal(fs.existsSync(marker), false, "the preset ran");
    assertUntrustedAsCli(diagnostics, dir);
    assert.deepEqual(
      diagnostics[0].relatedInformation.map((r: any) => r.location.uri),
      [pathToFileURL(path.join(dir, "presets", "team", "team.ts")).href],
    );
    // "Explain this key" resolves as the diagnostics do, fenced at the config's folder.
    const explained = await client.request("workspace/executeCommand", { command: "dropkit.explain", arguments: [uriOf(dir), "theme"] });
    assert.equal(explained.error?.message, diagnostics[0].message);
    assert.equal(fs.existsSync(marker), false);
  });
});

describe("dropkit lsp on the trust of the config file itself, as dropkit config judges it", { timeout: 120_000 }, () => {
  const tree = (files: Record<string, string>) => fixture({ "ocean-theme.zip": zip, "blog.zip": zip, ...files });
  const configIn = (dir: string) => path.join(dir, "dropkit.config.json");
  const uriOf = (dir: string) => pathToFileURL(configIn(dir)).href;
  const ocean = '{ "theme": "ocean" }\n';

  test("its folder writable by others: the CLI's UntrustedFile (77) first, then the text's own problems; made private again, none", async () => {
    const dir = tree({ "dropkit.config.json": ocean });
    fs.chmodSync(dir, 0o757);
    const client = await started();
    const diagnostics = await opened(client, uriOf(dir), ocean);
    assertUntrustedAsCli(diagnostics, dir);
    const untrusted = diagnostics[0];
    assert.deepEqual(
      [untrusted.range.start, untrusted.range.end],
      [
        { line: 0, character: 0 },
        { line: 0, character: 0 },
      ],
    );

    // The text's own problem is kept beside the refusal, placed where it is written.
    const misspelt = await changed(client, uriOf(dir), 2, '{\n  "themee": "ocean"\n}\n');
    assert.deepEqual(
      misspelt.map((d) => [d.code, d.range.start.line, d.range.start.character]),
      [
        ["UntrustedFile", 0, 0],
        ["UnknownKey", 1, 2],
      ],
    );
    assert.deepEqual(misspelt[0], untrusted);

    fs.chmodSync(dir, 0o755);
    assert.deepEqual(await changed(client, uriOf(dir), 3, ocean), []);
    assert.equal(cliVerdict(dir).status, 0);
    assert.deepEqual(await client.shutdown(), { code: 0, signal: null });
  });

  test("the config file writable by others: the CLI's UntrustedFile; its .ts preset not run, explain refused; chmod back, it is", async () => {
    const dir = tree({ "dropkit.config.json": '{ "presets": ["./team.ts"] }\n' });
    const marker = path.join(dir, "ran.txt");
    fs.writeFileSync(path.join(dir, "team.ts"), markerPreset(marker));
    fs.chmodSync(configIn(dir), 0o646);
    const client = await started();
    const text = '{ "presets": ["./team.ts"] }\n';
    const diagnostics = await opened(client, uriOf(dir), text);
    assertUntrustedAsCli(diagnostics, dir);
    const explained = await client.request("workspace/executeCommand", { command: "dropkit.explain", arguments: [uriOf(dir), "theme"] });
    assert.equal(explained.error?.message, cliVerdict(dir).errors[0]![1]);
    assert.equal(fs.existsSync(marker), false, "a preset of a refused config ran");

    // The positive control: trusted again, the same text has its preset run.
    fs.chmodSync(configIn(dir), 0o644);
    assert.deepEqual(await changed(client, uriOf(dir), 2, text), []);
    assert.equal(fs.existsSync(marker), true);
    assert.deepEqual(await client.shutdown(), { code: 0, signal: null });
  });

  test("the config file owned by another user: the CLI's UntrustedFile", {
    skip: process.getuid?.() === 0 ? false : "needs root, to give a file to another user",
  }, async () => {
    const dir = tree({ "dropkit.config.json": ocean });
    fs.chownSync(configIn(dir), 65534, 65534);
    const client = await started();
    assertUntrustedAsCli(await opened(client, uriOf(dir), ocean), dir);
    fs.chownSync(configIn(dir), 0, 0);
    assert.deepEqual(await changed(client, uriOf(dir), 2, ocean), []);
    assert.deepEqual(await client.shutdown(), { code: 0, signal: null });
  });

  test("judged again on a save with no edit: a chmod of the file, and back", async () => {
    const dir = tree({ "dropkit.config.json": ocean });
    const uri = uriOf(dir);
    const client = await started();
    assert.deepEqual(await opened(client, uri, ocean), []);
    fs.chmodSync(configIn(dir), 0o646);
    client.notify("textDocument/didSave", { textDocument: { uri } });
    const saved = await client.diagnostics(uri);
    assert.equal(saved.version, 1);
    assertUntrustedAsCli(saved.diagnostics, dir);
    fs.chmodSync(configIn(dir), 0o644);
    client.notify("textDocument/didSave", { textDocument: { uri } });
    assert.deepEqual(await client.diagnostics(uri), { uri, version: 1, diagnostics: [] });
    assert.deepEqual(await client.shutdown(), { code: 0, signal: null });
  });

  test("a trusted config below a folder others can write, above the config's own: none, as the CLI run beside it", async () => {
    const root = fixture({ "site/dropkit.config.json": ocean });
    const dir = path.join(root, "site");
    fs.chmodSync(root, 0o757);
    const client = await started();
    assert.deepEqual(
      (await opened(client, uriOf(dir), '{ "theme": 1 }\n')).map((d) => d.code),
      ["WrongType"],
    );
    assert.deepEqual(await changed(client, uriOf(dir), 2, ocean), []);
    assert.equal(cliVerdict(dir).status, 0);
    assert.deepEqual(await client.shutdown(), { code: 0, signal: null });
  });

  test("a path with no file behind it yet (a buffer not saved) has no trust question, in a folder others can write too", async () => {
    const dir = tree({});
    fs.chmodSync(dir, 0o757);
    const client = await started();
    assert.deepEqual(await opened(client, uriOf(dir), ocean), []);
    assert.deepEqual(await client.shutdown(), { code: 0, signal: null });
  });
});

describe("dropkit lsp started by hand", { timeout: 60_000 }, () => {
  test("on a terminal it says on stderr what it is, and Ctrl-D ends it", { skip: hasScript() ? false : "needs script(1)" }, async () => {
    const terminal = new Terminal(drop, ["lsp"]);
    await terminal.expect(/Language Server Protocol on stdin and stdout: editors start it/);
    // Ctrl-D at the start of a line: the terminal's end of input, the server's stdin closed.
    terminal.send("\u0004");
    assert.notEqual(await terminal.exit(10_000), null);
  });
});

describe("dropkit lsp under Neovim's built-in client", { timeout: 60_000 }, () => {
  const nvim = spawnSync("sh", ["-c", "command -v nvim"], { encoding: "utf8" }).stdout.trim();
  const inCi = Boolean(process.env.CI) && process.env.CI !== "false";
  // In CI a missing Neovim is a failure (.ci/run installs it), elsewhere a skip that says what to install.
  const skip = nvim === "" && !inCi ? "needs Neovim 0.7+ (Debian: apt-get install neovim)" : false;

  test("vim.lsp starts the server on a config with an unknown key: the diagnostic arrives with its range and code", { skip }, () => {
    const dir = fixture({ "ocean-theme.zip": zip, "dropkit.config.json": '{\n  "theme": "ocean",\n  "modulez": []\n}\n' });
    const out = path.join(dir, "diagnostics.json");
    const init = path.join(dir, "init.lua");
    fs.writeFileSync(
      init,
      `
local out = ${JSON.stringify(out)}
local function finish(value)
  local f = io.open(out, "w")
  f:write(vim.fn.json_encode(value))
  f:close()
  vim.cmd("qall!")
end
vim.cmd("edit " .. vim.fn.fnameescape(${JSON.stringify(path.join(dir, "dropkit.config.json"))}))
local client = vim.lsp.start_client({
  name = "dropkit",
  cmd = { ${JSON.stringify(process.execPath)}, ${JSON.stringify(cliPath)}, "lsp", "--stdio" },
  root_dir = ${JSON.stringify(dir)},
})
if not client then finish({ error = "start_client failed" }) end
vim.lsp.buf_attach_client(0, client)
local arrived = vim.wait(15000, function() return #vim.diagnostic.get(0) > 0 end, 20)
local found = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  local lsp = d.user_data and d.user_data.lsp or {}
  table.insert(found, { lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col, severity = d.severity,
    code = d.code or lsp.code, source = d.source })
end
finish({ arrived = arrived, diagnostics = found })
`,
    );
    const run = spawnSync(nvim || "nvim", ["--headless", "-i", "NONE", "-u", init], {
      cwd: dir,
      env: { ...env, HOME: dir, XDG_CONFIG_HOME: dir, XDG_DATA_HOME: dir, XDG_STATE_HOME: dir },
      encoding: "utf8",
      timeout: 30_000,
    });
    assert.equal(run.error, undefined);
    const written = JSON.parse(fs.readFileSync(out, "utf8"));
    assert.equal(written.arrived, true, `no diagnostics arrived: ${run.stderr}`);
    assert.deepEqual(written.diagnostics, [
      { lnum: 2, col: 2, end_lnum: 2, end_col: 11, severity: 1, code: "UnknownKey", source: "dropkit" },
    ]);
  });
});
