// The data grid's vocabulary: its columns, sort, options and blocks of cells (kept apart from the grid's
// rendering so that both stay short).

export interface GridColumnSpec {
  name: string;
  /** Pixels. */
  width: number;
  /** Right-aligned (numbers, amounts). */
  numeric?: boolean;
}

export type GridSort = { column: number; direction: 'ascending' | 'descending' } | undefined;

export interface DataGridOptions {
  /** The grid's accessible name. */
  label: string;
  /** Enter or double-click on a row (its display index). */
  onOpen(row: number): void;
  /** Click or Enter on a column header. */
  onSort(column: number): void;
  /** After rendering: the first and last row index in the DOM, so their data can be fetched. */
  onRender?(first: number, last: number): void;
  /** An editable grid: aria-readonly false, Shift+arrows select a block, cells decorated by `decorate`. */
  editable?: boolean;
  /** Marks a rendered cell (pending, invalid, locked): classes and title; row -1 is a column header. */
  decorate?(row: number, column: number, cell: HTMLElement): void;
  /** Marks a rendered row (the Query View's row selection: aria-selected and a class). */
  decorateRow?(row: number, element: HTMLElement): void;
  /** A key on the grid, before its own moves: true when handled. */
  onKey?(event: KeyboardEvent): boolean;
  /** The active cell or the selection changed. */
  onSelect?(): void;
  /** Pixels of columns frozen on the left (sticky over what scrolls under them): the active cell is kept clear of them. */
  frozenWidth?(): number;
}

/** A block of cells, display indices, inclusive. */
export interface GridRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}
