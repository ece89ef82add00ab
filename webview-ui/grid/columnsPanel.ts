// The grid's columns as this person arranges them for this view: shown or hidden, in which order, and how
// many stay in place on the left while scrolling across (the record column always does). The host keeps
// the layout per view (grid/layout).
import type { ColumnLayout, GridEditColumn } from '../../src/grid/protocol';
import { button } from '../components/button';
import { clear, el } from '../components/dom';

/** The kept layout (order: hidden keys included; frozen: view columns kept on the left), and what it shows. */
export interface ColumnsLayout extends ColumnLayout {
  /** Indices into the columns, in the order shown, hidden ones left out. */
  shown: number[];
}

export class ColumnsPanel {
  readonly element: HTMLElement;
  private columns: GridEditColumn[] = [];
  private order: string[] = [];
  private hidden = new Set<string>();
  private frozen = 0;

  constructor(private readonly onChange: (layout: ColumnsLayout) => void) {
    this.element = el('section', { id: 'grid-columns-panel', className: 'columns-panel', attrs: { hidden: '', 'aria-label': 'Columns' } });
  }

  /** The kept layout over the view's columns as they are now (columns added since go last, gone ones out). */
  load(columns: GridEditColumn[], kept?: ColumnLayout): ColumnsLayout {
    this.columns = columns;
    const keys = columns.map((column) => column.key);
    const known = new Set(keys);
    const order = (kept?.order ?? []).filter((key) => known.has(key));
    this.order = [...order, ...keys.filter((key) => !order.includes(key))];
    this.hidden = new Set((kept?.hidden ?? []).filter((key) => known.has(key)));
    this.frozen = Math.max(0, Math.min(kept?.frozen ?? 0, this.order.length));
    this.render();
    return this.layout();
  }

  toggle(): void {
    this.element.hidden = !this.element.hidden;
  }

  private layout(): ColumnsLayout {
    const index = new Map(this.columns.map((column, at) => [column.key, at]));
    const shown = this.order.filter((key) => !this.hidden.has(key)).map((key) => index.get(key) ?? 0);
    return { order: [...this.order], hidden: [...this.hidden], frozen: Math.min(this.frozen, shown.length), shown };
  }

  private changed(): void {
    this.render();
    this.onChange(this.layout());
  }

  private move(key: string, by: number): void {
    const at = this.order.indexOf(key);
    const to = at + by;
    if (at < 0 || to < 0 || to >= this.order.length) return;
    [this.order[at], this.order[to]] = [this.order[to], this.order[at]];
    this.changed();
  }

  private render(): void {
    clear(this.element);
    const names = new Map(this.columns.map((column) => [column.key, column.name]));
    const list = el('ul', { className: 'columns-list' });
    for (const key of this.order) {
      const name = names.get(key) ?? key;
      const box = el('input', { attrs: { type: 'checkbox', 'aria-label': `Show ${name}` } });
      box.checked = !this.hidden.has(key);
      box.addEventListener('change', () => {
        if (box.checked) this.hidden.delete(key);
        else this.hidden.add(key);
        this.changed();
      });
      list.append(
        el(
          'li',
          { attrs: { 'data-key': key } },
          box,
          el('span', { className: 'column-name', text: name }),
          button('↑', { title: `Move ${name} left`, onClick: () => this.move(key, -1) }),
          button('↓', { title: `Move ${name} right`, onClick: () => this.move(key, 1) }),
        ),
      );
    }
    const frozen = el('input', {
      id: 'grid-frozen',
      attrs: { type: 'number', min: '0', max: String(this.order.length), 'aria-label': 'Columns frozen on the left' },
    });
    frozen.value = String(this.frozen);
    frozen.addEventListener('change', () => {
      this.frozen = Math.max(0, Math.min(Number(frozen.value) || 0, this.order.length));
      this.changed();
    });
    this.element.append(
      el('h2', { text: 'Columns' }),
      list,
      el('label', { className: 'frozen' }, document.createTextNode('Freeze the first '), frozen, document.createTextNode(' columns')),
    );
  }
}
