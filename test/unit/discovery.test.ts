// Tests for src/config/discovery.ts: the walk up, its stops, the forms and their order, and explicit paths.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { detectFormat, findConfig, locateConfig } from "../../src/config/discovery.js";
import { DropkitError } from "../../src/errors.js";
import { fenced, tempDir } from "../helpers/temp.js";

/** A temp tree from `{ "a/b.json": "text" }`; a key ending in "/" is an empty directory. */
function tree(files: Record<string, string> = {}): string {
  const root = tempDir();
  for (const [name, text] of Object.entries(files)) {
    const full = path.join(root, name);
    if (name.endsWith("/")) {
      fs.mkdirSync(full, { recursive: true });
    } else {
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, text);
    }
  }
  return root;
}

async function rejectsWith(promise: Promise<unknown>, name: string, exitCode: number, pattern: RegExp): Promise<DropkitError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof DropkitError, `expected a DropkitError, got ${String(error)}`);
    assert.equal(error.name, name);
    assert.equal(error.exitCode, exitCode);
    assert.match(error.message, pattern);
    return error;
  }
  assert.fail("expected a rejection");
}

describe("findConfig: forms and their order", () => {
  const forms: Array<[string, string, string]> = [
    ["dropkit.config.ts", "export default {};", "ts"],
    ["dropkit.config.js", "export default {};", "js"],
    ["dropkit.config.json", "{}", "json"],
    ["package.json", '{"name":"x","dropkit":{"theme":"ocean"}}', "package.json"],
  ];
  for (const [name, text, format] of forms) {
    test(`finds ${name} alone`, async () => {
      const root = tree({ [name]: text });
      const found = await findConfig(root, fenced(root));
      assert.equal(found.file, path.join(root, name));
      assert.equal(found.format, format);
      assert.equal(found.via, "discovery");
      assert.deepEqual(found.stop, { dir: root, reason: "found" });
      assert.deepEqual(found.shadowed, []);
    });
  }

  test("the first form wins and the others are listed as shadowed, in order", async () => {
    const files = Object.fromEntries(forms.map(([name, text]) => [name, text]));
    const root = tree(files);
    const found = await findConfig(root, fenced(root));
    assert.equal(found.file, path.join(root, "dropkit.config.ts"));
    assert.deepEqual(
      found.shadowed,
      ["dropkit.config.js", "dropkit.config.json", "package.json"].map((n) => path.join(root, n)),
    );
  });

  test("each form beats the ones after it", async () => {
    for (let i = 0; i < forms.length - 1; i++) {
      const files = Object.fromEntries(forms.slice(i).map(([name, text]) => [name, text]));
      const root = tree(files);
      const found = await findConfig(root, fenced(root));
      assert.equal(found.file, path.join(root, forms[i]![0]));
      assert.equal(found.shadowed.length, forms.length - 1 - i);
    }
  });

  test("a package.json without a dropkit key is not a match, and the walk goes on", async () => {
    const root = tree({ "dropkit.config.json": "{}", "app/package.json": '{"name":"dropkit","dependencies":{"dropkit":"1"}}' });
    const found = await findConfig(path.join(root, "app"), fenced(root));
    assert.equal(found.file, path.join(root, "dropkit.config.json"));
    assert.deepEqual(found.searched, [{ dir: path.join(root, "app") }, { dir: root }]);
  });

  test("a package.json without a dropkit key is not listed as shadowed", async () => {
    const root = tree({ "dropkit.config.json": "{}", "package.json": '{"name":"x"}' });
    const found = await findConfig(root, fenced(root));
    assert.deepEqual(found.shadowed, []);
  });

  test("a package.json that does not parse but mentions dropkit is the match (the core reports the syntax error)", async () => {
    const root = tree({ "package.json": '{"dropkit": {"theme": "ocean",}' });
    const found = await findConfig(root, fenced(root));
    assert.equal(found.file, path.join(root, "package.json"));
    assert.equal(found.format, "package.json");
  });

  test("a package.json that does not parse and never mentions dropkit is skipped", async () => {
    const root = tree({ "package.json": "{ not json" });
    const found = await findConfig(root, fenced(root));
    assert.equal(found.file, null);
  });

  test("a nested dropkit key does not count", async () => {
    const root = tree({ "package.json": '{"config":{"dropkit":{}}}' });
    assert.equal((await findConfig(root, fenced(root))).file, null);
  });

  test("a directory named like a config is not a config", async () => {
    const root = tree({ "dropkit.config.ts/": "", "dropkit.config.json": "{}" });
    const found = await findConfig(root, fenced(root));
    assert.equal(found.file, path.join(root, "dropkit.config.json"));
  });

  test("the nearest directory wins over a parent", async () => {
    const root = tree({ "dropkit.config.ts": "export default {};", "a/b/dropkit.config.json": "{}" });
    const found = await findConfig(path.join(root, "a/b"), fenced(root));
    assert.equal(found.file, path.join(root, "a/b/dropkit.config.json"));
    assert.deepEqual(found.shadowed, []);
  });
});

describe("findConfig: where the walk stops", () => {
  test("walks up through every directory until it finds one", async () => {
    const root = tree({ "dropkit.config.json": "{}", "a/b/c/": "" });
    const found = await findConfig(path.join(root, "a/b/c"), fenced(root));
    assert.equal(found.file, path.join(root, "dropkit.config.json"));
    assert.deepEqual(
      found.searched.map((s) => s.dir),
      ["a/b/c", "a/b", "a", ""].map((d) => path.join(root, d)),
    );
  });

  test("a relative cwd is resolved", async () => {
    const root = tree({ "dropkit.config.json": "{}", "a/": "" });
    const found = await findConfig(path.relative(process.cwd(), path.join(root, "a")), fenced(root));
    assert.equal(found.file, path.join(root, "dropkit.config.json"));
  });

  test("the directory holding a .git folder is searched, then the walk stops", async () => {
    const root = tree({ "dropkit.config.json": "{}", "repo/.git/": "", "repo/src/": "" });
    const found = await findConfig(path.join(root, "repo/src"), fenced(root));
    assert.equal(found.file, null);
    assert.equal(found.via, "none");
    assert.deepEqual(found.stop, { dir: path.join(root, "repo"), reason: "repository-root" });
    assert.deepEqual(
      found.searched.map((s) => s.dir),
      [path.join(root, "repo/src"), path.join(root, "repo")],
    );
  });

  test("a .git file (worktree, submodule) stops the walk too", async () => {
    const root = tree({ "dropkit.config.json": "{}", "repo/.git": "gitdir: ../x", "repo/src/": "" });
    const found = await findConfig(path.join(root, "repo/src"), fenced(root));
    assert.equal(found.file, null);
    assert.deepEqual(found.stop, { dir: path.join(root, "repo"), reason: "repository-root" });
  });

  test("a config in the repository root is found", async () => {
    const root = tree({ "repo/.git/": "", "repo/dropkit.config.json": "{}", "repo/src/": "" });
    const found = await findConfig(path.join(root, "repo/src"), fenced(root));
    assert.equal(found.file, path.join(root, "repo/dropkit.config.json"));
    assert.equal(found.stop.reason, "found");
  });

  test("GIT_CEILING_DIRECTORIES: the ceiling itself is not searched", async () => {
    const root = tree({ "dropkit.config.json": "{}", "a/b/": "" });
    const env = { GIT_CEILING_DIRECTORIES: ["/nonexistent-ceiling", "relative/ignored", root].join(path.delimiter) };
    const found = await findConfig(path.join(root, "a/b"), env);
    assert.equal(found.file, null);
    assert.deepEqual(found.stop, { dir: root, reason: "ceiling" });
    assert.deepEqual(
      found.searched.map((s) => s.dir),
      [path.join(root, "a/b"), path.join(root, "a")],
    );
  });

  test("GIT_CEILING_DIRECTORIES: a working directory that is itself a ceiling is still searched", async () => {
    const root = tree({ "a/dropkit.config.json": "{}" });
    const found = await findConfig(path.join(root, "a"), { GIT_CEILING_DIRECTORIES: path.join(root, "a") + path.sep });
    assert.equal(found.file, path.join(root, "a/dropkit.config.json"));
  });

  test("GIT_CEILING_DIRECTORIES given through a symlink still applies", async () => {
    const root = tree({ "real/dropkit.config.json": "{}", "real/a/": "" });
    fs.symlinkSync(path.join(root, "real"), path.join(root, "link"));
    const found = await findConfig(path.join(root, "real/a"), { GIT_CEILING_DIRECTORIES: path.join(root, "link") });
    assert.equal(found.file, null);
    assert.equal(found.stop.reason, "ceiling");
  });

  test("with no config, no .git and no ceiling, the walk ends at the filesystem root", async (t) => {
    const root = tree({ "a/": "" });
    const above = [];
    for (let d = path.dirname(root); ; d = path.dirname(d)) {
      above.push(d);
      if (path.dirname(d) === d) break;
    }
    const busy = above.some((d) =>
      ["dropkit.config.ts", "dropkit.config.js", "dropkit.config.json", "package.json", ".git"].some((n) => fs.existsSync(path.join(d, n))),
    );
    if (busy) return t.skip("a directory above the temp dir holds a config or .git");
    const found = await findConfig(path.join(root, "a"), {});
    assert.equal(found.file, null);
    assert.equal(found.via, "none");
    assert.equal(found.stop.reason, "filesystem-root");
    assert.equal(found.stop.dir, path.parse(root).root);
    assert.equal(found.searched.at(-1)!.dir, path.parse(root).root);
    assert.equal(found.searched.length, above.length + 2);
  });
});

describe("locateConfig: --config and DROPKIT_CONFIG", () => {
  test("without either, it discovers", async () => {
    const root = tree({ "dropkit.config.json": "{}" });
    const found = await locateConfig(root, fenced(root));
    assert.equal(found.via, "discovery");
    assert.equal(found.file, path.join(root, "dropkit.config.json"));
  });

  test("no config at all is normal", async () => {
    const root = tree();
    const found = await locateConfig(root, fenced(root));
    assert.equal(found.file, null);
    assert.equal(found.format, null);
    assert.equal(found.via, "none");
  });

  test("--config wins over DROPKIT_CONFIG and over discovery", async () => {
    const root = tree({ "dropkit.config.ts": "export default {};", "ci/flag.json": "{}", "ci/env.json": "{}" });
    const found = await locateConfig(root, fenced(root, { DROPKIT_CONFIG: "ci/env.json" }), "ci/flag.json");
    assert.equal(found.file, path.join(root, "ci/flag.json"));
    assert.equal(found.via, "flag");
    assert.deepEqual(found.searched, []);
  });

  test("DROPKIT_CONFIG wins over discovery", async () => {
    const root = tree({ "dropkit.config.ts": "export default {};", "ci/env.json": "{}" });
    const found = await locateConfig(root, fenced(root, { DROPKIT_CONFIG: "ci/env.json" }));
    assert.equal(found.file, path.join(root, "ci/env.json"));
    assert.equal(found.via, "env");
    assert.equal(found.format, "json");
  });

  test("an empty DROPKIT_CONFIG counts as unset", async () => {
    const root = tree({ "dropkit.config.json": "{}" });
    const found = await locateConfig(root, fenced(root, { DROPKIT_CONFIG: "" }));
    assert.equal(found.via, "discovery");
  });

  test("an absolute explicit path is used as is", async () => {
    const root = tree({ "x/my.config.mjs": "export default {};" });
    const found = await locateConfig(tree(), {}, path.join(root, "x/my.config.mjs"));
    assert.equal(found.file, path.join(root, "x/my.config.mjs"));
    assert.equal(found.format, "js");
  });

  test("a missing --config path exits 66 naming the path and the flag", async () => {
    const root = tree({ "dropkit.config.json": "{}" });
    const error = await rejectsWith(locateConfig(root, fenced(root), "nope.json"), "ConfigNotFound", 66, /nope\.json.*--config=nope\.json/);
    assert.ok(error.message.includes(path.join(root, "nope.json")));
    assert.equal(error.diagnostics[0]!.source, "--config");
  });

  test("a missing DROPKIT_CONFIG path exits 66 naming the variable", async () => {
    const root = tree({ "dropkit.config.json": "{}" });
    const error = await rejectsWith(
      locateConfig(root, fenced(root, { DROPKIT_CONFIG: "gone.ts" })),
      "ConfigNotFound",
      66,
      /DROPKIT_CONFIG=gone\.ts/,
    );
    assert.equal(error.diagnostics[0]!.source, "DROPKIT_CONFIG");
  });

  test("a directory given as --config exits 66 with a clear message", async () => {
    const root = tree({ "conf/dropkit.config.json": "{}" });
    await rejectsWith(locateConfig(root, fenced(root), "conf"), "ConfigNotFound", 66, /not a file.*conf.*dropkit\.config\.json/);
  });

  test("an empty --config value is a usage error", async () => {
    const root = tree();
    await rejectsWith(locateConfig(root, fenced(root), ""), "UsageError", 64, /--config needs a path/);
  });
});

describe("detectFormat", () => {
  test("maps names to forms", () => {
    const cases: Record<string, string> = {
      "/a/package.json": "package.json",
      "/a/x.ts": "ts",
      "/a/x.mts": "ts",
      "/a/x.cts": "ts",
      "/a/X.TS": "ts",
      "/a/x.js": "js",
      "/a/x.mjs": "js",
      "/a/x.cjs": "js",
      "/a/x.json": "json",
      "/a/x.jsonc": "json",
      "/a/config": "json",
      "/a/my-package.json": "json",
    };
    for (const [file, format] of Object.entries(cases)) assert.equal(detectFormat(file), format, file);
  });
});
