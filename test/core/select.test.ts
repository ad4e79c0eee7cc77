// Tests for the core's theme choice and module selection (assembly/resolve/select.ts) through resolve with archives.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ResolveDone, ResolveRequest } from "../../src/core/protocol.js";
import { only, positionOf, resolveDone, resolveOk } from "../helpers/core.js";

const cwd = "/drop";

/** Resolves a drop with no presets (unless the config names some), a config and flags. */
function plan(archives: string[], config: Record<string, unknown> = {}, extra: Partial<ResolveRequest> = {}): ResolveDone {
  return resolveDone({
    cwd,
    env: { DROPKIT_PRESETS: "" },
    config: { source: "/drop/dropkit.config.json", format: "json", text: JSON.stringify(config) },
    archives,
    ...extra,
  });
}

const DROP = ["blog.zip", "shop-cart.zip", "shop-pay.zip", "test-a.zip", "dev-tools.zip", "ocean-theme.zip"];

describe("modules", () => {
  test("all modules by default, in code-unit order; themes are not modules", () => {
    // Names that differ only in letter case are one module (test/core/names.test.ts): these differ in more.
    const r = plan(["b.zip", "C.zip", "a.zip", "ocean-theme.zip", "_x.zip"]);
    assert.equal(r.ok, true);
    assert.deepEqual(r.plan!.modules, ["C", "_x", "a", "b"]);
    assert.deepEqual(r.plan!.excluded, []);
    assert.deepEqual(r.plan!.decisions[0], { name: "C", file: "C.zip", selected: true, reason: "included: every module is, by default" });
  });

  test("only: just the modules it matches", () => {
    const r = plan(DROP, { modules: { only: ["shop-*", "blog"] } });
    assert.deepEqual(r.plan!.modules, ["blog", "shop-cart", "shop-pay"]);
    assert.deepEqual(r.plan!.excluded, ["dev-tools", "test-a"]);
    const dev = r.plan!.decisions.find((d) => d.name === "dev-tools")!;
    assert.deepEqual(dev, { name: "dev-tools", file: "dev-tools.zip", selected: false, reason: "excluded: not matched by modules.only" });
    const pay = r.plan!.decisions.find((d) => d.name === "shop-pay")!;
    const at = positionOf(JSON.stringify({ modules: { only: ["shop-*", "blog"] } }), '"shop-*"');
    assert.deepEqual([pay.glob, pay.layer, pay.source], ["shop-*", "config", `/drop/dropkit.config.json:1:${at.column}`]);
  });

  test("the entry reported is the first in the list that matches, exact or ending in '*', in short and long lists", () => {
    // Past 16 entries a list is matched through its hash index for exact names and the '*' globs apart: the
    // entry reported must still be the first in the list's order.
    const filler = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}-${i}`);
    const cases: Array<[string[], string]> = [
      [["shop-*", "shop-pay"], "shop-*"],
      [["shop-pay", "shop-*"], "shop-pay"],
      [[...filler(20, "x"), "shop-pay", ...filler(5, "y"), "shop-*"], "shop-pay"],
      [[...filler(3, "x"), "shop-*", ...filler(20, "y"), "shop-pay"], "shop-*"],
      [[...filler(20, "x"), "*", "shop-pay"], "*"],
      [[...filler(40, "x"), "shop-p*", "shop-*", "shop-pay"], "shop-p*"],
    ];
    for (const [exclude, glob] of cases) {
      const r = plan(DROP, { modules: { exclude } });
      const pay = r.plan!.decisions.find((d) => d.name === "shop-pay")!;
      assert.equal(pay.glob, glob, JSON.stringify(exclude));
      assert.equal(pay.selected, false);
      // The names that no entry matches stay selected, through the index too.
      assert.equal(r.plan!.decisions.find((d) => d.name === "blog")!.selected, !exclude.includes("*"));
    }
  });

  test("exclude drops matches, after only", () => {
    const config = { modules: { only: ["shop-*", "blog"], exclude: ["shop-pay", "dev-*"] } };
    const r = plan(DROP, config);
    assert.deepEqual(r.plan!.modules, ["blog", "shop-cart"]);
    const pay = r.plan!.decisions.find((d) => d.name === "shop-pay")!;
    const at = positionOf(JSON.stringify(config), '"shop-pay"');
    assert.equal(pay.reason, `excluded: matched by modules.exclude "shop-pay" (config, /drop/dropkit.config.json:1:${at.column})`);
  });

  test("include adds its matches to the selection, whether exclude or only left them out", () => {
    // SPEC section 6: (only-or-all − exclude) ∪ include, then − --exclude.
    const r = plan(DROP, { modules: { only: ["shop-*", "test-a"], exclude: ["shop-*", "test-*"], include: ["shop-pay", "blog"] } });
    assert.deepEqual(r.plan!.modules, ["blog", "shop-pay"]);
    assert.deepEqual(r.plan!.excluded, ["dev-tools", "shop-cart", "test-a"]);
    const pay = r.plan!.decisions.find((d) => d.name === "shop-pay")!;
    assert.match(pay.reason, /^included: added back by modules\.include "shop-pay"/);
    assert.equal(r.plan!.decisions.find((d) => d.name === "dev-tools")!.reason, "excluded: not matched by modules.only");
    assert.match(r.plan!.decisions.find((d) => d.name === "test-a")!.reason, /^excluded: matched by modules\.exclude "test-\*"/);
  });

  test("a --exclude flag wins over everything, include included", () => {
    const r = plan(DROP, { modules: { include: ["blog", "shop-*"] } }, { flags: { exclude: ["blog", "shop-c*"] } });
    assert.deepEqual(r.plan!.modules, ["dev-tools", "shop-pay", "test-a"]);
    const blog = r.plan!.decisions.find((d) => d.name === "blog")!;
    assert.deepEqual(blog, {
      name: "blog",
      file: "blog.zip",
      selected: false,
      reason: 'excluded: matched by --exclude "blog" (cli, --exclude); a --exclude flag wins over everything',
      glob: "blog",
      layer: "cli",
      source: "--exclude",
    });
  });

  test("DROPKIT_MODULES_EXCLUDE is not a flag: include adds back over it", () => {
    const r = plan(DROP, { modules: { include: ["test-a"] } }, { env: { DROPKIT_PRESETS: "", DROPKIT_MODULES_EXCLUDE: "test-*" } });
    assert.ok(r.plan!.modules.includes("test-a"));
  });

  test("the standard preset's excludes apply, with the preset as source", () => {
    const r = plan(DROP, { presets: ["standard"] }, { env: {} });
    assert.deepEqual(r.plan!.excluded, ["dev-tools", "test-a"]);
    const t = r.plan!.decisions.find((d) => d.name === "test-a")!;
    assert.deepEqual([t.glob, t.layer, t.source], ["test-*", "preset", "standard"]);
  });

  test("a trailing * is a prefix; without it a glob is an exact name", () => {
    const r = plan(["shop.zip", "shop-x.zip", "shopping.zip"], { modules: { exclude: ["shop", "shop-*"] } });
    assert.deepEqual(r.plan!.modules, ["shopping"]);
    assert.deepEqual(plan(["a.zip", "b.zip"], { modules: { exclude: ["*"] } }).plan!.modules, []);
  });

  test("non-zip names are ignored", () => {
    assert.deepEqual(plan(["notes.txt", "a.zip", "b.ZIP"]).plan!.modules, ["a", "b"]);
  });
});

describe("theme", () => {
  test("auto with one theme archive picks it", () => {
    const r = plan(DROP);
    assert.deepEqual(r.plan!.theme, {
      file: "ocean-theme.zip",
      path: null,
      name: "ocean",
      reason: "the only theme archive",
      alternatives: [],
    });
  });

  test("auto with several picks the first by name and names the alternatives", () => {
    const r = plan(["zen-theme.zip", "blog.zip", "alpine-theme.zip", "mid-Theme.zip"]);
    assert.deepEqual(r.plan!.theme, {
      file: "alpine-theme.zip",
      path: null,
      name: "alpine",
      reason: "first of 3 theme archives by name; set theme to choose another",
      alternatives: ["mid-Theme.zip", "zen-theme.zip"],
    });
    assert.deepEqual(r.plan!.modules, ["blog"]);
  });

  test("auto with none picks none, without an error", () => {
    const r = plan(["blog.zip"]);
    assert.equal(r.ok, true);
    assert.deepEqual(r.plan!.theme, {
      file: null,
      path: null,
      name: null,
      reason: "no theme archive (*-theme.zip) in the drop",
      alternatives: [],
    });
  });

  test("none picks none even when there are theme archives", () => {
    const r = plan(DROP, { theme: "none" });
    assert.deepEqual(r.plan!.theme, { file: null, path: null, name: null, reason: 'theme is "none"', alternatives: [] });
    assert.ok(!r.plan!.modules.includes("ocean-theme"));
  });

  test("a name picks <name>-theme.zip", () => {
    const r = plan([...DROP, "forest-theme.zip"], { theme: "forest" });
    assert.deepEqual(r.plan!.theme, { file: "forest-theme.zip", path: null, name: "forest", reason: 'theme "forest"', alternatives: [] });
  });

  test("a name picks <name>-theme.zip before <name>.zip, which stays a module and is named as the alternative", () => {
    // SPEC section 6, turn 4: the theme archive first (it used to be <name>.zip, which hid the theme archive).
    const r = plan(["plain.zip", "plain-theme.zip", "blog.zip"], {}, { flags: { theme: "plain" } });
    assert.equal(r.plan!.theme.file, "plain-theme.zip");
    assert.equal(r.plan!.theme.name, "plain");
    assert.deepEqual(r.plan!.theme.alternatives, ["plain.zip"]);
    assert.deepEqual(r.plan!.modules, ["blog", "plain"]);
    // Without the theme archive, <name>.zip is the theme, and then not a module.
    const alone = plan(["plain.zip", "blog.zip"], {}, { flags: { theme: "plain" } });
    assert.deepEqual([alone.plan!.theme.file, alone.plan!.theme.alternatives], ["plain.zip", []]);
    assert.deepEqual(alone.plan!.modules, ["blog"]);
  });

  test("a .zip path in the drop picks that file; outside it, the host checks the path", () => {
    const inside = plan(DROP, { theme: "./ocean-theme.zip" });
    assert.deepEqual(inside.plan!.theme, {
      file: "ocean-theme.zip",
      path: "/drop/ocean-theme.zip",
      name: "ocean",
      reason: "theme path /drop/ocean-theme.zip",
      alternatives: [],
    });
    const outside = plan(DROP, { theme: "../themes/dark.zip" });
    assert.deepEqual(outside.plan!.theme, {
      file: null,
      path: "/themes/dark.zip",
      name: "/themes/dark.zip",
      reason: "theme path /themes/dark.zip",
      alternatives: [],
    });
    assert.equal(outside.ok, true);
  });

  test("a named theme that is not there is ThemeNotFound (exit 66) with a suggestion; the rest of the answer is still there", () => {
    const r = plan(DROP, { theme: "ocaen" });
    assert.equal(r.ok, false);
    const e = only(r.errors);
    assert.deepEqual([e.name, e.exitCode, e.path, e.source], ["ThemeNotFound", 66, "theme", "/drop/dropkit.config.json:1:10"]);
    assert.equal(
      e.message,
      'Theme "ocaen" not found: no ocaen.zip or ocaen-theme.zip in /drop. Did you mean "ocean"? Theme archives in the drop: ocean-theme.zip.',
    );
    assert.deepEqual(r.plan!.modules, ["blog", "dev-tools", "shop-cart", "shop-pay", "test-a"]);
    assert.equal(r.config!.theme, "ocaen");
  });

  test("ThemeNotFound from a flag, in a drop without themes", () => {
    const r = plan(["blog.zip"], {}, { flags: { theme: "ocean" } });
    const e = only(r.errors);
    assert.deepEqual([e.name, e.exitCode, e.source], ["ThemeNotFound", 66, "--theme"]);
    assert.equal(
      e.message,
      'Theme "ocean" not found: no ocean.zip or ocean-theme.zip in /drop. The drop has no theme archive (*-theme.zip).',
    );
  });

  test("a name compares as archives are found, in any letter case; the name kept is the archive's", () => {
    for (const theme of ["OCEAN", "ocean", "Ocean"]) {
      const r = plan(["OCEAN-THEME.ZIP", "blog.zip"], {}, { flags: { theme } });
      assert.equal(r.ok, true, theme);
      assert.deepEqual(r.plan!.theme, { file: "OCEAN-THEME.ZIP", path: null, name: "OCEAN", reason: `theme "${theme}"`, alternatives: [] });
    }
    // Letter case decides only between archives whose names differ in nothing else; <name>-theme.zip comes first.
    assert.equal(plan(["Ocean-theme.zip", "ocean-theme.zip"], {}, { flags: { theme: "ocean" } }).plan!.theme.file, "ocean-theme.zip");
    assert.equal(plan(["Ocean-theme.zip", "ocean-theme.zip"], {}, { flags: { theme: "Ocean" } }).plan!.theme.file, "Ocean-theme.zip");
    assert.equal(plan(["OCEAN.zip", "ocean-theme.zip"], {}, { flags: { theme: "ocean" } }).plan!.theme.file, "ocean-theme.zip");
    assert.equal(plan(["OCEAN.zip", "forest-theme.zip"], {}, { flags: { theme: "ocean" } }).plan!.theme.file, "OCEAN.zip");
    // Only ASCII letters fold: other characters compare as they are.
    assert.equal(plan(["Éco-theme.zip"], {}, { flags: { theme: "éco" } }).errors[0]!.name, "ThemeNotFound");
  });

  test("an archive named just -theme.zip has no theme name: it is a module, auto never picks it, and no plan names an empty theme", () => {
    for (const file of ["-theme.zip", "-THEME.ZIP"]) {
      const r = plan([file, "blog.zip"]);
      assert.equal(r.ok, true);
      assert.deepEqual(r.plan!.theme, {
        file: null,
        path: null,
        name: null,
        reason: "no theme archive (*-theme.zip) in the drop",
        alternatives: [],
      });
      assert.deepEqual(r.plan!.modules, [file.slice(0, -4), "blog"]);
    }
    // Named as the module it is, it can still be the theme, under that name.
    const named = plan(["-theme.zip", "blog.zip"], {}, { flags: { theme: "-theme" } });
    assert.deepEqual([named.plan!.theme.file, named.plan!.theme.name], ["-theme.zip", "-theme"]);
    // With a real theme beside it, auto picks the real one.
    assert.equal(plan(["-theme.zip", "zen-theme.zip"]).plan!.theme.name, "zen");
  });

  test("no plan without archives", () => {
    const r = resolveOk({ cwd, env: { DROPKIT_PRESETS: "" } });
    assert.equal("plan" in r, false);
  });
});
