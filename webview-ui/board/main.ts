// A view as a board (custom editor portal.board): a bar with the view's name and Save / Discard, the
// board's column, lanes and card fields, the Query View's filters, a line about the focused card (a
// conflict's Compare / Keep mine / Take theirs), the counts, and the board. The host owns the grouping
// and every change: the page says what the user did and draws what the host sends back.
import type { BoardCard, BoardDefinition, BoardInitMessage, BoardToHostMessage, HostToBoardMessage } from '../../src/board/protocol';
import { channel } from '../common/vscodeApi';
import { el } from '../components/dom';
import { editorPage } from '../components/editorPage';
import { checkboxes, dropdown } from '../components/inputs';
import { messageBar } from '../components/messageBar';
import { registerToolkit } from '../components/toolkit';
import '../components/panel.css';
import '../components/editorPage.css';
import './board.css';
import { BoardView } from './boardView';

registerToolkit();
const host = channel<HostToBoardMessage, BoardToHostMessage, Record<string, never>>('board/');

const page = editorPage({
  prefix: 'board',
  post: (message) => host.post(message),
  items: 'cards',
  saveTitle: 'Save the moved cards (Ctrl+S)',
  runTitle: 'Read the view again with these filters (pending moves stay)',
  showCounts: () => showCounts(),
});
const { title, subtitle, counts, notice, builder } = page;
const cardLine = messageBar('board-card');
let total = 0;
let pending = 0;
let filtered = 0;
let definition: BoardDefinition | undefined;

const actions = el('div', { className: 'editor-actions' }, page.save, page.discard);

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

function showCard(card: BoardCard | undefined): void {
  if (!card) return cardLine.hide();
  if (card.conflict) return cardLine.show('error', `${card.title}: ${card.conflict}`, page.resolveActions(card.recordId));
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
  const load = page.load();
  const cards =
    load.state === 'loading'
      ? `Loading… ${load.count.toLocaleString()} cards`
      : load.state === 'partial'
        ? `${total.toLocaleString()} cards (partial)`
        : `${total.toLocaleString()} cards`;
  const filters = filtered > 0 ? ` (${filtered} filter${filtered === 1 ? '' : 's'})` : '';
  counts.textContent = [`${cards}${filters}`, pending > 0 ? `${pending} changed` : ''].filter(Boolean).join(' · ');
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
  page.applyLoad(message.load ?? { state: 'done', count: 0 });
}

host.onMessage((message) => {
  if (page.receive(message)) return;
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
  }
});

page.mount(actions, definitionBar, page.filterBar, notice.element, cardLine.element, page.countsLine, board.element);
host.post({ type: 'ready' });
