// The reads of view rows behind ViewRows, without `vscode` (so they are tested in plain node): one read per
// view shared by its callers and kept until dropped, and the reads under way with the rows arrived so far.
import { isCancellation, PortalError } from '../api/errors';
import type { PortalClient } from '../api/client';
import type { RowStore } from '../api/rowStore';
import type { ViewMetadataEntry } from '../api/types';
import type { ViewTarget } from '../model/targets';
import { cancelledError, SharedCache } from './sharedCache';

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
  /** Set when the answer broke off: the rows before it are kept. */
  readonly partial?: PortalError;
}

/** What the reads use: the portals' clients, where a draft was seen, and who hears of each batch. */
export interface ViewReadsDeps {
  client(portalId: string): Pick<PortalClient, 'streamView'>;
  noteDraftSeen(portalId: string, appId: string): void;
  arrived(arrival: ViewRowsArrival): void;
  /** A read that a record change overtook has ended, its rows not kept: whoever shows the view reads again. */
  outdated?(view: ViewTarget): void;
}

/** What a drop is for: a record change made at `changedAt` (ms) leaves reads started after it alone. */
export interface DropOptions {
  readonly changedAt?: number;
}

/** A read under way: its rows once the first batch came, what ends it early keeping them, and what ends it. */
interface Reading {
  rows: RowStore | undefined;
  readonly stop: AbortController;
  /** Aborted when the view is dropped: a caller without a signal (the tree) would keep the read going. */
  readonly drop: AbortController;
  readonly startedAt: number;
  /** A record changed after it started: it runs to its end (else a trickle of changes restarts it forever), then is read again. */
  outdated: boolean;
}

/**
 * Rows checked for a draft per batch, at most (a view of drafts says so in its first rows): each is parsed
 * for it, and batches are 5,000 rows, so checking all would parse a million rows of a million-row view.
 */
const DRAFT_CHECK_ROWS = 500;

const SEPARATOR = '\u0000';
const keyOf = (view: ViewTarget): string => [view.portalId, view.appId, view.viewId].join(SEPARATOR);

export class ViewReads {
  private readonly reads = new SharedCache<StoredView>();
  /** Reads under way, from their start until they end: Go to Record and the tree show their rows already. */
  private readonly arriving = new Map<string, Reading>();
  /** When each kept read started. */
  private readonly startedAt = new Map<string, number>();
  /** Reads that ended outdated, until their callers are answered. */
  private readonly endedOutdated = new Set<string>();

  constructor(private readonly deps: ViewReadsDeps) {}

  /** The view's rows: one request, read as it arrives, kept until dropped. */
  read(view: ViewTarget, signal?: AbortSignal): Promise<StoredView> {
    const key = keyOf(view);
    return this.readKept(view, key, signal).then((stored) => {
      if (this.endedOutdated.delete(key) && this.reads.peek(key) === stored) {
        this.reads.drop((candidate) => candidate === key);
        this.startedAt.delete(key);
        this.deps.outdated?.(view);
      }
      return stored;
    });
  }

  private readKept(view: ViewTarget, key: string, signal?: AbortSignal): Promise<StoredView> {
    return this.reads.get(
      key,
      async (abort) => {
        // A refresh may start a new read of the view while this one still runs: each keeps to its own entry.
        const reading: Reading = {
          rows: undefined,
          stop: new AbortController(),
          drop: new AbortController(),
          startedAt: Date.now(),
          outdated: false,
        };
        this.arriving.set(key, reading);
        let draftSeen = false;
        try {
          const read = await this.deps.client(view.portalId).streamView(view.appId, view.viewId, [], {
            signal: AbortSignal.any([abort, reading.drop.signal]),
            stop: reading.stop.signal,
            onBatch: ({ rows, from, to }) => {
              reading.rows = rows;
              for (let index = from; index < Math.min(to, from + DRAFT_CHECK_ROWS) && !draftSeen; index += 1)
                draftSeen = rows.row(index).draft === true;
              this.deps.arrived({ portalId: view.portalId, appId: view.appId, viewId: view.viewId, count: to });
            },
          });
          if (this.arriving.get(key) !== reading) {
            // Dropped just as the answer ended: nobody keeps these rows.
            read.rows.release();
            throw cancelledError();
          }
          if (draftSeen) this.deps.noteDraftSeen(view.portalId, view.appId);
          const partial = read.failure ?? (read.stopped ? new PortalError({ kind: 'cancelled', message: 'Cancelled' }) : undefined);
          this.startedAt.set(key, reading.startedAt);
          if (reading.outdated) this.endedOutdated.add(key);
          return { rows: read.rows, metadata: read.metadata ?? [], ...(partial ? { partial } : {}) };
        } catch (error) {
          // The rows were handed over batch by batch: a cancelled read's are nobody's but this read's.
          if (isCancellation(error)) reading.rows?.release();
          throw error;
        } finally {
          if (this.arriving.get(key) === reading) this.arriving.delete(key);
        }
      },
      signal,
    );
  }

  /** The kept rows, without asking the portal. */
  peek(view: ViewTarget): StoredView | undefined {
    return this.reads.peek(keyOf(view));
  }

  /** The rows of a read under way, as far as they have arrived (undefined before the first rows). */
  arrivingRows(view: ViewTarget): RowStore | undefined {
    return this.arriving.get(keyOf(view))?.rows;
  }

  /** The portals whose rows are kept or being read. */
  portals(): Set<string> {
    return new Set([...this.reads.keys(), ...this.arriving.keys()].map((key) => key.split(SEPARATOR)[0]));
  }

  /** Ends the view's read under way early: the rows that arrived are kept, marked partial. False when none runs. */
  stop(view: ViewTarget): boolean {
    const reading = this.arriving.get(keyOf(view));
    reading?.stop.abort();
    return reading !== undefined;
  }

  /**
   * Drops kept rows: of one view, of an app's views, of a portal's, or all; reads under way end too. For a
   * record change (`changedAt`), rows read since are kept, and reads under way run to their end and are
   * then read again (outdated). Answers the portals whose kept rows were dropped.
   */
  drop(portalId?: string, appId?: string, viewId?: string, options: DropOptions = {}): Set<string> {
    const prefix = [portalId, appId, viewId].filter((part): part is string => part !== undefined);
    const { changedAt } = options;
    const hit = (key: string): boolean => {
      const parts = key.split(SEPARATOR);
      return prefix.every((part, index) => parts[index] === part);
    };
    const older = (key: string): boolean =>
      changedAt === undefined || (!this.arriving.has(key) && (this.startedAt.get(key) ?? 0) < changedAt);
    const released = this.reads
      .keys()
      .filter((key) => hit(key) && older(key))
      .map((key) => this.reads.peek(key));
    const dropped = this.reads.drop((key) => hit(key) && older(key));
    for (const key of dropped) this.startedAt.delete(key);
    for (const [key, reading] of [...this.arriving]) {
      if (!hit(key)) continue;
      if (changedAt !== undefined) {
        if (reading.startedAt < changedAt) reading.outdated = true;
        continue;
      }
      // The reads under way end too (their rows are released as they end): else the tree's redraw starts a
      // second read beside the first, and Cancel reaches only the second.
      this.arriving.delete(key);
      reading.drop.abort();
    }
    // A Go to Record pick open now keeps the items it shows, and says the view was refreshed (RecordFinder).
    for (const stored of released) stored?.rows.release();
    return new Set(dropped.map((key) => key.split(SEPARATOR)[0]));
  }

  dispose(): void {
    for (const reading of this.arriving.values()) reading.drop.abort();
    this.arriving.clear();
    for (const key of this.reads.keys()) this.reads.peek(key)?.rows.release();
  }
}
