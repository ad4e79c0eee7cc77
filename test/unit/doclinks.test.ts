// Links between the project's Markdown files: every relative link names a file that exists, and every #anchor a heading of it.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens; a repeated one gets -1, -2. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** Every anchor of a Markdown text (headings outside code fences, and explicit `<a id>`/`<a name>`). */
function anchors(text: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of text.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1"));
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      found.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) found.add(m[1]!);
  }
  return found;
}

/** The relative links of a Markdown text, outside code fences and inline code: `[text](target)`. */
function links(text: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of text.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    for (const m of line.replace(/`[^`]*`/g, "").matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) out.push(target);
    }
  }
  return out;
}

function markdownFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "*.md"], { cwd: root, encoding: "utf8" });
  return listed.split("\n").filter((f) => f !== "" && !f.startsWith("test/conformance/") && fs.existsSync(path.join(root, f)));
}

describe("Markdown links", () => {
  test("the slug rule gives GitHub's anchors", () => {
    assert.equal(slug("When a run ends (`test/system/lifecycle.test.ts`)"), "when-a-run-ends-testsystemlifecycletestts");
    assert.deepEqual([...anchors("# A\n## A\n```\n# not\n```\n")], ["a", "a-1"]);
  });

  test("every relative link and anchor between the project's Markdown files resolves", () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      const text = fs.readFileSync(path.join(root, file), "utf8");
      for (const target of links(text)) {
        const [where, anchor] = target.split("#", 2) as [string, string | undefined];
        const resolved = where === "" ? path.join(root, file) : path.resolve(path.dirname(path.join(root, file)), decodeURI(where));
        if (!fs.existsSync(resolved)) {
          broken.push(`${file}: ${target} (no such file)`);
          continue;
        }
        if (anchor === undefined || !resolved.endsWith(".md")) continue;
        if (!anchors(fs.readFileSync(resolved, "utf8")).has(anchor)) broken.push(`${file}: ${target} (no such heading)`);
      }
    }
    assert.deepEqual(broken, []);
  });
});
