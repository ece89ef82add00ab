// Reading the portal's answers into the client's types, without trusting them: documented fields are
// required (a missing one is an 'invalid-response' that names it), undocumented ones are kept, numbers and
// nulls are taken for strings. Views are read with one shallow copy per row at most: they can be 100,000.
import { invalidResponse, parseJsonBody, type HttpResponse } from './http';
import { streamedRefusalOf } from './rowBoundaries';
import type { AppRef, Column, RecordData, RecordMetadataEntry, Site, ViewMetadataEntry } from './types';
import { coerceFieldValues, fieldText, flagOf, isObject, textOf, type JsonObject } from './wire';

/** A read record, normalised. */
export interface RecordRead {
  /** The record id the portal sent (`id` or `record_id`), else the one asked for. */
  id: string;
  data: RecordData;
  metadata: RecordMetadataEntry[];
  /** undefined when the portal does not say (the documentation does not show it). */
  draft: boolean | undefined;
}

export interface CreatedRecord {
  /** undefined when the portal's answer does not carry the new record's id. */
  id: string | undefined;
  data: RecordData;
}

export interface ViewRow {
  /** The row's record id (`id` or `record_id`), when the portal sends it. */
  id: string | undefined;
  draft: boolean | undefined;
  /**
   * The row's values keyed by field_id_in_data (f<N>, l<N>, ...): every key of the row except id, record_id
   * and draft (unless the metadata names one of them as a column), so undocumented keys are kept.
   */
  values: Record<string, string>;
}

export interface ViewRead {
  rows: ViewRow[];
  metadata: ViewMetadataEntry[];
}

const ROW_ID_KEYS = ['id', 'record_id'] as const;

function parseOptionalJson(response: HttpResponse): unknown {
  if (response.body.length === 0) return undefined;
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Update, comment and attachment answers are not documented: any 2xx body is fine unless it says failure. */
export function acceptWriteResponse(response: HttpResponse, action: string): void {
  const body = parseOptionalJson(response);
  if (isObject(body) && flagOf(body.success) === false) throw invalidResponse(action, 'it says the change did not succeed.');
}

function requireText(item: JsonObject, key: string, what: string, action: string): string {
  const value = textOf(item[key]);
  if (value === undefined) throw invalidResponse(action, `${what} has no "${key}".`);
  return value;
}

function siteOf(item: unknown, index: number, action: string): Site {
  const what = `site ${index + 1}`;
  if (!isObject(item)) throw invalidResponse(action, `${what} is not an object.`);
  const id = requireText(item, 'id', what, action);
  if (!Array.isArray(item.apps)) throw invalidResponse(action, `site ${id} has no "apps" list.`);
  const apps = item.apps.map((app, appIndex): AppRef => {
    if (!isObject(app)) throw invalidResponse(action, `app ${appIndex + 1} of site ${id} is not an object.`);
    return { ...app, app_id: requireText(app, 'app_id', `app ${appIndex + 1} of site ${id}`, action), name: textOf(app.name) ?? '' };
  });
  return { ...item, id, name: textOf(item.name) ?? '', manager: textOf(item.manager) ?? '', apps };
}

const COLUMN_TEXT_FIELDS = [
  'app_id',
  'field_id',
  'field_name',
  'field_description',
  'type',
  'type_name',
  'position',
  'unique_value',
] as const;

function columnOf(item: unknown, index: number, appId: string, action: string): Column {
  if (!isObject(item)) throw invalidResponse(action, `column ${index + 1} is not an object.`);
  const key = requireText(item, 'field_id_in_data', `column ${index + 1}`, action);
  if (textOf(item.type) === undefined && textOf(item.type_name) === undefined) {
    throw invalidResponse(action, `column ${key} has neither "type" nor "type_name".`);
  }
  const column: JsonObject = { ...item, field_id_in_data: key };
  for (const field of COLUMN_TEXT_FIELDS) column[field] = textOf(item[field]) ?? '';
  if (column.app_id === '') column.app_id = appId;
  if (column.field_id === '') column.field_id = key.replace(/^[a-z]+/i, '');
  if (item.required !== undefined) column.required = textOf(item.required) ?? fieldText(item.required);
  return column as Column;
}

/** The view's metadata list, each entry checked for its field_id_in_data. */
export function viewMetadataOf(list: unknown[], action: string): ViewMetadataEntry[] {
  return list.map((entry, index) => {
    if (!isObject(entry)) throw invalidResponse(action, `metadata entry ${index + 1} is not an object.`);
    if (textOf(entry.field_id_in_data) === undefined)
      throw invalidResponse(action, `metadata entry ${index + 1} has no "field_id_in_data".`);
    return entry as ViewMetadataEntry;
  });
}

/** True when the metadata names id, record_id or draft as a column: then they stay among a row's values. */
export function rowKeysAreColumns(metadata: readonly ViewMetadataEntry[]): boolean {
  return metadata.some((entry) => ['id', 'record_id', 'draft'].includes(String(entry.field_id_in_data)));
}

/** One row of a view, normalised. One shallow copy per row at most (views can be a million rows). */
export function viewRowOf(row: unknown, index: number, keysAreColumns: boolean, action: string): ViewRow {
  if (!isObject(row)) throw invalidResponse(action, `row ${index + 1} is not an object.`);
  const id = textOf(row[ROW_ID_KEYS[0]]) ?? textOf(row[ROW_ID_KEYS[1]]);
  const draft = flagOf(row.draft);
  let values: JsonObject = row;
  if (!keysAreColumns) {
    const { id: _id, record_id: _recordId, draft: _draft, ...rest } = row;
    values = rest;
  }
  return { id, draft, values: coerceFieldValues(values) };
}

export function viewOf(body: unknown, action: string): ViewRead {
  if (!isObject(body)) throw invalidResponse(action, 'it is not a JSON object.');
  if (!Array.isArray(body.data)) throw invalidResponse(action, 'it has no "data" list of rows.');
  if (!Array.isArray(body.metadata)) throw invalidResponse(action, 'it has no "metadata" list.');
  const metadata = viewMetadataOf(body.metadata, action);
  const keysAreColumns = rowKeysAreColumns(metadata);
  const rows = new Array<ViewRow>(body.data.length);
  for (let index = 0; index < rows.length; index += 1) rows[index] = viewRowOf(body.data[index], index, keysAreColumns, action);
  return { rows, metadata };
}

/**
 * A view's answer read whole (readView): JSON.parse, then viewOf. It refuses what the streamed read
 * (viewStream.ts) refuses: JSON.parse keeps the last of two "data" lists, the streamed read cannot.
 */
export function viewOfResponse(response: HttpResponse, action: string): ViewRead {
  const view = viewOf(parseJsonBody(response, action), action);
  const refusal = streamedRefusalOf(response.body);
  if (refusal) throw invalidResponse(action, refusal);
  return view;
}

/** A read record, normalised: the id asked for when the portal sends none, draft undefined when unsaid. */
export function recordOf(body: unknown, recordId: string, action: string): RecordRead {
  if (!isObject(body)) throw invalidResponse(action, 'it is not a JSON object.');
  if (!isObject(body.data)) throw invalidResponse(action, 'it has no "data" object.');
  if (!Array.isArray(body.metadata)) throw invalidResponse(action, 'it has no "metadata" list.');
  const metadata = body.metadata.map((entry, index) => {
    if (!isObject(entry)) throw invalidResponse(action, `metadata entry ${index + 1} is not an object.`);
    return entry as RecordMetadataEntry;
  });
  return {
    id: textOf(body.id) ?? textOf(body.record_id) ?? recordId,
    data: coerceFieldValues(body.data),
    metadata,
    draft: flagOf(body.draft),
  };
}

/** The created values (documented: keyed by field_id_in_data; some portals wrap them in "data"). */
export function createdOf(body: unknown, action: string): CreatedRecord {
  if (!isObject(body)) throw invalidResponse(action, 'it is not a JSON object of the created values.');
  const source: JsonObject = isObject(body.data) ? body.data : body;
  const id = textOf(body.id) ?? textOf(body.record_id) ?? (source === body ? undefined : textOf(source.id));
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (source === body && (key === 'id' || key === 'record_id' || key === 'draft')) continue;
    values[key] = fieldText(value);
  }
  return { id, data: values };
}

/** Documented {deleted: {id, deleted: "1"}}. A 2xx means it happened; only an explicit "0" says otherwise. */
export function acceptDeleteResponse(response: HttpResponse, action: string): void {
  const body = parseOptionalJson(response);
  if (isObject(body) && isObject(body.deleted) && flagOf(body.deleted.deleted) === false) {
    throw invalidResponse(action, 'it says the record was not deleted.');
  }
}

export function sitesOf(body: unknown, action: string): Site[] {
  if (!Array.isArray(body)) throw invalidResponse(action, 'it is not a list of sites.');
  return body.map((item, index) => siteOf(item, index, action));
}

export function columnsOf(body: unknown, appId: string, action: string): Column[] {
  if (!Array.isArray(body)) throw invalidResponse(action, 'it is not a list of columns.');
  return body.map((item, index) => columnOf(item, index, appId, action));
}
