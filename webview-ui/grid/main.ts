// A view as an editable grid (custom editor portal.grid): a bar with the view's name, its counts and its
// actions, a line about the active row (a conflict's Compare / Keep mine / Take theirs, a failure's
// reason, an invalid cell's message), the columns' layout, and the grid. The host owns every change:
// the page sends what the user did and draws the rows the host sends back.
import type { GridBlock, GridToHostMessage, HostToGridMessage } from '../../src/grid/protocol';
import { channel } from '../common/vscodeApi';
import { button } from '../components/button';
import { el } from '../components/dom';
import { editorPage } from '../components/editorPage';
import { dropdown } from '../components/inputs';
import { messageBar } from '../components/messageBar';
import { registerToolkit } from '../components/toolkit';
import '../components/panel.css';
import '../components/editorPage.css';
import './grid.css';
import { ColumnsPanel } from './columnsPanel';
import { GridTable } from './gridTable';

registerToolkit();
const host = channel<HostToGridMessage, GridToHostMessage, Record<string, never>>('grid/');

const page = editorPage({
  prefix: 'grid',
  post: (message) => host.post(message),
  items: 'rows',
  saveTitle: 'Save the changed rows (Ctrl+S)',
  runTitle: 'Read the view again with these filters (pending changes stay)',
  showCounts: () => showCounts(),
  loaded: (load) => {
    addRow.disabled = load.state === 'loading';
  },
});
const { title, subtitle, counts, notice, builder } = page;
const rowLine = messageBar('grid-row');
/** What a row added here becomes at save (grid/init says). */
let newRows: 'draft' | 'record' = 'record';
/** The page's time zone: it shows date & time in it, so the host reads and writes them in it too. */
function timeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
/** How many filters the rows shown were read with. */
let filtered = 0;
const table = new GridTable({
  edit: (label, edits) => host.post({ type: 'grid/edit', label, edits }),
  block: (type, block) => host.post({ type, block }),
  paste: (block, width, text) =>
    host.post({ type: 'grid/paste', block, width, timeZone: timeZone(), ...(text === undefined ? {} : { text }) }),
  copy: (block) => host.post({ type: 'grid/copy', block, format: 'tsv', timeZone: timeZone() }),
  openRecord: (recordId) => host.post({ type: 'openRecord', recordId }),
  openLinked: (recordId, field) => host.post({ type: 'grid/openLinked', recordId, field }),
  selected: () => showRow(),
});

const columnsPanel = new ColumnsPanel((layout) => {
  table.setShown(layout.shown);
  host.post({ type: 'grid/layout', order: layout.order, hidden: layout.hidden, frozen: layout.frozen });
  applyFrozen(layout.frozen);
});

const copyFormat = dropdown({
  ariaLabel: 'Copy the selected cells as',
  options: [
    { value: '', label: 'Copy as…' },
    { value: 'tsv', label: 'TSV' },
    { value: 'csv', label: 'CSV' },
    { value: 'json', label: 'JSON' },
    { value: 'markdown', label: 'Markdown' },
  ],
  value: '',
});
copyFormat.onCommit(() => {
  const format = copyFormat.value;
  const block = table.selectedBlock();
  if ((format === 'tsv' || format === 'csv' || format === 'json' || format === 'markdown') && block)
    host.post({ type: 'grid/copy', block, format, timeZone: timeZone() });
  copyFormat.value = '';
});

function withBlock(action: (block: GridBlock) => void): () => void {
  return () => {
    const block = table.selectedBlock();
    if (block) action(block);
    table.grid.element.focus();
  };
}

const addRow = button('Add Row', {
  id: 'grid-add-row',
  title: 'Add a row at the end: its record is created when you save',
  onClick: () => host.post({ type: 'grid/addRow' }),
});

const actions = el(
  'div',
  { className: 'editor-actions' },
  page.save,
  page.discard,
  addRow,
  button('Fill Down', {
    id: 'grid-fill',
    title: 'Copy the top cell of the selection into the cells below (Ctrl+D)',
    onClick: withBlock((block) => host.post({ type: 'grid/fill', block })),
  }),
  button('Clear', {
    id: 'grid-clear',
    title: 'Empty the selected cells (Delete)',
    onClick: withBlock((block) => host.post({ type: 'grid/clear', block })),
  }),
  copyFormat.element,
  // The selected rows, or every row of the grid (the filtered result) when the header is active.
  button('Set Field…', {
    id: 'grid-set-field',
    title: 'Set one column on the selected rows (every row when none is selected), with progress and a report',
    onClick: () => bulk('set-field'),
  }),
  button('Delete Rows…', {
    id: 'grid-delete-rows',
    title: "Move the records of the selected rows (every row when none is selected) to the portal's trash",
    onClick: () => bulk('delete'),
  }),
  button('Columns…', { id: 'grid-columns', title: 'Hide, reorder and freeze columns', onClick: () => columnsPanel.toggle() }),
);

function bulk(change: 'set-field' | 'delete'): void {
  const recordIds = table.selectedRecordIds();
  host.post({ type: 'grid/bulk', change, ...(recordIds.length > 0 ? { recordIds } : {}) });
}

function showCounts(): void {
  const { changed, added, conflicts, invalid } = table.counts();
  const filters = filtered > 0 ? ` (${filtered} filter${filtered === 1 ? '' : 's'})` : '';
  const load = page.load();
  const rows =
    load.state === 'loading'
      ? `Loading… ${load.count.toLocaleString()} rows`
      : load.state === 'partial'
        ? `${load.count.toLocaleString()} rows (partial)`
        : `${table.rowCount.toLocaleString()} rows`;
  const parts = [`${rows}${filters}`];
  if (changed > 0) parts.push(`${changed} changed`);
  if (added > 0) parts.push(`${added} new`);
  if (invalid > 0) parts.push(`${invalid} with an invalid cell`);
  if (conflicts > 0) parts.push(`${conflicts} held back (conflict)`);
  counts.textContent = parts.join(' · ');
}

function showRow(): void {
  showCounts();
  const active = table.activeRow();
  const state = active?.state;
  if (!active || !state) return rowLine.hide();
  const resolve = page.resolveActions(active.recordId);
  if (state.conflict) return rowLine.show('error', `Record ${active.recordId}: ${state.conflict}`, resolve);
  if (state.saveFailure) return rowLine.show('error', `Record ${active.recordId} was not saved: ${state.saveFailure} Your edits are kept.`);
  const { column } = table.grid.activeCell;
  const index = table.shown[column - 1];
  const problem = state.problems.find(([at]) => at === index)?.[1] ?? state.problems[0]?.[1];
  if (state.isNew) {
    const what = newRows === 'draft' ? 'a draft' : 'a record';
    return rowLine.show(
      problem ? 'error' : 'info',
      problem ? `This new row cannot be created until this is fixed: ${problem}` : `A new row: saving creates ${what} from it.`,
    );
  }
  if (problem) return rowLine.show('error', `Record ${active.recordId} cannot be saved until this is fixed: ${problem}`);
  if (state.changedOnPortal)
    return rowLine.show(
      'info',
      `Record ${active.recordId} was ${state.changedOnPortal} on the portal since it was read. Saving checks it; or take the portal's copy now.`,
      resolve.filter((action) => action.label === 'Take Theirs'),
    );
  rowLine.hide();
}

function applyFrozen(frozen: number): void {
  table.setFrozen(frozen);
}

/** The record whose row to show once it arrives (grid/reveal of a row not read yet). */
let revealing: string | undefined;

host.onMessage((message) => {
  if (page.receive(message)) return;
  switch (message.type) {
    case 'grid/init': {
      title.textContent = message.viewName;
      newRows = message.newRows;
      filtered = message.filters.length;
      builder.setColumns(message.filterColumns);
      builder.loadFilters(message.filters);
      addRow.title = `Add a row at the end: ${newRows === 'draft' ? 'a draft' : 'a record'} is created from it when you save`;
      subtitle.textContent = `${message.appName} · ${message.portalLabel}`;
      const layout = columnsPanel.load(message.columns, message.layout);
      table.load(message.columns, message.rows, layout.shown);
      applyFrozen(layout.frozen);
      notice.hide();
      page.applyLoad(message.load ?? { state: 'done', count: message.rows.length });
      showRow();
      table.grid.element.focus();
      break;
    }
    case 'grid/rows': {
      table.update(message.rows, message);
      const added = message.added?.at(-1);
      if (added) {
        table.goToRow(added);
        table.grid.element.focus();
      }
      showRow();
      break;
    }
    case 'grid/append':
      table.append(message.rows);
      showCounts();
      if (revealing !== undefined && table.goToRow(revealing)) {
        revealing = undefined;
        table.grid.element.focus();
      }
      break;
    case 'grid/reveal':
      // A row still to come is shown when it arrives.
      revealing = table.goToRow(message.recordId) ? undefined : message.recordId;
      if (revealing === undefined) table.grid.element.focus();
      break;
  }
});

page.mount(actions, page.filterBar, notice.element, rowLine.element, columnsPanel.element, page.countsLine, table.grid.element);
host.post({ type: 'ready' });
