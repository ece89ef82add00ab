// The rows of the views the user opened in the tree, read once per view (the API returns a view's rows all
// at once, with no paging) and kept until refreshed, so that paging through them, expanding again and
// picking a record ask the portal nothing more. Kept compactly (a RowStore: the answer's bytes and two
// offsets a row, parsed when read), so a million-row view costs about its size; dropping a view gives its
// memory back. An answer that broke off midway is kept with the rows read, marked partial.
import * as vscode from 'vscode';
import type { PortalError } from '../api/errors';
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

/** A view's rows as kept for the tree, the pickers and Go to Record. */
export interface StoredView {
  readonly rows: RowStore;
  readonly metadata: readonly ViewMetadataEntry[];
  /** Set when the answer broke off: the rows before it are kept. */
  readonly partial?: PortalError;
}

/** Rows checked for a draft per batch, at most (a view of drafts says so in its first rows). */
const DRAFT_CHECK_ROWS = 5_000;

const SEPARATOR = '\u0000';
const keyOf = (portalId: string, appId: string, viewId: string): string => [portalId, appId, viewId].join(SEPARATOR);

export class ViewRows extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<ViewRowsChange>());
  /** Fires when kept rows were dropped: whoever shows them reads again. */
  readonly onDidChange: vscode.Event<ViewRowsChange> = this.changed.event;
  private readonly reads = new SharedCache<StoredView>();
  /** Stores being filled, from their first rows until the read ends: Go to Record searches them already. */
  private readonly arriving = new Map<string, RowStore>();
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
        let draftSeen = false;
        try {
          const read = await this.portals.client(view.portalId).streamView(view.appId, view.viewId, [], {
            signal: abort,
            onBatch: ({ rows, from, to }) => {
              this.arriving.set(key, rows);
              for (let index = from; index < Math.min(to, from + DRAFT_CHECK_ROWS) && !draftSeen; index += 1) draftSeen = rows.row(index).draft === true;
            },
          });
          if (draftSeen) this.catalog.noteDraftSeen(view.portalId, view.appId);
          return { rows: read.rows, metadata: read.metadata ?? [], ...(read.failure ? { partial: read.failure } : {}) };
        } finally {
          this.arriving.delete(key);
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
    return this.arriving.get(keyOf(view.portalId, view.appId, view.viewId));
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
