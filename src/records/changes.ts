// What a save sends, worked out before anything is sent: the body of the update (only the fields the user
// changed) or of the create (every field with a value), and every reason to send nothing, each naming the
// field. Pure (no vscode import); the record store (store.ts) stands on it.
//
// Rules of an update:
// - a field is changed when its value differs from the copy the editor read (`base`); a field removed from
//   the document is not changed (set it to "" to clear it);
// - a changed field whose new value the portal already holds (`server`) is not sent again;
// - read-only fields (Auto Number, LookUp, anything the formats table does not list) are never sent: one
//   changed in the document is refused, with its original value in the message;
// - keys that are no column are refused when they were not in the copy read;
// - what is sent passes src/api/formats.ts checkRecord (the formats table, required fields).
import { isWritable } from '../api/columnKinds';
import { checkRecord, type FieldProblem } from '../api/formats';
import type { Column, RecordData } from '../api/types';

export type { FieldProblem } from '../api/formats';

export interface Body {
  readonly fields: RecordData;
  readonly problems: readonly FieldProblem[];
}

const EXCERPT = 40;

function shown(value: string): string {
  const line = value.replace(/\s+/g, ' ');
  return JSON.stringify(line.length > EXCERPT ? `${line.slice(0, EXCERPT - 1)}…` : line);
}

export interface UpdateInput {
  readonly columns: readonly Column[];
  /** The copy the editor read. */
  readonly base: RecordData;
  /** The portal's copy now (read for the conflict check). */
  readonly server: RecordData;
  /** The document's fields (fieldValues). */
  readonly edited: RecordData;
}

export function updateBody({ columns, base, server, edited }: UpdateInput): Body {
  const byKey = new Map(columns.map((column) => [column.field_id_in_data, column]));
  const fields: RecordData = {};
  const problems: FieldProblem[] = [];
  for (const [key, value] of Object.entries(edited)) {
    const column = byKey.get(key);
    const before = base[key] ?? '';
    if (!column) {
      if (base[key] === undefined || value !== before)
        problems.push({ field: key, message: 'unknown field: the app has no column with this field_id_in_data' });
      continue;
    }
    if (value === before) continue;
    if (!isWritable(column)) {
      problems.push({
        field: key,
        message: `read-only (${column.type_name || 'not writable'}): it cannot be changed through the API; put back ${shown(before)}`,
      });
      continue;
    }
    if (value === (server[key] ?? '')) continue;
    fields[key] = value;
  }
  problems.push(...checkRecord(columns, fields, { creating: false }));
  return { fields, problems };
}

/** The body of a create: every writable field with a value; read-only fields must stay empty. */
export function createBody(columns: readonly Column[], edited: RecordData): Body {
  const byKey = new Map(columns.map((column) => [column.field_id_in_data, column]));
  const fields: RecordData = {};
  const problems: FieldProblem[] = [];
  for (const [key, value] of Object.entries(edited)) {
    const column = byKey.get(key);
    if (!column) problems.push({ field: key, message: 'unknown field: the app has no column with this field_id_in_data' });
    else if (!isWritable(column)) {
      if (value !== '')
        problems.push({ field: key, message: `read-only (${column.type_name || 'not writable'}): the portal fills it; leave it out` });
    } else if (value !== '') fields[key] = value;
  }
  problems.push(...checkRecord(columns, fields, { creating: true }));
  return { fields, problems };
}

/** "f15 (Order date): not a real date ..." */
export function describeProblem(columns: readonly Column[], problem: FieldProblem): string {
  const name = columns.find((column) => column.field_id_in_data === problem.field)?.field_name;
  return `${problem.field}${name ? ` (${name})` : ''}: ${problem.message}`;
}

/** One sentence for a refused save: the first problem, and how many more there are. */
export function describeProblems(columns: readonly Column[], problems: readonly FieldProblem[]): string {
  const first = describeProblem(columns, problems[0]);
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more: see the Problems panel)` : '';
  return `${first}${more}. Nothing was sent.`;
}
