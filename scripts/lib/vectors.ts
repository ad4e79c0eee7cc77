// The golden request/response vectors of test/vectors/, read once for every host's tests.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface Vector {
  file: string;
  name: string;
  request: unknown;
  status: number;
  response: unknown;
}

const dir = fileURLToPath(new URL("../../test/vectors/", import.meta.url));

/** Every vector, sorted by file name. */
export function loadVectors(): Vector[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => ({ file, ...(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as Omit<Vector, "file">) }));
}

/** The request bytes a host sends for a vector: JSON.stringify of the stored request, as test/core/vectors.test.ts sends it. */
export function requestText(vector: Vector): string {
  return JSON.stringify(vector.request);
}

/** The expected response bytes: the vectors hold only canonical JSON, so JSON.stringify of the stored response. */
export function expectedText(vector: Vector): string {
  return JSON.stringify(vector.response);
}
