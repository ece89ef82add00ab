// How a view's values are shown and ordered, the same in the results grid and in an export: choice ids
// as names, and sorting by kind (numbers as numbers, dates as dates, durations as minutes, text by the
// user's locale). Pure: imported by the host (export) and by the panel (grid).
import type { ColumnKind } from '../api/columnKinds';
import { parseDate, parseDateTime, parseDuration, parseNumber } from '../api/formats';
import type { ChoiceOption, SortDirection } from '../shared/protocol';

/**
 * A column's title in the results grid and an export's header: date & time values are the portal's, in UTC
 * (the grid and the form show local time), so their columns say so.
 */
export function columnTitle(column: { name: string; kind: ColumnKind }): string {
  return column.kind === 'datetime' ? `${column.name} (UTC)` : column.name;
}

/** A Choice column's value as shown: names instead of ids ("1,4" -> "Urgent, Fragile"); unknown ids as they are. */
export function choiceText(choices: readonly ChoiceOption[] | undefined, raw: string): string {
  if (!choices || choices.length === 0 || raw === '') return raw;
  return raw
    .split(',')
    .map((id) => choices.find((choice) => choice.id === id)?.name ?? id)
    .join(', ');
}

/** The text a cell shows. */
export function displayValue(column: { kind: ColumnKind; choices?: readonly ChoiceOption[] }, raw: string): string {
  return column.kind === 'choice' ? choiceText(column.choices, raw) : raw;
}

function dateKey(text: string): number | undefined {
  const date = parseDate(text);
  return date ? date.year * 10_000 + date.month * 100 + date.day : undefined;
}

const NUMERIC_KEYS: Partial<Record<ColumnKind, (text: string) => number | undefined>> = {
  number: parseNumber,
  currency: parseNumber,
  autonumber: parseNumber,
  date: dateKey,
  datetime: (text) => parseDateTime(text)?.getTime(),
  duration: parseDuration,
};

/** True for kinds sorted by value rather than as text. */
export function sortsNumerically(kind: ColumnKind): boolean {
  return NUMERIC_KEYS[kind] !== undefined;
}

/**
 * The order of `count` rows by the values `valueAt(i)` of one column: indices, not rows, so that 100,000
 * rows sort without copying them. Empty and unreadable values go last in both directions; equal values keep
 * the portal's order (the sort is stable).
 */
export function sortOrder(count: number, valueAt: (index: number) => string, kind: ColumnKind, direction: SortDirection): Uint32Array {
  const order = new Uint32Array(count);
  for (let index = 0; index < count; index += 1) order[index] = index;
  const sign = direction === 'ascending' ? 1 : -1;
  const numeric = NUMERIC_KEYS[kind];
  if (numeric) {
    const keys = new Float64Array(count);
    for (let index = 0; index < count; index += 1) keys[index] = numeric(valueAt(index)) ?? Number.NaN;
    return order.sort((a, b) => {
      const x = keys[a];
      const y = keys[b];
      const xMissing = Number.isNaN(x);
      const yMissing = Number.isNaN(y);
      if (xMissing || yMissing) return xMissing === yMissing ? a - b : xMissing ? 1 : -1;
      return x === y ? a - b : (x < y ? -1 : 1) * sign;
    });
  }
  // Text: keys lowered once, equal keys settled without the collator (views repeat values a lot).
  const keys = new Array<string>(count);
  for (let index = 0; index < count; index += 1) keys[index] = valueAt(index).toLocaleLowerCase();
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  return order.sort((a, b) => {
    const x = keys[a];
    const y = keys[b];
    if (x === y) return a - b;
    if (x === '' || y === '') return x === '' ? 1 : -1;
    return (collator.compare(x, y) || (x < y ? -1 : 1)) * sign;
  });
}
