// The bundled presets and the reading of preset documents.

import { JsonNode, parseJsonString } from "./json";
import { DOC_PRESET, DocContext, Layer, LAYER_PRESET, readDocument } from "./schema";
import { words } from "./text";

/** The bundled presets, as JSON text: the same reader checks them as users' presets. */
export const BUNDLED_NAMES: Array<string> = words("none standard");
const BUNDLED_TEXTS: Array<string> = [
  "{}",
  "{\"modules\":{\"exclude\":[\"test-*\",\"dev-*\"]},\"hooks\":{\"onFailure\":\"fail\"},\"detect\":[\"*.zip\"]}",
];

// The bundled presets parsed at start, once per instance: what a call allocates does not outlive it
// (heap.ts). The validator only reads them.
const bundledNodes = new Array<JsonNode>();
for (let i = 0; i < BUNDLED_TEXTS.length; i++) bundledNodes.push(parseJsonString(BUNDLED_TEXTS[i]).value!);

/** The parsed JSON of a bundled preset. */
export function bundledNode(name: string): JsonNode {
  return bundledNodes[BUNDLED_NAMES.indexOf(name)];
}

/** The layer a bundled preset sets; its values' source is the preset's name. */
export function bundledLayer(name: string, cwd: string): Layer {
  const layer = new Layer(LAYER_PRESET, cwd);
  layer.label = name;
  const ctx = new DocContext();
  ctx.file = name;
  ctx.positions = false;
  ctx.doc = DOC_PRESET;
  readDocument(bundledNode(name), ctx, layer);
  return layer;
}

/** A new, empty preset layer for a preset file. */
export function presetLayer(name: string, dir: string): Layer {
  const layer = new Layer(LAYER_PRESET, dir);
  layer.label = name;
  return layer;
}
