// FORCE_COLOR read one way by the log (whether to colour) and the help (at which depth): the two give one answer.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { colorLevel } from "../../src/cli/helpformat.js";
import { shouldColor } from "../../src/output/log.js";

const notATerminal = { isTTY: false };
/** A terminal of 16 colours (4 bits): a level above 1 comes from FORCE_COLOR alone. */
const sixteen = () => 4;

describe("FORCE_COLOR", () => {
  test("off, on and its level are the same reading for the log and the help, with white space and case as written", () => {
    const cases: Array<[string, boolean, number]> = [
      ["0", false, 1],
      [" 0 ", false, 1],
      ["false", false, 1],
      [" FALSE", false, 1],
      ["1", true, 1],
      ["true", true, 1],
      [" 2 ", true, 2],
      ["3", true, 3],
      ["7", true, 3],
    ];
    for (const [value, on, level] of cases) {
      const env = { FORCE_COLOR: value };
      assert.equal(shouldColor(notATerminal, env), on, `FORCE_COLOR=${JSON.stringify(value)}: colour`);
      assert.equal(colorLevel(env, sixteen), level, `FORCE_COLOR=${JSON.stringify(value)}: level`);
    }
  });

  test("unset or empty: the terminal decides; NO_COLOR wins", () => {
    for (const env of [{}, { FORCE_COLOR: "" }, { FORCE_COLOR: "  " }]) {
      assert.equal(shouldColor(notATerminal, env), false);
      assert.equal(shouldColor({ isTTY: true }, env), true);
      assert.equal(
        colorLevel(env, () => 8),
        2,
      );
    }
    assert.equal(shouldColor({ isTTY: true }, { FORCE_COLOR: "3", NO_COLOR: "1" }), false);
  });
});
