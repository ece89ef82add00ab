// View filters: a small model (column, operator, value, lookup app) and its encoding into the four
// "|"-separated query parameters of "Read records by view". The lists correspond by position, so a "|"
// inside an item cannot be encoded at all: it is refused here, before anything is sent, with the reason.
import type { ColumnKind } from './columnKinds';
import { PortalError } from './errors';
import { parseDate, parseDateTime, parseDuration, parseNumber } from './formats';
import { FILTER_OPERATORS, type FilterOperatorName } from './types';

export interface ViewFilter {
  /** The column's id: the view metadata's `id` (a column's field_id). */
  column: string;
  operator: FilterOperatorName;
  /** Ignored by empty / notEmpty; required by every other operator. */
  value?: string;
  /** The Lookup app's id, for a column that comes from a Lookup app; absent for the app's own columns. */
  lookupApp?: string;
}

export type FilterParameterName = 'filter_columns' | 'filter_values' | 'filter_apps' | 'filter_operators';
export type FilterParameters = Record<FilterParameterName, string>;

/** Every operator, in the order of their codes. */
export const FILTER_OPERATOR_NAMES: readonly FilterOperatorName[] = Object.keys(FILTER_OPERATORS) as FilterOperatorName[];

export const FILTER_OPERATOR_LABELS: Readonly<Record<FilterOperatorName, string>> = {
  contains: 'contains',
  doesNotContain: 'does not contain',
  equals: 'equals',
  doesNotEqual: 'does not equal',
  empty: 'is empty',
  notEmpty: 'is not empty',
  lessThan: 'less than',
  lessThanOrEqual: 'less than or equal to',
  greaterThan: 'greater than',
  greaterThanOrEqual: 'greater than or equal to',
};

export function operatorLabel(operator: FilterOperatorName): string {
  return FILTER_OPERATOR_LABELS[operator];
}

export function isFilterOperatorName(value: unknown): value is FilterOperatorName {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(FILTER_OPERATORS, value);
}

/** empty and notEmpty test the field alone; every other operator compares it with a value. */
export function operatorNeedsValue(operator: FilterOperatorName): boolean {
  return operator !== 'empty' && operator !== 'notEmpty';
}

const TEXT_LIKE: readonly FilterOperatorName[] = ['contains', 'doesNotContain', 'equals', 'doesNotEqual', 'empty', 'notEmpty'];
const ORDERED: readonly FilterOperatorName[] = [
  'equals',
  'doesNotEqual',
  'lessThan',
  'lessThanOrEqual',
  'greaterThan',
  'greaterThanOrEqual',
  'empty',
  'notEmpty',
];
const CHOICE: readonly FilterOperatorName[] = ['equals', 'doesNotEqual', 'contains', 'doesNotContain', 'empty', 'notEmpty'];

/**
 * The operators that make sense for a kind of column: text-like kinds compare as text (no ordering);
 * numbers, amounts, auto numbers, dates, date-times and durations are ordered (no substring tests); a
 * choice matches by id, and contains tests one id of a multi-select. A LookUp column compares as the
 * column it shows, which its own kind does not tell, and an unknown kind could be anything: both offer all.
 */
export function operatorsForKind(kind: ColumnKind): FilterOperatorName[] {
  switch (kind) {
    case 'autonumber':
    case 'number':
    case 'currency':
    case 'date':
    case 'datetime':
    case 'duration':
      return [...ORDERED];
    case 'choice':
      return [...CHOICE];
    case 'text':
    case 'multiline':
    case 'email':
    case 'phone':
    case 'url':
    case 'user':
      return [...TEXT_LIKE];
    default:
      return [...FILTER_OPERATOR_NAMES];
  }
}

const ORDERED_PARSERS: Partial<Record<ColumnKind, [(value: string) => unknown, string]>> = {
  number: [parseNumber, 'a number like 12 or -3.5'],
  currency: [parseNumber, 'an amount like 1200.50'],
  autonumber: [parseNumber, 'a number'],
  date: [parseDate, 'a date as DD-MM-YYYY'],
  datetime: [parseDateTime, 'a date and time as DD-MM-YYYY hh:mm (UTC)'],
  duration: [parseDuration, 'a duration as hh:mm'],
};

/**
 * Why `value` cannot be compared with a column of `kind` by `operator`, or undefined. Ordered kinds compare
 * by value (12 = 12.0, dates as dates), so equals and the orderings need a value of that kind; substring
 * and emptiness tests take anything.
 */
export function filterValueProblem(kind: ColumnKind, operator: FilterOperatorName, value: string | undefined): string | undefined {
  if (!operatorNeedsValue(operator)) return undefined;
  if (value === undefined || value === '') return `"${operatorLabel(operator)}" needs a value`;
  if (value.includes('|')) return 'a filter value cannot contain "|"';
  const parser = ORDERED_PARSERS[kind];
  if (!parser || operator === 'contains' || operator === 'doesNotContain') return undefined;
  return parser[0](value) === undefined ? `expected ${parser[1]}, got ${value}` : undefined;
}

function refuse(message: string, field?: string): PortalError {
  return new PortalError({ kind: 'invalid-input', message, code: 'invalid_filter', field });
}

function checkItem(what: string, item: string, position: number): void {
  if (item.includes('|')) {
    throw refuse(`Filter ${position}: the ${what} contains "|", which the portal uses to separate filters; it cannot be sent.`);
  }
}

/**
 * The four query parameters for `filters`, each a "|"-separated list whose items correspond by position.
 * Throws PortalError (kind 'invalid-input', code 'invalid_filter') for what cannot be encoded: a "|" in an
 * item, an empty column, an unknown operator, a missing value for an operator that needs one.
 */
export function encodeFilters(filters: readonly ViewFilter[]): FilterParameters {
  const columns: string[] = [];
  const values: string[] = [];
  const apps: string[] = [];
  const operators: string[] = [];
  filters.forEach((filter, index) => {
    const position = index + 1;
    if (!isFilterOperatorName(filter.operator)) throw refuse(`Filter ${position}: unknown operator "${String(filter.operator)}".`);
    const column = filter.column.trim();
    if (column === '') throw refuse(`Filter ${position}: no column chosen.`);
    checkItem('column', column, position);
    const value = operatorNeedsValue(filter.operator) ? filter.value : '';
    if (value === undefined || (operatorNeedsValue(filter.operator) && value === '')) {
      throw refuse(`Filter ${position}: "${operatorLabel(filter.operator)}" needs a value.`);
    }
    checkItem('value', value, position);
    const app = filter.lookupApp?.trim() ?? '';
    checkItem('lookup app', app, position);
    columns.push(column);
    values.push(value);
    apps.push(app);
    operators.push(FILTER_OPERATORS[filter.operator]);
  });
  return {
    filter_columns: columns.join('|'),
    filter_values: values.join('|'),
    filter_apps: apps.join('|'),
    filter_operators: operators.join('|'),
  };
}

/**
 * The query string pairs to send for `filters`: nothing without filters; filter_values and filter_apps
 * left out when every item is empty (the documentation needs filter_apps only for Lookup columns).
 */
export function filterQuery(filters: readonly ViewFilter[]): Array<[FilterParameterName, string]> {
  if (filters.length === 0) return [];
  const encoded = encodeFilters(filters);
  const pairs: Array<[FilterParameterName, string]> = [
    ['filter_columns', encoded.filter_columns],
    ['filter_operators', encoded.filter_operators],
  ];
  if (filters.some((filter) => operatorNeedsValue(filter.operator))) pairs.push(['filter_values', encoded.filter_values]);
  if (filters.some((filter) => (filter.lookupApp?.trim() ?? '') !== '')) pairs.push(['filter_apps', encoded.filter_apps]);
  return pairs;
}
