// The text of `dropkit config`'s table, as pure functions: shared by the CLI and the browser playground.

import type { Decision, ListEntry } from "../core/decisions.js";
import { escapeControls } from "./controls.js";

/** The header of the table. */
export const configTableHeader = ["KEY", "VALUE", "LAYER", "SOURCE"] as const;

/** A value for a text line: strings bare, everything else as compact JSON. */
export function formatValue(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * The widest a column is padded to. A longer cell pushes the rest of its own line to the right and leaves
 * every other line alone, so that the text grows with its input, never with its widest cell times its rows.
 */
export const maxColumnWidth = 60;

/** Pads every column but the last to its widest cell, up to `maxColumnWidth`, two spaces apart. */
export function alignColumns(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.min(maxColumnWidth, Math.max(widths[i] ?? 0, cell.length));
    });
  }
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd(),
  );
}

/**
 * The lines `dropkit config` prints: the header, then one line per leaf, where a list lists one item a line,
 * its further items on lines of their own under the value column. A union list's items (`entries`) each
 * carry their own origin; another list's origin is on its first line. Every cell is escaped
 * (`escapeControls`): values and sources come from configs and file names.
 */
export function configTableLines(decisions: Decision[], entries: Record<string, ListEntry[]> | undefined): string[] {
  const rows: string[][] = [[...configTableHeader]];
  for (const d of decisions) {
    const listed = entries?.[d.key] ?? [];
    if (listed.length > 0) {
      listed.forEach((e, i) => {
        rows.push([i === 0 ? d.key : "", e.value, e.layer, e.source]);
      });
    } else if (Array.isArray(d.value) && d.value.length > 0) {
      d.value.forEach((item, i) => {
        rows.push(i === 0 ? [d.key, formatValue(item), d.layer, d.source] : ["", formatValue(item)]);
      });
    } else {
      rows.push([d.key, formatValue(d.value), d.layer, d.source]);
    }
  }
  return alignColumns(rows.map((row) => row.map((cell) => escapeControls(cell))));
}

/**
 * The rows of the table, without the header: one per leaf, and one per entry of the union lists right
 * after its list (`modules.exclude[0]`, ...), because a union list has no single origin.
 */
export function configTableRows(decisions: Decision[], entries: Record<string, ListEntry[]> | undefined): string[][] {
  const rows: string[][] = [];
  for (const d of decisions) {
    rows.push([d.key, formatValue(d.value), d.layer, d.source]);
    const listed = entries?.[d.key] ?? [];
    listed.forEach((e, i) => {
      rows.push([`${d.key}[${i}]`, e.value, e.layer, e.source]);
    });
  }
  return rows;
}
