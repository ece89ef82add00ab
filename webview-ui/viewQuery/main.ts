// The view query panel (view type portal.viewQuery): filter rows, Run, and the results in a virtualized
// grid with sorting and export. Rows arrive from the host in chunks; the grid paints the first at once.
import type { ColumnKind } from '../../src/api/columnKinds';
import type { HostToQueryMessage, QueryToHostMessage, SavedQuery, SortSpec, ViewFilter } from '../../src/shared/protocol';
import { columnTitle, sortsNumerically } from '../../src/grid/values';
import { channel } from '../common/vscodeApi';
import { button } from '../components/button';
import { DataGrid, type GridColumnSpec } from '../components/dataGrid';
import { el } from '../components/dom';
import { dropdown } from '../components/inputs';
import { messageBar } from '../components/messageBar';
import { registerToolkit } from '../components/toolkit';
import '../components/panel.css';
import './viewQuery.css';
import { FilterBuilder, type FilterRowState } from './filterRows';
import { Results } from './results';
import { RowSelection, selectRowsIn } from './rowSelection';

interface QueryState {
  filters: FilterRowState[];
  /** The last run asked for: the host sends a kept result again under this id after a reload. */
  runId: number;
  savedName?: string;
}

const WIDTHS: Partial<Record<ColumnKind, number>> = {
  autonumber: 96,
  number: 96,
  currency: 110,
  date: 104,
  datetime: 140,
  duration: 84,
  choice: 130,
  phone: 150,
  lookup: 180,
  multiline: 280,
};

function columnSpec(name: string, kind: ColumnKind): GridColumnSpec {
  return {
    name: columnTitle({ name, kind }),
    width: WIDTHS[kind] ?? 220,
    numeric: sortsNumerically(kind) && kind !== 'date' && kind !== 'datetime',
  };
}

registerToolkit();
const host = channel<HostToQueryMessage, QueryToHostMessage, QueryState>('query/');
const kept = host.state();
let runId = kept.runId ?? 0;
let savedName = kept.savedName;
let saved: SavedQuery[] = [];
let firstPainted = false;
/** A sort asked for and not yet answered: the rows shown are about to move, so none can be selected. */
let sortPending = false;
/**
 * Whether query/init (the columns) has come. Until then the builder cannot show the kept filters, and a Run
 * would send none and save that over them: everything that needs the columns is off.
 */
let loaded = false;

const results = new Results();
// Named at once by the page's <title> (the panel's title, the view's name): the columns, and query/init, may be slow to come.
const title = el('h1', { text: document.title || 'View query' });
const subtitle = el('p', { className: 'subtitle' });
const banner = messageBar('query-message');
const status = el('p', { id: 'row-count', className: 'row-count', attrs: { role: 'status', 'aria-live': 'polite' } });
// While rows arrive: stops reading; what has arrived stays, marked partial.
const cancelRun = button('Cancel', { id: 'cancel-run', onClick: () => host.post({ type: 'query/cancel', runId }) });
cancelRun.hidden = true;
const statusLine = el('div', { className: 'row-count-line' }, status, cancelRun);

const save = (): void => host.saveState({ filters: builder.states(), runId, savedName });
const builder = new FilterBuilder(save);
const selection = new RowSelection();
let selectionKeys: (event: KeyboardEvent) => boolean = () => false;
const grid = new DataGrid({
  label: 'Results',
  decorateRow: (row, element) => {
    const selected = selection.has(row);
    element.setAttribute('aria-selected', String(selected));
    element.classList.toggle('selected-row', selected);
  },
  onKey: (event) => selectionKeys(event),
  onOpen: (row) => {
    const recordId = results.rowAt(row)?.[0];
    if (recordId) host.post({ type: 'openRecord', recordId });
  },
  onSort: (column) => {
    if (!results.complete) return;
    // The host maps selected positions to records in the order shown: a new order starts a new selection.
    clearSelection();
    sortPending = true;
    const sort = results.nextSort(column);
    status.textContent = 'Sorting…';
    host.post({ type: 'query/sort', runId, ...(sort ? { sort } : {}) });
  },
  onRender: (first, last) => {
    // Ask the host for the rows in sight and a screenful either side.
    for (const range of results.missing(Math.max(0, first - 50), last + 50)) {
      host.post({ type: 'query/window', runId, sortVersion: results.sortVersion, start: range.start, end: range.end });
    }
  },
});

const savedPicker = dropdown({ ariaLabel: 'Saved queries', options: [{ value: '', label: 'Saved queries…' }], value: '' });
savedPicker.element.id = 'saved-queries';
savedPicker.onInput(() => {
  const query = saved.find((candidate) => candidate.name === savedPicker.value);
  if (!query) return;
  savedName = query.name;
  builder.loadFilters(query.filters);
  run();
});

const addFilter = button('Add filter', { id: 'add-filter', onClick: () => builder.add() });
const runButton = button('Run', { id: 'run', appearance: 'primary', onClick: () => run() });
const saveQueryButton = button('Save query…', { id: 'save-query', onClick: () => saveQuery() });
const exportCsv = button('Export CSV', { id: 'export-csv', onClick: () => exportRows('csv') });
const exportJson = button('Export JSON', { id: 'export-json', onClick: () => exportRows('json') });
// The selected rows, or every row of the result (the query's filters decide which); the host asks for the rest and confirms.
// Positions name rows in the order shown: the host refuses them if its order is no longer this one.
const bulk = (change: 'set-field' | 'delete'): void =>
  host.post({
    type: 'query/bulk',
    change,
    runId,
    sortVersion: results.sortVersion,
    ...(selection.count > 0 ? { rows: selection.list() } : {}),
  });
const setField = button('Set Field…', { id: 'bulk-set-field', onClick: () => bulk('set-field') });
const deleteRows = button('Delete Rows…', { id: 'bulk-delete', onClick: () => bulk('delete') });
const selected = el('span', { id: 'selected-rows', className: 'selected-rows' });
const clearSelected = button('Clear Selection', { id: 'clear-selection', onClick: () => clearSelection() });
const selectionLine = el(
  'span',
  { className: 'selection-line', attrs: { role: 'status', 'aria-live': 'polite' } },
  selected,
  clearSelected,
);
const toolbar = el(
  'div',
  { className: 'toolbar' },
  addFilter,
  runButton,
  el('span', { className: 'toolbar-gap' }),
  savedPicker.element,
  saveQueryButton,
  el('span', { className: 'toolbar-gap' }),
  exportCsv,
  exportJson,
  el('span', { className: 'toolbar-gap' }),
  setField,
  deleteRows,
);
const root = document.getElementById('root') ?? document.body;
root.classList.add('query-layout');
statusLine.append(selectionLine);
root.append(el('header', {}, title, subtitle), builder.element, toolbar, banner.element, statusLine, grid.element);
grid.element.setAttribute('aria-multiselectable', 'true');
selectionKeys = selectRowsIn(grid, selection, () => (results.complete && !sortPending ? results.count : 0), showSelection);
setExportEnabled(false);
setLoaded(false);
showSelection();

/** What Set Field… and Delete Rows… act on, said beside the row count and on the buttons. */
function showSelection(): void {
  const count = selection.count;
  selected.textContent = count === 0 ? '' : `${count.toLocaleString('en-US')} selected`;
  selectionLine.hidden = count === 0;
  const rows =
    count === 0 ? 'every row of the result' : count === 1 ? 'the selected row' : `the ${count.toLocaleString('en-US')} selected rows`;
  setField.title = `Set one column on ${rows}`;
  deleteRows.title = `Move ${rows} to trash`;
  grid.redraw();
}

function clearSelection(): void {
  if (selection.count === 0) return;
  selection.clear();
  showSelection();
}

function setExportEnabled(enabled: boolean): void {
  exportCsv.disabled = !enabled;
  exportJson.disabled = !enabled;
  setField.disabled = !enabled;
  deleteRows.disabled = !enabled;
}

function setLoaded(value: boolean): void {
  loaded = value;
  for (const control of [addFilter, runButton, saveQueryButton]) control.disabled = !value;
  savedPicker.setDisabled(!value);
  // "No filters" would be untrue of kept filters not yet shown.
  builder.element.hidden = !value;
  status.textContent = value ? '' : 'Loading the view…';
}

function loadAgain(): void {
  banner.hide();
  if (!loaded) status.textContent = 'Loading the view…';
  host.post({ type: 'retry' });
}

/** `shape`: a saved query's sort and columns, which the host applies to this run. */
function run(filters?: ViewFilter[], shape: { sort?: SortSpec; columns?: string[] } = {}): void {
  if (!loaded) return;
  const chosen = filters ?? builder.validFilters();
  if (!chosen) {
    banner.show('error', 'Some filters need attention before the query can run.');
    return;
  }
  banner.hide();
  runId += 1;
  save();
  firstPainted = false;
  performance.clearMarks();
  performance.mark('portal:run');
  status.textContent = 'Running the query…';
  cancelRun.hidden = false;
  delete status.dataset.partial;
  setExportEnabled(false);
  host.post({ type: 'query/run', runId, filters: chosen, ...shape });
}

function saveQuery(): void {
  if (!loaded) return;
  const filters = builder.validFilters();
  if (!filters) {
    banner.show('error', 'Some filters need attention before the query can be saved.');
    return;
  }
  host.post({ type: 'query/save', filters, ...(savedName ? { name: savedName } : {}) });
}

function exportRows(format: 'csv' | 'json'): void {
  if (!results.complete) return;
  host.post({ type: 'query/export', format });
}

function showSaved(list: readonly SavedQuery[]): void {
  saved = [...list];
  savedPicker.setOptions(
    [
      { value: '', label: saved.length > 0 ? 'Saved queries…' : 'No saved queries' },
      ...saved.map((query) => ({ value: query.name, label: query.name })),
    ],
    '',
  );
}

function countText(count: number, complete: boolean): string {
  const number = count.toLocaleString('en-US');
  if (!complete) return `Loading… ${number} rows so far`;
  const rows = count === 1 ? '1 row' : `${number} rows`;
  return status.dataset.partial === undefined ? rows : `${rows} (partial)`;
}

/** After the browser has painted the rows: the bench reads these marks. */
function markPainted(name: string): void {
  requestAnimationFrame(() => setTimeout(() => performance.mark(name), 0));
}

host.onMessage((message) => {
  switch (message.type) {
    case 'query/init': {
      host.keep(message.restore, message.pageState);
      const state = host.state();
      runId = Math.max(runId, state.runId ?? 0);
      savedName ??= state.savedName;
      title.textContent = message.viewName;
      subtitle.textContent = `${message.appName} · ${message.portalLabel}`;
      document.title = message.viewName;
      builder.setColumns(message.columns);
      showSaved(message.saved);
      if (!loaded) {
        banner.hide();
        setLoaded(true);
      }
      if (state.filters && state.filters.length > 0 && !message.run) builder.load(state.filters);
      if (message.run) {
        savedName = message.run.name;
        builder.loadFilters(message.run.filters);
        run(message.run.filters, {
          ...(message.run.sort ? { sort: message.run.sort } : {}),
          ...(message.run.columns ? { columns: message.run.columns } : {}),
        });
      }
      break;
    }
    case 'query/loadFailed':
      // A page already loaded keeps its controls: only a query of the tree asked for was not started.
      if (!loaded) status.textContent = '';
      banner.show('error', `The view could not be loaded. ${message.message}`, [{ label: 'Retry', id: 'retry-load', run: loadAgain }]);
      break;
    case 'query/columns':
      builder.setColumns(message.columns);
      break;
    case 'query/saved':
      showSaved(message.saved);
      break;
    case 'query/result':
      if (message.runId !== runId) return;
      selection.clear();
      sortPending = false;
      showSelection();
      results.reset(message.columns);
      grid.setColumns(
        results.columns.map((column) => columnSpec(column.name, column.kind)),
        (row, column) => results.text(row, column),
      );
      grid.setSortable(false);
      status.textContent = countText(0, false);
      break;
    case 'query/rows':
      if (message.runId !== runId || !results.add(message.sortVersion, message.start, message.rows)) return;
      // Only the rows drawn before their values came are drawn again (a whole redraw doubled the first
      // screenful's work); setRowCount draws those newly in sight.
      grid.redrawRows(Array.from({ length: message.rows.length }, (_, offset) => message.start + offset));
      grid.setRowCount(results.count);
      if (!results.complete) status.textContent = countText(results.count, false);
      if (!firstPainted) {
        firstPainted = true;
        markPainted('portal:first-rows');
      }
      break;
    case 'query/progress':
      if (message.runId !== runId) return;
      results.count = message.count;
      grid.setRowCount(results.count);
      status.textContent = countText(results.count, false);
      break;
    case 'query/done':
      if (message.runId !== runId) return;
      cancelRun.hidden = true;
      // Broken off or cancelled: the rows read stay visible, sortable and exportable, and say so.
      if (message.partial !== undefined) {
        status.dataset.partial = '';
        banner.show('info', `Partial result: ${message.partial}`);
      }
      results.count = message.total;
      results.complete = true;
      grid.setRowCount(results.count);
      grid.setSortable(true);
      status.textContent = countText(results.count, true);
      setExportEnabled(results.count > 0);
      markPainted('portal:all-rows');
      break;
    case 'query/sorted': {
      if (message.runId !== runId) return;
      sortPending = false;
      results.sorted(message.sortVersion, message.sort);
      clearSelection();
      const index = message.sort ? results.columnIndex(message.sort.key) : -1;
      grid.setSort(message.sort && index >= 0 ? { column: index, direction: message.sort.direction } : undefined);
      status.textContent = countText(results.count, true);
      break;
    }
    case 'query/failed':
      if (message.runId !== runId) return;
      cancelRun.hidden = true;
      status.textContent = '';
      banner.show('error', message.message);
      if (message.filterIndex !== undefined) builder.showError(message.filterIndex, message.message);
      break;
  }
});
host.post({ type: 'ready' });
