// The one way a view is read: one session per read, and one shared copy of a view's rows per portal, view
// and filters, held while anything shows it. The tree and Go to Record (catalog/viewReads.ts), the Query
// View (webviews/viewQuery/querySession.ts), the grid (grid/host/rowsReader.ts) and the board all read
// through it, so a view shown in four places is one request and one RowStore.
//
// The API, all of it:
// - `ViewReadHub.open(key, { fresh })` holds the shared copy of `key` (portal, app, view, filters): the one
//   read or being read, else a new read. `fresh` starts a new read for this holder and every later one
//   (Retry, Revert, Run again); holders of the older copy keep it until they let it go.
// - `ViewReadHold.session` is the copy; `ViewReadHold.release()` lets it go. When the last holder lets go
//   the read under way is aborted and the rows' memory goes back: hold for as long as you show the rows
//   (a RowStore is unusable once released).
// - `ViewReadSession.subscribe(listener)`: `batch` with the rows arrived (a late subscriber first gets
//   every row arrived so far as one batch), then `ended` (the whole view, or partial) or `failed` (nothing
//   read). Each listener's calls come in order, one at a time; the read waits for them (back-pressure).
// - `ViewReadSession.stop()`: Cancel. The read ends keeping the rows that arrived, marked partial
//   (`stopped`), for every holder: they show one copy. Retry is `open(key, { fresh: true })`.
// - `ViewReadHub.opener(view)`: `open` for one view, taking its filters (what a panel or a grid is given).
// - `ViewReadHub.forget(test)`: a refresh (or a record changed after a copy was read). Later opens read again; holders keep what they hold.
//
// Streaming and its rules (bytes kept, a row parsed when read, an answer broken off midway keeps the rows
// before it) are api/viewStream.ts's; this module decides who shares a read and when it ends.
import { PortalError } from '../api/errors';
import type { ViewFilter } from '../api/filters';
import type { RowStore } from '../api/rowStore';
import type { ViewMetadataEntry } from '../api/types';
import type { ViewBatch, ViewStreamOptions, ViewStreamResult } from '../api/viewStream';

/** What a session needs of PortalClient. */
export interface ViewReadSource {
  streamView(appId: string, viewId: string, filters: readonly ViewFilter[], options: ViewStreamOptions): Promise<ViewStreamResult>;
}

/** What is read: a portal's view, with filters (none: every row). Two keys alike share one copy. */
export interface ViewReadKey {
  readonly portalId: string;
  readonly appId: string;
  readonly viewId: string;
  readonly filters?: readonly ViewFilter[];
}

/** Rows [from, to) of `rows` arrived (rows before `from` were handed over already). */
export interface ViewReadBatch {
  readonly rows: RowStore;
  readonly from: number;
  readonly to: number;
  /** Every row is in (or the read broke off or was stopped): no batch follows, the end does. */
  readonly last?: true;
}

/** How a read that brought an answer ended: every row, or (partial) those before a break or a Cancel. */
export interface ViewReadEnd {
  readonly rows: RowStore;
  /** undefined only when the answer broke off before it. */
  readonly metadata: ViewMetadataEntry[] | undefined;
  /** The answer broke off midway: the rows before it are kept. */
  readonly failure?: PortalError;
  /** Cancel ended the read: the rows before it are kept. */
  readonly stopped?: true;
}

/** Whether `end` holds only some of the view's rows. */
export function isPartial(end: ViewReadEnd): boolean {
  return end.failure !== undefined || end.stopped === true;
}

/** What a holder hears of a read. A throw ends the listener's subscription and goes to its `broke`. */
export interface ViewReadListener {
  batch?(batch: ViewReadBatch): void | Promise<void>;
  ended?(end: ViewReadEnd): void | Promise<void>;
  /** The read failed before any row arrived (or was aborted: every holder let go). */
  failed?(error: unknown): void | Promise<void>;
  broke?(error: unknown): void;
}

/** One holder's share of a copy; `release` is idempotent. */
export interface ViewReadHold {
  readonly session: ViewReadSession;
  release(): void;
}

interface Subscription {
  readonly listener: ViewReadListener;
  tail: Promise<void>;
  active: boolean;
}

export class ViewReadSession {
  readonly key: ViewReadKey;
  /** When the read was sent (ms): a record changed before it may be in its rows, one changed after may not. */
  readonly startedAt = Date.now();
  private rowsValue: RowStore | undefined;
  private delivered = 0;
  private endValue: ViewReadEnd | undefined;
  private failure: { error: unknown } | undefined;
  private readonly abort = new AbortController();
  private readonly stopper = new AbortController();
  private holds = 0;
  private idle = false;
  private readonly subscriptions = new Set<Subscription>();
  private readonly done: Promise<ViewReadEnd>;

  constructor(
    source: ViewReadSource,
    key: ViewReadKey,
    /** Every holder let go (the hub forgets the copy). */
    private readonly onIdle: (session: ViewReadSession) => void = () => undefined,
    /** The read failed before any row (the hub forgets it, so the next open reads again). */
    private readonly onFailed: (session: ViewReadSession) => void = () => undefined,
  ) {
    this.key = { ...key, filters: [...(key.filters ?? [])] };
    this.done = this.run(source);
    // Nobody may be waiting on the end (a listener hears of it); the rejection is theirs, not unhandled.
    this.done.catch(() => undefined);
  }

  /** The rows so far (undefined before the first arrived, and once every holder let go). */
  get rows(): RowStore | undefined {
    return this.idle ? undefined : (this.endValue?.rows ?? this.rowsValue);
  }

  /** Rows handed over so far. */
  get count(): number {
    return this.delivered;
  }

  get metadata(): ViewMetadataEntry[] | undefined {
    return this.endValue?.metadata ?? this.rowsValue?.metadata;
  }

  /** From the request until the answer ended (whichever way). */
  get reading(): boolean {
    return this.endValue === undefined && this.failure === undefined;
  }

  /** How it ended, once it has with an answer. */
  get end(): ViewReadEnd | undefined {
    return this.endValue;
  }

  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** Whether every holder let go: nothing may hold it again. */
  get released(): boolean {
    return this.idle;
  }

  /** Resolves when the answer ended (not waiting for listeners); rejects when the read failed before any row. */
  ended(): Promise<ViewReadEnd> {
    return this.done;
  }

  /** One more holder of this very copy (an export that reads it while the panel may move on). */
  hold(): ViewReadHold {
    if (this.idle) throw new Error('This read of the view was let go: open the view again.');
    this.holds += 1;
    let held = true;
    return {
      session: this,
      release: () => {
        if (!held) return;
        held = false;
        this.holds -= 1;
        if (this.holds === 0) this.letGo();
      },
    };
  }

  /** Hears the read from now on, after the rows and the end so far; returns the unsubscribe. */
  subscribe(listener: ViewReadListener): () => void {
    const subscription: Subscription = { listener, tail: Promise.resolve(), active: true };
    this.subscriptions.add(subscription);
    const rows = this.rowsValue;
    if (rows && this.delivered > 0) {
      const batch: ViewReadBatch = { rows, from: 0, to: this.delivered, ...(this.reading ? {} : { last: true as const }) };
      // The listener's own queue keeps the order (enqueue never rejects); nothing waits on it here.
      void this.enqueue(subscription, () => listener.batch?.(batch));
    }
    const end = this.endValue;
    // Queued after the catch-up batch, in the listener's own queue; nothing waits on it here.
    if (end) void this.enqueue(subscription, () => listener.ended?.(end));
    const failure = this.failure;
    // As above: heard in order after what came before.
    if (failure) void this.enqueue(subscription, () => listener.failed?.(failure.error));
    return () => {
      subscription.active = false;
      this.subscriptions.delete(subscription);
    };
  }

  /** Cancel: the read under way ends keeping the rows that arrived, for every holder. False when none runs. */
  stop(): boolean {
    if (!this.reading) return false;
    this.stopper.abort();
    return true;
  }

  private async run(source: ViewReadSource): Promise<ViewReadEnd> {
    const { appId, viewId, filters = [] } = this.key;
    let result: ViewStreamResult;
    try {
      result = await source.streamView(appId, viewId, filters, {
        signal: this.abort.signal,
        stop: this.stopper.signal,
        onBatch: (batch) => this.arrived(batch),
      });
    } catch (error) {
      this.failure = { error };
      this.onFailed(this);
      await this.tell((listener) => listener.failed?.(error));
      throw error;
    }
    this.rowsValue = result.rows;
    // A Cancel may end the read between two batches: the rows after the last one go out now.
    if (result.rows.length > this.delivered)
      await this.arrived({ rows: result.rows, from: this.delivered, to: result.rows.length, last: true });
    const end: ViewReadEnd = {
      rows: result.rows,
      metadata: result.metadata,
      ...(result.failure ? { failure: result.failure } : {}),
      ...(result.stopped ? { stopped: true as const } : {}),
    };
    this.endValue = end;
    // Let go while the answer was still coming, and not aborted in time: nobody keeps these rows.
    if (this.idle) result.rows.release();
    else await this.tell((listener) => listener.ended?.(end));
    return end;
  }

  private async arrived({ rows, from, to, last }: ViewBatch | ViewReadBatch): Promise<void> {
    this.rowsValue = rows;
    this.delivered = to;
    const batch: ViewReadBatch = { rows, from, to, ...(last ? { last } : {}) };
    await this.tell((listener) => listener.batch?.(batch));
  }

  /** Every listener hears it in its own order; the read goes on once all have taken it. */
  private async tell(step: (listener: ViewReadListener) => void | Promise<void>): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => this.enqueue(subscription, () => step(subscription.listener))));
  }

  private enqueue(subscription: Subscription, step: () => void | Promise<void>): Promise<void> {
    subscription.tail = subscription.tail.then(async () => {
      if (!subscription.active) return;
      try {
        await step();
      } catch (error) {
        subscription.active = false;
        this.subscriptions.delete(subscription);
        subscription.listener.broke?.(error);
      }
    });
    return subscription.tail;
  }

  private letGo(): void {
    this.idle = true;
    this.subscriptions.clear();
    // The memory goes back now, not when the aborted answer's connection has closed: the read checks its
    // signal before it writes the next piece, and a released store takes no more.
    if (this.reading) this.abort.abort(new PortalError({ kind: 'cancelled', message: 'Nothing shows the view any more.' }));
    (this.endValue?.rows ?? this.rowsValue)?.release();
    this.onIdle(this);
  }
}

/** Holds the copy of one view with `filters` (ViewReadHub.opener). */
export type ViewOpener = (filters: readonly ViewFilter[], options?: { fresh?: boolean }) => ViewReadHold;

const keyText = (key: ViewReadKey): string => JSON.stringify([key.portalId, key.appId, key.viewId, key.filters ?? []]);

/** The shared copies of views' rows, one per portal, view and filters. */
export class ViewReadHub {
  private readonly current = new Map<string, ViewReadSession>();

  constructor(private readonly source: (portalId: string) => ViewReadSource) {}

  /** Holds the shared copy of `key`: the one read or being read, else (or `fresh`) a new read. */
  open(key: ViewReadKey, options: { fresh?: boolean } = {}): ViewReadHold {
    const text = keyText(key);
    let session = this.current.get(text);
    if (!session || options.fresh) {
      session = new ViewReadSession(
        this.source(key.portalId),
        key,
        (idle) => this.forgetSession(text, idle),
        (failed) => this.forgetSession(text, failed),
      );
      this.current.set(text, session);
    }
    return session.hold();
  }

  /** `open` for one view, its filters left to the caller (a panel's or a grid's own view). */
  opener(view: Omit<ViewReadKey, 'filters'>): ViewOpener {
    return (filters, options) => this.open({ ...view, filters }, options);
  }

  /** The copy a new open of `key` would share, without reading. */
  peek(key: ViewReadKey): ViewReadSession | undefined {
    return this.current.get(keyText(key));
  }

  /** Later opens of the copies that pass `test` read again; holders keep what they hold. */
  forget(test: (session: ViewReadSession) => boolean): void {
    for (const [text, session] of [...this.current]) if (test(session)) this.current.delete(text);
  }

  private forgetSession(text: string, session: ViewReadSession): void {
    if (this.current.get(text) === session) this.current.delete(text);
  }
}
