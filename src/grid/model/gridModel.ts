// One open grid of a view, without `vscode`: the view's rows as read (the grid's copies, in the portal's
// order: kept in the read's RowStore and parsed when asked for, rowCopies.ts), the change set and undo
// history over them, the conflicts the last save held back, and the row states the page shows. The custom
// editor (src/grid/host/) is a thin adapter on it; dispose() when the grid closes.
//
// The rows may arrive in batches (the view read as it arrives): appendRows adds each at the end, so a row's
// position never moves while the page and the host both count positions (a pasted block names rows by
// them). A read again (filters, Retry, a refresh) shows the rows with pending edits and the new rows
// first, from its first rows on (pinned), and the rows it reaches after them, so nothing pending is hidden
// while it runs and nothing moves when it reaches or ends without a pinned row.
import type { ViewRow } from '../../api/answers';
import type { Column, RecordData } from '../../api/types';
import type { GridEditColumn, GridRowState } from '../protocol';
import type { AppRecords } from '../../records/store';
import { backupOf, restoreBackup, type GridBackup } from './backup';
import { copyText, type CellRange, type GridLayout } from './blockEdits';
import { readAgainAndMark } from './changedOnPortal';
import { ChangeSet, type CellEdit, type PendingRow, type PortalCopy, type RefusedCell, type RowsEvent } from './changeSet';
import type { CopyFormat } from './clipboardText';
import { differs, keepMine, takeTheirs, type Conflict } from './conflicts';
import { EditHistory, type TransactionKind } from './editHistory';
import { RowCopies, type RowsSource } from './rowCopies';
import { saveChanges, type SaveOptions, type SaveReport, type SaveSummary } from './saveRunner';

export type { SaveSummary } from './saveRunner';

/**
 * The editors (the grid's host, the board) use the model's operations below; its parts (`changeSet`,
 * `history`, `conflicts`) stay readable for the tests that look at them.
 */
export class GridModel {
  readonly changeSet: ChangeSet;
  readonly history: EditHistory;
  /** Record ids in display order (the portal's order of the view). */
  private rowIds: string[];
  /** The ids in rowIds: a row saved or refreshed before it arrived has a copy, and must still be listed when it does. */
  private readonly listed = new Set<string>();
  /** Rows a backup restored before they arrived: checked against the portal's copy when they do. */
  private readonly restoredUnread = new Set<string>();
  /** The pending and new rows the last read again found (replaceRows), shown first. */
  private readonly pinned = new Set<string>();
  /** The rows' copies: parsed on demand from the read's store, objects only where they differ (rowCopies.ts). */
  private readonly copies = new RowCopies();
  /** New rows added, taken out or created since the page was last told (takeRowEvents). */
  private rowEvents: RowsEvent[] = [];
  /** Held back by the last save, by record id; cleared when resolved or edited away. */
  readonly conflicts = new Map<string, Conflict>();

  private columnList: readonly GridEditColumn[];

  /**
   * `columns`: the grid's, in the view's order; each gets `locked` when the API cannot set it. `source`:
   * the read's store the rows came from (kept, and the copies parsed from it); without it the rows are kept
   * as objects.
   */
  constructor(columns: readonly GridEditColumn[], appColumns: readonly Column[], rows: readonly ViewRow[], source?: RowsSource) {
    this.rowIds = [];
    this.copies.replace(source?.store, source?.release);
    this.takeRows(rows, source);
    this.changeSet = new ChangeSet(appColumns, (recordId) => this.copies.get(recordId));
    this.history = new EditHistory(this.changeSet);
    // New rows go last, in the order they are added (the page appends them in the same order).
    this.changeSet.onDidChangeRows((event) => {
      this.rowEvents.push(event);
      if ('added' in event) this.list(event.added);
      else if ('removed' in event) this.dropRowId(event.removed);
      else {
        const at = this.rowIds.lastIndexOf(event.created);
        this.listed.delete(event.created);
        if (at >= 0) {
          this.rowIds[at] = event.recordId;
          this.listed.add(event.recordId);
        } else this.list(event.recordId); // taken out while it was being created: shown again, last
      }
    });
    this.columnList = this.locked(columns);
  }

  get columns(): readonly GridEditColumn[] {
    return this.columnList;
  }

  /**
   * The view's columns as its metadata says, once it has arrived (it follows the rows: until then the
   * columns were the first row's keys). Edits are kept by field, so they stay as they are. False when
   * they are the same.
   */
  replaceColumns(columns: readonly GridEditColumn[]): boolean {
    const next = this.locked(columns);
    if (JSON.stringify(next) === JSON.stringify(this.columnList)) return false;
    this.columnList = next;
    return true;
  }

  private locked(columns: readonly GridEditColumn[]): GridEditColumn[] {
    return columns.map((column) => {
      const locked = this.changeSet.refusal(column.key);
      return locked ? { ...column, locked } : column;
    });
  }

  /**
   * More rows of the view arrived: each is added at the end (a row already there is left where it is).
   * A row a backup restored before it arrived is checked now, as restoreBackup checks the others.
   * Returns the ids added, in order. `source`: where the rows are in the read's store (the one the grid was
   * built or last replaced with).
   */
  appendRows(rows: readonly ViewRow[], source?: RowsSource): string[] {
    const added: string[] = [];
    for (const [position, row] of rows.entries()) {
      const recordId = row.id;
      if (recordId === undefined) continue;
      // A copy already held is newer than this read (a save or a refresh of the row before it arrived); a
      // pinned row takes the read's copy in place, and is not added twice.
      this.copies.add(recordId, row, position, source);
      if (this.restoredUnread.delete(recordId)) this.checkRestored(recordId);
      if (this.listed.has(recordId)) continue;
      this.list(recordId);
      added.push(recordId);
    }
    return added;
  }

  /**
   * The read has ended: pending rows it left out that were not pinned, then new rows added meanwhile, go
   * after the view's rows (pinned rows stay where they are). Returns the ids appended, or 'reordered' when
   * rows already listed moved (a new row re-added while the rows were arriving): then the page starts over.
   */
  finishRows(): string[] | 'reordered' {
    this.restoredUnread.clear();
    const before = [...this.rowIds];
    this.keepPendingInSight();
    this.rowEvents = [];
    if (before.some((recordId, index) => this.rowIds[index] !== recordId)) return 'reordered';
    return this.rowIds.slice(before.length);
  }

  /**
   * The view read again (other filters): its rows replace the grid's. The change set and the undo history
   * stay, and the rows with pending edits and the new rows come first, in the order they were shown, with
   * their copies as read until the new rows bring them: nothing pending is hidden while more rows arrive,
   * and no row moves when they do (the page appends them). The previous read's store is released
   * (`source`: the new one).
   */
  replaceRows(rows: readonly ViewRow[], { more = false, source }: { more?: boolean; source?: RowsSource } = {}): void {
    const shown = this.rowIds;
    this.unlistAll();
    this.pinned.clear();
    this.copies.replace(source?.store, source?.release);
    for (const recordId of shown) this.pin(this.changeSet.row(recordId));
    for (const row of this.changeSet.rows()) this.pin(row);
    this.takeRows(rows, source);
    // More rows are coming: the pending ones go after them, at finishRows.
    if (!more) this.keepPendingInSight();
    this.rowEvents = [];
  }

  /**
   * Puts a backup's pending changes back into the grid just read: a pending row the view no longer has
   * stays in sight, and a row whose copy moved on since it was read is marked changed on the portal (the
   * grid shows the portal's values beside the restored edits). Returns the edits the columns refuse now.
   */
  restoreBackup(backup: GridBackup, { more = false }: { more?: boolean } = {}): RefusedCell[] {
    const refused = restoreBackup(this.changeSet, backup);
    // More rows are coming: the restored rows not among the first go first, as a read again pins them.
    const first = more ? this.rowIds : [];
    if (more) this.unlistAll();
    for (const row of this.changeSet.rows()) {
      if (!row.isNew && this.copies.has(row.recordId)) this.checkRestored(row.recordId);
      else if (more) {
        if (!row.isNew) this.restoredUnread.add(row.recordId);
        this.pin(row);
      }
    }
    for (const recordId of first) if (!this.listed.has(recordId)) this.list(recordId);
    if (!more) this.keepPendingInSight();
    this.rowEvents = [];
    return refused;
  }

  /** A restored row whose copy moved on since it was read is marked changed on the portal. */
  private checkRestored(recordId: string): void {
    const row = this.changeSet.row(recordId);
    const copy = this.copies.get(recordId);
    if (row && !row.isNew && copy && !row.changedOnPortal && differs(row.asRead, copy)) this.changeSet.portalChanged(recordId, copy);
  }

  /** Lists a pending or new row ahead of the rows to come, with its copy as read (shared, not copied: a fill may leave many pending). */
  private pin(row: PendingRow | undefined): void {
    if (!row || this.listed.has(row.recordId)) return;
    this.list(row.recordId);
    this.pinned.add(row.recordId);
    if (!row.isNew) this.copies.pin(row.recordId, row.asRead);
  }

  private list(recordId: string): void {
    this.rowIds.push(recordId);
    this.listed.add(recordId);
  }

  private unlistAll(): void {
    this.rowIds = [];
    this.listed.clear();
  }

  /** Pending rows the grid's rows leave out go after them, then the new rows not pinned: nothing pending is hidden. */
  private keepPendingInSight(): void {
    const pending = this.changeSet.rows();
    const added = new Set(pending.filter((row) => row.isNew && !this.pinned.has(row.recordId)).map((row) => row.recordId));
    this.rowIds = this.rowIds.filter((recordId) => !added.has(recordId));
    for (const recordId of added) this.listed.delete(recordId);
    for (const row of pending) {
      if (row.isNew || this.listed.has(row.recordId)) continue;
      this.list(row.recordId);
      if (!this.copies.has(row.recordId)) this.copies.set(row.recordId, { ...row.asRead });
    }
    for (const recordId of added) this.list(recordId);
  }

  private takeRows(rows: readonly ViewRow[], source: RowsSource | undefined): void {
    for (const [position, row] of rows.entries()) {
      if (row.id === undefined) continue;
      if (!this.listed.has(row.id)) this.list(row.id);
      this.copies.add(row.id, row, position, source);
    }
  }

  /** The grid is closed: the read's store is released. */
  dispose(): void {
    this.copies.dispose();
  }

  get rowCount(): number {
    return this.rowIds.length;
  }

  /** The grid's layout for block actions: its rows, and the columns the page shows in its order. */
  layout(columnKeys: readonly string[]): GridLayout {
    const byKey = new Map(this.columns.map((column) => [column.key, column.name]));
    return {
      rowIds: this.rowIds,
      columns: columnKeys.filter((key) => byKey.has(key)).map((key) => ({ key, name: byKey.get(key) ?? key })),
    };
  }

  /** The rows for the page, [from, to) in the order shown (every row by default): [record id, values...] as the grid shows them. */
  initialRows(from = 0, to = this.rowIds.length): string[][] {
    return this.rowArrays(from === 0 && to >= this.rowIds.length ? this.rowIds : this.rowIds.slice(from, to));
  }

  /** The rows of `recordIds` for the page, as initialRows has them. */
  rowArrays(recordIds: readonly string[]): string[][] {
    return recordIds.map((recordId) => [recordId, ...this.values(recordId)]);
  }

  /** Whether the row shown is still the previous read's copy, which the read under way will replace. */
  awaitsNewCopy(recordId: string): boolean {
    return this.copies.isPinned(recordId);
  }

  hasRow(recordId: string): boolean {
    return this.listed.has(recordId) || this.changeSet.row(recordId)?.isNew === true;
  }

  /** New rows added, taken out or created (renamed to their record's id) since the last call, in order. */
  takeRowEvents(): RowsEvent[] {
    const events = this.rowEvents;
    this.rowEvents = [];
    return events;
  }

  /** The grid's copy of the row (as read, or refreshed), without pending edits. */
  copyOf(recordId: string): RecordData | undefined {
    return this.copies.get(recordId);
  }

  /** The rows with any mark: pending edits, conflicts. */
  markedRowIds(): string[] {
    return [...new Set([...this.changeSet.rows().map((row) => row.recordId), ...this.conflicts.keys()])];
  }

  rowState(recordId: string): GridRowState {
    const row = this.changeSet.row(recordId);
    const pending: number[] = [];
    const problems: Array<[number, string]> = [];
    this.columns.forEach((column, index) => {
      if (row?.edits.has(column.key)) pending.push(index);
      const problem = row?.problems.get(column.key);
      if (problem) problems.push([index, problem]);
    });
    const conflict = this.conflicts.get(recordId);
    const changed = row?.changedOnPortal;
    return {
      recordId,
      values: this.values(recordId),
      pending,
      problems,
      ...(changed ? { changedOnPortal: changed === 'deleted' ? 'deleted' : 'changed' } : {}),
      ...(conflict ? { conflict: conflictText(conflict, this.columns) } : {}),
      ...(row?.saveFailure ? { saveFailure: row.saveFailure } : {}),
      ...(row?.isNew ? { isNew: true } : {}),
    };
  }

  /**
   * The portal has a newer copy of a row (a webhook). A row without pending edits takes it at once; a row
   * with pending edits is left untouched and marked. Returns what the page must redraw.
   */
  portalChanged(recordId: string, copy: PortalCopy): { changed: string[]; removed: string[] } {
    if (!this.copies.has(recordId)) return { changed: [], removed: [] };
    // The portal holds what the row was read as (e.g. the webhook of our own earlier save, arriving after a
    // new edit): nothing to mark.
    const row = this.changeSet.row(recordId);
    if (row && copy !== 'deleted' && !differs(row.asRead, copy)) return { changed: [], removed: [] };
    if (this.changeSet.portalChanged(recordId, copy) === 'marked') return { changed: [recordId], removed: [] };
    return this.take(recordId, copy);
  }

  /** Rows released by an edit or undo (marked rows whose edits went away) take the portal's copy. */
  release(released: ReadonlyArray<{ recordId: string; copy: PortalCopy }>): { changed: string[]; removed: string[] } {
    const changed: string[] = [];
    const removed: string[] = [];
    for (const { recordId, copy } of released) {
      const result = this.take(recordId, copy);
      changed.push(...result.changed);
      removed.push(...result.removed);
    }
    return { changed, removed };
  }

  /** After a save: saved rows take what the portal now holds; conflicts are kept for Compare / Keep mine / Take theirs. */
  afterSave(report: SaveReport): SaveSummary {
    const count = { saved: 0, created: 0, conflicts: 0, failed: 0, deleted: 0, cancelled: 0 };
    for (const outcome of report.outcomes) {
      switch (outcome.kind) {
        case 'saved': {
          count.saved += 1;
          this.conflicts.delete(outcome.recordId);
          this.copies.set(outcome.recordId, { ...this.copies.get(outcome.recordId), ...outcome.portalCopy, ...outcome.sent });
          break;
        }
        case 'created':
          count.saved += 1;
          count.created += 1;
          this.copies.set(outcome.created, { ...outcome.copy });
          break;
        case 'conflict':
          count.conflicts += 1;
          this.conflicts.set(outcome.recordId, outcome.conflict);
          break;
        case 'deleted':
          count.deleted += 1;
          break;
        case 'failed':
          count.failed += 1;
          break;
        case 'cancelled':
          count.cancelled += 1;
          break;
      }
    }
    const accounted = new Set([
      ...report.blocked,
      ...report.outcomes.filter((outcome) => outcome.kind !== 'saved' && outcome.kind !== 'created').map((outcome) => outcome.recordId),
    ]);
    const unsent = this.changeSet.rows().filter((row) => !accounted.has(row.recordId)).length;
    return { ...count, blocked: report.blocked.length, unsent };
  }

  /** Take theirs (or a released row): the grid's copy becomes the portal's. */
  take(recordId: string, copy: PortalCopy): { changed: string[]; removed: string[] } {
    this.conflicts.delete(recordId);
    if (copy === 'deleted') {
      this.copies.delete(recordId);
      this.dropRowId(recordId);
      return { changed: [], removed: [recordId] };
    }
    this.copies.set(recordId, { ...this.copies.get(recordId), ...copy });
    return { changed: [recordId], removed: [] };
  }

  // ---- the operations of the editors (the grid's host, the board) ----

  /** The rows with pending changes: edits, or new rows. */
  pendingRows(): PendingRow[] {
    return this.changeSet.rows();
  }

  /** How many rows a save sends: pending, without an invalid cell. */
  savableCount(): number {
    return this.changeSet.savableRows().length;
  }

  /** Whether a discard would drop anything: a pending change, or a conflict held back. */
  hasChanges(): boolean {
    return this.changeSet.size > 0 || this.conflicts.size > 0;
  }

  /** Whether the row has a mark: a pending change, or a conflict held back. */
  isMarked(recordId: string): boolean {
    return this.changeSet.row(recordId) !== undefined || this.conflicts.has(recordId);
  }

  /** The conflict the last save held back for the row. */
  conflictOf(recordId: string): Conflict | undefined {
    return this.conflicts.get(recordId);
  }

  /** The row's values of `fields` as the grid shows them (pending edits included). */
  fieldValues(recordId: string, fields: readonly string[]): string[] {
    return this.changeSet.values(recordId, fields);
  }

  /** The app's column with this field_id_in_data (undefined for a view's l<N> keys). */
  appColumn(field: string): Column | undefined {
    return this.changeSet.column(field);
  }

  /** The id a row goes by now: a new row's record id once it was created, else `recordId`. */
  currentId(recordId: string): string {
    return this.changeSet.resolve(recordId);
  }

  /** One user action as one transaction of the undo history. */
  edit(kind: TransactionKind, label: string, edits: readonly CellEdit[]): ReturnType<EditHistory['edit']> {
    return this.history.edit(kind, label, edits);
  }

  /** An empty row at the end, created at save; one step of the undo history. */
  addRow(): ReturnType<EditHistory['addRow']> {
    return this.history.addRow();
  }

  undo(transaction: Parameters<EditHistory['undo']>[0]): ReturnType<EditHistory['undo']> {
    return this.history.undo(transaction);
  }

  redo(transaction: Parameters<EditHistory['redo']>[0]): ReturnType<EditHistory['redo']> {
    return this.history.redo(transaction);
  }

  /** Every pending change, conflict and undo step dropped; the rows released take their copies. */
  discardAll(): void {
    this.release(this.changeSet.discardAll().released);
    this.conflicts.clear();
    this.history.clear();
  }

  /** Keep mine: my edits stand against the portal's copy (sent by the next save). */
  keepMine(recordId: string): void {
    const conflict = this.conflicts.get(recordId);
    if (!conflict) throw new Error(`Record ${recordId} has no conflict to resolve.`);
    keepMine(this.changeSet, conflict);
    this.take(recordId, conflict.portalCopy);
  }

  /** Take theirs: my edits of the row are dropped; the row shows the portal's copy. */
  takeTheirs(recordId: string): { changed: string[]; removed: string[] } {
    const copy = this.conflicts.get(recordId)?.portalCopy ?? this.changeSet.row(recordId)?.changedOnPortal;
    if (!copy) throw new Error(`Record ${recordId} has no copy from the portal to take.`);
    takeTheirs(this.changeSet, recordId, copy);
    return this.take(recordId, copy);
  }

  /** The pending changes as a backup of the grid of `viewId`. */
  backup(appId: string, viewId: string): GridBackup {
    return backupOf(this.changeSet, appId, viewId);
  }

  /** The cells of `selection` in `layout` (pending edits included) as clipboard text. */
  copyText(layout: GridLayout, selection: CellRange, format: CopyFormat, options: Parameters<typeof copyText>[4]): string {
    return copyText(this.changeSet, layout, selection, format, options);
  }

  /** Sends the pending rows through `store` (saveRunner.ts); afterSave() takes the report. */
  send(store: AppRecords, options?: SaveOptions): Promise<SaveReport> {
    return saveChanges(this.changeSet, store, options);
  }

  /** After a bulk change: the rows with pending edits among `recordIds` marked where the portal moved (changedOnPortal.ts). */
  readAgainAndMark(
    recordIds: readonly string[],
    read: Parameters<typeof readAgainAndMark>[2],
    readCurrent: Parameters<typeof readAgainAndMark>[3],
  ): ReturnType<typeof readAgainAndMark> {
    return readAgainAndMark(this.changeSet, recordIds, read, readCurrent);
  }

  private dropRowId(recordId: string): void {
    const at = this.rowIds.lastIndexOf(recordId);
    if (at >= 0) this.rowIds.splice(at, 1);
    this.listed.delete(recordId);
    this.pinned.delete(recordId);
  }

  /** The row's cells for the page: its copy read once and not kept for the task (every cell is read now). */
  private values(recordId: string): string[] {
    return this.changeSet.values(
      recordId,
      this.columns.map((column) => column.key),
      (id) => this.copies.get(id, true),
    );
  }
}

/** "Changed on the portal: Status, Amount (also changed here)" for the row's conflict mark. */
function conflictText(conflict: Conflict, columns: readonly GridEditColumn[]): string {
  const names = conflict.theirFields.map((field) => columns.find((column) => column.key === field)?.name ?? field);
  const overlap = conflict.overlap === 'same-fields' ? ', a field you changed too' : '';
  return `Someone else changed this record since it was read (${names.join(', ')}${overlap}). Compare, Keep mine or Take theirs.`;
}
