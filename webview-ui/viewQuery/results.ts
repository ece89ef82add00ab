// The rows of the current result as they arrive in chunks, and their order: sorting keeps an index array
// (src/shared/gridValues.ts), never copies of the rows.
import type { ColumnKind } from '../../src/api/columnKinds';
import { displayValue, sortOrder } from '../../src/shared/gridValues';
import { ROW_VALUES_OFFSET, type GridColumn, type SortSpec } from '../../src/shared/protocol';

/** The grid shows the record id first, then the view's columns. */
export const RECORD_COLUMN: GridColumn = { key: '#id', name: 'Record id', kind: 'autonumber' };

export class Results {
  columns: GridColumn[] = [];
  rows: string[][] = [];
  complete = false;
  sort: SortSpec | undefined;
  private order: Uint32Array | undefined;

  reset(columns: readonly GridColumn[]): void {
    this.columns = [RECORD_COLUMN, ...columns];
    this.rows = [];
    this.complete = false;
    this.sort = undefined;
    this.order = undefined;
  }

  add(start: number, rows: readonly string[][]): void {
    // Chunks come in order; a gap would mean a lost message, and then the rows are placed where they belong.
    if (start === this.rows.length) for (const row of rows) this.rows.push(row);
    else rows.forEach((row, offset) => (this.rows[start + offset] = row));
  }

  get count(): number {
    return this.rows.length;
  }

  /** The row shown at `display`. */
  rowAt(display: number): string[] | undefined {
    return this.rows[this.order ? this.order[display] : display];
  }

  /** Raw value of grid column `column` in data row `row`. */
  private raw(row: string[], column: number): string {
    if (column === 0) return row[0] ?? '';
    return row[column - 1 + ROW_VALUES_OFFSET] ?? '';
  }

  text(display: number, column: number): string {
    const row = this.rowAt(display);
    if (!row) return '';
    if (column === 0) return row[1] === '1' ? `${row[0]} (draft)` : row[0];
    return displayValue(this.columns[column], this.raw(row, column));
  }

  /** Ascending, then descending, then the portal's order again. */
  toggleSort(column: number): SortSpec | undefined {
    const key = this.columns[column]?.key;
    if (!key) return this.sort;
    const direction = this.sort?.key !== key ? 'ascending' : this.sort.direction === 'ascending' ? 'descending' : undefined;
    this.sort = direction ? { key, direction } : undefined;
    this.applySort();
    return this.sort;
  }

  applySort(): void {
    const sort = this.sort;
    const column = sort ? this.columns.findIndex((candidate) => candidate.key === sort.key) : -1;
    if (!sort || column < 0) {
      this.order = undefined;
      return;
    }
    const spec = this.columns[column];
    const kind: ColumnKind = spec.kind;
    const rows = this.rows;
    const valueAt = kind === 'choice' ? (index: number) => displayValue(spec, this.raw(rows[index], column)) : (index: number) => this.raw(rows[index], column);
    this.order = sortOrder(rows.length, valueAt, kind, sort.direction);
  }

  /** The sort as the host needs it for an export ("#id" is the record id). */
  columnIndex(key: string): number {
    return this.columns.findIndex((column) => column.key === key);
  }
}
