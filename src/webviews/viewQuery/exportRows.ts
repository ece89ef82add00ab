// A query's rows as a file: CSV (RFC 4180: comma, CRLF, fields quoted when they hold a comma, a quote or a
// line break, quotes doubled; header row = field names) or JSON (the rows as the portal sent them). All
// rows of the result, in the grid's order. Formula-looking cells are guarded (src/shared/csvText.ts).
// Pure: no vscode.
import type { ViewRow } from '../../api/answers';
import { csvField } from '../../shared/csvText';
import { columnTitle, displayValue, sortOrder } from '../../grid/values';
import { RECORD_ID_KEY, type GridColumn, type SortSpec } from '../../shared/protocol';

/** The rows of a result: a RowStore (rows parsed when read) or a plain list. */
export interface RowSource {
  readonly length: number;
  row(index: number): ViewRow;
}

/** A plain list of rows as a RowSource. */
export function listSource(rows: readonly ViewRow[]): RowSource {
  return { length: rows.length, row: (index) => rows[index] };
}

export { csvField, guardFormula } from '../../shared/csvText';

/** The order the grid shows: the portal's, or sorted as the panel sorted it. */
export function exportOrder(columns: readonly GridColumn[], rows: RowSource, sort: SortSpec | undefined): Uint32Array | undefined {
  if (!sort) return undefined;
  if (sort.key === RECORD_ID_KEY) return sortOrder(rows.length, (index) => rows.row(index).id ?? '', 'autonumber', sort.direction);
  const column = columns.find((candidate) => candidate.key === sort.key);
  if (!column) return undefined;
  return sortOrder(rows.length, (index) => displayValue(column, rows.row(index).values[column.key] ?? ''), column.kind, sort.direction);
}

/** The rows in `order` (the grid's), one at a time: a million rows are never all objects at once. */
function* inOrder(rows: RowSource, order: Uint32Array | undefined): Generator<ViewRow> {
  const count = order ? Math.min(order.length, rows.length) : rows.length;
  for (let index = 0; index < count; index += 1) yield rows.row(order ? order[index] : index);
}

/** CSV lines (each ends with CRLF), header first; a generator so a caller can report progress. */
export function* csvLines(columns: readonly GridColumn[], rows: RowSource, order?: Uint32Array): Generator<string> {
  yield `${['Record id', ...columns.map(columnTitle)].map(csvField).join(',')}\r\n`;
  for (const row of inOrder(rows, order)) {
    const cells = [row.id ?? '', ...columns.map((column) => displayValue(column, row.values[column.key] ?? ''))];
    yield `${cells.map(csvField).join(',')}\r\n`;
  }
}

/** JSON: an array of {id, draft, <field_id_in_data>: value}, the values as the portal sent them. */
export function* jsonLines(columns: readonly GridColumn[], rows: RowSource, order?: Uint32Array): Generator<string> {
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
