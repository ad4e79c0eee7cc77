// State files for the tests: the SPEC's legacy example and a valid v1 file.

import type { StateV1 } from "../../src/state/file.js";

/** The legacy example of SPEC section 9, as 0.7.2 wrote it. */
export const specLegacy =
  '{ "version": "0.7.2", "theme": "ocean", "modules": ["blog", "shop"],\n  "excluded": ["legacy-*"], "preset": ' +
  '"standard", "created": 1714557600000,\n  "lastRun": "2024-05-01T10:00:00.000Z" }\n';

/** A valid v1 file, as a later run wrote it. */
export const v1File: StateV1 = {
  schema: 1,
  toolVersion: "1.0.0",
  createdAt: "2024-05-01T10:00:00.000Z",
  updatedAt: "2026-11-21T12:00:00.000Z",
  plan: { theme: "ocean", modules: ["blog", "shop"], excluded: ["legacy-*"], presets: ["standard"] },
  migratedFrom: { version: "0.7.2", at: "2026-11-21T12:00:00.000Z" },
  extra: { note: "mine", nested: { a: [1, null] } },
};
export const v1Text = JSON.stringify(v1File, null, 2) + "\n";
