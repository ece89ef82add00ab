// Which column names a record in lists (the tree's record items, record pickers), and the short text shown
// for it. Pure, so it is unit-tested in node. The user chooses the column per app ("Set Title Field…");
// by default it is the app's first text column.
import { columnKind } from '../api/columnKinds';
import type { Column } from '../api/types';

/** Longest label before it is cut with an ellipsis. */
export const TITLE_MAX_LENGTH = 120;

/**
 * The column whose value titles a record: the chosen one, when the app still has it (and the view shows
 * it); else the first text column (in position order) the view shows; else the view's first column; else
 * none (records are then named by id).
 * @param columns the app's columns in position order
 * @param chosen the field_id_in_data the user chose for the app, if any
 * @param shown the field_id_in_data keys the view's rows carry; every column when absent
 */
export function chooseTitleField(columns: readonly Column[], chosen?: string, shown?: ReadonlySet<string>): Column | undefined {
  const visible = shown ? columns.filter((column) => shown.has(column.field_id_in_data)) : columns;
  return (
    (chosen === undefined ? undefined : visible.find((column) => column.field_id_in_data === chosen)) ??
    visible.find((column) => columnKind(column) === 'text') ??
    visible[0]
  );
}

/** The default title field of an app (what chooseTitleField picks when nothing is chosen). */
export function defaultTitleField(columns: readonly Column[]): Column | undefined {
  return chooseTitleField(columns);
}

/** A value as one line of plain text: choice ids as their names, markup and line breaks flattened. */
export function displayValue(column: Column | undefined, value: string): string {
  let text = value;
  if (column && columnKind(column) === 'choice' && column.choices && text !== '') {
    const names = new Map(column.choices.map((choice) => [choice.id, choice.name]));
    text = text
      .split(',')
      .map((id) => names.get(id) ?? id)
      .join(', ');
  } else if (column && columnKind(column) === 'multiline') {
    text = text.replace(/<[^>]*>/g, ' ');
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > TITLE_MAX_LENGTH ? `${text.slice(0, TITLE_MAX_LENGTH - 1)}…` : text;
}

/** The label of a record in a list: its title field's value, or a stand-in that says what is missing. */
export function recordTitle(recordId: string, values: Readonly<Record<string, string>>, titleField: Column | undefined): string {
  if (!titleField) return `Record ${recordId}`;
  const text = displayValue(titleField, values[titleField.field_id_in_data] ?? '');
  return text !== '' ? text : `(no ${titleField.field_name || titleField.field_id_in_data})`;
}
