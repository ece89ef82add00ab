// The rows selected in the Query View's results, for Set Field… and Delete Rows…: positions in the order
// the grid shows, kept as ranges (Ctrl+A or a Shift+click across 100,000 rows is two numbers, and rows the
// page no longer holds stay selected). The host maps the ranges to record ids in that same order, so the
// selection is cleared whenever the order or the result changes. Click selects a row, Ctrl+click and Space
// toggle one, Shift+click and Shift+arrows select from the anchor, Ctrl+A all, Escape none.
import type { DataGrid } from '../components/dataGrid';

/** Display positions [start, end). */
export interface RowRange {
  start: number;
  end: number;
}

export class RowSelection {
  private ranges: RowRange[] = [];
  /** Where Shift+click and Shift+arrows select from: the row last clicked or toggled. */
  private anchor = -1;

  get count(): number {
    return this.ranges.reduce((sum, range) => sum + range.end - range.start, 0);
  }

  has(row: number): boolean {
    return this.ranges.some((range) => row >= range.start && row < range.end);
  }

  list(): RowRange[] {
    return this.ranges.map((range) => ({ ...range }));
  }

  clear(): void {
    this.ranges = [];
    this.anchor = -1;
  }

  only(row: number): void {
    this.ranges = [{ start: row, end: row + 1 }];
    this.anchor = row;
  }

  toggle(row: number): void {
    if (this.has(row))
      this.ranges = this.ranges.flatMap((range) =>
        row < range.start || row >= range.end
          ? [range]
          : [
              { start: range.start, end: row },
              { start: row + 1, end: range.end },
            ].filter((part) => part.end > part.start),
      );
    else this.ranges = merge([...this.ranges, { start: row, end: row + 1 }]);
    this.anchor = row;
  }

  /** The rows from the anchor to `row` (the anchor stays); with `add`, beside what is selected. */
  extend(row: number, add = false): void {
    if (this.anchor < 0) this.anchor = row;
    const range = { start: Math.min(this.anchor, row), end: Math.max(this.anchor, row) + 1 };
    this.ranges = add ? merge([...this.ranges, range]) : [range];
  }

  all(count: number): void {
    this.ranges = count > 0 ? [{ start: 0, end: count }] : [];
    this.anchor = count > 0 ? 0 : -1;
  }
}

function merge(ranges: RowRange[]): RowRange[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const merged: RowRange[] = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}

/**
 * Wires the selection to the grid's clicks and keys; `rows` is how many rows can be selected (0 while
 * the result is still being read), `changed` runs after every change.
 */
export function selectRowsIn(
  grid: DataGrid,
  selection: RowSelection,
  rows: () => number,
  changed: () => void,
): (event: KeyboardEvent) => boolean {
  grid.element.addEventListener('click', (event) => {
    const element = event.target instanceof Element ? event.target.closest<HTMLElement>('.grid-body .grid-row') : null;
    if (!element || rows() === 0) return;
    const row = Number(element.dataset.row);
    if (event.shiftKey) selection.extend(row, event.ctrlKey || event.metaKey);
    else if (event.ctrlKey || event.metaKey) selection.toggle(row);
    else selection.only(row);
    changed();
  });
  return (event) => {
    const { row, column } = grid.activeCell;
    const count = rows();
    const ctrl = event.ctrlKey || event.metaKey;
    let handled = true;
    if (event.key === ' ' && row >= 0 && count > 0) selection.toggle(row);
    else if (ctrl && event.key.toLowerCase() === 'a' && count > 0) selection.all(count);
    else if (event.key === 'Escape' && selection.count > 0) selection.clear();
    else if (event.shiftKey && (event.key === 'ArrowDown' || event.key === 'ArrowUp') && row >= 0 && count > 0) {
      const next = Math.max(0, Math.min(count - 1, row + (event.key === 'ArrowDown' ? 1 : -1)));
      if (!selection.has(row)) selection.only(row);
      grid.moveTo(next, column);
      selection.extend(next);
    } else handled = false;
    if (!handled) return false;
    event.preventDefault();
    changed();
    return true;
  };
}
