// Reading create and update bodies against an app's columns: unknown fields, read-only fields, values in
// the wrong format, required fields left empty and duplicates of unique columns answer 400 naming the field
// (README.md, "Value formats" and "Errors of data endpoints"). The first problem found wins, in the order
// of the body's parameters; missing required fields are checked after.
import { badRequest } from './errors';
import type { ColumnDef, StoredRecord } from './model';
import { fieldKey, READ_ONLY_KINDS } from './model';
import type { AppState } from './store';
import { valueProblem } from './values';

export interface WriteInput {
  /** New values keyed by field_id_in_data. */
  values: Record<string, string>;
  /** The draft parameter as sent, when sent. */
  draft?: string;
}

const label = (column: ColumnDef): string => `${fieldKey(column.field_id)} (${column.name})`;

/** Checks a create (record undefined) or update body; throws an ApiError naming the field at fault. */
export function readWrite(app: AppState, params: Map<string, string>, record?: Readonly<StoredRecord>): WriteInput {
  const byKey = new Map(app.def.columns.map((column) => [fieldKey(column.field_id), column]));
  const input: WriteInput = { values: {} };
  for (const [name, value] of params) {
    if (name === 'draft') {
      input.draft = value;
      continue;
    }
    const column = byKey.get(name);
    if (!column) throw badRequest('unknown_field', `${name} is not a column of app ${app.def.app_id} (${app.def.name}).`, name);
    if (READ_ONLY_KINDS.has(column.kind))
      throw badRequest('read_only_field', `${label(column)} is read-only (${column.kind === 'lookup' ? 'LookUp' : 'Auto Number'}).`, name);
    const problem = valueProblem(column, value);
    if (problem) throw badRequest('invalid_value', `${label(column)} ${problem}.`, name);
    if (column.required && value === '')
      throw badRequest('missing_required_field', `${label(column)} is required and cannot be empty.`, name);
    input.values[name] = value;
  }
  if (!record) {
    for (const column of app.def.columns) {
      const key = fieldKey(column.field_id);
      if (input.values[key] === undefined && column.kind === 'choice' && column.defaultValue) input.values[key] = column.defaultValue;
      if (column.required && !input.values[key]) throw badRequest('missing_required_field', `${label(column)} is required.`, key);
    }
  }
  checkUnique(app, input.values, record);
  return input;
}

function checkUnique(app: AppState, values: Record<string, string>, record?: Readonly<StoredRecord>): void {
  const unique = app.def.columns.filter(
    (column) => column.unique && !READ_ONLY_KINDS.has(column.kind) && values[fieldKey(column.field_id)],
  );
  if (unique.length === 0) return;
  for (const other of app.records.live()) {
    if (other.num === record?.num) continue;
    for (const column of unique) {
      const key = fieldKey(column.field_id);
      if (other.data[key] === values[key])
        throw badRequest('duplicate_value', `${label(column)} must be unique; record ${other.num} has the same value.`, key);
    }
  }
}
