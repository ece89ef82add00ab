// The grid's pending changes: per row (record id) the copy of the row as read and the cells changed since,
// keyed by field_id_in_data. Only differences are kept (an edit back to the value as read drops the pending
// change), every pending cell carries the message of the rule it breaks, and an invalid cell blocks only
// its own row. Read-only cells are refused and never become pending. Pure: no vscode, no I/O.
//
// The grid owns its rows (100,000 of them); the change set copies a row only when it is first edited, so
// its memory grows with the edits, not with the view.
//
// A row added in the grid is a pending row too (isNew): no copy as read (every cell starts empty), checked
// as a whole with the rules of creating a record (a required field left empty is marked on its cell),
// kept while it has no edits, and saved by creating the record. Its id is a placeholder ("new-1") until
// then; once created, the placeholder stays an alias of the record's id, so that an undo of an edit made
// before the save reaches the record.
import type { Column, RecordData } from '../../api/types';
import { createBody } from '../../records/changes';
import { cellProblem, columnsByKey, refusal, type ColumnsByKey } from './cellRules';

export interface CellRef {
  readonly recordId: string;
  /** field_id_in_data */
  readonly field: string;
}

/** A value for a cell, in the API's format (what would be sent). */
export interface CellEdit extends CellRef {
  readonly value: string;
}

export interface RefusedCell extends CellEdit {
  readonly message: string;
}

/** One cell's value before and after an edit: what undo and redo put back. */
export interface CellChange extends CellRef {
  readonly before: string;
  readonly after: string;
}

/** The portal's copy of a row changed (webhook) while it had pending edits: kept for the save to resolve. */
export type PortalCopy = Readonly<RecordData> | 'deleted';

export interface PendingRow {
  readonly recordId: string;
  /** The copy of the row as read: the base of the diff and of the conflict check. */
  readonly asRead: Readonly<RecordData>;
  /** Changed cells, field_id_in_data -> value in the API's format. */
  readonly edits: ReadonlyMap<string, string>;
  /** Invalid cells, field_id_in_data -> message. Any entry blocks the row's save. */
  readonly problems: ReadonlyMap<string, string>;
  /** Set when the portal reported a newer copy (or the row's deletion) since the row was read. */
  readonly changedOnPortal: PortalCopy | undefined;
  /** Why the last save of this row failed (the row keeps its edits); cleared by the next edit or save. */
  readonly saveFailure: string | undefined;
  /** A row added in the grid, to be created at save. */
  readonly isNew: boolean;
}

export interface ApplyResult {
  readonly changes: CellChange[];
  readonly refused: RefusedCell[];
  /**
   * Rows marked changed on the portal whose last pending edit went away: the grid takes the portal's copy
   * (or drops the row when it was deleted), as it does for rows without pending edits.
   */
  readonly released: Array<{ recordId: string; copy: PortalCopy }>;
}

/** The grid's current copy of a row (as read, or refreshed while it had no pending edits). */
export type RowCopySource = (recordId: string) => Readonly<RecordData> | undefined;

interface MutableRow {
  recordId: string;
  asRead: Readonly<RecordData>;
  edits: Map<string, string>;
  problems: Map<string, string>;
  changedOnPortal: PortalCopy | undefined;
  saveFailure: string | undefined;
  isNew: boolean;
}

/** Rows added to or taken out of the grid by the change set (new rows), in the order it happened. */
export type RowsEvent = { readonly added: string } | { readonly removed: string } | { readonly created: string; readonly recordId: string };

/** The placeholder id of the n-th row added in a grid. */
export const NEW_ROW_PREFIX = 'new-';

export function isNewRowId(recordId: string): boolean {
  return recordId.startsWith(NEW_ROW_PREFIX);
}

export class ChangeSet {
  readonly columns: readonly Column[];
  private readonly byKey: ColumnsByKey;
  private readonly rowsById = new Map<string, MutableRow>();
  private readonly listeners = new Set<(recordIds: readonly string[]) => void>();
  private readonly rowListeners = new Set<(event: RowsEvent) => void>();
  /** Placeholder id of a created new row -> the record's id. */
  private readonly aliases = new Map<string, string>();
  private newRows = 0;

  constructor(
    columns: readonly Column[],
    private readonly copyOf: RowCopySource,
  ) {
    this.columns = columns;
    this.byKey = columnsByKey(columns);
  }

  /** Called with the record ids whose pending state changed (cells, problems, marks). */
  onDidChange(listener: (recordIds: readonly string[]) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Called when a new row is added, taken out, or created (its placeholder id becomes the record's). */
  onDidChangeRows(listener: (event: RowsEvent) => void): { dispose(): void } {
    this.rowListeners.add(listener);
    return { dispose: () => this.rowListeners.delete(listener) };
  }

  /** The id a cell is named by now: a created new row's placeholder names its record. */
  resolve(recordId: string): string {
    return this.aliases.get(recordId) ?? recordId;
  }

  /** A placeholder id for the next new row. */
  nextNewRowId(): string {
    let id: string;
    do id = `${NEW_ROW_PREFIX}${(this.newRows += 1)}`;
    while (this.rowsById.has(id) || this.aliases.has(id));
    return id;
  }

  /** Adds an empty new row (created at save); false when the id is taken. */
  addRow(recordId: string): boolean {
    if (this.rowsById.has(recordId) || this.aliases.has(recordId) || this.copyOf(recordId)) return false;
    const row: MutableRow = {
      recordId,
      asRead: {},
      edits: new Map(),
      problems: new Map(),
      changedOnPortal: undefined,
      saveFailure: undefined,
      isNew: true,
    };
    this.rowsById.set(recordId, row);
    this.checkNewRow(row);
    this.fireRows({ added: recordId });
    this.fire([recordId]);
    return true;
  }

  /** Takes a new row out (its edits with it); false when it is not a new row (any more). */
  removeNewRow(recordId: string): boolean {
    const row = this.rowsById.get(recordId);
    if (!row?.isNew) return false;
    this.rowsById.delete(recordId);
    this.fireRows({ removed: recordId });
    return true;
  }

  /**
   * The new row was created as record `created` (the portal's copy `copy`) from the fields `sent`: it
   * leaves the change set.
   */
  created(placeholder: string, created: string, copy: Readonly<RecordData>, sent: Readonly<RecordData>): void {
    const row = this.rowsById.get(placeholder);
    if (row && !row.isNew) return;
    // No row: its Add Row was undone while the create was on its way. The record exists all the same, so
    // the grid shows it (and the placeholder names it) rather than losing sight of it.
    this.aliases.set(placeholder, created);
    this.fireRows({ created: placeholder, recordId: created });
    if (!row) return;
    this.rowsById.delete(placeholder);
    // Edits typed while the create ran stay pending, against the record now.
    const late = [...row.edits].filter(([field, value]) => sent[field] !== value && (copy[field] ?? '') !== value);
    if (late.length > 0) for (const [field, value] of late) this.setCell(created, field, value, copy);
    this.fire([created]);
  }

  get isDirty(): boolean {
    return this.rowsById.size > 0;
  }

  /** Number of rows with pending edits. */
  get size(): number {
    return this.rowsById.size;
  }

  rows(): PendingRow[] {
    return [...this.rowsById.values()];
  }

  row(recordId: string): PendingRow | undefined {
    return this.rowsById.get(recordId);
  }

  /** The value the cell shows: the pending edit, else the row's copy. */
  value(recordId: string, field: string): string {
    return this.values(recordId, [field])[0];
  }

  /**
   * The row's value of each field, as value() has it, the row's copy fetched once: `copyOf` (default: the
   * grid's) may parse it from the read's bytes.
   */
  values(recordId: string, fields: readonly string[], copyOf: RowCopySource = this.copyOf): string[] {
    const id = this.resolve(recordId);
    const row = this.rowsById.get(id);
    const copy = row?.asRead ?? copyOf(id);
    return fields.map((field) => row?.edits.get(field) ?? copy?.[field] ?? '');
  }

  isPending(recordId: string, field: string): boolean {
    return this.rowsById.get(this.resolve(recordId))?.edits.has(field) ?? false;
  }

  problem(recordId: string, field: string): string | undefined {
    return this.rowsById.get(this.resolve(recordId))?.problems.get(field);
  }

  /** The app's column with this field_id_in_data (undefined for a view's l<N> keys). */
  column(field: string): Column | undefined {
    return this.byKey.get(field);
  }

  /** Why the column cannot be edited at all (read-only kind, Lookup app's column), or undefined. */
  refusal(field: string): string | undefined {
    return refusal(this.byKey, field);
  }

  /** Why `value` would be invalid in this column, or undefined (the rules of documents and the form). */
  check(field: string, value: string): string | undefined {
    return this.refusal(field) ?? cellProblem(this.byKey, field, value);
  }

  /** Rows that can be saved: pending edits and no invalid cell. */
  savableRows(): PendingRow[] {
    return this.rows().filter((row) => row.problems.size === 0);
  }

  /**
   * Puts values in cells. Invalid values are kept (marked with their message, blocking their row) so that
   * nothing typed is lost; read-only cells and unknown rows are refused and left as they were.
   */
  apply(edits: readonly CellEdit[]): ApplyResult {
    const changes: CellChange[] = [];
    const refused: RefusedCell[] = [];
    const touched = new Set<string>();
    for (const given of edits) {
      const edit = { ...given, recordId: this.resolve(given.recordId) };
      const why =
        this.refusal(edit.field) ??
        (this.copyOf(edit.recordId) || this.rowsById.has(edit.recordId) ? undefined : `record ${edit.recordId} is not in this grid`);
      if (why) {
        refused.push({ ...edit, message: why });
        continue;
      }
      const before = this.value(edit.recordId, edit.field);
      if (before === edit.value) continue;
      this.setCell(edit.recordId, edit.field, edit.value);
      changes.push({ recordId: edit.recordId, field: edit.field, before, after: edit.value });
      touched.add(edit.recordId);
    }
    return { changes, refused, released: this.release(touched) };
  }

  /** Every pending edit dropped and every new row taken out; returns what undo needs to put them back. */
  discardAll(): ApplyResult & { removedRows: string[] } {
    const edits: CellEdit[] = [];
    for (const row of this.rowsById.values())
      for (const field of row.edits.keys()) edits.push({ recordId: row.recordId, field, value: row.asRead[field] ?? '' });
    const result = this.apply(edits);
    const removedRows = [...this.rowsById.values()].filter((row) => row.isNew).map((row) => row.recordId);
    for (const recordId of removedRows) this.removeNewRow(recordId);
    return { ...result, removedRows };
  }

  /**
   * The portal has a newer copy of a row (a webhook event, a refresh). A row without pending edits takes
   * it ('take': the grid replaces its copy); a row with pending edits keeps them untouched and is marked
   * changed on the portal ('marked'), to be resolved at save like any conflict.
   */
  portalChanged(recordId: string, copy: PortalCopy): 'take' | 'marked' {
    const row = this.rowsById.get(recordId);
    if (!row) return 'take';
    row.changedOnPortal = copy;
    this.fire([recordId]);
    return 'marked';
  }

  /**
   * After a save, or "Take theirs": `portalCopy` becomes the row's copy as read. Pending edits whose value the
   * portal now holds are done; others (typed while the save ran, or not sent) stay pending against the
   * new copy. Returns the row's remaining edit count.
   */
  rebase(recordId: string, portalCopy: Readonly<RecordData>, options: { dropEdits?: boolean } = {}): number {
    const row = this.rowsById.get(recordId);
    if (!row) return 0;
    // Merged: a view's row also holds keys the record read does not (l<N> columns of a Lookup app).
    row.asRead = { ...row.asRead, ...portalCopy };
    row.changedOnPortal = undefined;
    row.saveFailure = undefined;
    for (const [field, value] of [...row.edits]) {
      if (options.dropEdits || value === (portalCopy[field] ?? '')) {
        row.edits.delete(field);
        row.problems.delete(field);
      }
    }
    if (row.edits.size === 0) this.rowsById.delete(recordId);
    this.fire([recordId]);
    return row.edits.size;
  }

  /**
   * Cells whose value differs from `copy`, the row's copy on the portal now (a save sent other values while
   * these were undone or typed back): pending against it, to be sent by the next save.
   */
  keepAgainst(copy: Readonly<RecordData>, cells: readonly CellEdit[]): void {
    if (cells.length === 0) return;
    for (const cell of cells) this.setCell(cell.recordId, cell.field, cell.value, copy);
    this.fire([...new Set(cells.map((cell) => cell.recordId))]);
  }

  /** A save of the row failed: it keeps its edits, and says why until the next edit or save. */
  saveFailed(recordId: string, reason: string): void {
    const row = this.rowsById.get(recordId);
    if (!row) return;
    row.saveFailure = reason;
    this.fire([recordId]);
  }

  /** Restores rows as a backup held them (see backup.ts); replaces whatever is pending for those rows. */
  restoreRow(
    recordId: string,
    asRead: Readonly<RecordData>,
    edits: Readonly<RecordData>,
    changedOnPortal: PortalCopy | undefined,
    isNew = false,
  ): RefusedCell[] {
    const row: MutableRow = {
      recordId,
      asRead: isNew ? {} : { ...asRead },
      edits: new Map(),
      problems: new Map(),
      changedOnPortal: isNew ? undefined : changedOnPortal,
      saveFailure: undefined,
      isNew,
    };
    const added = isNew && !this.rowsById.has(recordId);
    this.rowsById.set(recordId, row);
    if (added) this.fireRows({ added: recordId });
    const refused: RefusedCell[] = [];
    for (const [field, value] of Object.entries(edits)) {
      const why = this.refusal(field);
      if (why) refused.push({ recordId, field, value, message: why });
      else if (value !== (asRead[field] ?? '')) this.setCell(recordId, field, value);
    }
    if (isNew) this.checkNewRow(row);
    else if (row.edits.size === 0) this.rowsById.delete(recordId);
    this.fire([recordId]);
    return refused;
  }

  private setCell(recordId: string, field: string, value: string, copy?: Readonly<RecordData>): void {
    let row = this.rowsById.get(recordId);
    if (!row) {
      row = {
        recordId,
        asRead: { ...(copy ?? this.copyOf(recordId) ?? {}) },
        edits: new Map(),
        problems: new Map(),
        changedOnPortal: undefined,
        saveFailure: undefined,
        isNew: false,
      };
      this.rowsById.set(recordId, row);
    }
    row.saveFailure = undefined;
    if (row.isNew) {
      if (value === '') row.edits.delete(field);
      else row.edits.set(field, value);
      this.checkNewRow(row);
      return;
    }
    if (value === (row.asRead[field] ?? '')) {
      row.edits.delete(field);
      row.problems.delete(field);
    } else {
      row.edits.set(field, value);
      const problem = cellProblem(this.byKey, field, value);
      if (problem) row.problems.set(field, problem);
      else row.problems.delete(field);
    }
  }

  /** A new row's cells checked together, as a create is: a required field left empty is marked too. */
  private checkNewRow(row: MutableRow): void {
    row.problems.clear();
    for (const problem of createBody(this.columns, Object.fromEntries(row.edits)).problems)
      if (!row.problems.has(problem.field)) row.problems.set(problem.field, problem.message);
  }

  /** Drops rows left without edits (new rows stay); hands back the portal's copy of those that were marked. */
  private release(touched: ReadonlySet<string>): ApplyResult['released'] {
    const released: ApplyResult['released'] = [];
    for (const recordId of touched) {
      const row = this.rowsById.get(recordId);
      if (!row || row.isNew || row.edits.size > 0) continue;
      this.rowsById.delete(recordId);
      if (row.changedOnPortal) released.push({ recordId, copy: row.changedOnPortal });
    }
    if (touched.size > 0) this.fire([...touched]);
    return released;
  }

  private fireRows(event: RowsEvent): void {
    for (const listener of this.rowListeners) listener(event);
  }

  private fire(recordIds: readonly string[]): void {
    for (const listener of this.listeners) listener(recordIds);
  }
}
