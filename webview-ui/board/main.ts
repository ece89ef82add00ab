// A view as a board (custom editor portal.board): a bar with the view's name and Save / Discard, the
// board's column, lanes and card fields, the Query View's filters, a line about the focused card (a
// conflict's Compare / Keep mine / Take theirs), the counts, and the board. The host owns the grouping
// and every change: the page says what the user did and draws what the host sends back.
import type { BoardCard, BoardDefinition, BoardInitMessage, BoardToHostMessage, HostToBoardMessage } from '../../src/board/protocol';
import type { GridLoadState } from '../../src/grid/protocol';
import { channel } from '../common/vscodeApi';
import { button } from '../components/button';
import { el } from '../components/dom';
import { checkboxes, dropdown } from '../components/inputs';
import { messageBar } from '../components/messageBar';
import { registerToolkit } from '../components/toolkit';
import '../components/panel.css';
import './board.css';
import { filterBar as filterBarOf } from '../viewQuery/filterBar';
import { BoardView } from './boardView';

registerToolkit();
const host = channel<HostToBoardMessage, BoardToHostMessage, Record<string, never>>('board/');

const title = el('h1', { text: 'View' });
const subtitle = el('p', { className: 'subtitle' });
const counts = el('p', { id: 'board-counts', className: 'row-count', attrs: { role: 'status', 'aria-live': 'polite' } });
const notice = messageBar('board-notice');
const cardLine = messageBar('board-card');
let load: GridLoadState = { state: 'done', count: 0 };
let total = 0;
let pending = 0;
let filtered = 0;
let definition: BoardDefinition | undefined;

const cancelLoad = button('Cancel', {
  id: 'board-cancel-load',
  title: 'Stop reading the view: the cards read so far stay',
  onClick: () => host.post({ type: 'board/cancelLoad' }),
});
cancelLoad.hidden = true;

const actions = el(
  'div',
  { className: 'board-actions' },
  button('Save', {
    id: 'board-save',
    appearance: 'primary',
    title: 'Save the moved cards (Ctrl+S)',
    onClick: () => host.post({ type: 'board/save' }),
  }),
  button('Discard…', {
    id: 'board-discard',
    title: 'Discard every pending change: the view is read again from the portal (File › Revert)',
    onClick: () => host.post({ type: 'board/discard' }),
  }),
);

// The board's definition: which Choice column makes the columns, which column the lanes, the cards' fields.
const columnsBy = dropdown({ label: el('span', { text: 'Columns by' }), options: [], value: '' });
const lanesBy = dropdown({ label: el('span', { text: 'Lanes by' }), options: [], value: '' });
// The card fields fold away: a view's columns are many, and the board needs the room.
const fieldsSummary = el('summary', { text: 'Card fields' });
const fieldsBox = el('details', { className: 'board-fields' }, fieldsSummary);
let fieldsInput: ReturnType<typeof checkboxes> | undefined;
function define(): void {
  const column = columnsBy.value;
  if (!column) return;
  const lanes = lanesBy.value;
  const fields = (fieldsInput?.value ?? '').split(',').filter(Boolean);
  host.post({ type: 'board/define', definition: { column, ...(lanes ? { lanes } : {}), fields } });
}
columnsBy.onCommit(() => define());
lanesBy.onCommit(() => define());
const definitionBar = el(
  'section',
  { className: 'board-definition', attrs: { 'aria-label': 'The board' } },
  columnsBy.element,
  lanesBy.element,
  fieldsBox,
);

// The Query View's filter builder, above the board: Run reads the view again with its filters.
const { element: filterBar, builder } = filterBarOf({
  prefix: 'board',
  runTitle: 'Read the view again with these filters (pending moves stay)',
  invalid: () => notice.show('error', 'Some filters need attention before the view can be read again.'),
  run: (filters) => {
    notice.hide();
    counts.textContent = 'Reading the view…';
    host.post({ type: 'board/filter', filters });
  },
});

function showCard(card: BoardCard | undefined): void {
  if (!card) return cardLine.hide();
  const resolve = (action: 'compare' | 'keepMine' | 'takeTheirs') => () =>
    host.post({ type: 'board/resolve', recordId: card.recordId, action });
  if (card.conflict)
    return cardLine.show('error', `${card.title}: ${card.conflict}`, [
      { label: 'Compare', id: 'board-compare', run: resolve('compare') },
      { label: 'Keep Mine', id: 'board-keep-mine', run: resolve('keepMine') },
      { label: 'Take Theirs', id: 'board-take-theirs', run: resolve('takeTheirs') },
    ]);
  if (card.problem) return cardLine.show('error', `${card.title} cannot be saved as it is: ${card.problem}`);
  cardLine.hide();
}

const board = new BoardView({
  window: (place, start, end) => host.post({ type: 'board/window', place, start, end }),
  move: (recordId, to) => host.post({ type: 'board/move', recordId, to }),
  open: (recordId) => host.post({ type: 'openRecord', recordId }),
  focused: (card) => showCard(card),
});

function showCounts(): void {
  const cards =
    load.state === 'loading'
      ? `Loading… ${load.count.toLocaleString()} cards`
      : load.state === 'partial'
        ? `${total.toLocaleString()} cards (partial)`
        : `${total.toLocaleString()} cards`;
  const filters = filtered > 0 ? ` (${filtered} filter${filtered === 1 ? '' : 's'})` : '';
  counts.textContent = [`${cards}${filters}`, pending > 0 ? `${pending} changed` : ''].filter(Boolean).join(' · ');
}

const retry = { id: 'board-retry', label: 'Retry', run: () => host.post({ type: 'board/retry' }) };

function applyLoad(next: GridLoadState): void {
  load = next;
  cancelLoad.hidden = load.state !== 'loading';
  if (load.state === 'partial')
    notice.show('info', `Partial: ${load.message ?? `only ${load.count.toLocaleString()} rows were read.`}`, [retry]);
  showCounts();
}

function applyInit(message: BoardInitMessage): void {
  title.textContent = `${message.viewName} (board)`;
  subtitle.textContent = `${message.appName} · ${message.portalLabel}`;
  filtered = message.filters.length;
  builder.setColumns(message.filterColumns);
  builder.loadFilters(message.filters);
  definition = message.definition;
  columnsBy.setOptions(
    message.options.columns.map((column) => ({ value: column.key, label: column.name })),
    definition?.column ?? '',
  );
  lanesBy.setOptions(
    [{ value: '', label: 'No lanes' }, ...message.options.lanes.map((column) => ({ value: column.key, label: column.name }))],
    definition?.lanes ?? '',
  );
  fieldsInput?.element.remove();
  fieldsInput = checkboxes({
    label: el('span', { text: 'Card fields' }),
    options: message.options.fields.map((column) => ({ value: column.key, label: column.name })),
  });
  fieldsInput.value = (definition?.fields ?? []).join(',');
  fieldsInput.onCommit(() => define());
  fieldsBox.append(fieldsInput.element);
  const chosen = definition?.fields.length ?? 0;
  fieldsSummary.textContent = chosen > 0 ? `Card fields (${chosen})` : 'Card fields';
  board.setFieldCount(definition?.fields.length ?? 0);
  board.reset();
  if (message.problem) notice.show('error', message.problem);
  else notice.hide();
  applyLoad(message.load ?? { state: 'done', count: 0 });
}

host.onMessage((message) => {
  switch (message.type) {
    case 'board/init':
      applyInit(message);
      break;
    case 'board/layout':
      total = message.total;
      pending = message.pending;
      board.setLayout(message);
      showCounts();
      break;
    case 'board/cards':
      board.setCards(message.place, message.start, message.cards);
      break;
    case 'board/load':
      applyLoad(message.load);
      break;
    case 'board/notice':
      notice.show(message.level, message.message, load.state === 'partial' ? [retry] : undefined);
      showCounts();
      break;
    case 'board/loadFailed':
      notice.show('error', message.message, [retry]);
      break;
  }
});

document
  .getElementById('root')
  ?.append(
    el('header', { className: 'board-header-bar' }, el('div', {}, title, subtitle), actions),
    definitionBar,
    filterBar,
    notice.element,
    cardLine.element,
    el('div', { className: 'row-count-line' }, counts, cancelLoad),
    board.element,
  );
host.post({ type: 'ready' });
