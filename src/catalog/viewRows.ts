// The rows of the views the user opened in the tree, read once per view (the API returns a view's rows all
// at once, with no paging) and kept until refreshed, so that paging through them, expanding again and
// picking a record ask the portal nothing more.
import * as vscode from 'vscode';
import type { ViewRead } from '../api/client';
import type { Portals } from '../auth/portals';
import type { ViewTarget } from '../model/targets';
import type { Catalog } from './catalog';
import { SharedCache } from './sharedCache';

export interface ViewRowsChange {
  readonly portalId: string;
  readonly appId?: string;
  readonly viewId?: string;
}

const SEPARATOR = '\u0000';
const keyOf = (portalId: string, appId: string, viewId: string): string => [portalId, appId, viewId].join(SEPARATOR);

export class ViewRows implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ViewRowsChange>();
  /** Fires when kept rows were dropped: whoever shows them reads again. */
  readonly onDidChange: vscode.Event<ViewRowsChange> = this.changed.event;
  private readonly reads = new SharedCache<ViewRead>();
  private last: ViewTarget | undefined;

  constructor(
    private readonly portals: Portals,
    private readonly catalog: Catalog,
  ) {}

  /** The view's rows: one request, kept until dropped. */
  read(view: ViewTarget, signal?: AbortSignal): Promise<ViewRead> {
    this.last = { portalId: view.portalId, appId: view.appId, viewId: view.viewId, ...(view.viewName ? { viewName: view.viewName } : {}) };
    return this.reads.get(
      keyOf(view.portalId, view.appId, view.viewId),
      async (abort) => {
        const read = await this.portals.client(view.portalId).readView(view.appId, view.viewId, [], abort);
        if (read.rows.some((row) => row.draft === true)) this.catalog.noteDraftSeen(view.portalId, view.appId);
        return read;
      },
      signal,
    );
  }

  /** Keeps rows read elsewhere (e.g. when a view is checked before it is added). */
  async prime(view: ViewTarget, read: ViewRead): Promise<void> {
    await this.reads.get(keyOf(view.portalId, view.appId, view.viewId), async () => read);
  }

  /** The kept rows, without asking the portal. */
  peek(view: ViewTarget): ViewRead | undefined {
    return this.reads.peek(keyOf(view.portalId, view.appId, view.viewId));
  }

  /** The view read most recently (the tree's last expanded view), for pickers. */
  lastViewed(): ViewTarget | undefined {
    return this.last;
  }

  /** Drops kept rows: of one view, of an app's views, of a portal's, or all. */
  drop(portalId?: string, appId?: string, viewId?: string): void {
    const prefix = [portalId, appId, viewId].filter((part): part is string => part !== undefined);
    const dropped = this.reads.drop((key) => {
      const parts = key.split(SEPARATOR);
      return prefix.every((part, index) => parts[index] === part);
    });
    const portalsHit = new Set(dropped.map((key) => key.split(SEPARATOR)[0]));
    if (portalId !== undefined && portalsHit.size > 0) this.changed.fire({ portalId, appId, viewId });
    else for (const id of portalsHit) this.changed.fire({ portalId: id });
  }

  dispose(): void {
    this.changed.dispose();
  }
}
