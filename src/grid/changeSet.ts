// The grid's pending changes: per row (record id) the copy of the row as read and the cells changed since,
// keyed by field_id_in_data. Only differences are kept (an edit back to the value as read drops the pending
// change), every pending cell carries the message of the rule it breaks, and an invalid cell blocks only
// its own row. Read-only cells are refused and never become pending. Pure: no vscode, no I/O.
//
// The grid owns its rows (100,000 of them); the change set copies a row only when it is first edited, so
// its memory grows with the edits, not with the view.
import type { Column, RecordData } from '../api/types';
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
}

export class ChangeSet {
  readonly columns: readonly Column[];
  private readonly byKey: ColumnsByKey;
  private readonly rowsById = new Map<string, MutableRow>();
  private readonly listeners = new Set<(recordIds: readonly string[]) => void>();

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
    const row = this.rowsById.get(recordId);
    const pending = row?.edits.get(field);
    if (pending !== undefined) return pending;
    return (row?.asRead ?? this.copyOf(recordId))?.[field] ?? '';
  }

  isPending(recordId: string, field: string): boolean {
    return this.rowsById.get(recordId)?.edits.has(field) ?? false;
  }

  problem(recordId: string, field: string): string | undefined {
    return this.rowsById.get(recordId)?.problems.get(field);
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
    for (const edit of edits) {
      const why = this.refusal(edit.field) ?? (this.copyOf(edit.recordId) || this.rowsById.has(edit.recordId) ? undefined : `record ${edit.recordId} is not in this grid`);
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

  /** Every pending edit dropped; returns what undo needs to put them back. */
  discardAll(): ApplyResult {
    const edits: CellEdit[] = [];
    for (const row of this.rowsById.values()) for (const field of row.edits.keys()) edits.push({ recordId: row.recordId, field, value: row.asRead[field] ?? '' });
    return this.apply(edits);
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
   * After a save, or "Take theirs": `current` becomes the row's copy as read. Pending edits whose value the
   * portal now holds are done; others (typed while the save ran, or not sent) stay pending against the
   * new copy. Returns the row's remaining edit count.
   */
  rebase(recordId: string, current: Readonly<RecordData>, options: { dropEdits?: boolean } = {}): number {
    const row = this.rowsById.get(recordId);
    if (!row) return 0;
    // Merged: a view's row also holds keys the record read does not (l<N> columns of a Lookup app).
    row.asRead = { ...row.asRead, ...current };
    row.changedOnPortal = undefined;
    row.saveFailure = undefined;
    for (const [field, value] of [...row.edits]) {
      if (options.dropEdits || value === (current[field] ?? '')) {
        row.edits.delete(field);
        row.problems.delete(field);
      }
    }
    if (row.edits.size === 0) this.rowsById.delete(recordId);
    this.fire([recordId]);
    return row.edits.size;
  }

  /** A save of the row failed: it keeps its edits, and says why until the next edit or save. */
  saveFailed(recordId: string, reason: string): void {
    const row = this.rowsById.get(recordId);
    if (!row) return;
    row.saveFailure = reason;
    this.fire([recordId]);
  }

  /** Restores rows as a backup held them (see backup.ts); replaces whatever is pending for those rows. */
  restoreRow(recordId: string, asRead: Readonly<RecordData>, edits: Readonly<RecordData>, changedOnPortal: PortalCopy | undefined): RefusedCell[] {
    const row: MutableRow = { recordId, asRead: { ...asRead }, edits: new Map(), problems: new Map(), changedOnPortal, saveFailure: undefined };
    this.rowsById.set(recordId, row);
    const refused: RefusedCell[] = [];
    for (const [field, value] of Object.entries(edits)) {
      const why = this.refusal(field);
      if (why) refused.push({ recordId, field, value, message: why });
      else if (value !== (asRead[field] ?? '')) this.setCell(recordId, field, value);
    }
    if (row.edits.size === 0) this.rowsById.delete(recordId);
    this.fire([recordId]);
    return refused;
  }

  private setCell(recordId: string, field: string, value: string): void {
    let row = this.rowsById.get(recordId);
    if (!row) {
      const copy = this.copyOf(recordId) ?? {};
      row = { recordId, asRead: { ...copy }, edits: new Map(), problems: new Map(), changedOnPortal: undefined, saveFailure: undefined };
      this.rowsById.set(recordId, row);
    }
    row.saveFailure = undefined;
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

  /** Drops rows left without edits; hands back the portal's copy of those that were marked. */
  private release(touched: ReadonlySet<string>): ApplyResult['released'] {
    const released: ApplyResult['released'] = [];
    for (const recordId of touched) {
      const row = this.rowsById.get(recordId);
      if (!row || row.edits.size > 0) continue;
      this.rowsById.delete(recordId);
      if (row.changedOnPortal) released.push({ recordId, copy: row.changedOnPortal });
    }
    if (touched.size > 0) this.fire([...touched]);
    return released;
  }

  private fire(recordIds: readonly string[]): void {
    for (const listener of this.listeners) listener(recordIds);
  }
}
