// The page's one caller of the core's `resolve`: runs the staged request on the simulated folder; src/editor/answer.ts reads the answer.

import type { ResolveRequest } from "../src/core/protocol.ts";
import { type Answer, readAnswer } from "../src/editor/answer.ts";
import type { PageCore } from "./wasm.ts";

export type { Answer, Row, Step } from "../src/editor/answer.ts";

/** A preset file in the simulated folder: an absolute path and its JSON text. */
export interface SimulatedFile {
  path: string;
  text: string;
}

export interface Inputs extends Omit<ResolveRequest, "presetFiles" | "presetNames" | "detected"> {
  /** The preset files of the simulated folder (JSON only: the page cannot run `.ts`/`.js`). */
  presetFiles: SimulatedFile[];
}

/** Resolves the inputs, answering the core's `presets` stage from the simulated folder (docs/abi.md, "Stages"). */
export function resolveInputs(core: PageCore, inputs: Inputs): Answer {
  const { presetFiles: simulated, ...rest } = inputs;
  const request: ResolveRequest = { ...rest };
  // Two calls at most: the page sends `files`, so the core never needs the `detect` stage.
  for (let round = 0; round < 3; round++) {
    const response = core.resolveLayers(request);
    if (response.stage === "done") return readAnswer(response);
    if (response.stage !== "presets" || request.presetFiles)
      throw new Error(`the core asked for stage "${response.stage}" after it was answered`);
    Object.assign(request, findPresets(response.needs, simulated));
  }
  throw new Error("the core did not finish resolving after every stage was answered");
}

/**
 * The preset files the core asked for, as the CLI finds them on disk (src/config/presetfiles.ts): listed paths, listed
 * names as `<name>.json` in the search path directories in order, or in auto mode every `.json` file there.
 */
function findPresets(
  needs: { mode: "auto" | "list"; presets: Array<{ ref: string; kind: "path" | "name" }>; searchPath: string[] },
  files: SimulatedFile[],
): Pick<ResolveRequest, "presetFiles" | "presetNames"> {
  const byName = new Map<string, SimulatedFile>();
  for (const dir of needs.searchPath) {
    const inDir = files.filter(
      (f) => f.path.startsWith(dir.replace(/\/$/, "") + "/") && !f.path.slice(dir.length + 1).includes("/") && f.path.endsWith(".json"),
    );
    for (const file of inDir.sort((a, b) => (a.path < b.path ? -1 : 1))) {
      const name = baseName(file.path);
      if (!byName.has(name)) byName.set(name, file);
    }
  }
  const source = (file: SimulatedFile, name: string, ref?: string) => ({
    source: file.path,
    format: "json" as const,
    text: file.text,
    name,
    ...(ref !== undefined ? { ref } : {}),
  });
  const presetFiles =
    needs.mode === "auto"
      ? [...byName].map(([name, file]) => source(file, name))
      : needs.presets.flatMap(({ ref, kind }) => {
          const file = kind === "path" ? files.find((f) => f.path === ref) : byName.get(ref);
          return file ? [source(file, kind === "path" ? baseName(file.path) : ref, ref)] : [];
        });
  return { presetFiles, presetNames: [...byName.keys()] };
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1).replace(/\.json$/, "");
}
