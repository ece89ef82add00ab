// portal_queryView's filters and answer: filters given as a column's name, an operator's name and a
// value become the view's filters (encoded by src/api/filters.ts, checked by its rules for the column's
// kind, choice names made ids); the rows come back as compact text, the first N only, saying how many
// were left out.
import type { ViewRow } from '../api/answers';
import { columnKind } from '../api/columnKinds';
import {
  FILTER_OPERATOR_LABELS,
  FILTER_OPERATOR_NAMES,
  filterValueProblem,
  operatorLabel,
  operatorsForKind,
  type ViewFilter,
} from '../api/filters';
import type { Column, FilterOperatorName, ViewMetadataEntry } from '../api/types';
import { boundedTaking, shortValue, shownValue } from './answers';
import { ToolRefusal, type ToolView } from './host';
import { fieldLabel, nameKey, resolveField, wireValue } from './resolve';

export interface FilterInput {
  readonly column?: unknown;
  readonly operator?: unknown;
  readonly value?: unknown;
}

export const DEFAULT_ROWS = 20;
export const MAX_ROWS = 100;

const SYMBOLS: Readonly<Record<string, FilterOperatorName>> = {
  '=': 'equals',
  '==': 'equals',
  '!=': 'doesNotEqual',
  '<>': 'doesNotEqual',
  '<': 'lessThan',
  '<=': 'lessThanOrEqual',
  '>': 'greaterThan',
  '>=': 'greaterThanOrEqual',
};

/** "equals", "does not equal", "lessThan", "<=", "is empty": the operator's name, label or symbol. */
export function operatorOf(given: string): FilterOperatorName | undefined {
  const symbol = SYMBOLS[given.trim()];
  if (symbol) return symbol;
  const key = nameKey(given);
  return FILTER_OPERATOR_NAMES.find((name) => nameKey(name) === key || nameKey(FILTER_OPERATOR_LABELS[name]) === key);
}

/** The filters of the request, each checked for its column's kind before anything is sent. */
export function viewFilters(
  columns: readonly Column[],
  filters: readonly FilterInput[],
  appName: string,
): { filters: ViewFilter[]; described: string[] } {
  const result: ViewFilter[] = [];
  const described: string[] = [];
  filters.forEach((filter, index) => {
    const where = `Filter ${index + 1}`;
    if (typeof filter.column !== 'string' || filter.column.trim() === '')
      throw new ToolRefusal(`${where} names no column: give "column" as a field name or id.`);
    const column = resolveField(columns, filter.column, appName);
    const kind = columnKind(column);
    const operator = typeof filter.operator === 'string' ? operatorOf(filter.operator) : undefined;
    const fitting = operatorsForKind(kind);
    if (!operator)
      throw new ToolRefusal(
        `${where}: "${String(filter.operator)}" is no operator. Operators for ${fieldLabel(column)}: ${fitting.join(', ')}.`,
      );
    if (!fitting.includes(operator))
      throw new ToolRefusal(`${where}: ${fieldLabel(column)} cannot be filtered with "${operator}". Its operators: ${fitting.join(', ')}.`);
    const given = filter.value === undefined || filter.value === null ? undefined : String(filter.value);
    const value = given === undefined ? undefined : wireValue(column, given);
    const problem = filterValueProblem(kind, operator, value);
    if (problem) throw new ToolRefusal(`${where}: ${fieldLabel(column)} ${operatorLabel(operator)}: ${problem}. Nothing was sent.`);
    if (kind === 'choice' && value !== undefined && value !== '' && !(column.choices ?? []).some((choice) => String(choice.id) === value)) {
      throw new ToolRefusal(
        `${where}: ${fieldLabel(column)} has no choice "${given}". Its choices: ${(column.choices ?? []).map((choice) => choice.name).join(', ')}.`,
      );
    }
    result.push({ column: column.field_id, operator, value });
    described.push(
      `${column.field_name || column.field_id_in_data} ${operatorLabel(operator)}${value === undefined || value === '' ? '' : ` ${JSON.stringify(shownValue(column, value))}`}`,
    );
  });
  return { filters: result, described };
}

/** The view the model names: one the user added (by id or name), or any id. */
export function resolveView(views: readonly ToolView[], given: string, appName: string): ToolView {
  const wanted = given.trim();
  const added = views.find((view) => view.viewId === wanted) ?? views.find((view) => nameKey(view.name) === nameKey(wanted));
  if (added) return added;
  if (/^\d+$/.test(wanted)) return { viewId: wanted, name: `View ${wanted}` };
  const known =
    views.length > 0 ? ` Views added in VS Code for ${appName}: ${views.map((view) => `${view.name} (${view.viewId})`).join(', ')}.` : '';
  throw new ToolRefusal(
    `${appName} has no view "${wanted}" that VS Code knows: the portal's API cannot list views, so give the view's id (the number in its address in the portal).${known}`,
  );
}

export function rowLimit(given: unknown): number {
  if (typeof given !== 'number' || !Number.isFinite(given)) return DEFAULT_ROWS;
  return Math.min(MAX_ROWS, Math.max(1, Math.floor(given)));
}

/**
 * The answer: a head line (count, filters), the columns once with their names, then one line per row
 * ("id 12 | Acme | Open | …"), choice names instead of ids, each value cut, the whole within the bound.
 */
export interface ViewAnswerRows {
  /** Rows of the whole answer. */
  readonly count: number;
  /** Its first rows, at least as many as are shown. */
  readonly rows: readonly ViewRow[];
  readonly metadata: readonly ViewMetadataEntry[];
}

export function viewAnswer(
  title: string,
  read: ViewAnswerRows,
  columnsByKey: ReadonlyMap<string, Column>,
  described: readonly string[],
  limit: number,
): string {
  const count = read.count;
  const filters = described.length > 0 ? ` with the filters ${described.join(' AND ')}` : '';
  const head = [`${title}${filters}: ${count} row${count === 1 ? '' : 's'}.`];
  if (count === 0) return head[0];
  const keys = read.metadata.map((entry) => entry.field_id_in_data);
  head.push(`Columns: record id | ${read.metadata.map((entry) => `${entry.field_id_in_data} ${entry.field_name}`).join(' | ')}`);
  const shown = read.rows.slice(0, limit);
  const lines = shown.map((row) => {
    const cells = keys.map((key) => shortValue(shownValue(columnsByKey.get(key), row.values[key] ?? ''), 80));
    return `${row.id ?? '?'}${row.draft ? ' (draft)' : ''} | ${cells.join(' | ')}`;
  });
  const beyond = count - shown.length;
  const leftOut = (left: number): string =>
    `… ${left} more row${left === 1 ? '' : 's'} left out (of ${count}); narrow the filters or raise "limit" (at most ${MAX_ROWS}).`;
  const { text, taken } = boundedTaking(head, lines, (left) => leftOut(left + beyond));
  // Whether the bound cut the lines is what `taken` says (a value may hold the words "left out" too).
  return beyond > 0 && taken === lines.length ? `${text}\n${leftOut(beyond)}` : text;
}
