// Shared access to the built core for the core's tests: the JS binding, and typed shortcuts over it.

import { loadCore } from "../../src/core/node.js";
import type { CoreDiagnostic, ResolveDone, ResolveRequest, ResolveResponse, ValidateResponse } from "../../src/core/protocol.js";

export const core = loadCore();

/** The `validate` op with options. */
export function validate(
  text: string,
  options: { format?: "json" | "package.json"; source?: string; kind?: "config" | "preset" } = {},
): ValidateResponse {
  return core.validateConfig(text, options);
}

/** The `parse` op. */
export function parse(text: string): { ok: boolean; value?: unknown; errors: CoreDiagnostic[] } {
  return core.parseJson(text);
}

/** The `resolve` op. */
export function resolve(request: ResolveRequest): ResolveResponse {
  return core.resolveLayers(request);
}

/** A resolve that must reach stage "done". */
export function resolveDone(request: ResolveRequest): ResolveDone {
  const r = core.resolveLayers(request);
  if (r.stage !== "done") throw new Error(`expected stage done, got ${r.stage}: ${JSON.stringify(r)}`);
  return r;
}

/** A resolve that must succeed, with no errors. */
export function resolveOk(request: ResolveRequest): ResolveDone {
  const r = resolveDone(request);
  if (!r.ok) throw new Error(`expected ok, got errors: ${JSON.stringify(r.errors)}`);
  return r;
}

/** The single error of a response, failing when there is not exactly one. */
export function only<T>(list: T[] | undefined): T {
  if (list?.length !== 1) throw new Error(`expected exactly one item, got ${JSON.stringify(list)}`);
  return list[0];
}

/** 1-based line and column (UTF-16 units) and offset of the first `needle` in `text`, as the core reports them. */
export function positionOf(text: string, needle: string, from = 0): { line: number; column: number; offset: number } {
  const offset = text.indexOf(needle, from);
  if (offset < 0) throw new Error(`${JSON.stringify(needle)} is not in the text`);
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const lineStart = before.lastIndexOf("\n") + 1;
  const column = offset - Math.max(lineStart, line === 1 ? bom : 0) + 1;
  return { line, column, offset };
}
