// The grid's copies of its rows (the portal's values, without pending edits), kept compactly: the view's
// read stays in its RowStore (the answer's bytes plus two offsets a row, src/api/rowStore.ts), and a row's
// copy is parsed from it when asked for. Only copies that differ from the read are objects: a row saved,
// refreshed by a webhook, taken from a conflict, created, or a pending row the read left out (overrides);
// and a pending row pinned in sight while a new read runs, until the read brings it (pinned).
// So a view of 100,000 rows costs about its body's bytes plus an id and a number a row, not one object per
// row with one property per field.
//
// A new read (other filters, Retry, a refresh) replaces the store, and the old one is let go (its hold on
// the shared copy released, src/records/viewRead.ts); dispose() (the grid's tab closed) lets it go too.
import type { ViewRow } from '../../api/answers';
import type { RowStore } from '../../api/rowStore';
import type { RecordData } from '../../api/types';

/** Where a batch of rows came from: the read's store, and the index there of the batch's first row. */
export interface RowsSource {
  readonly store: RowStore;
  readonly from: number;
  /** Lets the store go when the grid no longer needs it (the hold on a shared copy); default: the store's release. */
  readonly release?: () => void;
}

export class RowCopies {
  private store: RowStore | undefined;
  private letGo: (() => void) | undefined;
  /** Record id -> the row's index in `store`. */
  private indexes = new Map<string, number>();
  private readonly overrides = new Map<string, RecordData>();
  /** Overrides that are only the previous read's copy of a pinned row: the new read's copy replaces them. */
  private readonly pinned = new Set<string>();
  /**
   * Copies parsed during the task under way, dropped at its end: cells are asked for one at a time, and a
   * fill or a clear over many rows asks a row once per column, so each row is parsed once per action. Such
   * an action keeps an object per edited row in the change set anyway; when it ends, so does this.
   */
  private parsed = new Map<string, RecordData>();

  has(recordId: string): boolean {
    return this.overrides.has(recordId) || this.indexes.has(recordId);
  }

  /** Whether the row's copy is still the previous read's, pinned until the new read brings the row. */
  isPinned(recordId: string): boolean {
    return this.pinned.has(recordId);
  }

  /**
   * The row's copy; parsed from the store unless overridden. Read it, never change it (it may be shared).
   * `once`: the caller reads every cell of it now (a row for the page), so it is not kept for the task.
   */
  get(recordId: string, once = false): RecordData | undefined {
    // Asked once per cell: the copy parsed already comes first (an override is never among them).
    const known = this.parsed.get(recordId);
    if (known) return known;
    const override = this.overrides.get(recordId);
    if (override) return override;
    const index = this.indexes.get(recordId);
    if (index === undefined || !this.store) return undefined;
    const copy = this.store.row(index).values;
    if (once) return copy;
    if (this.parsed.size === 0) queueMicrotask(() => this.parsed.clear());
    this.parsed.set(recordId, copy);
    return copy;
  }

  /** A copy that differs from the read (saved, refreshed, created, restored). */
  set(recordId: string, copy: RecordData): void {
    this.overrides.set(recordId, copy);
    this.pinned.delete(recordId);
    this.parsed.delete(recordId);
  }

  /**
   * A pending row kept in sight while a new read runs: `copy` (the previous read's) stands until the new
   * read brings the row (add), or for good when it does not.
   */
  pin(recordId: string, copy: RecordData): void {
    this.set(recordId, copy);
    this.pinned.add(recordId);
  }

  delete(recordId: string): void {
    this.overrides.delete(recordId);
    this.pinned.delete(recordId);
    this.indexes.delete(recordId);
    this.parsed.delete(recordId);
  }

  /**
   * A row of a read arrived: its copy is parsed from `source.store` at `source.from + position` from now on
   * (unless it has a copy already: a save or a refresh of the row before it arrived is newer than the read;
   * a pinned copy is older, and goes). The store must be the one replace() gave. Without a source (rows not
   * read into a store, as in tests), the row's copy is an override.
   */
  add(recordId: string, row: ViewRow, position: number, source: RowsSource | undefined): void {
    if (this.pinned.delete(recordId)) {
      this.overrides.delete(recordId);
      this.parsed.delete(recordId);
    } else if (this.has(recordId)) return;
    if (!source) {
      this.overrides.set(recordId, { ...row.values });
      return;
    }
    if (source.store !== this.store) throw new Error('These rows belong to a read the grid does not hold.');
    this.indexes.set(recordId, source.from + position);
  }

  /**
   * A new read replaces the rows (`store`: its rows are added as they arrive; `release` lets it go): every
   * copy goes, and the old store is let go. Rows with pending edits or conflicts need none of it: the change set and the
   * conflict hold their own copies (as read, mine, the portal's), and a pending row is pinned with its copy
   * as read until the new read brings it (GridModel.replaceRows).
   */
  replace(store: RowStore | undefined, release?: () => void): void {
    if (store !== undefined && store === this.store) {
      // The same copy held twice: the grid's first hold keeps it.
      if (release !== this.letGo) release?.();
      return;
    }
    this.indexes = new Map();
    this.overrides.clear();
    this.pinned.clear();
    this.parsed = new Map();
    // A shared copy is let go through its hold (others may still show it), a store of the grid's own directly.
    const letGo = this.letGo ?? (() => this.store?.release());
    letGo();
    this.store = store;
    this.letGo = release;
  }

  /** How many copies are objects (not parsed on demand): a test's window on compactness. */
  get overridden(): number {
    return this.overrides.size;
  }

  /** The store's bytes go back; no copy is left. */
  dispose(): void {
    this.replace(undefined);
  }
}
