// The portal client: one typed method per data endpoint of portal-api.md. Every call carries the access
// token, a time limit and the caller's AbortSignal; a 401 renews the token once and retries once; every
// failure is a PortalError. Answers are read tolerantly: the documented fields are required (a missing one
// is an 'invalid-response' that names it), undocumented ones are kept, numbers are accepted for strings.
import { Readable } from 'node:stream';
import { Blob, FormData, Response } from 'node-fetch';
import { PortalError, isCancellation } from './errors';
import { filterQuery, type ViewFilter } from './filters';
import {
  DEFAULT_TIMEOUT_MS,
  httpError,
  invalidResponse,
  isSuccess,
  parseJsonBody,
  send,
  type FetchLike,
  type HttpMethod,
  type HttpResponse,
  type RequestBody,
  type RequestLogEntry,
} from './http';
import type { AppRef, Column, RecordData, RecordMetadataEntry, Site, ViewMetadataEntry } from './types';
import { apiUrl, normaliseBaseUrl } from './urls';
import { coerceFieldValues, fieldText, flagOf, isObject, textOf, type JsonObject } from './wire';

/** Where the client gets its access token; the auth layer implements it (refresh, SecretStorage, sign-in). */
export interface AccessTokenSource {
  accessToken(signal?: AbortSignal): Promise<string>;
  /** Called once after a 401; returns a new token, or undefined when the user must sign in again. */
  renewAfterUnauthorized(rejected: string, signal?: AbortSignal): Promise<string | undefined>;
}

export interface PortalClientOptions {
  baseUrl: string;
  tokens: AccessTokenSource;
  fetch?: FetchLike;
  /** Per request, body included; default 30000. */
  timeoutMs?: number;
  onRequest?: (entry: RequestLogEntry) => void;
}

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
  /** The row's values keyed by field_id_in_data (f<N>, l<N>, ...); every other key of the row but id/draft too. */
  values: Record<string, string>;
}

export interface ViewRead {
  rows: ViewRow[];
  metadata: ViewMetadataEntry[];
}

export interface AttachmentUpload {
  fileName: string;
  contentType: string;
  content: Uint8Array;
}

export interface DownloadedAttachment {
  fileName: string | undefined;
  contentType: string | undefined;
  content: Uint8Array;
}

export interface AttachmentOptions {
  /** Bytes of the encoded multipart body handed to the connection so far, of the total. */
  onProgress?: (sentBytes: number, totalBytes: number) => void;
}

interface Call {
  method: HttpMethod;
  segments: string[];
  query?: Array<[string, string]>;
  /** Built per attempt: a retried upload needs a fresh stream. */
  body?: () => { body: RequestBody; headers: Record<string, string> } | Promise<{ body: RequestBody; headers: Record<string, string> }>;
  action: string;
  /** Error codes to use when the portal's error body has none (e.g. 404 on download = no_attachment). */
  defaultCodes?: Partial<Record<number, string>>;
  /** Keys sent in the body, to name the field of a 400 whose body does not. */
  sentFields?: readonly string[];
}

const ROW_ID_KEYS = ['id', 'record_id'] as const;
const UPLOAD_CHUNK_BYTES = 64 * 1024;

function form(fields: RecordData): { body: string; headers: Record<string, string> } {
  return { body: new URLSearchParams(fields).toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } };
}

/** Field keys as the documentation shows them: f<N>, and l<N> for a Lookup app's columns in a view. */
const FIELD_KEY = /(?<![A-Za-z0-9_])[fl]\d+(?![A-Za-z0-9_])/g;

/**
 * The field a 400 is about when the body does not say (flat and text error bodies): the one sent field the
 * message names, else the one field key it names (a missing required field was not sent).
 */
function fieldNamedIn(message: string | undefined, sent: readonly string[]): string | undefined {
  if (!message) return undefined;
  const named = sent.filter((field) => new RegExp(`(^|[^A-Za-z0-9_])${field.replace(/[^A-Za-z0-9_]/g, '\\$&')}($|[^A-Za-z0-9_])`).test(message));
  if (named.length === 1) return named[0];
  if (named.length > 1) return undefined;
  const keys = new Set(message.match(FIELD_KEY) ?? []);
  return keys.size === 1 ? [...keys][0] : undefined;
}

function withField(error: PortalError, field: string): PortalError {
  return new PortalError({
    kind: error.kind,
    message: error.message,
    status: error.status,
    portalMessage: error.portalMessage,
    code: error.code,
    field,
    retryable: error.retryable,
  });
}

/** Content-Disposition's file name: filename* (RFC 5987) wins over filename. */
export function fileNameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(disposition);
  if (extended) {
    try {
      return decodeURIComponent(extended[2].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(disposition);
  const name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2]?.trim();
  return name || undefined;
}

/** Streams `bytes` in chunks and reports each chunk as the connection takes it. */
function countingStream(bytes: Buffer, onProgress: (sent: number, total: number) => void): Readable {
  let offset = 0;
  return new Readable({
    highWaterMark: UPLOAD_CHUNK_BYTES,
    read() {
      if (offset >= bytes.length) {
        this.push(null);
        return;
      }
      const end = Math.min(offset + UPLOAD_CHUNK_BYTES, bytes.length);
      this.push(bytes.subarray(offset, end));
      offset = end;
      onProgress(offset, bytes.length);
    },
  });
}

export class PortalClient {
  private readonly base: URL;
  private readonly tokens: AccessTokenSource;
  private readonly fetch: FetchLike | undefined;
  private readonly timeoutMs: number;
  private readonly onRequest: ((entry: RequestLogEntry) => void) | undefined;

  constructor(options: PortalClientOptions) {
    this.base = normaliseBaseUrl(options.baseUrl);
    this.tokens = options.tokens;
    this.fetch = options.fetch;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.onRequest = options.onRequest;
  }

  /** The normalised base URL (no trailing slash, no /api/v1). */
  get baseUrl(): string {
    return this.base.href.replace(/\/$/, '');
  }

  // ------------------------------------------------------------------------------------------------------
  // Endpoints

  async listSites(signal?: AbortSignal): Promise<Site[]> {
    const action = 'Listing the sites';
    const body = await this.json({ method: 'GET', segments: ['site'], action }, signal);
    if (!Array.isArray(body)) throw invalidResponse(action, 'it is not a list of sites.');
    return body.map((item, index) => siteOf(item, index, action));
  }

  async listColumns(appId: string, signal?: AbortSignal): Promise<Column[]> {
    const action = `Listing the columns of app ${appId}`;
    const body = await this.json({ method: 'GET', segments: ['app', appId, 'columns'], action }, signal);
    if (!Array.isArray(body)) throw invalidResponse(action, 'it is not a list of columns.');
    return body.map((item, index) => columnOf(item, index, appId, action));
  }

  async readRecord(appId: string, recordId: string, signal?: AbortSignal): Promise<RecordRead> {
    const action = `Reading record ${recordId} of app ${appId}`;
    const body = await this.json({ method: 'GET', segments: ['app', appId, 'record', recordId], action }, signal);
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

  async createRecord(appId: string, data: RecordData, options: { draft?: boolean } = {}, signal?: AbortSignal): Promise<CreatedRecord> {
    const action = `Creating a record in app ${appId}`;
    const fields = options.draft ? { ...data, draft: '1' } : data;
    const body = await this.json(
      { method: 'POST', segments: ['app', appId, 'record', ''], body: () => form(fields), action, sentFields: Object.keys(data) },
      signal,
    );
    if (!isObject(body)) throw invalidResponse(action, 'it is not a JSON object of the created values.');
    // Documented: the created values keyed by field_id_in_data. Some portals wrap them in "data".
    const source: JsonObject = isObject(body.data) ? body.data : body;
    const id = textOf(body.id) ?? textOf(body.record_id) ?? (source === body ? undefined : textOf(source.id));
    const values: Record<string, string> = {};
    for (const [key, value] of Object.entries(source)) {
      if (source === body && (key === 'id' || key === 'record_id' || key === 'draft')) continue;
      values[key] = fieldText(value);
    }
    return { id, data: values };
  }

  /** Sends only `changes`; `publish` also sends draft "0" (publishes a Draft record). */
  async updateRecord(appId: string, recordId: string, changes: RecordData, options: { publish?: boolean } = {}, signal?: AbortSignal): Promise<void> {
    const action = `Updating record ${recordId} of app ${appId}`;
    const fields = options.publish ? { ...changes, draft: '0' } : changes;
    const response = await this.call(
      { method: 'PUT', segments: ['app', appId, 'record', recordId], body: () => form(fields), action, sentFields: Object.keys(changes) },
      signal,
    );
    acceptWriteResponse(response, action);
  }

  async publishRecord(appId: string, recordId: string, signal?: AbortSignal): Promise<void> {
    const action = `Publishing record ${recordId} of app ${appId}`;
    const response = await this.call({ method: 'PUT', segments: ['app', appId, 'record', recordId], body: () => form({ draft: '0' }), action }, signal);
    acceptWriteResponse(response, action);
  }

  /** Moves the record to trash. */
  async deleteRecord(appId: string, recordId: string, signal?: AbortSignal): Promise<void> {
    const action = `Deleting record ${recordId} of app ${appId}`;
    const response = await this.call({ method: 'DELETE', segments: ['app', appId, 'record', recordId], action }, signal);
    // Documented {deleted: {id, deleted: "1"}}. A 2xx means it happened; only an explicit "0" says otherwise.
    const body = parseOptionalJson(response);
    if (isObject(body) && isObject(body.deleted) && flagOf(body.deleted.deleted) === false) {
      throw invalidResponse(action, 'it says the record was not deleted.');
    }
  }

  async readView(appId: string, viewId: string, filters: readonly ViewFilter[] = [], signal?: AbortSignal): Promise<ViewRead> {
    const action = `Reading view ${viewId} of app ${appId}`;
    const body = await this.json(this.viewCall(appId, viewId, filters, action), signal);
    return viewOf(body, action);
  }

  /** The view's answer as received (JSON bytes), e.g. to hand to a webview without parsing it here. */
  async readViewRaw(appId: string, viewId: string, filters: readonly ViewFilter[] = [], signal?: AbortSignal): Promise<Uint8Array> {
    const action = `Reading view ${viewId} of app ${appId}`;
    const response = await this.call(this.viewCall(appId, viewId, filters, action), signal);
    return response.body;
  }

  async addComment(appId: string, recordId: string, comment: string, signal?: AbortSignal): Promise<void> {
    const action = `Adding a comment to record ${recordId} of app ${appId}`;
    const response = await this.call(
      {
        method: 'POST',
        segments: ['app', appId, 'record', recordId, 'comment'],
        body: () => form({ comment }),
        action,
        defaultCodes: { 403: 'comments_disabled' },
      },
      signal,
    );
    acceptWriteResponse(response, action);
  }

  async addAttachment(appId: string, recordId: string, file: AttachmentUpload, options: AttachmentOptions = {}, signal?: AbortSignal): Promise<void> {
    const action = `Adding the attachment ${file.fileName} to record ${recordId} of app ${appId}`;
    const encoded = await encodeAttachment(file);
    const response = await this.call(
      {
        method: 'POST',
        segments: ['app', appId, 'record', recordId, 'attachment'],
        body: () => {
          options.onProgress?.(0, encoded.bytes.length);
          const body = options.onProgress ? countingStream(encoded.bytes, options.onProgress) : encoded.bytes;
          return { body, headers: { 'Content-Type': encoded.contentType, 'Content-Length': String(encoded.bytes.length) } };
        },
        action,
      },
      signal,
    );
    acceptWriteResponse(response, action);
  }

  /** The record's first attachment. No attachment: PortalError status 404, code 'no_attachment'. */
  async downloadAttachment(appId: string, recordId: string, signal?: AbortSignal): Promise<DownloadedAttachment> {
    const action = `Downloading the attachment of record ${recordId} of app ${appId}`;
    const response = await this.call(
      { method: 'GET', segments: ['app', appId, 'record', recordId, 'attachment'], action, defaultCodes: { 404: 'no_attachment' } },
      signal,
    );
    return {
      fileName: fileNameOf(response.headers.get('content-disposition')),
      contentType: response.headers.get('content-type') ?? undefined,
      content: response.body,
    };
  }

  // ------------------------------------------------------------------------------------------------------
  // The request core

  private viewCall(appId: string, viewId: string, filters: readonly ViewFilter[], action: string): Call {
    return { method: 'GET', segments: ['app', appId, 'view', viewId], query: filterQuery(filters), action };
  }

  private async json(call: Call, signal: AbortSignal | undefined): Promise<unknown> {
    const response = await this.call(call, signal);
    return parseJsonBody(response, call.action);
  }

  private async token(call: Call, get: () => Promise<string | undefined>): Promise<string | undefined> {
    try {
      return await get();
    } catch (error) {
      if (error instanceof PortalError) throw error;
      if (isCancellation(error)) throw new PortalError({ kind: 'cancelled', message: `${call.action} was cancelled.`, cause: error });
      throw new PortalError({
        kind: 'http',
        status: 401,
        code: 'unauthorized',
        message: `${call.action} failed: not signed in to the portal${error instanceof Error && error.message ? ` (${error.message})` : ''}.`,
        cause: error,
      });
    }
  }

  /** One call with the 401 protocol: renew once, retry once, then 'unauthorized'. Resolves only for 2xx. */
  private async call(call: Call, signal: AbortSignal | undefined): Promise<HttpResponse> {
    let token = (await this.token(call, () => this.tokens.accessToken(signal))) ?? '';
    const used: string[] = [token];
    for (let attempt = 1; ; attempt += 1) {
      const body = call.body ? await call.body() : undefined;
      const response = await send({
        method: call.method,
        url: apiUrl(this.base, call.segments, call.query),
        headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...body?.headers },
        body: body?.body,
        signal,
        timeoutMs: this.timeoutMs,
        fetch: this.fetch,
        action: call.action,
        onRequest: this.onRequest,
      });
      if (isSuccess(response.status)) return response;
      if (response.status === 401 && attempt === 1) {
        const renewed = await this.token(call, () => this.tokens.renewAfterUnauthorized(token, signal));
        if (renewed !== undefined) {
          token = renewed;
          used.push(renewed);
          continue;
        }
      }
      const error = httpError(response, {
        action: call.action,
        secrets: used,
        defaultCodes: call.defaultCodes,
        code: response.status === 401 ? 'unauthorized' : undefined,
      });
      const field = error.field === undefined && response.status === 400 ? fieldNamedIn(error.portalMessage, call.sentFields ?? []) : undefined;
      throw field === undefined ? error : withField(error, field);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Reading the answers

function parseOptionalJson(response: HttpResponse): unknown {
  if (response.body.length === 0) return undefined;
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Update, comment and attachment answers are not documented: any 2xx body is fine unless it says failure. */
function acceptWriteResponse(response: HttpResponse, action: string): void {
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

const COLUMN_TEXT_FIELDS = ['app_id', 'field_id', 'field_name', 'field_description', 'type', 'type_name', 'position', 'unique_value'] as const;

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

function viewOf(body: unknown, action: string): ViewRead {
  if (!isObject(body)) throw invalidResponse(action, 'it is not a JSON object.');
  if (!Array.isArray(body.data)) throw invalidResponse(action, 'it has no "data" list of rows.');
  if (!Array.isArray(body.metadata)) throw invalidResponse(action, 'it has no "metadata" list.');
  const metadata = body.metadata.map((entry, index) => {
    if (!isObject(entry)) throw invalidResponse(action, `metadata entry ${index + 1} is not an object.`);
    if (textOf(entry.field_id_in_data) === undefined) throw invalidResponse(action, `metadata entry ${index + 1} has no "field_id_in_data".`);
    return entry as ViewMetadataEntry;
  });
  const columnKeys = new Set(metadata.map((entry) => String(entry.field_id_in_data)));
  const rowKeysAreColumns = columnKeys.has('id') || columnKeys.has('record_id') || columnKeys.has('draft');
  const rows = new Array<ViewRow>(body.data.length);
  for (let index = 0; index < rows.length; index += 1) {
    const row: unknown = body.data[index];
    if (!isObject(row)) throw invalidResponse(action, `row ${index + 1} is not an object.`);
    const id = textOf(row[ROW_ID_KEYS[0]]) ?? textOf(row[ROW_ID_KEYS[1]]);
    const draft = flagOf(row.draft);
    // One shallow copy per row, without the row-level keys; no other copies (views can be 100,000 rows).
    let values: JsonObject = row;
    if (!rowKeysAreColumns) {
      const { id: _id, record_id: _recordId, draft: _draft, ...rest } = row;
      values = rest;
    }
    rows[index] = { id, draft, values: coerceFieldValues(values) };
  }
  return { rows, metadata };
}

async function encodeAttachment(file: AttachmentUpload): Promise<{ bytes: Buffer; contentType: string }> {
  // node-fetch's own multipart encoder; encoded up front so the upload can report its progress and a 401
  // retry can send the same bytes again.
  const data = new FormData();
  data.append('attachment_file', new Blob([file.content], { type: file.contentType }), file.fileName);
  const encoded = new Response(data);
  const contentType = encoded.headers.get('content-type');
  if (!contentType) throw new Error('node-fetch did not give the multipart body a content type');
  return { bytes: Buffer.from(await encoded.arrayBuffer()), contentType };
}
