// The tree's and Go to Record's hold on views' rows, without `vscode` (so it is tested in plain node): each
// view's unfiltered copy is held through the one view-read session (records/viewRead.ts), so a grid or a
// Query View showing the same view shares the read, and kept until dropped. Callers asking while the read
// is under way share it; one caller's abort leaves the others waiting, and the tree lets go of the read only
// when every caller has given up. A record change made during a read lets the read finish, then has the
// view read again once.
import { cancelled, PortalError } from '../api/errors';
import { untilAborted } from './sharedCache';
import type { RowStore } from '../api/rowStore';
import type { ViewMetadataEntry } from '../api/types';
import type { ViewTarget } from '../model/targets';
import type { ViewReadHold, ViewReadHub, ViewReadSession } from '../records/viewRead';

/** More rows of a view arrived: `count` in all so far. */
export interface ViewRowsArrival {
  readonly portalId: string;
  readonly appId: string;
  readonly viewId: string;
  readonly count: number;
}

/** A view's rows as kept for the tree, the pickers and Go to Record. */
export interface StoredView {
  readonly rows: RowStore;
  readonly metadata: readonly ViewMetadataEntry[];
  /** Set when the answer broke off or was cancelled: the rows before it are kept. */
  readonly partial?: PortalError;
}

/** What the reads use: the shared copies, where a draft was seen, and who hears of each batch. */
export interface ViewReadsDeps {
  readonly hub: ViewReadHub;
  noteDraftSeen(portalId: string, appId: string): void;
  arrived(arrival: ViewRowsArrival): void;
  /** A read that a record change overtook has ended, its rows not kept: whoever shows the view reads again. */
  outdated?(view: ViewTarget): void;
}

/** What a drop is for: a record change made at `changedAt` (ms) leaves reads started after it alone. */
export interface DropOptions {
  readonly changedAt?: number;
}

/** The tree's hold on one view's copy: its rows once read, and the callers waiting for them. */
interface Entry {
  readonly hold: ViewReadHold;
  readonly stored: Promise<StoredView>;
  value: StoredView | undefined;
  /** A record changed after the read started: it runs to its end (else a trickle of changes restarts it forever), then is read again. */
  outdated: boolean;
  /** Callers still waiting that may abort; the tree lets go when the last one does. */
  waiting: number;
  /** A caller without a signal waits for good (the tree expanding a view). */
  pinned: boolean;
  /** Ends the callers' wait as cancelled (the view was dropped). */
  cancel(): void;
  unsubscribe(): void;
}

/**
 * Rows checked for a draft per batch, at most (a view of drafts says so in its first rows): each is parsed
 * for it, and batches are 5,000 rows, so checking all would parse a million rows of a million-row view.
 */
const DRAFT_CHECK_ROWS = 500;

const SEPARATOR = '\u0000';
const keyOf = (view: Pick<ViewTarget, 'portalId' | 'appId' | 'viewId'>): string => [view.portalId, view.appId, view.viewId].join(SEPARATOR);

export class ViewReads {
  private readonly entries = new Map<string, Entry>();
  /** Holds of reads that ended outdated: their callers use the rows, let go when the view is read again. */
  private readonly retired = new Map<string, ViewReadHold>();

  constructor(private readonly deps: ViewReadsDeps) {}

  /** The view's rows: one request, read as it arrives (or shared with a read that is), kept until dropped. */
  read(view: ViewTarget, signal?: AbortSignal): Promise<StoredView> {
    if (signal?.aborted) return Promise.reject(cancelled('The read'));
    const key = keyOf(view);
    const entry = this.entries.get(key) ?? this.start(view, key);
    if (entry.value) return Promise.resolve(entry.value);
    return this.join(key, entry, signal);
  }

  private start(view: ViewTarget, key: string): Entry {
    const hold = this.deps.hub.open({ portalId: view.portalId, appId: view.appId, viewId: view.viewId });
    let settle!: { resolve: (stored: StoredView) => void; reject: (error: unknown) => void };
    const stored = new Promise<StoredView>((resolve, reject) => (settle = { resolve, reject }));
    // Nobody may be listening when every caller aborted; the rejection is theirs, not unhandled.
    stored.catch(() => undefined);
    let draftSeen = false;
    const failed = (error: unknown): void => {
      // The callers get the portal's answer first: forgetting the entry tells those still waiting "cancelled".
      settle.reject(error);
      this.forgetEntry(key, entry);
    };
    const entry: Entry = {
      hold,
      stored,
      value: undefined,
      outdated: false,
      waiting: 0,
      pinned: false,
      cancel: () => settle.reject(cancelled('The read')),
      unsubscribe: () => undefined,
    };
    this.entries.set(key, entry);
    entry.unsubscribe = hold.session.subscribe({
      batch: ({ rows, from, to }) => {
        for (let index = from; index < Math.min(to, from + DRAFT_CHECK_ROWS) && !draftSeen; index += 1)
          draftSeen = rows.row(index).draft === true;
        this.deps.arrived({ portalId: view.portalId, appId: view.appId, viewId: view.viewId, count: to });
      },
      ended: (end) => {
        if (this.entries.get(key) !== entry) return;
        if (draftSeen) this.deps.noteDraftSeen(view.portalId, view.appId);
        const partial = end.failure ?? (end.stopped ? new PortalError({ kind: 'cancelled', message: 'Cancelled' }) : undefined);
        const value: StoredView = { rows: end.rows, metadata: end.metadata ?? [], ...(partial ? { partial } : {}) };
        if (entry.outdated) {
          // Its callers get what it brought; nobody keeps it, and whoever shows the view reads it again.
          this.entries.delete(key);
          entry.unsubscribe();
          this.deps.hub.forget((session) => session === hold.session);
          this.retired.get(key)?.release();
          this.retired.set(key, hold);
          settle.resolve(value);
          this.deps.outdated?.(view);
          return;
        }
        entry.value = value;
        settle.resolve(value);
      },
      failed,
      broke: failed,
    });
    // The rows an outdated read brought are let go once the view's next read has ended, whichever way.
    const retired = this.retired.get(key);
    if (retired)
      stored
        .finally(() => {
          if (this.retired.get(key) !== retired) return;
          this.retired.delete(key);
          retired.release();
        })
        .catch(() => undefined);
    return entry;
  }

  private join(key: string, entry: Entry, signal: AbortSignal | undefined): Promise<StoredView> {
    if (!signal) {
      entry.pinned = true;
      return entry.stored;
    }
    entry.waiting += 1;
    return untilAborted(entry.stored, signal, () => {
      entry.waiting -= 1;
      if (entry.waiting === 0 && !entry.pinned && entry.value === undefined) this.forgetEntry(key, entry);
    });
  }

  /** The tree lets go of the entry: its callers still waiting are told it was cancelled. */
  private forgetEntry(key: string, entry: Entry): void {
    if (this.entries.get(key) !== entry) return;
    this.entries.delete(key);
    entry.unsubscribe();
    entry.cancel();
    entry.hold.release();
  }

  /** The kept rows, without asking the portal. */
  peek(view: ViewTarget): StoredView | undefined {
    return this.entries.get(keyOf(view))?.value;
  }

  /** The rows of a read under way, as far as they have arrived (undefined before the first rows). */
  arrivingRows(view: ViewTarget): RowStore | undefined {
    const entry = this.entries.get(keyOf(view));
    return entry && !entry.value && entry.hold.session.count > 0 ? entry.hold.session.rows : undefined;
  }

  /** The portals whose rows are kept or being read. */
  portals(): Set<string> {
    return new Set([...this.entries.keys()].map((key) => key.split(SEPARATOR)[0]));
  }

  /**
   * Ends the view's read under way early: the rows that arrived are kept, marked partial, by everything
   * sharing the read (one copy). False when none runs.
   */
  stop(view: ViewTarget): boolean {
    const entry = this.entries.get(keyOf(view));
    return entry !== undefined && !entry.value && entry.hold.session.stop();
  }

  /**
   * Drops kept rows: of one view, of an app's views, of a portal's, or all; reads under way end too (unless
   * a grid or a Query View shares them). For a record change (`changedAt`), rows read since are kept, and
   * reads under way run to their end and are then read again (outdated); the other copies of those views
   * read before the change are not shared with later opens. Answers the portals whose kept rows were dropped.
   */
  drop(portalId?: string, appId?: string, viewId?: string, options: DropOptions = {}): Set<string> {
    const prefix = [portalId, appId, viewId].filter((part): part is string => part !== undefined);
    const { changedAt } = options;
    const hit = (view: Pick<ViewTarget, 'portalId' | 'appId' | 'viewId'>): boolean => {
      const parts = [view.portalId, view.appId, view.viewId];
      return prefix.every((part, index) => parts[index] === part);
    };
    const older = (session: ViewReadSession): boolean => changedAt === undefined || session.startedAt < changedAt;
    this.deps.hub.forget((session) => hit(session.key) && older(session));
    const portals = new Set<string>();
    for (const [key, entry] of [...this.entries]) {
      const session = entry.hold.session;
      if (!hit(session.key) || !older(session)) continue;
      if (changedAt !== undefined && !entry.value) {
        entry.outdated = true;
        continue;
      }
      if (entry.value) portals.add(session.key.portalId);
      // A Go to Record pick open now keeps the items it shows, and says the view was refreshed (RecordFinder).
      this.forgetEntry(key, entry);
    }
    for (const [key, hold] of [...this.retired])
      if (hit(hold.session.key)) {
        this.retired.delete(key);
        hold.release();
      }
    return portals;
  }

  dispose(): void {
    for (const [key, entry] of [...this.entries]) this.forgetEntry(key, entry);
    for (const hold of this.retired.values()) hold.release();
    this.retired.clear();
  }
}
