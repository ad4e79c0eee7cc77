// The bundled presets and the reading of preset documents.

import { parseJsonString } from "./json";
import { DOC_PRESET, DocContext, Layer, LAYER_PRESET, readDocument } from "./schema";
import { words } from "./text";

/** The bundled presets, as JSON text: the same reader checks them as users' presets. */
export const BUNDLED_NAMES: Array<string> = words("none standard");
const BUNDLED_TEXTS: Array<string> = [
  "{}",
  "{\"modules\":{\"exclude\":[\"test-*\",\"dev-*\"]},\"hooks\":{\"onFailure\":\"fail\"},\"detect\":[\"*.zip\"]}",
];

export function bundledText(name: string): string {
  const i = BUNDLED_NAMES.indexOf(name);
  return i < 0 ? "" : BUNDLED_TEXTS[i];
}

/** The layer a bundled preset sets; its values' source is the preset's name. */
export function bundledLayer(name: string, cwd: string): Layer {
  const layer = new Layer(LAYER_PRESET, cwd);
  layer.label = name;
  const parsed = parseJsonString(bundledText(name));
  const ctx = new DocContext();
  ctx.file = name;
  ctx.positions = false;
  ctx.doc = DOC_PRESET;
  readDocument(parsed.value!, ctx, layer);
  return layer;
}

/** A new, empty preset layer for a preset file. */
export function presetLayer(name: string, dir: string): Layer {
  const layer = new Layer(LAYER_PRESET, dir);
  layer.label = name;
  return layer;
}
