// The rows of a grid's view as they arrive, through the one view-read session (records/viewRead.ts: a copy
// shared with the tree and the Query Views showing the same view and filters), one read at a time: the
// first batch is handed over as soon as it is read (the grid paints, and its rows can be edited), the later
// ones as they come, then how the read ended, as the grid's load state. A newer read gives up the one under
// way (a read again of the same filters is a fresh read: Retry, Revert, a refresh); stop() (the loading
// line's Cancel) ends it keeping the rows read, marked partial; an answer that breaks off midway keeps them
// too, and says how many were read. Each batch is handed over as rows and as where they are in the copy's
// store (RowStore) with the hold on it: once its first rows are handed over, the hold is the grid's (its
// model keeps it, parses a row's copy from the store when asked, src/grid/model/rowCopies.ts, and lets it go when
// a newer read replaces the rows). A hold never handed over is let go here.
import type { ViewRow } from '../../api/answers';
import { PortalError } from '../../api/errors';
import type { ViewFilter } from '../../api/filters';
import type { ViewMetadataEntry } from '../../api/types';
import type { RowsSource } from '../model/rowCopies';
import { ViewReadHub, type ViewOpener, type ViewReadEnd, type ViewReadHold, type ViewReadSource } from '../../records/viewRead';
import type { GridLoadState } from '../protocol';
import { describeError } from '../../ui/failures';

export type GridRowsSource = ViewReadSource;

export interface GridReadSteps {
  /**
   * The first rows (none when the view has none); `metadata` when it came with them (a small view's answer
   * is in at once), else the columns are the rows' keys until ended() says. Called once, before more();
   * `live` says whether the read is still the grid's (a newer one may have begun while this one waited).
   * `source`: where the rows are in the read's store, and the hold on it, which is the grid's from now on.
   */
  first(rows: ViewRow[], metadata: ViewMetadataEntry[] | undefined, live: () => boolean, source: RowsSource): Promise<void> | void;
  more(rows: ViewRow[], source: RowsSource): void;
  /** The read has ended (every row in, or partial); `metadata` when it arrived. */
  ended(metadata: ViewMetadataEntry[] | undefined): Promise<void> | void;
  /**
   * When the first rows came with many more at once (a view read already, by the tree or another panel),
   * the rest waits for this (the page's first rows shown): parsing them would take the host's time, and
   * the machine's, while the page loads.
   */
  rest?(): Promise<void>;
}

const number = (count: number): string => count.toLocaleString('en-US');

/** Rows handed over a turn: the first (the page's first screen and more), then the rest of a batch. */
const FIRST_SLICE_ROWS = 1_000;
const SLICE_ROWS = 5_000;

interface Reading {
  readonly hold: ViewReadHold;
  handedOver: boolean;
  unsubscribe(): void;
  /** Resolves whenEnded(). */
  done(): void;
}

export class GridRowsReader {
  private current: Reading | undefined;
  /** The filters of the read the grid shows (a read of the same ones again is fresh). */
  private shownFilters: string | undefined;
  private stateValue: GridLoadState = { state: 'done', count: 0 };
  private finished: Promise<void> = Promise.resolve();
  /** A read has handed rows over: the grid has rows of its own to keep. */
  private hasRows = false;
  private readonly open: ViewOpener;

  constructor(
    source: () => GridRowsSource,
    appId: string,
    viewId: string,
    private readonly onState: (state: GridLoadState) => void,
    /** The shared copies of the view (ViewReadHub.opener); without, the grid's reads are its own. */
    open?: ViewOpener,
  ) {
    this.open = open ?? new ViewReadHub(() => source()).opener({ portalId: '', appId, viewId });
  }

  get state(): GridLoadState {
    return this.stateValue;
  }

  get loading(): boolean {
    return this.stateValue.state === 'loading';
  }

  /** A read is under way, from its request on (its first rows may not have come yet). */
  get reading(): boolean {
    return this.current !== undefined;
  }

  /** Resolves when the read under way has ended, whichever way (at once when none runs). */
  whenEnded(): Promise<void> {
    return this.finished;
  }

  /**
   * Reads the view with `filters`, giving up the read under way. Resolves once `steps.first` has had the
   * first rows; rejects when the read fails before any arrived (the grid keeps what it had).
   */
  read(filters: readonly ViewFilter[], steps: GridReadSteps): Promise<void> {
    this.giveUp();
    const text = JSON.stringify(filters);
    const hold = this.open(filters, { fresh: text === this.shownFilters });
    const reading: Reading = { hold, handedOver: false, unsubscribe: () => undefined, done: () => undefined };
    this.finished = new Promise<void>((resolve) => (reading.done = resolve));
    this.current = reading;
    const live = (): boolean => this.current === reading;
    const source = (from: number): RowsSource => {
      const store = hold.session.rows;
      if (!store) throw new Error('The view read has no rows yet.');
      return { store, from, release: () => hold.release() };
    };
    /** The read is no longer the grid's: it lets go of it unless the grid's model holds it. */
    const leave = (): void => {
      reading.unsubscribe();
      if (this.current === reading) this.current = undefined;
      if (!reading.handedOver) hold.release();
      reading.done();
    };
    let begun = false;
    return new Promise<void>((resolve, reject) => {
      const begin = async (rows: ViewRow[], metadata: ViewMetadataEntry[] | undefined, count: number): Promise<void> => {
        begun = true;
        const before = this.stateValue;
        // Before the first rows go in, so that the page starting over with them says they are loading.
        this.setState({ state: 'loading', count });
        try {
          // The grid may keep the hold from here on, even when this step then fails.
          reading.handedOver = true;
          await steps.first(rows, metadata, live, source(0));
        } catch (error) {
          // The read fails as one that brought no rows: the grid keeps what it had (a first load shows the failure).
          if (live()) {
            // Stopped: the step may have given the grid this copy, and others may show it.
            hold.session.stop();
            leave();
            this.setState(before);
            this.keptPartial('the view could not be read again.');
          }
          return reject(error);
        }
        if (!live()) return reject(new PortalError({ kind: 'cancelled', message: 'A newer read of the view replaced this one.' }));
        this.hasRows = true;
        this.shownFilters = text;
        resolve();
      };
      const ended = async (end: ViewReadEnd): Promise<void> => {
        const count = end.rows.length;
        if (!begun && end.stopped && this.hasRows) {
          // Cancel before this read's first rows: the grid keeps the rows it has (the page shows them, and the
          // Cancel it pressed was theirs), marked partial when they were still arriving.
          leave();
          const kept = this.stateValue;
          this.setState(
            kept.state === 'loading'
              ? { state: 'partial', count: kept.count, message: `Cancelled after ${number(kept.count)} rows.` }
              : kept,
          );
          return reject(new PortalError({ kind: 'cancelled', message: 'The read was cancelled before its first rows.' }));
        }
        if (!begun) await begin([], end.metadata, 0);
        if (!live()) return;
        const message = end.failure
          ? `${describeError(end.failure)} Only ${number(count)} rows were read before it broke off.`
          : end.stopped
            ? `Cancelled after ${number(count)} rows.`
            : undefined;
        await steps.ended(end.metadata);
        if (!live()) return;
        leave();
        this.setState(message === undefined ? { state: 'done', count } : { state: 'partial', count, message });
      };
      reading.unsubscribe = hold.session.subscribe({
        batch: async ({ rows, from, to }) => {
          // A slice a turn: a late reader's first batch is every row read so far (a view the tree has read
          // whole: 100,000 rows, half a second to parse); the first slice goes at once, the rest once the
          // page shows it (steps.rest).
          for (let at = from; at < to;) {
            if (!live()) return;
            const first = !begun;
            const end = Math.min(to, at + (first ? FIRST_SLICE_ROWS : SLICE_ROWS));
            const arrived = [...rows.rows(at, end)];
            if (first) await begin(arrived, rows.metadata, end);
            else {
              steps.more(arrived, source(at));
              this.setState({ state: 'loading', count: end });
            }
            at = end;
            if (at < to && live()) await (first && steps.rest ? steps.rest() : new Promise((resolve) => setImmediate(resolve)));
          }
        },
        ended,
        failed: (error) => {
          if (!live()) return;
          leave();
          this.keptPartial('the view could not be read again.');
          // Rejecting a read that has settled already changes nothing.
          reject(error);
        },
        broke: (error) => {
          // A step that threw: the rows read stay, and the grid says it could not finish.
          if (!live()) return;
          leave();
          this.setState({
            state: 'partial',
            count: this.stateValue.count,
            message: `${describeError(error)} The grid shows the ${number(this.stateValue.count)} rows read.`,
          });
          reject(error);
        },
      });
    });
  }

  /** Ends the read under way keeping its rows (marked partial), for every place showing it. False when none runs. */
  stop(): boolean {
    return this.current?.hold.session.stop() ?? false;
  }

  dispose(): void {
    const current = this.current;
    this.current = undefined;
    current?.unsubscribe();
    if (current && !current.handedOver) current.hold.release();
    current?.done();
  }

  /** The read under way gives way to a newer one: the grid no longer listens (its model may still hold its rows). */
  private giveUp(): void {
    const current = this.current;
    if (!current) return;
    this.current = undefined;
    current.unsubscribe();
    if (!current.handedOver) current.hold.release();
    current.done();
  }

  /** The read this one replaced was still loading: its rows stay, and say they are not all. */
  private keptPartial(why: string): void {
    if (this.loading)
      this.setState({
        state: 'partial',
        count: this.stateValue.count,
        message: `Stopped after ${number(this.stateValue.count)} rows: ${why}`,
      });
  }

  private setState(state: GridLoadState): void {
    this.stateValue = state;
    this.onState(state);
  }
}
