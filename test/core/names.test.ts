// Tests for the core's one rule for names (issue 35): theme names, module names and module globs compare without regard
// to ASCII letter case; a name several archives of one kind share is reported; a theme name prefers the theme archive;
// every module glob the user wrote is answered; the near names of variables suggest the real ones.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import type { CoreWarning, ResolveDone, ResolveRequest } from "../../src/core/protocol.js";
import { planWarnings } from "../../src/core/decisions.js";
import { openAbi } from "../../scripts/lib/abi.js";
import { positionOf, resolveDone } from "../helpers/core.js";

const cwd = "/drop";
const CONFIG = "/drop/dropkit.config.json";

/** A warning's fields besides its message: what the tests compare (the words may change; the fields are the contract). */
type Fields = Omit<CoreWarning, "message">;

/** Resolves a drop with no presets (unless the request sets some), a config and flags. */
function plan(archives: string[], config: Record<string, unknown> = {}, extra: Partial<ResolveRequest> = {}): ResolveDone {
  return resolveDone({
    cwd,
    env: { DROPKIT_PRESETS: "" },
    config: { source: CONFIG, format: "json", text: JSON.stringify(config) },
    archives,
    ...extra,
  });
}

/** The warnings of a code, without their messages. */
function coded(r: ResolveDone, code: string): Fields[] {
  return r.warnings.filter((w) => (w as Fields).code === code).map(({ message: _, ...fields }) => fields);
}

/** The config source of the first `needle` in the config's text. */
function at(config: Record<string, unknown>, needle: string): string {
  const { line, column } = positionOf(JSON.stringify(config), needle);
  return `${CONFIG}:${line}:${column}`;
}

describe("module names and globs compare without regard to ASCII letter case", () => {
  test("--exclude=blog leaves Blog.ZIP out; the standard preset's test-* leaves Test-Shop.zip out; the plan keeps each file's spelling", () => {
    const r = plan(
      ["Blog.ZIP", "Test-Shop.zip", "shop.zip", "ocean-theme.zip"],
      {},
      { env: {}, flags: { exclude: ["blog"] }, files: ["x.zip"] },
    );
    assert.equal(r.ok, true);
    assert.deepEqual(r.plan!.modules, ["shop"]);
    assert.deepEqual(r.plan!.excluded, ["Blog", "Test-Shop"]);
    const blog = r.plan!.decisions.find((d) => d.file === "Blog.ZIP")!;
    assert.deepEqual([blog.name, blog.glob, blog.source], ["Blog", "blog", "--exclude"]);
    const test = r.plan!.decisions.find((d) => d.file === "Test-Shop.zip")!;
    assert.deepEqual([test.glob, test.layer, test.source], ["test-*", "preset", "standard"]);
    assert.deepEqual(r.warnings, []);
  });

  test("only, exclude and include fold too, in short lists and in long ones (past 16 entries, through the index)", () => {
    const filler = (n: number) => Array.from({ length: n }, (_, i) => `zz-${i}`);
    for (const pad of [0, 20]) {
      const config = {
        modules: {
          only: [...filler(pad), "SHOP-*", "Blog"],
          exclude: [...filler(pad), "Shop-PAY"],
          include: [...filler(pad), "DEV-tools"],
        },
      };
      const r = plan(["blog.zip", "shop-cart.zip", "shop-pay.zip", "dev-tools.zip", "other.zip"], config);
      assert.deepEqual(r.plan!.modules, ["blog", "dev-tools", "shop-cart"], `padding ${pad}`);
      assert.deepEqual(r.plan!.decisions.find((d) => d.name === "shop-pay")!.glob, "Shop-PAY");
      assert.deepEqual(r.plan!.decisions.find((d) => d.name === "shop-cart")!.glob, "SHOP-*");
    }
  });

  test("only ASCII letters fold: other characters compare as they are", () => {
    const r = plan(["éco.zip", "straße.zip"], { modules: { exclude: ["Éco", "STRASSE"] } });
    assert.deepEqual(r.plan!.modules, ["straße", "éco"]);
  });

  test("property: selection is the same as on names and globs folded to lower case", () => {
    const letters = fc.constantFrom(..."abAB-".split(""));
    const name = fc.string({ unit: letters, minLength: 1, maxLength: 4 });
    const glob = fc.tuple(name, fc.boolean()).map(([n, star]) => (star ? `${n}*` : n));
    const lower = (s: string) => s.toLowerCase();
    const matches = (g: string, n: string) => (g.endsWith("*") ? lower(n).startsWith(lower(g.slice(0, -1))) : lower(g) === lower(n));
    fc.assert(
      fc.property(
        fc.uniqueArray(name, { maxLength: 8, selector: lower }),
        fc.array(glob, { maxLength: 5 }),
        fc.array(glob, { maxLength: 3 }),
        fc.boolean(),
        (names, exclude, flags, long) => {
          // Past 16 entries a list is matched through its indexes (exact names, and stems by each name's prefixes).
          const filler = long ? Array.from({ length: 20 }, (_, i) => `zz${i}`) : [];
          const r = plan(
            names.map((n) => `${n}.zip`),
            { modules: { exclude: [...filler, ...exclude] } },
            { flags: { exclude: flags } },
          );
          // In the order of the archives' file names, as the plan lists them.
          const expected = names
            .filter((n) => !exclude.some((g) => matches(g, n)) && !flags.some((g) => matches(g, n)))
            .sort((a, b) => (`${a}.zip` < `${b}.zip` ? -1 : 1));
          assert.deepEqual(r.plan!.modules, expected);
          // The entry reported is the first in the list's order that matches.
          for (const d of r.plan!.decisions.filter((d) => d.source !== undefined && d.source !== "--exclude")) {
            assert.equal(
              d.glob,
              [...filler, ...exclude].find((g) => matches(g, d.name)),
            );
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("a name several archives of one kind share is reported", () => {
  test("blog.zip and Blog.zip: the first by name is the module, the other is left out, and a warning names both", () => {
    for (const archives of [
      ["blog.zip", "Blog.zip", "shop.zip"],
      ["shop.zip", "Blog.zip", "blog.zip"],
    ]) {
      const r = plan(archives);
      assert.equal(r.ok, true);
      assert.deepEqual(r.plan!.modules, ["Blog", "shop"]);
      assert.deepEqual(r.plan!.excluded, ["blog"]);
      const twin = r.plan!.decisions.find((d) => d.file === "blog.zip")!;
      assert.deepEqual([twin.selected, "glob" in twin], [false, false]);
      assert.match(twin.reason, /^excluded: .*Blog\.zip/);
      assert.deepEqual(coded(r, "NameClash"), [
        { source: "Blog.zip", code: "NameClash", files: ["Blog.zip", "blog.zip"], used: "Blog.zip" },
      ]);
    }
  });

  test("three archives of one name are one warning; selection of the module follows its globs", () => {
    const r = plan(["BLOG.zip", "blog.zip", "Blog.zip"], {}, { flags: { exclude: ["blog"] } });
    assert.deepEqual(r.plan!.modules, []);
    assert.deepEqual(r.plan!.excluded, ["BLOG", "Blog", "blog"]);
    assert.equal(r.plan!.decisions[0]!.source, "--exclude");
    assert.deepEqual(coded(r, "NameClash"), [
      { source: "BLOG.zip", code: "NameClash", files: ["BLOG.zip", "Blog.zip", "blog.zip"], used: "BLOG.zip" },
    ]);
  });

  test("two theme archives of one name: a theme name takes its own spelling, else the first by name; auto the first", () => {
    const archives = ["Ocean-theme.zip", "ocean-theme.zip", "blog.zip"];
    const cases: Array<[string, string]> = [
      ["ocean", "ocean-theme.zip"],
      ["Ocean", "Ocean-theme.zip"],
      ["OCEAN", "Ocean-theme.zip"],
      ["auto", "Ocean-theme.zip"],
    ];
    for (const [theme, used] of cases) {
      const r = plan(archives, {}, { flags: { theme } });
      assert.equal(r.plan!.theme.file, used, theme);
      assert.deepEqual(
        r.plan!.theme.alternatives,
        archives.slice(0, 2).filter((f) => f !== used),
      );
      assert.deepEqual(coded(r, "NameClash"), [{ source: used, code: "NameClash", files: archives.slice(0, 2), used }], theme);
      assert.deepEqual(r.plan!.modules, ["blog"]);
    }
  });

  test("a theme name two module archives share (no theme archive): its own spelling is the theme, reported", () => {
    const r = plan(["OCEAN.zip", "ocean.zip"], {}, { flags: { theme: "ocean" } });
    assert.equal(r.plan!.theme.file, "ocean.zip");
    assert.deepEqual(coded(r, "NameClash"), [
      { source: "ocean.zip", code: "NameClash", files: ["OCEAN.zip", "ocean.zip"], used: "ocean.zip" },
    ]);
  });

  test("archives whose names differ in more than letter case are no clash", () => {
    assert.deepEqual(plan(["blog.zip", "blog2.zip", "ocean-theme.zip", "oceans-theme.zip"]).warnings, []);
  });

  test("many clashing names: the first 100 are listed, the rest counted in one warning", () => {
    const archives = Array.from({ length: 150 }, (_, i) => [`m${i}.zip`, `M${i}.zip`]).flat();
    const r = plan(archives);
    const clashes = coded(r, "NameClash");
    assert.equal(clashes.length, 101);
    assert.deepEqual(clashes[100], { source: "modules", code: "NameClash" });
    assert.equal(r.plan!.modules.length, 150);
  });
});

describe("a theme name prefers the theme archive", () => {
  test("--theme=ocean with ocean.zip and ocean-theme.zip: the theme is ocean-theme.zip, ocean stays a module, named as the alternative", () => {
    for (const module of ["ocean.zip", "OCEAN.zip"]) {
      const r = plan([module, "ocean-theme.zip", "blog.zip"], {}, { flags: { theme: "ocean" } });
      assert.equal(r.ok, true);
      assert.deepEqual(r.plan!.theme.file, "ocean-theme.zip");
      assert.deepEqual(r.plan!.theme.name, "ocean");
      assert.deepEqual(r.plan!.theme.alternatives, [module]);
      assert.ok(r.plan!.theme.reason.includes(module), r.plan!.theme.reason);
      assert.deepEqual(r.plan!.modules, ["blog", module.slice(0, -4)].sort());
      assert.deepEqual(r.warnings, []);
    }
  });

  test("a name that is itself <x>-theme (the archive's file name without .zip) still picks that archive", () => {
    const r = plan(["ocean-theme.zip"], {}, { flags: { theme: "ocean-theme" } });
    assert.equal(r.plan!.theme.file, "ocean-theme.zip");
  });
});

describe("every module glob the user wrote is answered", () => {
  test('modules.only: ["blgo"]: a warning naming the glob, its list and file:line:column, with the did-you-mean; only selecting nothing too', () => {
    const config = { modules: { only: ["blgo"] } };
    const r = plan(["blog.zip", "shop.zip"], config);
    assert.equal(r.ok, true);
    assert.deepEqual(r.plan!.modules, []);
    const source = at(config, '"blgo"');
    assert.deepEqual(coded(r, "GlobUnmatched"), [{ source, code: "GlobUnmatched", key: "modules.only", glob: "blgo", suggestion: "blog" }]);
    const message = r.warnings.find((w) => (w as Fields).code === "GlobUnmatched")!.message;
    assert.ok(message.includes(source) && message.includes('Did you mean "blog"?'), message);
    const none = coded(r, "OnlySelectsNone");
    assert.equal(none.length, 1);
    assert.equal(none[0]!.key, "modules.only");
    assert.match(none[0]!.source, /^\/drop\/dropkit\.config\.json:\d+:\d+$/);
  });

  test("--exclude=shpo: the flag is the source; a glob ending in * suggests a glob (shpo-* finds shop-*)", () => {
    const r = plan(["shop.zip", "shop-cart.zip", "blog.zip"], {}, { flags: { exclude: ["shpo", "shpo-*"] } });
    assert.deepEqual(r.plan!.modules, ["blog", "shop-cart", "shop"]);
    assert.deepEqual(coded(r, "GlobUnmatched"), [
      { source: "--exclude", code: "GlobUnmatched", key: "modules.exclude", glob: "shpo", suggestion: "shop" },
      { source: "--exclude", code: "GlobUnmatched", key: "modules.exclude", glob: "shpo-*", suggestion: "shop-*" },
    ]);
  });

  test("every list and layer: include, exclude and the exclude shorthand, variables, a preset file; lowest layer first", () => {
    const config = { exclude: ["nope-a"], modules: { include: ["nope-b"] } };
    const r = plan(["blog.zip"], config, {
      env: { DROPKIT_PRESETS: "./mine.json", DROPKIT_MODULES_ONLY: "blog,nope-c" },
      presetFiles: [
        { ref: "/drop/mine.json", name: "mine", source: "/drop/mine.json", format: "json", text: '{"modules":{"exclude":["nope-d"]}}' },
      ],
    });
    assert.deepEqual(
      coded(r, "GlobUnmatched").map((w) => [w.glob, w.key, w.source, "suggestion" in w]),
      [
        ["nope-d", "modules.exclude", "/drop/mine.json:1:24", false],
        ["nope-b", "modules.include", at(config, '"nope-b"'), false],
        ["nope-a", "modules.exclude", at(config, '"nope-a"'), false],
        ["nope-c", "modules.only", "DROPKIT_MODULES_ONLY", false],
      ],
    );
    // only matched blog: it selects a module, so no OnlySelectsNone.
    assert.deepEqual(coded(r, "OnlySelectsNone"), []);
  });

  test("a bundled preset's own globs stay quiet; the same glob written by the user is answered, with the user's source", () => {
    const quiet = plan(["blog.zip"], {}, { env: {}, files: ["blog.zip"] });
    assert.deepEqual(
      quiet.presets!.applied.map((p) => p.name),
      ["standard"],
    );
    assert.deepEqual(quiet.warnings, []);
    const config = { presets: ["standard"], exclude: ["test-*"] };
    const r = plan(["blog.zip"], config, { env: {} });
    assert.deepEqual(coded(r, "GlobUnmatched"), [
      { source: at(config, '"test-*"'), code: "GlobUnmatched", key: "modules.exclude", glob: "test-*" },
    ]);
  });

  test("a glob that matches in another letter case, or matches only the archive a theme name picked, is answered by that match", () => {
    const r = plan(["Blog.zip", "ocean.zip"], { theme: "ocean", modules: { exclude: ["BLOG", "oce*"] } });
    assert.deepEqual(r.warnings, []);
  });

  test("a drop without module archives: the user's globs match nothing; only is not reported as selecting none", () => {
    const r = plan(["ocean-theme.zip"], { modules: { only: ["blog"] } });
    assert.deepEqual(
      r.warnings.map((w) => (w as Fields).code),
      ["GlobUnmatched"],
    );
  });

  test("past 100 unmatched globs, one warning counts the rest; only the first 20 get a did-you-mean", () => {
    const exclude = Array.from({ length: 250 }, () => "blgo").map((g, i) => `${g}${"x".repeat(i % 1)}${i}`);
    // Each is "blgo<i>": one or two edits from "blog<i>".
    const archives = Array.from({ length: 250 }, (_, i) => `blog${i}.zip`);
    const r = plan(archives, { modules: { exclude } });
    const warnings = coded(r, "GlobUnmatched");
    assert.equal(warnings.length, 101);
    assert.deepEqual(warnings[100], { source: "modules", code: "GlobUnmatched" });
    assert.equal(warnings.filter((w) => w.suggestion !== undefined).length, 20);
    assert.equal(warnings[0]!.suggestion, "blog0");
    assert.equal(r.plan!.modules.length, 250);
  });

  test("the suggestion is the first of equally close names by file name, as the archive spells it", () => {
    const r = plan(["Shop-B.zip", "shop-a.zip"], {}, { flags: { exclude: ["shop-c"] } });
    assert.equal(coded(r, "GlobUnmatched")[0]!.suggestion, "Shop-B");
  });

  test("planWarnings picks out what the plan added, for a host that logged the answer without archives first", () => {
    const r = plan(["Blog.zip", "blog.zip"], { modules: { only: ["blgo"] } }, { env: { DROPKIT_PRESETS: "", DROPKIT_EXCLUDE: "x" } });
    assert.deepEqual(
      r.warnings.map((w) => (w as Fields).code),
      ["UnknownVariable", "NameClash", "GlobUnmatched", "OnlySelectsNone"],
    );
    assert.deepEqual(
      planWarnings(r).map((w) => w.code),
      ["NameClash", "GlobUnmatched", "OnlySelectsNone"],
    );
  });

  test("no plan, no glob warnings: `config` (no archives) says nothing about globs", () => {
    const r = resolveDone({ cwd, env: { DROPKIT_PRESETS: "" }, flags: { exclude: ["nope"] } });
    assert.deepEqual(r.warnings, []);
  });
});

describe("cost: matching and answering globs stays linear in archives and globs", () => {
  const abi = openAbi();

  /** The time of one resolve with `n` archives and `n` globs (half matching exactly, half by prefix, a few not at all). */
  function timed(n: number): number {
    const archives = Array.from({ length: n }, (_, i) => `Mod-${i.toString(36)}.zip`);
    const globs = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? `mod-${i.toString(36)}` : `MOD-${i.toString(36)}*`));
    globs.push("nope-1", "nope-2", "nope-3");
    const request = JSON.stringify({ op: "resolve", cwd, env: { DROPKIT_PRESETS: "" }, flags: { exclude: globs }, archives });
    let best = Infinity;
    for (let round = 0; round < 3; round++) {
      const started = performance.now();
      const { status, text } = abi.call(request);
      best = Math.min(best, performance.now() - started);
      assert.equal(status, 0);
      const answer = JSON.parse(text) as ResolveDone;
      assert.equal(answer.plan!.modules.length, 0);
      assert.equal(answer.warnings.length, 3);
    }
    return best;
  }

  test("10, 1,000 and 100,000 archives with as many globs: time from 1,000 to 100,000 grows at most ~linearly", () => {
    timed(10);
    const small = timed(1_000);
    const large = timed(100_000);
    // ×100 the input: n log n (about ×170) and a busy machine's noise allowed for (the tiers run two files at a time);
    // a quadratic cost (×10,000) is not.
    assert.ok(large / small < 100 * 10, `1,000: ${small.toFixed(1)} ms, 100,000: ${large.toFixed(1)} ms`);
  });

  test("unmatched globs against 100,000 archives: the did-you-mean is bounded (20 globs), and memory too", () => {
    const archives = Array.from({ length: 100_000 }, (_, i) => `module-${i.toString(36).padStart(4, "0")}.zip`);
    const exclude = Array.from({ length: 5_000 }, (_, i) => `modlue-${i.toString(36).padStart(4, "0")}`);
    const started = performance.now();
    const { status, text } = abi.call(JSON.stringify({ op: "resolve", cwd, env: { DROPKIT_PRESETS: "" }, flags: { exclude }, archives }));
    const ms = performance.now() - started;
    assert.equal(status, 0);
    const warnings = (JSON.parse(text) as ResolveDone).warnings as Fields[];
    assert.equal(warnings.length, 101);
    assert.equal(warnings[0]!.suggestion, "module-0000");
    assert.ok(ms < 20_000, `${ms.toFixed(0)} ms`);
    assert.ok(abi.memoryBytes() <= 512 * 1024 * 1024, `memory ${abi.memoryBytes()}`);
  });
});

describe("near names of variables suggest the real one", () => {
  test("DROPKIT_EXCLUDE, DROPKIT_INCLUDE, DROPKIT_ONLY and DROPKIT_PRESET", () => {
    const cases: Array<[string, string]> = [
      ["DROPKIT_EXCLUDE", "DROPKIT_MODULES_EXCLUDE"],
      ["DROPKIT_INCLUDE", "DROPKIT_MODULES_INCLUDE"],
      ["DROPKIT_ONLY", "DROPKIT_MODULES_ONLY"],
      ["DROPKIT_PRESET", "DROPKIT_PRESETS"],
    ];
    for (const [name, suggestion] of cases) {
      const r = resolveDone({ cwd, env: { [name]: "x" }, files: [] });
      assert.deepEqual(coded(r, "UnknownVariable"), [{ source: name, code: "UnknownVariable", suggestion }]);
    }
  });

  test("a name that stops short of several variables lists them, with no single suggestion field", () => {
    const r = resolveDone({ cwd, env: { DROPKIT_CACHE: "x", DROPKIT_ZZZZZZZZ: "y" }, files: [] });
    assert.deepEqual(coded(r, "UnknownVariable"), [
      { source: "DROPKIT_CACHE", code: "UnknownVariable" },
      { source: "DROPKIT_ZZZZZZZZ", code: "UnknownVariable" },
    ]);
    assert.match(r.warnings[0]!.message, /Did you mean one of DROPKIT_CACHE_FILE, DROPKIT_CACHE_ENABLED\?/);
  });
});
