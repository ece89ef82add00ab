// The board itself: a column per choice (and a row of cells per lane), each cell a list of cards that
// draws only the cards in sight and asks the host for them as it scrolls (a column may hold 100,000). A
// card moves by drag and drop, or from the keyboard: arrows go from card to card, Alt+arrows move the
// focused card to the next column (Left/Right) or lane (Up/Down), Enter opens its record.
import type { BoardAxisState, BoardCard, BoardLayoutMessage, BoardPlace } from '../../src/board/protocol';
import { clear, el, swatch } from '../components/dom';

export interface BoardViewHost {
  window(place: BoardPlace, start: number, end: number): void;
  move(recordId: string, to: BoardPlace): void;
  open(recordId: string): void;
  /** The focused card changed (its conflict's actions show above the board). */
  focused(card: BoardCard | undefined): void;
}

/** Each card's height in pixels: the lists are laid out by it, so only the cards in sight exist. */
const BASE_HEIGHT = 40;
const FIELD_HEIGHT = 18;
/** Cards drawn beyond those in sight, above and below, so that a scroll shows cards at once. */
const OVERSCAN = 6;

interface Cell {
  readonly place: BoardPlace;
  readonly key: string;
  readonly list: HTMLElement;
  readonly spacer: HTMLElement;
  count: number;
  readonly cards: Map<number, BoardCard>;
  /** The [start, end) asked for last (not asked again while it is on its way). */
  asked: [number, number] | undefined;
  /** The list's scroll position and height as last measured: drawing reads these, never the layout, so
   *  that a redraw after a move costs no forced reflow of the page per cell. */
  top: number;
  height: number;
}

/** A column's head (h2) or a lane's (h3): its swatch, name and count. */
function axisHead(tag: 'h2' | 'h3', axis: 'column' | 'lane', state: BoardAxisState): HTMLElement {
  return el(
    tag,
    { className: `board-${axis}-head`, attrs: { [`data-${axis}`]: state.key } },
    swatch(state.color),
    el('span', { className: 'board-head-name', text: state.name }),
    el('span', { className: 'board-count', text: state.count.toLocaleString() }),
  );
}

function keyOf(place: BoardPlace): string {
  return `${place.column}\u0000${place.lane ?? ''}`;
}

export class BoardView {
  readonly element = el('div', { className: 'board', id: 'board', attrs: { role: 'region', 'aria-label': 'Board' } });
  private readonly announcer = el('p', {
    className: 'visually-hidden',
    id: 'board-announce',
    attrs: { role: 'status', 'aria-live': 'polite' },
  });
  private readonly help = el('p', {
    className: 'visually-hidden',
    id: 'board-help',
    text: 'Arrow keys go from card to card. Alt with Left or Right moves the card to the previous or next column; Alt with Up or Down, to the previous or next lane. Enter opens the record.',
  });
  private cells = new Map<string, Cell>();
  private layout: BoardLayoutMessage | undefined;
  private cardHeight = BASE_HEIGHT;
  /** The card with the keyboard's focus (its cell and position), kept across redraws. */
  private active: { key: string; index: number; recordId?: string } | undefined;
  /** After a keyboard move: focus the card where it went once it is drawn. */
  private follow: { key: string; recordId: string } | undefined;
  private dragged: string | undefined;
  /** A cell's height measured when it changes (the first time, once it is laid out). */
  private readonly resizes = new ResizeObserver((entries) => {
    for (const entry of entries) {
      const cell = [...this.cells.values()].find((candidate) => candidate.list === entry.target);
      if (!cell || cell.height === entry.contentRect.height) continue;
      cell.height = entry.contentRect.height;
      this.askInSight(cell);
    }
  });

  constructor(private readonly host: BoardViewHost) {
    this.element.append(this.help, this.announcer);
  }

  /** The cards show these many fields below their title (their height follows). */
  setFieldCount(count: number): void {
    this.cardHeight = BASE_HEIGHT + FIELD_HEIGHT * count;
  }

  /** Columns, lanes and counts: drawn at once; the cards in sight are asked for again. */
  setLayout(layout: BoardLayoutMessage): void {
    const same =
      this.layout !== undefined &&
      JSON.stringify(this.layout.columns.map((column) => column.key)) === JSON.stringify(layout.columns.map((column) => column.key)) &&
      JSON.stringify(this.layout.lanes?.map((lane) => lane.key)) === JSON.stringify(layout.lanes?.map((lane) => lane.key));
    this.layout = layout;
    const counts = new Map(layout.cells.map(([column, lane, count]) => [`${column}\u0000${lane}`, count]));
    if (!same) this.build(layout);
    else this.updateHeads(layout);
    for (const cell of this.cells.values()) {
      cell.count = counts.get(cell.key) ?? 0;
      cell.spacer.style.height = `${cell.count * this.cardHeight}px`;
      cell.cards.clear();
      cell.asked = undefined;
    }
    // The cards in sight come with the layout: drawn below without asking (a cell beyond them asks).
    for (const given of layout.cards ?? []) {
      const cell = this.cells.get(keyOf(given.place));
      if (cell) given.cards.forEach((card, offset) => cell.cards.set(given.start + offset, card));
    }
    const moved = layout.moved;
    if (moved) {
      const key = keyOf(moved.place);
      const cell = this.cells.get(key);
      this.active = { key, index: moved.index, recordId: moved.recordId };
      if (cell) this.scrollTo(cell, moved.index, this.cardHeight);
      const column = layout.columns.find((entry) => entry.key === moved.place.column)?.name ?? moved.place.column;
      const lane = moved.place.lane === undefined ? '' : ` · ${layout.lanes?.find((entry) => entry.key === moved.place.lane)?.name ?? ''}`;
      this.announcer.textContent = `Moved to ${column}${lane}.`;
    }
    for (const cell of this.cells.values()) this.askInSight(cell);
  }

  /** Cards a window asked for. */
  setCards(place: BoardPlace, start: number, cards: readonly BoardCard[]): void {
    const cell = this.cells.get(keyOf(place));
    if (!cell) return;
    cards.forEach((card, offset) => cell.cards.set(start + offset, card));
    this.draw(cell);
  }

  /** The record ids of a cell's cards drawn now, in order (for tests and the focus). */
  drawnIds(place: BoardPlace): string[] {
    const cell = this.cells.get(keyOf(place));
    return cell ? [...cell.list.querySelectorAll<HTMLElement>('.card')].map((card) => card.dataset.recordId ?? '') : [];
  }

  private build(layout: BoardLayoutMessage): void {
    const focusInside = this.element.contains(document.activeElement);
    for (const child of [...this.element.children]) if (child !== this.help && child !== this.announcer) child.remove();
    this.resizes.disconnect();
    this.cells.clear();
    const columns = layout.columns;
    const grid = el('div', { className: 'board-grid' });
    grid.style.gridTemplateColumns = `${layout.lanes ? 'minmax(120px, max-content) ' : ''}repeat(${columns.length}, minmax(220px, 1fr))`;
    if (layout.lanes) grid.append(el('div', { className: 'board-corner' }));
    for (const column of columns) {
      grid.append(axisHead('h2', 'column', column));
    }
    const lanes = layout.lanes ?? [undefined];
    for (const lane of lanes) {
      if (lane) {
        grid.append(axisHead('h3', 'lane', lane));
      }
      for (const column of columns) {
        const place: BoardPlace = lane ? { column: column.key, lane: lane.key } : { column: column.key };
        grid.append(this.cellElement(place, column.name, lane?.name));
      }
    }
    this.element.append(grid);
    this.element.classList.toggle('with-lanes', layout.lanes !== undefined);
    if (focusInside) this.element.focus();
  }

  private updateHeads(layout: BoardLayoutMessage): void {
    for (const column of layout.columns) {
      const head = this.element.querySelector(`.board-column-head[data-column="${CSS.escape(column.key)}"] .board-count`);
      if (head) head.textContent = column.count.toLocaleString();
    }
    for (const lane of layout.lanes ?? []) {
      const head = this.element.querySelector(`.board-lane-head[data-lane="${CSS.escape(lane.key)}"] .board-count`);
      if (head) head.textContent = lane.count.toLocaleString();
    }
  }

  private cellElement(place: BoardPlace, columnName: string, laneName: string | undefined): HTMLElement {
    const key = keyOf(place);
    const spacer = el('div', { className: 'board-spacer' });
    const list = el(
      'div',
      {
        className: 'board-cell',
        attrs: {
          role: 'list',
          tabindex: '-1',
          'aria-label': laneName === undefined ? columnName : `${columnName} · ${laneName}`,
          'data-column': place.column,
          ...(place.lane === undefined ? {} : { 'data-lane': place.lane }),
        },
      },
      spacer,
    );
    const cell: Cell = { place, key, list, spacer, count: 0, cards: new Map(), asked: undefined, top: 0, height: 0 };
    this.cells.set(key, cell);
    list.addEventListener(
      'scroll',
      () => {
        cell.top = list.scrollTop;
        this.askInSight(cell);
      },
      { passive: true },
    );
    this.resizes.observe(list);
    list.addEventListener('dragover', (event) => {
      if (this.dragged === undefined) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'move';
      list.classList.add('drop-target');
    });
    list.addEventListener('dragleave', () => list.classList.remove('drop-target'));
    list.addEventListener('drop', (event) => {
      event.preventDefault();
      list.classList.remove('drop-target');
      const recordId = this.dragged ?? event.dataTransfer?.getData('text/plain');
      this.dragged = undefined;
      if (recordId) this.host.move(recordId, place);
    });
    return list;
  }

  /** Scrolls a cell so that card `index` is in sight, `margin` pixels from the edge it comes from. */
  private scrollTo(cell: Cell, index: number, margin: number): void {
    const top = index * this.cardHeight;
    const height = cell.height || 600;
    if (top >= cell.top && top + this.cardHeight <= cell.top + height) return;
    cell.top = Math.max(0, top - margin);
    cell.list.scrollTop = cell.top;
  }

  private inSight(cell: Cell): [number, number] {
    const top = cell.top;
    const height = cell.height || 600;
    const start = Math.max(0, Math.floor(top / this.cardHeight) - OVERSCAN);
    const end = Math.min(cell.count, Math.ceil((top + height) / this.cardHeight) + OVERSCAN);
    return [start, end];
  }

  private askInSight(cell: Cell): void {
    const [start, end] = this.inSight(cell);
    if (start >= end) return this.draw(cell);
    let missing = false;
    for (let index = start; index < end && !missing; index += 1) missing = !cell.cards.has(index);
    if (!missing) return this.draw(cell);
    if (cell.asked && cell.asked[0] <= start && cell.asked[1] >= end) return;
    cell.asked = [start, end];
    this.host.window(cell.place, start, end);
  }

  private draw(cell: Cell): void {
    const [start, end] = this.inSight(cell);
    const focused = document.activeElement instanceof HTMLElement && cell.list.contains(document.activeElement);
    for (const card of [...cell.list.querySelectorAll('.card')]) card.remove();
    for (let index = start; index < end; index += 1) {
      const card = cell.cards.get(index);
      if (card) cell.list.append(this.cardElement(cell, card, index));
    }
    const active = this.active;
    const follow = this.follow;
    if (follow && follow.key === cell.key) {
      const moved = cell.list.querySelector<HTMLElement>(`.card[data-record-id="${CSS.escape(follow.recordId)}"]`);
      if (moved) {
        this.follow = undefined;
        moved.focus();
        return;
      }
    }
    if (focused && active?.key === cell.key) cell.list.querySelector<HTMLElement>(`.card[data-index="${active.index}"]`)?.focus();
    this.updateTabStop();
  }

  /** One card of the board is a tab stop: the active one, else the first drawn. */
  private updateTabStop(): void {
    const cards = [...this.element.querySelectorAll<HTMLElement>('.card')];
    const active = this.active;
    const stop =
      (active && cards.find((card) => card.dataset.cell === active.key && Number(card.dataset.index) === active.index)) ?? cards[0];
    for (const card of cards) card.tabIndex = card === stop ? 0 : -1;
  }

  private cardElement(cell: Cell, card: BoardCard, index: number): HTMLElement {
    const marks = [card.pending ? '● ' : '', card.conflict ? '⚠ ' : '', card.problem && !card.conflict ? '✕ ' : ''].join('');
    const element = el(
      'div',
      {
        className: `card${card.pending ? ' pending' : ''}${card.conflict || card.problem ? ' problem' : ''}`,
        attrs: {
          role: 'listitem',
          tabindex: '-1',
          draggable: 'true',
          'data-record-id': card.recordId,
          'data-index': String(index),
          'data-cell': cell.key,
          'aria-describedby': 'board-help',
          'aria-label': [
            card.title,
            ...card.fields.map(([name, value]) => `${name}: ${value || 'empty'}`),
            card.pending ? 'moved, not saved yet' : '',
            card.conflict ?? card.problem ?? '',
          ]
            .filter(Boolean)
            .join('; '),
        },
      },
      el('div', { className: 'card-title', text: `${marks}${card.title}` }),
      ...card.fields.map(([name, value]) =>
        el(
          'div',
          { className: 'card-field' },
          el('span', { className: 'card-field-name', text: `${name}: ` }),
          document.createTextNode(value),
        ),
      ),
    );
    element.style.top = `${index * this.cardHeight}px`;
    element.style.height = `${this.cardHeight - 6}px`;
    element.addEventListener('dragstart', (event) => {
      this.dragged = card.recordId;
      event.dataTransfer?.setData('text/plain', card.recordId);
      if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
    });
    element.addEventListener('dragend', () => (this.dragged = undefined));
    element.addEventListener('focus', () => {
      this.active = { key: cell.key, index, recordId: card.recordId };
      this.updateTabStop();
      this.host.focused(card);
    });
    element.addEventListener('dblclick', () => this.host.open(card.recordId));
    element.addEventListener('keydown', (event) => this.onKey(event, cell, card, index));
    return element;
  }

  private onKey(event: KeyboardEvent, cell: Cell, card: BoardCard, index: number): void {
    const layout = this.layout;
    if (!layout) return;
    const columns = layout.columns.map((column) => column.key);
    const lanes = layout.lanes?.map((lane) => lane.key);
    const step = (keys: readonly string[], key: string, delta: number): string | undefined => keys[keys.indexOf(key) + delta];
    const column = cell.place.column;
    const lane = cell.place.lane;
    let target: BoardPlace | undefined;
    let focusAt: { place: BoardPlace; index: number } | undefined;
    switch (event.key) {
      case 'Enter':
        this.host.open(card.recordId);
        break;
      case 'ArrowDown':
      case 'ArrowUp': {
        const delta = event.key === 'ArrowDown' ? 1 : -1;
        if (event.altKey) {
          const next = lanes && lane !== undefined ? step(lanes, lane, delta) : undefined;
          if (next !== undefined) target = { column, lane: next };
        } else focusAt = { place: cell.place, index: Math.min(Math.max(0, index + delta), cell.count - 1) };
        break;
      }
      case 'ArrowLeft':
      case 'ArrowRight': {
        const next = step(columns, column, event.key === 'ArrowRight' ? 1 : -1);
        if (next === undefined) break;
        if (event.altKey) target = { column: next, ...(lane === undefined ? {} : { lane }) };
        else focusAt = { place: { column: next, ...(lane === undefined ? {} : { lane }) }, index };
        break;
      }
      default:
        return;
    }
    event.preventDefault();
    if (target) {
      this.follow = { key: keyOf(target), recordId: card.recordId };
      this.host.move(card.recordId, target);
    }
    if (focusAt) this.focusCard(focusAt.place, focusAt.index);
  }

  /** Focus the card at `index` of a cell (the last when it holds fewer), scrolled into sight and drawn. */
  private focusCard(place: BoardPlace, wanted: number): void {
    const cell = this.cells.get(keyOf(place));
    if (!cell || cell.count === 0) return;
    const index = Math.min(wanted, cell.count - 1);
    this.active = { key: cell.key, index };
    this.scrollTo(cell, index, (cell.height || 600) / 2);
    const drawn = cell.list.querySelector<HTMLElement>(`.card[data-index="${index}"]`);
    if (drawn) drawn.focus();
    else {
      this.follow = undefined;
      this.askInSight(cell);
      // Drawn when its window comes: draw() focuses the active card of a cell that has the focus.
      cell.list.focus();
    }
  }

  reset(): void {
    this.layout = undefined;
    this.resizes.disconnect();
    this.cells.clear();
    for (const child of [...this.element.children]) if (child !== this.help && child !== this.announcer) clear(child);
  }
}
