// The host side of one query panel, without vscode: reads the view through the one view-read session
// (records/viewRead.ts: a copy shared with the tree and the grids showing the same view and filters; Run
// again reads anew), sends the first screenful of rows at once and the count as more arrive, holds the
// result (a RowStore: the answer's bytes and two offsets a row), and answers the grid's requests for the
// rows in sight (query/window), sorted as the grid asks (query/sort). The page so holds a few hundred rows
// whatever the result's size; export holds the result it reads. A run can be cancelled; an answer that
// breaks off midway keeps the rows read, marked partial. The bench runs this very class against a page in
// Chromium (test/bench/viewQuery.bench.ts).
import type { ViewRow } from '../../api/answers';
import { isCancellation, isPortalError, PortalError } from '../../api/errors';
import type { ViewFilter } from '../../api/filters';
import type { RowStore } from '../../api/rowStore';
import type { Column, ViewMetadataEntry } from '../../api/types';
import { PANEL_VIEW_TYPES } from '../../ids';
import { ViewReadHub, type ViewOpener, type ViewReadEnd, type ViewReadHold, type ViewReadSource } from '../../records/viewRead';
import type { FilterColumn, GridColumn, HostToQueryMessage, SavedQuery, SortSpec } from '../../shared/protocol';
import { provisionalMetadata } from '../../catalog/recordTitles';
import { describeError, type RunShownInPanel } from '../../ui/failures';
import { exportOrder } from './exportRows';
import { selectedRecordIds, type RowRange } from './selection';
import { filterColumns, gridColumns, lookupAppsOf } from '../../grid/model/viewColumns';

/** What the session needs of PortalClient (the view's rows come through the opener, or a read of its own). */
export interface ViewSource extends ViewReadSource {
  listColumns(appId: string, signal?: AbortSignal): Promise<Column[]>;
}

/** Rows in the first window, sent unasked: a screenful and then some, so the grid paints at once. */
export const FIRST_CHUNK_ROWS = 200;
/** The most rows one window answer carries (the grid asks for what is in sight and a margin). */
export const MAX_WINDOW_ROWS = 1_000;

export interface QueryResult {
  filters: ViewFilter[];
  columns: GridColumn[];
  rows: RowStore;
  /** Why the answer broke off, when it did: the rows read before are kept and shown, marked partial. */
  partial?: string;
}

export type Post = (message: HostToQueryMessage) => unknown;

/** How a saved query shows its result: these columns in this order, sorted so once the rows are in. */
export interface RunShape {
  readonly columns?: readonly string[];
  readonly sort?: SortSpec;
}

/** A saved query's shape: its columns, and its first sort key (the grid sorts by one column). */
export function shapeOfSavedQuery(query: SavedQuery): { sort?: SortSpec; columns?: string[] } {
  const first = query.sort?.[0];
  return {
    ...(first ? { sort: { key: first.column, direction: first.direction === 'desc' ? 'descending' : 'ascending' } } : {}),
    ...(query.columns && query.columns.length > 0 ? { columns: [...query.columns] } : {}),
  };
}

/** The columns a shape names, in its order; all of them when it names none the view has (a stale list hides nothing). */
function shaped(columns: GridColumn[], shape: RunShape | undefined): GridColumn[] {
  if (!shape?.columns) return columns;
  const chosen = shape.columns.flatMap((key) => columns.filter((column) => column.key === key));
  return chosen.length > 0 ? chosen : columns;
}

/** One row as the panel receives it: [id, draft, values in the grid's column order]. */
export function rowArray(row: ViewRow, keys: readonly string[]): string[] {
  const array = new Array<string>(keys.length + 2);
  array[0] = row.id ?? '';
  array[1] = row.draft === undefined ? '' : row.draft ? '1' : '0';
  const values = row.values;
  for (let index = 0; index < keys.length; index += 1) array[index + 2] = values[keys[index]] ?? '';
  return array;
}

export class ViewQuerySession {
  private appColumns: Column[] | undefined;
  private readonly otherApps = new Map<string, Column[]>();
  /** The run under way: `controller` gives it up (a newer run, the panel closed); its hold stops it (Cancel). */
  private running: { controller: AbortController; hold: ViewReadHold } | undefined;
  /** The result being read or last read (rows grow while it is read), and the hold on its copy. */
  private current: { runId: number; result: QueryResult; complete: boolean; hold: ViewReadHold } | undefined;
  /** The shape of the run under way or last read. */
  private shape: RunShape | undefined;
  private lastRunId = 0;
  private lastMetadata: ViewMetadataEntry[] = [];
  private sortState: { version: number; sort: SortSpec | undefined; order: Uint32Array | undefined } = {
    version: 0,
    sort: undefined,
    order: undefined,
  };
  private readonly open: ViewOpener;

  constructor(
    private readonly source: ViewSource,
    readonly appId: string,
    readonly viewId: string,
    private readonly post: Post,
    /** The boundary of what the panel shows itself: a failed run logs one line and shows in the panel. */
    private readonly runShown: RunShownInPanel,
    /** The shared copies of the view (ViewReadHub.opener); without, the session's reads are its own. */
    open?: ViewOpener,
  ) {
    this.open = open ?? new ViewReadHub(() => source).opener({ portalId: '', appId, viewId });
  }

  /** The last result read to its end (or to where it broke off), for export. */
  get result(): QueryResult | undefined {
    return this.current?.complete ? this.current.result : undefined;
  }

  /**
   * The last complete result with the order the grid shows it in, taken together: an export reads both
   * after its save dialog, when a newer run may have replaced the session's own result and order.
   */
  snapshot(): { result: QueryResult; order: Uint32Array | undefined } | undefined {
    const result = this.result;
    return result ? { result, order: this.sortState.order } : undefined;
  }

  /** The sort the grid shows the result in (undefined: the portal's order). */
  get shownSort(): SortSpec | undefined {
    return this.sortState.sort;
  }

  /** The order the grid shows the result in (undefined: the portal's). */
  get order(): Uint32Array | undefined {
    return this.sortState.order;
  }

  /** The app's columns (read once); the filter builder offers them. */
  async filterColumns(signal?: AbortSignal): Promise<FilterColumn[]> {
    this.appColumns ??= await this.source.listColumns(this.appId, signal);
    return filterColumns(this.appId, this.appColumns, this.lastMetadata, (id) => this.columnsOf(id));
  }

  private columnsOf(appId: string): readonly Column[] | undefined {
    return appId === this.appId ? this.appColumns : this.otherApps.get(appId);
  }

  /**
   * Reads the view with `filters` (sharing a copy read or being read elsewhere; the same filters as the
   * result shown read anew: Run again), sends its first rows at once and the rest as asked; a newer run
   * gives this one up. `shape`: a saved query's columns and sort.
   */
  async run(runId: number, filters: readonly ViewFilter[], shape?: RunShape): Promise<void> {
    this.giveUpRun();
    this.shape = shape;
    const controller = new AbortController();
    const shown = this.current?.result.filters;
    const again = shown !== undefined && JSON.stringify(shown) === JSON.stringify(filters);
    const hold = this.open(filters, { fresh: again });
    const running = { controller, hold };
    this.running = running;
    this.lastRunId = runId;
    const stale = (): boolean => controller.signal.aborted || runId !== this.lastRunId;
    try {
      await this.runShown(
        `${PANEL_VIEW_TYPES.query} query/run`,
        () => this.read(runId, filters, hold, controller.signal, stale),
        (message, error) => this.post({ type: 'query/failed', runId, message, ...filterIndexOf(error, filters) }),
        {
          signal: controller.signal,
          fallback: READ_FAILED,
        },
      );
    } finally {
      if (this.running === running) this.running = undefined;
      // A run that did not become the result shown lets its copy go.
      if (this.current?.hold !== hold) hold.release();
    }
  }

  /** The run under way gives way: its read goes on only if something else shows it. */
  private giveUpRun(): void {
    const running = this.running;
    if (!running) return;
    this.running = undefined;
    running.controller.abort();
    if (this.current?.hold !== running.hold) running.hold.release();
  }

  private read(
    runId: number,
    filters: readonly ViewFilter[],
    hold: ViewReadHold,
    signal: AbortSignal,
    stale: () => boolean,
  ): Promise<void> {
    const columnsRead = this.ensureAppColumns(signal);
    return new Promise<void>((resolve, reject) => {
      const unsubscribe = hold.session.subscribe({
        batch: async ({ rows, from, to, last }) => {
          if (stale()) return;
          if (from === 0) {
            await columnsRead;
            if (stale()) return;
            // The metadata follows the rows: until it comes, the columns are the first row's keys.
            this.begin(runId, filters, provisionalMetadata(this.appId, rows.row(0), this.appColumns), hold);
            this.send({ type: 'query/result', runId, columns: this.currentColumns() });
            this.sendWindow(runId, 0, 0, FIRST_CHUNK_ROWS);
          } else if (!last) this.send({ type: 'query/progress', runId, count: to }); // the last count comes with 'done'
        },
        ended: async (end) => {
          unsubscribe();
          if (stale()) return resolve();
          await columnsRead;
          await this.finish(runId, filters, end, hold);
          if (end.metadata) await this.learnLookupApps(end.metadata, signal);
          resolve();
        },
        failed: (error) => {
          unsubscribe();
          reject(error);
        },
        broke: reject,
      });
      signal.addEventListener(
        'abort',
        () => {
          unsubscribe();
          reject(new PortalError({ kind: 'cancelled', message: 'A newer run replaced this one.' }));
        },
        { once: true },
      );
    });
  }

  /** Sends the last result again (the panel's page was reloaded), under the panel's run id. */
  async resend(runId: number): Promise<boolean> {
    const current = this.current;
    if (!current?.complete) return false;
    this.lastRunId = runId;
    current.runId = runId;
    this.send({ type: 'query/result', runId, columns: current.result.columns });
    if (this.sortState.sort) this.send({ type: 'query/sorted', runId, sortVersion: this.sortState.version, sort: this.sortState.sort });
    this.sendWindow(runId, this.sortState.version, 0, FIRST_CHUNK_ROWS);
    this.send({
      type: 'query/done',
      runId,
      total: current.result.rows.length,
      ...(current.result.partial ? { partial: current.result.partial } : {}),
    });
    return true;
  }

  /** The grid's rows [start, end) in the current order (clamped to what exists and to MAX_WINDOW_ROWS). */
  async window(runId: number, sortVersion: number, start: number, end: number): Promise<void> {
    if (runId !== this.current?.runId || sortVersion !== this.sortState.version) return; // an answer to an older question
    this.sendWindow(runId, sortVersion, start, end);
  }

  /** Sorts the whole result (indices only) and tells the grid; undefined goes back to the portal's order. */
  async sort(runId: number, sort: SortSpec | undefined): Promise<void> {
    const current = this.current;
    if (!current?.complete || runId !== current.runId) return;
    const order = exportOrder(current.result.columns, current.result.rows, sort);
    this.sortState = { version: this.sortState.version + 1, sort: order ? sort : undefined, order };
    this.send({
      type: 'query/sorted',
      runId,
      sortVersion: this.sortState.version,
      ...(this.sortState.sort ? { sort: this.sortState.sort } : {}),
    });
  }

  /**
   * The record ids of the rows the page selected at `ranges`, positions in the order of run `runId` sorted as
   * `sortVersion` says; refused when the result or its order has changed since (positions would name other rows).
   */
  selectedRecordIds(runId: number, sortVersion: number, ranges: readonly RowRange[]): string[] {
    const current = this.current;
    if (!current?.complete || runId !== current.runId || sortVersion !== this.sortState.version)
      throw new Error('The order changed: select the rows again.');
    return selectedRecordIds(current.result.rows, this.sortState.order, ranges);
  }

  /**
   * Stops a run in progress (the user's Cancel): the rows read so far stay, marked partial, and the run ends
   * with them; so does every place showing the same copy (the tree, a grid), as they show one read.
   */
  cancel(runId = this.lastRunId): void {
    if (runId === this.lastRunId) this.running?.hold.session.stop();
  }

  /** Gives the run up and lets the result's copy go (the panel closed): its memory goes back unless shown elsewhere. */
  dispose(): void {
    this.giveUpRun();
    const hold = this.current?.hold;
    this.current = undefined;
    hold?.release();
  }

  /** Holds the copy of `rows` while `read` (an export) reads them, even if a newer run replaces them meanwhile. */
  async reading<T>(rows: RowStore, read: () => Promise<T>): Promise<T> {
    const current = this.current;
    if (current?.result.rows !== rows) throw new Error('These rows are no longer the result shown: run the query again.');
    const hold = current.hold.session.hold();
    try {
      return await read();
    } finally {
      hold.release();
    }
  }

  private currentColumns(): GridColumn[] {
    return this.current?.result.columns ?? [];
  }

  private async ensureAppColumns(signal: AbortSignal): Promise<void> {
    try {
      this.appColumns ??= await this.source.listColumns(this.appId, signal);
    } catch (error) {
      // The grid can do without kinds and choices (it falls back to the metadata's type names).
      if (isCancellation(error)) throw error;
    }
  }

  private begin(runId: number, filters: readonly ViewFilter[], metadata: ViewMetadataEntry[], hold: ViewReadHold): void {
    const previous = this.current?.hold;
    const rows = hold.session.rows;
    if (!rows) throw new Error('The view read has no rows to show yet.');
    this.lastMetadata = metadata;
    const columns = shaped(
      gridColumns(this.appId, metadata, (id) => this.columnsOf(id)),
      this.shape,
    );
    const result: QueryResult = { filters: [...filters], columns, rows };
    this.current = { runId, result, complete: false, hold };
    this.sortState = { version: 0, sort: undefined, order: undefined };
    if (previous && previous !== hold) previous.release();
  }

  /** The answer is in (or broke off): the real columns when they differ, then done (partial when it broke). */
  private async finish(runId: number, filters: readonly ViewFilter[], read: ViewReadEnd, hold: ViewReadHold): Promise<void> {
    if (this.current?.hold !== hold) {
      this.begin(runId, filters, read.metadata ?? [], hold); // no rows at all
      this.send({ type: 'query/result', runId, columns: this.currentColumns() });
    } else if (read.metadata) {
      const columns = shaped(
        gridColumns(this.appId, read.metadata, (id) => this.columnsOf(id)),
        this.shape,
      );
      this.lastMetadata = read.metadata;
      if (JSON.stringify(columns) !== JSON.stringify(this.current.result.columns)) {
        this.current.result.columns = columns;
        this.send({ type: 'query/result', runId, columns });
        this.sendWindow(runId, 0, 0, FIRST_CHUNK_ROWS);
      }
    }
    const current = this.current;
    if (!current) return;
    current.complete = true;
    const count = read.rows.length.toLocaleString('en-US');
    if (read.failure) current.result.partial = `${describeError(read.failure, READ_FAILED)} ${count} rows were read before it broke off.`;
    else if (read.stopped) current.result.partial = `Cancelled after ${count} rows.`;
    const sort = this.shape?.sort;
    if (sort && current.result.columns.some((column) => column.key === sort.key)) {
      await this.sort(runId, sort);
      this.sendWindow(runId, this.sortState.version, 0, FIRST_CHUNK_ROWS);
    }
    this.send({
      type: 'query/done',
      runId,
      total: read.rows.length,
      ...(current.result.partial ? { partial: current.result.partial } : {}),
    });
  }

  private sendWindow(runId: number, sortVersion: number, start: number, end: number): void {
    const current = this.current;
    if (!current) return;
    const rows = current.result.rows;
    const from = Math.max(0, Math.min(start, rows.length));
    const to = Math.max(from, Math.min(end, rows.length, from + MAX_WINDOW_ROWS));
    const keys = current.result.columns.map((column) => column.key);
    const order = sortVersion === 0 ? undefined : this.sortState.order;
    const chunk = new Array<string[]>(to - from);
    for (let index = from; index < to; index += 1) chunk[index - from] = rowArray(rows.row(order ? order[index] : index), keys);
    this.send({ type: 'query/rows', runId, sortVersion, start: from, rows: chunk });
  }

  /**
   * Hands a message to the page without waiting until it is taken. VS Code delivers a webview's messages in
   * order, and its postMessage resolves only after a round trip to the workbench: waiting for each held up
   * the read (a batch's messages are sent before the reader goes on) and the final count behind them. The
   * one refusal is a page closed meanwhile (Panel.post checks first; a close can come between): nothing to tell.
   */
  private send(message: HostToQueryMessage): void {
    Promise.resolve(this.post(message)).catch(() => undefined);
  }

  /** Reads the columns of the Lookup apps the view shows, so their columns can be filtered by kind. */
  private async learnLookupApps(metadata: readonly ViewMetadataEntry[], signal: AbortSignal): Promise<void> {
    const missing = lookupAppsOf(this.appId, metadata).filter((id) => !this.otherApps.has(id));
    for (const id of missing) {
      try {
        this.otherApps.set(id, await this.source.listColumns(id, signal));
      } catch {
        this.otherApps.set(id, []); // unreadable: its columns are offered with the metadata's type names
      }
    }
    if (metadata.some((entry) => entry.app_id && entry.app_id !== this.appId) && this.appColumns) {
      this.send({ type: 'query/columns', columns: filterColumns(this.appId, this.appColumns, metadata, (id) => this.columnsOf(id)) });
    }
  }
}

/** What a failed read says when its error says nothing. */
const READ_FAILED = 'Reading the view failed.';

/** The filter row a refusal is about: "Filter 2: ..." from the local encoding, or the column the portal names. */
function filterIndexOf(error: unknown, filters: readonly ViewFilter[]): { filterIndex?: number } {
  if (!isPortalError(error)) return {};
  const numbered = /^Filter (\d+):/.exec(error.message);
  if (numbered) return { filterIndex: Number(numbered[1]) - 1 };
  if (error.field) {
    const index = filters.findIndex((filter) => filter.column === error.field || `f${filter.column}` === error.field);
    if (index >= 0) return { filterIndex: index };
  }
  return {};
}
