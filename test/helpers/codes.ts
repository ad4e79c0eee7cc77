// The core's problem codes as its source declares them: the `Code` enum, the names the core writes, the host's type.

import fs from "node:fs";

/** Where the core declares its codes, and where the host's protocol types them. */
export const codeFiles = {
  core: new URL("../../assembly/schema/diagnostic.ts", import.meta.url),
  protocol: new URL("../../src/core/protocol.ts", import.meta.url),
};

export interface CoreCode {
  code: string;
  /** What the enum member's doc comment says the code is for, on one line. */
  doc: string;
}

/** The members of the core's `Code` enum, in order, each with its doc comment (every member must have one). */
export function coreCodes(): CoreCode[] {
  const text = fs.readFileSync(codeFiles.core, "utf8");
  const body = /export enum Code \{([\s\S]*?)\n\}/.exec(text)?.[1];
  if (body === undefined) throw new Error(`no "export enum Code" in ${codeFiles.core.pathname}`);
  // The members are what is left once comments go; each one's doc is the block comment right before it.
  const docs = new Map<string, string>();
  for (const m of body.matchAll(/\/\*\*([\s\S]*?)\*\/\s*(\w+)/g)) {
    const doc = m[1]!
      .split("\n")
      .map((line) => line.replace(/^\s*\*?\s?/, "").trim())
      .join(" ")
      .trim();
    docs.set(m[2]!, doc);
  }
  const members = body
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\/\/.*$/gm, "")
    .split(",")
    .map((m) => m.split("=")[0]!.trim())
    .filter((m) => m !== "");
  return members.map((code) => ({ code, doc: docs.get(code) ?? "" }));
}

/** The names the core writes in answers, by code (its `CODE_NAMES`, which must list the enum's members in their order). */
export function coreCodeNames(): string[] {
  const text = fs.readFileSync(codeFiles.core, "utf8");
  const list = /const CODE_NAMES[^=]*=\s*\[([\s\S]*?)\];/.exec(text)?.[1];
  if (list === undefined) throw new Error(`no CODE_NAMES in ${codeFiles.core.pathname}`);
  return [...list.matchAll(/"(\w+)"/g)].map((m) => m[1]!);
}

/** The codes src/core/protocol.ts allows in an answer: `ProblemCode`'s strings and those of `WarningCode`, which it includes. */
export function protocolCodes(): string[] {
  const text = fs.readFileSync(codeFiles.protocol, "utf8");
  const union = (name: string) => {
    const type = new RegExp(`export type ${name} =([^;]*);`).exec(text)?.[1];
    if (type === undefined) throw new Error(`no type ${name} in ${codeFiles.protocol.pathname}`);
    return [...type.matchAll(/"(\w+)"/g)].map((m) => m[1]!);
  };
  return [...union("ProblemCode"), ...union("WarningCode")];
}
