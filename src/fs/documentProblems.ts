// The problems of a record document, reported by the extension with the save's own rules, as the user
// types: every reason the save would refuse is an Error (a value that breaks its column's shape or the
// formats table, a non-string, an unknown field, a key twice, a read-only field changed from the copy
// read or given in a new record, a required field emptied or left out of a new record). A Warning is only
// for what the save does not send (a bad value the portal already holds, unchanged). The JSON language
// checks nothing but the syntax: the schema served to it has no rules (its Warnings would not block).
// Pure (no vscode import).
import { isWritable } from '../api/columnKinds';
import { checkValue, missingRequired } from '../api/formats';
import type { Column, RecordData } from '../api/types';
import { matchesFieldPattern } from '../schema/fieldPatterns';
import { isRequiredColumn, kindLabel, patternMessage } from '../schema/recordSchema';
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

/** Where a writable value breaks the column's rules: its shape, then the formats table. */
function valueProblem(column: Column, value: string): string | undefined {
  const required = isRequiredColumn(column);
  if (!matchesFieldPattern(column, required, value)) return patternMessage(column, required);
  const problem = checkValue(column, value);
  return problem ? `${nameOf(column)}: ${problem}` : undefined;
}

export function documentProblems(document: DocumentFields, columns: readonly Column[], options: ProblemOptions): DocumentProblem[] {
  const byKey = new Map(columns.map((column) => [column.field_id_in_data, column]));
  const problems: DocumentProblem[] = [];
  if (document.notAnObject) {
    return [
      {
        field: '',
        ...document.notAnObject,
        message: 'The document must be one JSON object of fields, like {"f12": "value"}.',
        severity: 'error',
      },
    ];
  }
  const given: RecordData = {};
  const seen = new Set<string>();
  for (const field of document.fields) {
    if (field.key === SCHEMA_KEY || field.value === undefined) continue;
    const column = byKey.get(field.key);
    const at = { field: field.key, offset: field.valueOffset, length: field.valueLength };
    const error = (message: string): void => void problems.push({ ...at, message, severity: 'error' });
    if (seen.has(field.key)) {
      error(`${field.key} appears twice in the document: keep one.`);
      continue;
    }
    seen.add(field.key);
    if (typeof field.value !== 'string') {
      error(
        `${column ? nameOf(column) : field.key}: must be a string in quotes, like "${typeof field.value === 'number' ? String(field.value) : 'text'}" (the portal takes every value as text).`,
      );
      continue;
    }
    given[field.key] = field.value;
    // An update sends only what changed from the copy read: the rest cannot block the save.
    const changed = options.creating || field.value !== (options.base?.[field.key] ?? '');
    if (!column) {
      if (options.creating || options.base?.[field.key] === undefined || changed)
        error(`${field.key}: unknown field: the app has no column with this field_id_in_data.`);
      continue;
    }
    if (isWritable(column)) {
      const problem = valueProblem(column, field.value);
      if (problem && changed) error(problem);
      else if (problem)
        problems.push({ ...at, message: `${problem} (as the portal holds it: not sent unless you change it)`, severity: 'warning' });
      continue;
    }
    if (options.creating && field.value !== '') {
      error(`${nameOf(column)} is read-only (${kindLabel(column)}): the portal fills it; leave it empty.`);
    } else if (!options.creating && options.base && field.value !== (options.base[field.key] ?? '')) {
      error(
        `${nameOf(column)} is read-only (${kindLabel(column)}): a change is never sent; put back ${JSON.stringify(options.base[field.key] ?? '')}.`,
      );
    }
  }
  if (options.creating) {
    for (const key of missingRequired(columns, given).filter((key) => given[key] === undefined)) {
      const column = byKey.get(key);
      problems.push({
        field: key,
        offset: document.objectOffset,
        length: 1,
        message: `${key}${column ? ` (${nameOf(column)})` : ''} is required: add it.`,
        severity: 'error',
      });
    }
  }
  return problems;
}
