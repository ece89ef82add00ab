// Which app column each source column feeds. Proposed by name (case, spaces and punctuation ignored) or by
// field_id_in_data, then edited by the person in the mapping panel: a plain data structure, changed only
// through setTarget() so that it stays consistent (one source per field, one record id column, nothing
// sent to a column the API cannot set).
import { checkValue } from '../api/formats';
import { isWritable } from '../api/columnKinds';
import type { Column } from '../api/types';

/** What a source column feeds. */
export type ColumnTarget =
  /** The value of an app column, by its field_id_in_data. */
  | { kind: 'field'; field: string }
  /** The id of the record to update (upsert). */
  | { kind: 'recordId' }
  /** Nothing; `reason` says why, for the panel. */
  | { kind: 'ignored'; reason: string };

export interface ColumnMapping {
  /** The source column's name, as sourceFile's columns give it. */
  source: string;
  target: ColumnTarget;
}

export interface ImportMapping {
  columns: ColumnMapping[];
}

const NOT_MATCHED = 'no column of the app has this name or field_id_in_data';
const RECORD_ID_NAMES = new Set(['id', 'recordid', 'recordno']);

/** "Order date", "order_date" and " ORDER-DATE " compare equal. */
export function normalName(name: string): string {
  return name.toLowerCase().replace(/[\s_\-.]+/g, '');
}

/** Why the API cannot set `column`, or undefined when it can: the formats table's own sentence. */
export function readOnlyReason(column: Column): string | undefined {
  return isWritable(column) ? undefined : checkValue(column, '');
}

function matchColumn(source: string, columns: readonly Column[]): Column | undefined {
  const byId = columns.find((column) => column.field_id_in_data.toLowerCase() === source.trim().toLowerCase());
  if (byId) return byId;
  const name = normalName(source);
  return columns.find((column) => normalName(column.field_name) === name);
}

/** The first proposal: by field_id_in_data, then by name; a source column named "id" is the record id. */
export function proposeMapping(sourceColumns: readonly string[], columns: readonly Column[]): ImportMapping {
  let mapping: ImportMapping = { columns: sourceColumns.map((source) => ({ source, target: { kind: 'ignored', reason: NOT_MATCHED } })) };
  for (const source of sourceColumns) {
    const column = matchColumn(source, columns);
    if (column) mapping = setTarget(mapping, source, { kind: 'field', field: column.field_id_in_data }, columns, { keepEarlier: true });
    else if (RECORD_ID_NAMES.has(normalName(source)))
      mapping = setTarget(mapping, source, { kind: 'recordId' }, columns, { keepEarlier: true });
  }
  return mapping;
}

/**
 * `mapping` with `source` feeding `target`. A field the API cannot set becomes ignored with the reason;
 * another source that fed the same field (or the record id) is ignored instead, unless `keepEarlier`, when
 * the earlier one wins (the proposal: the first matching column keeps its field).
 */
export function setTarget(
  mapping: ImportMapping,
  source: string,
  target: ColumnTarget,
  columns: readonly Column[],
  options: { keepEarlier?: boolean } = {},
): ImportMapping {
  let wanted = target;
  if (target.kind === 'field') {
    const column = columns.find((candidate) => candidate.field_id_in_data === target.field);
    if (!column) wanted = { kind: 'ignored', reason: `the app has no column ${target.field}` };
    else {
      const readOnly = readOnlyReason(column);
      if (readOnly) wanted = { kind: 'ignored', reason: `${column.field_name} (${column.field_id_in_data}) is ${readOnly}` };
    }
  }
  const same = (other: ColumnTarget): boolean =>
    (wanted.kind === 'recordId' && other.kind === 'recordId') ||
    (wanted.kind === 'field' && other.kind === 'field' && other.field === wanted.field);
  const holder = mapping.columns.find((entry) => entry.source !== source && same(entry.target));
  if (holder && options.keepEarlier) {
    wanted = { kind: 'ignored', reason: `${holder.source} already feeds ${describeTarget(holder.target, columns)}` };
  }
  return {
    columns: mapping.columns.map((entry) => {
      if (entry.source === source) return { source, target: wanted };
      if (holder && !options.keepEarlier && entry === holder) {
        return { source: entry.source, target: { kind: 'ignored', reason: `${source} feeds ${describeTarget(wanted, columns)} instead` } };
      }
      return entry;
    }),
  };
}

export function describeTarget(target: ColumnTarget, columns: readonly Column[]): string {
  if (target.kind === 'recordId') return 'the record id';
  if (target.kind === 'ignored') return 'nothing';
  const column = columns.find((candidate) => candidate.field_id_in_data === target.field);
  return column ? `${column.field_name} (${column.field_id_in_data})` : target.field;
}

/** The source column feeding each field, by field_id_in_data. */
export function fieldSources(mapping: ImportMapping): Map<string, string> {
  const sources = new Map<string, string>();
  for (const { source, target } of mapping.columns) if (target.kind === 'field') sources.set(target.field, source);
  return sources;
}

export function recordIdSource(mapping: ImportMapping): string | undefined {
  return mapping.columns.find((entry) => entry.target.kind === 'recordId')?.source;
}

/**
 * What the mapping cannot do, before any row is read: required columns nothing feeds (every created record
 * would be refused), no column at all, an upsert without a way to find existing records.
 */
export function mappingProblems(
  mapping: ImportMapping,
  columns: readonly Column[],
  options: { creates: boolean; matchField?: string },
): string[] {
  const fed = fieldSources(mapping);
  const problems: string[] = [];
  if (fed.size === 0) problems.push('No source column feeds a column of the app.');
  if (options.creates) {
    for (const column of columns) {
      if (column.required === '1' && isWritable(column) && !fed.has(column.field_id_in_data)) {
        problems.push(
          `${column.field_name} (${column.field_id_in_data}) is required and no source column feeds it: every new record would be refused.`,
        );
      }
    }
  }
  if (options.matchField !== undefined && !fed.has(options.matchField)) {
    problems.push(
      `Records are matched on ${describeTarget({ kind: 'field', field: options.matchField }, columns)}, which no source column feeds.`,
    );
  }
  return problems;
}
