// Go to Record as the user types, without vscode (the bench drives this very code): each keystroke
// replaces the search under way and runs it in time-boxed slices (RecordIndex.steps), so no keystroke
// waits behind a long scan; a query that extends the last one whose matches were all found checks only
// those; and the pick's items are set again only when the rows found change (setting them sends every
// item to the workbench). Items are built from the kept rows (a JSON.parse of each row shown).
import type { RowStore } from '../api/rowStore';
import type { Column } from '../api/types';
import type { IndexMatches, RecordIndex } from './recordIndex';
import { recordTitle } from './titleField';

/** A record as the quick pick lists it (a vscode.QuickPickItem). */
export interface RecordPickItem {
  readonly label: string;
  readonly description: string;
  readonly alwaysShow: true;
  readonly recordId: string;
}

/** What the finder needs of the quick pick. */
export interface RecordPickSink {
  items: readonly RecordPickItem[];
  busy: boolean;
  /** The view's rows were released (the view was refreshed) while the pick was open: nothing more is found. */
  refreshed(): void;
}

export interface RecordFinderOptions {
  /** Matches shown at most. */
  readonly limit: number;
  /** Longest stretch of searching before the event loop gets a turn; default 10 ms. */
  readonly sliceMs?: number;
}

const normalized = (query: string): string => query.trim().toLowerCase().split(/\s+/).filter(Boolean).join(' ');

export class RecordFinder {
  private running: Generator<void, IndexMatches> | undefined;
  private last: { query: string; matches: IndexMatches } | undefined;
  private query = '';
  private shown: readonly number[] | undefined;
  private readonly items = new Map<number, RecordPickItem>();
  /** The longest slice of work so far, in ms (the bench reads it). */
  longestSliceMs = 0;

  constructor(
    readonly index: RecordIndex,
    private readonly rows: RowStore,
    private readonly title: Column | undefined,
    private readonly pick: RecordPickSink,
    private readonly options: RecordFinderOptions,
    /** Called when the search of a query has ended and its rows are shown. */
    private readonly onShown: (query: string) => void = () => undefined,
  ) {}

  /** The user typed `query`: it replaces the search under way; its first slice runs now. */
  find(query: string): void {
    this.query = query;
    if (this.gone()) return;
    const last = this.last;
    const now = normalized(query);
    // Every match of a query that extends (or repeats) the last one is among the last one's matches, when
    // those were all found, or among the rows indexed since.
    const prior = last && last.matches.exhaustive && now.startsWith(normalized(last.query)) ? last.matches : undefined;
    const steps = this.index.steps(query, this.options.limit, prior);
    this.running = steps;
    this.pick.busy = true;
    this.step(steps, query);
  }

  /** More rows were indexed: the query runs again, unless its matches fill the list already. */
  indexed(): void {
    if (this.running || (this.shown && this.shown.length >= this.options.limit)) return;
    this.find(this.query);
  }

  /** Drops the search under way (the pick closed). */
  stop(): void {
    this.running = undefined;
  }

  /** Whether a search is under way. */
  get searching(): boolean {
    return this.running !== undefined;
  }

  private step(steps: Generator<void, IndexMatches>, query: string): void {
    if (this.running !== steps) return; // the user typed on
    if (this.gone()) return; // released between two slices: the matches would name rows no longer there
    const started = performance.now();
    const deadline = started + (this.options.sliceMs ?? 10);
    for (;;) {
      const next = steps.next();
      if (next.done) {
        this.running = undefined;
        this.last = { query, matches: next.value };
        this.show(next.value.rows);
        this.longestSliceMs = Math.max(this.longestSliceMs, performance.now() - started);
        this.pick.busy = false;
        this.onShown(query);
        return;
      }
      if (performance.now() >= deadline) break;
    }
    this.longestSliceMs = Math.max(this.longestSliceMs, performance.now() - started);
    setImmediate(() => this.step(steps, query));
  }

  /** Whether the rows were released: then the pick is emptied and told, once. */
  private gone(): boolean {
    if (!this.rows.isReleased) return false;
    this.running = undefined;
    if (this.shown?.length !== 0) {
      this.shown = [];
      this.items.clear();
      this.pick.items = [];
      this.pick.busy = false;
      this.pick.refreshed();
    }
    return true;
  }

  private show(rows: readonly number[]): void {
    const shown = this.shown;
    if (shown && shown.length === rows.length && shown.every((row, index) => row === rows[index])) return;
    this.shown = rows;
    if (this.items.size > 10 * this.options.limit) this.items.clear();
    this.pick.items = rows.map((row) => this.item(row));
  }

  private item(row: number): RecordPickItem {
    let item = this.items.get(row);
    if (!item) {
      const record = this.rows.row(row);
      const id = record.id ?? '';
      item = {
        label: recordTitle(id, record.values, this.title),
        description: `#${id}${record.draft ? ' · Draft' : ''}`,
        alwaysShow: true,
        recordId: id,
      };
      this.items.set(row, item);
    }
    return item;
  }
}
