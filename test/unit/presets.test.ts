// Tests for src/config/presetfiles.ts: the search path, which preset file wins, and every preset file's problems at once.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import type { CoreWarning } from "../../src/core/protocol.js";
import type { DropkitError } from "../../src/errors.js";
import { loadPresets } from "../../src/config/presetfiles.js";
import { tempDir } from "../helpers/temp.js";

test("auto: every preset file of the search path, .ts before .js before .json in a directory, the first directory first", async () => {
  const first = tempDir();
  const second = tempDir();
  fs.writeFileSync(path.join(first, "web.json"), '{"theme": "one"}');
  fs.writeFileSync(path.join(first, "web.js"), 'export default { theme: "two" };');
  fs.writeFileSync(path.join(second, "web.json"), '{"theme": "three"}');
  fs.writeFileSync(path.join(second, "docs.json"), "{}");
  fs.writeFileSync(path.join(second, "types.d.ts"), "");
  const warnings: CoreWarning[] = [];
  const loaded = await loadPresets({ mode: "auto", presets: [], searchPath: [first, second, path.join(first, "missing")] }, warnings, {
    used: 0,
  });
  assert.deepEqual(loaded.presetNames, ["web", "docs"]);
  assert.deepEqual(
    loaded.presetFiles!.map((p) => [p.name, p.source]),
    [
      ["web", path.join(first, "web.js")],
      ["docs", path.join(second, "docs.json")],
    ],
  );
  assert.deepEqual(
    warnings.map((w) => w.message.replaceAll(first, "<first>").replaceAll(second, "<second>")),
    [
      "The preset file <first>/web.json is ignored: <first>/web.js has the same name and comes first in the search path.",
      "The preset file <second>/web.json is ignored: <first>/web.js has the same name and comes first in the search path.",
      "The presets search path directory <first>/missing does not exist; no presets are looked up there.",
    ],
  );
});

test("list: names looked up in the search path, paths taken as they are; one not found is left to the core", async () => {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, "web.json"), "{}");
  fs.writeFileSync(path.join(dir, "local.json"), "{}");
  const loaded = await loadPresets(
    {
      mode: "list",
      presets: [
        { ref: "web", kind: "name" },
        { ref: "standard", kind: "name" },
        { ref: path.join(dir, "local.json"), kind: "path" },
      ],
      searchPath: [dir],
    },
    [],
    { used: 0 },
  );
  assert.deepEqual(
    loaded.presetFiles!.map((p) => [p.name, p.ref]),
    [
      ["web", "web"],
      ["local", path.join(dir, "local.json")],
    ],
  );
});

test("every preset file's problems at once, not only the first file's", async () => {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, "a.ts"), "export default { theme: () => 1 };");
  fs.writeFileSync(path.join(dir, "b.ts"), "export default { theme: undefined };");
  await assert.rejects(
    loadPresets({ mode: "auto", presets: [], searchPath: [dir] }, [], { used: 0 }),
    (e: DropkitError) => e.diagnostics.length === 2 && e.diagnostics.every((d) => d.name === "SchemaValidationError"),
  );
});
