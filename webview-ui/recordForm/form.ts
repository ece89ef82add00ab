// The create-record form: the fields in position order, Create / Save as draft / Clear, the checks before
// sending, the portal's answer next to the field it names, and what was typed kept across hide and show.
import { isWritable } from '../../src/api/columnKinds';
import { byPosition } from '../../src/shared/columnOrder';
import type { FormCreatedMessage, FormFailedMessage, FormInitMessage } from '../../src/shared/protocol';
import { button, type Button } from '../components/button';
import { clear, el } from '../components/dom';
import { messageBar } from '../components/messageBar';
import { createField, type FormField } from './fields';

export interface FormState {
  /** What was entered, by field_id_in_data. */
  entered: Record<string, string>;
}

export interface FormCallbacks {
  create(data: Record<string, string>, draft: boolean): void;
  openRecord(recordId: string): void;
  saveState(state: FormState): void;
}

export class RecordForm {
  private fields: FormField[] = [];
  private readonly banner = messageBar('form-message');
  private readonly body = el('div', { className: 'fields' });
  private readonly actions = el('div', { className: 'actions' });
  private buttons: Button[] = [];
  private justCreated = false;
  private readonly busy = el('vscode-progress-ring', { className: 'busy', attrs: { hidden: '', 'aria-label': 'Creating the record' } });

  constructor(
    private readonly root: HTMLElement,
    private readonly callbacks: FormCallbacks,
  ) {}

  render(init: FormInitMessage, state: Partial<FormState>): void {
    clear(this.root);
    const writable = byPosition(init.columns.filter((column) => isWritable(column)));
    const readOnly = byPosition(init.columns.filter((column) => !isWritable(column)));
    this.fields = writable.map((column) => createField(column));
    for (const field of this.fields) {
      // A prefill is what the user just asked for (Create Record from TODO): it wins over what the page kept.
      const entered = init.prefill?.[field.key] ?? state.entered?.[field.key];
      if (entered !== undefined) field.restore(entered);
      field.onInput(() => {
        this.allowCreateAgain();
        this.save();
      });
    }
    clear(this.body);
    this.body.append(...this.fields.map((field) => field.element));
    const heading = el(
      'header',
      {},
      el('h1', { text: `New record in ${init.appName}` }),
      el('p', { className: 'subtitle', text: `${init.portalLabel} · fields marked * are required` }),
    );
    const form = el('form', { attrs: { novalidate: '', 'aria-label': `New record in ${init.appName}` } }, this.body);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.submit(false);
    });
    this.buttons = [
      button('Create', { id: 'create', appearance: 'primary', onClick: () => this.submit(false) }),
      ...(init.offerDraft ? [button('Save as draft', { id: 'save-draft', onClick: () => this.submit(true) })] : []),
      button('Clear', { id: 'clear', onClick: () => this.clearForm() }),
    ];
    clear(this.actions);
    this.actions.append(...this.buttons, this.busy);
    const notes =
      readOnly.length > 0
        ? el('p', {
            className: 'read-only-note',
            text: `Set by the portal: ${readOnly.map((column) => column.field_name || column.field_id_in_data).join(', ')}.`,
          })
        : undefined;
    this.root.append(heading, this.banner.element, form, this.actions, ...(notes ? [notes] : []));
    if (init.prefill) {
      this.allowCreateAgain();
      this.save();
    }
    if (this.fields.length === 0) this.banner.show('error', 'This app has no column that the API can set: records cannot be created here.');
    // A page reloaded while hidden missed what its create did: the host says it, so nothing invites a second one.
    if (init.outcome?.state === 'pending') {
      this.banner.show('info', 'Creating the record…');
      this.setBusy(true);
    } else if (init.outcome?.state === 'created')
      this.created({ type: 'form/created', recordId: init.outcome.recordId, draft: init.outcome.draft, message: init.outcome.message });
  }

  /** Create (and Save as draft) stay off after a success until the user edits a field or starts a new record. */
  private allowCreateAgain(): void {
    if (!this.justCreated) return;
    this.justCreated = false;
    for (const item of this.buttons) item.disabled = false;
  }

  showLoadFailure(message: string, retry: () => void): void {
    clear(this.root);
    this.root.append(this.banner.element);
    this.banner.show('error', message, [{ label: 'Retry', id: 'retry', run: retry }]);
  }

  created(message: FormCreatedMessage): void {
    this.setBusy(false);
    this.justCreated = true;
    for (const item of this.buttons) if (item.id !== 'clear') item.disabled = true;
    const recordId = message.recordId;
    const actions = [
      ...(recordId ? [{ label: 'Open record', id: 'open-record', run: () => this.callbacks.openRecord(recordId) }] : []),
      { label: 'New record', id: 'new-record', run: () => this.clearForm() },
    ];
    this.banner.show('success', message.message, actions);
  }

  failed(message: FormFailedMessage): void {
    this.setBusy(false);
    const field = message.field === undefined ? undefined : this.fields.find((candidate) => candidate.key === message.field);
    if (field) {
      field.showError(message.message);
      field.focus();
    }
    this.banner.show('error', message.message);
  }

  private submit(draft: boolean): void {
    if (this.buttons.some((item) => item.disabled)) return;
    let first: FormField | undefined;
    for (const field of this.fields) {
      const problem = field.problem();
      field.showError(problem);
      if (problem) first ??= field;
    }
    if (first) {
      this.banner.show('error', 'Some fields need attention before the record can be created.');
      first.focus();
      return;
    }
    const data: Record<string, string> = {};
    for (const field of this.fields) {
      const value = field.apiValue();
      if (value !== '') data[field.key] = value;
    }
    this.banner.show('info', draft ? 'Saving the draft…' : 'Creating the record…');
    this.setBusy(true);
    this.callbacks.create(data, draft);
  }

  private clearForm(): void {
    for (const field of this.fields) {
      field.reset();
      field.showError(undefined);
    }
    this.banner.hide();
    this.allowCreateAgain();
    this.save();
    this.fields[0]?.focus();
  }

  private setBusy(busy: boolean): void {
    for (const item of this.buttons) item.disabled = busy;
    for (const field of this.fields) field.setDisabled(busy);
    this.busy.hidden = !busy;
  }

  private save(): void {
    const entered: Record<string, string> = {};
    for (const field of this.fields) entered[field.key] = field.entered();
    this.callbacks.saveState({ entered });
  }
}
