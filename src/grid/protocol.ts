// The messages the host sends to the view grid (custom editor portal.grid); what the grid sends is declared
// by its schemas in messages.ts, whose types are re-exported here: the one protocol both sides import.
import type { ViewFilter } from '../api/filters';
import type { Column } from '../api/types';
import type { FilterColumn, GridColumn } from '../shared/protocol';

export type { EditorToHostMessage, GridBlock, GridToHostMessage } from './messages';

/** A column of the editable grid, in the view's order. */
export interface GridEditColumn extends GridColumn {
  /** The app's column (kinds, rules, choices: the form's inputs are built from it); none for a Lookup app's. */
  column?: Column;
  /** Why the column cannot be edited (read-only kind, a Lookup app's column); the page shows it locked. */
  locked?: string;
}

/** The state of one row: its values as the grid shows them (pending edits included) and its marks. */
export interface GridRowState {
  recordId: string;
  /** One value per column of grid/init, in the API's format. */
  values: string[];
  /** Indices of the columns with a pending edit. */
  pending: number[];
  /** Invalid cells: column index -> the rule's message. */
  problems: Array<[number, string]>;
  /** The portal has a newer copy (or deleted the record) since the row was read. */
  changedOnPortal?: 'changed' | 'deleted';
  /** Held back at the last save: someone else changed the row; Compare / Keep mine / Take theirs. */
  conflict?: string;
  /** Why the last save of the row failed. */
  saveFailure?: string;
  /** A row added in the grid: its record is created at save. */
  isNew?: boolean;
}

/** How this person arranges a view's grid here: the columns' order, those hidden, and how many are frozen. */
export interface ColumnLayout {
  order: string[];
  hidden: string[];
  frozen: number;
}

export interface GridInitMessage {
  type: 'grid/init';
  viewName: string;
  appName: string;
  portalLabel: string;
  columns: GridEditColumn[];
  /** Every row: [record id, value of columns[0], ...]; the rows with pending state follow in grid/rows. */
  rows: string[][];
  /** The page's kept layout of the columns (grid/layout). */
  layout?: ColumnLayout;
  /** What a row added in the grid becomes at save: a draft (apps with Draft mode) or a record. */
  newRows: 'draft' | 'record';
  /** The columns the filters above the grid can name, and the filters the rows were read with. */
  filterColumns: FilterColumn[];
  filters: ViewFilter[];
  /** How far the rows have arrived (none: all of them). */
  load?: GridLoadState;
}

/**
 * How far the view's rows have arrived: `loading` while more are coming (Cancel stops), `done` when all
 * are in, `partial` when the read was cancelled or broke off (`message` says how, and how many were read).
 */
export interface GridLoadState {
  state: 'loading' | 'done' | 'partial';
  /** Rows read so far. */
  count: number;
  message?: string;
}

/** Rows that arrived, appended in this order after the rows the page has: [record id, values...]. */
export interface GridAppendMessage {
  type: 'grid/append';
  rows: string[][];
}

/** Rows whose state changed (an edit, undo, a save, a webhook): each replaces the row's values and marks. */
export interface GridRowsMessage {
  type: 'grid/rows';
  rows: GridRowState[];
  /** Rows gone from the grid (deleted on the portal and released, new rows taken out). */
  removed?: string[];
  /** New rows, appended in this order (their states are among `rows`); applied after `renamed`, before `removed`. */
  added?: string[];
  /** New rows created at save: [placeholder id, the record's id]. */
  renamed?: Array<[string, string]>;
}

/** Brings a record's row into view and makes it the active one (Open as Grid from a reference's hover). */
export interface GridRevealMessage {
  type: 'grid/reveal';
  recordId: string;
}

// What every editor of a view's document (the grid, and the board on the grid's model) is sent, under its
// prefix, beside its own messages.

/** A message for the editor's bar: cells a paste could not fill, the outcome of a save. */
export interface EditorNoticeMessage<P extends string> {
  type: `${P}/notice`;
  level: 'info' | 'error';
  message: string;
}

/** How far the view's rows have arrived. */
export interface EditorLoadMessage<P extends string> {
  type: `${P}/load`;
  load: GridLoadState;
}

/** The view could not be read: the editor shows why, with Retry. */
export interface EditorLoadFailedMessage<P extends string> {
  type: `${P}/loadFailed`;
  message: string;
}

export type GridNoticeMessage = EditorNoticeMessage<'grid'>;
export type GridLoadMessage = EditorLoadMessage<'grid'>;
export type GridLoadFailedMessage = EditorLoadFailedMessage<'grid'>;

export type HostToGridMessage =
  GridInitMessage | GridRowsMessage | GridNoticeMessage | GridLoadFailedMessage | GridAppendMessage | GridLoadMessage | GridRevealMessage;
