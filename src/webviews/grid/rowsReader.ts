// The rows of a grid's view read as they arrive (PortalClient.streamView), one read at a time: the first
// batch is handed over as soon as it is read (the grid paints, and its rows can be edited), the later ones
// as they come, then how the read ended. A newer read gives up the one under way; stop() (the loading
// line's Cancel) ends it keeping the rows read, marked partial; an answer that breaks off midway keeps
// them too, and says how many were read. Each batch is handed over as rows and as where they are in the
// read's store (RowStore): once its first rows are handed over, the store is the grid's (its model keeps
// it, and parses a row's copy from it when asked, src/grid/rowCopies.ts), so this reader no longer
// releases it; a newer read stops this one rather than aborting it, since an aborted read's store is
// released by the client while the grid still shows its rows. A store never handed over is released here.
import type { ViewRow } from '../../api/answers';
import { PortalError } from '../../api/errors';
import type { ViewFilter } from '../../api/filters';
import type { ViewMetadataEntry } from '../../api/types';
import type { ViewStreamOptions, ViewStreamResult } from '../../api/viewStream';
import type { RowsSource } from '../../grid/rowCopies';
import type { GridLoadState } from '../../shared/protocol';
import { describeError } from '../../ui/failures';

export interface GridRowsSource {
  streamView(appId: string, viewId: string, filters: readonly ViewFilter[], options: ViewStreamOptions): Promise<ViewStreamResult>;
}

export interface GridReadSteps {
  /**
   * The first rows (none when the view has none); `metadata` when it came with them (a small view's answer
   * is in at once), else the columns are the rows' keys until ended() says. Called once, before more();
   * `live` says whether the read is still the grid's (a newer one may have begun while this one waited).
   * `source`: where the rows are in the read's store, which is the grid's from now on.
   */
  first(rows: ViewRow[], metadata: ViewMetadataEntry[] | undefined, live: () => boolean, source: RowsSource): Promise<void> | void;
  more(rows: ViewRow[], source: RowsSource): void;
  /** The read has ended (every row in, or partial); `metadata` when it arrived. */
  ended(metadata: ViewMetadataEntry[] | undefined): Promise<void> | void;
}

const number = (count: number): string => count.toLocaleString('en-US');

export class GridRowsReader {
  private current: { abort: AbortController; stop: AbortController; handedOver: boolean } | undefined;
  private stateValue: GridLoadState = { state: 'done', count: 0 };
  private finished: Promise<void> = Promise.resolve();
  /** A read has handed rows over: the grid has rows of its own to keep. */
  private hasRows = false;

  constructor(
    private readonly source: () => GridRowsSource,
    private readonly appId: string,
    private readonly viewId: string,
    private readonly onState: (state: GridLoadState) => void,
  ) {}

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
    const reading = { abort: new AbortController(), stop: new AbortController(), handedOver: false };
    this.current = reading;
    const live = (): boolean => this.current === reading;
    let begun = false;
    return new Promise<void>((resolve, reject) => {
      const begin = async (
        rows: ViewRow[],
        metadata: ViewMetadataEntry[] | undefined,
        count: number,
        source: RowsSource,
      ): Promise<void> => {
        begun = true;
        const before = this.stateValue;
        // Before the first rows go in, so that the page starting over with them says they are loading.
        this.setState({ state: 'loading', count });
        try {
          // The grid may keep the store from here on, even when this step then fails.
          reading.handedOver = true;
          await steps.first(rows, metadata, live, source);
        } catch (error) {
          // The read stops here and fails as one that brought no rows: the grid keeps what it had (a first load shows the failure).
          if (live()) {
            // Stopped, not aborted: the step may have given the grid this read's store already.
            reading.stop.abort();
            this.current = undefined;
            this.setState(before);
            this.keptPartial('the view could not be read again.');
          }
          return reject(error);
        }
        if (!live()) return reject(new PortalError({ kind: 'cancelled', message: 'A newer read of the view replaced this one.' }));
        this.hasRows = true;
        resolve();
      };
      this.finished = (async () => {
        let result: ViewStreamResult;
        try {
          result = await this.source().streamView(this.appId, this.viewId, filters, {
            signal: reading.abort.signal,
            stop: reading.stop.signal,
            onBatch: async ({ rows, from, to }) => {
              if (!live()) return;
              const arrived = [...rows.rows(from, to)];
              if (!begun) return begin(arrived, rows.metadata, to, { store: rows, from });
              steps.more(arrived, { store: rows, from });
              this.setState({ state: 'loading', count: to });
            },
          });
        } catch (error) {
          if (!live()) return reject(error);
          this.current = undefined;
          this.keptPartial('the view could not be read again.');
          // Rejecting a read that has settled already changes nothing.
          return reject(error);
        }
        if (!live()) {
          if (!reading.handedOver) result.rows.release();
          return;
        }
        const count = result.rowsRead;
        if (!begun && result.stopped && this.hasRows) {
          result.rows.release();
          // Cancel before this read's first rows: the grid keeps the rows it has (the page shows them, and the
          // Cancel it pressed was theirs), marked partial when they were still arriving.
          this.current = undefined;
          const kept = this.stateValue;
          this.setState(
            kept.state === 'loading'
              ? { state: 'partial', count: kept.count, message: `Cancelled after ${number(kept.count)} rows.` }
              : kept,
          );
          return reject(new PortalError({ kind: 'cancelled', message: 'The read was cancelled before its first rows.' }));
        }
        if (!begun) await begin([], result.metadata, 0, { store: result.rows, from: 0 });
        if (!live()) return;
        const message = result.failure
          ? `${describeError(result.failure)} Only ${number(count)} rows were read before it broke off.`
          : result.stopped
            ? `Cancelled after ${number(count)} rows.`
            : undefined;
        await steps.ended(result.metadata);
        if (!live()) return;
        this.current = undefined;
        this.setState(message === undefined ? { state: 'done', count } : { state: 'partial', count, message });
      })().catch((error: unknown) => {
        // A step that threw: the rows read stay, and the grid says it could not finish.
        if (!live()) return;
        this.current = undefined;
        this.setState({
          state: 'partial',
          count: this.stateValue.count,
          message: `${describeError(error)} The grid shows the ${number(this.stateValue.count)} rows read.`,
        });
        reject(error);
      });
    });
  }

  /** Ends the read under way keeping its rows (marked partial). False when none runs. */
  stop(): boolean {
    this.current?.stop.abort();
    return this.current !== undefined;
  }

  dispose(): void {
    this.current?.abort.abort();
    this.current = undefined;
  }

  /** The read under way gives way to a newer one: stopped once the grid holds its store (see above), else aborted. */
  private giveUp(): void {
    const current = this.current;
    if (current?.handedOver) current.stop.abort();
    else current?.abort.abort();
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
