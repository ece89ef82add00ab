// A view opened as a grid: VS Code's custom document for it. It holds the grid's model (src/grid/gridModel.ts)
// and turns each change into what VS Code's editor model expects: every edit, paste, fill or clear is one
// CustomDocumentEditEvent (Undo/Redo call back into the edit history with that transaction); save sends
// the changed rows (saveChanges: a bounded number at once, conflicts held back); revert reads the view
// again; a backup is the change set as JSON (src/grid/backup.ts), restored when VS Code reopens the tab.
import * as vscode from 'vscode';
import type { ViewRead } from '../../api/client';
import type { ViewFilter } from '../../api/filters';
import { isCancellation } from '../../api/errors';
import type { Column, RecordData } from '../../api/types';
import type { Stores } from '../../catalog/stores';
import { backupOf, parseBackup, serializeBackup, type GridBackup } from '../../grid/backup';
import type { CellEdit } from '../../grid/changeSet';
import { differs, keepMine, takeTheirs } from '../../grid/conflicts';
import type { Transaction, TransactionKind } from '../../grid/editHistory';
import { GridModel, type SaveSummary } from '../../grid/gridModel';
import { QuietBatch } from '../../grid/quietBatch';
import { portalRecordStore, type RecordStore } from '../../grid/recordStore';
import { saveChanges } from '../../grid/saveRunner';
import { Disposable } from '../../lifecycle';
import { createLogger } from '../../log';
import { describeError } from '../../ui/errorBoundary';
import { viewNameOfPath } from '../../model/recordAddress';
import type { ViewTarget } from '../../model/targets';
import type { FilterColumn } from '../../shared/protocol';
import { filterColumns, gridEditColumns, lookupAppsOf } from '../viewQuery/viewColumns';

const log = createLogger('grid');

export type GridDeps = Pick<Stores, 'portals' | 'catalog' | 'recordEvents' | 'views'>;

/** Rows redrawn in the page after a change: their new state, rows gone, new rows added and created. */
export interface RowsChange {
  readonly changed: readonly string[];
  readonly removed: readonly string[];
  readonly added: readonly string[];
  readonly renamed: ReadonlyArray<[string, string]>;
}

/** Rows saved at once: the portal is a shared server, and one slow row must not hold the others. */
const SAVE_CONCURRENCY = 4;
/** How long an import's or a bulk change's records must stop coming before an open grid reads its view again. */
const BULK_QUIET_MS = 500;

export class GridDocument extends Disposable implements vscode.CustomDocument {
  private modelValue: GridModel | undefined;
  /** A backup's text not restored yet (its load failed). */
  private heldBackup: string | undefined;
  private readonly rowsChanged = this._register(new vscode.EventEmitter<RowsChange>());
  /** Rows to redraw in the page. */
  readonly onDidChangeRows = this.rowsChanged.event;
  private readonly reloaded = this._register(new vscode.EventEmitter<void>());
  /** The whole grid was read (again: revert, filters, a bulk change, a load retried after signing in): the page starts over. */
  readonly onDidReload = this.reloaded.event;
  appName: string;
  viewName: string;
  /** Bulk changes this grid runs (and reads the view after): the announcements of their records are not news. */
  ownBulkChanges = 0;
  /** Rows added in the grid are created as drafts (the app has Draft mode, as the catalog says). */
  newRowsAreDrafts = false;
  /** The filters above the grid, as last run (none: every row of the view). */
  filters: ViewFilter[] = [];
  /** The columns a filter can name: the app's and its Lookup apps'. */
  filterColumns: FilterColumn[] = [];

  constructor(
    readonly uri: vscode.Uri,
    readonly target: ViewTarget,
    private readonly deps: GridDeps,
    private readonly fireEdit: (event: vscode.CustomDocumentEditEvent<GridDocument>) => void,
  ) {
    super();
    this.appName = `App ${target.appId}`;
    this.viewName = target.viewName ?? deps.views.get(target.portalId, target.appId, target.viewId)?.name ?? viewNameOfPath(uri.path) ?? `View ${target.viewId}`;
    const bulk = new QuietBatch(BULK_QUIET_MS, (recordIds) => this.refreshAfterBulkChange(recordIds).then(
      () => undefined,
      (error: unknown) => log.warn(`reading view ${target.viewId} again after an import or a bulk change failed: ${describeError(error)}`),
    ));
    this._register({ dispose: () => bulk.dispose() });
    this._register(
      deps.recordEvents.onDidChange((change) => {
        if (change.portalId !== target.portalId || change.appId !== target.appId) return;
        // An import or a bulk change run elsewhere: the view read once its burst of records is over (a
        // create may belong in the view too). One this grid runs reads the view itself when it ends.
        if ((change.source === 'import' || change.source === 'bulk') && this.modelValue && this.ownBulkChanges === 0) bulk.add(change.recordId);
        if (change.origin !== 'webhook' || !this.modelValue?.hasRow(change.recordId)) return;
        // Not awaited: events come one by one; refreshRow reports its own failure in the log.
        void this.refreshRow(change.recordId, change.kind === 'deleted');
      }),
    );
  }

  get model(): GridModel {
    if (!this.modelValue) throw new Error(`The grid of view ${this.target.viewId} is not loaded yet.`);
    return this.modelValue;
  }

  get isLoaded(): boolean {
    return this.modelValue !== undefined;
  }

  /**
   * Reads the view and the app's columns; puts back the pending edits of a backup when given. The backup
   * is held until a load restores it: a grid that could not be read writes it again when VS Code asks for
   * a backup (closing would otherwise lose it), and Retry restores it.
   */
  async load(backupText?: string): Promise<void> {
    const { portalId, appId, viewId } = this.target;
    if (backupText !== undefined) this.heldBackup = backupText;
    let backup: GridBackup | undefined;
    try {
      backup = this.heldBackup === undefined ? undefined : parseBackup(this.heldBackup);
      if (backup && (backup.appId !== appId || backup.viewId !== viewId)) throw new Error(`The backup of this grid belongs to view ${backup.viewId} of app ${backup.appId}, not to view ${viewId} of app ${appId}.`);
    } catch (error) {
      this.heldBackup = undefined; // a backup that cannot be restored is not kept
      throw error;
    }
    const client = this.deps.portals.client(portalId);
    const [read, appColumns, info] = await Promise.all([client.readView(appId, viewId, this.filters), this.deps.catalog.columns(portalId, appId), this.deps.catalog.app(portalId, appId).catch(() => undefined)]);
    if (info?.name) this.appName = info.name;
    this.newRowsAreDrafts = info?.draftMode === true;
    const lookups = await this.lookupColumns(read, appColumns);
    const columns = gridEditColumns(appId, read.metadata, (id) => lookups.get(id));
    this.filterColumns = filterColumns(appId, appColumns, read.metadata, (id) => lookups.get(id));
    const model = new GridModel(columns, appColumns, read.rows);
    if (backup) {
      const refused = model.restoreBackup(backup);
      if (refused.length > 0) log.warn(`restoring the grid of view ${viewId}: ${refused.length} edits the columns no longer allow were left out`);
    }
    this.modelValue = model;
    this.heldBackup = undefined;
    log.info(`view ${viewId} of app ${appId} as a grid: ${model.rowCount} rows, ${columns.length} columns${backup === undefined ? '' : `, ${model.changeSet.size} rows restored from a backup`}`);
    this.reloaded.fire();
  }

  /** One user action as one transaction, and one entry of VS Code's undo stack. */
  edit(kind: TransactionKind, label: string, edits: readonly CellEdit[]): { refused: number; message?: string } {
    const model = this.model;
    const outcome = model.history.edit(kind, label, edits);
    const released = model.release(outcome.released);
    if (outcome.transaction) this.pushEdit(outcome.transaction, released.removed);
    const first = outcome.refused[0];
    return { refused: outcome.refused.length, ...(first ? { message: first.message } : {}) };
  }

  /** An empty row at the end, created as a record (a draft with Draft mode) at save; one undoable step. */
  addRow(): string {
    const outcome = this.model.history.addRow();
    if (outcome.transaction) this.pushEdit(outcome.transaction, []);
    return outcome.recordId;
  }

  /** The page redrawn after a transaction, and the transaction handed to VS Code's undo stack. */
  private pushEdit(transaction: Transaction, removed: readonly string[]): void {
    const model = this.model;
    const rowsOf = (step: Transaction): string[] => [...step.changes.map((change) => change.recordId), ...(step.addedRows ?? []), ...(step.removedRows ?? [])];
    this.changed(rowsOf(transaction), removed);
    this.fireEdit({
      document: this,
      label: transaction.label,
      undo: () => {
        const step = model.history.undo(transaction);
        if (step) this.changed(rowsOf(step.transaction), model.release(step.released).removed);
      },
      redo: () => {
        const step = model.history.redo(transaction);
        if (step) this.changed(rowsOf(step.transaction), model.release(step.released).removed);
      },
    });
  }

  /**
   * Saves the changed rows. Resolves with what happened; throws when rows stay
   * pending (held back, failed, invalid), so that VS Code keeps the tab dirty and says so.
   */
  async save(token: vscode.CancellationToken): Promise<SaveSummary> {
    const model = this.model;
    // The rows this save sends: a row an invalid cell blocks is not among them.
    const pending = model.changeSet.savableRows().length;
    const current = new Map<string, RecordData>();
    const createdIds: string[] = [];
    const portalStore = portalRecordStore(this.deps.portals.client(this.target.portalId), this.target.appId, { draft: this.newRowsAreDrafts });
    // The check's read is kept: a saved row takes the portal's copy plus what was sent.
    const store: RecordStore = {
      readCurrent: async (recordId, signal) => {
        const copy = await portalStore.readCurrent(recordId, signal);
        if (copy) current.set(recordId, copy);
        return copy;
      },
      update: (recordId, fields, signal) => portalStore.update(recordId, fields, signal),
      create: async (fields, signal) => {
        const created = await portalStore.create(fields, signal);
        createdIds.push(created.recordId);
        return created;
      },
    };
    const summary = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Saving ${pending} changed row${pending === 1 ? '' : 's'} of ${this.viewName}`, cancellable: true },
      async (progress, progressToken) => {
        const abort = new AbortController();
        const cancel = (): void => abort.abort(new vscode.CancellationError());
        const onSaveCancelled = token.onCancellationRequested(cancel);
        const onProgressCancelled = progressToken.onCancellationRequested(cancel);
        let reported = 0;
        try {
          const report = await saveChanges(model.changeSet, store, {
            concurrency: SAVE_CONCURRENCY,
            signal: abort.signal,
            onProgress: (step) => {
              const increment = ((step.done - reported) / Math.max(1, step.total)) * 100;
              reported = step.done;
              progress.report({ increment, message: `${step.done} of ${step.total}` });
            },
          });
          return model.afterSave(report, current);
        } finally {
          onSaveCancelled.dispose();
          onProgressCancelled.dispose();
        }
      },
    );
    this.changed([...current.keys(), ...createdIds, ...model.markedRowIds()], []);
    for (const recordId of current.keys()) {
      if (!model.changeSet.row(recordId) && !model.conflicts.has(recordId)) this.deps.recordEvents.fire({ ...this.target, recordId, kind: 'updated', origin: 'local' });
    }
    for (const recordId of createdIds) this.deps.recordEvents.fire({ ...this.target, recordId, kind: 'created', origin: 'local' });
    log.info(`saved view ${this.target.viewId}: ${JSON.stringify(summary)}`);
    return summary;
  }

  /** Keep mine: my edits stand against the portal's current copy (sent by the next save). */
  keepMine(recordId: string): void {
    const conflict = this.model.conflicts.get(recordId);
    if (!conflict) throw new Error(`Record ${recordId} has no conflict to resolve.`);
    keepMine(this.model.changeSet, conflict);
    this.model.take(recordId, conflict.current);
    this.changed([recordId], []);
  }

  /** Take theirs: my edits of the row are dropped; the row shows the portal's copy. */
  takeTheirs(recordId: string): void {
    const conflict = this.model.conflicts.get(recordId);
    const copy = conflict?.current ?? this.model.changeSet.row(recordId)?.changedOnPortal;
    if (!copy) throw new Error(`Record ${recordId} has no copy from the portal to take.`);
    takeTheirs(this.model.changeSet, recordId, copy);
    const { changed, removed } = this.model.take(recordId, copy);
    this.changed(changed, removed);
  }

  /**
   * After a bulk change (Set Field…, Delete Rows…) of `recordIds`: the view is read again with the grid's
   * filters and its rows shown. Rows with pending edits keep them: where the portal's copy moved (or the
   * record went), the row is marked changed on the portal, to be resolved at save like any conflict.
   * Returns how many such rows were marked.
   */
  async refreshAfterBulkChange(recordIds: readonly string[]): Promise<number> {
    const { portalId, appId, viewId } = this.target;
    const client = this.deps.portals.client(portalId);
    const read = await client.readView(appId, viewId, this.filters);
    const model = this.model;
    const readNow = new Map(read.rows.map((row) => [row.id ?? '', row.values]));
    const store = portalRecordStore(client, appId);
    let marked = 0;
    for (const recordId of recordIds) {
      const row = model.changeSet.row(recordId);
      if (!row || row.isNew) continue;
      // A row the filters leave out now (or a deleted one): asked for alone; 404 is a record gone.
      const copy = readNow.get(recordId) ?? (await store.readCurrent(recordId)) ?? 'deleted';
      if (copy !== 'deleted' && !differs(row.asRead, copy)) continue;
      model.changeSet.portalChanged(recordId, copy);
      marked += 1;
    }
    model.replaceRows(read.rows);
    log.info(`view ${viewId} of app ${appId} read again after a bulk change of ${recordIds.length} rows: ${model.rowCount} rows, ${marked} with pending edits marked changed on the portal`);
    this.reloaded.fire();
    return marked;
  }

  /**
   * The view read again with `filters` (the builder above the grid). The change set and its undo history
   * stay as they are: only the rows shown change, and a row with pending edits that the filters leave out
   * stays in sight after the others, so nothing pending is hidden.
   */
  async runFilters(filters: readonly ViewFilter[]): Promise<void> {
    const read = await this.deps.portals.client(this.target.portalId).readView(this.target.appId, this.target.viewId, filters);
    this.filters = [...filters];
    this.model.replaceRows(read.rows);
    log.info(`view ${this.target.viewId} of app ${this.target.appId} read again with ${filters.length} filter${filters.length === 1 ? '' : 's'}: ${this.model.rowCount} rows`);
    this.reloaded.fire();
  }

  /**
   * Discard: the view is read again; every pending edit goes. The grid keeps its model until the new one
   * is read. When the read fails, VS Code has already marked the tab clean and dropped its edit stack (it
   * does not wait for a revert), so the grid drops its pending changes too and goes on with the rows it had.
   */
  async revert(): Promise<void> {
    this.heldBackup = undefined;
    try {
      await this.load();
    } catch (error) {
      const model = this.modelValue;
      if (model) {
        model.release(model.changeSet.discardAll().released);
        model.conflicts.clear();
      }
      this.reloaded.fire();
      throw new Error(`${describeError(error)} The grid shows the rows it had, without your changes.`, { cause: error });
    }
  }

  backupText(): string {
    if (!this.modelValue) return this.heldBackup ?? '';
    return serializeBackup(backupOf(this.model.changeSet, this.target.appId, this.target.viewId));
  }

  private changed(recordIds: readonly string[], removed: readonly string[]): void {
    const model = this.modelValue;
    if (!model) return;
    const added: string[] = [];
    const renamed: Array<[string, string]> = [];
    const gone = [...removed];
    for (const event of model.takeRowEvents()) {
      if ('added' in event) added.push(event.added);
      else if ('removed' in event) gone.push(event.removed);
      else renamed.push([event.created, event.recordId]);
    }
    const ids = [...recordIds, ...added, ...renamed.map(([, recordId]) => recordId)].map((id) => model.changeSet.resolve(id));
    this.rowsChanged.fire({ changed: [...new Set(ids)].filter((id) => model.hasRow(id)), removed: gone, added, renamed });
  }

  /** A webhook said the record changed: read it, and let the model take it or mark the row. */
  private async refreshRow(recordId: string, deleted: boolean): Promise<void> {
    try {
      const copy = deleted ? 'deleted' : ((await portalRecordStore(this.deps.portals.client(this.target.portalId), this.target.appId).readCurrent(recordId)) ?? 'deleted');
      const { changed, removed } = this.model.portalChanged(recordId, copy);
      this.changed(changed, removed);
    } catch (error) {
      if (!isCancellation(error)) log.warn(`refreshing row ${recordId} of view ${this.target.viewId} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The columns of the app and of the Lookup apps the view shows columns of, by app id. */
  private async lookupColumns(read: ViewRead, appColumns: readonly Column[]): Promise<Map<string, readonly Column[]>> {
    const { portalId, appId } = this.target;
    const lookups = new Map<string, readonly Column[]>([[appId, appColumns]]);
    for (const lookupApp of lookupAppsOf(appId, read.metadata)) {
      const columns = await this.deps.catalog.columns(portalId, lookupApp).catch(() => undefined);
      if (columns) lookups.set(lookupApp, columns);
    }
    return lookups;
  }
}
