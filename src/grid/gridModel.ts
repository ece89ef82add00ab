// One open grid of a view, without `vscode`: the view's rows as read (the grid's copies, in the portal's
// order), the change set and undo history over them, the conflicts the last save held back, and the row
// states the page shows. The custom editor (src/webviews/grid/) is a thin adapter on it.
import type { ViewRow } from '../api/answers';
import type { Column, RecordData } from '../api/types';
import type { GridEditColumn, GridRowState } from '../shared/protocol';
import { restoreBackup, type GridBackup } from './backup';
import type { GridLayout } from './blockEdits';
import { ChangeSet, type PortalCopy, type RefusedCell, type RowsEvent } from './changeSet';
import { differs, type Conflict } from './conflicts';
import { EditHistory } from './editHistory';
import type { SaveReport } from './saveRunner';

export interface SaveSummary {
  /** Rows saved, new rows created among them. */
  readonly saved: number;
  /** New rows created (counted in `saved` too). */
  readonly created: number;
  readonly conflicts: number;
  readonly failed: number;
  readonly deleted: number;
  readonly blocked: number;
  readonly cancelled: number;
  /**
   * Rows still pending for none of the reasons above: typed into while the save ran. They keep the tab
   * dirty (VS Code marks every edit up to the save's end as saved when the save succeeds).
   */
  readonly unsent: number;
}

export class GridModel {
  readonly changeSet: ChangeSet;
  readonly history: EditHistory;
  /** Record ids in display order (the portal's order of the view). */
  private rowIds: string[];
  private readonly copies = new Map<string, RecordData>();
  /** New rows added, taken out or created since the page was last told (takeRowEvents). */
  private rowEvents: RowsEvent[] = [];
  /** Held back by the last save, by record id; cleared when resolved or edited away. */
  readonly conflicts = new Map<string, Conflict>();

  readonly columns: readonly GridEditColumn[];

  /** `columns`: the grid's, in the view's order; each gets `locked` when the API cannot set it. */
  constructor(columns: readonly GridEditColumn[], appColumns: readonly Column[], rows: readonly ViewRow[]) {
    this.rowIds = [];
    this.takeRows(rows);
    this.changeSet = new ChangeSet(appColumns, (recordId) => this.copies.get(recordId));
    this.history = new EditHistory(this.changeSet);
    // New rows go last, in the order they are added (the page appends them in the same order).
    this.changeSet.onDidChangeRows((event) => {
      this.rowEvents.push(event);
      if ('added' in event) this.rowIds.push(event.added);
      else if ('removed' in event) this.dropRowId(event.removed);
      else {
        const at = this.rowIds.lastIndexOf(event.created);
        if (at >= 0) this.rowIds[at] = event.recordId;
        else this.rowIds.push(event.recordId); // taken out while it was being created: shown again, last
      }
    });
    this.columns = columns.map((column) => {
      const locked = this.changeSet.refusal(column.key);
      return locked ? { ...column, locked } : column;
    });
  }

  /**
   * The view read again (other filters): its rows replace the grid's. The change set and the undo history
   * stay; a row with pending edits that the new rows leave out stays in sight after them, and new rows
   * stay last, so nothing pending is hidden.
   */
  replaceRows(rows: readonly ViewRow[]): void {
    this.rowIds = [];
    this.copies.clear();
    this.takeRows(rows);
    this.keepPendingInSight();
    this.rowEvents = [];
  }

  /**
   * Puts a backup's pending changes back into the grid just read: a pending row the view no longer has
   * stays in sight, and a row whose copy moved on since it was read is marked changed on the portal (the
   * grid shows the portal's values beside the restored edits). Returns the edits the columns refuse now.
   */
  restoreBackup(backup: GridBackup): RefusedCell[] {
    const refused = restoreBackup(this.changeSet, backup);
    for (const row of this.changeSet.rows()) {
      const copy = this.copies.get(row.recordId);
      if (!row.isNew && copy && !row.changedOnPortal && differs(row.asRead, copy)) this.changeSet.portalChanged(row.recordId, copy);
    }
    this.keepPendingInSight();
    this.rowEvents = [];
    return refused;
  }

  /** Pending rows the grid's rows leave out go after them, then the new rows: nothing pending is hidden. */
  private keepPendingInSight(): void {
    const pending = this.changeSet.rows();
    const added = new Set(pending.filter((row) => row.isNew).map((row) => row.recordId));
    this.rowIds = this.rowIds.filter((recordId) => !added.has(recordId));
    for (const row of pending) {
      if (row.isNew || this.copies.has(row.recordId)) continue;
      this.rowIds.push(row.recordId);
      this.copies.set(row.recordId, { ...row.asRead });
    }
    this.rowIds.push(...added);
  }

  private takeRows(rows: readonly ViewRow[]): void {
    for (const row of rows) {
      if (row.id === undefined || this.copies.has(row.id)) continue;
      this.rowIds.push(row.id);
      this.copies.set(row.id, { ...row.values });
    }
  }

  get rowCount(): number {
    return this.rowIds.length;
  }

  /** The grid's layout for block actions: its rows, and the columns the page shows in its order. */
  layout(columnKeys: readonly string[]): GridLayout {
    const byKey = new Map(this.columns.map((column) => [column.key, column.name]));
    return { rowIds: this.rowIds, columns: columnKeys.filter((key) => byKey.has(key)).map((key) => ({ key, name: byKey.get(key) ?? key })) };
  }

  /** Every row for the page: [record id, values...] as the grid shows them. */
  initialRows(): string[][] {
    return this.rowIds.map((recordId) => [recordId, ...this.values(recordId)]);
  }

  hasRow(recordId: string): boolean {
    return this.copies.has(recordId) || this.changeSet.row(recordId)?.isNew === true;
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
  afterSave(report: SaveReport, sentCopies: ReadonlyMap<string, RecordData>): SaveSummary {
    const count = { saved: 0, created: 0, conflicts: 0, failed: 0, deleted: 0, cancelled: 0 };
    for (const outcome of report.outcomes) {
      switch (outcome.kind) {
        case 'saved': {
          count.saved += 1;
          this.conflicts.delete(outcome.recordId);
          const current = sentCopies.get(outcome.recordId) ?? {};
          this.copies.set(outcome.recordId, { ...this.copies.get(outcome.recordId), ...current, ...outcome.sent });
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
    const accounted = new Set([...report.blocked, ...report.outcomes.filter((outcome) => outcome.kind !== 'saved' && outcome.kind !== 'created').map((outcome) => outcome.recordId)]);
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

  private dropRowId(recordId: string): void {
    const at = this.rowIds.lastIndexOf(recordId);
    if (at >= 0) this.rowIds.splice(at, 1);
  }

  private values(recordId: string): string[] {
    return this.columns.map((column) => this.changeSet.value(recordId, column.key));
  }
}

/** "Changed on the portal: Status, Amount (also changed here)" for the row's conflict mark. */
function conflictText(conflict: Conflict, columns: readonly GridEditColumn[]): string {
  const names = conflict.theirFields.map((field) => columns.find((column) => column.key === field)?.name ?? field);
  const overlap = conflict.overlap === 'same-fields' ? ', a field you changed too' : '';
  return `Someone else changed this record since it was read (${names.join(', ')}${overlap}). Compare, Keep mine or Take theirs.`;
}
