// What the import mapping panel shows, computed from the core without vscode: the dropdown entries of each
// source column, the mapping as rows, a preview of the first rows as they will be sent, the settings of a
// run from the panel's options. The host panel (src/webviews/importPanel.ts) only moves these around.
import { columnKind } from '../api/columnKinds';
import type { Column } from '../api/types';
import { choiceText } from '../grid/values';
import {
  choiceOptions,
  type ImportColumnRow,
  type ImportOptions,
  type ImportPreview,
  type ImportProblemRow,
  type ImportTargetOption,
  type ImportTargetValue,
} from '../shared/protocol';
import { convertValue, detectDecimalSeparator } from './convert';
import { fieldSources, mappingProblems, readOnlyReason, type ColumnTarget, type ImportMapping } from './mapping';
import type { ImportSettings, RowProblem } from './plan';
import type { ImportSource, SourceRow } from './sourceFile';
import { timeZoneProblem } from './zonedTime';

/** Rows the preview shows. */
export const PREVIEW_ROWS = 5;
/** Rows read to guess the decimal separator. */
const SAMPLE_ROWS = 200;

export function targetValue(target: ColumnTarget): ImportTargetValue {
  if (target.kind === 'field') return `field:${target.field}`;
  return target.kind === 'recordId' ? 'recordId' : 'ignore';
}

export function targetOf(value: ImportTargetValue): ColumnTarget {
  if (value === 'recordId') return { kind: 'recordId' };
  if (value === 'ignore') return { kind: 'ignored', reason: 'set to "Ignore" in the mapping' };
  return { kind: 'field', field: value.slice('field:'.length) };
}

/** Every entry of a source column's dropdown: nothing, the record id, each app column (read-only ones with why). */
export function targetOptions(columns: readonly Column[]): ImportTargetOption[] {
  return [
    { value: 'ignore', label: 'Ignore' },
    { value: 'recordId', label: 'Record id (upsert)' },
    ...columns.map((column): ImportTargetOption => {
      const readOnly = readOnlyReason(column);
      const label = `${column.field_name} (${column.field_id_in_data}, ${columnKind(column)})`;
      return readOnly
        ? { value: `field:${column.field_id_in_data}`, label, readOnly }
        : { value: `field:${column.field_id_in_data}`, label };
    }),
  ];
}

/** The unique columns the API can set: the keys an import can match on. */
export function keyOptions(columns: readonly Column[]): Array<{ value: string; label: string }> {
  return columns
    .filter((column) => column.unique_value === '1' && !readOnlyReason(column))
    .map((column) => ({ value: column.field_id_in_data, label: `${column.field_name} (${column.field_id_in_data})` }));
}

export function mappingRows(mapping: ImportMapping): ImportColumnRow[] {
  return mapping.columns.map(({ source, target }) =>
    target.kind === 'ignored'
      ? { source, target: targetValue(target), ignoredWhy: target.reason }
      : { source, target: targetValue(target) },
  );
}

/** The first rows of the source (read once when the panel opens; the preview is recomputed from them). */
export async function sampleRows(source: ImportSource, count = SAMPLE_ROWS): Promise<SourceRow[]> {
  const rows: SourceRow[] = [];
  const controller = new AbortController();
  for await (const row of source.rows(controller.signal)) {
    rows.push(row);
    if (rows.length >= count) break;
  }
  controller.abort();
  return rows;
}

/**
 * Sensible first options: create, published, the sample's decimal separator, the machine's time zone; the
 * first unique column the file feeds as the key (a lost create is then looked for, never sent twice, and
 * two rows with one key are caught), and the first view known, through which it is looked for.
 */
export function defaultOptions(
  sample: readonly SourceRow[],
  mapping: ImportMapping,
  columns: readonly Column[],
  timeZone: string,
  firstView?: string,
): ImportOptions {
  const numeric = new Set(
    columns.filter((column) => ['number', 'currency'].includes(columnKind(column))).map((column) => column.field_id_in_data),
  );
  const fed = fieldSources(mapping);
  const values: string[] = [];
  for (const [field, source] of fed) if (numeric.has(field)) for (const row of sample) values.push(row.values[source] ?? '');
  const key = columns.find((column) => column.unique_value === '1' && fed.has(column.field_id_in_data))?.field_id_in_data;
  return {
    mode: 'create',
    draft: 'published',
    decimalSeparator: detectDecimalSeparator(values),
    timeZone,
    ...(key ? { matchField: key } : {}),
    ...(firstView ? { viewId: firstView } : {}),
  };
}

export function importSettings(appId: string, mapping: ImportMapping, options: ImportOptions): ImportSettings {
  return {
    appId,
    mode: options.mode,
    mapping,
    ...(options.matchField ? { matchField: options.matchField } : {}),
    draft: options.draft,
    conversion: { decimalSeparator: options.decimalSeparator, timeZone: options.timeZone },
  };
}

/** A choice as the file named it, with the id that is sent ("High (3)"): ids alone mean nothing to the reader. */
function choiceShown(column: Column, ids: string): string {
  const names = choiceText(choiceOptions(column), ids);
  return names === ids ? ids : `${names} (${ids})`;
}

/** The first rows as they will be sent: each fed column's converted value, or why it cannot be sent. */
export function previewOf(
  sample: readonly SourceRow[],
  mapping: ImportMapping,
  columns: readonly Column[],
  options: ImportOptions,
): ImportPreview {
  const fed = [...fieldSources(mapping)].flatMap(([field, source]) => {
    const column = columns.find((candidate) => candidate.field_id_in_data === field);
    return column ? [{ column, source }] : [];
  });
  // While the zone typed is unknown (optionProblems says so), the preview reads times in UTC, not throw.
  const timeZone = timeZoneProblem(options.timeZone) === undefined ? options.timeZone : 'UTC';
  const conversion = { decimalSeparator: options.decimalSeparator, timeZone };
  return {
    columns: fed.map(({ column }) => column.field_name),
    rows: sample.slice(0, PREVIEW_ROWS).map((row) => ({
      row: row.row,
      ...(row.problem ? { problem: `The row ${row.problem}` } : {}),
      cells: fed.map(({ column, source }) => {
        const raw = row.values[source] ?? '';
        if (raw.trim() === '') return { value: '' }; // left out, as the run leaves it (plan.ts)
        const converted = convertValue(column, raw, conversion);
        if (converted.problem !== undefined) return { value: raw, problem: converted.problem };
        return { value: columnKind(column) === 'choice' ? choiceShown(column, converted.value) : converted.value };
      }),
    })),
  };
}

/**
 * What the run cannot promise with these options. A create whose answer is lost (a dropped connection, a
 * 500, 502 or 504, a time-out) is looked for by its key through the view before it is sent again; without
 * a key column or a view it cannot be, so it is not sent again and is reported uncertain.
 */
export function optionWarnings(options: ImportOptions, uncertainFile: string): string[] {
  const missing = [
    options.matchField ? undefined : 'a key (a unique column the file feeds)',
    options.viewId ? undefined : 'a view of existing records',
  ].filter((part) => part !== undefined);
  if (missing.length === 0) return [];
  return [
    `Without ${missing.join(' and ')}, a record whose creation the portal confirms but whose answer is lost on the way (a dropped connection, a 502 or 504) cannot be looked for: it is not sent again (no duplicate), and its row is reported uncertain and written to ${uncertainFile} for you to check in the app.`,
  ];
}

/** What stops the run before a row is read. */
export function optionProblems(mapping: ImportMapping, columns: readonly Column[], options: ImportOptions): string[] {
  // An upsert may only update (by record id, say): its rows that would create are refused one by one,
  // naming the required columns they lack, and the dry run lists them.
  const problems = mappingProblems(mapping, columns, { creates: options.mode === 'create', matchField: options.matchField });
  const zone = timeZoneProblem(options.timeZone);
  if (zone !== undefined) problems.push(`${zone[0].toUpperCase()}${zone.slice(1)}.`);
  if (options.mode === 'upsert' && !options.viewId) problems.push('Upsert reads the existing records through a view: choose the view.');
  if (options.mode === 'upsert' && !options.matchField && !mapping.columns.some((entry) => entry.target.kind === 'recordId')) {
    problems.push('Upsert needs a key: map a column to "Record id", or choose a unique column to match on.');
  }
  return problems;
}

export function problemRow(problem: RowProblem): ImportProblemRow {
  return { row: problem.row, column: problem.column, value: problem.value, expected: problem.expected, message: problem.message };
}
