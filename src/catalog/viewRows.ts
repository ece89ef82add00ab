// The rows of the views the user opened in the tree, read once per view (the API returns a view's rows all
// at once, with no paging) and kept until refreshed, so that paging through them, expanding again and
// picking a record ask the portal nothing more. Kept compactly (a RowStore: the answer's bytes and two
// offsets a row, parsed when read), so a million-row view costs about its size; dropping a view gives its
// memory back. An answer that broke off midway is kept with the rows read, marked partial. While a read is
// under way its rows are there already (arrivingRows, soon) and each batch is announced (onDidArrive), so
// the tree and Go to Record show them as they come; stop() ends a read early keeping what arrived. The reads
// themselves are in viewReads.ts, without `vscode`, so that they are tested in plain node; they hold the
// shared copies of the one view-read session (records/viewRead.ts), which grids and Query Views share.
import * as vscode from 'vscode';
import type { RowStore } from '../api/rowStore';
import type { Portals } from '../auth/portals';
import { Disposable } from '../lifecycle';
import type { ViewTarget } from '../model/targets';
import type { ViewReadHub } from '../records/viewRead';
import type { Catalog } from './catalog';
import { ViewReads, type DropOptions, type StoredView, type ViewRowsArrival } from './viewReads';

export type { StoredView, ViewRowsArrival } from './viewReads';

export interface ViewRowsChange {
  readonly portalId: string;
  readonly appId?: string;
  readonly viewId?: string;
}

/** A view's rows as soon as some are there: the kept read, or the rows of a read under way and that read. */
export type ViewRowsSoon = { readonly stored: StoredView } | { readonly arriving: RowStore; readonly read: Promise<StoredView> };

export class ViewRows extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<ViewRowsChange>());
  /** Fires when kept rows were dropped: whoever shows them reads again. */
  readonly onDidChange: vscode.Event<ViewRowsChange> = this.changed.event;
  private readonly arrived = this._register(new vscode.EventEmitter<ViewRowsArrival>());
  /** Fires with each batch of a read under way. */
  readonly onDidArrive: vscode.Event<ViewRowsArrival> = this.arrived.event;
  private readonly reads: ViewReads;
  private last: ViewTarget | undefined;

  constructor(portals: Portals, catalog: Catalog, hub: ViewReadHub) {
    super();
    this.reads = new ViewReads({
      hub,
      noteDraftSeen: (portalId, appId) => catalog.noteDraftSeen(portalId, appId),
      arrived: (arrival) => this.arrived.fire(arrival),
      outdated: (view) => this.changed.fire({ portalId: view.portalId, appId: view.appId, viewId: view.viewId }),
    });
    // A removed portal's rows go (and its reads stop): a portal added later under the same id starts afresh.
    this._register(
      portals.onDidChange(() => {
        const connected = new Set(portals.list().map((connection) => connection.id));
        for (const id of this.reads.portals()) if (!connected.has(id)) this.drop(id);
      }),
    );
  }

  /** The view's rows: one request, read as it arrives, kept until dropped. */
  read(view: ViewTarget, signal?: AbortSignal): Promise<StoredView> {
    this.last = { portalId: view.portalId, appId: view.appId, viewId: view.viewId, ...(view.viewName ? { viewName: view.viewName } : {}) };
    return this.reads.read(view, signal);
  }

  /** The kept rows, without asking the portal. */
  peek(view: ViewTarget): StoredView | undefined {
    return this.reads.peek(view);
  }

  /** The rows of a read under way, as far as they have arrived (undefined before the first rows). */
  arrivingRows(view: ViewTarget): RowStore | undefined {
    return this.reads.arrivingRows(view);
  }
  /**
   * The view's rows as soon as there are some: the kept read when there is one, else (reading it if need be)
   * the first batch of the read under way with the read itself, or the whole read if it ends first.
   */
  async soon(view: ViewTarget): Promise<ViewRowsSoon> {
    const read = this.read(view);
    const kept = this.peek(view);
    if (kept) return { stored: kept };
    let listener: vscode.Disposable | undefined;
    const first = new Promise<RowStore>((resolve) => {
      const now = this.arrivingRows(view);
      if (now) return resolve(now);
      listener = this.arrived.event((arrival) => {
        const rows =
          arrival.portalId === view.portalId && arrival.appId === view.appId && arrival.viewId === view.viewId
            ? this.arrivingRows(view)
            : undefined;
        if (rows) resolve(rows);
      });
    });
    // The metadata follows the rows: once it is there the answer is in, and the read ends a moment later.
    const firstOrAll = first.then(async (arriving): Promise<ViewRowsSoon> =>
      arriving.metadata ? { stored: await read } : { arriving, read },
    );
    try {
      return await Promise.race([read.then((stored): ViewRowsSoon => ({ stored })), firstOrAll]);
    } finally {
      listener?.dispose();
    }
  }

  /** Ends the view's read under way early: the rows that arrived are kept, marked partial. False when none runs. */
  stop(view: ViewTarget): boolean {
    return this.reads.stop(view);
  }

  /** The view read most recently (the tree's last expanded view), for pickers. */
  lastViewed(): ViewTarget | undefined {
    return this.last;
  }

  /** Drops kept rows: of one view, of an app's views, of a portal's, or all (for a record change: see ViewReads.drop). */
  drop(portalId?: string, appId?: string, viewId?: string, options?: DropOptions): void {
    const portalsHit = this.reads.drop(portalId, appId, viewId, options);
    if (portalId !== undefined && portalsHit.size > 0) this.changed.fire({ portalId, appId, viewId });
    else for (const id of portalsHit) this.changed.fire({ portalId: id });
  }

  override dispose(): void {
    this.reads.dispose();
    super.dispose();
  }
}
