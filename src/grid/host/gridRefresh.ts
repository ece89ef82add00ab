// The open grid's refresh queue (src/grid/model/refreshQueue.ts) over its portal: a record's GET, and the grid's
// view with the grid's filters, read as the save's check reads it (readViewCopies), weighed by the
// client's round trip and the rows the grid shows. A failed read is one log line, as before the queue.
import type { PortalClient } from '../../api/client';
import type { ViewFilter } from '../../api/filters';
import type { GridModel } from '../model/gridModel';
import { appRecords } from '../../records/store';
import type { VersionSource } from '../../records/versions';
import { RefreshQueue } from '../model/refreshQueue';
import { readViewCopies } from '../model/viewCheck';
import type { Logger } from '../../log';

export interface RefreshedGrid {
  /** The portal's client now (a new sign-in may replace it). */
  client(): PortalClient;
  readonly appId: string;
  readonly viewId: string;
  /** The grid's filters as last run. */
  filters(): readonly ViewFilter[];
  /** Where a record's copy read is offered (Record History, which puts it down to the webhook or watched read). */
  readonly history?: VersionSource;
  /** The grid's rows, once loaded: the model takes a copy read or marks the row (portalChanged). */
  model(): GridModel | undefined;
  /** The rows to redraw after that. */
  changed(changed: readonly string[], removed: readonly string[]): void;
}

export function gridRefreshQueue(grid: RefreshedGrid, log: Logger): RefreshQueue {
  const { appId, viewId } = grid;
  return new RefreshQueue({
    store: { readCurrent: (recordId, signal) => appRecords(grid.client(), appId, { history: grid.history }).readCurrent(recordId, signal) },
    view: {
      // What a read of the view brings: the rows the grid shows.
      get viewRows() {
        return grid.model()?.rowCount ?? 0;
      },
      roundTripMs: () => grid.client().roundTripMs,
      read: (wanted, signal, onRows) =>
        readViewCopies(grid.client(), { appId, viewId, filters: [...grid.filters()] }, wanted, signal, onRows),
    },
    refreshed: (recordId, copy) => {
      const { changed, removed } = grid.model()?.portalChanged(recordId, copy) ?? { changed: [], removed: [] };
      grid.changed(changed, removed);
    },
    failed: (recordId, error) => {
      const reason = error instanceof Error ? error.message : String(error);
      if (recordId === undefined)
        log.warn(`refreshing rows of view ${viewId} with one read of it failed (each is read on its own): ${reason}`);
      else log.warn(`refreshing row ${recordId} of view ${viewId} failed: ${reason}`);
    },
  });
}
