// An import file (CSV, TSV, JSON) as a stream of rows, each with the row number a person finds it by.
// CSV and TSV are parsed by papaparse (RFC 4180, delimiter detection), chunk by chunk as the file is read;
// JSON by @streamparser/json (as the view reader), one element at a time, so a file of any size is read in constant memory. The file
// is read again for each pass (dry run, run, failures file): nothing holds all its rows.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import type * as PapaModule from 'papaparse';
import { decodeText } from './sourceText';

export type SourceFormat = 'csv' | 'tsv' | 'json';

export interface SourceRow {
  /**
   * Where a person finds the row: in CSV and TSV the spreadsheet row (the header is row 1, the first record
   * row 2; a cell with a line break shifts later lines, not these numbers' meaning), in JSON the element's
   * position from 1.
   */
  row: number;
  /** By source column name; a cell the row lacks is "". */
  values: Record<string, string>;
  /** Why the row cannot be read as a record (a JSON element that is not an object, cells beyond the header). */
  problem?: string;
  /** CSV and TSV: the cells beyond the header's, when there are some; the failures file writes them back. */
  extra?: string[];
  /**
   * CSV and TSV: the file's quotes break here (one never closed, text after a closing quote), so where
   * this row ends and the next begins is not known; the run refuses to start until they are fixed or
   * the person chooses to skip such rows.
   */
  unreadable?: true;
}

export interface SourceOptions {
  /** By default from the file name: .tsv and .tab are TSV, .json JSON, anything else CSV. */
  format?: SourceFormat;
  /** CSV only: by default detected from the start of the file (, ; | or tab). */
  delimiter?: string;
}

export interface ImportSource {
  readonly path: string;
  readonly format: SourceFormat;
  /** The delimiter of a CSV or TSV file, given or detected. */
  readonly delimiter: string | undefined;
  /** The source columns in file order: the header of a CSV or TSV, the keys of the first JSON records. */
  readonly columns: readonly string[];
  /** The rows, read from the file anew; stop early by breaking the loop or aborting `signal`. */
  rows(signal?: AbortSignal): AsyncIterableIterator<SourceRow>;
}

export class SourceFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceFormatError';
  }
}

/** How many JSON records are looked at for the source columns (records are objects of varying keys). */
const JSON_COLUMN_SAMPLE = 1000;
/**
 * Characters read to detect the delimiter, the line breaks and the header of a CSV: the megabyte
 * papaparse looks at for the line breaks when it parses a whole text, so that the file read in chunks
 * breaks its lines where that parse would (a file of mixed line ends, CR inside unquoted cells).
 */
const CSV_SAMPLE_CHARS = 1024 * 1024;

type Papa = typeof PapaModule;

/** papaparse is CommonJS (UMD): node's import() puts it under `default`, a bundler may spread it. */
export async function loadPapa(): Promise<Papa> {
  const module = (await import('papaparse')) as Papa & { default?: Papa };
  return typeof module.parse === 'function' ? module : (module.default as Papa);
}

export function formatOfPath(path: string): SourceFormat {
  const extension = extname(path).toLowerCase();
  if (extension === '.tsv' || extension === '.tab') return 'tsv';
  if (extension === '.json') return 'json';
  return 'csv';
}

function text(path: string, signal?: AbortSignal): AsyncGenerator<string> {
  return decodeText(createReadStream(path, { signal, highWaterMark: 64 * 1024 }));
}

/** SHA-256 of the file's bytes, hex: ties a journal to the file it was made for. */
export async function hashFile(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { signal })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Header cells as usable, distinct names: blanks become "Column N", repeats get " (2)", " (3)". */
export function columnNames(header: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return header.map((cell, index) => {
    const base = cell.trim() || `Column ${index + 1}`;
    const count = (seen.get(base.toLowerCase()) ?? 0) + 1;
    seen.set(base.toLowerCase(), count);
    return count === 1 ? base : `${base} (${count})`;
  });
}

export async function openSource(path: string, options: SourceOptions = {}): Promise<ImportSource> {
  const format = options.format ?? formatOfPath(path);
  if (format === 'json') {
    const columns = await jsonColumns(path);
    return { path, format, delimiter: undefined, columns, rows: (signal) => jsonRows(path, columns, signal) };
  }
  const Papa = await loadPapa();
  // Whole decoded chunks, not a byte range: a range's end can fall inside a character, which a decoder
  // told the text ends there would refuse. Leaving the loop closes the file.
  let sample = '';
  for await (const chunk of text(path)) {
    sample += chunk;
    if (sample.length >= CSV_SAMPLE_CHARS) break;
  }
  const preview = Papa.parse<string[]>(sample, {
    delimiter: format === 'tsv' ? '\t' : (options.delimiter ?? ''),
    delimitersToGuess: [',', ';', '\t', '|'],
    preview: 20,
    skipEmptyLines: 'greedy',
  });
  const header = preview.data[0];
  if (!header) throw new SourceFormatError(`${path} is empty: an import file starts with a header row naming its columns.`);
  if (preview.errors.some((error) => error.row === 0 && error.type === 'Quotes')) {
    throw new SourceFormatError(
      `The header row of ${path} has a quote that is never closed or is followed by text: fix its quotes (a quote in a name is written "") and import the file again.`,
    );
  }
  const delimiter = preview.meta.delimiter;
  const newline = preview.meta.linebreak;
  const columns = columnNames(header);
  return { path, format, delimiter, columns, rows: (signal) => new CsvRows(csvRecords(path, delimiter, newline, signal), columns) };
}

/**
 * The first `limit` rows whose quotes break the file (SourceRow.unreadable), read from the whole file: the
 * run does not start while there are some, unless the person chose to skip them.
 */
export async function unreadableRows(source: ImportSource, limit = 3, signal?: AbortSignal): Promise<SourceRow[]> {
  const found: SourceRow[] = [];
  if (source.format === 'json') return found;
  for await (const row of source.rows(signal)) {
    if (!row.unreadable) continue;
    found.push(row);
    if (found.length >= limit) break;
  }
  return found;
}

/** papaparse's own chunk parser (what its streamers drive), exported but not in its types. */
interface ChunkParser {
  parse(
    input: string,
    baseIndex: number,
    ignoreLastRow: boolean,
  ): { data: string[][]; errors: PapaModule.ParseError[]; meta: { cursor: number } };
}

/** Records parsed from a part of the file, and papaparse's quote errors, by index into `records`. */
interface RecordChunk {
  records: string[][];
  errors: readonly PapaModule.ParseError[];
}

const NO_ERRORS: readonly PapaModule.ParseError[] = [];
/** Text a record may span before it is parsed again only once twice as much has come (see csvRecords). */
const LONG_RECORD_CHARS = 64 * 1024;

/**
 * The file's records, parsed chunk by chunk as papaparse's streamers do (the unfinished last line kept for
 * the next chunk), but without its Node stream: that stream hands each record through a Duplex and an
 * async iterator, which cost more than parsing it (the import bench reads the file again on each resume).
 * The text kept for the next chunk is parsed again with it; when it is long (a quote never closed keeps
 * the rest of the file in one record), it is parsed again only once it has doubled, so that the file is
 * read in time linear in its size however long a record is.
 */
async function* csvRecords(path: string, delimiter: string, newline: string, signal?: AbortSignal): AsyncGenerator<RecordChunk> {
  const Papa = await loadPapa();
  // The line breaks the sample showed: guessed from the first chunk instead (cut at its last LF), a file
  // of mixed line ends was broken into other lines than the whole text's.
  const parser = new (Papa as unknown as { ParserHandle: new (config: PapaModule.ParseConfig) => ChunkParser }).ParserHandle({
    delimiter,
    newline: newline as PapaModule.ParseConfig['newline'],
    skipEmptyLines: false,
  });
  let partial = '';
  let base = 0;
  /** Where in `partial` its last line break ends (0: none). */
  let cut = 0;
  let waitFor = 0;
  for await (const chunk of text(path, signal)) {
    const lineEnd = chunk.lastIndexOf('\n');
    if (lineEnd >= 0) cut = partial.length + lineEnd + 1;
    partial += chunk;
    if (partial.length < waitFor) continue;
    // Up to the last line break only (the rest waits, as an unfinished line does): where 64 KiB end is
    // chance, and a chunk cut just after a closing quote or inside a line took paths of the parser that
    // no chunk had taken before, so V8 dropped its optimized code and compiled it again in most reads.
    // A file whose lines end in CR alone has no LF: its chunks are parsed whole, as before.
    const results = parser.parse(cut > 0 ? partial.substring(0, cut) : partial, base, true);
    const consumed = results.meta.cursor - base;
    partial = partial.substring(consumed);
    base = results.meta.cursor;
    cut = Math.max(0, cut - consumed);
    waitFor = partial.length > LONG_RECORD_CHARS ? 2 * partial.length : 0;
    // An error on the unfinished record (its index is past the records) comes again when it is parsed whole.
    const errors =
      results.errors.length === 0
        ? NO_ERRORS
        : results.errors.filter((error) => error.row !== undefined && error.row < results.data.length);
    yield { records: results.data, errors };
  }
  // An empty rest (a file ending in a line break) has no record: not parsed, which took a path of its own too.
  if (partial !== '') {
    const results = parser.parse(partial, base, false);
    yield { records: results.data, errors: results.errors.length === 0 ? NO_ERRORS : results.errors };
  }
}

/**
 * The records as rows, numbered (the header is row 1). An iterator rather than an async generator: V8
 * compiled the generator again at the start of every read of a file (its first steps ran before it had
 * feedback, --trace-deopt: Insufficient type feedback for call), and each of its rows cost two turns of
 * the microtask queue; next() hands out a parsed chunk's rows one by one and awaits only the next chunk.
 */
class CsvRows implements AsyncIterableIterator<SourceRow> {
  private records: readonly string[][] = [];
  /** The quote errors of `records`, by index (papaparse reports few: a Map only when there are some). */
  private errors: ReadonlyMap<number, PapaModule.ParseError> | undefined;
  private position = 0;
  private row = 0;
  /** The next chunk being read: true when there was none. */
  private reading: Promise<boolean> | undefined;

  constructor(
    private readonly chunks: AsyncGenerator<RecordChunk>,
    private readonly columns: readonly string[],
  ) {}

  async next(): Promise<IteratorResult<SourceRow, undefined>> {
    for (;;) {
      while (this.position < this.records.length) {
        const cells = this.records[this.position];
        const error = this.errors?.get(this.position);
        this.position += 1;
        this.row += 1;
        if (this.row === 1) continue; // the header
        const source = error ? brokenRow(this.row, cells, this.columns, error) : csvRow(this.row, cells, this.columns);
        if (source) return { value: source, done: false };
      }
      // Calls that overlap (for await never makes them) wait for the same chunk, then take its rows in turn.
      // At the end each finds the chunks done (a finished generator says so again): no flag of our own,
      // whose one change at the end of the first file made V8 drop the code that had inlined this.
      this.reading ??= this.chunks.next().then(
        (chunk) => {
          this.reading = undefined;
          if (chunk.done) return true;
          this.records = chunk.value.records;
          this.errors = chunk.value.errors.length === 0 ? undefined : new Map(chunk.value.errors.map((error) => [error.row ?? -1, error]));
          this.position = 0;
          return false;
        },
        (error: unknown) => {
          this.reading = undefined;
          throw error;
        },
      );
      if (await this.reading) return { value: undefined, done: true };
    }
  }

  /** Leaving a loop over the rows early closes the file. */
  async return(): Promise<IteratorResult<SourceRow, undefined>> {
    this.records = [];
    await this.chunks.return(undefined);
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/**
 * Record `cells` as a row, or undefined for a blank line or one of only delimiters (",,," from a
 * spreadsheet: no record, but a row number). A small function of its own, which stays compiled whatever
 * happens to the code that reads the chunks.
 */
function csvRow(row: number, cells: readonly string[], columns: readonly string[]): SourceRow | undefined {
  if (isBlank(cells)) return undefined;
  const values = valuesOf(cells, columns);
  if (cells.length <= columns.length) return { row, values };
  const extra = cells.slice(columns.length);
  return extra.some((cell) => cell !== '')
    ? {
        row,
        values,
        extra,
        problem: `has ${cells.length} cells, the header names ${columns.length}: check the quotes and delimiters of this row`,
      }
    : { row, values };
}

/**
 * A record papaparse reported a quote error for: refused, with where it went wrong. A quote never closed
 * takes the rest of the file into its cell (so papaparse reads it, and so the row is shown: one row where
 * the file has thousands is what the person must see); text after a closing quote is kept in the cell.
 */
function brokenRow(row: number, cells: readonly string[], columns: readonly string[], error: PapaModule.ParseError): SourceRow {
  const values = valuesOf(cells, columns);
  const extra = cells.length > columns.length ? { extra: cells.slice(columns.length) } : {};
  const last = cells.length - 1;
  const column = columns[last] ?? `Column ${last + 1}`;
  if (error.code === 'MissingQuotes') {
    const lines = countLines(cells[last] ?? '');
    const swallowed =
      lines === 0
        ? 'its cell runs to the end of the file'
        : `the rest of the file (${lines.toLocaleString('en-US')} more lines) was read into that one cell`;
    return {
      row,
      values,
      ...extra,
      unreadable: true,
      problem: `has a quote in "${column}" that is never closed: ${swallowed}. Close the quote (a quote inside a cell is written "") and import the file again`,
    };
  }
  return {
    row,
    values,
    ...extra,
    unreadable: true,
    problem:
      'has a quoted cell with text after its closing quote, so where its cells end is not certain: check the quotes of this row (a quote inside a cell is written "")',
  };
}

/** The lines of `text` after its first (a line break that ends the file begins none). */
function countLines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0 && at < text.length - 1; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}

/** The record's cells by column name (a column named __proto__ is set as the others are: see setCell). */
function valuesOf(cells: readonly string[], columns: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (let index = 0; index < columns.length; index += 1) {
    const column = columns[index];
    if (column === '__proto__') setCell(values, column, cells[index] ?? '');
    else values[column] = cells[index] ?? '';
  }
  return values;
}

function isBlank(cells: readonly string[]): boolean {
  for (const cell of cells) if (cell.trim() !== '') return false;
  return true;
}

/** A JSON value as a cell: strings as they are, numbers and booleans as text, lists joined by commas. */
function cellOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'number')) return value.join(',');
  return JSON.stringify(value);
}

async function* jsonElements(path: string, signal?: AbortSignal): AsyncGenerator<{ index: number; value: unknown }> {
  const { JSONParser } = await import('@streamparser/json');
  const chunks = text(path, signal);
  const first = await firstMeaningful(chunks);
  if (first === undefined) return;
  const opening = first.trimStart()[0];
  if (opening !== '[' && opening !== '{')
    throw new SourceFormatError(`${path} is not an import file: JSON must be an array of records, or an object with "data": [...].`);
  // keepStack false: elements already handed out are not kept in their array, so memory stays flat.
  const parser = new JSONParser({ paths: [opening === '{' ? '$.data.*' : '$.*'], keepStack: false });
  const ready: unknown[] = [];
  parser.onValue = ({ value }) => void ready.push(value);
  let index = 0;
  try {
    for (let chunk: string | undefined = first; chunk !== undefined; chunk = (await chunks.next()).value ?? undefined) {
      if (parser.isEnded) {
        if (chunk.trim() !== '') throw new Error('there is more after the end of the first JSON value');
        continue;
      }
      parser.write(chunk);
      for (const value of ready.splice(0)) yield { index: index++, value };
    }
    if (!parser.isEnded) parser.end();
    for (const value of ready.splice(0)) yield { index: index++, value };
  } catch (error) {
    if (error instanceof SourceFormatError || (error instanceof Error && error.name === 'AbortError')) throw error;
    throw new SourceFormatError(`${path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}.`);
  } finally {
    await chunks.return(undefined);
  }
}

async function firstMeaningful(chunks: AsyncGenerator<string>): Promise<string | undefined> {
  let seen = '';
  for await (const chunk of chunks) {
    seen += chunk;
    if (seen.trim() !== '') return seen;
  }
  return undefined;
}

/**
 * The records as rows. Every source column is a key of each row's values ("" where the record lacks it):
 * a missing "constructor" would otherwise be read from the object's prototype (a function, not text).
 */
async function* jsonRows(path: string, columns: readonly string[], signal?: AbortSignal): AsyncGenerator<SourceRow> {
  for await (const { index, value } of jsonElements(path, signal)) {
    const row = index + 1;
    const values: Record<string, string> = {};
    for (const column of columns) setCell(values, column, '');
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      yield { row, values, problem: 'is not an object of column names and values' };
      continue;
    }
    let problem: string | undefined;
    for (const [key, cell] of Object.entries(value)) {
      try {
        setCell(values, key, cellOf(cell));
      } catch (error) {
        // JSON.stringify of a value nested thousands deep overflows the stack: that row is refused, not the run.
        if (!(error instanceof RangeError)) throw error;
        problem ??= `has a value in "${key}" nested too deeply to write as text`;
      }
    }
    yield problem ? { row, values, problem } : { row, values };
  }
}

/** Sets a cell; a column named __proto__ is a key like any other (assigned, it would set the prototype). */
function setCell(values: Record<string, string>, key: string, value: string): void {
  if (key === '__proto__') Object.defineProperty(values, key, { value, enumerable: true, writable: true, configurable: true });
  else values[key] = value;
}

async function jsonColumns(path: string): Promise<string[]> {
  const columns = new Set<string>();
  const controller = new AbortController();
  for await (const { index, value } of jsonElements(path, controller.signal)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) for (const key of Object.keys(value)) columns.add(key);
    if (index + 1 >= JSON_COLUMN_SAMPLE) break;
  }
  return [...columns];
}
