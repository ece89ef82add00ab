// The messages between the extension host and its pages (the record form, the Query View and the import
// mapping; the grid's and the board's are beside them, src/grid/protocol.ts, src/board/protocol.ts), imported by both sides (src/webviews/ and webview-ui/). Pure types and tiny
// pure helpers: no `vscode`, no node, no DOM. Each page has one union per direction, discriminated by
// `type`. What the pages send is declared as run-time schemas in panelMessages.ts (the host checks it where
// it enters); what the host sends, here (a page ignores a type it does not know).
import type { ColumnKind } from '../api/columnKinds';
import type { ViewFilter } from '../api/filters';
import type { Column } from '../api/types';

export type { ViewFilter } from '../api/filters';
// What the panels send is declared by its run-time schemas; only the types come from there.
export type {
  FormToHostMessage,
  ImportOptions,
  ImportTargetValue,
  ImportToHostMessage,
  QueryBulkMessage,
  QueryCancelMessage,
  QueryExportMessage,
  QueryRunMessage,
  QuerySortMessage,
  QueryToHostMessage,
  QueryWindowMessage,
  SortDirection,
  SortSpec,
  FormRestore,
  QueryRestore,
} from './panelMessages';
import type { FormRestore, ImportOptions, ImportTargetValue, QueryRestore, SortSpec } from './panelMessages';

// ---------------------------------------------------------------------------------------------------------
// Both panels

/** A choice of a Choice column, as the panels show it. */
export interface ChoiceOption {
  id: string;
  name: string;
  /** #RRGGBB, already checked by the host (anything else is left out). */
  color?: string;
}

// ---------------------------------------------------------------------------------------------------------
// The create-record form (view type portal.recordForm)

export interface FormInitMessage {
  type: 'form/init';
  appName: string;
  portalLabel: string;
  /** The app's columns as the portal lists them; the form shows the writable ones in position order. */
  columns: Column[];
  /** Whether to offer "Save as draft": false once the app is known to have no Draft mode. */
  offerDraft: boolean;
  /** What the page keeps in its state, so that the panel comes back after a reload (panelRestore.ts). */
  restore?: FormRestore;
  /** The page state VS Code restored the panel with: the page takes it when it starts without its own. */
  pageState?: unknown;
  /** The last create of this panel, for a page reloaded meanwhile (hidden, then shown): under way, or done. */
  outcome?: FormOutcome;
  /** Values to start from, as entered, by field_id_in_data (Create Record from TODO / Selection); sent once. */
  prefill?: Record<string, string>;
}

/** A create the host started: the page shows it busy, or its success with no second Create of the same values. */
export type FormOutcome = { state: 'pending' } | ({ state: 'created' } & Omit<FormCreatedMessage, 'type'>);

/** The columns could not be read; the form shows the message and a Retry button. */
export interface FormLoadFailedMessage {
  type: 'form/loadFailed';
  message: string;
}

export interface FormCreatedMessage {
  type: 'form/created';
  /** undefined when the portal's answer did not carry the new record's id. */
  recordId: string | undefined;
  /** True when the record is a Draft. */
  draft: boolean;
  message: string;
}

/** The create failed; `field` (a field_id_in_data) when the portal or the local check named one. */
export interface FormFailedMessage {
  type: 'form/failed';
  message: string;
  field?: string;
}

export type HostToFormMessage = FormInitMessage | FormLoadFailedMessage | FormCreatedMessage | FormFailedMessage;

// ---------------------------------------------------------------------------------------------------------
// The view query builder (view type portal.viewQuery)

/** A column a filter can name: the app's own columns and, once known, those of its Lookup apps. */
export interface FilterColumn {
  /** The column id sent in filter_columns (the view metadata's `id`, a column's field_id). */
  id: string;
  /** field_id_in_data (f<N>, or l<N> for a Lookup app's column in a view). */
  key: string;
  name: string;
  kind: ColumnKind;
  /** The Lookup app's id, for a column of a Lookup app (sent in filter_apps). */
  lookupApp?: string;
  choices?: ChoiceOption[];
  /** A multi-select Choice column. */
  multi?: boolean;
}

/** A column of the results grid, in the view's order. */
export interface GridColumn {
  /** field_id_in_data. */
  key: string;
  name: string;
  kind: ColumnKind;
  /** For Choice columns whose choices are known: ids are shown as names. */
  choices?: ChoiceOption[];
}

export interface SavedQuery {
  name: string;
  filters: ViewFilter[];
  /** The order the results are shown in (the Query View applies the first key); undefined: the portal's. */
  sort?: { column: string; direction: 'asc' | 'desc' }[];
  /** The columns shown, in their order (field_id_in_data); undefined: the view's own. */
  columns?: string[];
}

export interface QueryInitMessage {
  type: 'query/init';
  viewName: string;
  appName: string;
  portalLabel: string;
  columns: FilterColumn[];
  saved: SavedQuery[];
  /** Filters to put in the builder and run at once (a saved query run from the tree). */
  run?: { filters: ViewFilter[]; name?: string; sort?: SortSpec; columns?: string[] };
  /** What the page keeps in its state, so that the panel comes back after a reload (panelRestore.ts). */
  restore?: QueryRestore;
  /** The page state VS Code restored the panel with: the page takes it when it starts without its own. */
  pageState?: unknown;
}

/**
 * The panel's load (its columns) failed: the page says so with a Retry button (which posts `retry`), and keeps
 * everything that needs the columns off. No runId: after a reload the host knows no run, the page its kept one.
 */
export interface QueryLoadFailedMessage {
  type: 'query/loadFailed';
  message: string;
}

/** More filterable columns became known (a Lookup app's, after a run). */
export interface QueryColumnsMessage {
  type: 'query/columns';
  columns: FilterColumn[];
}

/**
 * The start of a result: its columns. The host keeps the rows; the panel shows a window of them at a time
 * (query/rows, asked for with query/window), so that the page holds what is in sight and not 100,000 rows.
 */
export interface QueryResultMessage {
  type: 'query/result';
  runId: number;
  columns: GridColumn[];
}

/** Rows of the result in the grid's current order, from `start`: the first screenful unasked, then windows. */
export interface QueryRowsMessage {
  type: 'query/rows';
  runId: number;
  /** The order they are in: increases with each sort (0: the portal's order). */
  sortVersion: number;
  /** Display index of the first row. */
  start: number;
  /** Arrays, not objects: [record id, draft ("1"/"0"/""), value of columns[0], value of columns[1], ...]. */
  rows: string[][];
}

/** How many rows the host has read so far (the result is still coming). */
export interface QueryProgressMessage {
  type: 'query/progress';
  runId: number;
  count: number;
}

/** The whole result is in: `total` rows, all of them sortable, exportable and in reach of the grid. */
export interface QueryDoneMessage {
  type: 'query/done';
  runId: number;
  total: number;
  /** Set when the answer broke off (or the run was cancelled): why, and that only `total` rows were read. */
  partial?: string;
}

/** The rows are now in the order of `sort` (none: the portal's order); windows asked for since are in it. */
export interface QuerySortedMessage {
  type: 'query/sorted';
  runId: number;
  sortVersion: number;
  sort?: SortSpec;
}

export interface QueryFailedMessage {
  type: 'query/failed';
  runId: number;
  message: string;
  /** Index of the filter row at fault, when known. */
  filterIndex?: number;
}

export interface QuerySavedMessage {
  type: 'query/saved';
  saved: SavedQuery[];
}

export type HostToQueryMessage =
  | QueryInitMessage
  | QueryLoadFailedMessage
  | QueryColumnsMessage
  | QueryResultMessage
  | QueryRowsMessage
  | QueryProgressMessage
  | QueryDoneMessage
  | QuerySortedMessage
  | QueryFailedMessage
  | QuerySavedMessage;

// ---------------------------------------------------------------------------------------------------------
// The import mapping panel (view type portal.importMapping)

/** An entry of a source column's dropdown: an app column, the record id, or nothing. */
export interface ImportTargetOption {
  value: ImportTargetValue;
  label: string;
  /** Why the API cannot set it (the option is shown, disabled). */
  readOnly?: string;
}

export interface ImportColumnRow {
  source: string;
  target: ImportTargetValue;
  /** Why the column is ignored, when it is. */
  ignoredWhy?: string;
}

/** A cell of the preview: the value as it will be sent, or why it cannot be. */
export interface ImportPreviewCell {
  value: string;
  problem?: string;
}

export interface ImportPreview {
  /** The app columns fed, in the mapping's order (names). */
  columns: string[];
  rows: Array<{ row: number; cells: ImportPreviewCell[]; problem?: string }>;
}

export interface ImportStateMessage {
  type: 'import/state';
  mapping: ImportColumnRow[];
  preview: ImportPreview;
  /** What the mapping and options cannot do, before any row is read. */
  problems: string[];
  /** What the run will do that a person should know first (it does not block the run). */
  warnings: string[];
  options: ImportOptions;
}

export interface ImportInitMessage {
  type: 'import/init';
  appName: string;
  portalLabel: string;
  fileName: string;
  /** "CSV (delimiter ;)", "TSV", "JSON". */
  formatLabel: string;
  targets: ImportTargetOption[];
  /** Unique columns an upsert can match on (value: field_id_in_data). */
  uniqueColumns: Array<{ value: string; label: string }>;
  /** Views of the app an upsert can read existing records through. */
  views: Array<{ value: string; label: string }>;
  /** Whether to offer draft or published: the app has Draft mode (or it is not known). */
  offerDraft: boolean;
  state: ImportStateMessage;
}

export interface ImportProblemRow {
  row: number;
  column: string;
  value: string;
  expected: string;
  message: string;
}

export interface ImportDryRunMessage {
  type: 'import/dryRunResult';
  rows: number;
  creates: number;
  updates: number;
  unchanged: number;
  failingRows: number;
  /** The first problems (the export holds them all). */
  problems: ImportProblemRow[];
  totalProblems: number;
}

/** An import started (the panel disables its buttons) or ended (with its summary). */
export interface ImportRunningMessage {
  type: 'import/running';
  running: boolean;
  summary?: string;
}

export interface ImportFailedMessage {
  type: 'import/failed';
  message: string;
}

export type HostToImportMessage = ImportInitMessage | ImportStateMessage | ImportDryRunMessage | ImportRunningMessage | ImportFailedMessage;

// ---------------------------------------------------------------------------------------------------------
// Helpers

/** True for an object with a string `type` that is one of `types`, or starts with one of them that ends in '/'. */
export function isMessage(value: unknown, ...types: readonly string[]): value is { type: string } {
  if (value === null || typeof value !== 'object') return false;
  const type = (value as { type?: unknown }).type;
  return typeof type === 'string' && types.some((known) => type === known || (known.endsWith('/') && type.startsWith(known)));
}

const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

/** A Column's choices as the panels show them, in the portal's order; colours only when they are #RRGGBB. */
export function choiceOptions(column: Pick<Column, 'choices'>): ChoiceOption[] {
  const choices = Array.isArray(column.choices) ? column.choices : [];
  return [...choices]
    .sort((a, b) => Number(a.order) - Number(b.order))
    .map((choice) => ({
      id: String(choice.id),
      name: String(choice.name),
      ...(HEX_COLOUR.test(String(choice.color)) ? { color: String(choice.color) } : {}),
    }));
}

/** The Query View grid's own first column (the record id): its key in the grid and in a sort. */
export const RECORD_ID_KEY = '#id';

/** The row array layout of QueryRowsMessage: where the values start. */
export const ROW_VALUES_OFFSET = 2;
