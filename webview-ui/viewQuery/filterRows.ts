// The filter builder: one row per filter (column, operator, value, and the Lookup app for a column of a
// Lookup app), added and removed freely. Only the operators that fit the column's kind are offered, and
// "is empty" / "is not empty" take no value. Values are checked as the portal would before anything is sent.
import { filterValueProblem, operatorLabel, operatorNeedsValue, operatorsForKind, type ViewFilter } from '../../src/api/filters';
import type { FilterOperatorName } from '../../src/api/types';
import type { FilterColumn } from '../../src/shared/protocol';
import { button } from '../components/button';
import { clear, el } from '../components/dom';
import { dropdown, textField, type Input } from '../components/inputs';
import './filterRows.css';

/** A row as the builder keeps it (and the panel's state stores it): column by field_id_in_data. */
export interface FilterRowState {
  key: string;
  /** The column's field_id, kept so that a row whose column is not (yet) offered still sends what it shows. */
  column?: string;
  operator: FilterOperatorName;
  value: string;
  lookupApp: string;
}

const VALUE_HINTS: Partial<Record<FilterColumn['kind'], string>> = {
  number: 'a number, e.g. 12',
  currency: 'an amount, e.g. 1200.50',
  autonumber: 'a number',
  date: 'DD-MM-YYYY',
  datetime: 'DD-MM-YYYY hh:mm (UTC)',
  duration: 'hh:mm',
};

class FilterRow {
  readonly element = el('div', { className: 'filter-row', attrs: { role: 'group' } });
  private readonly error = el('div', { className: 'filter-error', attrs: { 'aria-live': 'polite' } });
  private readonly columnInput: ReturnType<typeof dropdown>;
  private readonly operatorInput: ReturnType<typeof dropdown>;
  private valueInput: Input | undefined;
  private lookupInput: Input | undefined;
  private readonly valueSlot = el('div', { className: 'filter-value' });
  private readonly lookupSlot = el('div', { className: 'filter-lookup' });
  state: FilterRowState;
  private provisional: FilterColumn | undefined;

  constructor(
    private columns: readonly FilterColumn[],
    initial: Partial<FilterRowState>,
    private readonly onChange: () => void,
    onRemove: (row: FilterRow) => void,
  ) {
    // A saved row whose column is not offered yet (a Lookup app's, before a run has read the view) keeps it
    // as a provisional column: falling back to the first column would show one filter and send another.
    const known = columns.find((candidate) => candidate.key === initial.key);
    if (!known && initial.key) this.provisional = provisionalColumn(initial.key, initial.column, initial.lookupApp);
    this.columns = this.withProvisional(columns);
    const column = known ?? this.provisional ?? columns[0];
    this.state = {
      key: column?.key ?? '',
      column: column?.id,
      operator: initial.operator ?? operatorsForKind(column?.kind ?? 'unknown')[0],
      value: initial.value ?? '',
      lookupApp: initial.lookupApp ?? column?.lookupApp ?? '',
    };
    this.columnInput = dropdown({ ariaLabel: 'Column', options: this.columnOptions(), value: this.state.key });
    this.columnInput.element.classList.add('filter-column');
    this.columnInput.onInput(() => this.columnChanged());
    this.operatorInput = dropdown({ ariaLabel: 'Operator', options: [], value: '' });
    this.operatorInput.element.classList.add('filter-operator');
    this.operatorInput.onInput(() => {
      this.state.operator = this.operatorInput.value as FilterOperatorName;
      this.renderValue();
      this.changed();
    });
    const remove = button('✕', { title: 'Remove this filter', onClick: () => onRemove(this) });
    remove.setAttribute('appearance', 'icon');
    remove.setAttribute('aria-label', 'Remove this filter');
    remove.classList.add('filter-remove');
    this.element.append(this.columnInput.element, this.operatorInput.element, this.valueSlot, this.lookupSlot, remove, this.error);
    this.renderOperators();
    this.renderValue();
  }

  private column(): FilterColumn | undefined {
    return this.columns.find((candidate) => candidate.key === this.state.key);
  }

  private columnOptions(): Array<{ value: string; label: string }> {
    return this.columns.map((column) => ({
      value: column.key,
      label: column.lookupApp ? `${column.name} (app ${column.lookupApp})` : column.name,
    }));
  }

  setColumns(columns: readonly FilterColumn[]): void {
    const provisional = this.provisional;
    const real =
      provisional && columns.find((candidate) => candidate.id === provisional.id && (candidate.lookupApp ?? '') === this.state.lookupApp);
    if (real) {
      // The column has come: the row shows it by name and kind, with what was chosen kept.
      this.provisional = undefined;
      this.state.key = real.key;
    }
    this.columns = this.withProvisional(columns);
    this.columnInput.setOptions(this.columnOptions(), this.state.key);
    if (!real) return;
    this.renderOperators();
    this.renderValue();
    this.changed();
  }

  private withProvisional(columns: readonly FilterColumn[]): readonly FilterColumn[] {
    const provisional = this.provisional;
    if (!provisional || columns.some((candidate) => candidate.key === provisional.key)) return columns;
    return [...columns, provisional];
  }

  private columnChanged(): void {
    this.state.key = this.columnInput.value;
    const column = this.column();
    this.state.column = column?.id;
    const allowed = operatorsForKind(column?.kind ?? 'unknown');
    if (!allowed.includes(this.state.operator)) this.state.operator = allowed[0];
    this.state.value = '';
    this.state.lookupApp = column?.lookupApp ?? '';
    this.renderOperators();
    this.renderValue();
    this.changed();
  }

  private renderOperators(): void {
    const allowed = operatorsForKind(this.column()?.kind ?? 'unknown');
    this.operatorInput.setOptions(
      allowed.map((operator) => ({ value: operator, label: operatorLabel(operator) })),
      this.state.operator,
    );
  }

  private renderValue(): void {
    clear(this.valueSlot);
    clear(this.lookupSlot);
    this.valueInput = undefined;
    this.lookupInput = undefined;
    const column = this.column();
    if (operatorNeedsValue(this.state.operator)) {
      if (column?.kind === 'choice' && column.choices && column.choices.length > 0) {
        const options = column.choices.map((choice) => ({ value: choice.id, label: choice.name, color: choice.color }));
        const known = options.some((option) => option.value === this.state.value);
        this.valueInput = dropdown({
          ariaLabel: 'Value',
          options: known || this.state.value === '' ? options : [{ value: this.state.value, label: this.state.value }, ...options],
          value: this.state.value || options[0]?.value,
        });
        this.state.value = this.valueInput.value;
      } else {
        this.valueInput = textField({
          label: document.createTextNode(''),
          ariaLabel: 'Value',
          placeholder: VALUE_HINTS[column?.kind ?? 'unknown'] ?? 'value',
        });
        this.valueInput.value = this.state.value;
      }
      this.valueInput.element.classList.add('filter-value-input');
      this.valueInput.describeBy([this.error]);
      this.valueInput.onInput(() => {
        this.state.value = this.valueInput?.value ?? '';
        this.showError(undefined);
        this.changed();
      });
      this.valueSlot.append(this.valueInput.element);
    }
    if (column?.lookupApp) {
      this.lookupInput = textField({
        label: document.createTextNode(''),
        ariaLabel: 'Lookup app',
        placeholder: 'Lookup app id',
        prefix: 'app',
      });
      this.lookupInput.value = this.state.lookupApp;
      this.lookupInput.element.classList.add('filter-lookup-input');
      this.lookupInput.onInput(() => {
        this.state.lookupApp = this.lookupInput?.value.trim() ?? '';
        this.changed();
      });
      this.lookupSlot.append(this.lookupInput.element);
    }
  }

  private changed(): void {
    this.onChange();
  }

  /** The reason this row cannot be sent, or undefined. */
  problem(): string | undefined {
    const column = this.column();
    if (!column || column.id === '') return 'choose a column';
    const value = operatorNeedsValue(this.state.operator) ? this.state.value : undefined;
    const problem = filterValueProblem(column.kind, this.state.operator, value);
    if (problem) return problem;
    if (this.state.lookupApp.includes('|')) return 'a lookup app id cannot contain "|"';
    return undefined;
  }

  showError(message: string | undefined): void {
    this.error.textContent = message ?? '';
    this.element.classList.toggle('invalid', Boolean(message));
    if (message) this.valueInput?.setInvalid(true);
    else this.valueInput?.setInvalid(false);
  }

  focus(): void {
    (this.valueInput ?? this.columnInput).focus();
  }

  filter(): ViewFilter {
    const column = this.column();
    return {
      column: column?.id ?? this.state.key,
      operator: this.state.operator,
      ...(operatorNeedsValue(this.state.operator) ? { value: this.state.value } : {}),
      ...(column?.lookupApp && this.state.lookupApp ? { lookupApp: this.state.lookupApp } : {}),
    };
  }
}

function provisionalKey(id: string, lookupApp = ''): string {
  return `?${id}@${lookupApp}`;
}

/** A column a saved row names and the builder does not offer (yet): its id, and its Lookup app when it has one. */
function provisionalColumn(key: string, id: string | undefined, lookupApp: string | undefined): FilterColumn {
  const name = id ? `column ${id}` : `column ${key}`;
  return { id: id ?? '', key, name, kind: 'unknown', ...(lookupApp ? { lookupApp } : {}) };
}

export class FilterBuilder {
  readonly element = el('div', { className: 'filters', attrs: { role: 'group', 'aria-label': 'Filters' } });
  private readonly list = el('div', { className: 'filter-list' });
  private readonly empty = el('p', { className: 'filters-empty', text: 'No filters: Run reads every row of the view.' });
  private rows: FilterRow[] = [];
  private columns: FilterColumn[] = [];

  constructor(private readonly onChange: () => void) {
    this.element.append(this.list, this.empty);
  }

  setColumns(columns: readonly FilterColumn[]): void {
    this.columns = [...columns];
    for (const row of this.rows) row.setColumns(this.columns);
  }

  /** Replaces the rows, from saved state or a saved query. */
  load(states: readonly Partial<FilterRowState>[]): void {
    for (const row of this.rows) row.element.remove();
    this.rows = [];
    for (const state of states) this.add(state, false);
    this.update();
  }

  /** Rows for the filters of a saved query: columns by id (and Lookup app) as sent. */
  loadFilters(filters: readonly ViewFilter[]): void {
    this.load(
      filters.map((filter) => {
        const column =
          this.columns.find((candidate) => candidate.id === filter.column && (candidate.lookupApp ?? '') === (filter.lookupApp ?? '')) ??
          this.columns.find((candidate) => candidate.id === filter.column);
        return {
          key: column?.key ?? provisionalKey(filter.column, filter.lookupApp),
          column: filter.column,
          operator: filter.operator,
          value: filter.value ?? '',
          lookupApp: filter.lookupApp ?? column?.lookupApp ?? '',
        };
      }),
    );
  }

  add(initial: Partial<FilterRowState> = {}, focus = true): void {
    if (this.columns.length === 0) return;
    const row = new FilterRow(
      this.columns,
      initial,
      () => this.onChange(),
      (removed) => this.remove(removed),
    );
    this.rows.push(row);
    this.list.append(row.element);
    this.update();
    if (focus) row.focus();
  }

  private remove(row: FilterRow): void {
    row.element.remove();
    this.rows = this.rows.filter((candidate) => candidate !== row);
    this.update();
  }

  private update(): void {
    this.empty.hidden = this.rows.length > 0;
    this.rows.forEach((row, index) => row.element.setAttribute('aria-label', `Filter ${index + 1}`));
    this.onChange();
  }

  states(): FilterRowState[] {
    return this.rows.map((row) => ({ ...row.state }));
  }

  /** The filters to send, or undefined after marking the rows that cannot be sent. */
  validFilters(): ViewFilter[] | undefined {
    let first: FilterRow | undefined;
    for (const row of this.rows) {
      const problem = row.problem();
      row.showError(problem);
      if (problem) first ??= row;
    }
    if (first) {
      first.focus();
      return undefined;
    }
    return this.rows.map((row) => row.filter());
  }

  showError(index: number, message: string): void {
    this.rows[index]?.showError(message);
  }
}
