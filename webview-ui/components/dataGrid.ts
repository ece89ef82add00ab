// A data grid for large results (read-only, or editable for the view grid): only the rows in view (and a few around them) exist in the DOM,
// so a million rows cost what 50 do. Rows have one fixed height, so the rows in view are arithmetic on the
// scroll position: @tanstack/virtual-core, used before, rebuilt a measurement object per row each time the
// row count grew (56-90 ms per update at 1,000,000 rows, measured), which a result that grows while it
// loads pays again and again. It follows the ARIA grid pattern: one
// focusable grid whose active cell is named by aria-activedescendant; arrow keys, Page Up/Down, Home/End
// and Ctrl+Home/End move it, Enter opens the row (or sorts, on a column header). Cell text always goes in
// through textContent.
import { clear, el } from './dom';
import './dataGrid.css';

import type { DataGridOptions, GridColumnSpec, GridRange, GridSort } from './gridTypes';
export type { DataGridOptions, GridColumnSpec, GridRange, GridSort } from './gridTypes';

export const ROW_HEIGHT = 24;
const HEADER_HEIGHT = 26;
const OVERSCAN = 12;

export class DataGrid {
  readonly element: HTMLElement;
  /** The grid itself: the element that scrolls is the one the keyboard focuses, so Tab reaches all of it. */
  private readonly scroller: HTMLElement;
  private readonly header: HTMLElement;
  private readonly body: HTMLElement;
  /** The animation frame a scroll or resize asked to render in, if one is pending. */
  private frame = 0;
  private readonly rendered = new Map<number, HTMLElement>();
  private columns: GridColumnSpec[] = [];
  private rowCount = 0;
  private cell: (row: number, column: number) => string = () => '';
  private sort: GridSort;
  private sortable = false;
  /** Active cell: row -1 is the header row. */
  private active = { row: -1, column: 0 };
  /** The other corner of the selection (Shift+arrows, Shift+click); the active cell when none. */
  private anchor = { row: -1, column: 0 };

  constructor(private readonly options: DataGridOptions) {
    this.header = el('div', { className: 'grid-row grid-header', attrs: { role: 'row', 'aria-rowindex': '1' } });
    this.header.hidden = true;
    this.body = el('div', { className: 'grid-body' });
    this.element = el(
      'div',
      {
        className: 'data-grid',
        attrs: {
          role: 'grid',
          tabindex: '0',
          'aria-label': options.label,
          'aria-readonly': options.editable ? 'false' : 'true',
          'aria-multiselectable': options.editable ? 'true' : undefined,
        },
      },
      el('div', { attrs: { role: 'rowgroup' }, className: 'grid-head' }, this.header),
      el('div', { attrs: { role: 'rowgroup' } }, this.body),
    );
    this.scroller = this.element;
    this.element.addEventListener('keydown', (event) => this.onKey(event));
    this.element.addEventListener('focus', () => this.showActive());
    this.scroller.addEventListener('click', (event) => this.onClick(event));
    this.scroller.addEventListener('dblclick', (event) => {
      const row = this.rowOf(event.target);
      if (row !== undefined && row >= 0) this.options.onOpen(row);
    });
    const later = (): void => {
      this.frame ||= requestAnimationFrame(() => {
        this.frame = 0;
        this.renderRows();
      });
    };
    // Never removed: each page makes one grid, which lives as long as the page does.
    this.scroller.addEventListener('scroll', later, { passive: true });
    new ResizeObserver(later).observe(this.scroller);
  }

  /** New columns (a new result): the rows are emptied too. */
  setColumns(columns: readonly GridColumnSpec[], cell: (row: number, column: number) => string): void {
    this.columns = [...columns];
    this.cell = cell;
    this.sort = undefined;
    this.active = { row: -1, column: 0 };
    this.anchor = { row: -1, column: 0 };
    const template = this.columns.map((column) => `${column.width}px`).join(' ');
    this.element.style.setProperty('--grid-columns', template);
    this.element.style.setProperty('--grid-width', `${this.columns.reduce((sum, column) => sum + column.width, 0)}px`);
    this.element.setAttribute('aria-colcount', String(this.columns.length));
    this.renderHeader();
    this.setRowCount(0);
    this.scroller.scrollTop = 0;
  }

  /** More rows arrived (or fewer exist): re-renders what is in view. */
  setRowCount(count: number): void {
    this.rowCount = count;
    this.element.setAttribute('aria-rowcount', String(count + 1));
    this.body.style.height = `${count * ROW_HEIGHT}px`;
    this.renderRows();
  }

  /** Whether the headers sort (only once the whole result is there). */
  setSortable(sortable: boolean): void {
    this.sortable = sortable;
    this.renderHeader();
  }

  /** The rows' order changed: every rendered row is redrawn. */
  setSort(sort: GridSort): void {
    this.sort = sort;
    this.renderHeader();
    this.redraw();
  }

  /** The header cells again (their decoration changed, e.g. frozen columns). */
  redrawHeader(): void {
    this.renderHeader();
  }

  redraw(): void {
    for (const row of this.rendered.values()) row.remove();
    this.rendered.clear();
    this.renderRows();
  }

  /** The active cell (row -1: the header). */
  get activeCell(): { row: number; column: number } {
    return { ...this.active };
  }

  /** The selected block (the active cell alone when nothing else is selected). */
  get selection(): GridRange {
    const { row, column } = this.active;
    const anchor = this.anchor.row < 0 ? this.active : this.anchor;
    return {
      top: Math.min(row, anchor.row),
      bottom: Math.max(row, anchor.row),
      left: Math.min(column, anchor.column),
      right: Math.max(column, anchor.column),
    };
  }

  /** Selects a block, its first cell active. */
  select(range: GridRange): void {
    this.moveTo(range.top, range.left);
    this.anchor = { row: Math.min(range.bottom, this.rowCount - 1), column: Math.min(range.right, this.columns.length - 1) };
    this.showActive();
  }

  /** Redraws the rendered rows among `rows` (their values or marks changed). */
  redrawRows(rows: Iterable<number>): void {
    for (const index of rows) {
      const old = this.rendered.get(index);
      if (!old) continue;
      const row = this.createRow(index);
      row.style.transform = old.style.transform;
      old.replaceWith(row);
      this.rendered.set(index, row);
    }
    this.showActive();
  }

  /** The cell element of a rendered cell (for placing an editor over it). */
  cellElement(row: number, column: number): HTMLElement | null {
    return this.element.querySelector<HTMLElement>(`#${this.cellId(row, column)}`);
  }

  /** The number of row elements in the DOM (the bench and the tests read it). */
  get renderedRowCount(): number {
    return this.rendered.size;
  }

  private renderHeader(): void {
    clear(this.header);
    // No columns yet (before the first run): a row with no cells is no row to a screen reader.
    this.header.hidden = this.columns.length === 0;
    this.columns.forEach((column, index) => {
      const sorted = this.sort?.column === index ? this.sort.direction : undefined;
      const cell = el(
        'div',
        {
          className: `grid-cell grid-columnheader${column.numeric ? ' numeric' : ''}`,
          id: this.cellId(-1, index),
          text: column.name,
          attrs: {
            role: 'columnheader',
            'aria-colindex': String(index + 1),
            'aria-sort': sorted ?? (this.sortable ? 'none' : undefined),
            title: this.sortable ? `Sort by ${column.name}` : column.name,
          },
        },
        sorted
          ? el('span', { className: 'sort-mark', text: sorted === 'ascending' ? ' ▲' : ' ▼', attrs: { 'aria-hidden': 'true' } })
          : undefined,
      );
      cell.dataset.column = String(index);
      this.options.decorate?.(-1, index, cell);
      this.header.append(cell);
    });
    this.header.classList.toggle('sortable', this.sortable);
    this.showActive();
  }

  /** The rows in view and OVERSCAN either side, or undefined when there are none. */
  private rowsInView(): { first: number; last: number } | undefined {
    const top = Math.max(0, this.scroller.scrollTop - HEADER_HEIGHT);
    const height = Math.max(ROW_HEIGHT, this.scroller.clientHeight);
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.rowCount - 1, Math.floor((top + height) / ROW_HEIGHT) + OVERSCAN);
    return first <= last ? { first, last } : undefined;
  }

  private renderRows(): void {
    const range = this.rowsInView();
    for (const [index, row] of this.rendered) {
      if (!range || index < range.first || index > range.last) {
        row.remove();
        this.rendered.delete(index);
      }
    }
    if (range) {
      for (let index = range.first; index <= range.last; index += 1) {
        if (this.rendered.has(index)) continue;
        const row = this.createRow(index);
        row.style.transform = `translateY(${index * ROW_HEIGHT}px)`;
        this.rendered.set(index, row);
        this.body.append(row);
      }
    }
    this.showActive();
    if (range) this.options.onRender?.(range.first, range.last);
  }

  private createRow(index: number): HTMLElement {
    const row = el('div', { className: 'grid-row', attrs: { role: 'row', 'aria-rowindex': String(index + 2) } });
    row.dataset.row = String(index);
    this.columns.forEach((column, columnIndex) => {
      const text = this.cell(index, columnIndex);
      // A value wider than its column ends in an ellipsis: the tooltip shows it whole.
      const cell = el('div', {
        className: `grid-cell${column.numeric ? ' numeric' : ''}`,
        id: this.cellId(index, columnIndex),
        text,
        attrs: { role: 'gridcell', 'aria-colindex': String(columnIndex + 1), title: text === '' ? undefined : text },
      });
      cell.dataset.column = String(columnIndex);
      this.options.decorate?.(index, columnIndex, cell);
      row.append(cell);
    });
    this.options.decorateRow?.(index, row);
    return row;
  }

  private cellId(row: number, column: number): string {
    return row < 0 ? `grid-h-${column}` : `grid-${row}-${column}`;
  }

  private rowOf(target: EventTarget | null): number | undefined {
    const row = target instanceof Element ? target.closest<HTMLElement>('.grid-row') : null;
    if (!row) return undefined;
    return row.classList.contains('grid-header') ? -1 : Number(row.dataset.row);
  }

  private onClick(event: MouseEvent): void {
    const cell = event.target instanceof Element ? event.target.closest<HTMLElement>('.grid-cell') : null;
    const row = this.rowOf(event.target);
    if (!cell || row === undefined) return;
    const anchor = event.shiftKey && this.options.editable ? { ...(this.anchor.row < 0 ? this.active : this.anchor) } : undefined;
    this.moveTo(row, Number(cell.dataset.column));
    if (anchor && row >= 0) {
      this.anchor = anchor;
      this.showActive();
    }
    if (row < 0 && this.sortable) this.options.onSort(Number(cell.dataset.column));
    this.element.focus();
  }

  private pageSize(): number {
    return Math.max(1, Math.floor((this.scroller.clientHeight - HEADER_HEIGHT) / ROW_HEIGHT) - 1);
  }

  private onKey(event: KeyboardEvent): void {
    if (this.options.onKey?.(event)) return;
    const { row, column } = this.active;
    const last = this.rowCount - 1;
    const lastColumn = this.columns.length - 1;
    const ctrl = event.ctrlKey || event.metaKey;
    let next: { row: number; column: number } | undefined;
    switch (event.key) {
      case 'ArrowDown':
        next = { row: Math.min(last, row + 1), column };
        break;
      case 'ArrowUp':
        next = { row: Math.max(-1, row - 1), column };
        break;
      case 'ArrowRight':
        next = { row, column: Math.min(lastColumn, column + 1) };
        break;
      case 'ArrowLeft':
        next = { row, column: Math.max(0, column - 1) };
        break;
      case 'PageDown':
        next = { row: Math.min(last, row + this.pageSize()), column };
        break;
      case 'PageUp':
        next = { row: Math.max(row < 0 ? -1 : 0, row - this.pageSize()), column };
        break;
      case 'Home':
        next = ctrl ? { row: Math.min(0, last), column: 0 } : { row, column: 0 };
        break;
      case 'End':
        next = ctrl ? { row: last, column: lastColumn } : { row, column: lastColumn };
        break;
      case 'Enter':
        if (row >= 0) this.options.onOpen(row);
        else if (this.sortable) this.options.onSort(column);
        event.preventDefault();
        return;
      default:
        return;
    }
    event.preventDefault();
    if (!next) return;
    // Shift+arrows grow the selection from where it started.
    const anchor =
      event.shiftKey && this.options.editable && next.row >= 0 ? { ...(this.anchor.row < 0 ? this.active : this.anchor) } : undefined;
    this.moveTo(next.row, next.column);
    if (anchor) {
      this.anchor = anchor;
      this.showActive();
    }
  }

  /** Makes a cell active (and the selection that one cell). */
  moveTo(row: number, column: number): void {
    if (this.columns.length === 0) return;
    this.active = { row: Math.max(-1, Math.min(row, this.rowCount - 1)), column: Math.max(0, Math.min(column, this.columns.length - 1)) };
    this.anchor = { ...this.active };
    this.scrollIntoView();
    this.showActive();
  }

  /** Keeps the active row in view below the sticky header, and the active column across. */
  private scrollIntoView(): void {
    const { row, column } = this.active;
    if (row >= 0) {
      const top = row * ROW_HEIGHT;
      const view = this.scroller.clientHeight - HEADER_HEIGHT;
      if (top < this.scroller.scrollTop) this.scroller.scrollTop = top;
      else if (top + ROW_HEIGHT > this.scroller.scrollTop + view) this.scroller.scrollTop = top + ROW_HEIGHT - view;
    }
    const left = this.columns.slice(0, column).reduce((sum, spec) => sum + spec.width, 0);
    const width = this.columns[column]?.width ?? 0;
    // A column that scrolls is brought in to the right of the frozen ones, not under them.
    const frozen = this.options.frozenWidth?.() ?? 0;
    const start = left < frozen ? left : left - frozen;
    if (start < this.scroller.scrollLeft) this.scroller.scrollLeft = start;
    // Wider than the room left: its start shows (the narrow side bar), not its end with the start covered.
    else if (left + width > this.scroller.scrollLeft + this.scroller.clientWidth)
      this.scroller.scrollLeft = Math.min(start, left + width - this.scroller.clientWidth);
    // The scroll event comes a frame later; render now so the active cell exists at once.
    this.renderRows();
    this.renderRowsFor(row);
  }

  /** Makes sure the row at `row` is rendered even before a scroll's frame comes. */
  private renderRowsFor(row: number): void {
    if (row < 0 || this.rendered.has(row)) return;
    const element = this.createRow(row);
    element.style.transform = `translateY(${row * ROW_HEIGHT}px)`;
    this.rendered.set(row, element);
    this.body.append(element);
  }

  private showActive(): void {
    for (const previous of this.element.querySelectorAll('.active')) previous.classList.remove('active');
    for (const previous of this.element.querySelectorAll('.active-row')) previous.classList.remove('active-row');
    if (this.options.editable) this.showSelection();
    const id = this.cellId(this.active.row, this.active.column);
    const cell = this.element.querySelector<HTMLElement>(`#${id}`);
    if (cell && this.columns.length > 0) {
      cell.classList.add('active');
      cell.parentElement?.classList.add('active-row');
      this.element.setAttribute('aria-activedescendant', id);
    } else {
      this.element.removeAttribute('aria-activedescendant');
    }
    this.options.onSelect?.();
  }

  /** Marks the selected cells of the rendered rows (aria-selected and a class). */
  private showSelection(): void {
    for (const previous of this.element.querySelectorAll('[aria-selected="true"]')) {
      previous.removeAttribute('aria-selected');
      previous.classList.remove('selected');
    }
    const range = this.selection;
    if (range.top < 0 || (range.top === range.bottom && range.left === range.right)) return;
    for (let index = range.top; index <= range.bottom; index += 1) {
      const row = this.rendered.get(index);
      if (!row) continue;
      for (let column = range.left; column <= range.right; column += 1) {
        const cell = row.children[column];
        cell?.setAttribute('aria-selected', 'true');
        cell?.classList.add('selected');
      }
    }
  }
}
