// Watched views: each is read again at the interval (watch/scheduler.ts decides when) through the same read
// the tree uses, compared with its last read by the rows' hashes (watch/rowDigest.ts: 16 bytes a row kept),
// and what changed is shown: the rows marked in the tree and counted on the Portal view's badge
// (changeMarks.ts), the changes told on the record bus as a webhook's are (so documents and open grids
// follow them, and a document with unsaved edits is left alone), and a notification for the user's own
// records. Which views are watched is kept per VS Code (globalState), so it survives a reload.
import * as vscode from 'vscode';
import type { Stores } from '../catalog/stores';
import { Disposable } from '../lifecycle';
import type { Logger } from '../log';
import type { ViewTarget } from '../model/targets';
import type { LiveRefresh } from '../webhooks/liveRefresh';
import { onDidChangeSettings, setting } from '../settings/settings';
import { ViewDigest, type RowChange } from '../watch/rowDigest';
import { PollScheduler, type PollTarget } from '../watch/scheduler';
import type { ChangeMarks } from './changeMarks';
import { OwnRecords, type MyRecordsSource } from './ownRecords';
import { readWatchedView, type WatchedRead } from './reads';

/** A watched view as kept: the view, or My Records of a portal (its reads are filtered, across apps). */
export interface WatchedView extends ViewTarget {
  readonly viewName?: string;
}

const STATE_KEY = 'portal.watchedViews';
const ANY_WATCHED_CONTEXT = 'portal.anyWatched';
const SEPARATOR = '\u0000';
/** A view row's own fields (f<N>); a Lookup app's columns (l<N>) are another record's. */
const OWN_FIELD = /^f\d+$/;
export const watchKey = (view: ViewTarget): string => [view.portalId, view.appId, view.viewId].join(SEPARATOR);

export type WatchedViewsParts = Pick<Stores, 'portals' | 'catalog' | 'rows' | 'titles' | 'recordEvents' | 'versions'> & {
  readonly state: vscode.Memento;
  readonly liveRefresh: LiveRefresh;
  readonly marks: ChangeMarks;
  readonly log: Logger;
  readonly myRecords?: MyRecordsSource;
};

export class WatchedViews extends Disposable {
  private readonly scheduler: PollScheduler;
  private readonly digests = new Map<string, ViewDigest>();
  private readonly watched = new Map<string, WatchedView>();
  /** My Records whose first reads are done: their digests are kept per read, not under the watch's key. */
  private readonly ownBaselines = new Set<string>();
  private readonly own: OwnRecords;
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  /** Fires when a view starts or stops being watched. */
  readonly onDidChange: vscode.Event<void> = this.changed.event;

  constructor(private readonly parts: WatchedViewsParts) {
    super();
    this.own = new OwnRecords(parts);
    this.scheduler = new PollScheduler(
      {
        intervalMs: () => setting('watch.intervalSeconds') * 1000,
        read: (target, signal) => this.readOnce(target, signal),
        pausedMs: (portalId) => (parts.portals.get(portalId) ? parts.portals.limiter(portalId).pausedMs() : 0),
        failed: (target, error, failures, next) =>
          parts.log.warn(
            `Watched view ${target.key.split(SEPARATOR).join('/')}: read ${failures} time(s) in a row without success (${error instanceof Error ? error.message : String(error)}); next in ${Math.round(next / 1000)} s.`,
          ),
      },
      vscode.window.state.focused,
    );
    this._register({ dispose: () => this.scheduler.dispose() });
    this._registerAll(
      vscode.window.onDidChangeWindowState((state) => this.scheduler.setFocused(state.focused)),
      // Webhook events of an app tell of its changes as they happen: its watched views need no reads then.
      parts.recordEvents.onDidChange((change) => {
        if (change.origin === 'webhook') this.scheduler.webhookArrived(change.portalId, change.appId);
      }),
      onDidChangeSettings(['watch.intervalSeconds'], () => {
        // The next turn takes the new interval; a view read seldom gets it now rather than at its old turn.
        for (const key of this.scheduler.keys()) this.restart(key);
      }),
      // A removed portal's watches go with it.
      parts.portals.onDidChange(() => {
        const connected = new Set(parts.portals.list().map((connection) => connection.id));
        for (const view of [...this.watched.values()]) if (!connected.has(view.portalId)) this.stop(view);
      }),
    );
    for (const view of parts.state.get<WatchedView[]>(STATE_KEY, [])) if (isWatchedView(view)) this.start(view);
    this.updateContext();
    this._register(this.onDidChange(() => this.updateContext()));
  }

  /** Stop Watching is offered in the tree's menus while any view is watched. */
  private updateContext(): void {
    // Not awaited: a context key for menus; nothing waits for it.
    void vscode.commands.executeCommand('setContext', ANY_WATCHED_CONTEXT, this.watched.size > 0);
  }

  /** What the reads found and the user has not looked at yet. */
  get marks(): ChangeMarks {
    return this.parts.marks;
  }

  /** Whether the reads wait now because no window has focus (the scheduler's view of it). */
  get focused(): boolean {
    return vscode.window.state.focused;
  }

  list(): WatchedView[] {
    return [...this.watched.values()];
  }

  isWatched(view: ViewTarget): boolean {
    return this.watched.has(watchKey(view));
  }

  /** Starts watching: the first read is the baseline, the next ones are compared with it. */
  async watch(view: WatchedView): Promise<void> {
    if (this.isWatched(view)) return;
    this.start(view);
    await this.save();
    this.changed.fire();
  }

  async unwatch(view: ViewTarget): Promise<void> {
    if (!this.isWatched(view)) return;
    this.stop(view);
    await this.save();
    this.changed.fire();
  }

  /** Reads a watched view now (a test, or a command); waits for a read under way instead of starting one. */
  readNow(view: ViewTarget): Promise<void> {
    return this.scheduler.readNow(watchKey(view));
  }

  /** Whether the view's first read (the baseline) is done. */
  hasBaseline(view: ViewTarget): boolean {
    const key = watchKey(view);
    return this.digests.has(key) || this.ownBaselines.has(key);
  }

  private start(view: WatchedView): void {
    const key = watchKey(view);
    this.watched.set(key, {
      portalId: view.portalId,
      appId: view.appId,
      viewId: view.viewId,
      ...(view.viewName ? { viewName: view.viewName } : {}),
    });
    this.scheduler.watch({ key, portalId: view.portalId, appId: this.own.isMyRecords(view) ? undefined : view.appId });
  }

  private stop(view: ViewTarget): void {
    const key = watchKey(view);
    this.watched.delete(key);
    this.digests.delete(key);
    this.ownBaselines.delete(key);
    this.scheduler.unwatch(key);
    this.parts.marks.clearView(key);
  }

  private restart(key: string): void {
    const view = this.watched.get(key);
    if (!view) return;
    this.scheduler.unwatch(key);
    this.scheduler.watch({ key, portalId: view.portalId, appId: this.own.isMyRecords(view) ? undefined : view.appId });
  }

  private async save(): Promise<void> {
    await this.parts.state.update(STATE_KEY, this.list());
  }

  private async readOnce(target: PollTarget, signal: AbortSignal): Promise<void> {
    const view = this.watched.get(target.key);
    if (!view) return;
    const seenAt = Date.now();
    const reads = this.own.isMyRecords(view) ? await this.own.reads(view, signal) : [await this.readView(view, signal)];
    // Each of My Records' reads is a view of its own (its key); a view's is the watched view's.
    for (const { key, read, target: readTarget } of reads) {
      try {
        if (read.partial) throw read.partial;
        const { digest, changes } = ViewDigest.compare(this.digests.get(key), read.rows);
        this.digests.set(key, digest);
        if (changes.length > 0) await this.tell(view, readTarget, read, changes, seenAt);
        await this.own.remember(readTarget, read);
      } finally {
        if (read.own) read.rows.release();
      }
    }
    if (this.own.isMyRecords(view)) this.ownBaselines.add(target.key);
  }

  private async readView(view: WatchedView, signal: AbortSignal): Promise<{ key: string; read: WatchedRead; target: ViewTarget }> {
    return { key: watchKey(view), read: await readWatchedView(this.parts, view, signal), target: view };
  }

  private async tell(
    watched: WatchedView,
    view: ViewTarget,
    read: WatchedRead,
    changes: readonly RowChange[],
    seenAt: number,
  ): Promise<void> {
    const key = watchKey(watched);
    this.parts.marks.mark(key, view, changes);
    this.parts.log.info(
      `Watched view ${view.viewId} of app ${view.appId}: ${changes.length} row(s) new, changed or removed since the last read.`,
    );
    for (const change of changes) {
      // Record History keeps what the read found of a new or changed row (a view's columns: the rest of
      // the record stands as last kept), open or not: the portal keeps no versions.
      if (change.index !== undefined) {
        const { values } = read.rows.row(change.index);
        const data = Object.fromEntries(Object.entries(values).filter(([key]) => OWN_FIELD.test(key)));
        this.parts.versions.offer({
          record: { portalId: view.portalId, appId: view.appId, recordId: change.recordId },
          cause: 'watch',
          at: seenAt,
          data,
          whole: false,
        });
      }
      this.parts.liveRefresh.portalChanged({
        portalId: view.portalId,
        appId: view.appId,
        recordId: change.recordId,
        // A row gone from the view may only no longer match its conditions: its documents read it again.
        kind: change.kind === 'new' ? 'created' : 'updated',
        origin: 'watch',
        seenAt,
      });
    }
    await this.own.notify(view, read, changes);
  }
}

function isWatchedView(value: unknown): value is WatchedView {
  if (typeof value !== 'object' || value === null) return false;
  const { portalId, appId, viewId } = value as Record<string, unknown>;
  return typeof portalId === 'string' && typeof appId === 'string' && typeof viewId === 'string';
}
