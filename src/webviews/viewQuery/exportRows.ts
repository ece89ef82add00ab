// A query's rows as a file: CSV (RFC 4180: comma, CRLF, fields quoted when they hold a comma, a quote or a
// line break, quotes doubled; header row = field names) or JSON (the rows as the portal sent them). All
// rows of the result, in the grid's order. Formula-looking cells are guarded (src/shared/csvText.ts).
// Pure: no vscode.
import type { ViewRow } from '../../api/answers';
import { csvField } from '../../shared/csvText';
import { displayValue, sortOrder } from '../../shared/gridValues';
import type { GridColumn, SortSpec } from '../../shared/protocol';

export { csvField, guardFormula } from '../../shared/csvText';

/** The grid's own first column (the record id) as the panel names it in a sort. */
export const RECORD_ID_KEY = '#id';

/** The order the grid shows: the portal's, or sorted as the panel sorted it. */
export function exportOrder(columns: readonly GridColumn[], rows: readonly ViewRow[], sort: SortSpec | undefined): Uint32Array | undefined {
  if (!sort) return undefined;
  if (sort.key === RECORD_ID_KEY) return sortOrder(rows.length, (index) => rows[index].id ?? '', 'autonumber', sort.direction);
  const column = columns.find((candidate) => candidate.key === sort.key);
  if (!column) return undefined;
  return sortOrder(rows.length, (index) => displayValue(column, rows[index].values[column.key] ?? ''), column.kind, sort.direction);
}

function* inOrder<T>(items: readonly T[], order: Uint32Array | undefined): Generator<T> {
  if (order) for (const index of order) yield items[index];
  else yield* items;
}

/** CSV lines (each ends with CRLF), header first; a generator so a caller can report progress. */
export function* csvLines(columns: readonly GridColumn[], rows: readonly ViewRow[], order?: Uint32Array): Generator<string> {
  yield `${['Record id', ...columns.map((column) => column.name)].map(csvField).join(',')}\r\n`;
  for (const row of inOrder(rows, order)) {
    const cells = [row.id ?? '', ...columns.map((column) => displayValue(column, row.values[column.key] ?? ''))];
    yield `${cells.map(csvField).join(',')}\r\n`;
  }
}

/** JSON: an array of {id, draft, <field_id_in_data>: value}, the values as the portal sent them. */
export function* jsonLines(columns: readonly GridColumn[], rows: readonly ViewRow[], order?: Uint32Array): Generator<string> {
  yield '[\n';
  let first = true;
  for (const row of inOrder(rows, order)) {
    const record: Record<string, string> = { id: row.id ?? '' };
    if (row.draft !== undefined) record.draft = row.draft ? '1' : '0';
    for (const column of columns) record[column.key] = row.values[column.key] ?? '';
    yield `${first ? '' : ',\n'}  ${JSON.stringify(record)}`;
    first = false;
  }
  yield '\n]\n';
}
