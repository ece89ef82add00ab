// The rows of the views the user opened in the tree, read once per view (the API returns a view's rows all
// at once, with no paging) and kept until refreshed, so that paging through them, expanding again and
// picking a record ask the portal nothing more. Kept compactly (a RowStore: the answer's bytes and two
// offsets a row, parsed when read), so a million-row view costs about its size; dropping a view gives its
// memory back. An answer that broke off midway is kept with the rows read, marked partial. While a read is
// under way its rows are there already (arrivingRows, soon) and each batch is announced (onDidArrive), so
// the tree and Go to Record show them as they come; stop() ends a read early keeping what arrived.
import * as vscode from 'vscode';
import { PortalError } from '../api/errors';
import type { RowStore } from '../api/rowStore';
import type { ViewMetadataEntry } from '../api/types';
import type { Portals } from '../auth/portals';
import { Disposable } from '../lifecycle';
import type { ViewTarget } from '../model/targets';
import type { Catalog } from './catalog';
import { SharedCache } from './sharedCache';

export interface ViewRowsChange {
  readonly portalId: string;
  readonly appId?: string;
  readonly viewId?: string;
}

/** More rows of a view arrived: `count` in all so far. */
export interface ViewRowsArrival {
  readonly portalId: string;
  readonly appId: string;
  readonly viewId: string;
  readonly count: number;
}

/** A view's rows as soon as some are there: the kept read, or the rows of a read under way and that read. */
export type ViewRowsSoon = { readonly stored: StoredView } | { readonly arriving: RowStore; readonly read: Promise<StoredView> };

/** A read under way: its rows once the first batch came, and what ends it early keeping them. */
interface Reading {
  rows: RowStore | undefined;
  readonly stop: AbortController;
}

/** A view's rows as kept for the tree, the pickers and Go to Record. */
export interface StoredView {
  readonly rows: RowStore;
  readonly metadata: readonly ViewMetadataEntry[];
  /** Set when the answer broke off: the rows before it are kept. */
  readonly partial?: PortalError;
}

/**
 * Rows checked for a draft per batch, at most (a view of drafts says so in its first rows): each is parsed
 * for it, and batches are 5,000 rows, so checking all would parse a million rows of a million-row view.
 */
const DRAFT_CHECK_ROWS = 500;

const SEPARATOR = '\u0000';
const keyOf = (portalId: string, appId: string, viewId: string): string => [portalId, appId, viewId].join(SEPARATOR);

export class ViewRows extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<ViewRowsChange>());
  /** Fires when kept rows were dropped: whoever shows them reads again. */
  readonly onDidChange: vscode.Event<ViewRowsChange> = this.changed.event;
  private readonly arrived = this._register(new vscode.EventEmitter<ViewRowsArrival>());
  /** Fires with each batch of a read under way. */
  readonly onDidArrive: vscode.Event<ViewRowsArrival> = this.arrived.event;
  private readonly reads = new SharedCache<StoredView>();
  /** Reads under way, from their start until they end: Go to Record and the tree show their rows already. */
  private readonly arriving = new Map<string, Reading>();
  private last: ViewTarget | undefined;

  constructor(
    private readonly portals: Portals,
    private readonly catalog: Catalog,
  ) {
    super();
  }

  /** The view's rows: one request, read as it arrives, kept until dropped. */
  read(view: ViewTarget, signal?: AbortSignal): Promise<StoredView> {
    this.last = { portalId: view.portalId, appId: view.appId, viewId: view.viewId, ...(view.viewName ? { viewName: view.viewName } : {}) };
    return this.reads.get(
      keyOf(view.portalId, view.appId, view.viewId),
      async (abort) => {
        const key = keyOf(view.portalId, view.appId, view.viewId);
        // A refresh may start a new read of the view while this one still runs: each keeps to its own entry.
        const reading: Reading = { rows: undefined, stop: new AbortController() };
        this.arriving.set(key, reading);
        let draftSeen = false;
        try {
          const read = await this.portals.client(view.portalId).streamView(view.appId, view.viewId, [], {
            signal: abort,
            stop: reading.stop.signal,
            onBatch: ({ rows, from, to }) => {
              reading.rows = rows;
              for (let index = from; index < Math.min(to, from + DRAFT_CHECK_ROWS) && !draftSeen; index += 1) draftSeen = rows.row(index).draft === true;
              this.arrived.fire({ portalId: view.portalId, appId: view.appId, viewId: view.viewId, count: to });
            },
          });
          if (draftSeen) this.catalog.noteDraftSeen(view.portalId, view.appId);
          const partial = read.failure ?? (read.stopped ? new PortalError({ kind: 'cancelled', message: 'Cancelled' }) : undefined);
          return { rows: read.rows, metadata: read.metadata ?? [], ...(partial ? { partial } : {}) };
        } finally {
          if (this.arriving.get(key) === reading) this.arriving.delete(key);
        }
      },
      signal,
    );
  }

  /** The kept rows, without asking the portal. */
  peek(view: ViewTarget): StoredView | undefined {
    return this.reads.peek(keyOf(view.portalId, view.appId, view.viewId));
  }

  /** The rows of a read under way, as far as they have arrived (undefined before the first rows). */
  arrivingRows(view: ViewTarget): RowStore | undefined {
    return this.arriving.get(keyOf(view.portalId, view.appId, view.viewId))?.rows;
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
        const rows = arrival.portalId === view.portalId && arrival.appId === view.appId && arrival.viewId === view.viewId ? this.arrivingRows(view) : undefined;
        if (rows) resolve(rows);
      });
    });
    // The metadata follows the rows: once it is there the answer is in, and the read ends a moment later.
    const firstOrAll = first.then(async (arriving): Promise<ViewRowsSoon> => (arriving.metadata ? { stored: await read } : { arriving, read }));
    try {
      return await Promise.race([read.then((stored): ViewRowsSoon => ({ stored })), firstOrAll]);
    } finally {
      listener?.dispose();
    }
  }

  /** Ends the view's read under way early: the rows that arrived are kept, marked partial. False when none runs. */
  stop(view: ViewTarget): boolean {
    const reading = this.arriving.get(keyOf(view.portalId, view.appId, view.viewId));
    reading?.stop.abort();
    return reading !== undefined;
  }

  /** The view read most recently (the tree's last expanded view), for pickers. */
  lastViewed(): ViewTarget | undefined {
    return this.last;
  }

  /** Drops kept rows: of one view, of an app's views, of a portal's, or all. */
  drop(portalId?: string, appId?: string, viewId?: string): void {
    const prefix = [portalId, appId, viewId].filter((part): part is string => part !== undefined);
    const hit = (key: string): boolean => {
      const parts = key.split(SEPARATOR);
      return prefix.every((part, index) => parts[index] === part);
    };
    const released = this.reads.keys().filter(hit).map((key) => this.reads.peek(key));
    const dropped = this.reads.drop(hit);
    // Whoever still shows them (a quick pick open now) keeps reading its own copy of the items.
    for (const stored of released) stored?.rows.release();
    const portalsHit = new Set(dropped.map((key) => key.split(SEPARATOR)[0]));
    if (portalId !== undefined && portalsHit.size > 0) this.changed.fire({ portalId, appId, viewId });
    else for (const id of portalsHit) this.changed.fire({ portalId: id });
  }

  override dispose(): void {
    for (const key of this.reads.keys()) this.reads.peek(key)?.rows.release();
    super.dispose();
  }
}
