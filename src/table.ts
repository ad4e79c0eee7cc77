// The text of `dropkit config`'s table, as pure functions: shared by the CLI and the browser playground.

/** One leaf of the resolved config with its winning origin (a decision record: src/decisions.ts). */
export interface TableDecision {
  key: string;
  value: unknown;
  layer: string;
  source: string;
}

/** One entry of a union list (`modules.*`) with its own origin. */
export interface TableEntry {
  value: string;
  layer: string;
  source: string;
}

/** The header of the table. */
export const configTableHeader = ["KEY", "VALUE", "LAYER", "SOURCE"] as const;

/** A value for a text line: strings bare, everything else as compact JSON. */
export function formatValue(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Pads every column but the last to its widest cell, two spaces apart. */
export function alignColumns(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ").trimEnd());
}

/**
 * The rows of the table, without the header: one per leaf, and one per entry of the union lists right
 * after its list (`modules.exclude[0]`, ...), because a union list has no single origin.
 */
export function configTableRows(decisions: TableDecision[], entries: Record<string, TableEntry[]> | undefined): string[][] {
  const rows: string[][] = [];
  for (const d of decisions) {
    rows.push([d.key, formatValue(d.value), d.layer, d.source]);
    const listed = entries?.[d.key] ?? [];
    listed.forEach((e, i) => rows.push([`${d.key}[${i}]`, e.value, e.layer, e.source]));
  }
  return rows;
}
