// The editor of one cell, over the cell: the create-record form's input for the column's kind (the same
// conversions, rules and messages: webview-ui/recordForm/fields.ts). Enter (Ctrl+Enter in a multi-line
// text) or Tab puts the value in the cell; Escape leaves the cell as it was.
import type { GridEditColumn } from '../../src/grid/protocol';
import { el } from '../components/dom';
import { createField, enteredFromApi, type FormField } from '../recordForm/fields';

export type EditorEnd = { kind: 'commit'; value: string; move: 'down' | 'right' | 'left' | 'none' } | { kind: 'cancel' };

/** Kinds that take a first typed character as the start of their text (as a spreadsheet does). */
const TYPE_TO_START = new Set(['text', 'email', 'phone', 'url', 'number', 'currency', 'duration', 'user', 'multiline']);

export function startsByTyping(column: GridEditColumn): boolean {
  return TYPE_TO_START.has(column.kind);
}

export class CellEditor {
  readonly element: HTMLElement;
  private readonly field: FormField;
  private readonly problem: HTMLElement;
  private ended = false;
  private readonly initial: string;

  constructor(
    column: GridEditColumn & { column: NonNullable<GridEditColumn['column']> },
    value: string,
    cell: DOMRect,
    private readonly onEnd: (end: EditorEnd) => void,
    typed?: string,
  ) {
    this.field = createField(column.column);
    this.initial = typed ?? enteredFromApi(this.field.kind, value);
    this.field.restore(this.initial);
    this.problem = el('div', { className: 'cell-editor-problem', attrs: { 'aria-live': 'polite' } });
    const multiline = this.field.kind === 'multiline';
    const hint = el('div', {
      className: 'cell-editor-hint',
      text: multiline ? 'Ctrl+Enter to set · Esc to cancel' : 'Enter to set · Esc to cancel',
    });
    this.element = el(
      'div',
      { className: `cell-editor kind-${this.field.kind}`, attrs: { role: 'dialog', 'aria-label': `Edit ${column.name}` } },
      this.field.element,
      this.problem,
      hint,
    );
    this.element.style.left = `${Math.max(0, cell.left)}px`;
    this.element.style.top = `${Math.max(0, cell.top)}px`;
    this.element.style.minWidth = `${Math.max(cell.width, multiline ? 360 : 200)}px`;
    this.element.addEventListener('keydown', (event) => this.onKey(event, multiline));
    this.element.addEventListener('focusout', (event) => {
      // Focus leaving the editor altogether (a click elsewhere) sets the value, as a spreadsheet does.
      const next = event.relatedTarget;
      if (next instanceof Node && this.element.contains(next)) return;
      setTimeout(() => {
        if (!this.ended && !this.element.contains(document.activeElement) && !this.element.matches(':focus-within')) this.commit('none');
      }, 0);
    });
  }

  /** Once in the page: the toolkit's fields take a value only once they are rendered, so it is set again. */
  focus(): void {
    this.field.restore(this.initial);
    this.field.focus();
  }

  private onKey(event: KeyboardEvent, multiline: boolean): void {
    event.stopPropagation();
    if (event.key === 'Escape') {
      event.preventDefault();
      this.end({ kind: 'cancel' });
    } else if (event.key === 'Enter' && (!multiline || event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      this.commit('down');
    } else if (event.key === 'Tab') {
      event.preventDefault();
      this.commit(event.shiftKey ? 'left' : 'right');
    }
  }

  private commit(move: 'down' | 'right' | 'left' | 'none'): void {
    const entered = this.field.entered();
    // A date typed halfway is not put in the cell as an empty one: the editor stays and says why.
    if (entered.trim() !== '' && this.field.apiValue() === '' && (this.field.kind === 'date' || this.field.kind === 'datetime')) {
      this.problem.textContent = 'not a complete date';
      return;
    }
    this.end({ kind: 'commit', value: this.field.apiValue(), move });
  }

  private end(end: EditorEnd): void {
    if (this.ended) return;
    this.ended = true;
    this.element.remove();
    this.onEnd(end);
  }
}
