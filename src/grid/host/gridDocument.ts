// A view opened as a grid: VS Code's custom document for it. It holds the grid's model (src/grid/model/gridModel.ts)
// and turns each change into what VS Code's editor model expects: every edit, paste, fill or clear is one
// CustomDocumentEditEvent (Undo/Redo call back into the edit history); save sends the changed rows
// (gridSave.ts); revert reads the view again; a backup is the change set as JSON (src/grid/model/backup.ts). The
// rows arrive in batches (rowsReader.ts, over the shared view-read session): edits work on those arrived,
// and Cancel keeps the rows read.
import * as vscode from 'vscode';
import type { ViewRow } from '../../api/answers';
import type { ViewFilter } from '../../api/filters';
import { isCancellation } from '../../api/errors';
import type { Column, ViewMetadataEntry } from '../../api/types';
import { provisionalMetadata } from '../../catalog/recordTitles';
import type { Stores } from '../../catalog/stores';
import { droppedEditsMessage, parseBackup, serializeBackup, type GridBackup } from '../model/backup';
import type { CellEdit } from '../model/changeSet';
import type { Transaction, TransactionKind } from '../model/editHistory';
import { GridModel, type SaveSummary } from '../model/gridModel';
import type { RowsSource } from '../model/rowCopies';
import { finishRead } from '../model/finishRead';
import { RestOfRead } from '../model/restOfRead';
import { BULK_QUIET_MS, QuietBatch } from '../model/quietBatch';
import { appRecords } from '../../records/store';
import type { RefreshQueue } from '../model/refreshQueue';
import { gridRefreshQueue } from './gridRefresh';
import { saveGrid } from './gridSave';
import { GridRowsReader } from './rowsReader';
import { Disposable } from '../../lifecycle';
import { createLogger } from '../../log';
import { describeError } from '../../ui/errorBoundary';
import { tell } from '../../ui/prompter';
import { viewNameOfPath } from '../../model/recordAddress';
import type { ViewTarget } from '../../model/targets';
import type { FilterColumn } from '../../shared/protocol';
import type { GridLoadState } from '../protocol';
import { columnsByApp, filterColumns, gridEditColumns } from '../model/viewColumns';

const log = createLogger('grid');

export type GridDeps = Pick<Stores, 'portals' | 'catalog' | 'recordEvents' | 'views' | 'viewReads' | 'versions'>;

/** Rows redrawn in the page after a change: their new state, rows gone, new rows added and created. */
export interface RowsChange {
  readonly changed: readonly string[];
  readonly removed: readonly string[];
  readonly added: readonly string[];
  readonly renamed: ReadonlyArray<[string, string]>;
}

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
  private readonly rowsArrived = this._register(new vscode.EventEmitter<readonly string[]>());
  /** More rows of the view arrived, appended in this order. */
  readonly onDidAppendRows = this.rowsArrived.event;
  private readonly loadChanged = this._register(new vscode.EventEmitter<GridLoadState>());
  /** How far the rows have arrived changed. */
  readonly onDidChangeLoad = this.loadChanged.event;
  private readonly reader: GridRowsReader;
  /** The app's columns, as the last read had them. */
  private appColumns: readonly Column[] = [];
  /** Webhooks about rows that had not arrived yet: the row is read again when it arrives (deleted: true when it went). */
  private readonly changedBeforeArrival = new Map<string, boolean>();
  /** Rows read again after webhooks: a few at once, many with one read of the view (gridRefresh.ts). */
  private readonly refreshes: RefreshQueue;
  /** When the read takes the rest of its rows: once a page has shown the first (restOfRead.ts). */
  private readonly restOfRead = new RestOfRead();
  /** See every row read (each refresh after a bulk change compares its pending rows with the portal's copies). */
  private readonly rowsObservers = new Set<(rows: readonly ViewRow[]) => void>();
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
    this.viewName =
      target.viewName ??
      deps.views.get(target.portalId, target.appId, target.viewId)?.name ??
      viewNameOfPath(uri.path) ??
      `View ${target.viewId}`;
    this.reader = new GridRowsReader(
      () => deps.portals.client(target.portalId),
      target.appId,
      target.viewId,
      (state) => this.loadChanged.fire(state),
      // Shared with the tree and the Query Views showing the same view and filters.
      deps.viewReads.opener(target),
    );
    // The read first, then the model's hold on the rows it keeps.
    this._register({ dispose: () => void (this.reader.dispose(), this.modelValue?.dispose(), this.restOfRead.end()) });
    const bulk = new QuietBatch(BULK_QUIET_MS, (recordIds) =>
      this.refreshAfterBulkChange(recordIds).then(
        () => undefined,
        (error: unknown) => {
          if (!isCancellation(error))
            log.warn(`reading view ${target.viewId} again after an import or a bulk change failed: ${describeError(error)}`);
        },
      ),
    );
    this._register({ dispose: () => bulk.dispose() });
    this.refreshes = this._register(
      gridRefreshQueue(
        {
          ...target,
          client: () => deps.portals.client(target.portalId),
          history: { versions: deps.versions, portalId: target.portalId, cause: 'read' },
          filters: () => this.filters,
          model: () => this.modelValue,
          changed: (ids, gone) => this.changed(ids, gone),
        },
        log,
      ),
    );
    this._register(
      deps.recordEvents.onDidChange((change) => {
        if (change.portalId !== target.portalId || change.appId !== target.appId) return;
        // An import or a bulk change run elsewhere: the view read once its burst of records is over (a
        // create may belong in the view too). One this grid runs reads the view itself when it ends. A
        // read under way, or one the user stopped (partial), is not started over: its rows follow, as below.
        const burst =
          (change.source === 'import' || change.source === 'bulk') && this.modelValue !== undefined && this.ownBulkChanges === 0;
        if (burst && this.reader.state.state === 'done') return bulk.add(change.recordId);
        if (change.origin !== 'webhook' && change.origin !== 'watch' && !burst) return;
        // A read under way (even before its first rows) brings the row as the portal had it when the read
        // began: read it again when it comes, whether or not the rows shown now have it.
        if (this.reader.reading) this.changedBeforeArrival.set(change.recordId, change.kind === 'deleted');
        if (!this.modelValue?.hasRow(change.recordId)) return;
        this.refreshes.add(change.recordId, change.kind === 'deleted');
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

  /** How far the rows have arrived (`loading`: more are coming). */
  get loadState(): GridLoadState {
    return this.reader.state;
  }

  /** Cancel: the read under way stops; the rows read stay, marked partial. Nothing when the read has just ended (a harmless race). */
  cancelLoad(): void {
    this.reader.stop();
  }

  /** Retry: a grid that could not be read is loaded (with the backup it holds); one read partially is read again, its pending changes kept. */
  retry(): Promise<void> {
    return this.isLoaded ? this.runFilters(this.filters) : this.load();
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
      if (backup && (backup.appId !== appId || backup.viewId !== viewId))
        throw new Error(
          `The backup of this grid belongs to view ${backup.viewId} of app ${backup.appId}, not to view ${viewId} of app ${appId}.`,
        );
    } catch (error) {
      this.heldBackup = undefined; // a backup that cannot be restored is not kept
      throw error;
    }
    const [appColumns, info] = await Promise.all([
      this.deps.catalog.columns(portalId, appId),
      this.deps.catalog.app(portalId, appId).catch(() => undefined),
    ]);
    if (info?.name) this.appName = info.name;
    this.newRowsAreDrafts = info?.draftMode === true;
    this.appColumns = appColumns;
    await this.readRows(this.filters, (rows, metadata, lookups, source) => {
      const columns = gridEditColumns(appId, metadata, (id) => lookups.get(id));
      this.filterColumns = filterColumns(appId, appColumns, metadata, (id) => lookups.get(id));
      const model = new GridModel(columns, appColumns, rows, source);
      const dropped = backup && droppedEditsMessage(model.restoreBackup(backup, { more: true }), appColumns, this.viewName);
      // The user is told each edit left out, with its value; the log keeps no values.
      if (dropped) log.warn(`restoring the grid of view ${viewId}: edits the columns no longer allow were left out`);
      if (dropped) tell('warn', dropped);
      this.modelValue?.dispose(); // the rows read before (revert): their store goes
      this.modelValue = model;
      this.heldBackup = undefined;
      log.info(
        `view ${viewId} of app ${appId} as a grid: first ${model.rowCount} rows, ${columns.length} columns${backup === undefined ? '' : `, ${model.pendingRows().length} rows restored from a backup`}`,
      );
    });
  }

  /**
   * Reads the view's rows as they arrive: `first` takes the first batch (the page then starts over), the
   * later batches are appended, and at the end the pending rows the read left out go last and the columns
   * become the metadata's. Resolves once the first rows are shown.
   */
  private readRows(
    filters: readonly ViewFilter[],
    first: (rows: ViewRow[], metadata: ViewMetadataEntry[], lookups: ReadonlyMap<string, readonly Column[]>, source: RowsSource) => void,
  ): Promise<void> {
    const { appId, viewId } = this.target;
    this.changedBeforeArrival.clear();
    return this.reader.read(filters, {
      first: async (rows, metadata, live, source) => {
        // The metadata follows the rows: until it comes, the columns are the first row's keys.
        const lookups = metadata ? await this.lookupColumns(metadata, this.appColumns) : new Map([[appId, this.appColumns]]);
        if (!live()) return;
        this.restOfRead.firstRowsCame();
        for (const observe of this.rowsObservers) observe(rows);
        first(rows, metadata ?? (rows[0] ? provisionalMetadata(appId, rows[0], [...this.appColumns]) : []), lookups, source);
        this.reloaded.fire();
        this.catchUp(rows.flatMap((row) => (row.id === undefined ? [] : [row.id])));
      },
      more: (rows, source) => {
        for (const observe of this.rowsObservers) observe(rows);
        // A row kept in sight shows the previous read's copy until now (when nothing pending covers it): redrawn.
        const reached = rows.flatMap((row) => (row.id !== undefined && this.model.awaitsNewCopy(row.id) ? [row.id] : []));
        const added = this.model.appendRows(rows, source);
        if (added.length > 0) this.rowsArrived.fire(added);
        if (reached.length > 0) this.changed(reached, []);
        this.catchUp(added);
      },
      rest: () => this.restOfRead.wait(),
      ended: async (metadata) => {
        this.changedBeforeArrival.clear();
        const model = this.model;
        const current = await finishRead(model, {
          appended: (recordIds) => this.rowsArrived.fire(recordIds),
          startOver: () => this.reloaded.fire(),
          columnsChanged: async () => {
            if (!metadata) return false;
            const lookups = await this.lookupColumns(metadata, this.appColumns);
            if (model !== this.modelValue) return undefined;
            const offered = filterColumns(appId, this.appColumns, metadata, (id) => lookups.get(id));
            const offeredChanged = JSON.stringify(offered) !== JSON.stringify(this.filterColumns);
            this.filterColumns = offered;
            return model.replaceColumns(gridEditColumns(appId, metadata, (id) => lookups.get(id))) || offeredChanged;
          },
        });
        if (current) log.info(`view ${viewId} of app ${appId} as a grid: ${model.rowCount} rows in all`);
      },
    });
  }

  /** A page (the grid's, the board's) is being made for this document: the rest of the rows wait for it. */
  pageOpened(): void {
    this.restOfRead.pageOpened();
  }

  /** A page (the grid's, the board's) has been given the rows read so far: the read takes the rest. */
  shown(): void {
    this.restOfRead.shown();
  }

  /** Rows that arrived after a webhook said they changed: each is read again (rows go on arriving). */
  private catchUp(recordIds: readonly string[]): void {
    for (const recordId of recordIds) {
      const deleted = this.changedBeforeArrival.get(recordId);
      if (deleted !== undefined && this.changedBeforeArrival.delete(recordId)) this.refreshes.add(recordId, deleted);
    }
  }

  /** One user action as one transaction, and one entry of VS Code's undo stack. */
  edit(kind: TransactionKind, label: string, edits: readonly CellEdit[]): { refused: number; message?: string } {
    const model = this.model;
    const outcome = model.edit(kind, label, edits);
    const released = model.release(outcome.released);
    if (outcome.transaction) this.pushEdit(outcome.transaction, released.removed);
    const first = outcome.refused[0];
    return { refused: outcome.refused.length, ...(first ? { message: first.message } : {}) };
  }

  /** An empty row at the end, created as a record (a draft with Draft mode) at save; one undoable step. */
  addRow(): string {
    const outcome = this.model.addRow();
    if (outcome.transaction) this.pushEdit(outcome.transaction, []);
    return outcome.recordId;
  }

  /** The page redrawn after a transaction, and the transaction handed to VS Code's undo stack. */
  private pushEdit(transaction: Transaction, removed: readonly string[]): void {
    const model = this.model;
    const rowsOf = (step: Transaction): string[] => [
      ...step.changes.map((change) => change.recordId),
      ...(step.addedRows ?? []),
      ...(step.removedRows ?? []),
    ];
    this.changed(rowsOf(transaction), removed);
    this.fireEdit({
      document: this,
      label: transaction.label,
      undo: () => {
        const step = model.undo(transaction);
        if (step) this.changed(rowsOf(step.transaction), model.release(step.released).removed);
      },
      redo: () => {
        const step = model.redo(transaction);
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
    const portal = {
      client: this.deps.portals.client(this.target.portalId, 'bulk'),
      limiter: this.deps.portals.limiter(this.target.portalId),
      appId: this.target.appId,
      viewId: this.target.viewId,
      filters: this.filters,
      drafts: this.newRowsAreDrafts,
      history: { versions: this.deps.versions, portalId: this.target.portalId, cause: 'grid' } as const,
    };
    const { summary, savedIds, createdIds } = await saveGrid(model, portal, `of ${this.viewName}`, token);
    this.changed([...savedIds, ...createdIds, ...model.markedRowIds()], []);
    for (const recordId of savedIds) {
      if (!model.isMarked(recordId)) this.deps.recordEvents.fire({ ...this.target, recordId, kind: 'updated', origin: 'local' });
    }
    for (const recordId of createdIds) this.deps.recordEvents.fire({ ...this.target, recordId, kind: 'created', origin: 'local' });
    log.info(`saved view ${this.target.viewId}: ${JSON.stringify(summary)}`);
    return summary;
  }

  /** Keep mine: my edits stand against the portal's copy (sent by the next save). */
  keepMine(recordId: string): void {
    this.model.keepMine(recordId);
    this.changed([recordId], []);
  }

  /** Take theirs: my edits of the row are dropped; the row shows the portal's copy. */
  takeTheirs(recordId: string): void {
    const { changed, removed } = this.model.takeTheirs(recordId);
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
    const model = this.model;
    const store = appRecords(this.deps.portals.client(portalId), appId);
    const { wanted, marked } = await model.readAgainAndMark(
      recordIds,
      async (observe) => {
        this.rowsObservers.add(observe);
        try {
          await this.runFilters(this.filters);
          // The pending rows are checked against the whole answer: it is waited for (Cancel ends it early).
          await this.reader.whenEnded();
        } finally {
          this.rowsObservers.delete(observe);
        }
      },
      (recordId) => store.readCurrent(recordId),
    );
    log.info(
      `view ${viewId} of app ${appId} read again after a bulk change of ${recordIds.length} rows: ${model.rowCount} rows, ${marked} with pending edits marked changed on the portal`,
    );
    if (marked > 0) this.changed(wanted, []);
    return marked;
  }

  /**
   * The view read again with `filters` (the builder above the grid). The change set and its undo history
   * stay as they are: only the rows shown change; the pending and new rows stay in sight, first, from the
   * first rows on (GridModel.replaceRows). Resolves once the first rows are shown.
   */
  async runFilters(filters: readonly ViewFilter[]): Promise<void> {
    const model = this.model;
    await this.readRows(filters, (rows, _metadata, _lookups, source) => {
      this.filters = [...filters];
      model.replaceRows(rows, { more: true, source });
      log.info(
        `view ${this.target.viewId} of app ${this.target.appId} read again with ${filters.length} filter${filters.length === 1 ? '' : 's'}: first ${model.rowCount} rows`,
      );
    });
  }

  /**
   * Discard: the view is read again; every pending edit goes. The grid keeps its model until the new read's
   * first rows have arrived (a read under way gives way to it). When the read fails before them, VS Code has already marked the tab clean and dropped its edit stack (it
   * does not wait for a revert), so the grid drops its pending changes too and goes on with the rows it had.
   */
  async revert(): Promise<void> {
    this.heldBackup = undefined;
    try {
      await this.load();
    } catch (error) {
      const model = this.modelValue;
      if (model) {
        model.discardAll();
      }
      this.reloaded.fire();
      throw new Error(`${describeError(error)} The grid shows the rows it had, without your changes.`, { cause: error });
    }
  }

  backupText(): string {
    if (!this.modelValue) return this.heldBackup ?? '';
    return serializeBackup(this.model.backup(this.target.appId, this.target.viewId));
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
    const ids = [...recordIds, ...added, ...renamed.map(([, recordId]) => recordId)].map((id) => model.currentId(id));
    this.rowsChanged.fire({ changed: [...new Set(ids)].filter((id) => model.hasRow(id)), removed: gone, added, renamed });
  }

  /** The columns of the app and of the Lookup apps the view shows columns of, by app id. */
  private lookupColumns(metadata: readonly ViewMetadataEntry[], appColumns: readonly Column[]): Promise<Map<string, readonly Column[]>> {
    return columnsByApp(this.target.appId, appColumns, metadata, (appId) => this.deps.catalog.columns(this.target.portalId, appId));
  }
}
