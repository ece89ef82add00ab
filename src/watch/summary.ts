// The sentence a notification gives for a change a watched read found in one of the user's records:
// "TCK-1042 changed: Status Open → Done". The fields are compared as the user reads them (`show`: a choice's
// name, not its id); at most three are named, the rest counted, so the notification stays one line.

export interface SummaryColumn {
  readonly field_id_in_data: string;
  readonly field_name: string;
}

const NAMED_FIELDS = 3;
const LONGEST_VALUE = 40;

const shorten = (text: string): string => (text.length > LONGEST_VALUE ? `${text.slice(0, LONGEST_VALUE - 1)}…` : text);
const shown = (text: string): string => (text === '' ? '(empty)' : shorten(text));

/**
 * What changed between `before` (undefined: not known, the record is new to the view or was not kept) and
 * `after`, in the columns' order; `show` gives a value as the user reads it.
 */
export function changeSummary(
  title: string,
  before: Readonly<Record<string, string>> | undefined,
  after: Readonly<Record<string, string>>,
  columns: readonly SummaryColumn[],
  show: (column: SummaryColumn, value: string) => string = (_column, value) => value,
): string {
  if (before === undefined) return `${title} changed`;
  const moved = columns.filter((column) => (before[column.field_id_in_data] ?? '') !== (after[column.field_id_in_data] ?? ''));
  if (moved.length === 0) return `${title} changed`;
  const named = moved
    .slice(0, NAMED_FIELDS)
    .map(
      (column) =>
        `${column.field_name || column.field_id_in_data} ${shown(show(column, before[column.field_id_in_data] ?? ''))} → ${shown(show(column, after[column.field_id_in_data] ?? ''))}`,
    );
  const more = moved.length > NAMED_FIELDS ? ` and ${moved.length - NAMED_FIELDS} more` : '';
  return `${title} changed: ${named.join(', ')}${more}`;
}
