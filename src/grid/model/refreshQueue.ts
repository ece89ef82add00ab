// The reads an open grid sends after webhooks about its rows. Each event used to send its own GET at once:
// the echoes of a save of 1,000 rows sent 1,000 GETs together, which a portal's rate limit refuses. Here:
// - at most `concurrency` reads on their way (a view read is one of them);
// - a record waiting is queued once, however many events name it;
// - an event for a record whose read is on its way has it read once more after that read: the event may
//   be newer than the copy coming;
// - a 'deleted' event needs no read (the webhook receiver confirmed it): it is handed over at once and
//   takes over a read waiting or on its way (that copy may be older than the deletion);
// - many records waiting are read with one read of the grid's view when the save's rule (viewCheck.ts)
//   says it is cheaper than their GETs; a record the answer does not hold (deleted, filtered out) is read
//   by its own GET, which says when it is gone, as the save's check does;
// - a 429 pauses every read for its Retry-After (saveRunner.ts does the same), and the refused read goes
//   first after it; any other failure is reported once per read and the record left as it is;
// - dispose (the grid closed) aborts the reads on their way and forgets the rest: nothing more is sent.
import { isCancellation, isPortalError } from '../../api/errors';
import type { RecordData } from '../../api/types';
import type { PortalCopy } from './changeSet';
import type { AppRecords } from '../../records/store';
import { shouldReadView, type ViewCheckSource } from './viewCheck';

export interface RefreshQueueOptions {
  /** The GET of one record. */
  readonly store: Pick<AppRecords, 'readCurrent'>;
  /** The grid's view, to read many waiting records at once; without it, a GET each. */
  readonly view?: ViewCheckSource;
  /** The portal's copy of a record read (or 'deleted'), for the grid to show. */
  readonly refreshed: (recordId: string, copy: PortalCopy) => void;
  /** A read that failed (not a cancellation): the record's GET, or (undefined) the view read. */
  readonly failed: (recordId: string | undefined, error: unknown) => void;
  /** Reads on their way at once; default 4 (as many as the save sends). */
  readonly concurrency?: number;
  /** The wait after a 429 without Retry-After; default 1 s. */
  readonly rateLimitWaitMs?: number;
  /** 429s in a row a read takes before it is reported failed; default 5. */
  readonly maxAttempts?: number;
}

/** 'any': by the view's read or a GET; 'get': the view's answer did not hold it, its own GET. */
type Way = 'any' | 'get';

interface OnItsWay {
  /** An event came while it was read: read it again after. */
  again: boolean;
  /** A 'deleted' event came while it was read: its copy is not shown. */
  deleted: boolean;
}

export class RefreshQueue {
  /** Records waiting, in the order their events came (a refused read is put back first). */
  private waiting = new Map<string, Way>();
  private readonly onItsWay = new Map<string, OnItsWay>();
  /** 429s in a row, by record ('' for the view read). */
  private readonly refusals = new Map<string, number>();
  private reads = 0;
  private pausedUntil = 0;
  private resume: ReturnType<typeof setTimeout> | undefined;
  private readonly abort = new AbortController();

  constructor(private readonly options: RefreshQueueOptions) {}

  private get concurrency(): number {
    return Math.max(1, this.options.concurrency ?? 4);
  }

  /** An event about `recordId`: read it (or, `deleted`, hand that over now). */
  add(recordId: string, deleted = false): void {
    if (this.abort.signal.aborted) return;
    const reading = this.onItsWay.get(recordId);
    if (deleted) {
      this.waiting.delete(recordId);
      if (reading) Object.assign(reading, { again: false, deleted: true });
      this.options.refreshed(recordId, 'deleted');
      return;
    }
    if (reading) reading.again = true;
    else if (!this.waiting.has(recordId)) this.waiting.set(recordId, 'any');
    this.pump();
  }

  dispose(): void {
    this.abort.abort();
    this.waiting.clear();
    if (this.resume) clearTimeout(this.resume);
  }

  private pump(): void {
    if (this.abort.signal.aborted) return;
    if (Date.now() < this.pausedUntil) return this.resumeLater();
    const view = this.options.view;
    while (this.reads < this.concurrency && this.waiting.size > 0) {
      // Counted before they are listed: when the view is too big to read, a burst of events is read a GET
      // at a time, and listing the records waiting before each GET would be quadratic in the burst.
      const byView =
        view && this.viewCheaper(view, this.waiting.size)
          ? [...this.waiting].flatMap(([recordId, way]) => (way === 'any' ? [recordId] : []))
          : [];
      if (view && this.viewCheaper(view, byView.length)) this.begin(byView, (recordIds) => this.readView(view, recordIds));
      else this.begin([this.waiting.keys().next().value as string], ([recordId]) => this.readRecord(recordId));
    }
  }

  /** Whether `waiting` records are read sooner with one read of the view than with a GET each (the save's rule). */
  private viewCheaper(view: ViewCheckSource, waiting: number): boolean {
    return (
      waiting > 1 &&
      shouldReadView({ changedRows: waiting, viewRows: view.viewRows, roundTripMs: view.roundTripMs(), concurrency: this.concurrency })
    );
  }

  private begin(recordIds: readonly string[], read: (recordIds: readonly string[]) => Promise<void>): void {
    for (const recordId of recordIds) {
      this.waiting.delete(recordId);
      this.onItsWay.set(recordId, { again: false, deleted: false });
    }
    this.reads += 1;
    // Not awaited: the reads report their own failures.
    void read(recordIds).finally(() => {
      this.reads -= 1;
      for (const recordId of recordIds) {
        const reading = this.onItsWay.get(recordId);
        this.onItsWay.delete(recordId);
        if (reading?.again && !this.waiting.has(recordId) && !this.abort.signal.aborted) this.waiting.set(recordId, 'any');
      }
      this.pump();
    });
  }

  private async readRecord(recordId: string): Promise<void> {
    try {
      const copy = await this.options.store.readCurrent(recordId, this.abort.signal);
      this.refusals.delete(recordId);
      this.show(recordId, copy ?? 'deleted');
    } catch (error) {
      if (this.settledRefusal(error, recordId, [recordId], 'get')) return;
      this.options.failed(recordId, error);
    }
  }

  private async readView(view: ViewCheckSource, recordIds: readonly string[]): Promise<void> {
    let copies: Map<string, RecordData>;
    try {
      copies = await view.read(new Set(recordIds), this.abort.signal, () => undefined);
      this.refusals.delete('');
    } catch (error) {
      if (this.settledRefusal(error, '', recordIds, 'any')) return;
      this.options.failed(undefined, error);
      copies = new Map();
    }
    const missing: string[] = [];
    for (const recordId of recordIds) {
      const copy = copies.get(recordId);
      if (copy) this.show(recordId, copy);
      else if (!this.onItsWay.get(recordId)?.deleted) missing.push(recordId);
    }
    this.putBack(missing, 'get');
  }

  /** Whether the failure is dealt with: a cancellation, or a 429 (the reads put back first, after a pause). */
  private settledRefusal(error: unknown, key: string, recordIds: readonly string[], way: Way): boolean {
    if (isCancellation(error) || this.abort.signal.aborted) return true;
    if (!(isPortalError(error) && error.kind === 'http' && error.status === 429)) return false;
    const refusals = (this.refusals.get(key) ?? 0) + 1;
    if (refusals >= (this.options.maxAttempts ?? 5)) {
      this.refusals.delete(key);
      return false;
    }
    this.refusals.set(key, refusals);
    this.pause(error.retryAfterMs ?? this.options.rateLimitWaitMs ?? 1_000);
    this.putBack(
      recordIds.filter((recordId) => !this.onItsWay.get(recordId)?.deleted),
      way,
    );
    return true;
  }

  /** Records to read before those waiting (their event came first). */
  private putBack(recordIds: readonly string[], way: Way): void {
    if (recordIds.length === 0 || this.abort.signal.aborted) return;
    for (const recordId of recordIds) {
      this.waiting.delete(recordId);
      // A read again after this one is not needed: the read put back comes after the event.
      const reading = this.onItsWay.get(recordId);
      if (reading) reading.again = false;
    }
    this.waiting = new Map([...recordIds.map((recordId): [string, Way] => [recordId, way]), ...this.waiting]);
  }

  private show(recordId: string, copy: PortalCopy): void {
    if (this.abort.signal.aborted || this.onItsWay.get(recordId)?.deleted) return;
    this.options.refreshed(recordId, copy);
  }

  private pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + ms);
    if (this.resume) clearTimeout(this.resume);
    this.resume = undefined;
    this.resumeLater();
  }

  /** The reads go on when the pause ends (a timer may fire a little early: pump waits again then). */
  private resumeLater(): void {
    this.resume ??= setTimeout(
      () => {
        this.resume = undefined;
        this.pump();
      },
      Math.max(0, this.pausedUntil - Date.now()),
    );
  }
}
