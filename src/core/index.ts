// The public entry of `dropkit/core` (and of `dropkit/abi`, its former name): the host, decision records and the protocol's types. Exports only.

export type * from "./protocol.js";
export type { WasmBytes, WasmModule, FetchResponse } from "./wasmtypes.js";
export { ABI_VERSION, callExports, callExportsText, Core, CoreTrap, createCore, openCore, openCoreAsync } from "./host.js";
export { deriveDecisions, deriveListEntries, planWarnings, type Decision, type ListEntry, type Resolution } from "./decisions.js";
