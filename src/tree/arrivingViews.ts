// The views the Portal explorer shows while their rows arrive: their "Loading… N rows" and "Load more…"
// items say how many rows are in now and then (not at every batch: a million rows come in 200 batches),
// and each view is drawn again once its read ends (its count, or the rows read and why it broke off).
import type { StoredView, ViewRows, ViewRowsArrival } from '../catalog/viewRows';
import { Disposable } from '../lifecycle';
import { nodeIds, type ExplorerNode, type ViewNode } from './nodes';

/** How often a view's "Loading… N rows" says how many rows have arrived. */
const PROGRESS_REDRAW_MS = 400;

export class ArrivingViews extends Disposable {
  /** Views shown while their rows arrive, by view node id. */
  private readonly following = new Map<string, ViewNode>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly rows: ViewRows,
    private readonly node: (id: string) => ExplorerNode | undefined,
    private readonly redraw: (nodes: ExplorerNode | ExplorerNode[]) => void,
  ) {
    super();
    this._register(rows.onDidArrive((arrival) => this.arrived(arrival)));
  }

  /** Draws `view` again as its rows arrive and once `read` ends. */
  follow(view: ViewNode, read: Promise<StoredView>): void {
    if (this.following.has(view.id)) return;
    this.following.set(view.id, view);
    const done = (): void => {
      this.following.delete(view.id);
      this.redraw(view);
    };
    // Not awaited: the tree's getChildren has answered already; this only draws the view once the read ends.
    void read.then(done, done);
  }

  override dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    super.dispose();
  }

  private arrived(arrival: ViewRowsArrival): void {
    if (this.timer) return;
    const followed = [...this.following.values()].some(
      (view) => view.portalId === arrival.portalId && view.appId === arrival.appId && view.viewId === arrival.viewId,
    );
    if (followed) this.timer = setTimeout(() => this.sayCounts(), PROGRESS_REDRAW_MS);
  }

  private sayCounts(): void {
    this.timer = undefined;
    const changed: ExplorerNode[] = [];
    for (const view of this.following.values()) {
      const count = this.rows.arrivingRows(view)?.length;
      if (count === undefined) continue;
      const loading = this.node(nodeIds.loading(view));
      const more = this.node(nodeIds.loadMore(view));
      if (loading?.kind === 'loading' && loading.count !== count) {
        loading.count = count;
        changed.push(loading);
      }
      if (more?.kind === 'loadMore' && more.total !== count) {
        more.total = count;
        changed.push(more);
      }
    }
    this.redraw(changed);
  }
}
