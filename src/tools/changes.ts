// What a changing tool will send, worked out before the user is asked: fields named as the model names
// them become the portal's field ids and choice ids, and go through the same rules as a record document's
// save (src/records/changes.ts, which uses src/api/formats.ts): an update sends only the fields whose
// value differs from the copy read, a create every field with a value, and any problem means nothing is
// sent. The confirmation shows exactly that body, field by field with names, old → new.
//
// The conflict check is the save's, through the same record store (src/records/store.ts): the copy the
// confirmation showed is the base; just before sending, the record is read again, and if any field a save
// could overwrite changed meanwhile, nothing is sent.
import { isWritable } from '../api/columnKinds';
import type { Column, RecordData } from '../api/types';
import { createBody, describeProblem, updateBody, type FieldProblem } from '../records/changes';
import { MAX_VALUE_CHARS, quotedText, shownValue } from './answers';
import { ToolRefusal } from './host';
import { fieldLabel, resolveField, wireValue } from './resolve';

/**
 * The longest value these tools send (the comment tool's limit too): the confirmation shows every value
 * it sends in full, and a dialog of pages is no confirmation.
 */
export const MAX_SENT_VALUE_CHARS = 4000;

/** Fields as the model gives them: keyed by name or id, values as text (numbers are taken as their text). */
export type FieldInput = Readonly<Record<string, unknown>>;

/**
 * The "fields" a model gave, when they are an object of fields (missing: none). Text or a list would be
 * read as fields named "0", "1"…, and the refusal would name a field the model never gave.
 */
export function givenFields(value: unknown): FieldInput {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ToolRefusal('"fields" must be an object of field name or id → value, e.g. {"Status": "Delivered"}. Nothing was sent.');
  }
  return value as FieldInput;
}

/** The fields keyed by field_id_in_data, values as the portal's strings (choice names made ids). */
export function fieldsByKey(columns: readonly Column[], input: FieldInput, appName: string): RecordData {
  const fields: RecordData = {};
  const givenAs = new Map<string, string>();
  for (const [given, value] of Object.entries(input)) {
    const column = resolveField(columns, given, appName);
    const key = column.field_id_in_data;
    if (givenAs.has(key))
      throw new ToolRefusal(
        `"${givenAs.get(key)}" and "${given}" both name ${fieldLabel(column)}: give each field once. Nothing was sent.`,
      );
    givenAs.set(key, given);
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      throw new ToolRefusal(
        `${fieldLabel(column)} must be given as text, e.g. "${fieldExample(column)}"; got ${value === null ? 'null' : typeof value}. Nothing was sent.`,
      );
    }
    const text = String(value);
    if (text.length > MAX_SENT_VALUE_CHARS) {
      throw new ToolRefusal(
        `${fieldLabel(column)} is ${text.length} characters long; this tool sends at most ${MAX_SENT_VALUE_CHARS} characters per value, so that the confirmation shows all of it. Nothing was sent; shorten the value, or ask the user to enter it in Portal Explorer.`,
      );
    }
    fields[key] = wireValue(column, text);
  }
  return fields;
}

function fieldExample(column: Column): string {
  return column.choices?.[0]?.name ?? 'a value';
}

/** One sentence for the problems of a body: the first, named with its field, and how many more. */
export function problemSentence(columns: readonly Column[], problems: readonly FieldProblem[]): string {
  const first = describeProblem(columns, problems[0]);
  const more =
    problems.length > 1
      ? ` Also: ${problems
          .slice(1, 4)
          .map((problem) => describeProblem(columns, problem))
          .join('; ')}${problems.length > 4 ? ` and ${problems.length - 4} more` : ''}.`
      : '';
  return `${first}.${more} Nothing was sent; correct the value${problems.length > 1 ? 's' : ''} and try again.`;
}

export interface FieldChange {
  readonly column: Column;
  /** The portal's value in the copy read ("" for a create). */
  readonly before: string;
  readonly after: string;
}

export interface UpdatePlan {
  /** The copy read for the confirmation: the base of the conflict check. */
  readonly base: RecordData;
  readonly changes: readonly FieldChange[];
  /** Fields given that already hold the value asked for (not sent). */
  readonly unchanged: readonly Column[];
}

export function planUpdate(columns: readonly Column[], current: RecordData, input: FieldInput, appName: string): UpdatePlan {
  if (Object.keys(input).length === 0)
    throw new ToolRefusal('No field to change was given: "fields" must name at least one field and its new value.');
  const edited = fieldsByKey(columns, input, appName);
  const body = updateBody({ columns, base: current, server: current, edited });
  if (body.problems.length > 0) throw new ToolRefusal(problemSentence(columns, body.problems));
  const byKey = new Map(columns.map((column) => [column.field_id_in_data, column]));
  const changes = Object.entries(body.fields).map(([key, after]) => ({
    column: byKey.get(key) as Column,
    before: current[key] ?? '',
    after,
  }));
  const unchanged = Object.keys(edited)
    .filter((key) => body.fields[key] === undefined)
    .map((key) => byKey.get(key) as Column);
  return { base: current, changes, unchanged };
}

/**
 * The sentence of an update refused because the record changed after the confirmation (`now` differs
 * from the confirmation's copy `base` in a writable field): the fields that moved, at most four.
 */
export function conflictSentence(columns: readonly Column[], base: RecordData, now: RecordData, recordName: string): string {
  const moved = columns.filter(
    (column) => isWritable(column) && (now[column.field_id_in_data] ?? '') !== (base[column.field_id_in_data] ?? ''),
  );
  const what = moved
    .slice(0, 4)
    .map(
      (column) =>
        `${fieldLabel(column)} is now ${quoted(column, now[column.field_id_in_data] ?? '')}, was ${quoted(column, base[column.field_id_in_data] ?? '')}`,
    );
  const more = moved.length > 4 ? ` and ${moved.length - 4} more fields changed` : '';
  const detail = what.length > 0 ? `: ${what.join('; ')}${more}` : '';
  return `${recordName} changed in the portal after the user confirmed${detail}. Nothing was sent; run the tool again so the user confirms against the current values.`;
}

export function planCreate(columns: readonly Column[], input: FieldInput, appName: string): FieldChange[] {
  const edited = fieldsByKey(columns, input, appName);
  const body = createBody(columns, edited);
  if (body.problems.length > 0) throw new ToolRefusal(problemSentence(columns, body.problems));
  return columns
    .filter((column) => body.fields[column.field_id_in_data] !== undefined)
    .map((column) => ({ column, before: '', after: body.fields[column.field_id_in_data] }));
}

/** A value in an answer: quoted with line breaks made visible, choice names, cut to `max`; "(empty)" for "". */
export function quoted(column: Column, raw: string, max = MAX_VALUE_CHARS): string {
  return raw === '' ? '(empty)' : quotedText(shownValue(column, raw), max);
}

/**
 * "- f19 (Status): "New" → "Delivered"" per change; a create shows the new value only. `whole`: each new
 * value in full, as the confirmation shows what is sent (old values are cut: they are not sent).
 */
export function changeLines(changes: readonly FieldChange[], creating: boolean, whole = false): string[] {
  const after = (change: FieldChange): string => quoted(change.column, change.after, whole ? Infinity : MAX_VALUE_CHARS);
  return changes.map(
    (change) =>
      `- ${fieldLabel(change.column)}: ${creating ? after(change) : `${quoted(change.column, change.before)} → ${after(change)}`}`,
  );
}
