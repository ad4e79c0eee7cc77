// The page's inputs as one value, and the URL fragment that holds them: compressed links, and the older plain ones.

import { deflateRaw, fromBase64, inflateRaw, toBase64Url } from "./bytes.ts";

/** A preset file of the simulated folder, its path relative to it. */
export interface PresetFileFields {
  path: string;
  text: string;
}

/** Everything the page shows is a function of this value, which is also what a link holds. */
export interface PageInputs {
  config: string;
  format: string;
  env: string;
  theme: string;
  exclude: string;
  preset: string;
  logFormat: string;
  archives: string;
  presetFiles: PresetFileFields[];
}

const defaultArchives = ["ocean-theme.zip", "forest-theme.zip", "blog.zip", "shop.zip", "legacy-forum.zip", "test-fixtures.zip"].join("\n");

export const defaults: PageInputs = {
  config: `{
  "schema": 1,
  "theme": "ocean",
  "presets": ["standard"],
  "modules": {
    "exclude": ["legacy-*"]
  },
  "hooks": { "onFailure": "continue" }
}
`,
  format: "auto",
  env: "",
  theme: "",
  exclude: "",
  preset: "",
  logFormat: "",
  archives: defaultArchives,
  presetFiles: [],
};

const textKeys = ["config", "format", "env", "theme", "exclude", "preset", "logFormat", "archives"] as const;

/** The marker of a compressed fragment: `#z=` then base64url of the deflate-raw of the state's JSON. */
const compressedPrefix = "z=";

/**
 * The state a fragment holds. `#z=...` is the compressed form this page writes; `#config=...&env=...` is the
 * plain form earlier versions wrote, still read. A key that is absent keeps its default, so hand-made links
 * work too. Throws when a compressed fragment is damaged.
 */
export async function decodeFragment(hash: string): Promise<PageInputs> {
  const body = hash.replace(/^#/, "");
  const state: PageInputs = { ...defaults, presetFiles: [] };
  if (body.startsWith(compressedPrefix)) {
    const parsed = JSON.parse(await inflate(body.slice(compressedPrefix.length))) as Partial<Record<keyof PageInputs, unknown>>;
    for (const key of textKeys) if (typeof parsed[key] === "string") state[key] = parsed[key];
    if (Array.isArray(parsed.presetFiles)) {
      state.presetFiles = parsed.presetFiles
        .filter((f): f is PresetFileFields => typeof f?.path === "string" && typeof f?.text === "string")
        .map(({ path, text }) => ({ path, text }));
    }
    return state;
  }
  const params = new URLSearchParams(body);
  for (const key of textKeys) {
    const value = params.get(key);
    if (value !== null) state[key] = value;
  }
  return state;
}

/** The compressed fragment (with its `#`) for a state. */
export async function encodeFragment(state: PageInputs): Promise<string> {
  return "#" + compressedPrefix + (await deflate(JSON.stringify(state)));
}

async function deflate(text: string): Promise<string> {
  return toBase64Url(await deflateRaw(new TextEncoder().encode(text)));
}

async function inflate(encoded: string): Promise<string> {
  return new TextDecoder().decode(await inflateRaw(fromBase64(encoded)));
}
