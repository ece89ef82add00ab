// The one place watched views are read: a view through the tree's own read of it (ViewRows, dropped first
// so that it asks the portal again; the tree then shows these rows), and My Records' filtered reads
// through the client's streamed read. When the view reads move to one session, only this file changes.
import type { ViewFilter } from '../api/filters';
import type { RowStore } from '../api/rowStore';
import type { ViewMetadataEntry } from '../api/types';
import type { Stores } from '../catalog/stores';
import type { ViewTarget } from '../model/targets';

/** One read's rows: the tree's (kept by ViewRows), or this read's own (`own`: freed once compared). */
export interface WatchedRead {
  readonly rows: RowStore;
  readonly metadata: readonly ViewMetadataEntry[];
  /** Set when the read broke off: a partial read is not compared (its missing rows are not removals). */
  readonly partial?: Error;
  readonly own?: boolean;
}

export async function readWatchedView(parts: Pick<Stores, 'rows'>, view: ViewTarget, signal: AbortSignal): Promise<WatchedRead> {
  parts.rows.drop(view.portalId, view.appId, view.viewId);
  return parts.rows.read(view, signal);
}

export async function readFiltered(
  parts: Pick<Stores, 'portals'>,
  view: ViewTarget,
  filters: readonly ViewFilter[],
  signal: AbortSignal,
): Promise<WatchedRead> {
  const result = await parts.portals.client(view.portalId, 'bulk').streamView(view.appId, view.viewId, filters, { signal });
  return { rows: result.rows, metadata: result.metadata ?? [], own: true, ...(result.failure ? { partial: result.failure } : {}) };
}
