// The examples the page offers: real configs for the situations dropkit is made for, and one with mistakes to fix.

import { defaults, type PageInputs } from "./pageinputs.ts";

export interface Example {
  id: string;
  title: string;
  state: Partial<PageInputs>;
}

export const examples: Example[] = [
  {
    id: "minimal",
    title: "Minimal: pick the theme",
    state: { config: '{\n  "theme": "ocean"\n}\n' },
  },
  {
    id: "ci",
    title: "CI: everything pinned, JSON log",
    state: {
      config: `{
  "$schema": "./node_modules/dropkit/schema.json",
  "schema": 1,
  "theme": "ocean",
  "presets": ["standard"],
  "modules": {
    "only": ["blog", "shop"]
  },
  "hooks": { "onFailure": "fail" },
  "cache": { "enabled": false },
  "log": { "format": "json" }
}
`,
    },
  },
  {
    id: "monorepo",
    title: "Monorepo: shared local presets",
    state: {
      config: `{
  "presetsSearchPath": ["./presets"],
  "presets": ["company", "standard"],
  "theme": "forest",
  "modules": {
    "include": ["test-fixtures"]
  }
}
`,
      presetFiles: [
        { path: "presets/company.json", text: '{\n  "theme": "ocean",\n  "exclude": ["legacy-*"],\n  "log": { "format": "json" }\n}\n' },
        { path: "presets/docs-site.json", text: '{\n  "modules": { "only": ["blog"] },\n  "detect": ["docs/**"]\n}\n' },
      ],
    },
  },
  {
    id: "package-json",
    title: "package.json with a dropkit key",
    state: {
      config: `{
  "name": "my-site",
  "private": true,
  "scripts": { "build": "dropkit create" },
  "dropkit": {
    "theme": "auto",
    "exclude": ["legacy-*", "test-*"]
  }
}
`,
    },
  },
  {
    id: "broken",
    title: "Broken: typos to fix",
    state: {
      config: `{
  "theme": "ocean",
  "presets": ["standrd"],
  "modules": {
    "exlude": ["legacy-*"]
  },
  "hooks": { "onFailure": "Fail" },
  "log": { "format": "jsn" },
  "colour": "blue"
}
`,
    },
  },
];

/** The whole state an example sets: what it gives, and the page's defaults for every other input (no config text). */
export function exampleInputs(example: Example): PageInputs {
  return { ...defaults, config: "", presetFiles: [], ...example.state };
}
