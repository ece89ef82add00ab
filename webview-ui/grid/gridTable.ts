// The editable grid of a view: the rows as the host last sent them, each row's marks (pending cells,
// invalid cells with their message, conflicts, failures), and the keys of a spreadsheet on top of the
// read-only DataGrid: F2 / Enter / typing edit the active cell, Delete clears the selection, Ctrl+D fills
// down, Ctrl+C copies and Ctrl+V pastes (through the host, which owns the change set and VS Code's undo).
// Column 0 is the row's record id and marks; the view's columns follow in the page's order.
import type { ColumnKind } from '../../src/api/columnKinds';
import { localFromUtc } from '../../src/shared/enteredValues';
import { displayValue, sortsNumerically } from '../../src/grid/values';
import type { GridBlock, GridEditColumn, GridRowState } from '../../src/grid/protocol';
import { DataGrid, type GridColumnSpec } from '../components/dataGrid';
import { CellEditor, startsByTyping, type EditorEnd } from './cellEditor';

const WIDTHS: Partial<Record<ColumnKind, number>> = {
  autonumber: 96,
  number: 100,
  currency: 110,
  date: 110,
  datetime: 150,
  duration: 84,
  choice: 140,
  phone: 150,
  lookup: 180,
  multiline: 260,
};
const MARK_WIDTH = 96;

export interface GridTableHost {
  edit(label: string, edits: Array<{ recordId: string; field: string; value: string }>): void;
  block(type: 'grid/fill' | 'grid/clear', block: GridBlock): void;
  /** `text` undefined: the paste event carried none; the host reads its clipboard. */
  paste(block: GridBlock, width: number, text: string | undefined): void;
  copy(block: GridBlock): void;
  openRecord(recordId: string): void;
  /** Enter on a LookUp cell: the record it links to. */
  openLinked(recordId: string, field: string): void;
  /** The active row or the selection changed. */
  selected(): void;
}

function markOf(state: GridRowState | undefined): { text: string; className: string; title: string } {
  if (!state) return { text: '', className: '', title: '' };
  if (state.isNew && !state.saveFailure) {
    const blocked = state.problems.length > 0 ? ': fill in the marked cells first' : '';
    return {
      text: '+',
      className: `row-new${state.problems.length > 0 ? ' row-invalid' : ''}`,
      title: `A new row, created when you save${blocked}`,
    };
  }
  if (state.conflict) return { text: '⚠', className: 'row-conflict', title: state.conflict };
  if (state.saveFailure) return { text: '✖', className: 'row-failed', title: `The last save failed: ${state.saveFailure}` };
  if (state.changedOnPortal)
    return {
      text: '↻',
      className: 'row-portal',
      title:
        state.changedOnPortal === 'deleted'
          ? 'Deleted on the portal since it was read'
          : 'Changed on the portal since it was read: resolved when you save',
    };
  if (state.problems.length > 0) return { text: '!', className: 'row-invalid', title: 'An invalid cell keeps this row from being saved' };
  if (state.pending.length > 0) return { text: '●', className: 'row-pending', title: 'Changed, not saved yet' };
  return { text: '', className: '', title: '' };
}

export class GridTable {
  readonly grid: DataGrid;
  columns: GridEditColumn[] = [];
  /** Indices into `columns`, in the order shown (hidden ones left out). */
  shown: number[] = [];
  private rowIds: string[] = [];
  private readonly rowIndex = new Map<string, number>();
  private values: string[][] = [];
  private readonly states = new Map<string, GridRowState>();
  private editor: CellEditor | undefined;
  /** View columns frozen on the left (beside the record column), and each shown column's left edge. */
  private frozen = 0;
  private offsets: number[] = [];

  constructor(private readonly host: GridTableHost) {
    this.grid = new DataGrid({
      label: 'Rows of the view',
      editable: true,
      onOpen: (row) => this.startEdit(row),
      onSort: () => undefined,
      decorate: (row, column, cell) => this.decorate(row, column, cell),
      onKey: (event) => this.onKey(event),
      onSelect: () => host.selected(),
      frozenWidth: () => this.offsets[this.frozen + 1] ?? 0,
    });
    this.grid.element.addEventListener('copy', (event) => {
      event.preventDefault();
      const block = this.selectedBlock();
      if (block) host.copy(block);
    });
    this.grid.element.addEventListener('paste', (event) => {
      const text = event.clipboardData?.getData('text/plain');
      const selected = this.selectedBlock();
      const block = this.pasteBlock();
      event.preventDefault();
      if (block && selected) host.paste(block, selected.columns.length, text === '' ? undefined : text);
    });
  }

  load(columns: GridEditColumn[], rows: string[][], shown: number[]): void {
    this.columns = columns;
    this.rowIds = rows.map((row) => row[0]);
    this.values = rows.map((row) => row.slice(1));
    this.rowIndex.clear();
    this.rowIds.forEach((id, index) => this.rowIndex.set(id, index));
    this.states.clear();
    this.setShown(shown);
  }

  /** Rows that arrived while the view is read: appended after the rows the page has, in this order. */
  append(rows: readonly string[][]): void {
    for (const row of rows) {
      this.rowIndex.set(row[0], this.rowIds.length);
      this.rowIds.push(row[0]);
      this.values.push(row.slice(1));
    }
    this.grid.setRowCount(this.rowIds.length);
  }

  setShown(shown: number[]): void {
    this.shown = shown;
    const specs: GridColumnSpec[] = [{ name: 'Record', width: MARK_WIDTH }, ...shown.map((index) => this.specOf(this.columns[index]))];
    let left = 0;
    this.offsets = specs.map((spec) => {
      const at = left;
      left += spec.width;
      return at;
    });
    this.grid.setColumns(specs, (row, column) => this.text(row, column));
    this.grid.setRowCount(this.rowIds.length);
  }

  /** Freezes the record column and the first `count` shown columns while scrolling across. */
  setFrozen(count: number): void {
    this.frozen = count;
    this.grid.redrawHeader();
    this.grid.redraw();
  }

  get rowCount(): number {
    return this.rowIds.length;
  }

  /**
   * Rows the host sent again (their values and marks); new rows created (renamed to their record's id),
   * added at the end, and rows gone.
   */
  update(
    rows: readonly GridRowState[],
    change: { removed?: readonly string[]; added?: readonly string[]; renamed?: ReadonlyArray<[string, string]> } = {},
  ): void {
    const redraw: number[] = [];
    const { removed = [], added = [], renamed = [] } = change;
    // A new row taken out while it was being created comes back as its record, last.
    const appended = renamed.filter(([from, to]) => !this.rowIndex.has(from) && !this.rowIndex.has(to)).map(([, to]) => to);
    for (const [from, to] of renamed) {
      const index = this.rowIndex.get(from);
      if (index === undefined) continue;
      this.rowIds[index] = to;
      this.rowIndex.delete(from);
      this.rowIndex.set(to, index);
      this.states.delete(from);
      redraw.push(index);
    }
    for (const recordId of [...appended, ...added]) {
      if (this.rowIndex.has(recordId)) continue;
      this.rowIndex.set(recordId, this.rowIds.length);
      this.rowIds.push(recordId);
      this.values.push(this.columns.map(() => ''));
    }
    if (added.length + appended.length > 0) this.grid.setRowCount(this.rowIds.length);
    for (const state of rows) {
      const index = this.rowIndex.get(state.recordId);
      if (index === undefined) continue;
      this.values[index] = state.values;
      if (
        state.isNew ||
        state.pending.length > 0 ||
        state.problems.length > 0 ||
        state.conflict ||
        state.saveFailure ||
        state.changedOnPortal
      )
        this.states.set(state.recordId, state);
      else this.states.delete(state.recordId);
      redraw.push(index);
    }
    if (removed.length > 0) {
      const gone = new Set(removed);
      const keep = this.rowIds.map((id, index) => ({ id, values: this.values[index] })).filter((row) => !gone.has(row.id));
      // The other rows keep their marks (pending, invalid, conflict): load() starts from none.
      const states = [...this.states].filter(([id]) => !gone.has(id));
      this.load(
        this.columns,
        keep.map((row) => [row.id, ...row.values]),
        this.shown,
      );
      for (const [id, state] of states) this.states.set(id, state);
      this.grid.redraw();
      return;
    }
    this.grid.redrawRows(redraw);
    this.host.selected();
  }

  /** Rows with pending edits, new rows, and how many are blocked, held back or failed. */
  counts(): { changed: number; added: number; conflicts: number; invalid: number } {
    let changed = 0;
    let added = 0;
    let conflicts = 0;
    let invalid = 0;
    for (const state of this.states.values()) {
      if (state.isNew) added += 1;
      else if (state.pending.length > 0) changed += 1;
      if (state.conflict) conflicts += 1;
      if (state.problems.length > 0) invalid += 1;
    }
    return { changed, added, conflicts, invalid };
  }

  /** The active row's record id and state. */
  activeRow(): { recordId: string; state: GridRowState | undefined } | undefined {
    const { row } = this.grid.activeCell;
    const recordId = this.rowIds[row];
    return recordId === undefined ? undefined : { recordId, state: this.states.get(recordId) };
  }

  selectedRecordIds(): string[] {
    const range = this.grid.selection;
    return range.top < 0 ? [] : this.rowIds.slice(range.top, range.bottom + 1);
  }

  /** Makes the first editable shown cell of the row of `recordId` active (a row just added). */
  /** Makes the record's row active; false when the grid has no such row (yet). */
  goToRow(recordId: string): boolean {
    const row = this.rowIndex.get(recordId);
    if (row === undefined) return false;
    const column = this.shown.findIndex((index) => !this.columns[index].locked);
    this.grid.moveTo(row, column < 0 ? 1 : column + 1);
    return true;
  }

  /** The selection as the host reads a block: rows, and the keys of the view's columns in it. */
  selectedBlock(): GridBlock | undefined {
    const range = this.grid.selection;
    if (range.top < 0) return undefined;
    const left = Math.max(1, range.left);
    const right = range.left === 0 && range.right === 0 ? this.shown.length : range.right;
    const columns = this.shown.slice(left - 1, right).map((index) => this.columns[index].key);
    return columns.length === 0 ? undefined : { top: range.top, bottom: range.bottom, columns };
  }

  /** Every shown column from the selection's first one on: where a pasted block may reach. */
  private pasteBlock(): GridBlock | undefined {
    const block = this.selectedBlock();
    const range = this.grid.selection;
    if (!block) return undefined;
    return { ...block, columns: this.shown.slice(Math.max(1, range.left) - 1).map((index) => this.columns[index].key) };
  }

  private specOf(column: GridEditColumn): GridColumnSpec {
    return {
      name: column.name,
      width: WIDTHS[column.kind] ?? 200,
      numeric: sortsNumerically(column.kind) && column.kind !== 'date' && column.kind !== 'datetime',
    };
  }

  private text(row: number, column: number): string {
    const recordId = this.rowIds[row] ?? '';
    if (column === 0) {
      const state = this.states.get(recordId);
      const mark = markOf(state).text;
      const shown = state?.isNew ? 'new' : recordId;
      return mark ? `${mark} ${shown}` : shown;
    }
    const index = this.shown[column - 1];
    const spec = this.columns[index];
    const value = this.values[row]?.[index] ?? '';
    if (spec.kind === 'datetime') return localFromUtc(value);
    if (spec.kind === 'currency' && value !== '' && typeof spec.column?.currency_symbol === 'string')
      return `${spec.column.currency_symbol}${value}`;
    return displayValue(spec, value);
  }

  private decorate(row: number, column: number, cell: HTMLElement): void {
    // Headers too: a frozen column's header must stay above its cells when the grid scrolls across.
    if (column <= this.frozen) {
      cell.classList.add('frozen');
      cell.style.left = `${this.offsets[column] ?? 0}px`;
    }
    if (row < 0) {
      const spec = column === 0 ? undefined : this.columns[this.shown[column - 1]];
      if (spec?.locked) {
        cell.classList.add('locked');
        cell.title = `${spec.name}: ${spec.locked}`;
        // The ⊘ before the name is drawn, not read: the header's name says it.
        cell.setAttribute('aria-label', `${spec.name} (read-only)`);
      }
      return;
    }
    const state = this.states.get(this.rowIds[row]);
    if (column === 0) {
      const mark = markOf(state);
      cell.classList.add('row-mark');
      if (mark.className) cell.classList.add(...mark.className.split(' '));
      if (mark.title) cell.title = mark.title;
      cell.setAttribute('role', 'rowheader');
      return;
    }
    const index = this.shown[column - 1];
    const spec = this.columns[index];
    if (spec.locked) {
      cell.classList.add('locked');
      cell.setAttribute('aria-readonly', 'true');
      cell.title = spec.kind === 'lookup' ? `${spec.locked}. Enter opens the record it links to.` : spec.locked;
    }
    if (state?.pending.includes(index)) {
      cell.classList.add('pending');
      // Said in words as well as by the cell's colour and weight (an invalid cell's message replaces it).
      cell.title = 'Changed, not saved yet';
    }
    const problem = state?.problems.find(([at]) => at === index)?.[1];
    if (problem) {
      cell.classList.add('invalid');
      cell.setAttribute('aria-invalid', 'true');
      cell.title = problem;
    }
  }

  private onKey(event: KeyboardEvent): boolean {
    const ctrl = event.ctrlKey || event.metaKey;
    const { row, column } = this.grid.activeCell;
    if (row < 0) return false;
    if (event.key === 'F2' || (event.key === 'Enter' && !ctrl)) {
      event.preventDefault();
      if (column === 0) this.host.openRecord(this.rowIds[row]);
      else this.startEdit(row);
      return true;
    }
    if (event.key === 'Delete' || event.key === 'Backspace') {
      const block = this.selectedBlock();
      event.preventDefault();
      if (block) this.host.block('grid/clear', block);
      return true;
    }
    if (ctrl && event.key.toLowerCase() === 'd') {
      const block = this.selectedBlock();
      event.preventDefault();
      if (block) this.host.block('grid/fill', block);
      return true;
    }
    if (event.key === 'Tab') {
      event.preventDefault();
      this.grid.moveTo(row, Math.max(1, column + (event.shiftKey ? -1 : 1)));
      return true;
    }
    if (!ctrl && !event.altKey && event.key.length === 1 && column > 0) {
      const spec = this.columns[this.shown[column - 1]];
      if (!startsByTyping(spec)) return false;
      // Not prevented: focus moves to the editor's empty field during the keydown, and the character the
      // key types lands there (as a spreadsheet starts a cell's text with the key that started the edit).
      this.startEdit(row, '');
      return true;
    }
    return false;
  }

  /** Opens the editor of the active cell (empty, `typed`, when typing started it). */
  startEdit(row: number, typed?: string): void {
    const { column } = this.grid.activeCell;
    if (column === 0 || this.editor) return;
    const index = this.shown[column - 1];
    const spec = this.columns[index];
    const recordId = this.rowIds[row];
    const cell = this.grid.cellElement(row, column);
    if (!cell || !recordId) return;
    const appColumn = spec.column;
    if (spec.kind === 'lookup' && typed === undefined) {
      this.host.openLinked(recordId, spec.key);
      return;
    }
    if (spec.locked || !appColumn) {
      this.host.edit('Edit cell', [{ recordId, field: spec.key, value: this.values[row][index] }]);
      return;
    }
    const editor = new CellEditor(
      { ...spec, column: appColumn },
      this.values[row][index] ?? '',
      cell.getBoundingClientRect(),
      (end) => this.endEdit(end, row, column, recordId, spec.key),
      typed,
    );
    this.editor = editor;
    document.body.append(editor.element);
    editor.focus();
  }

  private endEdit(end: EditorEnd, row: number, column: number, recordId: string, field: string): void {
    this.editor = undefined;
    if (end.kind === 'commit') {
      this.host.edit(`Edit ${this.columns.find((spec) => spec.key === field)?.name ?? field}`, [{ recordId, field, value: end.value }]);
      if (end.move === 'down') this.grid.moveTo(Math.min(row + 1, this.rowIds.length - 1), column);
      else if (end.move === 'right') this.grid.moveTo(row, column + 1);
      else if (end.move === 'left') this.grid.moveTo(row, Math.max(1, column - 1));
    }
    this.grid.element.focus();
  }
}
