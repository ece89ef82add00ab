// The problems of a record document that the extension reports itself, beside the JSON language's checks
// against the app's schema (src/schema): values the formats table refuses though their shape is right
// (31-02-2026, HTML that is not well formed, a choice named twice), read-only fields changed from the copy
// read (or given in a new record), and required fields left out of a new record. Where the schema already
// complains about a field (unknown key, not a string, wrong shape), nothing is added: one mistake, one
// problem. Pure (no vscode import).
import { isWritable } from '../api/columnKinds';
import { checkValue, missingRequired } from '../api/formats';
import type { Column, RecordData } from '../api/types';
import { matchesFieldPattern } from '../schema/fieldPatterns';
import { isRequiredColumn, kindLabel } from '../schema/recordSchema';
import type { DocumentFields } from './documentFields';
import { SCHEMA_KEY } from './recordText';

export interface DocumentProblem {
  readonly field: string;
  readonly offset: number;
  readonly length: number;
  readonly message: string;
  readonly severity: 'error' | 'warning';
}

export interface ProblemOptions {
  /** A record not created yet. */
  readonly creating: boolean;
  /** The copy the editor read (records only): read-only fields must keep its values. */
  readonly base?: RecordData;
}

function nameOf(column: Column): string {
  return column.field_name || column.field_id_in_data;
}

export function documentProblems(document: DocumentFields, columns: readonly Column[], options: ProblemOptions): DocumentProblem[] {
  const byKey = new Map(columns.map((column) => [column.field_id_in_data, column]));
  const problems: DocumentProblem[] = [];
  const given: RecordData = {};
  for (const field of document.fields) {
    const column = byKey.get(field.key);
    if (field.key === SCHEMA_KEY || !column || typeof field.value !== 'string') continue;
    given[field.key] = field.value;
    const at = { field: field.key, offset: field.valueOffset, length: field.valueLength };
    if (isWritable(column)) {
      if (!matchesFieldPattern(column, isRequiredColumn(column), field.value)) continue;
      const problem = checkValue(column, field.value);
      if (problem) problems.push({ ...at, message: `${nameOf(column)}: ${problem}`, severity: 'error' });
      continue;
    }
    if (options.creating && field.value !== '') {
      problems.push({ ...at, message: `${nameOf(column)} is read-only (${kindLabel(column)}): the portal fills it; leave it empty.`, severity: 'error' });
    } else if (!options.creating && options.base && field.value !== (options.base[field.key] ?? '')) {
      problems.push({ ...at, message: `${nameOf(column)} is read-only (${kindLabel(column)}): a change is never sent; put back ${JSON.stringify(options.base[field.key] ?? '')}.`, severity: 'error' });
    }
  }
  if (options.creating) {
    for (const key of missingRequired(columns, given).filter((key) => given[key] === undefined)) {
      const column = byKey.get(key);
      problems.push({ field: key, offset: document.objectOffset, length: 1, message: `${key}${column ? ` (${nameOf(column)})` : ''} is required: add it.`, severity: 'warning' });
    }
  }
  return problems;
}
