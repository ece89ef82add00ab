// Blocks of cells as clipboard text. Reading: TSV as spreadsheets write it (cells separated by tabs, rows
// by CRLF or LF, a cell holding a tab, a line break or a quote wrapped in quotes with quotes doubled), read
// by papaparse (the project's one CSV library, also the bulk import's) rather than by hand, since its
// quoting rules are the ones spreadsheets follow. Writing: TSV (the form spreadsheets paste), CSV with the
// formula guard of the query export, JSON, Markdown.
import Papa from 'papaparse';
import { csvField } from '../../shared/csvText';

/** Rows of cells; rows may differ in length. */
export type TextBlock = string[][];

/**
 * Clipboard text -> rows of cells. A trailing line break (spreadsheets add one) makes no empty row. Text
 * that is no valid quoted TSV (a quote never closed: `"abc` typed in an editor) is read with quotes as
 * plain characters rather than refused: it is what the person copied. A quote inside a cell that was not
 * quoted (5" screw) is text, as spreadsheets read it (papaparse reads quotes only at a cell's start).
 */
export function readTsv(text: string): TextBlock {
  if (text === '') return [['']];
  const body = text.replace(/(\r\n|\n|\r)$/, '');
  const quoted = Papa.parse<string[]>(body, { delimiter: '\t', quoteChar: '"', skipEmptyLines: false });
  // fastMode reads no quotes at all: the fallback for a quote never closed.
  const result = quoted.errors.some((error) => error.type === 'Quotes')
    ? Papa.parse<string[]>(body, { delimiter: '\t', fastMode: true, skipEmptyLines: false })
    : quoted;
  const block = result.data.map((row) => row.map((cell) => String(cell)));
  return block.length === 0 ? [['']] : block;
}

export type CopyFormat = 'tsv' | 'csv' | 'json' | 'markdown';

/** What is copied: a header (column names) and the cells as text, or, for JSON, as values keyed by field. */
export interface CopyBlock {
  /** Column names for CSV and Markdown headers; TSV copies no header, so it pastes back in place. */
  readonly header: readonly string[];
  /** field_id_in_data of each column, the keys of the JSON objects. */
  readonly keys: readonly string[];
  readonly recordIds: readonly string[];
  /** Text as shown (choice names, local date & time), row by row. */
  readonly text: readonly (readonly string[])[];
  /** Values in the API's format, row by row (JSON copies these, as the query export does). */
  readonly values: readonly (readonly string[])[];
}

function tsvCell(value: string): string {
  return /[\t\r\n"]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function markdownCell(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n|\r/g, '<br>');
}

/**
 * The block as clipboard text. TSV is not formula-guarded: it is what the grid pastes back, and an
 * apostrophe would end up in the portal's value; CSV is the format meant for files and other programs.
 */
export function writeBlock(block: CopyBlock, format: CopyFormat): string {
  switch (format) {
    case 'tsv':
      return block.text.map((row) => row.map(tsvCell).join('\t')).join('\r\n');
    case 'csv':
      return [block.header, ...block.text].map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
    case 'json':
      return `${JSON.stringify(
        block.values.map((row, index) =>
          Object.fromEntries([['id', block.recordIds[index] ?? ''], ...block.keys.map((key, column) => [key, row[column] ?? ''])]),
        ),
        null,
        2,
      )}\n`;
    case 'markdown': {
      const line = (cells: readonly string[]): string => `| ${cells.map(markdownCell).join(' | ')} |`;
      return [line(block.header), `|${block.header.map(() => ' --- |').join('')}`, ...block.text.map(line)].join('\n') + '\n';
    }
  }
}
