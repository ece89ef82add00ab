// The rows of the current result that the page holds: the host keeps the whole result and sends the rows
// in sight (asked for in blocks), in the order of its latest sort; this cache keeps a few thousand of them.
import { displayValue } from '../../src/grid/values';
import { RECORD_ID_KEY, ROW_VALUES_OFFSET, type GridColumn, type SortSpec } from '../../src/shared/protocol';

/** The grid shows the record id first, then the view's columns. */
export const RECORD_COLUMN: GridColumn = { key: RECORD_ID_KEY, name: 'Record id', kind: 'autonumber' };

/** Rows are asked for in blocks of this many. */
export const BLOCK_ROWS = 100;
/** Rows kept before the ones far from the latest window are dropped. */
const MAX_CACHED_ROWS = 3_000;

export class Results {
  columns: GridColumn[] = [];
  /** Rows the result has (so far, while it is read). */
  count = 0;
  complete = false;
  sort: SortSpec | undefined;
  sortVersion = 0;
  private rows = new Map<number, string[]>();
  private requested = new Set<number>();

  reset(columns: readonly GridColumn[]): void {
    this.columns = [RECORD_COLUMN, ...columns];
    this.count = 0;
    this.complete = false;
    this.sort = undefined;
    this.sortVersion = 0;
    this.rows.clear();
    this.requested.clear();
  }

  /** Rows from the host; false when they are in an order that is no longer shown. */
  add(sortVersion: number, start: number, rows: readonly string[][]): boolean {
    if (sortVersion !== this.sortVersion) return false;
    rows.forEach((row, offset) => this.rows.set(start + offset, row));
    this.count = Math.max(this.count, start + rows.length);
    if (this.rows.size > MAX_CACHED_ROWS) this.evict(start + rows.length / 2);
    return true;
  }

  /** The host sorted the rows: everything held is in the old order. */
  sorted(sortVersion: number, sort: SortSpec | undefined): void {
    this.sortVersion = sortVersion;
    this.sort = sort;
    this.rows.clear();
    this.requested.clear();
  }

  /** Blocks of rows in [first, last] that are neither held nor asked for; they count as asked for from now. */
  missing(first: number, last: number): Array<{ start: number; end: number }> {
    const wanted: Array<{ start: number; end: number }> = [];
    for (let block = Math.floor(first / BLOCK_ROWS); block * BLOCK_ROWS <= last; block += 1) {
      const start = block * BLOCK_ROWS;
      const end = Math.min(start + BLOCK_ROWS, this.count);
      if (start >= end || this.requested.has(block)) continue;
      let held = true;
      for (let index = start; index < end && held; index += 1) held = this.rows.has(index);
      if (held) continue;
      this.requested.add(block);
      const previous = wanted[wanted.length - 1];
      if (previous && previous.end === start) previous.end = end;
      else wanted.push({ start, end });
    }
    return wanted;
  }

  /** The row shown at `display`, when held. */
  rowAt(display: number): string[] | undefined {
    return this.rows.get(display);
  }

  text(display: number, column: number): string {
    const row = this.rows.get(display);
    if (!row) return '';
    if (column === 0) return row[1] === '1' ? `${row[0]} (draft)` : row[0];
    return displayValue(this.columns[column], row[column - 1 + ROW_VALUES_OFFSET] ?? '');
  }

  /** The sort that clicking grid column `column` asks for: ascending, then descending, then none. */
  nextSort(column: number): SortSpec | undefined {
    const key = this.columns[column]?.key;
    if (!key) return this.sort;
    if (this.sort?.key !== key) return { key, direction: 'ascending' };
    return this.sort.direction === 'ascending' ? { key, direction: 'descending' } : undefined;
  }

  columnIndex(key: string): number {
    return this.columns.findIndex((column) => column.key === key);
  }

  private evict(around: number): void {
    const keep = MAX_CACHED_ROWS / 2;
    for (const index of [...this.rows.keys()]) {
      if (Math.abs(index - around) <= keep) continue;
      this.rows.delete(index);
      this.requested.delete(Math.floor(index / BLOCK_ROWS));
    }
  }
}
