// What each source row becomes: a record to create, an update of an existing record (only the fields
// that change), a row left as it is, or a row that cannot be sent and why. The dry run is this plan with
// nothing sent; the run executes it. Existing records (upsert) come from a view the person picks, indexed
// once by record id and by the match column.
import type { ViewRow } from '../api/client';
import { checkRecord, missingRequired } from '../api/formats';
import type { Column, RecordData } from '../api/types';
import { convertValue, converterFor, expectedFormat, type ConversionOptions, type Converter } from './convert';
import { describeTarget, fieldSources, recordIdSource, type ImportMapping } from './mapping';
import type { SourceRow } from './sourceFile';

export type ImportMode = 'create' | 'upsert';

export interface ImportSettings {
  appId: string;
  mode: ImportMode;
  mapping: ImportMapping;
  /** Upsert: the field (a unique column, as a rule) whose value finds the existing record. */
  matchField?: string;
  /** Apps with Draft mode: 'draft' creates drafts, 'published' also publishes the drafts it updates. */
  draft?: 'draft' | 'published';
  conversion?: ConversionOptions;
}

export interface RowProblem {
  row: number;
  /** The source column, or the app column when no source column is at fault (a required one left out). */
  column: string;
  value: string;
  message: string;
  /** The expected format, for the dry-run report. */
  expected: string;
}

/** How a lost create is looked for: the record whose `field` equals `value`. */
export interface CreateLookup {
  field: string;
  value: string;
}

export type Operation =
  | { kind: 'create'; row: number; data: RecordData; lookup?: CreateLookup }
  /** `base`: the record's values as read (the view's row), for the version Record History keeps. */
  | { kind: 'update'; row: number; recordId: string; changes: RecordData; publish: boolean; base?: Readonly<RecordData> }
  | { kind: 'delete'; row: number; recordId: string }
  | { kind: 'unchanged'; row: number; recordId: string }
  | { kind: 'invalid'; row: number; problems: RowProblem[] };

/** Existing records of the app, by record id and by the match field's value. */
export interface ExistingRecords {
  byId: Map<string, ViewRow>;
  byKey: Map<string, ViewRow[]>;
  matchField: string | undefined;
}

export function indexExisting(rows: readonly ViewRow[], matchField?: string): ExistingRecords {
  const byId = new Map<string, ViewRow>();
  const byKey = new Map<string, ViewRow[]>();
  for (const row of rows) {
    if (row.id !== undefined) byId.set(row.id, row);
    const key = matchField === undefined ? undefined : row.values[matchField];
    if (key !== undefined && key !== '') byKey.set(key, [...(byKey.get(key) ?? []), row]);
  }
  return { byId, byKey, matchField };
}

/** Plans rows one at a time; remembers the keys it planned to create, so a file cannot create one twice. */
export class RowPlanner {
  private readonly sources: Map<string, string>;
  private readonly idSource: string | undefined;
  private readonly fieldsBySource = new Map<string, Column>();
  /** fieldsBySource as the rows are planned: in the same order, each with its column's converter made once. */
  private readonly fed: ReadonlyArray<{ readonly source: string; readonly field: string; readonly convert: Converter }>;
  private readonly plannedKeys = new Map<string, number>();
  /** The fields a create must fill. */
  private readonly required: readonly string[];

  constructor(
    private readonly settings: ImportSettings,
    private readonly columns: readonly Column[],
    private readonly existing: ExistingRecords | undefined,
  ) {
    this.sources = fieldSources(settings.mapping);
    this.idSource = settings.mode === 'upsert' ? recordIdSource(settings.mapping) : undefined;
    this.required = missingRequired(columns, {});
    for (const [field, source] of this.sources) {
      const column = columns.find((candidate) => candidate.field_id_in_data === field);
      if (column) this.fieldsBySource.set(source, column);
    }
    this.fed = [...this.fieldsBySource].map(([source, column]) => ({
      source,
      field: column.field_id_in_data,
      convert: converterFor(column, settings.conversion),
    }));
  }

  plan(source: SourceRow): Operation {
    const { row } = source;
    if (source.problem)
      return {
        kind: 'invalid',
        row,
        problems: [{ row, column: '(the row)', value: '', message: `the row ${source.problem}`, expected: '' }],
      };
    const problems: RowProblem[] = [];
    const data: RecordData = {};
    const { values } = source;
    let filled = 0;
    for (let index = 0; index < this.fed.length; index += 1) {
      const { source: sourceColumn, field, convert } = this.fed[index];
      const raw = values[sourceColumn] ?? '';
      // An empty cell, or one of only spaces, is left out: sent, it would be "" and clear the field on update.
      if (raw.trim() === '') continue;
      const converted = convert(raw);
      if (converted.problem !== undefined)
        problems.push({ row, column: sourceColumn, value: raw, message: converted.problem, expected: converted.expected });
      else {
        data[field] = converted.value;
        filled += 1;
      }
    }
    if (problems.length > 0) return { kind: 'invalid', row, problems };
    const existing = this.findExisting(source, data, problems);
    if (problems.length > 0) return { kind: 'invalid', row, problems };
    return existing ? this.update(row, existing, data) : this.create(row, data, filled);
  }

  /**
   * A row finished by an earlier run of the same job (same file, same settings): nothing is sent for it,
   * but a record it created keeps its key, so that a later row with the same key is still refused. Only
   * the key is converted: the row passed every check when it was planned then.
   */
  finished(source: SourceRow, created: boolean): void {
    const field = this.settings.matchField;
    const sourceColumn = field === undefined ? undefined : this.sources.get(field);
    const column = sourceColumn === undefined ? undefined : this.fieldsBySource.get(sourceColumn);
    if (!created || field === undefined || sourceColumn === undefined || !column) return;
    const raw = source.values[sourceColumn] ?? '';
    if (raw.trim() === '') return;
    // The column's converter made for plan(): a resumed run passes here once per row finished before.
    const convert = this.fed.find((fed) => fed.source === sourceColumn)?.convert;
    const key = (convert ? convert(raw) : convertValue(column, raw, this.settings.conversion)).value;
    if (key && !this.plannedKeys.has(key)) this.plannedKeys.set(key, source.row);
  }

  private findExisting(source: SourceRow, data: RecordData, problems: RowProblem[]): ViewRow | undefined {
    if (this.settings.mode !== 'upsert' || !this.existing) return undefined;
    const problem = (column: string, value: string, message: string, expected: string): undefined => {
      problems.push({ row: source.row, column, value, message, expected });
      return undefined;
    };
    const id = this.idSource === undefined ? '' : (source.values[this.idSource] ?? '').trim();
    if (id !== '') {
      // An id names one record: a row whose record is not in the view is refused, never created anew.
      return (
        this.existing.byId.get(id) ??
        problem(
          this.idSource as string,
          id,
          'no record with this id in the view read for matching (is it in trash, or hidden by the view?)',
          'the id of an existing record',
        )
      );
    }
    const field = this.settings.matchField;
    const key = field === undefined ? undefined : data[field];
    if (field === undefined || key === undefined || key === '') return undefined;
    const matches = this.existing.byKey.get(key) ?? [];
    if (matches.length > 1) {
      const ids = matches.map((match) => match.id).join(', ');
      return problem(
        this.sources.get(field) ?? field,
        key,
        `${matches.length} records have this value (${ids}): the match column must identify one record`,
        'a value held by at most one record',
      );
    }
    return matches[0];
  }

  /** `filled`: how many fields `data` has (each mapped field is set once), so as not to count its keys again. */
  private create(row: number, data: RecordData, filled: number): Operation {
    // Else a row with nothing in its mapped columns creates a blank record wherever no column is required.
    if (filled === 0)
      return {
        kind: 'invalid',
        row,
        problems: [
          {
            row,
            column: '(the row)',
            value: '',
            message: 'the row has no values for the mapped columns',
            expected: 'a value in at least one mapped column',
          },
        ],
      };
    // Every value passed its column's check in plan() (convertValue): what is left to check is a required
    // field left empty, and only a row that leaves one is checked whole, for checkRecord's messages.
    if (this.leavesRequired(data)) {
      const problems = checkRecord(this.columns, data, { creating: true }).map((found) =>
        this.problemOf(row, found.field, data, found.message),
      );
      if (problems.length > 0) return { kind: 'invalid', row, problems };
    }
    let lookup: CreateLookup | undefined;
    const field = this.settings.matchField;
    if (field !== undefined && data[field]) {
      const earlier = this.plannedKeys.get(data[field]);
      if (earlier !== undefined) {
        return {
          kind: 'invalid',
          row,
          problems: [this.problemOf(row, field, data, `row ${earlier} has the same value and creates that record: merge the two rows`)],
        };
      }
      this.plannedKeys.set(data[field], row);
      lookup = { field, value: data[field] };
    }
    return { kind: 'create', row, data, lookup };
  }

  private leavesRequired(data: RecordData): boolean {
    for (const field of this.required) if ((data[field] ?? '') === '') return true;
    return false;
  }

  private update(row: number, existing: ViewRow, data: RecordData): Operation {
    const recordId = existing.id as string;
    const changes: RecordData = {};
    // A field the view does not show is sent: the view cannot say whether it changes.
    for (const [field, value] of Object.entries(data)) if (existing.values[field] !== value) changes[field] = value;
    const publish = this.settings.draft === 'published' && existing.draft === true;
    const problems = checkRecord(this.columns, changes, { creating: false }).map((found) =>
      this.problemOf(row, found.field, changes, found.message),
    );
    if (problems.length > 0) return { kind: 'invalid', row, problems };
    if (Object.keys(changes).length === 0 && !publish) return { kind: 'unchanged', row, recordId };
    return { kind: 'update', row, recordId, changes, publish, base: existing.values };
  }

  private problemOf(row: number, field: string, data: RecordData, message: string): RowProblem {
    const column = this.columns.find((candidate) => candidate.field_id_in_data === field);
    const source = this.sources.get(field);
    return {
      row,
      column: source ?? describeTarget({ kind: 'field', field }, this.columns),
      value: data[field] ?? '',
      message,
      expected: column ? describeExpected(column, message, this.settings.conversion) : '',
    };
  }
}

/** The Expected text of a problem checkRecord found in `column`. */
export function describeExpected(column: Column, message: string, conversion?: ConversionOptions): string {
  return message.startsWith('required') ? 'a value (the column is required)' : expectedFormat(column, conversion);
}

export interface DryRunResult {
  rows: number;
  creates: number;
  updates: number;
  unchanged: number;
  /** Every problem of every row that would fail, in row order. */
  problems: RowProblem[];
  failingRows: number;
}

/**
 * The operations of `rows` for the runner, planned as it asks for them; a row `skip` takes (one an
 * earlier run finished) is not planned. An iterator rather than an async generator, as the rows are
 * (sourceFile's CsvRows): V8 compiled such a generator again in every run, and each row cost it turns of
 * the microtask queue. Calls of next() that overlap are served in turn, as a generator's would be.
 */
export class PlannedRows implements AsyncIterableIterator<Operation> {
  /** Calls of next() not finished yet, and the last one's answer: an overlapping call waits for it. */
  private calls = 0;
  private last: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly rows: AsyncIterator<SourceRow>,
    private readonly planner: RowPlanner,
    private readonly skip: (row: SourceRow) => boolean,
  ) {}

  next(): Promise<IteratorResult<Operation, undefined>> {
    this.calls += 1;
    const next =
      this.calls > 1
        ? this.last.then(
            () => this.step(),
            () => this.step(),
          )
        : this.step();
    this.last = next;
    return next;
  }

  // A method, not a closure per instance: each run's would be another call target to V8, which then
  // dropped the compiled next() at the start of every run (--trace-deopt: wrong call target).
  private async step(): Promise<IteratorResult<Operation, undefined>> {
    try {
      for (;;) {
        const next = await this.rows.next();
        if (next.done) return { value: undefined, done: true };
        if (!this.skip(next.value)) return { value: this.planner.plan(next.value), done: false };
      }
    } finally {
      this.calls -= 1;
    }
  }

  /** Stopping early (a cancelled run) closes the source. */
  async return(): Promise<IteratorResult<Operation, undefined>> {
    await this.rows.return?.();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/** Plans every row and sends nothing. */
export async function dryRun(rows: AsyncIterable<SourceRow>, planner: RowPlanner, signal?: AbortSignal): Promise<DryRunResult> {
  const result: DryRunResult = { rows: 0, creates: 0, updates: 0, unchanged: 0, problems: [], failingRows: 0 };
  for await (const row of rows) {
    signal?.throwIfAborted();
    const operation = planner.plan(row);
    result.rows += 1;
    if (operation.kind === 'create') result.creates += 1;
    else if (operation.kind === 'update') result.updates += 1;
    else if (operation.kind === 'unchanged') result.unchanged += 1;
    else if (operation.kind === 'invalid') {
      result.failingRows += 1;
      result.problems.push(...operation.problems);
    }
  }
  return result;
}
