// One labelled input per writable column, chosen by the column's kind, and the conversion between what the
// user enters and the API's value format: dates from the browser's date picker become DD-MM-YYYY,
// date-times entered in local time are sent in UTC, e-mail lists lose the spaces the API refuses.
import { columnKind, type ColumnKind } from '../../src/api/columnKinds';
import { checkValue, formatDate, formatHint, formatUsers, parseUsers } from '../../src/api/formats';
import { durationFromInput, localFromUtc, utcFromLocal } from '../../src/shared/enteredValues';
import type { Column } from '../../src/api/types';
import { choiceOptions } from '../../src/shared/protocol';
import { el, uniqueId } from '../components/dom';
import { checkboxes, dropdown, nativeInput, radioGroup, textArea, textField, type Input, type Option } from '../components/inputs';

export interface FormField {
  readonly key: string;
  readonly column: Column;
  readonly kind: ColumnKind;
  /** The field's block: label, input, hint and error. */
  readonly element: HTMLElement;
  /** The value in the API's format; "" when empty. */
  apiValue(): string;
  /** What the user entered, as the input holds it (kept while the panel is hidden). */
  entered(): string;
  restore(entered: string): void;
  /** Back to the column's default. */
  reset(): void;
  /** The reason the value cannot be sent, or undefined. */
  problem(): string | undefined;
  showError(message: string | undefined): void;
  focus(): void;
  setDisabled(disabled: boolean): void;
  onInput(listener: () => void): void;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/;

/** "2026-11-21" (the date input) -> "21-11-2026"; "" for anything else. */
export function dateFromInput(value: string): string {
  const match = ISO_DATE.exec(value);
  if (!match) return '';
  try {
    return formatDate({ year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) });
  } catch {
    return '';
  }
}

/** "2026-11-21T14:05" in the user's time zone -> "21-11-2026 13:05" in UTC (for UTC+1); "" for anything else. */
export function dateTimeFromInput(value: string): string {
  const match = LOCAL_DATE_TIME.exec(value);
  if (!match) return '';
  return utcFromLocal({
    year: Number(match[1]),
    month: Number(match[2]),
    day: Number(match[3]),
    hours: Number(match[4]),
    minutes: Number(match[5]),
  });
}

/**
 * The inverse of the conversions above: a value in the API's format as the column's input holds it (the
 * date input's YYYY-MM-DD, a date & time in local time), to edit a value that exists.
 */
export function enteredFromApi(kind: ColumnKind, value: string): string {
  if (kind === 'date') {
    const match = /^(\d{2})-(\d{2})-(\d{4})$/.exec(value);
    return match ? `${match[3]}-${match[2]}-${match[1]}` : '';
  }
  if (kind === 'datetime') {
    const match = /^(\d{2})-(\d{2})-(\d{4}) (\d{2}):(\d{2})$/.exec(localFromUtc(value));
    return match ? `${match[3]}-${match[2]}-${match[1]}T${match[4]}:${match[5]}` : '';
  }
  return value;
}

function isRequired(column: Column): boolean {
  return column.required === '1';
}

function labelOf(column: Column): Node {
  const label = el('span', { className: 'field-label' }, document.createTextNode(column.field_name || column.field_id_in_data));
  if (isRequired(column)) {
    label.append(el('span', { className: 'required-mark', text: ' *', attrs: { 'aria-hidden': 'true' } }));
    label.append(el('span', { className: 'visually-hidden', text: ' (required)' }));
  }
  return label;
}

/** The choice the portal gives a record that leaves the column out ("" when none, or not one of its choices). */
function defaultChoice(column: Column): string {
  const value = typeof column.default_value === 'string' ? column.default_value : '';
  return choiceOptions(column).some((choice) => choice.id === value) ? value : '';
}

function choiceInput(column: Column, label: Node): Input {
  const options: Option[] = choiceOptions(column).map((choice) => ({ value: choice.id, label: choice.name, color: choice.color }));
  const required = isRequired(column);
  // The label says "(required)" (labelOf): a group of checkboxes has no aria-required.
  if (column.choice_type === '2') return checkboxes({ label, options });
  if (column.choice_type === '1') return radioGroup({ label, options, required });
  // A choice left out of a new record gets the column's default from the portal: show that choice, with no
  // "(none)" that would claim otherwise.
  const fallback = defaultChoice(column);
  const empty = fallback ? [] : [{ value: '', label: required ? 'Choose…' : '(none)' }];
  return dropdown({ label, options: [...empty, ...options], value: fallback });
}

interface KindInput {
  input: Input;
  toApi: (entered: string) => string;
  /** Shown under the input while typing (the UTC time a local date-time becomes). */
  preview?: (entered: string) => string;
}

function inputFor(column: Column, kind: ColumnKind, label: Node): KindInput {
  const required = isRequired(column);
  const placeholder = formatHint(column);
  const same = (value: string): string => value;
  switch (kind) {
    case 'multiline':
      return { input: textArea({ label, required }), toApi: same };
    case 'email':
      return { input: textField({ label, type: 'email', placeholder, required }), toApi: (value) => value.trim() };
    case 'phone':
      return { input: textField({ label, type: 'tel', placeholder, required }), toApi: same };
    case 'url':
      return { input: textField({ label, type: 'url', placeholder, required }), toApi: (value) => value.trim() };
    case 'number':
      return {
        input: textField({ label, placeholder: 'e.g. 12 or -3.5', required, inputMode: 'decimal' }),
        toApi: (value) => value.trim(),
      };
    case 'currency': {
      const symbol = typeof column.currency_symbol === 'string' ? column.currency_symbol : undefined;
      return {
        input: textField({ label, placeholder: 'e.g. 1200.50', required, inputMode: 'decimal', prefix: symbol }),
        toApi: (value) => value.trim(),
      };
    }
    case 'date':
      return { input: nativeInput({ label, type: 'date', required }), toApi: dateFromInput };
    case 'datetime':
      return {
        input: nativeInput({ label, type: 'datetime-local', required }),
        toApi: dateTimeFromInput,
        preview: (entered) => {
          const utc = dateTimeFromInput(entered);
          return utc ? `Sent as ${utc} UTC` : 'Enter your local time; it is sent in UTC';
        },
      };
    case 'duration':
      return { input: textField({ label, placeholder: 'hh:mm', required }), toApi: durationFromInput };
    case 'choice':
      return { input: choiceInput(column, label), toApi: same };
    case 'user':
      return {
        input: textField({ label, placeholder: 'ada@example.com, grace@example.com', required }),
        toApi: (value) => formatUsers(parseUsers(value)),
      };
    default:
      return { input: textField({ label, placeholder, required }), toApi: same };
  }
}

export function createField(column: Column): FormField {
  const kind = columnKind(column);
  const key = column.field_id_in_data;
  const { input, toApi, preview } = inputFor(column, kind, labelOf(column));
  const description = column.field_description ? el('span', { className: 'description', text: column.field_description }) : undefined;
  const hint = el('div', { className: 'hint' }, description);
  const previewLine = preview ? el('span', { className: 'preview', text: preview('') }) : undefined;
  if (previewLine) hint.append(previewLine);
  const error = el('div', { className: 'field-error', id: uniqueId(`error-${key}`), attrs: { 'aria-live': 'polite' } });
  const element = el('div', { className: 'field', attrs: { 'data-field': key, 'data-kind': kind } }, input.element, hint, error);
  // Read with the control when focus lands on it: why it is refused, beside what the column is for.
  input.describeBy([hint, error]);
  const defaultValue = kind === 'choice' ? defaultChoice(column) : '';

  const field: FormField = {
    key,
    column,
    kind,
    element,
    apiValue: () => toApi(input.value),
    entered: () => input.value,
    restore: (entered) => {
      input.value = entered;
      if (previewLine && preview) previewLine.textContent = preview(entered);
    },
    reset: () => field.restore(defaultValue),
    problem: () => {
      const value = field.apiValue();
      if (value === '') {
        if (input.value.trim() !== '' && (kind === 'date' || kind === 'datetime')) return 'not a complete date';
        return isRequired(column) ? 'required: enter a value' : undefined;
      }
      return checkValue(column, value);
    },
    showError: (message) => {
      error.textContent = message ?? '';
      element.classList.toggle('invalid', Boolean(message));
      input.setInvalid(Boolean(message));
    },
    focus: () => input.focus(),
    setDisabled: (disabled) => input.setDisabled(disabled),
    onInput: (listener) => input.onInput(listener),
  };
  input.onInput(() => {
    if (previewLine && preview) previewLine.textContent = preview(input.value);
    if (element.classList.contains('invalid')) field.showError(undefined);
  });
  // Format problems show as soon as the user leaves the field; a required field left empty only on Create.
  input.onCommit(() => {
    if (input.value !== '') field.showError(field.problem());
  });
  field.reset();
  return field;
}
