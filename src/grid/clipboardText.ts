// Blocks of cells as clipboard text. Reading: TSV as spreadsheets write it (cells separated by tabs, rows
// by CRLF or LF, a cell holding a tab, a line break or a quote wrapped in quotes with quotes doubled), read
// by csv-parse rather than by hand, since its quoting rules are the ones spreadsheets follow. Writing: TSV
// (the form spreadsheets paste), CSV with the formula guard of the query export, JSON, Markdown.
import { parse } from 'csv-parse/sync';
import { csvField } from '../shared/csvText';

/** Rows of cells; rows may differ in length. */
export type TextBlock = string[][];

const TSV = {
  delimiter: '\t',
  record_delimiter: ['\r\n', '\n', '\r'],
  // A quote inside a cell that was not quoted (5" screw) is text, as spreadsheets read it.
  relax_quotes: true,
  relax_column_count: true,
  skip_empty_lines: false,
};

function parseTsv(text: string, quoted: boolean): TextBlock {
  const rows = parse(text, quoted ? TSV : { ...TSV, quote: false }) as unknown;
  if (!Array.isArray(rows)) return [];
  return rows.map((row) => (Array.isArray(row) ? row.map((cell) => String(cell)) : [String(row)]));
}

/**
 * Clipboard text -> rows of cells. A trailing line break (spreadsheets add one) makes no empty row. Text
 * that is no valid quoted TSV (a quote never closed: `"abc` typed in an editor) is read with quotes as
 * plain characters rather than refused: it is what the person copied.
 */
export function readTsv(text: string): TextBlock {
  if (text === '') return [['']];
  let block: TextBlock;
  try {
    block = parseTsv(text, true);
  } catch {
    block = parseTsv(text, false);
  }
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
  return value.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n|\r/g, '<br>');
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
        block.values.map((row, index) => Object.fromEntries([['id', block.recordIds[index] ?? ''], ...block.keys.map((key, column) => [key, row[column] ?? ''])])),
        null,
        2,
      )}\n`;
    case 'markdown': {
      const line = (cells: readonly string[]): string => `| ${cells.map(markdownCell).join(' | ')} |`;
      return [line(block.header), `|${block.header.map(() => ' --- |').join('')}`, ...block.text.map(line)].join('\n') + '\n';
    }
  }
}
