// Whether a cell of the grid can be set, and whether a value is acceptable: the rules and messages of
// record documents and the create-record form (src/api/formats.ts), asked one cell at a time. Nothing here
// adds a rule of its own; it only says which column a view's key belongs to.
import { checkRecord, checkValue } from '../../api/formats';
import { isWritable } from '../../api/columnKinds';
import type { Column } from '../../api/types';

/** The app's columns by field_id_in_data. A view's keys of Lookup apps (l<N>) are not among them. */
export type ColumnsByKey = ReadonlyMap<string, Column>;

export function columnsByKey(columns: readonly Column[]): ColumnsByKey {
  return new Map(columns.map((column) => [column.field_id_in_data, column]));
}

/**
 * Why no value can be put in this cell, or undefined when it is editable: a read-only kind (the same
 * message as documents, e.g. "read-only (Auto Number): it cannot be set through the API"), or a key that
 * is no column of the app (a view's column shown from a Lookup app).
 */
export function refusal(columns: ColumnsByKey, field: string): string | undefined {
  const column = columns.get(field);
  if (!column) return `read-only: ${field} is not a column of this app (it is shown from a linked app) and cannot be set through the API`;
  return isWritable(column) ? undefined : checkValue(column, '');
}

/** Why `value` cannot be sent for this cell (format, required), or undefined. Call refusal() first. */
export function cellProblem(columns: ColumnsByKey, field: string, value: string): string | undefined {
  const column = columns.get(field);
  // checkRecord over the one column: the same rules and messages, without a map of every column per cell.
  return checkRecord(column ? [column] : [], { [field]: value }, { creating: false })[0]?.message;
}
