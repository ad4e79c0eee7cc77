// The page's elements, found once by id.

export const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

export const ui = {
  status: byId<HTMLParagraphElement>("status"),
  editor: byId<HTMLDivElement>("editor"),
  format: byId<HTMLSelectElement>("format"),
  examples: byId<HTMLSelectElement>("examples"),
  problemsSummary: byId<HTMLParagraphElement>("problems-summary"),
  problems: byId<HTMLUListElement>("problems"),
  fixAll: byId<HTMLButtonElement>("fix-all"),
  env: byId<HTMLTextAreaElement>("env"),
  envNotes: byId<HTMLParagraphElement>("env-notes"),
  theme: byId<HTMLInputElement>("flag-theme"),
  exclude: byId<HTMLInputElement>("flag-exclude"),
  presets: byId<HTMLDivElement>("flag-presets"),
  logFormat: byId<HTMLSelectElement>("flag-log-format"),
  archives: byId<HTMLTextAreaElement>("archives"),
  archivesNotes: byId<HTMLParagraphElement>("archives-notes"),
  presetFiles: byId<HTMLDivElement>("preset-files"),
  selection: byId<HTMLDivElement>("selection"),
  presetsLine: byId<HTMLParagraphElement>("presets-line"),
  table: byId<HTMLTableElement>("resolved"),
  tableWrap: byId<HTMLDivElement>("resolved-wrap"),
  tableNote: byId<HTMLParagraphElement>("resolved-note"),
  tableEmpty: byId<HTMLParagraphElement>("resolved-empty"),
  tableDetails: byId<HTMLDetailsElement>("resolved-details"),
  tableText: byId<HTMLPreElement>("resolved-text"),
  explain: {
    section: byId<HTMLElement>("explain"),
    heading: byId<HTMLElement>("explain-heading"),
    body: byId<HTMLElement>("explain-body"),
  },
  warningsBlock: byId<HTMLDivElement>("warnings-block"),
  warnings: byId<HTMLUListElement>("warnings"),
  shareNote: byId<HTMLSpanElement>("share-note"),
};
