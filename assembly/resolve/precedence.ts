// The five layers of the merge, from the highest (flags) to the lowest (defaults), and their names.

import { Span, spanOf } from "../json/span";
import { words } from "../json/strings";

/** A layer's place in the merge: a lower number wins. */
export enum LayerKind {
  Cli = 0,
  Env = 1,
  Config = 2,
  Preset = 3,
  Default = 4,
}

/** The layers' names, by LayerKind, as messages and answers name them. */
export const LAYER_NAMES: Array<string> = words("cli env config preset default");
const LAYER_SPANS = new StaticArray<Span>(LAYER_NAMES.length);
for (let i = 0; i < LAYER_NAMES.length; i++) LAYER_SPANS[i] = spanOf(LAYER_NAMES[i]);

/** A layer's name as bytes. */
export function layerName(kind: LayerKind): Span {
  return unchecked(LAYER_SPANS[kind]);
}
